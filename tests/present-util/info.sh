#!/bin/sh
# xcb-dri3-info against its own Xvfb (Present, no DRI3) and against
# mock-x-server (DRI3 1.4, Present 1.4, configurable): text and --json.
# The servers are stopped by their PIDs.  TAP output.
info="${TOP_BUILDDIR:-.}/tools/xcb-dri3-info"
server="${TOP_BUILDDIR:-.}/tests/mock/mock-x-server"
python="${PYTHON:-python3}"
. "$(dirname "$0")/../../scripts/displayfd.sh"
displayfd_tmpdir info

. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
check() { if eval "$2"; then ok "$1"; else not_ok "$1" "$tmp/out"; fi; }

# The mock on a display that it picks itself.
start_mock() {
    displayfd_start "$tmp" "$server" --displayfd 3 "$@" || return 1
    display=$server_display
}

# The tool against a mock started with the given arguments, for one run:
# its output in $tmp/out, its exit status in $status.  False when the mock
# did not start.
info_on_mock() {
    start_mock "$@" || return 1
    DISPLAY=$display "$info" > "$tmp/out" 2>&1
    status=$?
    displayfd_stop
    return 0
}

echo "1..11"
if command -v Xvfb >/dev/null 2>&1; then
    (unset DISPLAY; "$info") > "$tmp/out" 2>&1
    status=$?
    check "Xvfb: Present found, DRI3 reported missing" \
        '[ $status -eq 0 ] && grep -q "^Present: version 1\." "$tmp/out" &&
         grep -q "^DRI3: missing" "$tmp/out"'
    check "Xvfb: a refresh rate measured from MSC and UST" \
        'grep -Eq "^refresh: [0-9.]+ Hz" "$tmp/out"'
    xpid=$(sed -n 's/.*pid \([0-9]*\)).*/\1/p' "$tmp/out" | head -n 1)
    check "Xvfb: its Xvfb is gone afterwards" '[ -n "$xpid" ] && ! kill -0 "$xpid" 2>/dev/null'
    (unset DISPLAY; "$info" --json) > "$tmp/out" 2>&1
    check "Xvfb: --json parses, with dri3 null and MIT-SHM's shared pixmaps" \
        '"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"dri3\"] is None and d[\"present\"] and d[\"shm\"][\"pixmaps\"] and d[\"fd_passing\"]" "$tmp/out" 2>>"$tmp/out"'
else
    for t in 1 2 3 4; do skip "Xvfb check $t" "Xvfb is not installed"; done
fi

if start_mock --modifiers-window 0,0x0100000000000002 --modifiers-screen 0x00ffffffffffffff; then
    DISPLAY=$display "$info" > "$tmp/out" 2>&1
    status=$?
    check "mock: versions and capabilities" \
        '[ $status -eq 0 ] && grep -q "^DRI3: version 1.4" "$tmp/out" &&
         grep -q "capabilities: async, fence, ust, async-may-tear, syncobj" "$tmp/out"'
    # The names are libxcb-dri3-util's, which are libdrm's.
    check "mock: modifiers and formats with their names, the device, 60 Hz" \
        'grep -q "LINEAR" "$tmp/out" && grep -q "INTEL_Y_TILED" "$tmp/out" &&
         grep -q "INVALID" "$tmp/out" && grep -q "depth 24, 32 bpp (XRGB8888):" "$tmp/out" &&
         grep -q "device: memfd: not a DRM device" "$tmp/out" &&
         grep -q "mock-drm-device" "$tmp/out" &&
         grep -Eq "^refresh: (59|60)\.[0-9]+ Hz" "$tmp/out"'
    DISPLAY=$display "$info" --json > "$tmp/out" 2>&1
    check "mock: --json parses and lists the modifiers, the format and the device" \
        '"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); m=d[\"dri3\"][\"modifiers\"][0]; v=d[\"dri3\"][\"device\"]; assert m[\"window\"][1][\"name\"]==\"INTEL_Y_TILED\" and m[\"format\"]==\"XRGB8888\" and v[\"kind\"]==\"memfd\" and not v[\"is_drm\"]" "$tmp/out" 2>>"$tmp/out"'
    displayfd_stop
else
    for t in 5 6 7; do not_ok "mock-x-server did not start"; done
fi

if info_on_mock --present-version none --dri3-open none; then
    check "mock: a clear message for a missing Present and a missing device" \
        '[ $status -eq 0 ] && grep -q "^Present: missing" "$tmp/out" &&
         grep -q "device: none: the server has no DRM device" "$tmp/out"'
else
    not_ok "mock-x-server did not start"
fi

# DRI3 1.0 has no GetSupportedModifiers: the library does not send it.
if info_on_mock --dri3-version 1.0 --transcript "$tmp/transcript"; then
    check "mock: DRI3 1.0: modifiers not asked for, and said so" \
        '[ $status -eq 0 ] && grep -q "^DRI3: version 1.0" "$tmp/out" &&
         grep -q "not asked: GetSupportedModifiers needs DRI3 1.2" "$tmp/out"'
    # DRI3 is major 131 on the mock (MOCK_DRI3_MAJOR), GetSupportedModifiers minor 6.
    check "mock: DRI3 1.0: no GetSupportedModifiers request went out" \
        'grep -q "major=131 minor=0 " "$tmp/transcript" &&
         ! grep -q "major=131 minor=6 " "$tmp/transcript"'
else
    for t in 9 10; do not_ok "mock-x-server did not start"; done
fi

"$info" --bogus > "$tmp/out" 2>&1
status=$?
check "a bad option: exit status 2" '[ $status -eq 2 ]'
