#!/bin/sh
# npm_setup.sh STATIC_DIR WORK_DIR: the page's npm packages for the web
# tests, exactly as package-lock.json pins them (`npm ci`), in WORK_DIR (a
# copy of static/'s sources, package files and committed bundle), so the
# tests never touch the source tree. Exit 77 (skipped, with the reason)
# when node or npm is missing or the npm registry cannot be reached.
set -u
static=$1
work=$2
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "SKIP: node and npm are not installed (cmake/install-deps.sh test installs them)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cp -r "$static/package.json" "$static/package-lock.json" "$static/build.mjs" "$static/src" "$static/dist" "$work/"
cd "$work" || exit 1
if ! timeout 60 npm ping >/dev/null 2>&1; then
  echo "SKIP: the npm registry cannot be reached (npm ping failed); the page's packages cannot be installed"
  exit 77
fi
if ! timeout 600 npm ci --no-audit --no-fund --loglevel=error >npm-ci.log 2>&1; then
  cat npm-ci.log
  echo "npm ci failed in $work (see above)"
  exit 1
fi
echo "installed the page's packages in $work/node_modules"
