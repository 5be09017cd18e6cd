#!/bin/sh
# man-pages.sh [LIBRARY:MAN_DIR[:UNDOCUMENTED]]...: the man pages of our
# libraries.  For each library, every page in MAN_DIR formats without a
# single groff warning (-ww turns all of them on), and every function the
# library exports (nm -D --defined-only) has its page: NAME.3, or a
# declaration in the SYNOPSIS of another page (the generated pages, as
# libxcb's, document a request's _unchecked, _reply and accessors on the
# request's page).  UNDOCUMENTED, an extended regex, names the exports that
# need none (iterators' plumbing, symbols kept for binary compatibility).
# Section 7 pages (a library's overview) are checked as the others, and
# also through man -l at 80 columns, as "man NAME" shows them, without a
# warning.  A page that is only ".so manN/PAGE.N" (a link, as for the
# types an overview describes) passes when PAGE.N is one of MAN_DIR's
# pages, and man -l renders the link from the directory holding MAN_DIR.
# LIBRARY is relative to $TOP_BUILDDIR; MAN_DIR to $TOP_SRCDIR, or to
# $TOP_BUILDDIR for generated pages; DIR+DIR names pages in two places
# (the util libraries' section 3, generated in the build tree, and their
# hand-written overviews in the source tree).  Without arguments:
# $MAN_PAGE_CHECKS, which the makefiles fill in, one entry per library.
# TAP output.
src=${TOP_SRCDIR:-.}
build=${TOP_BUILDDIR:-.}
. "$src/tests/common/tap.sh"
set -f # the entries' regexes are not file names
[ $# -gt 0 ] || set -- $MAN_PAGE_CHECKS
set +f
if [ $# -eq 0 ]; then
    echo "1..0 # SKIP no library to check (set MAN_PAGE_CHECKS)"
    exit 0
fi

# The directories of an entry's pages: for each of DIR+DIR, the source
# tree's, else the build's.
man_dirs() {
    for d in $(echo "$1" | tr '+' ' '); do
        if [ -d "$src/$d" ]; then echo "$src/$d"; else echo "$build/$d"; fi
    done
}
# The pages of those directories, one a line.
pages_in() {
    for d in $1; do ls "$d"/*.3 "$d"/*.7 2>/dev/null; done
}

plan=0
for entry in "$@"; do
    dirs=$(man_dirs "$(echo "$entry" | cut -d: -f2)")
    plan=$((plan + 1 + $(pages_in "$dirs" | wc -l)))
    plan=$((plan + $(pages_in "$dirs" | grep -c '\.7$')))
done
echo "1..$plan"

have_groff=yes
command -v groff >/dev/null 2>&1 || have_groff=no
tmp=$(mktemp -d "${TMPDIR:-/tmp}/man-pages.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT HUP INT TERM

for entry in "$@"; do
    lib=$build/$(echo "$entry" | cut -d: -f1)
    dirs=$(man_dirs "$(echo "$entry" | cut -d: -f2)")
    undocumented=$(echo "$entry" | cut -d: -f3-)
    name=$(basename "$lib")
    for page in $(pages_in "$dirs"); do
        link=$(sed -n '1s/^\.so \(man[1-9]\/[^ ]*\)$/\1/p' "$page")
        if [ -n "$link" ] && [ "$(wc -l < "$page")" -le 1 ]; then
            if pages_in "$dirs" | grep -q "/$(basename "$link")\$"; then
                ok "$(basename "$page") (.so $link)"
            else
                echo "$link is not among the pages of" $dirs > "$tmp/warnings"
                not_ok "$(basename "$page") (.so $link)" "$tmp/warnings"
            fi
            continue
        fi
        if [ $have_groff = no ]; then
            skip "$(basename "$page")" "groff is not installed"
        elif groff -man -ww -z "$page" > "$tmp/warnings" 2>&1 && [ ! -s "$tmp/warnings" ]; then
            ok "$(basename "$page")"
        else
            not_ok "$(basename "$page")" "$tmp/warnings"
        fi
    done
    # The overviews as man(1) shows them.
    for page in $(pages_in "$dirs" | grep '\.7$'); do
        what="$(basename "$page"): man -l at 80 columns, no warning"
        if ! command -v man > /dev/null 2>&1; then
            skip "$what" "man is not installed"
        elif MANWIDTH=80 MAN_KEEP_FORMATTING= man -l "$page" > "$tmp/text" 2> "$tmp/warnings" &&
             [ ! -s "$tmp/warnings" ] && [ -s "$tmp/text" ]; then
            ok "$what"
        else
            not_ok "$what" "$tmp/warnings"
        fi
    done
    if [ ! -r "$lib" ] || ! command -v nm >/dev/null 2>&1; then
        skip "$name: every exported function has a man page" "the library or nm is missing"
        continue
    fi
    nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' > "$tmp/exports"
    if [ ! -s "$tmp/exports" ]; then
        not_ok "$name: nm finds no exported function"
        continue
    fi
    : > "$tmp/missing"
    pages_in "$dirs" > "$tmp/pages"
    while read -r f; do
        grep -q "/$f\.3\$" "$tmp/pages" && continue
        [ -n "$undocumented" ] && echo "$f" | grep -Eq "$undocumented" && continue
        # A declaration in a synopsis: the bold name, then its arguments.
        grep -q "^\\\\fB$f\\\\fP(" $(grep '\.3$' "$tmp/pages") /dev/null && continue
        echo "$f" >> "$tmp/missing"
    done < "$tmp/exports"
    if [ -s "$tmp/missing" ]; then
        not_ok "$name: functions without a man page" "$tmp/missing"
    else
        ok "$name: every exported function ($(wc -l < "$tmp/exports")) has a man page"
    fi
done
