#!/bin/sh
# run_golden.sh MYTRITON EXPECTED ROOT
# EXPECTED is tests/golden/<stage>/<example>.<kernel>.<ext>: compile
# examples/<example>.py --kernel <kernel> --emit <stage> and diff -u against
# it. The layout and cuda goldens are the seed lowering's (the seed
# documents' text); the kernel goldens are the fast lowering's kernel layer.
# With MT_UPDATE_GOLDEN=1 the expected file is rewritten instead (review
# the diff like code). EXPECTED may be missing (the tests are registered
# for every example kernel): that fails, saying how to write it, unless
# the stage's lowering refuses the kernel (E0601-E0605), which is a skip
# (exit 77) and writes nothing.
set -eu
mytriton=$1 expected=$2 root=$3
stage=$(basename "$(dirname "$expected")")
base=$(basename "$expected")
example=${base%%.*}
rest=${base#*.}
kernel=${rest%.*}
lowering=fast
case "$stage" in
  layout | cuda) lowering=seed ;;
esac
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
if ! "$mytriton" compile "$root/examples/$example.py" --kernel "$kernel" --emit "$stage" --lowering "$lowering" \
  --color never >"$out" 2>"$err"; then
  cat "$err" >&2
  if [ ! -f "$expected" ] && grep -q "\[E060[1-5]\]" "$err"; then
    echo "SKIP: the $lowering lowering does not lower $example.$kernel ($(grep -m1 "\[E060[1-5]\]" "$err"))"
    exit 77
  fi
  exit 1
fi
cat "$err" >&2
if [ "${MT_UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$out" "$expected"
  echo "updated $expected"
  exit 0
fi
if [ ! -f "$expected" ]; then
  echo "FAIL: $expected is missing (every example kernel has one):" \
    "MT_UPDATE_GOLDEN=1 ctest -R golden.$stage.$base writes it; review it like code" >&2
  exit 1
fi
diff -u "$expected" "$out"
