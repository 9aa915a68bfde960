#!/bin/sh
# run_check.sh MYTRITON TESTDIR CASE
# One `mytriton check` test (tests/check/CMakeLists.txt names each case).
# Every case copies fixtures/project to a fresh temporary folder, adds the
# folders the scan must skip (they would not survive git: __pycache__ is
# ignored), and runs the real binary there with --root pointing at the copy,
# so every path in every report is relative and the same on every machine.
# Expected outputs live in expected/; MT_UPDATE_GOLDEN=1 rewrites them. The
# only normalisation is the tool version (`mytriton --version`) -> VERSION.
set -eu
mytriton=$1 dir=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$dir/fixtures/project" "$tmp/project"
for skip in __pycache__ build node_modules .venv; do
  mkdir -p "$tmp/project/$skip"
  printf 'def broken(:\n' >"$tmp/project/$skip/skipped.py"
done
ln -s .. "$tmp/project/kernels/loop"   # a link cycle: folders behind links are not walked
mkdir "$tmp/project/empty"
cd "$tmp"
version=$("$mytriton" --version | sed 's/^mytriton //')

fail() { echo "FAIL: $case: $*" >&2; exit 1; }

# expect RC CMD...: run CMD, check its exit status, keep stdout in out.txt and stderr in err.txt.
expect() {
  want=$1; shift
  set +e
  "$@" >out.txt 2>err.txt
  got=$?
  set -e
  if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' err.txt; then
    cat err.txt >&2
    fail "sanitizer report from: $*"
  fi
  if [ "$got" -ne "$want" ]; then
    cat out.txt err.txt >&2
    fail "expected exit $want, got $got from: $*"
  fi
}

# golden FILE NAME: compare FILE (version normalised) with expected/NAME.
golden() {
  sed "s/$version/VERSION/g" "$1" >"$1.norm"
  if [ "${MT_UPDATE_GOLDEN:-0}" = 1 ]; then
    cp "$1.norm" "$dir/expected/$2"
    echo "updated expected/$2"
  else
    diff -u "$dir/expected/$2" "$1.norm" || fail "output differs from expected/$2"
  fi
}

check() { "$mytriton" check --root . --docs-url https://docs.example/ "$@"; }

case $case in
text)
  expect 1 check project
  golden out.txt project.txt
  [ ! -s err.txt ] || fail "unexpected stderr: $(cat err.txt)"
  ;;
json)
  expect 1 check project --format json
  golden out.txt project.json
  ;;
junit)
  expect 1 check project --format junit -o report.xml
  [ ! -s out.txt ] || fail "-o FILE still wrote to stdout"
  golden report.xml project.junit.xml
  ;;
github)
  expect 1 env GITHUB_STEP_SUMMARY="$tmp/summary.md" "$mytriton" check --root . --docs-url https://docs.example/ \
    project --format github
  golden out.txt project.github.txt
  golden summary.md project.summary.md
  # Without $GITHUB_STEP_SUMMARY the summary goes to stderr.
  env -u GITHUB_STEP_SUMMARY "$mytriton" check --root . --docs-url https://docs.example/ project --format github \
    >out2.txt 2>err2.txt || true
  cmp -s out.txt out2.txt || fail "annotations depend on GITHUB_STEP_SUMMARY"
  cmp -s summary.md err2.txt || fail "the summary on stderr differs from the one in GITHUB_STEP_SUMMARY"
  ;;
github-limit)
  # 12 errors and 3 warnings: 10 commands, all errors, then a note that
  # the job summary has the rest.
  mkdir many
  i=0
  while [ $i -lt 12 ]; do
    printf '@triton.jit\ndef k%s(x):\n    tl.store(x, undefined_%s)\n' $i $i >many/e$i.py
    i=$((i + 1))
  done
  cp project/kernels/broken.py many/w1.py
  cp project/kernels/broken.py many/w2.py
  cp project/kernels/broken.py many/w3.py
  expect 1 env GITHUB_STEP_SUMMARY="$tmp/summary.md" "$mytriton" check --root . --docs-url https://docs.example/ \
    many --format github
  [ "$(grep -c '^::' out.txt)" -eq 10 ] || fail "expected 10 workflow commands"
  [ "$(grep -c '^::error ' out.txt)" -eq 10 ] || fail "the 10 commands must all be errors (errors first)"
  grep -q '^mytriton check: 8 more findings are not annotated' out.txt || fail "no note on the findings left out"
  [ "$(grep -c '^| error ' summary.md)" -eq 15 ] || fail "the job summary must list all 15 errors"
  [ "$(grep -c '^| warning ' summary.md)" -eq 3 ] || fail "the job summary must list all 3 warnings"
  ;;
