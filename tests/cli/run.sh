#!/bin/sh
# run.sh MYTRITON SOURCE_DIR WORK_DIR CASE: one test of the mytriton
# command as a user meets it (tests/cli/CMakeLists.txt lists the cases).
#
#   help.*, version.*   what --help and --version say, and where
#   exit.rule           one exit-status rule for every command (docs/cli.md)
#   prefix.*            every message starts with "mytriton <command>: "
#   option.*            unknown options, missing values, values out of range
#   compile.*           what compile's options change in its output
#   output.*            -o never destroys: special files written in place,
#                       symlinks followed, inputs refused, modes kept
#   stdout.full         a write error on standard output exits 2, said
#   input.*             folders, FIFOs, devices and huge files refused at
#                       once, never read for ever
#   json.empty_kernel   a kernel without operations through --format json
#   run.*               run's files: folders, --dump/--expect, npy inputs,
#                       grid hints and overflow, stale temporary files
#   cache.unwritable    a kernel cache that cannot be written warns once
#   install.prefix      cmake --install into a prefix: bin/mytriton runs from
#                       there and finds the rule pages
#   guide.commands      every command of docs/user-guide.md, as written
#
# Every case runs in a fresh scratch folder; paths in messages are the
# ones the case wrote. Sanitizer reports fail any case.
set -u
MT=$1
SRC=$2
CASE=$4
T="$3/work/$CASE"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1

fail() {
    echo "FAIL $CASE: $*"
    [ -f out ] && { echo "--- stdout"; cat out; }
    [ -f err ] && { echo "--- stderr"; cat err; }
    exit 1
}
# mt ARGS...: run mytriton; stdout in out, stderr in err, status in rc.
mt() {
    "$MT" "$@" > out 2> err
    rc=$?
    if grep -q -e 'ERROR: AddressSanitizer' -e 'ERROR: LeakSanitizer' -e 'runtime error:' err; then
        fail "sanitizer report from: mytriton $*"
    fi
}
rc_is() { [ "$rc" = "$1" ] || fail "exit status $rc, want $1"; }
err_is() {
    printf '%s\n' "$1" > want
    diff -u want err > diff || fail "stderr differs:
$(cat diff)"
}
out_has() { grep -qF -- "$1" out || fail "stdout lacks: $1"; }
err_has() { grep -qF -- "$1" err || fail "stderr lacks: $1"; }
# A command that must finish at once (a FIFO must never block it).
quick() { timeout 20 "$@"; }

ADD="$SRC/examples/add_kernel.py"
SIG='*fp32,*fp32,*fp32,i32,256'
cp "$ADD" k.py
cat > spec.json <<'EOF'
{"source": "k.py", "grid": ["cdiv(n, BLOCK)"], "constexprs": {"BLOCK": 256},
 "args": {"x": {"dtype": "float32", "shape": [1000], "init": "uniform", "seed": 1},
          "y": {"dtype": "float32", "shape": [1000], "init": "uniform", "seed": 2},
          "out": {"dtype": "float32", "shape": [1000], "init": "zeros"}, "n": 1000}}
EOF

case "$CASE" in
help.top)
    mt --help; rc_is 0
    out_has "mytriton --version"
    out_has "Exit status: 0 success, 1 errors in the inputs"
    mt; rc_is 2; err_has "usage: mytriton <command> [options]"
    ;;
help.commands)
    for c in compile run check; do
        mt $c --help; rc_is 0
        out_has "usage: mytriton $c"
        out_has "Exit status: 0 "
    done
    mt lsp --help; rc_is 0; out_has "usage: mytriton lsp"
    ;;
version.stdout_full)
    mt --version; rc_is 0; out_has "mytriton 0."
    "$MT" --version > /dev/full 2> err; rc=$?
    rc_is 2; err_is "mytriton: cannot write standard output: No space left on device"
    ;;

