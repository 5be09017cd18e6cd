#!/bin/sh
# Unmodified `vkcube --c 300` through VK_LAYER_XCB_present on lavapipe, on
# a private Xvfb (and on Xwayland): it runs, FIFO is paced (300 frames take
# at least 300 refreshes, less 10%: never early), the layer presents with
# PresentPixmap on MIT-SHM pixmaps and never PutImage (the layer's and the
# engine's debug output: XCB_PRESENT_VK_LAYER_DEBUG, XCB_PRESENT_UTIL_DEBUG),
# and `vkcube --validate` with the validation layer above and below the
# layer has no "Validation Error".  vkcube without the layer (lavapipe's
# own WSI) runs first on the same server, for comparison only.  TAP.
#
# vkcube.sh --on-server KIND: the checks on the server in $DISPLAY, as
# vk-client's lines (tests/vulkan/vulkan-env.sh).
. "${TOP_SRCDIR:-.}/tests/common/tap.sh"
. "${TOP_SRCDIR:-.}/tests/vulkan/vulkan-env.sh"

# VKCUBE: another vkcube (or none, to see the skip)
vkcube=${VKCUBE:-vkcube}
FRAMES=300
# 300 refreshes of 16.6 ms, less 10%
MIN_MS=$((FRAMES * 166 * 9 / 100))

# run_cube OUT ARG...: vkcube with a time limit; sets $status and $took (ms)
run_cube() {
    _out=$1
    shift
    _t0=$(now_ms)
    timeout 60 "$vkcube" --c $FRAMES "$@" > "$_out" 2>&1
    status=$?
    took=$(($(now_ms) - _t0))
}

line() { if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; fi; }

on_server() {
    kind=$1
    if [ "$kind" = xvfb ]; then
        run_cube "$tmp/base"
        echo "without the layer (lavapipe's own WSI): status $status, $FRAMES frames in $took ms"
    fi

    (placement none && XCB_PRESENT_VK_LAYER_DEBUG=1 XCB_PRESENT_UTIL_DEBUG=1 &&
        export XCB_PRESENT_VK_LAYER_DEBUG XCB_PRESENT_UTIL_DEBUG &&
        run_cube "$tmp/layer" && echo "$status $took" > "$tmp/layer.st")
    read -r status took < "$tmp/layer.st"
    presents=$(grep -c "request: PresentPixmap" "$tmp/layer")
    echo "through the layer: status $status, $FRAMES frames in $took ms, $presents PresentPixmap"
    grep -E "xcb-present layer: (device|swapchain)" "$tmp/layer"
    line "vkcube --c $FRAMES through the layer exits 0 (status $status)" '[ "$status" = 0 ]'
    line "the layer took the device over" 'grep -q "xcb-present layer: device .*: taken over" "$tmp/layer"'
    line "its swapchain is on the shm back end" \
        'grep -Eq "xcb-present layer: swapchain: .*, shm$" "$tmp/layer"'
    line "at least $FRAMES PresentPixmap requests ($presents)" '[ "$presents" -ge $FRAMES ]'
    line "no PutImage" '! grep -q "PutImage" "$tmp/layer"'
    line "FIFO is paced: $FRAMES frames in at least $MIN_MS ms ($took)" '[ "$took" -ge $MIN_MS ]'
    [ "$status" = 0 ] || tail -20 "$tmp/layer"

    [ "$kind" = xvfb ] || return 0
    for p in above below; do
        name=$(placement_name $p)
        if [ -z "$validation_dir" ]; then
            echo "SKIP vkcube --validate, $name # the validation layer is not installed"
            continue
        fi
        (placement $p && XCB_PRESENT_VK_LAYER_DEBUG=1 && export XCB_PRESENT_VK_LAYER_DEBUG &&
            run_cube "$tmp/val" --validate && echo "$status $took" > "$tmp/val.st")
        read -r status took < "$tmp/val.st"
        errors=$(grep -c "Validation Error" "$tmp/val")
        echo "vkcube --validate, $name: status $status, $took ms, $errors validation errors"
        line "vkcube --validate, $name, exits 0 (status $status)" '[ "$status" = 0 ]'
        line "vkcube --validate, $name: the layer took the device over" \
            'grep -q "xcb-present layer: device .*: taken over" "$tmp/val"'
        line "vkcube --validate, $name: no line with \"Validation Error\" ($errors)" \
            '[ "$errors" = 0 ]'
        grep -m 5 "Validation Error" "$tmp/val"
    done
}

if [ "${1:-}" = --on-server ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/vkcube.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT HUP INT TERM
    on_server "$2"
    exit 0
fi

tap_tmpdir vkcube
need -x "is not built" "$client" "$with_server"
need -f "is not built" "$layer_dir/VkLayer_xcb_present.json"
if ! command -v "$vkcube" > /dev/null 2>&1; then
    echo "1..0 # SKIP vkcube is not installed (vulkan-tools)"
    exit 0
fi
if ! "$client" probe > /dev/null 2>&1; then
    echo "1..0 # SKIP no CPU Vulkan device (lavapipe) here"
    exit 0
fi
# (each vkcube has a time limit; with-server is not killed, which would
# leave its server behind)
for kind in xvfb xwayland; do
    "$with_server" $kind sh "$0" --on-server $kind > "$tmp/out" 2>&1
    tap_from "$kind" "$tmp/out" $?
done
echo "1..$n"
