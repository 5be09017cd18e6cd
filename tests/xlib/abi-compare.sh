#!/bin/sh
# The layout of our <X11/extensions/Xpresent.h> against Debian's libXpresent
# header: xpresent-layout built against each must print the same lines
# (struct sizes and alignments, member offsets and sizes, macro values).
#
# Environment: TOP_BUILDDIR (set by `make check`).  Prints TAP.
b=${TOP_BUILDDIR:-.}/tests/xlib
ours=$b/xpresent-layout
ref=$b/xpresent-layout-ref
if [ ! -x "$ref" ]; then
    echo "1..0 # SKIP Debian's libXpresent header is not installed"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xpresent-abi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
"$ours" > "$tmp/ours" || { echo "1..1"; echo "not ok 1 - xpresent-layout failed"; exit 1; }
"$ref" > "$tmp/ref" || { echo "1..1"; echo "not ok 1 - xpresent-layout-ref failed"; exit 1; }
n=$(wc -l < "$tmp/ref")
echo "1..2"
if [ "$n" -gt 80 ]; then
    echo "ok 1 - the reference layout has $n lines"
else
    echo "not ok 1 - the reference layout has only $n lines"
fi
if diff -u "$tmp/ref" "$tmp/ours" > "$tmp/diff"; then
    echo "ok 2 - every struct, member and macro of Xpresent.h is the same as libXpresent's"
else
    echo "not ok 2 - layouts differ"
    sed 's/^/# /' "$tmp/diff"
fi
