#!/bin/sh
# run.sh SERVER ROOT: the headless Neovim test (test.lua) on a copy of the
# tutorial-style matmul fixture with a planted E0207 error, and a copy of
# examples/add_kernel.py. Exit 77 without nvim.
set -u
server=$1
root=$2
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim is not installed (cmake/install-deps.sh installs neovim)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed '/^    offs_k = tl.arange(0, BLOCK_SIZE_K)$/a\    k_mask = offs_k < K \& offs_k >= 0' \
  "$root/tests/lsp/fixtures/tutorial/matmul.py" > "$tmp/matmul.py"
grep -q 'k_mask = offs_k < K & offs_k >= 0' "$tmp/matmul.py" || { echo "FAIL: could not plant the error"; exit 1; }
cp "$root/examples/add_kernel.py" "$tmp/add_kernel.py"
mkdir -p "$tmp/home"
HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home" XDG_DATA_HOME="$tmp/home" XDG_STATE_HOME="$tmp/home" \
XDG_CACHE_HOME="$tmp/home" MYTRITON_SERVER="$server" MYTRITON_ROOT="$root" MYTRITON_FILE="$tmp/matmul.py" \
MYTRITON_ADD="$tmp/add_kernel.py" \
  timeout 100 nvim --headless -u NONE -i NONE -n -c "luafile $root/tests/lsp/nvim/test.lua" </dev/null
status=$?
[ $status -eq 124 ] && echo "FAIL: nvim did not finish in 100 s"
exit $status
