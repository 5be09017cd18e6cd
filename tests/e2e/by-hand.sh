#!/bin/sh
# The mock server as a person starts it: `mock-x-server --displayfd 3`,
# which picks a free display number itself and writes it to fd 3 (as Xvfb
# -displayfd does), then an ordinary libxcb client that only knows
# $DISPLAY (any-client, built against libxcb's own extension libraries
# where they are installed) opens DRI3, makes a pixmap of a memfd, presents
# it and reads the window back.  The server is stopped by its PID and must
# exit cleanly and remove its socket and its lock file.
#
# Environment: TOP_BUILDDIR, the build tree (set by `make check`).
# Prints TAP.

server="${TOP_BUILDDIR:-.}/mock/mock-x-server"
client="${TOP_BUILDDIR:-.}/tests/e2e/any-client"
. "$(dirname "$0")/../../scripts/displayfd.sh"
displayfd_tmpdir e2e-by-hand

echo "1..3"

if displayfd_start "$tmp" "$server" --displayfd 3; then
    display=$server_display
    echo "ok 1 - mock-x-server listens on $display"
else
    echo "not ok 1 - mock-x-server did not start"
    sed 's/^/# /' "$tmp/server.err"
    echo "not ok 2 - no server to talk to"
    echo "not ok 3 - no server to stop"
    exit 1
fi

if DISPLAY="$display" "$client" > "$tmp/client.out" 2> "$tmp/client.err"; then
    echo "ok 2 - a plain libxcb client presented a memfd pixmap on $display"
    sed 's/^/# /' "$tmp/client.out"
else
    echo "not ok 2 - the client failed on $display"
    sed 's/^/# /' "$tmp/client.out" "$tmp/client.err"
fi

# True when the stopped server (number $1, PID $2) left its socket or lock
# file.  Another server may have taken the number since: its lock names it.
left_behind() {
    if [ -e "/tmp/.X$1-lock" ]; then
        [ "$(tr -d ' \n' < "/tmp/.X$1-lock")" = "$2" ]
        return
    fi
    [ -e "/tmp/.X11-unix/X$1" ]
}

pid=$server_pid
displayfd_stop
if [ $server_status -eq 0 ] && ! left_behind "${display#:}" "$pid"; then
    echo "ok 3 - SIGTERM stops the server cleanly and removes its socket and lock"
else
    echo "not ok 3 - the server exited with status $server_status or left its socket or lock"
    sed 's/^/# /' "$tmp/server.err"
fi
