#!/bin/sh
# programs.sh KIND: xcb-dri3-info and xcb-present-demo on the server that
# tests/servers/with-server started for us ($DISPLAY): none of the real
# servers we test against has DRI3 without a GPU, so the info tool must
# say so and why, and the demo must run every mode on what there is
# (MIT-SHM, PutImage) and end with its last frame on screen, pixel for
# pixel.  TAP output.
kind=$1
info="${TOP_BUILDDIR:-.}/tools/xcb-dri3-info"
demo="${TOP_BUILDDIR:-.}/tools/xcb-present-demo"
python="${PYTHON:-python3}"
srcdir="${TOP_SRCDIR:-$(dirname "$0")/../..}"
frame_check="$srcdir/tests/servers/demo-frame.py"
schema="$srcdir/tools/xcb-dri3-info.schema.json"
schema_check="$srcdir/tests/present-util/json-schema-check.py"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
check() { if eval "$2"; then ok "$kind: $1"; else not_ok "$kind: $1" "$tmp/out"; fi; }

echo "1..11"
"$info" > "$tmp/out" 2>&1
status=$?
check "xcb-dri3-info finds Present 1.x" \
    '[ $status -eq 0 ] && grep -Eq "^Present: version 1\.[0-9]+" "$tmp/out"'
check "xcb-dri3-info reports DRI3 missing, with the reason" \
    'grep -q "^DRI3: missing: no direct rendering on this server" "$tmp/out"'
check "xcb-dri3-info measures a refresh from MSC and UST" \
    'grep -Eq "^refresh: [0-9.]+ Hz \(measured over [0-9]+ vblanks" "$tmp/out"'
grep -E "^(Present|refresh)" "$tmp/out" | sed "s/^/# /"
"$info" --json > "$tmp/json" 2>&1
cp "$tmp/json" "$tmp/out"
check "xcb-dri3-info --json: dri3 null, present there" \
    '"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"dri3\"] is None and d[\"present\"]" "$tmp/out" 2>>"$tmp/out"'
check "xcb-dri3-info --json is valid against xcb-dri3-info.schema.json" \
    '"$python" "$schema_check" "$schema" "$tmp/json" >> "$tmp/out" 2>&1'
# What names the server: Xwayland has its XWAYLAND extension, and the
# vendor and release of every server are there.
[ "$kind" = xwayland ] && xwl=True || xwl=False
check "xcb-dri3-info --json names the server (xwayland: $xwl)" \
    '"$python" -c "import json,sys; s=json.load(open(sys.argv[1]))[\"server\"]; assert s[\"vendor\"] and s[\"release\"] > 0 and s[\"xwayland\"] is $xwl, s" "$tmp/json" >> "$tmp/out" 2>&1'
"$python" -c "import json,sys; print('#', json.load(open(sys.argv[1]))['server'])" "$tmp/json" \
    2>/dev/null

"$demo" --frames 120 --size 320x240 --screenshot "$tmp/shot.png" > "$tmp/out" 2>&1
status=$?
check "demo fifo: 120 frames presented and completed with the shm back end" \
    '[ $status -eq 0 ] && grep -Eq "frames +120 presented, 120 completed" "$tmp/out" &&
     grep -Eq "back end +shm" "$tmp/out"'
last=$(sed -n 's/^screenshot of frame \([0-9]*\) saved.*/\1/p' "$tmp/out")
check "demo fifo: the screenshot is frame 120, pixel for pixel" \
    '[ "$last" = 120 ] && "$python" "$frame_check" "$tmp/shot.png" 120 >> "$tmp/out" 2>&1'
grep -E "^  (frames|completions|missed)" "$tmp/out" | sed "s/^/# /"

"$demo" --frames 60 --size 64x48 --mode mailbox --buffers 4 > "$tmp/out" 2>&1
status=$?
check "demo mailbox: every frame completes (shown or replaced)" \
    '[ $status -eq 0 ] && grep -Eq "frames +60 presented, 60 completed" "$tmp/out"'
"$demo" --frames 60 --size 64x48 --mode immediate --backend put-image > "$tmp/out" 2>&1
status=$?
check "demo immediate with the PutImage back end" \
    '[ $status -eq 0 ] && grep -Eq "back end +put-image" "$tmp/out" &&
     grep -Eq "frames +60 presented, 60 completed" "$tmp/out"'
"$demo" --frames 10 --backend dri3 > "$tmp/out" 2>&1
status=$?
check "demo --backend dri3 fails with a message naming DRI3, not a crash" \
    '[ $status -ne 0 ] && [ $status -lt 128 ] &&
     grep -q "no swapchain: the server has no DRI3 extension" "$tmp/out"'
