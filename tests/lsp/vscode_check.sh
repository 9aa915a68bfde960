#!/bin/sh
# vscode_check.sh EXTENSION_DIR: the VS Code extension's dependency-free
# check: every source parses (node --check) and the pure logic and the
# manifest pass their unit tests (node --test). No npm, no network.
set -u
dir=$1
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node is not installed"
  exit 77
fi
cd "$dir" || exit 1
for f in extension.js stages.js test/*.js; do
  node --check "$f" || { echo "FAIL: $f does not parse"; exit 1; }
done
node --test test/
