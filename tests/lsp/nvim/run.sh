#!/bin/sh
# run.sh SERVER ROOT: the headless Neovim test (test.lua) on a copy of
# examples/add_kernel.py with a planted E0207 error. Exit 77 without nvim.
set -u
server=$1
root=$2
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim is not installed (cmake/install-deps.sh installs neovim)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/    mask = offsets < n$/    mask = offsets < n \& offsets > 0/' "$root/examples/add_kernel.py" > "$tmp/planted.py"
grep -q 'offsets < n & offsets > 0' "$tmp/planted.py" || { echo "FAIL: could not plant the error"; exit 1; }
mkdir -p "$tmp/home"
HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home" XDG_DATA_HOME="$tmp/home" XDG_STATE_HOME="$tmp/home" \
XDG_CACHE_HOME="$tmp/home" MYTRITON_SERVER="$server" MYTRITON_ROOT="$root" MYTRITON_FILE="$tmp/planted.py" \
  timeout 100 nvim --headless -u NONE -i NONE -n -c "luafile $root/tests/lsp/nvim/test.lua" </dev/null
status=$?
[ $status -eq 124 ] && echo "FAIL: nvim did not finish in 100 s"
exit $status
