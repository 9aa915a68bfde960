#!/bin/sh
# run_ptx.sh MYTRITON ptx SPEC OUT.ptx PTXAS MLIR_OPT
#   compile SPEC through the MLIR backend to OUT.ptx; ptxas -arch=sm_90 must
#   accept it and mlir-opt must read back the mlir and mlir-llvm stages.
#   A kernel the fast lowering itself cannot lower (an E06xx: no kernel
#   layer to build MLIR from) is skipped (exit 77), saying so.
# run_ptx.sh MYTRITON unavailable SPEC
#   with the backend module unreachable, --codegen mlir exits 2 with E1001
#   and the loader's reason.
set -u
mytriton=$1 mode=$2 spec=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$mode" = unavailable ]; then
  MYTRITON_MLIR_PLUGIN=/nonexistent/libmytriton-mlir.so "$mytriton" compile "$spec" --emit mlir --color never \
    >"$tmp/out" 2>"$tmp/err"
  rc=$?
  cat "$tmp/err"
  [ $rc -eq 2 ] || fail "exit $rc, expected 2"
  grep -q "error: the MLIR backend is not available: .*nonexistent.* \[E1001\]" "$tmp/err" || fail "no E1001 with the reason"
  exit 0
fi

out=$4 ptxas=$5 mlir_opt=$6
mkdir -p "$(dirname "$out")"
if ! "$mytriton" compile "$spec" --emit kernel --color never >/dev/null 2>"$tmp/err"; then
  cat "$tmp/err"
  if grep -q "\[E06[0-9][0-9]\]" "$tmp/err"; then
    echo "SKIP: the fast lowering cannot lower this kernel yet ($spec)"
    exit 77
  fi
  fail "compile --emit kernel"
fi
"$mytriton" compile "$spec" --codegen mlir --emit ptx -o "$out" || fail "compile to PTX"
head -1 "$out" | grep -q "^// mytriton: .*, codegen mlir (MLIR " || fail "$out: no origin line"
"$ptxas" -arch=sm_90 "$out" -o "$tmp/k.cubin" || fail "ptxas rejected $out"
for stage in mlir mlir-llvm; do
  "$mytriton" compile "$spec" --emit "$stage" -o "$tmp/$stage.mlir" || fail "compile --emit $stage"
  "$mlir_opt" "$tmp/$stage.mlir" -o /dev/null || fail "mlir-opt cannot read the $stage stage"
done
echo "ok: $out"
