#!/bin/sh
# xcb-dri3-info against its own Xvfb (Present, no DRI3) and against
# mock-x-server (DRI3 1.4, Present 1.4, configurable): text and --json.
# The servers are stopped by their PIDs.  TAP output.
info="${TOP_BUILDDIR:-.}/tools/xcb-dri3-info"
server="${TOP_BUILDDIR:-.}/mock/mock-x-server"
python="${PYTHON:-python3}"
srcdir="${TOP_SRCDIR:-$(dirname "$0")/../..}"
schema="$srcdir/tools/xcb-dri3-info.schema.json"
schema_check="$srcdir/tests/present-util/json-schema-check.py"
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
# its output in $tmp/out, its exit status in $status, and its --json in
# $tmp/json.  False when the mock did not start.
info_on_mock() {
    start_mock "$@" || return 1
    DISPLAY=$display "$info" > "$tmp/out" 2>&1
    status=$?
    DISPLAY=$display "$info" --json > "$tmp/json" 2>&1
    displayfd_stop
    return 0
}

# valid FILE: FILE is JSON that tools/xcb-dri3-info.schema.json allows
# (the checker's complaints go to $tmp/out, for the diagnostics).
valid() {
    "$python" "$schema_check" "$schema" "$1" >> "$tmp/out" 2>&1
}

# json_ok FILE EXPRESSION: EXPRESSION, Python over the object as d, holds.
json_ok() {
    "$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert $2, d" "$1" \
        >> "$tmp/out" 2>&1
}

echo "1..21"
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
    check "Xvfb: the text names the server (vendor, release)" \
        'grep -Eq "^server: .+, release [0-9]+" "$tmp/out"'
    (unset DISPLAY; "$info" --json) > "$tmp/xvfb.json" 2>&1
    cp "$tmp/xvfb.json" "$tmp/out"
    check "Xvfb: --json parses, with dri3 null and MIT-SHM's shared pixmaps" \
        '"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"dri3\"] is None and d[\"present\"] and d[\"shm\"][\"pixmaps\"] and d[\"fd_passing\"]" "$tmp/out" 2>>"$tmp/out"'
    check "Xvfb: --json is valid against xcb-dri3-info.schema.json" 'valid "$tmp/xvfb.json"'
    check "Xvfb: --json names the server, capability_names is an array" \
        'json_ok "$tmp/xvfb.json" "d[\"server\"][\"vendor\"] and d[\"server\"][\"release\"] > 0 and d[\"server\"][\"xwayland\"] is False and isinstance(d[\"present\"][\"capability_names\"], list)"'
else
    for t in 1 2 3 4 5 6 7; do skip "Xvfb check $t" "Xvfb is not installed"; done
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
    DISPLAY=$display "$info" --json > "$tmp/mock.json" 2>&1
    cp "$tmp/mock.json" "$tmp/out"
    check "mock: --json parses and lists the modifiers, the format and the device" \
        '"$python" -c "import json,sys; d=json.load(open(sys.argv[1])); m=d[\"dri3\"][\"modifiers\"][0]; v=d[\"dri3\"][\"device\"]; assert m[\"window\"][1][\"name\"]==\"INTEL_Y_TILED\" and m[\"format\"]==\"XRGB8888\" and v[\"kind\"]==\"memfd\" and not v[\"is_drm\"]" "$tmp/out" 2>>"$tmp/out"'
    check "mock: --json is valid against xcb-dri3-info.schema.json" 'valid "$tmp/mock.json"'
    check "mock: capability names are an array, unknown device fields null" \
        'json_ok "$tmp/mock.json" "d[\"present\"][\"capability_names\"] == [\"async\", \"fence\", \"ust\", \"async-may-tear\", \"syncobj\"] and all(d[\"dri3\"][\"device\"][k] is None for k in (\"driver\", \"render_node\", \"bus_id\", \"vendor_id\", \"device_id\", \"dev_major\"))"'
    # The mock's setup says who it is: not the X.Org Foundation's Xvfb.
    check "mock: --json names the mock as the server, unlike Xvfb" \
        'json_ok "$tmp/mock.json" "d[\"server\"] == {\"vendor\": \"xcb-dri3-present mock\", \"release\": 1, \"xorg_version\": None, \"protocol\": \"11.0\", \"xwayland\": False}" &&
         { [ ! -f "$tmp/xvfb.json" ] || ! cmp -s "$tmp/xvfb.json" "$tmp/mock.json"; }'
    DISPLAY=:bogus "$info" --display "$display" > "$tmp/out" 2>&1
    status=$?
    check "mock: --display NAME, over DISPLAY" \
        '[ $status -eq 0 ] && grep -q "^display: $display\$" "$tmp/out" &&
         grep -q "^server: xcb-dri3-present mock, release 1, protocol 11.0\$" "$tmp/out"'
    displayfd_stop
