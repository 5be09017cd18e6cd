#!/bin/sh
# Builds wire-sample.c twice against the headers generated from xcb-proto
# (core protocol, SHAPE, RENDER, RandR): linked with the generated modules,
# then with Debian's libraries, and runs both (the fake server itself uses
# Debian's libxcb-dri3 and libxcb-present). Each run is a TAP stream of
# its own; this prints them one after the other as one.
#
# Environment: see env.sh.

. "$(dirname "$0")/env.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wire-sample.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

modules="xproto shape render randr"
# shellcheck disable=SC2046
"$PYTHON" "$top/codegen/xcb-codegen" -I "$dir" --c-dir "$tmp" --h-dir "$tmp/xcb" \
    $(for m in $modules; do echo "$dir/$m.xml"; done) || exit 1

common="$top/tests/xcbproto/wire-sample.c $top/tests/wire/fake-server.c
    $top/tests/wire/wire-util.c $top/tests/common/test-runner.c $top/tests/common/test-fds.c"
flags="-std=c11 -Wall -Wextra -Werror -pthread -I$tmp -I$top/src -I$top/tests/wire
    -I$top/tests/common"
n=0
status=0
# build <name> <extra sources and libraries>...
build() {
    name=$1
    shift
    # shellcheck disable=SC2086
    if ! "$CC" $flags $common "$@" -o "$tmp/$name" > "$tmp/log" 2>&1; then
        n=$((n + 1))
        echo "not ok $n - wire-sample builds ($name)"
        sed 's/^/#   /' "$tmp/log" | head -n 30
        status=1
        return 1
    fi
}
run() {
    "$tmp/$1" > "$tmp/out" 2>&1 || status=1
    # Renumbered into one stream, each line naming its build.
    awk -v n="$n" -v b="$1" '
        /^1\.\./ { next }
        /^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+ -/, "ok " n " - " b ":") }
        { print }
        END { print n > "/dev/stderr" }' "$tmp/out" 2> "$tmp/count"
    n=$(cat "$tmp/count")
}

if build ours "$tmp/xproto.c" "$tmp/shape.c" "$tmp/render.c" "$tmp/randr.c" \
    "$top/src/reply_guard.c" -lxcb-present -lxcb-dri3 -lxcb; then
    run ours
fi
if build debian -lxcb-randr -lxcb-render -lxcb-shape -lxcb-present -lxcb-dri3 -lxcb; then
    run debian
fi
echo "1..$n"
exit $status
