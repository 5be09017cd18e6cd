#!/bin/sh
# libXpresent's man pages: one per public function plus Xpresent(3), each
# formatting without a single groff warning.  TAP output.
# Environment: TOP_SRCDIR (set by `make check`).
src=${TOP_SRCDIR:-.}
dir=$src/src/xlib/man
# The functions of <X11/extensions/Xpresent.h>: the export list without
# the three symbols that are only there for binary compatibility.
functions=$(grep -v -e '^XPresentExtensionInfo$' -e '^XPresentExtensionName$' \
    -e '^XPresentFindDisplay$' "$src/src/xlib/Xpresent.sym")
if ! command -v groff > /dev/null 2>&1; then
    echo "1..0 # SKIP groff is not installed"
    exit 0
fi
pages="Xpresent $functions"
echo "1..$(echo $pages | wc -w)"
i=0
for name in $pages; do
    i=$((i + 1))
    page=$dir/$name.3
    if [ ! -f "$page" ]; then
        echo "not ok $i - $name.3 is missing"
        continue
    fi
    if ! grep -q "^$name" "$src/src/xlib/include/X11/extensions/Xpresent.h" &&
       ! grep -q "[ *]$name(" "$src/src/xlib/include/X11/extensions/Xpresent.h" &&
       [ "$name" != Xpresent ]; then
        echo "not ok $i - $name is not declared in Xpresent.h"
        continue
    fi
    warnings=$(groff -man -ww -z "$page" 2>&1)
    if [ -z "$warnings" ]; then
        echo "ok $i - $name.3"
    else
        echo "not ok $i - $name.3"
        printf '%s\n' "$warnings" | sed 's/^/# /'
    fi
done
