#!/bin/sh
# The tests that need a DRM render node, run where one exists: everywhere
# else (CI, machines without /dev/dri) they skip, so a GPU machine is the
# only place they say anything.  Builds nothing: run it from a build tree
# after `make check` (or after building the programs listed below).
#
#   tests/dri3-util/drm-nodevice          GBM buffers (mapped, with dma-buf
#                                    access brackets) and drmSyncobj timelines
#                                    on the render node (gbm_on_render_node,
#                                    timeline_on_render_node; the kernel's
#                                    eventfd of a point and the wait for
#                                    availability:
#                                    timeline_available_and_notify_on_render_node)
#   tests/present-util/swapchain-synced
#                                    the swapchain's explicit sync with the
#                                    library's own DRM timelines, which the
#                                    mock X server imports and signals
#                                    through libdrm (drm_timelines_on_a_render_node),
#                                    and the same checks on memfd timelines
#   tests/present-util/swapchain-gbm     the swapchain's buffers from GBM on
#                                    the render node, shown by the mock X
#                                    server as a GPU server shows dma-bufs
#                                    (gbm_swapchain_on_a_render_node)
#
# Prints one line per test and a summary.  Exit status: 0 when every test
# passed and every render-node test ran; 1 when one failed; 2 when a
# program is missing or no render node exists; 3 when the render-node
# tests all skipped (the summary says why).  Each program is limited to
# 120 s; the whole run takes seconds on a working machine.
set -u

cd "$(dirname "$0")/.." || exit 2
PROGRAMS="tests/dri3-util/drm-nodevice tests/present-util/swapchain-synced tests/present-util/swapchain-gbm"
# the tests that need the render node: they must not skip here
RENDER_TESTS="gbm_on_render_node timeline_on_render_node timeline_available_and_notify_on_render_node timeline_wait_any_on_render_node drm_timelines_on_a_render_node gbm_swapchain_on_a_render_node"

echo "== render nodes"
found=0
for node in /dev/dri/renderD*; do
    [ -e "$node" ] || continue
    found=1
    driver=$(basename "$(readlink -f "/sys/class/drm/$(basename "$node")/device/driver" 2>/dev/null)" 2>/dev/null)
    printf '%s  driver %s  %s\n' "$node" "${driver:-unknown}" \
        "$( [ -r "$node" ] && [ -w "$node" ] && echo "read-write" || echo "NOT read-write for $(id -un)")"
done
if [ "$found" = 0 ]; then
    echo "no /dev/dri/renderD* on this machine: nothing to check here"
    exit 2
fi

for p in $PROGRAMS; do
    if [ ! -x "$p" ]; then
        echo "missing $p: build it first (make check, or make $PROGRAMS)"
        exit 2
    fi
done

log=$(mktemp) || exit 2
trap 'rm -f "$log"' EXIT
failed=0 passed=0 skipped=0 render_ran=0 render_skipped=0
for p in $PROGRAMS; do
    echo "== $p"
    # the test runner prints TAP; a whole program is bounded, never killed by name
    TEST_TIMEOUT=60 timeout 120 "./$p" >"$log" 2>&1
    rc=$?
    if [ "$rc" = 124 ]; then
        echo "TIMEOUT: $p ran past 120 s"
        failed=$((failed + 1))
    fi
    while IFS= read -r line; do
        case "$line" in
        "not ok "*)
            echo "FAIL  ${line#not ok }"
            failed=$((failed + 1)) ;;
        "ok "*"# SKIP"*)
            name=${line#ok * - }
            name=${name%% *}
            echo "skip  ${line#ok }"
            skipped=$((skipped + 1))
            case " $RENDER_TESTS " in *" $name "*) render_skipped=$((render_skipped + 1)) ;; esac ;;
        "ok "*)
            name=${line#ok * - }
            echo "pass  ${line#ok }"
            passed=$((passed + 1))
            case " $RENDER_TESTS " in *" $name "*) render_ran=$((render_ran + 1)) ;; esac ;;
        "# "*)
            echo "      $line" ;;
        esac
    done <"$log"
    if [ "$rc" != 0 ] && [ "$rc" != 124 ] && ! grep -q '^not ok' "$log"; then
        echo "FAIL  $p exited with status $rc"
        tail -n 20 "$log" | sed 's/^/      /'
        failed=$((failed + 1))
    fi
done

echo "== summary"
echo "passed $passed, failed $failed, skipped $skipped;" \
     "render-node tests: $render_ran ran, $render_skipped skipped"
if [ "$failed" != 0 ]; then
    echo "RESULT: FAIL"
    exit 1
fi
if [ "$render_ran" = 0 ]; then
    echo "RESULT: NOTHING CHECKED (every render-node test skipped: see the reasons above)"
    exit 3
fi
echo "RESULT: OK"
exit 0
