#!/bin/sh
# build.sh BUILD_DIR [CMAKE_ARGS...]: configure and build quietly. The
# output goes to BUILD_DIR/logs/configure.log and build.log; only a
# failure prints (the end of the failing log). JOBS sets the parallelism.
set -u
B=$1
shift
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$B/logs"
if ! cmake -S . -B "$B" "$@" > "$B/logs/configure.log" 2>&1; then
    echo "configuring $B failed; the end of $B/logs/configure.log:" >&2
    tail -n 40 "$B/logs/configure.log" >&2
    exit 1
fi
if ! cmake --build "$B" -j "$JOBS" > "$B/logs/build.log" 2>&1; then
    echo "building $B failed; the errors in $B/logs/build.log:" >&2
    grep -E -A5 'error|Error' "$B/logs/build.log" | head -n 60 >&2
    exit 1
fi
