#!/bin/sh
# A plain Xlib client, xdpyinfo, completes against mock-x-server: the core
# requests that Xlib makes on its own (CreateGC at XOpenDisplay,
# GetProperty, ListExtensions, GetWindowAttributes, QueryBestSize, the
# keyboard and pointer queries) are all answered.  TAP output.
server="${TOP_BUILDDIR:-.}/mock/mock-x-server"
if ! command -v xdpyinfo >/dev/null 2>&1; then
    echo "1..0 # SKIP xdpyinfo (package x11-utils) is not installed"
    exit 0
fi
. "$(dirname "$0")/../../scripts/displayfd.sh"
displayfd_tmpdir xdpyinfo

echo "1..3"
if ! displayfd_start "$tmp" "$server" --displayfd 3 --shm on; then
    echo "not ok 1 - mock-x-server did not start"
    sed 's/^/# /' "$tmp/server.err"
    echo "not ok 2 - no server"
    echo "not ok 3 - no server"
    exit 0
fi
echo "ok 1 - mock-x-server on $server_display"
DISPLAY=$server_display timeout 10 xdpyinfo > "$tmp/out" 2>&1
status=$?
if [ $status -eq 0 ]; then
    echo "ok 2 - xdpyinfo completes"
else
    echo "not ok 2 - xdpyinfo completes (exit status $status)"
    sed 's/^/# /' "$tmp/out"
fi
if grep -q "MIT-SHM" "$tmp/out" && grep -q "Present" "$tmp/out" &&
   grep -q "TrueColor" "$tmp/out"; then
    echo "ok 3 - it lists the extensions and the visuals"
else
    echo "not ok 3 - it lists the extensions and the visuals"
    sed 's/^/# /' "$tmp/out"
fi
