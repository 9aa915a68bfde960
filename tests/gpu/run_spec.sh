#!/bin/sh
# run_spec.sh MYTRITON SPEC [exact|tolerance] [LOWERING] [PTX] [OPTION...]
# Run a launch spec on the GPU and on the CPU interpreter with the same
# inputs (mytriton run --backend cuda --compare interp). "exact" demands
# bit-identical arrays (kernels without exp: mytriton's CUDA is compiled
# with --fmad=false and, with the seed lowering, reduces in the
# interpreter's order); otherwise the spec's tolerance (or 1e-5 relative)
# applies. LOWERING (seed or fast) picks the CUDA lowering; "mlir" runs the
# MLIR code generator's PTX file PTX (made by tests/mlir: ctest -L mlir on a
# machine with MLIR). OPTIONs go to mytriton run (--num-warps 8).
#
# Skips (exit 77, with the reason on stdout, which ctest shows):
#  - no GPU (run says R0706, before it compiles anything for the GPU),
#    unless MYTRITON_REQUIRE_CUDA=1, which makes it a failure;
#  - a kernel the lowering cannot lower yet (the compiler's E0601-E0605,
#    whose message is repeated: E0603 for a construct, E0601-E0605 for the
#    seed lowering's shapes of tiles and dots): the interpreter runs it,
#    the GPU cannot yet.
# The first "SKIP: reason (detail)" line is what make test's summary
# counts, by reason.
set -u
mytriton=$1 spec=$2 mode=${3:-} lowering=${4:-seed} ptx=${5:-}
shift $(($# < 5 ? $# : 5))
err=$(mktemp)
trap 'rm -f "$err"' EXIT
if [ "$lowering" = mlir ]; then
  set -- --codegen mlir --ptx "$ptx" "$@"
else
  set -- --lowering "$lowering" "$@"
fi
if [ "$mode" = exact ]; then
  "$mytriton" run "$spec" --backend cuda "$@" --compare interp --rtol 0 --atol 0 2>"$err"
else
  "$mytriton" run "$spec" --backend cuda "$@" --compare interp 2>"$err"
fi
rc=$?
cat "$err" >&2
[ $rc -eq 0 ] && exit 0
if grep -q "\[R0706\]" "$err"; then
  if [ "${MYTRITON_REQUIRE_CUDA:-0}" = 1 ]; then
    echo "FAIL: MYTRITON_REQUIRE_CUDA=1 but no GPU is usable" >&2
    exit 1
  fi
  echo "SKIP: no CUDA device ($spec)"
  exit 77
fi
if [ "$lowering" = mlir ] && [ ! -f "$ptx" ]; then
  # No PTX: either the kernel has no kernel layer (the fast lowering
  # refuses it, E0603, and so does the MLIR code generator), or tests/mlir
  # did not run on this build.
  if ! "$mytriton" compile "$spec" --emit kernel >/dev/null 2>"$err" && grep -q "\[E060[1-5]\]" "$err"; then
    echo "SKIP: no MLIR where the fast lowering cannot lower a kernel yet ($spec: $(grep -m1 "\[E060[1-5]\]" "$err"))"
    exit 77
  fi
  echo "FAIL: $ptx is missing: make it on a machine with MLIR (ctest -L mlir) before carrying the build" >&2
  exit 1
fi
if grep -q "\[E060[1-5]\]" "$err"; then
  echo "SKIP: the $lowering lowering cannot lower a kernel yet ($spec: $(grep -m1 "\[E060[1-5]\]" "$err"))"
  exit 77
fi
exit $rc
