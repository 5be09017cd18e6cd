#!/bin/sh
# The mock server as a person starts it: `mock-x-server --display :N` on a
# free display number, then an ordinary libxcb client that only knows
# $DISPLAY (any-client, built against libxcb's own extension libraries
# where they are installed) opens DRI3, makes a pixmap of a memfd, presents
# it and reads the window back.  The server is stopped by its PID and must
# exit cleanly and remove its socket.
#
# Environment: TOP_BUILDDIR, the build tree (set by `make check`).
# Prints TAP.

server="${TOP_BUILDDIR:-.}/tests/mock/mock-x-server"
client="${TOP_BUILDDIR:-.}/tests/e2e/any-client"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e2e-by-hand.XXXXXX") || exit 1
pid=
cleanup() {
    if [ -n "$pid" ]; then
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

echo "1..3"

# A display number nobody uses; if another server takes it between the
# look and our start, the mock refuses the live socket and we try the next.
start_server() {
    n=$1
    while [ $n -lt 200 ]; do
        if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then
            "$server" --display ":$n" > "$tmp/out" 2> "$tmp/err" &
            pid=$!
            tries=0
            while [ $tries -lt 50 ]; do
                if grep -q '^ready' "$tmp/out"; then
                    display=":$n"
                    return 0
                fi
                kill -0 "$pid" 2>/dev/null || break
                sleep 0.1
                tries=$((tries + 1))
            done
            kill "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            pid=
        fi
        n=$((n + 1))
    done
    return 1
}

if start_server 120; then
    echo "ok 1 - mock-x-server listens on $display"
else
    echo "not ok 1 - mock-x-server did not start"
    sed 's/^/# /' "$tmp/err"
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

kill -TERM "$pid"
wait "$pid"
status=$?
pid=
if [ $status -eq 0 ] && [ ! -e "/tmp/.X11-unix/X${display#:}" ]; then
    echo "ok 3 - SIGTERM stops the server cleanly and removes its socket"
else
    echo "not ok 3 - the server exited with status $status or left its socket"
    sed 's/^/# /' "$tmp/err"
fi
