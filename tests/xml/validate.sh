#!/bin/sh
# Validates our protocol descriptions against xcb-proto's schema (xcb.xsd).
# Prints TAP.
srcdir=${TOP_SRCDIR:-$(dirname "$0")/../..}
schema=${XCBPROTO_DIR:-$(pkg-config --variable=xcbincludedir xcb-proto)}/xcb.xsd
xmllint=${XMLLINT:-xmllint}
echo "1..2"
n=0
status=0
for f in dri3 present; do
    n=$((n + 1))
    if out=$("$xmllint" --noout --schema "$schema" "$srcdir/xml/$f.xml" 2>&1); then
        echo "ok $n - xml/$f.xml validates against xcb.xsd"
    else
        echo "not ok $n - xml/$f.xml validates against xcb.xsd"
        echo "$out" | sed 's/^/# /'
        status=1
    fi
done
exit $status