github-escape)
  # Property delimiters and newlines in paths and messages.
  mkdir 'odd,dir:x'
  printf '@triton.jit\ndef k(x):\n    tl.store(x, tl.load(x) %% 100%%)\n' >'odd,dir:x/p%.py'
  expect 1 check 'odd,dir:x' --format github
  grep -q '^::error file=odd%2Cdir%3Ax/p%25.py,line=3,' out.txt || fail "path not escaped: $(cat out.txt)"
  ;;
discovery)
  # Specialisations found in the files themselves: a launch in the file, a
  # launch in another module of the package, a launch spec beside the
  # kernel; a kernel nothing specialises is skipped, with values that
  # compile, and --fail-on-skipped fails the run for it.
  cp -R "$dir/fixtures/discovery" "$tmp/discovery"
  expect 0 check discovery
  golden out.txt discovery.txt
  expect 0 check discovery --format json
  golden out.txt discovery.json
  expect 1 check discovery --fail-on-skipped
  grep -q '1 kernel could not be specialised and --fail-on-skipped is set' err.txt || fail "--fail-on-skipped: $(cat err.txt)"
  expect 0 check discovery/tutorial discovery/package discovery/specs --fail-on-skipped
  grep -q '^4 files, 3 kernels checked, 0 skipped' out.txt || fail "discovered kernels: $(cat out.txt)"
  ;;
exit-codes)
  expect 0 check project/kernels/add.py project/host          # clean kernel, host-only file
  grep -q '^2 files, 1 kernel checked, 0 skipped: 0 errors, 0 warnings$' out.txt || fail "clean summary: $(cat out.txt)"
  expect 0 check project/needs_spec                            # skipped is not an error
  grep -q '0 errors' out.txt || fail "skipped kernel summary"
  expect 0 check project/needs_spec -D BLOCK=128              # -D resolves it
  grep -q '^1 file, 1 kernel checked, 0 skipped' out.txt || fail "-D did not specialise: $(cat out.txt)"
  expect 0 check project/needs_spec -D BLOCK=128 -D NOPE=1
  grep -q 'NOPE names no parameter' err.txt || fail "no warning for an unused -D"
  expect 1 check project/kernels/broken.py                     # errors
  expect 1 check project/kernels/syntax.py                     # a file that does not parse
  expect 2 check project --format yaml
  expect 2 check does-not-exist
  expect 2 check project -D BLOCK
  expect 2 check project --arch 90
  expect 2 check project --color sometimes
  expect 2 check project --bogus
  echo '{"nope": 1}' >bad-baseline.json
  expect 2 check project --baseline bad-baseline.json
  expect 2 check project --baseline missing-baseline.json
  expect 0 check --help
  grep -q '^usage: mytriton check' out.txt || fail "--help"
  ;;
baseline)
  expect 0 check project --write-baseline base.json
  grep -q 'wrote 4 findings to the baseline base.json' err.txt || fail "write message: $(cat err.txt)"
  golden base.json project.baseline.json
  expect 0 check project --baseline base.json
  grep -q '^6 files, 5 kernels checked, 1 skipped: 0 errors, 0 warnings (4 suppressed by the baseline)$' out.txt ||
    fail "baseline run: $(cat out.txt)"
  grep -q 'I0901' out.txt || fail "infos are never baselined"
  # Lines moving above a baselined finding keep it suppressed.
  { printf '# a new comment line\n\n'; cat project/kernels/broken.py; } >moved.py
  mv moved.py project/kernels/broken.py
  expect 0 check project --baseline base.json
  grep -q '(4 suppressed by the baseline)' out.txt || fail "moving lines resurrected a finding: $(cat out.txt)"
  # A new error fails the run, and only it is reported.
  printf '\n\n# mytriton: BLOCK=8\n@triton.jit\ndef new_kernel(x, BLOCK: tl.constexpr):\n    tl.store(x + tl.arange(0, BLOCK), tl.exp(tl.arange(0, BLOCK)))\n' \
    >>project/kernels/broken.py
  expect 1 check project --baseline base.json --format json
  golden out.txt baseline-new-error.json
  # Writing the baseline again is byte-for-byte stable for the old findings.
  expect 0 check project --write-baseline base2.json
  [ "$(grep -c '"fingerprint":' base2.json)" -eq 6 ] || fail "rewritten baseline should hold 5 findings + the key"
  ;;
root)
  # The default root is the top of the enclosing git work tree.
  mkdir -p repo/.git repo/src/deep
  cp project/kernels/broken.py repo/src/deep/k.py
  cd repo/src
  expect 1 "$mytriton" check deep --format github
  grep -q '^::error file=src/deep/k.py,line=10,' out.txt || fail "paths not relative to the git root: $(cat out.txt)"
  expect 1 "$mytriton" check deep
  grep -q '^deep/k.py:10:23: error: cannot broadcast' out.txt || fail "text keeps the path as given: $(cat out.txt)"
  ;;
