#!/bin/sh
# run-tests.sh: what `make test` does, quietly.
#
#   1. install the Debian packages the build and the tests need
#   2. build (BUILD, default build) and run every test
#   3. build with AddressSanitizer + UndefinedBehaviorSanitizer
#      (ASAN_BUILD, default build-asan) and run every test but the GPU
#      ones and the benchmarks again
#   4. print one line for the whole run: passed, failed, skipped and why
#
# Build and test output goes to log files (BUILD/logs/, ASAN_BUILD/logs/
# for the sanitizer build; cmake/build.sh); a failed build prints its
# errors, a failed test its output. Exit status 0 only when nothing
# failed. JOBS sets the parallelism (default: the cores).
set -u
BUILD=${BUILD:-build}
ASAN_BUILD=${ASAN_BUILD:-build-asan}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
LOGS=$BUILD/logs
case "$LOGS" in /*) ABSLOGS=$LOGS ;; *) ABSLOGS=$PWD/$LOGS ;; esac
start=$(date +%s)
mkdir -p "$LOGS"

sh cmake/install-deps.sh test || exit 1
JOBS=$JOBS sh cmake/build.sh "$BUILD" -DMT_WERROR=ON || exit 1
echo "make test: built $BUILD; running its tests (log: $LOGS/test.log)"
ctest --test-dir "$BUILD" -j "$JOBS" --output-junit "$ABSLOGS/test.xml" > "$LOGS/test.log" 2>&1

JOBS=$JOBS sh cmake/build.sh "$ASAN_BUILD" -DMT_SANITIZE=ON -DMT_WERROR=ON -DCMAKE_BUILD_TYPE=Debug || exit 1
echo "make test: built $ASAN_BUILD (ASan/UBSan); running its tests but gpu and bench (log: $LOGS/asan-test.log)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$ASAN_BUILD" -j "$JOBS" -LE 'gpu|bench' --output-junit "$ABSLOGS/asan-test.xml" \
    > "$LOGS/asan-test.log" 2>&1

secs=$(($(date +%s) - start))
# One pass over both JUnit reports: the output of every failed test, then
# the summary line. Skip reasons are the first "SKIP: reason (detail)"
# line a skipped test printed, without the detail.
awk -v secs="$secs" -v logs="$LOGS" '
    function unescape(s) {
        gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s); gsub(/&apos;/, "\047", s)
        gsub(/&amp;/, "\\&", s)
        return s
    }
    FNR == 1 { build = FILENAME ~ /asan-test.xml$/ ? "ASan/UBSan" : "normal" }
    /<testcase / {
        match($0, /name="[^"]*"/); name = substr($0, RSTART + 6, RLENGTH - 7)
        match($0, /status="[^"]*"/); status = substr($0, RSTART + 8, RLENGTH - 9)
        out = ""; inout = 0; reason = ""
        total[build]++
        next
    }
    /<system-out>/ { inout = 1; sub(/.*<system-out>/, "") }
    inout {
        line = $0
        done = sub(/<\/system-out>.*/, "", line)
        line = unescape(line)
        out = out line "\n"
        if (reason == "" && line ~ /^SKIP: /) { reason = substr(line, 7); sub(/ \(.*/, "", reason) }
        if (done) inout = 0
        next
    }
    /<\/testcase>/ {
        if (status == "run") passed++
        else if (status == "fail") {
            failed++
            printf "---- FAILED (%s build): %s\n%s", build, name,
                out == "" ? "(no output: a timeout? the log has the details)\n" : out
            failures = failures (failures == "" ? "" : ", ") name
        } else {
            skipped++
            why = reason == "" ? "no reason given" : reason
            if (!(why in count)) order[++nwhy] = why
            count[why]++
        }
    }
    END {
        reasons = ""
        for (i = 1; i <= nwhy; i++)
            reasons = reasons (i > 1 ? "; " : "") count[order[i]] " " order[i]
        if (reasons ~ /no CUDA device/) print "make test: GPU tests skip without a GPU; MYTRITON_REQUIRE_CUDA=1 makes that a failure"
        if (failed) print "make test: failed: " failures
        printf "make test: %s: %d passed, %d failed, %d skipped%s (%d tests in the normal build, %d in the ASan/UBSan build) in %dm%02ds; logs in %s\n",
            failed ? "FAILED" : "ok", passed, failed, skipped, skipped ? " (" reasons ")" : "",
            total["normal"], total["ASan/UBSan"], secs / 60, secs % 60, logs
        exit failed ? 1 : 0
    }
' "$LOGS/test.xml" "$LOGS/asan-test.xml"
