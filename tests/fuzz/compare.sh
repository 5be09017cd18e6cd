#!/bin/sh
# Runs each corpus input through our libraries and Debian's (replay
# programs built with ASan+UBSan) and counts, per target, the inputs that
# fail and why (the sanitizer's summary line or the harness's finding).
#
#     compare.sh BINDIR TARGET...
#
# The corpus is tests/fuzz/run/fuzz-TARGET/corpus from the last `make fuzz`,
# or the seed corpus when there is none.
set -u
bindir=$1
shift
top=${TOP_SRCDIR:-.}
out=tests/fuzz/run/compare
mkdir -p "$out"
for t in "$@"; do
    corpus=tests/fuzz/run/fuzz-$t/corpus
    [ -d "$corpus" ] || corpus=$top/tests/fuzz/corpus/$t
    n=$(ls "$corpus" | wc -l)
    for lib in ours ref; do
        prog=$bindir/replay-$t
        [ "$lib" = ref ] && prog=$bindir/ref-replay-$t
        "$prog" "$corpus" >"$out/$lib-$t.tap" 2>"$out/$lib-$t.err"
        failed=$(grep -c '^not ok' "$out/$lib-$t.tap")
        echo "$t, $lib: $failed of $n inputs fail"
        grep -E '^SUMMARY: (Address|UndefinedBehavior)Sanitizer|^FUZZ FINDING' "$out/$lib-$t.err" |
            sed -e 's/ on address.*//' -e 's|/[^ ]*/||' | sort | uniq -c | sort -rn | head -8
    done
done
