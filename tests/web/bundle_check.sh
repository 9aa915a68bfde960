#!/bin/sh
# bundle_check.sh WORK_DIR: rebuild the page from its sources with the
# locked packages (installed by npm_setup.sh) and fail when the committed
# bundle static/dist differs from what they build. Exit 77 (skipped) when
# the packages could not be installed.
set -u
work=$1
if [ ! -d "$work/node_modules/esbuild" ]; then
  echo "SKIP: the page's npm packages are not installed (see the web.npm test: node, npm or the registry is missing)"
  exit 77
fi
cd "$work" && node build.mjs --check
