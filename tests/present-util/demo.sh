#!/bin/sh
# xcb-present-demo end to end: without DISPLAY it starts its own Xvfb,
# presents, prints the summary, writes the plot and the screenshot, and
# stops the Xvfb again (by its PID, which it prints).  TAP output.
demo="${TOP_BUILDDIR:-.}/tools/xcb-present-demo"
if ! command -v Xvfb >/dev/null 2>&1; then
    echo "1..0 # SKIP Xvfb is not installed"
    exit 0
fi
server="${TOP_BUILDDIR:-.}/mock/mock-x-server"
. "$(dirname "$0")/../../scripts/displayfd.sh"
displayfd_tmpdir demo
unset DISPLAY
echo "1..26"
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

# --display names the server, over DISPLAY, and no Xvfb of its own starts.
DISPLAY=:bogus "$demo" --display "$server_display" --frames 10 --size 64x48 \
    >"$tmp/out" 2>&1
status=$?
check "--display NAME presents there, whatever DISPLAY says" \
    '[ -n "$server_pid" ] && [ $status -eq 0 ] &&
     grep -Eq "^  display +$server_display\$" "$tmp/out" && ! grep -q "Xvfb" "$tmp/out"'

# Errors that say what is missing (issue 31, 6).  The mock without DRI3,
# without Present; Xvfb has no DRI3.
displayfd_stop
if displayfd_start "$tmp" "$server" --displayfd 3 --dri3-version none; then
    "$demo" --display "$server_display" --frames 10 --size 64x48 --backend dri3 \
        >"$tmp/out" 2>&1
    status=$?
else
    status=0
    cp "$tmp/server.err" "$tmp/out"
fi
check "--backend dri3 without DRI3 (mock): the message names DRI3" \
    '[ $status -eq 1 ] && grep -q "^xcb-present-demo: no swapchain: the server has no DRI3 extension, which --backend dri3 needs" "$tmp/out"'
displayfd_stop
if displayfd_start "$tmp" "$server" --displayfd 3 --present-version none; then
    "$demo" --display "$server_display" --frames 10 --size 64x48 >"$tmp/out" 2>&1
    status=$?
else
    status=0
    cp "$tmp/server.err" "$tmp/out"
fi
check "no Present (mock): the message names Present" \
    '[ $status -eq 1 ] && grep -q "^xcb-present-demo: no swapchain: the server has no Present extension" "$tmp/out"'
displayfd_stop
"$demo" --frames 10 --size 64x48 --backend dri3 >"$tmp/out" 2>&1
status=$?
check "--backend dri3 on Xvfb: the message names DRI3, and the sentence ends" \
    '[ $status -eq 1 ] && grep -q "no swapchain: the server has no DRI3 extension, which --backend dri3 needs (try --backend shm or auto)$" "$tmp/out" &&
     ! grep -q "or the back end asked for" "$tmp/out"'
"$demo" --latency 3 --frames 10 --size 64x48 >"$tmp/out" 2>&1
status=$?
check "--latency 3 with 3 buffers: a warning with the reason, and the summary agrees" \
    '[ $status -eq 0 ] &&
     grep -q "^xcb-present-demo: warning: --latency 3 needs 4 buffers and there are 3" "$tmp/out" &&
     grep -Eq "^presenting .*max latency 2 frames" "$tmp/out" &&
     grep -Eq "pacing +throughput, max latency 2 frames \(3 asked: 3 buffers hold 2 at most\)" "$tmp/out"'
"$demo" --latency 3 --buffers 4 --frames 10 --size 64x48 >"$tmp/out" 2>&1
status=$?
check "--latency 3 with 4 buffers: no warning" \
    '[ $status -eq 0 ] && ! grep -q "warning" "$tmp/out" &&
     grep -Eq "pacing +throughput, max latency 3 frames;" "$tmp/out"'
"$demo" --mode mailbox --pacing low-latency >"$tmp/out" 2>&1
status=$?
"$demo" --latency 1 --mode immediate >"$tmp/out2" 2>&1
status2=$?
cat "$tmp/out2" >>"$tmp/out"
check "--pacing or --latency with mailbox or immediate: refused, saying why" \
    '[ $status -eq 2 ] && [ $status2 -eq 2 ] &&
     grep -q "^xcb-present-demo: --pacing applies to the FIFO modes only" "$tmp/out" &&
     grep -q "^xcb-present-demo: --latency applies to the FIFO modes only" "$tmp/out" &&
     ! grep -q "presenting" "$tmp/out"'

# --seconds, and the default length of a run (issue 31, 11): a run lasts
# at least its duration, however fast or slow the machine presents.
"$demo" --mode mailbox --seconds 2.5 --size 64x48 >"$tmp/out" 2>&1
status=$?
check "mailbox --seconds 2.5: a per-second line and a run of 2.5 s or more" \
    '[ $status -eq 0 ] && grep -q "^presenting for 2.5 s, 64x48, mailbox" "$tmp/out" &&
     grep -Eq "^ *[0-9.]+ fps .* latency \(acquire\(\) to shown\)" "$tmp/out" &&
     sed -n "s/^  frames .* in \([0-9.]*\) s$/\1/p" "$tmp/out" | awk "{ exit !(\$1 >= 2.5) }"'
"$demo" --mode immediate --size 16x16 >"$tmp/out" 2>&1
status=$?
check "immediate without --frames or --seconds lasts FIFO's default, 5 s" \
    '[ $status -eq 0 ] && grep -q "^presenting for 5 s, 16x16, immediate" "$tmp/out" &&
     sed -n "s/^  frames .* in \([0-9.]*\) s$/\1/p" "$tmp/out" | awk "{ exit !(\$1 >= 5) }"'
"$demo" --bogus >"$tmp/out" 2>&1
status=$?
"$demo" --frames >>"$tmp/out" 2>&1
status2=$?
check "a bad option names the program plainly (no .libs/ path or lt- prefix)" \
    '[ $status -eq 2 ] && [ $status2 -eq 2 ] &&
     grep -q "^xcb-present-demo: unrecognized option .--bogus." "$tmp/out" &&
     grep -q "^xcb-present-demo: option .--frames. requires an argument" "$tmp/out" &&
     ! grep -Eq "\.libs|lt-" "$tmp/out"'
