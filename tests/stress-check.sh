#!/bin/bash
# Runs the whole suite (make -j8 check) RUNS times in a row while two busy
# loops load the CPUs, and prints how many runs passed.  A test that waits
# on a clock must pass here every time: that is the proof that it asserts
# behaviour, not the machine's speed.
#
# Run by hand in a configured and built tree (not part of make check):
#
#     tests/stress-check.sh [RUNS]        # default 20
#
# Environment: STRESS_JOBS (default 8) for make's -j, STRESS_LOADS (default
# 2) for the number of busy loops.  The logs of a failed run are kept in
# stress-check-N.log (the test-suite.log of that run).  Exit status 0 only
# if every run passed.
set -u

runs=${1:-20}
jobs=${STRESS_JOBS:-8}
loads=${STRESS_LOADS:-2}

case "$runs" in
    '' | *[!0-9]*) echo "usage: $0 [RUNS]" >&2; exit 2 ;;
esac
if [ ! -f Makefile ]; then
    echo "$0: run it in a configured build tree" >&2
    exit 2
fi

busy_pids=()
stop_loads() {
    local pid
    for pid in "${busy_pids[@]}"; do
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    done
    busy_pids=()
}
trap 'stop_loads; exit 130' INT TERM
trap stop_loads EXIT

# Build first, unloaded: the runs time the suite, not the compiler.
make -s -j2 >/dev/null || { echo "$0: the build failed" >&2; exit 1; }

for ((i = 0; i < loads; i++)); do
    # A subshell spinning on a shell builtin: pure CPU, no I/O, no fork.
    ( while :; do :; done ) &
    busy_pids+=("$!")
done
echo "busy loops: ${busy_pids[*]}"

passed=0
failed_runs=()
start=$(date +%s)
for ((run = 1; run <= runs; run++)); do
    t0=$(date +%s)
    if make -j"$jobs" check >/dev/null 2>&1; then
        passed=$((passed + 1))
        result=PASS
    else
        result=FAIL
        failed_runs+=("$run")
        cp test-suite.log "stress-check-$run.log" 2>/dev/null
    fi
    summary=$(sed -n 's/^# \(PASS\|FAIL\|ERROR\|SKIP\): *\([0-9]*\)$/\1 \2/p' test-suite.log \
              | tr '\n' ' ')
    echo "run $run/$runs: $result ($(($(date +%s) - t0)) s; $summary)"
    if [ "$result" = FAIL ]; then
        grep -E '^(FAIL|ERROR):' test-suite.log | sed 's/^/    /'
    fi
done
stop_loads

echo "make -j$jobs check under $loads busy loops: $passed of $runs runs passed" \
     "in $(($(date +%s) - start)) s"
if [ "${#failed_runs[@]}" -gt 0 ]; then
    echo "failed runs: ${failed_runs[*]} (logs: stress-check-N.log)"
    exit 1
fi
exit 0
