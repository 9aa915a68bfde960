#!/bin/sh
# run.sh SERVER ROOT: the batch Emacs eglot test (test.el) on a copy of the
# tutorial-style matmul fixture with a planted E0207 error, with mytriton
# alone and beside another Python server. Exit 77 without
# emacs or eglot (cmake/install-deps.sh installs emacs-nox and elpa-eglot).
set -u
server=$1
root=$2
if ! command -v emacs >/dev/null 2>&1; then
  echo "SKIP: emacs is not installed (cmake/install-deps.sh installs emacs-nox and elpa-eglot)"
  exit 77
fi
if ! emacs --batch -q --eval "(require 'eglot)" >/dev/null 2>&1; then
  echo "SKIP: eglot is not installed (cmake/install-deps.sh installs elpa-eglot)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/project" "$tmp/home"
sed '/^    offs_k = tl.arange(0, BLOCK_SIZE_K)$/a\    k_mask = offs_k < K \& offs_k >= 0' \
  "$root/tests/lsp/fixtures/tutorial/matmul.py" > "$tmp/project/matmul.py"
grep -q 'k_mask = offs_k < K & offs_k >= 0' "$tmp/project/matmul.py" || { echo "FAIL: could not plant the error"; exit 1; }
# Twice: mytriton alone, then beside another Python language server
# (tests/lsp/fake_server.py standing in for pylsp: `mytriton lsp --with`).
for with in "" "python3 $root/tests/lsp/fake_server.py"; do
  rm -f "$tmp/project/mytriton.json"
  sed -i 's/^    k_mask = (offs_k < K) & (offs_k >= 0)$/    k_mask = offs_k < K \& offs_k >= 0/' "$tmp/project/matmul.py"
  HOME="$tmp/home" XDG_CACHE_HOME="$tmp/home" MYTRITON_SERVER="$server" MYTRITON_FILE="$tmp/project/matmul.py" \
  MYTRITON_WITH="$with" timeout 100 emacs --batch -q -l "$root/tests/lsp/emacs/test.el" </dev/null
  status=$?
  [ $status -eq 124 ] && echo "FAIL: emacs did not finish in 100 s"
  [ $status -eq 0 ] || exit $status
done
exit 0
