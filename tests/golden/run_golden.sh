#!/bin/sh
# run_golden.sh MYTRITON EXPECTED ROOT
# EXPECTED is tests/golden/<stage>/<example>.<kernel>.<ext>: compile
# examples/<example>.py --kernel <kernel> --emit <stage> and diff -u against
# it. The layout and cuda goldens are the seed lowering's (the seed
# documents' text); the kernel goldens are the fast lowering's kernel layer.
# With MT_UPDATE_GOLDEN=1 the expected file is rewritten instead (review
# the diff like code).
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
trap 'rm -f "$out"' EXIT
"$mytriton" compile "$root/examples/$example.py" --kernel "$kernel" --emit "$stage" --lowering "$lowering" --color never >"$out"
if [ "${MT_UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$out" "$expected"
  echo "updated $expected"
  exit 0
fi
diff -u "$expected" "$out"
