#!/bin/sh
# run_cli.sh MYTRITON SOURCE_DIR WORK_DIR CASE: one `mytriton run` test.
#
#   example.NAME       examples/NAME.json runs on 1 thread, dumps its arrays,
#                      then runs on 3 threads and matches the dump exactly
#   spec.NAME          tests/exec/data/NAME.json is refused: exit 1 (2 for a
#                      file that cannot be read) and the exact diagnostic,
#                      pointing at the field in the spec
#   fault.NAME         a runtime fault: exit 1, the rendered diagnostic, and
#                      --dump wrote nothing
#   compile.error      a kernel that does not compile: exit 1, the diagnostic
#   usage.*, expect.*, set.*, dump.*: the options
#
# Runs from SOURCE_DIR so that every path in a message is relative.
set -u
MT=$1
cd "$2" || exit 1
CASE=$4
T="$3/cli/$CASE"
D=tests/exec/data
rm -rf "$T"
mkdir -p "$T"

fail() {
    echo "FAIL $CASE: $*"
    echo "--- stdout"; cat "$T/out"
    echo "--- stderr"; cat "$T/err"
    exit 1
}
run() {
    "$MT" run "$@" > "$T/out" 2> "$T/err"
    echo $? > "$T/rc"
}
rc_is() { [ "$(cat "$T/rc")" = "$1" ] || fail "exit status $(cat "$T/rc"), want $1"; }
stderr_is() {
    printf '%s\n' "$1" > "$T/want"
    diff -u "$T/want" "$T/err" > "$T/diff" || fail "stderr differs:
$(cat "$T/diff")"
}
stdout_has() { grep -qF -- "$1" "$T/out" || fail "stdout lacks: $1"; }
stderr_has() { grep -qF -- "$1" "$T/err" || fail "stderr lacks: $1"; }

case "$CASE" in
example.*)
    spec="examples/${CASE#example.}.json"
    run "$spec" --threads 1 --dump "$T/one"
    rc_is 0
    stdout_has "run      interp, 1 thread, "
    arrays=$(ls "$T/one" | wc -l)
    [ "$arrays" -ge 1 ] || fail "--dump wrote no arrays"
    run "$spec" --threads 3 --expect "$T/one" --rtol 0 --atol 0
    rc_is 0
    if [ "$arrays" = 1 ]; then stdout_has "expect   1 array matches (rtol 0, atol 0)"
    else stdout_has "expect   $arrays arrays match (rtol 0, atol 0)"; fi
    ;;

spec.unknown_kernel)
    run $D/unknown_kernel.json; rc_is 1
    stderr_is "$D/unknown_kernel.json:3:13: error: kernel: no @triton.jit function named 'add_kernal' in $D/kernels.py (jit functions: add_kernel, off_by_one, ratio, float_floordiv) [R0704]
 3 |   \"kernel\": \"add_kernal\",
   |             ^~~~~~~~~~~~" ;;
spec.missing_argument)
    run $D/missing_argument.json; rc_is 1
    stderr_is "$D/missing_argument.json:6:3: error: args: missing argument 'y' of kernel add_kernel [R0704]
 6 |   \"args\": {
   |   ^~~~~~" ;;
spec.wrong_dtype)
    run $D/wrong_dtype.json; rc_is 1
    stderr_is "$D/wrong_dtype.json:8:5: error: args.x: float32 array expected for parameter x (*fp32), got int32 [R0704]
 8 |     \"x\":   {\"dtype\": \"int32\", \"shape\": [1000], \"init\": \"uniform\", \"low\": -5, \"high\": 5, \"seed\": 1},
   |     ^~~" ;;
spec.bad_grid)
    run $D/bad_grid.json; rc_is 1
    stderr_is "$D/bad_grid.json:4:12: error: grid[0]: unknown name 'BLOK' at column 9 in \"cdiv(n, BLOK)\" [R0704]
 4 |   \"grid\": [\"cdiv(n, BLOK)\"],
   |            ^~~~~~~~~~~~~~~" ;;
spec.missing_npy)
    run $D/missing_npy.json; rc_is 2
    stderr_is "$D/missing_npy.json:7:20: error: args.x.npy: $D/no_such.npy: cannot open: No such file or directory [R0705]
 7 |     \"x\":   {\"npy\": \"no_such.npy\"},
   |                    ^~~~~~~~~~~~~" ;;
spec.not_npy)
    run $D/not_npy.json; rc_is 1
    stderr_is "$D/not_npy.json:7:20: error: args.x.npy: $D/kernels.py: not a .npy file (bad magic) [R0704]
 7 |     \"x\":   {\"npy\": \"kernels.py\"},
   |                    ^~~~~~~~~~~~" ;;
spec.invalid_json)
    run $D/invalid_json.json; rc_is 1
    stderr_is "$D/invalid_json.json:4:1: error: invalid JSON near '}' [R0704]
 4 | }
   | ^" ;;
spec.missing_file)
    run $D/no_such_spec.json; rc_is 2
    stderr_is "mytriton run: $D/no_such_spec.json: cannot open: No such file or directory [R0705]" ;;

