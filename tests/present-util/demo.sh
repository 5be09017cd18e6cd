#!/bin/sh
# xcb-present-demo end to end: without DISPLAY it starts its own Xvfb,
# presents, prints the summary, writes the plot and the screenshot, and
# stops the Xvfb again (by its PID, which it prints).  TAP output.
demo="${TOP_BUILDDIR:-.}/tools/xcb-present-demo"
if ! command -v Xvfb >/dev/null 2>&1; then
    echo "1..0 # SKIP Xvfb is not installed"
    exit 0
fi
server="${TOP_BUILDDIR:-.}/tests/mock/mock-x-server"
. "$(dirname "$0")/../../scripts/displayfd.sh"
displayfd_tmpdir demo
unset DISPLAY
echo "1..16"
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$tmp/out"; fi; }

"$demo" --frames 60 --size 320x240 --plot "$tmp/plot.svg" --screenshot "$tmp/shot.png" \
    >"$tmp/out" 2>&1
status=$?
check "fifo run exits 0" '[ $status -eq 0 ]'
# (a loaded machine's Xvfb may skip a frame it found late: not counted here)
check "the summary counts every frame" \
    'grep -Eq "frames +60 presented, 60 completed, [0-9]+ skipped" "$tmp/out"'
check "the summary names the back end and the mode" \
    'grep -Eq "back end +shm" "$tmp/out" && grep -Eq "mode +fifo, 3 buffers, 320x240" "$tmp/out"'
check "the plot is an SVG" 'grep -q "<svg" "$tmp/plot.svg" && grep -q "polyline" "$tmp/plot.svg"'
check "the screenshot is a PNG" \
    '[ "$(head -c 4 "$tmp/shot.png" | od -An -c | tr -d " ")" = "211PNG" ]'
# Frame 60's bar: x from (60 * 8) % 320 = 160, 320 / 16 + 4 = 24 wide, 0xffd000.
check "the screenshot shows the last frame (its bar at x 160..183)" \
    '"${PYTHON:-python3}" - "$tmp/shot.png" <<"PY" 2>>"$tmp/out"
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
pos, idat, w = 8, b"", 0
while pos < len(d):
    n, t = struct.unpack(">I4s", d[pos:pos + 8])
    if t == b"IHDR":
        w = struct.unpack(">I", d[pos + 8:pos + 12])[0]
    if t == b"IDAT":
        idat += d[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
row = raw[10 * (1 + 3 * w) + 1:][:3 * w]
px = lambda x: tuple(row[3 * x:3 * x + 3])
assert px(160) == (255, 208, 0) and px(183) == (255, 208, 0), (px(160), px(183))
assert px(159) != (255, 208, 0) and px(184) != (255, 208, 0)
PY'
pid=$(sed -n 's/.*(pid \([0-9]*\)).*/\1/p' "$tmp/out" | head -n 1)
check "its own Xvfb is gone afterwards" '[ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null'

"$demo" --frames 30 --size 64x48 --mode mailbox --backend put-image --buffers 4 \
    >"$tmp/out" 2>&1
status=$?
check "mailbox with the PutImage back end" \
    '[ $status -eq 0 ] && grep -Eq "back end +put-image" "$tmp/out" && grep -Eq "30 completed" "$tmp/out"'

"$demo" --frames 30 --size 64x48 --mode immediate >"$tmp/out" 2>&1
status=$?
check "immediate" '[ $status -eq 0 ] && grep -Eq "30 presented, 30 completed" "$tmp/out"'

"$demo" --mode sideways >"$tmp/out" 2>&1
status=$?
check "a bad option is refused with exit status 2" \
    '[ $status -eq 2 ] && grep -q "unknown mode" "$tmp/out"'

# LOW_LATENCY pacing and max_latency: the summary's acquire-to-shown
# latency and the plot's two series are checked for being there, never
# for their figures (a loaded machine decides those).
"$demo" --pacing low-latency --latency 1 --frames 60 --size 64x48 --plot "$tmp/ll.svg" \
    >"$tmp/out" 2>&1
status=$?
check "low-latency pacing with max latency 1 exits 0" '[ $status -eq 0 ]'
check "its summary names the pacing and has the acquire-to-shown latency line" \
    'grep -Eq "pacing +low-latency, max latency 1 frame;" "$tmp/out" &&
     grep -Eq "^  latency +mean [0-9.]+ ms, p50 [0-9.]+ ms, p99 [0-9.]+ ms, max [0-9.]+ ms \(acquire\(\) to shown, [0-9]+ frames\)" "$tmp/out"'
# One latency, named in every line that gives one, its percentiles in
# order (nearest rank: p50 <= p99 <= max, whatever the machine's load).
check "every latency line says acquire() to shown; p50 <= p99 <= max" \
    '! grep -v "max latency" "$tmp/out" | grep -E "(^| )latency|p99" | grep -vq "acquire() to shown" &&
     grep -q "^  latency " "$tmp/out" &&
     sed -n "s/^  latency *mean [0-9.]* ms, p50 \([0-9.]*\) ms, p99 \([0-9.]*\) ms, max \([0-9.]*\) ms.*/\1 \2 \3/p" "$tmp/out" |
         awk "{ exit !(\$1 <= \$2 && \$2 <= \$3) }"'
check "its plot has both series, a legend and labelled axes" \
    '(for label in "interval between shown frames" "acquire-to-shown latency"; do
          grep -q "<title>$label</title></polyline>" "$tmp/ll.svg" &&
          grep -q ">$label</text>" "$tmp/ll.svg" || exit 1
      done) && grep -q ">frame number</text>" "$tmp/ll.svg" && grep -q ">ms</text>" "$tmp/ll.svg"'

"$demo" --pacing sideways >"$tmp/out" 2>&1
status=$?
"$demo" --latency 0 >>"$tmp/out" 2>&1
status2=$?
check "a bad --pacing or --latency is refused with exit status 2" \
    '[ $status -eq 2 ] && [ $status2 -eq 2 ] && grep -q "unknown pacing" "$tmp/out" &&
     grep -q "latency wants 1 to 7" "$tmp/out"'

# The DRI3 back end, on mock-x-server, which picks a free display itself.
if displayfd_start "$tmp" "$server" --displayfd 3; then
    DISPLAY=$server_display "$demo" --frames 30 --size 64x48 --backend dri3 >"$tmp/out" 2>&1
    status=$?
else
    status=1
    cp "$tmp/server.err" "$tmp/out"
fi
check "the DRI3 back end on mock-x-server" \
    '[ -n "$server_pid" ] && [ $status -eq 0 ] && grep -Eq "back end +dri3" "$tmp/out" &&
     grep -Eq "30 presented, 30 completed" "$tmp/out"'
