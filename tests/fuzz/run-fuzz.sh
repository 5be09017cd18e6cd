#!/bin/sh
# Runs fuzz targets for $FUZZ_SECONDS each, from a copy of the seed corpus.
#
#     run-fuzz.sh BINDIR PREFIX TARGET...
#
# TARGET "codegen" is the generator's XML fuzzer (Python); the others are
# libFuzzer programs BINDIR/PREFIXTARGET. Work goes to tests/fuzz/run/: the
# growing corpus, the log of each run and any input that crashed or leaked.
# Prints one line per target with its executions, and writes
# tests/fuzz/run/PREFIXtest-suite.log with automake's "# PASS:" / "# FAIL:"
# counts, which CI adds to its summary. Exits 1 if any target failed.
set -u
bindir=$1
prefix=$2
shift 2
seconds=${FUZZ_SECONDS:-60}
# FUZZ_SEED makes a run repeatable (CI sets it, so that a landing is judged
# on the same inputs each time); unset, each run explores new ones.
seed_lf= seed_py=
if [ -n "${FUZZ_SEED:-}" ]; then
    seed_lf="-seed=$FUZZ_SEED"
    seed_py="--seed $FUZZ_SEED"
fi
top=${TOP_SRCDIR:-.}
run=tests/fuzz/run
mkdir -p "$run"
pass=0
fail=0
summary=$run/${prefix}test-suite.log
: >"$summary.tmp"

for t in "$@"; do
    name=$prefix$t
    log=$run/$name.log
    if [ "$t" = codegen ]; then
        if ${PYTHON:-python3} "$top/tests/fuzz/fuzz-codegen.py" --seconds "$seconds" $seed_py \
            --out "$run/codegen-findings" >"$log" 2>&1; then
            result=ok
        else
            result=FAIL
        fi
        execs=$(sed -n 's/^executions: //p' "$log" | tail -1)
    else
        work=$run/$name/corpus
        mkdir -p "$work"
        cp "$top/tests/fuzz/corpus/$t/"* "$work/" 2>/dev/null
        # The events target's inputs often end with a connection error, after
        # which libxcb leaks each special queue (README.md): LeakSanitizer's
        # check after every such input would slow it tenfold. Its fd check
        # stays; the replies target keeps LeakSanitizer on.
        leaks=1
        [ "$t" = events ] && leaks=0
        # libX11's own leaks on broken connections (fuzz-xlib.lsan says which);
        # the suppression needs whole stacks, through libxcb's frames.
        lsan=${LSAN_OPTIONS:-} asan=${ASAN_OPTIONS:-}
        if [ "$t" = xlib ]; then
            lsan="suppressions=$top/tests/fuzz/fuzz-xlib.lsan"
            asan="fast_unwind_on_malloc=0"
        fi
        # The util targets' inputs script a whole session (fuzz-server.h):
        # a swapchain needs a few hundred bytes to reach its frames, more
        # than libFuzzer's slowly growing length limit gives in a minute.
        extra=
        case $t in swapchain | dri3util) extra="-max_len=2048 -len_control=0" ;; esac
        if LSAN_OPTIONS=$lsan ASAN_OPTIONS=$asan "$bindir/$name" -max_total_time="$seconds" $seed_lf -timeout=10 -detect_leaks=$leaks $extra \
            -print_final_stats=1 -artifact_prefix="$run/$name-" "$work" >"$log" 2>&1; then
            result=ok
        else
            result=FAIL
        fi
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    fi
    echo "$name: $result, ${execs:-?} executions in ${seconds} s (log: $log)" | tee -a "$summary.tmp"
    if [ "$result" = ok ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        grep -E 'FUZZ FINDING|ERROR|SUMMARY|Test unit written|finding' "$log" | head -5
    fi
done

{
    cat "$summary.tmp"
    echo "# TOTAL: $((pass + fail))"
    echo "# PASS: $pass"
    echo "# FAIL: $fail"
} >"$summary"
rm -f "$summary.tmp"
[ "$fail" -eq 0 ]
