#!/bin/sh
# Instructions per frame of each present-bench row, the plain loop's
# included, counted by valgrind's callgrind: the same on a busy machine as
# on an idle one, where CPU nanoseconds are not.
#
#     bench/present-instructions.sh [FIFO_FRAMES [IMMEDIATE_FRAMES]]
#
# present-bench collects only its measured frames, the renderer left out,
# and dumps each row under the row's name (bench/present-bench.c); this
# script runs it under callgrind (defaults: 300 FIFO frames, 1000
# IMMEDIATE) and prints each row's instructions per frame and the ratio
# to the plain loop of the same mode (IMMEDIATE: the lowest of its three
# rounds, as for CPU time). Under callgrind a frame's code runs about 50
# times slower, which FIFO's 16.7 ms per frame absorbs; the pacing and so
# the counts can differ a little from a native run's.
set -eu
bench=${BENCH:-./bench/present-bench}
fifo=${1:-300}
imm=${2:-1000}
if ! command -v valgrind >/dev/null; then
    echo "present-instructions: skipped, valgrind is not installed"
    exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# --trace-children: in a build tree the program is libtool's wrapper
# script, which execs the real one.
valgrind --tool=callgrind --trace-children=yes --collect-atstart=no \
    --callgrind-out-file="$out/cg.%p" \
    "$bench" "$fifo" "$imm" >"$out/table" 2>"$out/valgrind.log" || {
    tail -20 "$out/valgrind.log" >&2
    exit 1
}
echo "present-bench under callgrind: $fifo FIFO frames, $imm IMMEDIATE (frames after warm-up)"
# Each dump (cg.PID.N): "desc: Trigger: Client Request: ROW NAME" and
# "totals: N".
for f in "$out"/cg.*.*; do
    row=$(sed -n 's/^desc: Trigger: Client Request: //p' "$f")
    total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$f")
    [ -n "$row" ] && [ -n "$total" ] && printf '%s\t%s\n' "$row" "$total"
done | awk -F '\t' -v fifo="$fifo" -v imm="$imm" '
    {
        n = ($1 ~ /IMMEDIATE/) ? imm : fifo
        per = $2 / n
        if (!($1 in best) || per < best[$1]) best[$1] = per
        if (!($1 in seen)) { order[++rows] = $1; seen[$1] = 1 }
    }
    END {
        printf "%-26s %14s %7s\n", "loop", "instr/frame", "ratio"
        for (i = 1; i <= rows; i++) {
            r = order[i]
            base = (r ~ /IMMEDIATE/) ? best["plain IMMEDIATE, 3 bufs"] : best["plain loop, 3 bufs"]
            printf "%-26s %14.0f %7.2f\n", r, best[r], base ? best[r] / base : 0
        }
    }'
