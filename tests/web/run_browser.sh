#!/bin/sh
# run_browser.sh WORK_DIR MYTRITON REPO OUT_DIR: the browser test
# (browser.mjs) in Debian's Chromium, headless. Exit 77 (skipped, with the
# reason) when Chromium is not installed or the page's npm packages
# (playwright-core) could not be installed; never downloads a browser.
set -u
work=$1 mytriton=$2 repo=$3 out=$4
chromium=${MYTRITON_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "SKIP: no Chromium at $chromium (apt-get install chromium, or cmake/install-deps.sh test)"
  exit 77
fi
if [ ! -d "$work/node_modules/playwright-core" ]; then
  echo "SKIP: playwright-core is not installed (see the web.npm test: node, npm or the registry is missing)"
  exit 77
fi
exec node "$(dirname "$0")/browser.mjs" --work "$work" --mytriton "$mytriton" --repo "$repo" --out "$out" --chromium "$chromium"
