#!/bin/sh
# examples/present-loop, the main loop of xcb_present_util(7), on the mock
# server (DRI3 back end) and on Xvfb (MIT-SHM), in both pacings: every
# frame presented is completed, the frame callback saw them all, and the
# program exits 0.  Then the program in xcb_present_util(7)'s A MAIN LOOP,
# taken out of the page: it compiles with -Werror and runs on the mock.
# The servers are started on displays they pick
# themselves and stopped by their PIDs.  TAP output.
build=${TOP_BUILDDIR:-.}
src=${TOP_SRCDIR:-$(dirname "$0")/..}
loop=$build/examples/present-loop
mock=$build/mock/mock-x-server
. "$src/scripts/displayfd.sh"
. "$src/tests/common/tap.sh"
displayfd_tmpdir present-loop

echo "1..6"

# run_on NAME WHAT [LOOP ARGS]: the loop for 60 frames on the running server.
run_on() {
    name=$1
    shift
    # the callback's count: shown + skipped, before destroy()
    called() {
        awk '/^present-loop: frame callback:/ { print $4 + $6 }' "$tmp/out"
    }
    if DISPLAY=$server_display timeout 60 "$loop" --frames 60 "$@" > "$tmp/out" 2>&1 &&
       grep -q "^present-loop: 60 frames presented, 60 completed" "$tmp/out" &&
       [ "$(called)" = 60 ]; then
        ok "$name"
        diag "$tmp/out"
    else
        not_ok "$name" "$tmp/out"
    fi
}

# The page's example: the lines between .EX and .EE, unescaped.
page=$src/src/present-util/man/xcb_present_util.7
sed -n '/^\.EX$/,/^\.EE$/p' "$page" | sed '1d;$d' |
    sed 's/^\\&//; s/\\-/-/g; s/\\e/\\/g' > "$tmp/page-loop.c"
# shellcheck disable=SC2086
if [ -s "$tmp/page-loop.c" ] &&
   ${CC:-cc} -std=c11 -Wall -Wextra -Werror -I"$build/examples/include" -I"$build/src" \
       -I"$src/src" "$tmp/page-loop.c" -o "$tmp/page-loop" -L"$build/src/.libs" \
       -lxcb-present-util -lxcb -Wl,-rpath,"$build/src/.libs" > "$tmp/cc.log" 2>&1; then
    ok "xcb_present_util(7): the main loop's program compiles with -Werror"
else
    cat "$tmp/page-loop.c" >> "$tmp/cc.log"
    not_ok "xcb_present_util(7): the main loop's program compiles with -Werror" "$tmp/cc.log"
fi

if displayfd_start "$tmp" "$mock" --displayfd 3; then
    run_on "mock: 60 frames, THROUGHPUT pacing, all shown and called back"
    run_on "mock: 60 frames, LOW_LATENCY pacing" --low-latency
    if [ -x "$tmp/page-loop" ] &&
       DISPLAY=$server_display timeout 30 "$tmp/page-loop" > "$tmp/out" 2>&1 &&
       grep -Eq "^120 frames, the last shown at msc [1-9]" "$tmp/out"; then
        ok "mock: the page's program shows its 120 frames"
        diag "$tmp/out"
    else
        not_ok "mock: the page's program shows its 120 frames" "$tmp/out"
    fi
    displayfd_stop
else
    not_ok "mock: the server started" "$tmp/server.err"
    not_ok "mock: LOW_LATENCY pacing (no server)"
    not_ok "mock: the page's program (no server)"
fi

if ! command -v Xvfb > /dev/null 2>&1; then
    skip "Xvfb: 60 frames" "Xvfb is not installed"
    skip "Xvfb: 60 frames, LOW_LATENCY pacing" "Xvfb is not installed"
elif displayfd_start "$tmp" Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp; then
    run_on "Xvfb: 60 frames, THROUGHPUT pacing, all shown and called back"
    run_on "Xvfb: 60 frames, LOW_LATENCY pacing" --low-latency
    displayfd_stop
else
    not_ok "Xvfb: the server started" "$tmp/server.err"
    not_ok "Xvfb: LOW_LATENCY pacing (no server)"
fi
exit 0
