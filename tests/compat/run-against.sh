#!/bin/sh
# Runs an already-built program against the libxcb-dri3.so.0 and
# libxcb-present.so.0 of a given directory, after checking with ldd that the
# dynamic linker really picks those.  The point is binary drop-in
# compatibility: api-use.c compiled and linked against Debian's headers and
# libraries must run unchanged on our libraries, which is exactly what a
# distribution's existing binaries (Mesa, toolkits) will do.
#
# Usage: run-against.sh [PROGRAM LIBDIR]
# Environment:
#   RUN_PROGRAM  the program (or $1): a real executable, not a libtool wrapper
#                script, e.g. api-use built with the reference's headers and
#                libraries: gcc ... api-use.c $(pkg-config --libs xcb-dri3
#                xcb-present xcb), using the system .pc files
#   RUN_LIBDIR   directory holding the libraries to run against (or $2), e.g.
#                $(abs_top_builddir)/src/.libs
#   COMPAT_SKIP_STATUS  exit status when skipping (default 77); automake's
#                tap-driver.sh reports any non-zero status as ERROR, so set
#                it to 0 there ("1..0 # SKIP" already says skip)
# Prints TAP; exits 0 pass, 1 fail, 77 skip (nothing given).

program=${1:-${RUN_PROGRAM:-}}
libdir=${2:-${RUN_LIBDIR:-}}

if [ -z "$program" ] || [ -z "$libdir" ]; then
    echo "1..0 # SKIP set RUN_PROGRAM and RUN_LIBDIR (or pass both)"
    exit "${COMPAT_SKIP_STATUS:-77}"
fi
if [ ! -x "$program" ] || [ ! -d "$libdir" ]; then
    echo "Bail out! $program is not executable or $libdir is not a directory"
    exit 1
fi

. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/compat/ldd-resolves.sh"
tap_tmpdir run-against

failed=0
echo "1..2"
LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

ldd "$program" > "$tmp/ldd" 2>&1
name=$(basename "$program")
what="$name resolves libxcb-dri3.so.0 and libxcb-present.so.0 in $libdir"
if resolves_in "$tmp/ldd" "$libdir"; then
    echo "ok 1 - $what"
else
    echo "not ok 1 - $what"
    sed 's/^/# /' "$tmp/ldd"
    failed=1
fi

if "$program" > "$tmp/out" 2>&1; then
    echo "ok 2 - $name passes against $libdir"
else
    echo "not ok 2 - $name passes against $libdir"
    sed 's/^/# /' "$tmp/out"
    failed=1
fi

exit $failed
