#!/bin/sh
# run_spec.sh MYTRITON SPEC [exact|tolerance] [LOWERING] [PTX]
# Run a launch spec on the GPU and on the CPU interpreter with the same
# inputs (mytriton run --backend cuda --compare interp). "exact" demands
# bit-identical arrays (kernels without exp: mytriton's CUDA is compiled
# with --fmad=false and, with the seed lowering, reduces in the
# interpreter's order); otherwise the spec's tolerance (or 1e-5 relative)
# applies. LOWERING (seed or fast) picks the CUDA lowering; "mlir" runs the
# MLIR code generator's PTX file PTX (made by tests/mlir: ctest -L mlir on a
# machine with MLIR). Without a GPU: exit 77 (skipped), unless
# MYTRITON_REQUIRE_CUDA=1.
set -u
mytriton=$1 spec=$2 mode=${3:-} lowering=${4:-seed} ptx=${5:-}
err=$(mktemp)
trap 'rm -f "$err"' EXIT
if [ "$lowering" = mlir ]; then
  if [ ! -f "$ptx" ]; then
    # A kernel without a kernel layer (the fast lowering refuses it: E06xx)
    # has no MLIR either; gpu.fast.* reports it. Else the PTX was not made.
    if ! "$mytriton" compile "$spec" --emit kernel >/dev/null 2>"$err" && grep -q "\[E06[0-9][0-9]\]" "$err"; then
      cat "$err" >&2
      echo "SKIP: the fast lowering cannot lower $spec yet (no kernel layer for MLIR); gpu.fast.* reports it"
      exit 77
    fi
    echo "FAIL: $ptx is missing: make it on a machine with MLIR (ctest -L mlir) before carrying the build" >&2
    exit 1
  fi
  set -- --codegen mlir --ptx "$ptx"
else
  set -- --lowering "$lowering"
fi
if [ "$mode" = exact ]; then
  "$mytriton" run "$spec" --backend cuda "$@" --compare interp --rtol 0 --atol 0 2>"$err"
else
  "$mytriton" run "$spec" --backend cuda "$@" --compare interp 2>"$err"
fi
rc=$?
cat "$err" >&2
# The seed lowering covers the seed language only: a kernel it refuses
# (E0603: a newer dtype or operation) is run by the fast lowering's test.
if [ $rc -ne 0 ] && [ "$lowering" = seed ] && grep -q "\[E0603\]" "$err"; then
  echo "SKIP: the seed lowering does not lower $spec (E0603); gpu.fast.* runs it"
  exit 77
fi
if [ $rc -ne 0 ] && grep -q -e "no CUDA driver" -e "no CUDA device" "$err"; then
  if [ "${MYTRITON_REQUIRE_CUDA:-0}" = 1 ]; then
    echo "FAIL: MYTRITON_REQUIRE_CUDA=1 but no GPU is usable" >&2
    exit 1
  fi
  echo "SKIP: no CUDA device ($spec)"
  exit 77
fi
exit $rc
