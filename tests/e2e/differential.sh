#!/bin/sh
# The differential test: tests/e2e/diff-calls runs the same scripted session
# against a mock server twice, once built against our libxcb-dri3 and
# libxcb-present and once against Debian's, and prints what the client
# decoded and what the server received (fds as kind and size).  The two
# outputs must be identical: same bytes on the wire, same fds, same values.
#
# Environment:
#   TOP_BUILDDIR  the build tree that holds tests/e2e/diff-calls and
#                 tests/e2e/diff-calls-ref (set by `make check`)
# Prints TAP (one test); exits 0 on pass and 1 on failure.

ours="${TOP_BUILDDIR:-.}/tests/e2e/diff-calls"
ref="${TOP_BUILDDIR:-.}/tests/e2e/diff-calls-ref"

. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
echo "1..1"
need -x "is not an executable file" "$ours" "$ref"
tap_tmpdir e2e-differential

if ! "$ours" > "$tmp/ours" 2> "$tmp/ours.err"; then
    echo "not ok 1 - our build of diff-calls failed"
    sed 's/^/# /' "$tmp/ours.err"
    exit 1
fi
if ! "$ref" > "$tmp/ref" 2> "$tmp/ref.err"; then
    echo "not ok 1 - the reference build of diff-calls failed"
    sed 's/^/# /' "$tmp/ref.err"
    exit 1
fi
if diff -u "$tmp/ref" "$tmp/ours" > "$tmp/diff"; then
    echo "ok 1 - libxcb's and our libraries send and decode the same ($(wc -l < "$tmp/ours") lines)"
    exit 0
fi
echo "not ok 1 - our libraries differ from libxcb's (- libxcb, + ours)"
sed 's/^/# /' "$tmp/diff"
exit 1
