#!/bin/sh
# Compares the struct layouts and constant values that layout.c prints when
# compiled against Debian's libxcb 1.15 headers (the reference) and against
# ours.  Any difference means a program built with one header set and run
# with the other library would misread memory, so each group of lines (one
# per type, enum, or header's macros) must match exactly.  The only expected
# differences are the minor version macros, which ours raise to 4.
#
# Usage: layout-compare.sh [REF_BINARY OURS_BINARY]
# Environment:
#   LAYOUT_REF   layout.c built against the reference headers (or $1)
#   LAYOUT_OURS  layout.c built with -I$(top_builddir)/src (or $2)
#   COMPAT_CHECK_ADDITIONS  1 (default): our minor versions must be 4;
#                0: they need only be no lower than the reference's (for
#                running the script with the reference as "ours")
#   COMPAT_SKIP_STATUS  exit status when skipping (default 77); automake's
#                   tap-driver.sh reports any non-zero status as ERROR, so
#                   set it to 0 there ("1..0 # SKIP" already says skip)
# Prints TAP; exits 0 pass, 1 fail, 77 skip (binaries not given).

ref=${1:-${LAYOUT_REF:-}}
ours=${2:-${LAYOUT_OURS:-}}
additions=${COMPAT_CHECK_ADDITIONS:-1}

if [ -z "$ref" ] || [ -z "$ours" ]; then
    echo "1..0 # SKIP set LAYOUT_REF and LAYOUT_OURS (or pass both binaries)"
    exit "${COMPAT_SKIP_STATUS:-77}"
fi
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
need -x "is not an executable file" "$ref" "$ours"
tap_tmpdir layout-compare

ref_rc=0
ours_rc=0
"$ref" > "$tmp/ref.all" 2> "$tmp/ref.err" || ref_rc=$?
"$ours" > "$tmp/ours.all" 2> "$tmp/ours.err" || ours_rc=$?

# The version macros are compared on their own terms below; everything
# else must be identical.
versions='^define (dri3 XCB_DRI3|present XCB_PRESENT)_MINOR_VERSION '
grep -Ev "$versions" "$tmp/ref.all" > "$tmp/ref"
grep -Ev "$versions" "$tmp/ours.all" > "$tmp/ours"

# Groups in the reference's order: field 2 is the type, enum or header name.
awk '!seen[$2]++ { print $2 }' "$tmp/ref" > "$tmp/groups"
ngroups=$(wc -l < "$tmp/groups")

echo "1..$((ngroups + 4))"

if [ "$ref_rc" -eq 0 ] && [ "$ours_rc" -eq 0 ] && [ -s "$tmp/ref" ] && [ -s "$tmp/ours" ]
then
    ok "both layout programs ran ($(wc -l < "$tmp/ref.all") lines)"
else
    not_ok "both layout programs ran"
    echo "# $ref: exit $ref_rc, $(wc -l < "$tmp/ref.all") lines"
    diag "$tmp/ref.err"
    echo "# $ours: exit $ours_rc, $(wc -l < "$tmp/ours.all") lines"
    diag "$tmp/ours.err"
fi

while read -r group; do
    awk -v g="$group" '$2 == g' "$tmp/ref" > "$tmp/g.ref"
    awk -v g="$group" '$2 == g' "$tmp/ours" > "$tmp/g.ours"
    if cmp -s "$tmp/g.ref" "$tmp/g.ours"; then
        ok "layout of $group"
    else
        not_ok "layout of $group"
        echo "# --- reference, +++ ours"
        diff -u "$tmp/g.ref" "$tmp/g.ours" | tail -n +3 > "$tmp/g.diff"
        diag "$tmp/g.diff"
    fi
done < "$tmp/groups"

# Catches lines in groups the reference lacks (binaries built from different
# layout.c revisions) and ordering changes the per-group checks ignore.
if cmp -s "$tmp/ref" "$tmp/ours"; then
    ok "whole layout output identical (version macros aside)"
else
    not_ok "whole layout output identical (version macros aside)"
    diff -u "$tmp/ref" "$tmp/ours" > "$tmp/all.diff"
    diag "$tmp/all.diff"
fi

# The value of "define <header> <NAME> <value>" in a file, or empty.
macro() {
    awk -v m="$2" '$1 == "define" && $3 == m { print $4 }' "$1"
}

check_version() {
    name=$1
    r=$(macro "$tmp/ref.all" "$name")
    o=$(macro "$tmp/ours.all" "$name")
    for v in "$r" "$o"; do
        case "$v" in
        "" | *[!0-9]*)
            not_ok "$name printed by both (reference '$r', ours '$o')"
            return
            ;;
        esac
    done
    if [ "$additions" = 0 ]; then
        if [ "$o" -ge "$r" ]; then
            ok "$name: ours $o >= reference $r"
        else
            not_ok "$name: ours $o >= reference $r"
        fi
    elif [ "$o" -eq 4 ]; then
        ok "$name: ours 4 (reference $r)"
    else
        not_ok "$name: ours 4 (reference $r)"
        echo "# ours is $o; set COMPAT_CHECK_ADDITIONS=0 to compare a 1.15 build"
    fi
}

check_version XCB_DRI3_MINOR_VERSION
check_version XCB_PRESENT_MINOR_VERSION

exit $failed
