#!/bin/sh
# Every module of the installed xcb-proto, generated, against Debian's libxcb:
# headers (declarations, layouts, enumerators, macros: abi-compare.py) where
# Debian has one, exported functions (symbols-compare.py) where Debian has a
# library. One TAP stream of both.
#
# Environment: see env.sh.

. "$(dirname "$0")/env.sh"
modules=$(cd "$dir" && ls ./*.xml | sed 's|^\./||; s|\.xml$||')

tmp=$(mktemp "${TMPDIR:-/tmp}/against-debian.XXXXXX") || exit 1
trap 'rm -f "$tmp" "$tmp.sym"' EXIT HUP INT TERM
status=0
# Each script exits 1 for any failure: a failing exit status with no
# "not ok" line (a crash) is an error; the verdict on the "not ok" lines is
# the awk below's.
# shellcheck disable=SC2086
"$PYTHON" "$top/tests/xcbproto/abi-compare.py" --generate "$dir" $modules > "$tmp" ||
    grep -q '^not ok' "$tmp" || status=1
# shellcheck disable=SC2086
"$PYTHON" "$top/tests/xcbproto/symbols-compare.py" --generate "$dir" --src "$top/src" \
    $modules > "$tmp.sym" || grep -q '^not ok' "$tmp.sym" || status=1
cat "$tmp.sym" >> "$tmp"
rm -f "$tmp.sym"
# The two streams as one TAP stream: renumbered, the plan at the end; any
# "not ok" fails the test.
awk '
    /^1\.\.[0-9]+$/ { next }
    /^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) }
    /^not ok/ { bad++ }
    { print }
    END { print "1.." n; exit bad ? 1 : 0 }' "$tmp" || status=1
exit $status
