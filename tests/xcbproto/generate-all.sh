#!/bin/sh
# Generates every module of the installed xcb-proto with xcb-codegen (C,
# header and man pages) and compiles each with -Wall -Wextra -Werror: the
# generator reads all of xcb-proto, not only the two modules we ship.
# Skips only when xcb-proto is not installed.
#
# Environment: see env.sh.

. "$(dirname "$0")/env.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/generate-all.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
mkdir -p "$tmp/xcb" "$tmp/man"
# The generated sources include the library's internal reply_guard.h.
cp "$top/src/reply_guard.h" "$tmp/"

n=0
failed=0
result() {
    n=$((n + 1))
    if [ "$1" = 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        failed=1
        sed 's/^/#   /' "$tmp/log" | head -n 30
    fi
}

modules=$(cd "$dir" && ls ./*.xml | sed 's|^\./||; s|\.xml$||')
# All modules in one run, as a build would: each import is read once.
start=$(date +%s)
# shellcheck disable=SC2046
"$PYTHON" "$top/codegen/xcb-codegen" -I "$dir" --c-dir "$tmp" --h-dir "$tmp/xcb" \
    --man-dir "$tmp/man" $(for m in $modules; do echo "$dir/$m.xml"; done) > "$tmp/log" 2>&1
result $? "all $(echo "$modules" | wc -w) modules generated in one run"
echo "# in $(($(date +%s) - start)) s, $(ls "$tmp/man" | wc -l) man pages"
for m in $modules; do
    [ -f "$tmp/$m.c" ] && [ -f "$tmp/xcb/$m.h" ]
    : > "$tmp/log"
    result $? "$m: generated"
done
for m in $modules; do
    if [ -f "$tmp/$m.c" ]; then
        "$CC" -std=c11 -Wall -Wextra -Werror -I"$tmp" -c "$tmp/$m.c" -o "$tmp/$m.o" \
            > "$tmp/log" 2>&1
        result $? "$m: compiles with -Wall -Wextra -Werror"
    fi
done
echo "1..$n"
exit $failed
