#!/bin/sh
# check-man-pages.sh MAN_DIR LIBRARY: the hand-written man pages of a util
# library, one for every function LIBRARY exports, each formatting without a
# single groff warning (-ww turns all of them on).  TAP output.  MAN_DIR is
# relative to $TOP_SRCDIR, LIBRARY (a .so) to $TOP_BUILDDIR.
dir="${TOP_SRCDIR:-.}/$1"
lib="${TOP_BUILDDIR:-.}/$2"
set -- "$dir"/*.3
if [ ! -e "$1" ]; then
    echo "1..1"
    echo "not ok 1 - no man pages in $dir"
    exit 0
fi
echo "1..$(($# + 1))"
i=0
for page in "$@"; do
    i=$((i + 1))
    if ! command -v groff >/dev/null 2>&1; then
        echo "ok $i # SKIP groff is not installed"
        continue
    fi
    warnings=$(groff -man -ww -z "$page" 2>&1)
    if [ -z "$warnings" ]; then
        echo "ok $i - $(basename "$page")"
    else
        echo "not ok $i - $(basename "$page")"
        printf '%s\n' "$warnings" | sed 's/^/# /'
    fi
done
i=$((i + 1))
if [ ! -r "$lib" ] || ! command -v nm >/dev/null 2>&1; then
    echo "ok $i # SKIP the library or nm is missing"
    exit 0
fi
missing=
for s in $(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }'); do
    [ -e "$dir/$s.3" ] || missing="$missing $s"
done
if [ -z "$missing" ]; then
    echo "ok $i - every exported function has a man page"
else
    echo "not ok $i - functions without a man page:$missing"
fi
