#!/bin/sh
# VK_LAYER_XCB_present under tests/vulkan/vk-client's scenarios (fifo,
# mailbox, immediate, resize, destroyed, oldswapchain, presentwait,
# maintenance1, othersize, acquire0, timing) on a private Xvfb, once without validation and
# once each with the validation layer above and below the layer, which
# must report no error (and must report the one vk-client provokes: the
# count is real); then the fifo scenario on Xwayland.  Each server is
# started by tests/servers/with-server and stopped by its PID.  TAP.
. "${TOP_SRCDIR:-.}/tests/common/tap.sh"
. "${TOP_SRCDIR:-.}/tests/vulkan/vulkan-env.sh"
tap_tmpdir vk-client

need -x "is not built" "$client" "$with_server"
need -f "is not built" "$layer_dir/VkLayer_xcb_present.json"
if ! "$client" probe > "$tmp/probe" 2>&1; then
    echo "1..0 # SKIP no CPU Vulkan device (lavapipe) here"
    exit 0
fi
echo "# device: $(cat "$tmp/probe")"

# with-server is not put under timeout(1): killed, it would leave its
# server behind; vk-client's watchdog (30 s a scenario) bounds the time.
for p in none above below; do
    label="xvfb, $(placement_name $p)"
    if [ $p != none ] && [ -z "$validation_dir" ]; then
        skip "$label" "the validation layer is not installed"
        continue
    fi
    scenarios=all
    [ $p = none ] || scenarios="all provoke"
    # shellcheck disable=SC2086
    (placement $p && exec "$with_server" xvfb "$client" $scenarios) \
        > "$tmp/out" 2>&1
    tap_from "$label" "$tmp/out" $?
done

(placement none && exec "$with_server" xwayland "$client" fifo) > "$tmp/out" 2>&1
tap_from "xwayland, no validation" "$tmp/out" $?

echo "1..$n"