fault.out_of_bounds)
    run $D/off_by_one.json --dump "$T/dump"; rc_is 1
    stderr_is "$D/kernels.py:20:5: error: out-of-bounds store in off_by_one: program (3, 0, 0) writes out[1000], but out has 1000 elements [R0701]
 20 |     tl.store(out + offsets, values, mask=offsets <= n)
    |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"
    [ -e "$T/dump" ] && fail "--dump wrote $T/dump after a fault"
    [ -s "$T/out" ] && fail "a summary was printed after a fault"
    ;;
fault.division_by_zero)
    run $D/ratio.json --threads 2 --dump "$T/dump"; rc_is 1
    stderr_is "$D/kernels.py:29:29: error: integer division by zero in ratio at $D/kernels.py:29:29, program (0, 0, 0) [R0702]
 29 |     tl.store(out + offsets, num // den, mask=mask)
    |                             ^~~~~~~~~~"
    [ -e "$T/dump" ] && fail "--dump wrote $T/dump after a fault"
    ;;

compile.error)
    run $D/compile_error.json --dump "$T/dump"; rc_is 1
    stderr_is "$D/kernels.py:36:29: error: '//' needs integer operands, got vector<256 x f32> and i32 [E0401]
 36 |     tl.store(out + offsets, values // 2, mask=offsets < n)
    |                             ^~~~~~~~~~~"
    [ -e "$T/dump" ] && fail "--dump wrote $T/dump after a compile error"
    ;;

usage.no_spec)
    run; rc_is 2; stderr_has "mytriton run: expected one SPEC.json" ;;
usage.cuda_backend)
    # Without a driver: one clear message, exit 2; with a GPU: a real run.
    run $D/add.json --backend cuda
    if [ "$(cat "$T/rc")" = 0 ]; then stdout_has "run      cuda on "
    else rc_is 2; stderr_has "mytriton run: no CUDA driver: libcuda.so.1 could not be loaded"; fi
    run $D/add.json --profile 5; rc_is 2
    stderr_is "mytriton run: --compare, --profile, --codegen and --ptx need --backend cuda"
    run $D/add.json --backend cuda --compare cpu; rc_is 2
    stderr_is "mytriton run: --compare takes 'interp', got 'cpu'" ;;
usage.unknown_backend)
    run $D/add.json --backend tpu; rc_is 2
    stderr_is "mytriton run: unknown backend 'tpu' (backends: interp, cuda)" ;;
usage.bad_threads)
    run $D/add.json --threads many; rc_is 2
    stderr_is "mytriton run: --threads expects a number from 0 to 4096, got 'many'" ;;
usage.set_array)
    run $D/add.json --set x=1; rc_is 2
    stderr_is "mytriton run: --set x=1: argument 'x' is an array; only scalars and constexprs can be set" ;;
usage.help)
    run --help; rc_is 0; stdout_has "usage: mytriton run SPEC.json [options]" ;;

set.scalar)
    # n=300: out past 300 keeps its zeros; the mask stops at n
    run $D/add.json --set n=300 --dump "$T/a"; rc_is 0
    run $D/add.json --set n=1000 --expect "$T/a"; rc_is 1
    stdout_has "expect   out  MISMATCH: 700 of 1000 elements;"
    stdout_has "first at [300]: got "
    stdout_has ", want 0.0"
    stdout_has "expect   x    ok: max abs err 0, max rel err 0"
    ;;
set.constexpr)
    # BLOCK=128: twice the programs, the same result
    run $D/add.json --dump "$T/a"; rc_is 0
    run $D/add.json --set BLOCK=128 --expect "$T/a" --rtol 0 --atol 0; rc_is 0
    stdout_has "grid     (8, 1, 1) = 8 programs x 32 CUDA threads, 4 programs per block"
    stdout_has "expect   3 arrays match (rtol 0, atol 0)"
    ;;
expect.tolerance)
    # the spec has no tolerance: 1e-5 / 1e-6 unless given
    run $D/add.json --dump "$T/a"; rc_is 0
    run $D/add.json --expect "$T/a"; rc_is 0
    stdout_has "(rtol 1e-05, atol 1e-06)"
    run examples/dot.matmul_kernel.json --dump "$T/b"; rc_is 0
    run examples/dot.matmul_kernel.json --expect "$T/b" --atol 0.5; rc_is 0
    stdout_has "(rtol 1e-05, atol 0.5)"
    ;;
expect.no_arrays)
    mkdir -p "$T/empty"
    run $D/add.json --expect "$T/empty"; rc_is 2
    stderr_is "mytriton run: --expect: $T/empty holds no NAME.npy for any array argument" ;;
dump.nested_folder)
    run $D/add.json --dump "$T/a/b/c"; rc_is 0
    for f in x y out; do [ -s "$T/a/b/c/$f.npy" ] || fail "no $T/a/b/c/$f.npy"; done
    ;;
*)
    echo "run_cli.sh: unknown case $CASE"
    exit 1 ;;
esac
exit 0
