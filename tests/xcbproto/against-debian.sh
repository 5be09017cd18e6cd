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
trap 'rm -f "$tmp"' EXIT HUP INT TERM
status=0
# shellcheck disable=SC2086
"$PYTHON" "$top/tests/xcbproto/abi-compare.py" --generate "$dir" $modules > "$tmp" || status=1
# shellcheck disable=SC2086
"$PYTHON" "$top/tests/xcbproto/symbols-compare.py" --generate "$dir" --src "$top/src" \
    $modules >> "$tmp" || status=1
awk '
    # Renumbers the two streams as one, with the plan at the end.
    /^1\.\.[0-9]+$/ { next }
    /^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n) }
    { print }
    END { print "1.." n }' "$tmp"
exit $status
