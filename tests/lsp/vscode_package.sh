#!/bin/sh
# vscode_package.sh EXTENSION_DIR WORK_DIR: build and package the VS Code
# extension as CI would: npm ci from the lock file, the checks, then
# vsce package (a .vsix holding extension.js and vscode-languageclient).
# Runs in a copy under WORK_DIR so the source tree gets no node_modules.
# Exits 77 with a visible message when npm or its registry is unreachable.
set -u
src=$1
work=$2
if ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: npm is not installed"
  exit 77
fi
if ! timeout 30 npm ping >/dev/null 2>&1; then
  echo "SKIP: npm registry unreachable"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cp -R "$src/." "$work/"
rm -rf "$work/node_modules" "$work"/*.vsix
cd "$work" || exit 1
timeout 400 npm ci --no-audit --no-fund || {
  # A registry that answers ping but not downloads is unreachable too.
  if ! timeout 30 npm view vscode-languageclient version >/dev/null 2>&1; then
    echo "SKIP: npm registry unreachable"
    exit 77
  fi
  echo "FAIL: npm ci"
  exit 1
}
npm run --silent check || { echo "FAIL: npm run check"; exit 1; }
npm run --silent package || { echo "FAIL: vsce package"; exit 1; }
[ -s mytriton.vsix ] || { echo "FAIL: no mytriton.vsix"; exit 1; }
node -e '
const fs = require("fs");
const buf = fs.readFileSync("mytriton.vsix");
const names = [];
for (let i = 0; i + 46 <= buf.length; i++) {
  if (buf.readUInt32LE(i) !== 0x02014b50) continue; // zip central directory entry
  const n = buf.readUInt16LE(i + 28);
  names.push(buf.toString("utf8", i + 46, i + 46 + n));
}
for (const want of ["extension/extension.js", "extension/stages.js", "extension/package.json",
                    "extension/node_modules/vscode-languageclient/package.json"])
  if (!names.includes(want)) { console.log("FAIL: the vsix lacks " + want); process.exit(1); }
if (names.some((n) => n.startsWith("extension/test/"))) { console.log("FAIL: the vsix ships the tests"); process.exit(1); }
console.log("packaged mytriton.vsix: " + names.length + " files, " + buf.length + " bytes");
'
