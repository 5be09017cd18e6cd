#!/bin/sh
# Unmodified Vulkan programs through VK_LAYER_XCB_present on lavapipe, on a
# private Xvfb and on Xwayland: vkd3d's demos (vkd3d-gears, vkd3d-triangle:
# Direct3D 12 on vkd3d, with an xcb swapchain of their own) and mpv's
# Vulkan output (gpu-next, an Xlib surface).  Each runs without the
# validation layer and with it above and below the layer.  Checked: it
# runs (vkd3d's demos until they are stopped, mpv to its last frame), the
# layer took the device over, its swapchain is on the shm back end, no
# PutImage was sent, FIFO aims each frame at a vblank after the one
# before, the frame count never runs ahead of the refresh (never early;
# a slow machine only makes fewer), and the validation layer reports
# nothing of the layer's: no error whose message ID the same program,
# validated without the layer on the same server, does not have too
# (libplacebo in mpv 0.35 names objects through VK_EXT_debug_utils without
# enabling it: thousands of errors that are the program's own).
# vkd3d-triangle draws when it is exposed, not continuously: one frame is
# its run.  A program that is not installed is skipped.  TAP.
#
# programs.sh --on-server KIND: the checks on the server in $DISPLAY, as
# vk-client's lines (tests/vulkan/vulkan-env.sh).
. "${TOP_SRCDIR:-.}/tests/common/tap.sh"
. "${TOP_SRCDIR:-.}/tests/vulkan/vulkan-env.sh"

# How long vkd3d's demos run (they have no frame count of their own).
RUN_S=4
# mpv's frames, from a 60 Hz test source.
MPV_FRAMES=120
# The refresh of both servers: 60 Hz, 16.6 ms.  A frame count above
# elapsed / 16.6 ms, plus the first frames, which Present shows as soon
# as it can, would be frames shown early.
REFRESH_US=16600
EXTRA_FRAMES=5

line() { if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; fi; }

# The PresentPixmap targets of FIFO frames in $1 that are not above the
# one before (0: every frame aimed at a vblank of its own).
targets_not_ahead() {
    sed -n 's/.*request: PresentPixmap .* target \([0-9]*\) options.*/\1/p' "$1" |
        awk 'NR > 1 && $1 <= prev { bad++ } { prev = $1 } END { print bad + 0 }'
}

# run NAME OUT: the program NAME with the environment as it is; sets
# $status and $took (ms).
run() {
    _t0=$(now_ms)
    case $1 in
    vkd3d-gears | vkd3d-triangle)
        timeout $RUN_S "$1" > "$2" 2>&1 ;;
    mpv)
        timeout 60 mpv --no-config --vo=gpu-next --gpu-api=vulkan --gpu-context=x11vk \
            --vulkan-device="$lavapipe" --frames=$MPV_FRAMES --no-audio --really-quiet \
            "av://lavfi:testsrc2=size=320x240:rate=60" > "$2" 2>&1 ;;
    esac
    status=$?
    took=$(($(now_ms) - _t0))
}

# validation_ids FILE: the message IDs of FILE's validation errors, one
# per line, each once.
validation_ids() {
    sed -n 's/.*Validation Error: \[ \([^ ]*\) \].*/\1/p' "$1" | sort -u
}

# The frames a run must show at least.
fewest_frames() {
    case $1 in
    vkd3d-triangle) echo 1 ;;
    *) echo 10 ;;
    esac
}

# The exit status a good run has: vkd3d's demos run until timeout stops
# them (124); mpv ends after its frames.
good_status() {
    case $1 in
    mpv) echo 0 ;;
    *) echo 124 ;;
    esac
}

