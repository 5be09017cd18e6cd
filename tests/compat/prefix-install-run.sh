#!/bin/sh
# Installs the built tree into a scratch DESTDIR and runs prefix-install.sh on
# it: a consumer must compile, link and run with only our .pc files' flags.
set -e
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! ${MAKE:-make} -C "$TOP_BUILDDIR" install DESTDIR="$tmp/root" >"$tmp/install.log" 2>&1; then
    echo "1..1"
    echo "not ok 1 - make install DESTDIR=..."
    sed 's/^/# /' "$tmp/install.log"
    exit 1
fi
INSTALL_PREFIX="$tmp/root$PREFIX" COMPAT_SRCDIR="$TOP_SRCDIR/tests/compat" \
    sh "$TOP_SRCDIR/tests/compat/prefix-install.sh"
