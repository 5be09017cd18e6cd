#!/bin/sh
# xcb-present-demo end to end: without DISPLAY it starts its own Xvfb,
# presents, prints the summary, writes the plot and the screenshot, and
# stops the Xvfb again (by its PID, which it prints).  TAP output.
demo="${TOP_BUILDDIR:-.}/tools/xcb-present-demo"
if ! command -v Xvfb >/dev/null 2>&1; then
    echo "1..0 # SKIP Xvfb is not installed"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset DISPLAY
echo "1..9"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; sed 's/^/# /' "$tmp/out"; }
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

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
