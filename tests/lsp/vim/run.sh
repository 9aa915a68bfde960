#!/bin/sh
# run.sh SERVER ROOT: Vim with ALE (test.vim) on a copy of the tutorial-style
# matmul fixture with a planted E0207: mytriton's diagnostics, with their
# codes and ranges, beside another Python server's. Exit 77 without vim or
# ALE (cmake/install-deps.sh installs vim and vim-ale).
set -u
server=$1
root=$2
if ! command -v vim >/dev/null 2>&1 || [ ! -f /usr/share/vim-ale/plugin/ale.vim ]; then
  echo "SKIP: vim or ALE is not installed (cmake/install-deps.sh installs vim and vim-ale)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed '/^    offs_k = tl.arange(0, BLOCK_SIZE_K)$/a\    k_mask = offs_k < K \& offs_k >= 0' \
  "$root/tests/lsp/fixtures/tutorial/matmul.py" > "$tmp/matmul.py"
HOME="$tmp" MYTRITON_SERVER="$server" MYTRITON_ROOT="$root" MYTRITON_FILE="$tmp/matmul.py" MYTRITON_OUT="$tmp/out.txt" \
  timeout 60 vim -N -u "$root/tests/lsp/vim/test.vim" -i NONE --not-a-term >/dev/null 2>&1 </dev/null
[ -f "$tmp/out.txt" ] || { echo "FAIL: vim wrote no report"; exit 1; }
cat "$tmp/out.txt"
grep -q "^mytriton 55:14-55:37 E0207 '&' binds tighter than comparisons" "$tmp/out.txt" ||
  { echo "FAIL: no E0207 at 55:14-55:37 (ALE ends are inclusive) from mytriton"; exit 1; }
grep -q "^fakepy .* fake: " "$tmp/out.txt" || { echo "FAIL: the other server's diagnostic is missing"; exit 1; }
echo "PASS vim ale"