exit.rule)
    # 0 success
    mt compile k.py --signature "$SIG"; rc_is 0
    # 1 errors in the inputs: a source error, a spec error, a mismatch
    printf '@triton.jit\ndef k(x):\n    tl.store(x, 1.0 // 2)\n' > bad.py
    mt compile bad.py; rc_is 1
    mt check bad.py; rc_is 1
    printf '{"source": "k.py", "grid": [1], "args": {}}' > wrong.json
    mt run wrong.json; rc_is 1
    # 2 the command could not do what was asked: options, unreadable
    # inputs, unwritable outputs (each command alike)
    mt compile k.py --emit nonsense; rc_is 2
    mt compile missing.py; rc_is 2
    mt check missing.py; rc_is 2
    mt run missing.json; rc_is 2
    mt compile k.py -o no/such/folder/out.txt; rc_is 2
    mt check k.py -o no/such/folder/out.txt; rc_is 2
    mt run spec.json --dump /dev/null/x; rc_is 2
    mt lsp --bogus; rc_is 2
    ;;
prefix.every_message)
    # Each line: invocation, then the exact message.
    while IFS='|' read -r args want; do
        # shellcheck disable=SC2086
        mt $args
        head -1 err > first
        printf '%s\n' "$want" > want
        diff -u want first > diff || fail "mytriton $args: first stderr line differs:
$(cat diff)"
    done <<'EOF'
nonsense|mytriton: unknown command 'nonsense'
compile|mytriton compile: expected one FILE.py or SPEC.json
compile k.py --format xml|mytriton compile: --format must be text or json
compile k.py --emit bogus|mytriton compile: unknown stage 'bogus' (stages: ast, expr, ssa-raw, ssa, layout, kernel, cuda, mlir, mlir-llvm, ptx, cubin)
compile nothere.py|mytriton compile: nothere.py: cannot open: No such file or directory
run|mytriton run: expected one SPEC.json
run nothere.json|mytriton run: nothere.json: cannot open: No such file or directory [R0705]
run spec.json --threads x|mytriton run: --threads expects a number from 0 to 4096, got 'x'
check --format xml|mytriton check: --format must be text, json, sarif, junit or github
check nothere.py|mytriton check: nothere.py: No such file or directory
lsp --bogus|mytriton lsp: unknown option '--bogus'
EOF
    ;;
option.unknown)
    for c in compile run check; do
        mt $c --bogus x; rc_is 2
        head -1 err > first
        printf "mytriton $c: unknown option '--bogus'\n" > want
        diff -u want first || fail "$c: wrong message"
        mt $c -Z x; rc_is 2
        head -1 err > first
        printf "mytriton $c: unknown option '-Z'\n" > want
        diff -u want first || fail "$c: wrong message for -Z"
    done
    ;;
option.missing_value)
    mt compile k.py --kernel; rc_is 2; err_has "mytriton compile: option '--kernel' needs a value"
    mt run spec.json --dump; rc_is 2; err_has "mytriton run: option '--dump' needs a value"
    mt check -o; rc_is 2; err_has "mytriton check: option '-o' needs a value"
    ;;
option.num_stages)
    for v in 0 9 -1 2x ''; do
        mt compile k.py --num-stages "$v"; rc_is 2
        err_is "mytriton compile: --num-stages takes a number of stages from 1 to 8, got '$v'"
        mt run spec.json --num-stages "$v"; rc_is 2
        err_is "mytriton run: --num-stages takes a number of stages from 1 to 8, got '$v'"
    done
    mt run spec.json --num-stages 1; rc_is 0
    ;;

