#!/bin/bash
# vkcube through Mesa's own X11 WSI and through VK_LAYER_XCB_present, on
# one private Xvfb, in FIFO: frames per second, client CPU time per frame,
# and bytes the client writes (the X socket, almost all of it) per frame;
# and the time from a frame rendered to the vblank that showed it, read
# from VK_EXT_present_timing by tests/vulkan/vk-client's FIFO loop (vkcube
# asks for no timing; Mesa's WSI has none to give).
# Usage: bench/vk-layer-bench.sh [FRAMES]   (from a configured build tree)
# Prints a markdown table for bench/README.md.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
frames=${1:-300}
command -v vkcube >/dev/null || { echo "vkcube is missing (vulkan-tools)"; exit 77; }
command -v Xvfb >/dev/null || { echo "Xvfb is missing"; exit 77; }
command -v strace >/dev/null || { echo "strace is missing"; exit 77; }
client=$top/tests/vulkan/vk-client
[ -x "$client" ] || { echo "tests/vulkan/vk-client is not built (make check builds it)"; exit 77; }

exec 3< <(Xvfb -displayfd 1 -screen 0 800x600x24 -nolisten tcp 2>/dev/null & echo "pid $!")
read -r _ xvfb_pid <&3
read -r display <&3
export DISPLAY=":$display"
trap 'kill "$xvfb_pid" 2>/dev/null' EXIT

layer=(env VK_LAYER_PATH="$top/layers/vulkan" VK_INSTANCE_LAYERS=VK_LAYER_XCB_present)
mesa=(env)

# elapsed seconds and user+sys CPU seconds of one run
timed() {
    local t0 t1 cpu
    t0=$(date +%s.%N)
    cpu=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc) $cpu"
}

# bytes written by the client (writev, sendmsg, write), from strace
written() {
    strace -f -qq -e trace=writev,sendmsg,write -e signal=none -o "$tmp" "$@" >/dev/null 2>&1
    awk '/= [0-9]+$/ { s += $NF } END { print s + 0 }' "$tmp"
}
tmp=$(mktemp)

# "mean / p99 ms" of the rendered-to-shown times, or why there are none
latency() {
    local out
    out=$(VK_CLIENT_FRAMES=$frames "$@" "$client" latency 2>&1 | grep "rendered to shown")
    if [ -z "$out" ]; then
        echo "no present timing"
    else
        echo "$out" | sed 's/.*mean \([0-9.]*\) ms p50 [0-9.]* p99 \([0-9.]*\).*/\1 \/ \2/'
    fi
}

row() {
    local name=$1 t cpu bytes lat
    shift
    read -r t u s < <(timed "$@" vkcube --c "$frames")
    bytes=$(written "$@" vkcube --c "$frames")
    cpu=$(echo "($u + $s) * 1000 / $frames" | bc -l)
    lat=$(latency "$@")
    printf '| %s | %.1f | %.2f | %.0f | %s |\n' "$name" "$(echo "$frames / $t" | bc -l)" \
        "$cpu" "$(echo "$bytes / $frames" | bc -l)" "$lat"
}

echo "vkcube --c $frames, FIFO, 500x500, Xvfb 60 Hz ($(nproc) cores)"
echo
echo "| WSI | frames/s | CPU ms/frame | bytes written/frame | rendered to shown, mean / p99 ms |"
echo "|---|---|---|---|---|"
row "Mesa's X11 WSI (lavapipe)" "${mesa[@]}"
row "VK_LAYER_XCB_present" "${layer[@]}"
rm -f "$tmp"
