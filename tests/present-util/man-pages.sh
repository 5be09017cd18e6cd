#!/bin/sh
# libxcb-present-util's man pages: one for every exported function, and
# each formats without a single groff warning (-ww).  TAP output.
dir="${TOP_SRCDIR:-.}/src/present-util/man"
lib="${TOP_BUILDDIR:-.}/src/.libs/libxcb-present-util.so"
set -- "$dir"/*.3
if [ -r "$lib" ] && command -v nm >/dev/null 2>&1; then
    symbols=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort)
else
    symbols=
fi
have_groff=yes
command -v groff >/dev/null 2>&1 || have_groff=no
echo "1..$(($# + 1))"
i=0
for page in "$@"; do
    i=$((i + 1))
    if [ $have_groff = no ]; then
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
if [ -z "$symbols" ]; then
    echo "ok $i # SKIP the library or nm is missing"
    exit 0
fi
missing=
for s in $symbols; do
    [ -e "$dir/$s.3" ] || missing="$missing $s"
done
if [ -z "$missing" ]; then
    echo "ok $i - every exported function has a man page"
else
    echo "not ok $i - functions without a man page:$missing"
fi