compile.num_stages)
    # tests/exec/fast/dots.py's K loop of tl.dot of f32 tiles: with S stages
    # (default 3) the tiles of the first S - 1 iterations are copied into
    # shared memory before the loop, one commit per tile of A and of B; with
    # --num-stages 1 every load stays in the loop.
    DOTS="$SRC/tests/exec/fast/dots.py"
    DSIG='*fp32,*fp32,*fp32,i32,32,32,16'
    before_loop() { awk '/^ *for /{exit} {print}' out; }
    for stages in "" 2 8; do
        mt compile "$DOTS" --kernel advancing_matmul_kernel --signature "$DSIG" --emit kernel ${stages:+--num-stages $stages}
        rc_is 0
        grep -q '^ *for ' out || fail "no loop in the kernel layer"
        want=$(( 2 * (${stages:-3} - 1) ))
        got=$(before_loop | grep -c 'cp.async.commit')
        [ "$got" = "$want" ] || fail "--num-stages '$stages': $got tiles copied before the loop, not $want"
    done
    mt compile "$DOTS" --kernel advancing_matmul_kernel --signature "$DSIG" --emit kernel --num-stages 1
    rc_is 0
    grep -q '^ *for ' out || fail "no loop in the kernel layer"
    n=$(before_loop | grep -c 'load \|cp.async')
    [ "$n" = 0 ] || fail "--num-stages 1: $n loads or copies before the loop"
    ;;

output.is_input)
    cp k.py orig.py
    mt compile k.py --signature "$SIG" -o k.py; rc_is 2
    err_is "mytriton compile: k.py: refusing to overwrite k.py, an input of this command"
    cmp -s k.py orig.py || fail "the source was changed"
    mt compile k.py --signature "$SIG" --format json -o ./k.py; rc_is 2
    cmp -s k.py orig.py || fail "the source was changed by --format json"
    ;;
output.symlink)
    echo old > target.txt
    ln -s target.txt link.txt
    mt compile k.py --signature "$SIG" -o link.txt; rc_is 0
    [ -L link.txt ] || fail "link.txt is no longer a symlink"
    grep -q "program_id" target.txt || fail "the link's target was not written"
    ;;
output.symlink_to_input)
    ln -s k.py alias.txt
    mt compile k.py --signature "$SIG" -o alias.txt; rc_is 2
    err_is "mytriton compile: alias.txt: refusing to overwrite k.py, an input of this command"
    cmp -s k.py "$ADD" || fail "the source was changed through the link"
    ;;
output.fifo)
    mkfifo pipe
    timeout 20 cat pipe > drained &
    reader=$!
    quick "$MT" compile k.py --signature "$SIG" -o pipe > out 2> err; rc=$?
    wait $reader
    rc_is 0
    [ -p pipe ] || fail "the FIFO was replaced by a regular file"
    grep -q "program_id" drained || fail "nothing arrived through the FIFO"
    ;;
output.char_device)
    # A private /dev/null (major 1, minor 3): it must stay a device. Needs
    # root for mknod; /dev/full below needs nothing.
    if mknod null c 1 3 2>/dev/null; then
        mt compile k.py --signature "$SIG" -o null; rc_is 0
        [ -c null ] || fail "the device was replaced by a regular file"
        mt check k.py -o null; rc_is 0
        [ -c null ] || fail "check replaced the device"
    fi
    mt compile k.py --signature "$SIG" -o /dev/full; rc_is 2
    err_is "mytriton compile: /dev/full: cannot write (write): No space left on device"
    [ -c /dev/full ] || fail "/dev/full is no longer a device"
    ;;
output.keeps_mode)
    echo old > out.txt
    chmod 640 out.txt
    mt compile k.py --signature "$SIG" -o out.txt; rc_is 0
    [ "$(stat -c %a out.txt)" = 640 ] || fail "mode $(stat -c %a out.txt), want 640"
    ls | grep -q '\.tmp\.' && fail "a temporary file was left: $(ls)"
    :
    ;;
output.folder)
    mkdir d
    mt compile k.py -o d; rc_is 2; err_is "mytriton compile: d: is a directory"
    ;;
output.unwritable)
    mt compile k.py -o no/such/out.txt; rc_is 2
    err_is "mytriton compile: no/such/out.txt: cannot create a temporary file beside it: No such file or directory"
    ;;
