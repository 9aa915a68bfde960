#!/bin/sh
# run_diag.sh MYTRITON CASE.py
# Compile CASE.py (with the options of a first-line comment
# "# args: --signature ..." if any) and compare the short-form diagnostics with
# CASE.err: "error E0401 5:9-5:14: message" per diagnostic, notes indented.
# The compile must fail (exit 1 or 2). MT_UPDATE_GOLDEN=1 rewrites CASE.err.
set -eu
mytriton=$1 case=$2
expected=${case%.py}.err
err=$(mktemp)
trap 'rm -f "$err"' EXIT
set +e
args=$(sed -n "1s/^# args: //p" "$case")
set -f  # the options are split on spaces but never globbed
# shellcheck disable=SC2086
"$mytriton" compile "$case" $args --diagnostics short --color never >/dev/null 2>"$err"
rc=$?
set -e
if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then
  echo "FAIL: $case: expected exit 1 or 2, got $rc" >&2
  cat "$err" >&2
  exit 1
fi
if [ "${MT_UPDATE_GOLDEN:-0}" = 1 ]; then
  cp "$err" "$expected"
  echo "updated $expected"
  exit 0
fi
diff -u "$expected" "$err"