else
    for t in 8 9 10 11 12 13 14; do not_ok "mock-x-server did not start"; done
fi

if info_on_mock --present-version none --dri3-open none; then
    check "mock: a clear message for a missing Present and a missing device" \
        '[ $status -eq 0 ] && grep -q "^Present: missing" "$tmp/out" &&
         grep -q "device: none: the server has no DRM device" "$tmp/out"'
    check "mock without Present or a device: --json is valid, present and device null" \
        'valid "$tmp/json" && json_ok "$tmp/json" "d[\"present\"] is None and d[\"dri3\"][\"device\"] is None and d[\"dri3\"][\"device_error\"]"'
else
    for t in 15 16; do not_ok "mock-x-server did not start"; done
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
    check "mock: DRI3 1.0: --json is valid, each depth with its error" \
        'valid "$tmp/json" && json_ok "$tmp/json" "all(m[\"error\"] and m[\"window\"] == [] for m in d[\"dri3\"][\"modifiers\"])"'
else
    for t in 17 18 19; do not_ok "mock-x-server did not start"; done
fi

# The checker itself: the shape the tool printed before (one joined string
# of capability names, "" for what it did not know) is refused, and so is
# a schema keyword it does not know.
"$python" - "$tmp/old.json" "$tmp/bad-schema.json" <<"PY" 2>"$tmp/out"
import json, sys
d = {"display": ":1", "server": {"vendor": "v", "release": 1, "xorg_version": None,
                                 "protocol": "11.0", "xwayland": False},
     "fd_passing": True,
     "present": {"version": "1.4", "capabilities": 7, "capability_names": "async, fence, ust"},
     "dri3": {"version": "1.4", "device": {"kind": "memfd", "is_drm": False,
              "is_render_node": False, "swapped": False, "driver": "", "render_node": "",
              "dev_major": 0, "dev_minor": 0, "bus_id": "", "vendor_id": 0, "device_id": 0,
              "note": "n"}, "modifiers": []},
     "sync": "3.1", "xfixes": None, "shm": None, "refresh_hz": None}
json.dump(d, open(sys.argv[1], "w"))
json.dump({"type": "object", "oneOf": [{"type": "object"}]}, open(sys.argv[2], "w"))
PY
"$python" "$schema_check" "$schema" "$tmp/old.json" >> "$tmp/out" 2>&1
status=$?
"$python" "$schema_check" "$tmp/bad-schema.json" "$tmp/old.json" >> "$tmp/out" 2>&1
status2=$?
check "the schema checker refuses the old shape, and keywords it does not know" \
    '[ $status -eq 1 ] && [ $status2 -eq 2 ] &&
     grep -q "capability_names: \"async, fence, ust\" is not of type array" "$tmp/out" &&
     grep -q "dri3.device.driver: \"\" is shorter than 1" "$tmp/out" &&
     grep -q "dri3.device.vendor_id: 0 is below 1" "$tmp/out" &&
     grep -q "keywords this checker does not know: oneOf" "$tmp/out"'

"$info" --bogus > "$tmp/out" 2>&1
status=$?
check "a bad option: exit status 2, under the program's own name" \
    '[ $status -eq 2 ] && grep -q "^xcb-dri3-info: unrecognized option .--bogus." "$tmp/out" &&
     ! grep -Eq "\.libs|lt-" "$tmp/out"'
