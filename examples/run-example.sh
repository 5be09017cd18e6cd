#!/bin/sh
# Runs a client program on $DISPLAY, or, when none is set, on an Xvfb that
# this script starts on a free display number and stops again by its PID.
set -e
program=$1
shift
if [ -n "${DISPLAY:-}" ]; then
    exec "$program" "$@"
fi
n=99
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do
    n=$((n + 1))
done
Xvfb ":$n" -screen 0 640x480x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; wait "$xvfb" 2>/dev/null || true' EXIT
tries=0
while [ ! -e "/tmp/.X11-unix/X$n" ]; do
    tries=$((tries + 1))
    if [ $tries -gt 100 ] || ! kill -0 "$xvfb" 2>/dev/null; then
        echo "run-example: Xvfb :$n did not start" >&2
        exit 1
    fi
    sleep 0.1
done
DISPLAY=":$n" "$program" "$@"