sarif)
  expect 1 check project --format sarif -o a.sarif
  "$SARIF_LINT" a.sarif >lint.txt || { cat lint.txt >&2; fail "SARIF structure"; }
  # Fingerprints stay when an unrelated line is inserted above the findings.
  { printf '# unrelated\n'; cat project/kernels/broken.py; } >moved.py
  mv moved.py project/kernels/broken.py
  { printf 'import os\n'; cat project/helpers/scaled.py; } >moved.py
  mv moved.py project/helpers/scaled.py
  expect 1 check project --format sarif -o b.sarif
  "$SARIF_LINT" b.sarif >/dev/null || fail "SARIF structure after the edit"
  "$SARIF_LINT" --fingerprints a.sarif >fa.txt
  "$SARIF_LINT" --fingerprints b.sarif >fb.txt
  diff -u fa.txt fb.txt || fail "fingerprints changed when lines moved"
  "$SARIF_LINT" --lines a.sarif >la.txt
  "$SARIF_LINT" --lines b.sarif >lb.txt
  ! cmp -s la.txt lb.txt || fail "the edit did not move the findings (the test would prove nothing)"
  # A second finding on an identical line gets a different fingerprint.
  [ "$(sort -u fa.txt | wc -l)" -eq "$(wc -l <fa.txt)" ] || fail "duplicate fingerprints"
  cat lint.txt
  ;;
columns)
  # Byte columns (text, json) and code-point columns (SARIF, GitHub): the
  # line holds a two-byte identifier before the flagged range.
  cp -R "$dir/fixtures/unicode" unicode
  expect 1 check unicode --format json
  tr -d ' \t\n' <out.txt | grep -q '"range":{"start":{"line":10,"col":24},"end":{"line":10,"col":30}}' ||
    fail "json byte columns: $(cat out.txt)"
  expect 1 check unicode --format github
  grep -q '^::error file=unicode/columns.py,line=10,col=23,endLine=10,endColumn=28,title=E0402::' out.txt ||
    fail "github code-point columns: $(cat out.txt)"
  expect 1 check unicode --format sarif
  tr -d ' \t\n' <out.txt | grep -q '"region":{"startLine":10,"startColumn":23,"endLine":10,"endColumn":28}' ||
    fail "SARIF code-point columns"
  grep -q '"columnKind":.*"unicodeCodePoints"' out.txt || fail "SARIF columnKind"
  ;;
sarif-schema)
  expect 1 check project --format sarif -o a.sarif
  sh "$dir/validate_sarif.sh" a.sarif
  ;;
nvrtc)
  # NVRTC needs no GPU. The compile cache folder fills only if NVRTC ran.
  expect 0 env MYTRITON_CACHE_DIR="$tmp/cache" "$mytriton" check --root . project/kernels/add.py project/needs_spec \
    --nvrtc --arch sm_90 -D BLOCK=128
  grep -q '^2 files, 2 kernels checked, 0 skipped: 0 errors, 0 warnings$' out.txt || fail "nvrtc run: $(cat out.txt)"
  [ -n "$(ls "$tmp/cache")" ] || fail "--nvrtc did not compile anything"
  expect 2 check project/kernels/add.py --arch sm_9
  ;;
mlir)
  # --codegen mlir builds every kernel through the MLIR backend too (no
  # GPU needed); a build without the backend skips, saying so.
  set +e
  "$mytriton" check --root . project/kernels/add.py --codegen mlir -D BLOCK=128 >out.txt 2>err.txt
  rc=$?
  set -e
  if [ $rc -eq 2 ] && grep -q 'the MLIR backend is not available' err.txt; then
    echo "SKIP: no MLIR backend in this build ($(cat err.txt))"
    exit 77
  fi
  [ $rc -eq 0 ] || fail "--codegen mlir: exit $rc: $(cat err.txt)"
  grep -q '^1 file, 1 kernel checked, 0 skipped: 0 errors, 0 warnings$' out.txt || fail "mlir run: $(cat out.txt)"
  # an unloadable backend is a usage error naming why, not a pass
  expect 2 env MYTRITON_MLIR_PLUGIN=/nonexistent/libmytriton-mlir.so "$mytriton" check --root . \
    project/kernels/add.py --codegen mlir -D BLOCK=128
  grep -q 'the MLIR backend is not available: /nonexistent' err.txt || fail "unavailable backend: $(cat err.txt)"
  ;;
*)
  fail "unknown case"
  ;;
esac
echo "PASS: $case"
