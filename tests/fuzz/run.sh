#!/bin/sh
# run.sh BUILD SECONDS [TARGET...]: build the libFuzzer targets in BUILD
# (clang, -DMT_FUZZ=ON: ASan + UBSan + coverage) and run each target
# (default: compile launch lsp web) for SECONDS, one after the other. `make
# fuzz` runs it with FUZZ_SECONDS (default 600), CI with 60.
#
# Each target starts from its seed corpus and regression inputs in the
# tree (tests/fuzz/corpus/T, tests/fuzz/regressions/T; read only) and
# grows a working corpus in BUILD/fuzz-corpus/T, which later runs reuse.
# A crash, a leak, a sanitizer report or a timeout stops the target: the
# input is saved in BUILD/fuzz-artifacts/T/ and this script fails, saying
# how to reproduce it. Once fixed, copy the input into
# tests/fuzz/regressions/T/ (the test suite replays it from then on).
# One line per target reports executions and coverage (edges and
# features, as libFuzzer counts them); logs are in BUILD/logs/fuzz-T.log.
set -u
B=$1
S=$2
shift 2
TARGETS=${*:-compile launch lsp web}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CC=${FUZZ_CC:-$(command -v clang-14 || command -v clang)}
[ -n "$CC" ] || { echo "fuzz: no clang (sh cmake/install-deps.sh fuzz installs clang-14)" >&2; exit 2; }

mkdir -p "$B/logs"
if ! CC=$CC cmake -S . -B "$B" -DMT_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$B/logs/configure.log" 2>&1; then
    tail -n 30 "$B/logs/configure.log" >&2
    exit 1
fi
bins=""
for t in $TARGETS; do bins="$bins fuzz_$t"; done
# shellcheck disable=SC2086
if ! cmake --build "$B" -j "$JOBS" --target $bins > "$B/logs/build.log" 2>&1; then
    grep -E -A5 'error' "$B/logs/build.log" | head -n 40 >&2
    exit 1
fi

status=0
for t in $TARGETS; do
    corpus="$B/fuzz-corpus/$t"
    artifacts="$B/fuzz-artifacts/$t/"
    log="$B/logs/fuzz-$t.log"
    mkdir -p "$corpus" "$artifacts" "tests/fuzz/regressions/$t"
    "$B/tests/fuzz/fuzz_$t" -max_total_time="$S" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="tests/fuzz/$t.dict" -artifact_prefix="$artifacts" \
        "$corpus" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -n 1)
    edges=$(echo "$cov" | awk '{print $2}') features=$(echo "$cov" | awk '{print $4}') inputs=$(echo "$cov" | awk '{print $6}')
    if [ "$rc" = 0 ]; then
        echo "fuzz $t: ${runs:-0} runs in ${S}s, coverage ${edges:-?} edges, ${features:-?} features, corpus ${inputs:-?} inputs: no crash"
    else
        status=1
        crash=$(sed -n 's/^.*Test unit written to //p' "$log" | tail -n 1)
        echo "fuzz $t: FAILED after ${runs:-?} runs: $(grep -m1 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|ALARM|out-of-memory' "$log")"
        echo "  input: ${crash:-see $log}; reproduce: $B/tests/fuzz/fuzz_$t ${crash:-INPUT}"
        echo "  once fixed: cp ${crash:-INPUT} tests/fuzz/regressions/$t/   (the test suite replays it)"
    fi
done
exit $status