output.check_is_input)
    cp k.py orig.py
    mt check k.py -o k.py; rc_is 2
    err_is "mytriton check: k.py: refusing to overwrite k.py, an input of this command"
    mt check k.py --write-baseline k.py; rc_is 2
    cmp -s k.py orig.py || fail "check replaced its input"
    mt check k.py --write-baseline base.json; rc_is 0
    mt check k.py --baseline base.json -o base.json; rc_is 2
    err_is "mytriton check: base.json: refusing to overwrite base.json, an input of this command"
    ;;

stdout.full)
    for args in "compile k.py --signature $SIG" "compile k.py --format json" "compile k.py --emit cuda" \
                "check k.py" "check k.py --format sarif" "run spec.json" "run --help"; do
        # shellcheck disable=SC2086
        "$MT" $args > /dev/full 2> err; rc=$?
        [ "$rc" = 2 ] || fail "mytriton $args > /dev/full: exit $rc, want 2"
        cmd=${args%% *}
        grep -qx "mytriton $cmd: cannot write standard output: No space left on device" err ||
            fail "mytriton $args > /dev/full: $(cat err)"
    done
    ;;

input.folder)
    mkdir src
    mt compile src; rc_is 2; err_is "mytriton compile: src: is a directory"
    mt run src; rc_is 2; err_is "mytriton run: src: is a directory [R0705]"
    ;;
input.fifo)
    mkfifo f.py f.json
    mt_quick() { quick "$MT" "$@" > out 2> err; rc=$?; }
    mt_quick compile f.py; rc_is 2; err_is "mytriton compile: f.py: is a FIFO (named pipe), not a regular file"
    mt_quick check f.py; rc_is 2; err_is "mytriton check: f.py: is a FIFO (named pipe), not a regular file"
    mt_quick run f.json; rc_is 2; err_is "mytriton run: f.json: is a FIFO (named pipe), not a regular file [R0705]"
    printf '{"source": "f.py", "grid": [1], "args": {}}' > src-fifo.json
    mt_quick run src-fifo.json; rc_is 2
    err_is "src-fifo.json:1:12: error: source: f.py: is a FIFO (named pipe), not a regular file [R0705]
 1 | {\"source\": \"f.py\", \"grid\": [1], \"args\": {}}
   |            ^~~~~~"
    ;;
input.device)
    quick "$MT" compile /dev/zero > out 2> err; rc=$?
    rc_is 2; err_is "mytriton compile: /dev/zero: is a character device, not a regular file"
    printf '{"source": "/dev/zero", "grid": [1], "args": {}}' > zero.json
    quick "$MT" run zero.json > out 2> err; rc=$?
    rc_is 2
    err_is "zero.json:1:12: error: source: /dev/zero: is a character device, not a regular file [R0705]
 1 | {\"source\": \"/dev/zero\", \"grid\": [1], \"args\": {}}
   |            ^~~~~~~~~~~"
    ;;
input.too_big)
    truncate -s 23M big.py
    mt compile big.py; rc_is 2; err_is "mytriton compile: big.py: is 23 MiB; a kernel source may be at most 8 MiB"
    truncate -s 5M big.json
    mt run big.json; rc_is 2; err_is "mytriton run: big.json: is 5 MiB; a launch spec may be at most 4 MiB [R0705]"
    ;;
input.stdin_too_big)
    head -c 9000000 /dev/zero | tr '\0' '#' | "$MT" compile - > out 2> err; rc=$?
    rc_is 2; err_is "mytriton compile: standard input: is more than 8 MiB, the most a kernel source may be"
    "$MT" compile - --signature "$SIG" < k.py > out 2> err; rc=$?
    rc_is 0; out_has "program_id"
    ;;

json.empty_kernel)
    # No operations: the source map sorted nothing (qsort(NULL, 0) under UBSan).
    printf 'import triton\n\n@triton.jit\ndef nothing(x):\n    pass\n' > empty.py
    mt compile empty.py --format json; rc_is 0
    out_has '"kernel"'
    ;;

run.folder)
    mt run "$SRC/examples"; rc_is 2; err_is "mytriton run: $SRC/examples: is a directory [R0705]"
    ;;
