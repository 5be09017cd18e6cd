#!/bin/sh
# On a machine with a GPU, from a fresh copy of the tree: build, run the
# tests that need a DRM render node (scripts/gpu-check.sh: GBM buffers
# and their dma-buf syncs, DRM timelines, the swapchain's GBM buffers
# shown by the mock X server) and print a summary.  Installs nothing: it
# says what is missing (scripts/install-deps-debian.sh installs it).
# LOG_DIR (default /tmp) receives build.log and gpu-check.log.
# Exit status: 0 every render-node test ran and passed; 1 a test failed;
# 2 something is missing or the build failed; 3 a render-node test skipped.
set -u
cd "$(dirname "$0")/../.." || exit 2
log_dir=${LOG_DIR:-/tmp}
jobs=$(nproc 2>/dev/null || echo 2)
programs="tests/dri3-util/drm-nodevice tests/present-util/swapchain-synced
          tests/present-util/swapchain-gbm"

missing=
for tool in autoreconf automake libtoolize make cc pkg-config python3; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
for pc in xcb xcb-proto xcb-randr xcb-xfixes xcb-sync xcb-shm "libdrm >= 2.4.113" gbm; do
    pkg-config --exists "$pc" 2>/dev/null || missing="$missing pkg-config:'$pc'"
done
ls /dev/dri/renderD* >/dev/null 2>&1 || missing="$missing /dev/dri/renderD*"
if [ -n "$missing" ]; then
    echo "RESULT: MISSING$missing"
    exit 2
fi

echo "== build (log: $log_dir/build.log)"
if ! { autoreconf -fi && ./configure --with-gbm && make -j"$jobs" &&
       make -j"$jobs" $programs; } >"$log_dir/build.log" 2>&1; then
    tail -n 30 "$log_dir/build.log"
    echo "RESULT: BUILD FAILED"
    exit 2
fi

sh scripts/gpu-check.sh >"$log_dir/gpu-check.log" 2>&1
rc=$?
cat "$log_dir/gpu-check.log"
# gpu-check.sh is content with one render-node test; here every one must run
if [ "$rc" = 0 ] &&
   ! grep -q 'render-node tests: [0-9]* ran, 0 skipped' "$log_dir/gpu-check.log"; then
    echo "RESULT: a render-node test skipped (see above)"
    rc=3
fi
exit "$rc"
