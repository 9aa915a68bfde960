#!/bin/sh
# run_lsp_mode.sh SERVER ROOT: the batch Emacs lsp-mode test (lsp_mode.el):
# mytriton as an add-on client beside another Python server, on a copy of
# the tutorial-style matmul with a planted E0207. Exit 77 without emacs or
# lsp-mode (cmake/install-deps.sh installs emacs-nox and elpa-lsp-mode).
set -u
server=$1
root=$2
if ! command -v emacs >/dev/null 2>&1 || ! emacs --batch -q --eval "(require 'lsp-mode)" >/dev/null 2>&1; then
  echo "SKIP: emacs or lsp-mode is not installed (cmake/install-deps.sh installs emacs-nox and elpa-lsp-mode)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/project" "$tmp/home"
sed '/^    offs_k = tl.arange(0, BLOCK_SIZE_K)$/a\    k_mask = offs_k < K \& offs_k >= 0' \
  "$root/tests/lsp/fixtures/tutorial/matmul.py" > "$tmp/project/matmul.py"
HOME="$tmp/home" MYTRITON_SERVER="$server" MYTRITON_ROOT="$root" MYTRITON_FILE="$tmp/project/matmul.py" \
  timeout 100 emacs --batch -q -l "$root/tests/lsp/emacs/lsp_mode.el" </dev/null
status=$?
[ $status -eq 124 ] && echo "FAIL: emacs did not finish in 100 s"
exit $status