run.dump_is_expect)
    mt run spec.json --dump ref; rc_is 0
    cp ref/out.npy keep.npy
    mt run spec.json --set n=10 --dump ref --expect ref; rc_is 2
    err_is "mytriton run: --dump ref and --expect ref are the same folder: the dump would replace the reference arrays it is compared with; dump to another folder"
    ln -s ref alias
    mt run spec.json --set n=10 --dump alias --expect ./ref/; rc_is 2
    err_has "are the same folder"
    cmp -s ref/out.npy keep.npy || fail "the reference was replaced"
    # a wrong result still fails, with the reference intact
    mt run spec.json --set n=10 --expect ref; rc_is 1
    out_has "expect   out  MISMATCH"
    ;;
run.dump_over_npy_input)
    mt run spec.json --dump d; rc_is 0
    cat > from_npy.json <<'EOF'
{"source": "k.py", "grid": ["cdiv(n, BLOCK)"], "constexprs": {"BLOCK": 256},
 "args": {"x": {"npy": "d/x.npy"}, "y": {"npy": "d/y.npy"},
          "out": {"dtype": "float32", "shape": [1000], "init": "zeros"}, "n": 1000}}
EOF
    cp d/x.npy keep.npy
    mt run from_npy.json --dump d; rc_is 2
    err_is "mytriton run: --dump: d/x.npy: refusing to overwrite d/x.npy, an input of this command [R0705]"
    cmp -s d/x.npy keep.npy || fail "an input array was replaced"
    ;;
run.expect_then_dump)
    # --expect reads the references, then --dump writes (also after a mismatch).
    mt run spec.json --dump ref; rc_is 0
    mt run spec.json --set n=10 --expect ref --dump got; rc_is 1
    out_has "expect   out  MISMATCH"
    [ -s got/out.npy ] || fail "nothing dumped after a mismatch"
    ;;
run.fifo_npy)
    mkfifo x.npy
    cat > fifo.json <<'EOF'
{"source": "k.py", "grid": [4], "constexprs": {"BLOCK": 256},
 "args": {"x": {"npy": "x.npy"}, "y": {"dtype": "float32", "shape": [1000]},
          "out": {"dtype": "float32", "shape": [1000]}, "n": 1000}}
EOF
    quick "$MT" run fifo.json > out 2> err; rc=$?
    rc_is 2; err_is "fifo.json:2:24: error: args.x.npy: x.npy: is a FIFO (named pipe), not a regular file [R0705]
 2 |  \"args\": {\"x\": {\"npy\": \"x.npy\"}, \"y\": {\"dtype\": \"float32\", \"shape\": [1000]},
   |                        ^~~~~~~"
    ;;
run.grid_lambda)
    sed 's/"grid": \["cdiv(n, BLOCK)"\]/"grid": ["lambda meta: (triton.cdiv(n, meta['"'"'BLOCK'"'"']),)"]/' spec.json > lambda.json
    mt run lambda.json; rc_is 1
    err_has "lambda.json:1:29: error: grid[0]: a grid entry is the body of Triton's grid lambda, not the lambda: write [\"triton.cdiv(n, meta['BLOCK'])\"] [R0704]"
    ;;
run.grid_overflow)
    # 8388608 programs of 256 elements: program 8388607 starts at 2^31 - 256,
    # its last lanes' offsets wrap. The warning comes before any run.
    cat > huge.json <<'EOF'
{"source": "k.py", "grid": [8388608], "constexprs": {"BLOCK": 256},
 "args": {"x": {"dtype": "float32", "shape": [16]}, "y": {"dtype": "float32", "shape": [16]},
          "out": {"dtype": "float32", "shape": [16]}, "n": 16}}
EOF
    # n past the arrays: program 0 faults at once, after the warning that
    # explains such faults (running 8 million programs would take minutes).
    mt run huge.json --threads 1 --set n=2147483647; rc_is 1
    err_has "error: out-of-bounds load in add_kernel: program (0, 0, 0) reads x[16], but x has 16 elements"
    err_has "huge.json:1:20: warning: grid: the grid has 8388608 programs of 256 elements each, more than an i32 offset reaches (2147483647): offsets computed in i32, such as tl.program_id(0) * BLOCK, overflow and wrap to negative values; use fewer programs, or compute offsets in int64 [W0804]"
    mt run spec.json; rc_is 0
    [ -s err ] && fail "a warning for a small grid"
    :
    ;;
