#!/bin/sh
# Runs a client program on $DISPLAY, or, when none is set, on an Xvfb that
# this script starts and stops again by its PID.  Xvfb picks a free display
# number itself (-displayfd), so nothing here looks for one.
set -e
program=$1
shift
if [ -n "${DISPLAY:-}" ]; then
    exec "$program" "$@"
fi
. "$(dirname "$0")/../scripts/displayfd.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/run-example.XXXXXX")
trap 'displayfd_stop; rm -rf "$tmp"' EXIT
if ! displayfd_start "$tmp" Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp; then
    echo "run-example: Xvfb did not start" >&2
    sed 's/^/run-example: /' "$tmp/server.err" >&2
    exit 1
fi
DISPLAY=$server_display "$program" "$@"
