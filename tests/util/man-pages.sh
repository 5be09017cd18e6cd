#!/bin/sh
# The hand-written man pages of libxcb-dri3-util must format without a
# single groff warning (-ww turns all of them on).  TAP output.
dir="${TOP_SRCDIR:-.}/src/util/man"
if ! command -v groff >/dev/null 2>&1; then
    echo "1..0 # SKIP groff is not installed"
    exit 0
fi
set -- "$dir"/*.3
if [ ! -e "$1" ]; then
    echo "1..1"
    echo "not ok 1 - no man pages in $dir"
    exit 0
fi
echo "1..$#"
i=0
for page in "$@"; do
    i=$((i + 1))
    warnings=$(groff -man -ww -z "$page" 2>&1)
    if [ -z "$warnings" ]; then
        echo "ok $i - $(basename "$page")"
    else
        echo "not ok $i - $(basename "$page")"
        printf '%s\n' "$warnings" | sed 's/^/# /'
    fi
done
