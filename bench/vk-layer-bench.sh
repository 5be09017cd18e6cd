#!/bin/bash
# vkcube through Mesa's own X11 WSI and through VK_LAYER_XCB_present, on
# one private Xvfb, in FIFO: frames per second, client CPU time per frame,
# and bytes the client writes (the X socket, almost all of it) per frame.
# Usage: bench/vk-layer-bench.sh [FRAMES]   (from a configured build tree)
# Prints a markdown table for bench/README.md.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
frames=${1:-300}
command -v vkcube >/dev/null || { echo "vkcube is missing (vulkan-tools)"; exit 77; }
command -v Xvfb >/dev/null || { echo "Xvfb is missing"; exit 77; }
command -v strace >/dev/null || { echo "strace is missing"; exit 77; }

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

row() {
    local name=$1 t cpu bytes
    shift
    read -r t u s < <(timed "$@" vkcube --c "$frames")
    bytes=$(written "$@" vkcube --c "$frames")
    cpu=$(echo "($u + $s) * 1000 / $frames" | bc -l)
    printf '| %s | %.1f | %.2f | %.0f |\n' "$name" "$(echo "$frames / $t" | bc -l)" "$cpu" \
        "$(echo "$bytes / $frames" | bc -l)"
}

echo "vkcube --c $frames, FIFO, 500x500, Xvfb 60 Hz ($(nproc) cores)"
echo
echo "| WSI | frames/s | CPU ms/frame | bytes written/frame |"
echo "|---|---|---|---|"
row "Mesa's X11 WSI (lavapipe)" "${mesa[@]}"
row "VK_LAYER_XCB_present" "${layer[@]}"
rm -f "$tmp"
