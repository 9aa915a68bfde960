#!/bin/sh
# validate_sarif.sh FILE.sarif
# Validate FILE against the official SARIF 2.1.0 JSON schema, if one can be
# had on this machine; otherwise say "SKIP: SARIF schema not available" and
# exit 77 (ctest reports the test as skipped). No copy of the schema is
# kept in the repository. Where the schema comes from, in order:
#   1. $MT_SARIF_SCHEMA: a local copy, e.g. sarif-schema-2.1.0.json from the
#      OASIS SARIF TC (any draft the validator knows);
#   2. $MT_SARIF_CACHE/sarif-2.1.0-rtm.5.json, fetched by an earlier run;
#   3. the npm registry: Microsoft's @microsoft/jest-sarif 1.0.0-beta.0
#      ships the SARIF TC's 2.1.0 schema (lib/schemas/sarif-2.1.0-rtm.5.json,
#      the schema of the final 2.1.0 release candidate). `npm pack` fetches
#      the tarball alone (no install, no scripts), and the file must match
#      the SHA-256 pinned below, so a changed package cannot pass.
# The validator is Python's jsonschema module (Debian: python3-jsonschema).
set -eu
sarif=$1
pinned=2d99159ae54a3eea97f81781cff48780548657c35949f4b7f25e99a2ba4de4f8

skip() { echo "SKIP: SARIF schema not available ($*)"; exit 77; }

python=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import jsonschema' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || skip "no python3 with the jsonschema module; apt-get install python3-jsonschema"

schema=${MT_SARIF_SCHEMA:-}
if [ -z "$schema" ]; then
  cache=${MT_SARIF_CACHE:-${TMPDIR:-/tmp}/mytriton-sarif-schema}
  schema=$cache/sarif-2.1.0-rtm.5.json
  if [ ! -f "$schema" ]; then
    command -v npm >/dev/null 2>&1 || skip "no schema in $cache and no npm to fetch @microsoft/jest-sarif"
    mkdir -p "$cache"
    work=$(mktemp -d "$cache/fetch.XXXXXX")
    if ! (cd "$work" && timeout 120 npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null 2>&1); then
      rm -rf "$work"
      skip "npm pack @microsoft/jest-sarif@1.0.0-beta.0 failed (registry unreachable?)"
    fi
    tar -xzf "$work"/*.tgz -C "$work" package/lib/schemas/sarif-2.1.0-rtm.5.json
    got=$(sha256sum "$work/package/lib/schemas/sarif-2.1.0-rtm.5.json" | cut -d' ' -f1)
    if [ "$got" != "$pinned" ]; then
      rm -rf "$work"
      echo "FAIL: the schema in @microsoft/jest-sarif has SHA-256 $got, not the pinned $pinned" >&2
      exit 1
    fi
    mv "$work/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$schema"
    rm -rf "$work"
  fi
fi
[ -f "$schema" ] || skip "MT_SARIF_SCHEMA=$schema is not a file"

"$python" - "$schema" "$sarif" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.absolute_path))
for e in errors[:20]:
    print("schema error at /%s: %s" % ("/".join(map(str, e.absolute_path)), e.message))
if errors:
    sys.exit(1)
print("ok: %s is valid against %s (%s)" % (sys.argv[2], schema.get("title", "?"), cls.__name__))
PY
