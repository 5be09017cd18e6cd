#!/bin/sh
# Our libXpresent.so.1 against Debian's: the same SONAME; every symbol the
# reference exports, with the same kind and (for data, which programs get
# copy relocations of) the same size; nothing exported beyond those and the
# Present 1.4 addition; and no NEEDED library beyond what the layering
# requires (libX11, libX11-xcb, libxcb, libxcb-present, libc).
#
# Environment:
#   OURS_XPRESENT_LIB  our built libXpresent.so.1 (set by `make check`)
#   REF_XPRESENT_LIB   the reference; by default Debian's, found with
#                      "$CC -print-file-name" or in /usr/lib/<multiarch>
#   CC, NM, READELF    tools (default gcc, nm, readelf)
# Prints TAP.
CC=${CC:-gcc}
NM=${NM:-nm}
READELF=${READELF:-readelf}
ours=${OURS_XPRESENT_LIB:?}
ref=${REF_XPRESENT_LIB:-}
if [ -z "$ref" ]; then
    ref=$($CC -print-file-name=libXpresent.so.1 2>/dev/null)
    case $ref in /*) ;; *) ref= ;; esac
fi
if [ -z "$ref" ]; then
    multiarch=$($CC -print-multiarch 2>/dev/null)
    [ -e "/usr/lib/$multiarch/libXpresent.so.1" ] && ref=/usr/lib/$multiarch/libXpresent.so.1
fi
if [ -z "$ref" ] || [ ! -e "$ref" ]; then
    echo "1..0 # SKIP Debian's libXpresent.so.1 is not installed"
    exit 0
fi
# A library that stands in for Debian's (ours installed over it) proves nothing.
if $NM -D --defined-only "$ref" | grep -q ' XPresentPixmapSynced$'; then
    echo "1..0 # SKIP $ref is not Debian's libXpresent"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xpresent-sym.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# "name kind size" of the global definitions, without the linker's own.
exports() {
    $NM -D -S --defined-only "$1" | awk '
        NF == 4 { size = $2; kind = $3; name = $4 }
        NF == 3 { size = "-"; kind = $2; name = $3 }
        name ~ /^(_init|_fini|_edata|_end|__bss_start)$/ { next }
        { if (kind == "T") size = "-"; print name, kind, size }' | sort
}
exports "$ref" > "$tmp/ref"
exports "$ours" > "$tmp/ours"

echo "1..4"
soname=$($READELF -d "$ours" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$soname" = libXpresent.so.1 ]; then
    echo "ok 1 - SONAME libXpresent.so.1"
else
    echo "not ok 1 - SONAME is '$soname'"
fi

missing=$(comm -23 "$tmp/ref" "$tmp/ours")
if [ -z "$missing" ] && [ -s "$tmp/ref" ]; then
    echo "ok 2 - every export of $ref, same kind and data size ($(wc -l < "$tmp/ref"))"
else
    echo "not ok 2 - missing or different:"
    echo "$missing" | sed 's/^/#   /'
fi

extra=$(comm -13 "$tmp/ref" "$tmp/ours" | grep -v '^XPresentPixmapSynced T -$')
if [ -z "$extra" ]; then
    echo "ok 3 - nothing exported beyond libXpresent's API and XPresentPixmapSynced"
else
    echo "not ok 3 - exported beyond the API:"
    echo "$extra" | sed 's/^/#   /'
fi

needed=$($READELF -d "$ours" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
bad=
for lib in $needed; do
    case $lib in
    libX11.so.6 | libX11-xcb.so.1 | libxcb.so.1 | libxcb-present.so.0 | libc.so.6) ;;
    *) bad="$bad $lib" ;;
    esac
done
if [ -z "$bad" ]; then
    echo "ok 4 - NEEDED:" $needed
else
    echo "not ok 4 - NEEDED beyond the layering:$bad"
fi
