#!/bin/sh
# run_rule_docs.sh MYTRITON ROOT
# docs/rules/ against compiler/base/diags.def, with the real binary:
#  - every code in diags.def has docs/rules/CODE.md whose first line is
#    "# CODE: <title from diags.def>", and README.md links it;
#  - every page belongs to a code of diags.def (no stale pages);
#  - a page either says "<!-- example: none -->" (and why, in prose) or has
#    an example: its first ```python block under "## Example" (plus a
#    ```json launch spec for `mytriton run`), the command in the line
#    "`mytriton compile|check|run ...` reports:", and the exact output in
#    the first ```text block. The example is written to example.py (the
#    spec to spec.json) in an empty folder, the command runs there with
#    --color never, and its standard error (standard output for `check`,
#    whose report is its output) must equal the text block and name the
#    code. The ```python block under "## How to fix" must then run through
#    the same command (or the one in "and `mytriton ...` then compiles it
#    cleanly.") with exit status 0 and without the code.
# MT_UPDATE_GOLDEN=1 rewrites the text blocks from the real output.
set -eu
mytriton=$1 root=$2
rules=$root/docs/rules
defs=$root/compiler/base/diags.def
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 verified=0 without=""

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# block PAGE WHICH: print the example, spec, expected or fix block.
block() {
  awk -v want="$2" '
    /^## Example/ { section = "example" }
    /^## How to fix/ { section = "fix" }
    /^```/ {
      if (inblock) { inblock = 0; next }
      lang = substr($0, 4); key = ""
      if (section == "example" && lang == "python" && !seen["example"]) key = "example"
      else if (section == "example" && lang == "json" && !seen["spec"]) key = "spec"
      else if (section == "example" && lang == "text" && !seen["expected"]) key = "expected"
      else if (section == "fix" && lang == "python" && !seen["fix"]) key = "fix"
      inblock = 1; cur = key; if (key != "") seen[key] = 1
      next
    }
    inblock && cur == want { print }' "$1"
}

# run DIR CMD: run a page's command line in DIR; output in DIR/got, status in $rc.
run() {
  (
    cd "$1"
    set -f
    # shellcheck disable=SC2086
    set -- $2
    shift # "mytriton"
    case $1 in check) stream=out ;; *) stream=err ;; esac
    MYTRITON_CACHE=0 "$mytriton" "$@" --color never >out.txt 2>err.txt && echo 0 >rc || echo $? >rc
    cp "$stream.txt" got
  )
  rc=$(cat "$1/rc")
  if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' "$1/err.txt"; then
    cat "$1/err.txt" >&2
    fail "sanitizer report from: $2"
  fi
}

sed -n 's/^RULE("\([A-Z][0-9]*\)", "[^"]*", "\([^"]*\)",.*/\1 \2/p' "$defs" >"$tmp/catalogue"
[ -s "$tmp/catalogue" ] || { echo "FAIL: no RULE lines read from $defs" >&2; exit 1; }

while read -r code title; do
  page=$rules/$code.md
  if [ ! -f "$page" ]; then fail "$code has no page docs/rules/$code.md"; continue; fi
  [ "$(head -n 1 "$page")" = "# $code: $title" ] || fail "$page: first line is not '# $code: $title'"
  grep -q "\[$code\]($code.md)" "$rules/README.md" || fail "docs/rules/README.md does not link $code"
  if grep -q '^<!-- example: none -->$' "$page"; then
    without="$without $code"
    continue
  fi
  dir=$tmp/$code
  mkdir "$dir"
  block "$page" example >"$dir/example.py"
  block "$page" spec >"$dir/spec.json"
  block "$page" expected >"$dir/expected"
  block "$page" fix >"$tmp/$code.fix.py"
  cmd=$(sed -n 's/^`\(mytriton [a-z]* [^`]*\)` reports:$/\1/p' "$page" | head -n 1)
  fixcmd=$(sed -n 's/^and `\(mytriton [^`]*\)` then compiles it cleanly\.$/\1/p' "$page" | head -n 1)
  if [ ! -s "$dir/example.py" ] || [ -z "$cmd" ] || [ ! -s "$dir/expected" ]; then
    fail "$page: needs a python example, a '\`mytriton ...\` reports:' line and a text block (or <!-- example: none -->)"
    continue
  fi
  [ -s "$dir/spec.json" ] || rm "$dir/spec.json"
  run "$dir" "$cmd"
  if [ "${MT_UPDATE_GOLDEN:-0}" = 1 ]; then
    awk -v got="$dir/got" '
      /^```text$/ && !done { print; while ((getline line < got) > 0) print line; skip = 1; next }
      skip && /^```$/ { skip = 0; done = 1 }
      !skip { print }' "$page" >"$tmp/page" && cp "$tmp/page" "$page"
    cp "$dir/got" "$dir/expected"
  fi
  if ! diff -u "$dir/expected" "$dir/got" >"$tmp/diff"; then
    fail "$page: '$cmd' does not print the page's diagnostic:"
    cat "$tmp/diff" >&2
  fi
  grep -q "\[$code\]" "$dir/got" || fail "$page: the example does not report $code"
  if [ ! -s "$tmp/$code.fix.py" ]; then
    fail "$page: no python block under '## How to fix'"
  else
    cp "$tmp/$code.fix.py" "$dir/example.py"
    run "$dir" "${fixcmd:-$cmd}"
    [ "$rc" -eq 0 ] || { fail "$page: the fix does not compile (exit $rc):"; cat "$dir/err.txt" >&2; }
    ! grep -q "\[$code\]" "$dir/got" || fail "$page: the fix still reports $code"
  fi
  verified=$((verified + 1))
done <"$tmp/catalogue"

for page in "$rules"/*.md; do
  name=$(basename "$page" .md)
  [ "$name" = README ] && continue
  grep -q "^$name " "$tmp/catalogue" || fail "docs/rules/$name.md documents no code of diags.def"
done

total=$(wc -l <"$tmp/catalogue")
echo "rule docs: $total codes, $verified examples compiled to their exact diagnostic and fixed"
echo "rule docs: no example kernel (each page says why):$without"
[ "$failures" -eq 0 ] || { echo "rule docs: $failures failures" >&2; exit 1; }