check_program() {
    prog=$1
    want=$(good_status "$prog")
    (placement none && XCB_PRESENT_VK_LAYER_DEBUG=1 XCB_PRESENT_UTIL_DEBUG=1 &&
        export XCB_PRESENT_VK_LAYER_DEBUG XCB_PRESENT_UTIL_DEBUG &&
        run "$prog" "$tmp/layer" && echo "$status $took" > "$tmp/layer.st")
    read -r status took < "$tmp/layer.st"
    presents=$(grep -c "request: PresentPixmap" "$tmp/layer")
    most=$((took * 1000 / REFRESH_US + EXTRA_FRAMES))
    early=$(targets_not_ahead "$tmp/layer")
    echo "$prog through the layer: status $status, $presents PresentPixmap in $took ms"
    grep -E "xcb-present layer: (device|swapchain)" "$tmp/layer"
    line "$prog runs through the layer (status $status, $want expected)" \
        '[ "$status" = "$want" ]'
    line "$prog: the layer took the device over" \
        'grep -q "xcb-present layer: device .*: taken over" "$tmp/layer"'
    line "$prog: its swapchain is on the shm back end" \
        'grep -Eq "xcb-present layer: swapchain: .*, shm$" "$tmp/layer"'
    fewest=$(fewest_frames "$prog")
    line "$prog: at least $fewest frames presented ($presents PresentPixmap)" \
        '[ "$presents" -ge "$fewest" ]'
    line "$prog: no PutImage" '! grep -q "PutImage" "$tmp/layer"'
    line "$prog: each FIFO frame aimed past the one before ($early not)" '[ "$early" = 0 ]'
    line "$prog: never ahead of the refresh: $presents frames in $took ms (at most $most)" \
        '[ "$presents" -le "$most" ]'
    if [ "$prog" = mpv ]; then
        min_ms=$((MPV_FRAMES * REFRESH_US * 9 / 10000))
        line "mpv: $MPV_FRAMES frames take at least $min_ms ms ($took)" '[ "$took" -ge "$min_ms" ]'
    fi
    [ "$status" = "$want" ] || tail -20 "$tmp/layer"

    if [ -z "$validation_dir" ]; then
        echo "SKIP $prog with the validation layer # it is not installed"
        return 0
    fi
    # the program's own errors: validated without the layer
    (VK_LAYER_PATH=$validation_dir VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation &&
        export VK_LAYER_PATH VK_INSTANCE_LAYERS && unset XCB_PRESENT_VK_LAYER &&
        run "$prog" "$tmp/base")
    validation_ids "$tmp/base" > "$tmp/base.ids"
    echo "$prog, validated without the layer: $(grep -c "Validation Error" "$tmp/base")" \
        "errors, IDs: $(tr '\n' ' ' < "$tmp/base.ids")"
    for p in above below; do
        name=$(placement_name $p)
        (placement $p && XCB_PRESENT_VK_LAYER_DEBUG=1 && export XCB_PRESENT_VK_LAYER_DEBUG &&
            run "$prog" "$tmp/val" && echo "$status $took" > "$tmp/val.st")
        read -r status took < "$tmp/val.st"
        errors=$(grep -c "Validation Error" "$tmp/val")
        ours=$(validation_ids "$tmp/val" | comm -23 - "$tmp/base.ids" | tr '\n' ' ')
        echo "$prog, $name: status $status, $took ms, $errors validation errors"
        line "$prog, $name, runs (status $status)" '[ "$status" = "$want" ]'
        line "$prog, $name: the layer took the device over" \
            'grep -q "xcb-present layer: device .*: taken over" "$tmp/val"'
        line "$prog, $name: no validation error the program lacks without the layer (${ours:-none})" \
            '[ -z "$ours" ]'
        for id in $ours; do grep -m 2 "\[ $id \]" "$tmp/val"; done
    done
}

on_server() {
    for prog in vkd3d-gears vkd3d-triangle mpv; do
        if ! command -v "$prog" > /dev/null 2>&1; then
            echo "SKIP $prog # not installed"
            continue
        fi
        check_program "$prog"
    done
}

if [ "${1:-}" = --on-server ]; then
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/vk-programs.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT HUP INT TERM
    lavapipe=$2
    on_server
    exit 0
fi

tap_tmpdir vk-programs
need -x "is not built" "$client" "$with_server"
need -f "is not built" "$layer_dir/VkLayer_xcb_present.json"
lavapipe=$("$client" probe 2>/dev/null) || {
    echo "1..0 # SKIP no CPU Vulkan device (lavapipe) here"
    exit 0
}
# (each program has a time limit; with-server is not killed, which would
# leave its server behind)
for kind in xvfb xwayland; do
    "$with_server" $kind sh "$0" --on-server "$lavapipe" > "$tmp/out" 2>&1
    tap_from "$kind" "$tmp/out" $?
done
echo "1..$n"