run.stale_tmp)
    mkdir d
    sh -c 'exit 0' & dead=$!; wait $dead
    : > "d/x.npy.tmp.$dead.abc123"
    touch -d '20 minutes ago' "d/x.npy.tmp.$dead.abc123"
    : > "d/y.npy.tmp.$dead.abc123"      # recent: maybe still being written
    mt run spec.json --dump d; rc_is 0
    [ -e "d/x.npy.tmp.$dead.abc123" ] && fail "the stale temporary file is still there"
    [ -e "d/y.npy.tmp.$dead.abc123" ] || fail "a recent temporary file was removed"
    ls d | grep -q '^out.npy$' || fail "no dump"
    ;;
run.nul_npy)
    # The header of np.save for float32[1000], with '<f4' made '<f4\0<f8'
    # (the padding shortened to match): it was read as float32.
    { printf '\223NUMPY\001\000\166\000'
      printf "{'descr': '<f4"; printf '\000'; printf "<f8', 'fortran_order': False, 'shape': (1000,), }"
      printf '%53s\n' ''
      head -c 4000 /dev/zero; } > nul.npy
    [ "$(wc -c < nul.npy)" = 4128 ] || fail "bad test file: $(wc -c < nul.npy) bytes"
    cat > nul.json <<'EOF'
{"source": "k.py", "grid": [4], "constexprs": {"BLOCK": 256},
 "args": {"x": {"npy": "nul.npy"}, "y": {"dtype": "float32", "shape": [1000]},
          "out": {"dtype": "float32", "shape": [1000]}, "n": 1000}}
EOF
    mt run nul.json; rc_is 1
    err_has "nul.json:2:24: error: args.x.npy: nul.npy: the header holds a NUL byte (at byte 14 of its text); a .npy header is printable text (corrupt file?) [R0704]"
    ;;

cache.unwritable)
    # NVRTC is needed for --emit ptx; a machine without the toolkit skips.
    MYTRITON_CACHE_DIR=/dev/null/cache "$MT" compile k.py --signature "$SIG" --emit ptx > out 2> err; rc=$?
    if [ "$rc" != 0 ] && grep -q -i "nvrtc" err; then echo "SKIP: no NVRTC ($(head -1 err))"; exit 77; fi
    rc_is 0
    [ "$(grep -c 'warning' err)" = 1 ] || fail "want exactly one warning"
    err_is "mytriton compile: warning: the kernel cache cannot be written (cannot create the folder /dev/null/cache: /dev/null is not a folder): compiled kernels are not kept, so every run compiles again; set MYTRITON_CACHE_DIR to a writable folder, or MYTRITON_CACHE=0"
    MYTRITON_CACHE_DIR="$T/cache" "$MT" compile k.py --signature "$SIG" --emit ptx > out 2> err; rc=$?
    rc_is 0; [ -s err ] && fail "a warning for a writable cache"
    :
    ;;

install.prefix)
    cmake --install "$MT_BUILD_DIR" --prefix "$T/prefix" > out 2> err; rc=$?
    rc_is 0
    [ -x prefix/bin/mytriton ] || fail "no prefix/bin/mytriton"
    [ -f prefix/share/doc/mytriton/rules/E0401.md ] || fail "no rule pages"
    PATH="$T/prefix/bin:$PATH" mytriton compile k.py --signature "$SIG" > out 2> err; rc=$?
    rc_is 0; out_has "program_id"
    ;;
guide.commands)
    sh "$SRC/tests/cli/guide.sh" "$MT" "$SRC/docs/user-guide.md" "$T" || exit 1
    ;;

*)
    echo "run.sh: unknown case $CASE"
    exit 1 ;;
esac
exit 0
