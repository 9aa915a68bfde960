#!/bin/sh
# check_run_spec.sh RUN_SPEC: the GPU runner's verdicts, without a GPU.
#
# run_spec.sh decides from what `mytriton run` says whether a GPU test
# passed, failed or is skipped (exit 77). Here a stand-in mytriton says
# each thing in turn (FAKE_RUN, FAKE_COMPILE pick what), so the rules are
# checked on any machine: no GPU is a skip, and a failure under
# MYTRITON_REQUIRE_CUDA=1; a kernel the lowering cannot lower yet (E0601-E0605)
# is a skip that names it; anything else the run reports is a failure.
set -u
runner=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/mytriton" <<'FAKE'
#!/bin/sh
case "$1:${FAKE_RUN}:${FAKE_COMPILE:-ok}" in
  run:ok:*) echo "x  float32[4]"; exit 0 ;;
  run:nogpu:*) echo "mytriton run: no CUDA driver: libcuda.so.1 could not be loaded [R0706]" >&2; exit 2 ;;
  run:e0603:*) echo "k.py:3:9: error: 'cast' is not supported by the fast CUDA lowering yet [E0603]" >&2; exit 1 ;;
  run:e0605:*) echo "k.py:4:5: error: the first tl.dot operand must be computable at every tile element [E0605]" >&2; exit 1 ;;
  run:e0606:*) echo "k.py:4:5: error: NVRTC rejected the generated CUDA [E0606]" >&2; exit 1 ;;
  run:mismatch:*) echo "mytriton run: x: 3 of 4 elements differ from the interpreter" >&2; exit 1 ;;
  run:noptx:*) echo "mytriton run: k.ptx: cannot open: No such file or directory [R0705]" >&2; exit 2 ;;
  compile:*:e0603) echo "k.py:3:9: error: 'cast' is not supported by the fast CUDA lowering yet [E0603]" >&2; exit 1 ;;
  compile:*:ok) exit 0 ;;
esac
echo "fake mytriton: unexpected call: $*" >&2
exit 99
FAKE
chmod +x "$tmp/mytriton"
fails=0
# expect WANT_STATUS WANT_STDOUT_PATTERN FAKE_RUN FAKE_COMPILE REQUIRE ARGS...
expect() {
  want=$1 pattern=$2 run=$3 compile=$4 require=$5
  shift 5
  out=$(FAKE_RUN=$run FAKE_COMPILE=$compile MYTRITON_REQUIRE_CUDA=$require sh "$runner" "$tmp/mytriton" k.json "$@" 2>/dev/null)
  got=$?
  if [ "$got" != "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
    echo "FAIL: run=$run compile=$compile require=$require args=$*: exit $got (want $want), stdout:"
    printf '%s\n' "$out"
    fails=$((fails + 1))
  fi
}
expect 0 "float32" ok ok 0 exact
expect 0 "float32" ok ok 1 tolerance fast
expect 77 "^SKIP: no CUDA device (k.json)" nogpu ok 0 exact
expect 77 "^SKIP: no CUDA device" nogpu ok 0 tolerance fast
expect 77 "^SKIP: no CUDA device" nogpu e0603 0 tolerance mlir "$tmp/missing.ptx"
expect 77 "^SKIP: no CUDA device" nogpu ok 0 tolerance mlir "$tmp/missing.ptx"
expect 1 "" nogpu ok 1 exact
expect 77 "^SKIP: the fast lowering cannot lower a kernel yet (k.json: k.py:3:9: error: 'cast'" e0603 ok 1 tolerance fast
expect 77 "^SKIP: the seed lowering cannot lower a kernel yet" e0603 ok 0 exact
expect 77 "^SKIP: the seed lowering cannot lower a kernel yet (k.json: k.py:4:5: error: the first tl.dot" e0605 ok 1 exact
expect 1 "" e0606 ok 1 exact
expect 1 "" mismatch ok 1 exact fast
expect 77 "^SKIP: no MLIR where the fast lowering cannot lower a kernel yet (k.json: k.py:3:9" noptx e0603 1 tolerance mlir "$tmp/missing.ptx"
expect 1 "" noptx ok 1 tolerance mlir "$tmp/missing.ptx"
[ $fails -eq 0 ] && echo "run_spec.sh: every verdict as expected"
exit $((fails > 0))
