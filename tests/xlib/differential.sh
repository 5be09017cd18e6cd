#!/bin/sh
# The differential test: xlib-diff-ref, built against Debian's libXpresent
# header and library, prints one Present session on a private Xvfb.  The
# same binary run on our libXpresent.so.1 (LD_LIBRARY_PATH), and xlib-diff,
# built against our header and library, must print the same.  The first of
# the two is also the "built against Debian's header, runs on ours" test.
#
# Environment: TOP_BUILDDIR (set by `make check`).  Prints TAP.
b=${TOP_BUILDDIR:-.}
ref=$b/tests/xlib/xlib-diff-ref
ours=$b/tests/xlib/xlib-diff
libdir=$b/src/xlib/.libs
if [ ! -x "$ref" ]; then
    echo "1..0 # SKIP Debian's libXpresent is not installed"
    exit 0
fi
if ! command -v Xvfb > /dev/null 2>&1; then
    echo "1..0 # SKIP Xvfb is not installed"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xpresent-diff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

echo "1..4"
# The libtool wrapper would pick the library by itself: run the real binary.
real() {
    if [ -x "$(dirname "$1")/.libs/$(basename "$1")" ]; then
        echo "$(dirname "$1")/.libs/$(basename "$1")"
    else
        echo "$1"
    fi
}
"$ref" > "$tmp/a" 2> "$tmp/a.err"
st_a=$?
LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$(real "$ref")" \
    > "$tmp/b" 2> "$tmp/b.err"
st_b=$?
"$ours" > "$tmp/c" 2> "$tmp/c.err"
st_c=$?

if [ $st_a = 0 ] && [ $st_b = 0 ] && [ $st_c = 0 ]; then
    echo "ok 1 - the session ran on Debian's library, on ours under Debian's header, and on ours"
else
    echo "not ok 1 - exit statuses $st_a $st_b $st_c"
    cat "$tmp/a.err" "$tmp/b.err" "$tmp/c.err" | sed 's/^/# /'
fi
if grep -q "^# library .*/src/xlib/\.libs/libXpresent\.so\.1" "$tmp/b" &&
   ! grep -q "^# library .*/src/xlib/" "$tmp/a"; then
    echo "ok 2 - the binary built against Debian's header loaded our libXpresent.so.1"
else
    echo "not ok 2 - the wrong library was loaded"
    grep '^# library' "$tmp/a" "$tmp/b" | sed 's/^/# /'
fi
for f in a b c; do grep -v '^# ' "$tmp/$f" > "$tmp/$f.cmp"; done
if diff -u "$tmp/a.cmp" "$tmp/b.cmp" > "$tmp/diff1"; then
    echo "ok 3 - Debian's header on our library prints what Debian's library prints"
else
    echo "not ok 3 - outputs differ"
    sed 's/^/# /' "$tmp/diff1"
fi
if diff -u "$tmp/a.cmp" "$tmp/c.cmp" > "$tmp/diff2"; then
    echo "ok 4 - our header and library print what Debian's print ($(wc -l < "$tmp/a.cmp") lines)"
else
    echo "not ok 4 - outputs differ"
    sed 's/^/# /' "$tmp/diff2"
fi
sed 's/^/# /' "$tmp/a"
