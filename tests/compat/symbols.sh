#!/bin/sh
# ABI check of our libxcb-dri3.so.0 and libxcb-present.so.0 against Debian's
# libxcb 1.15 ones: the same SONAME, every exported symbol of the reference
# with the same kind (function or writable data) and, for data, the same size
# (a program that references xcb_dri3_id gets a copy relocation of the size it
# was linked against), no library dependency the reference lacks, and no
# exports beyond the reference's and the DRI3/Present 1.3/1.4 additions.
#
# Usage: symbols.sh [OURS_DRI3_LIB OURS_PRESENT_LIB]
# Environment:
#   OURS_DRI3_LIB     our built libxcb-dri3 shared object (or $1), e.g.
#                     $(top_builddir)/src/.libs/libxcb-dri3.so.0
#   OURS_PRESENT_LIB  our built libxcb-present shared object (or $2)
#   REF_DRI3_LIB, REF_PRESENT_LIB
#                     the reference libraries; by default Debian's, found by
#                     "$CC -print-file-name" or in /usr/lib/<multiarch>, never
#                     through pkg-config (our own .pc files may shadow it)
#   COMPAT_CHECK_ADDITIONS  1 (default): the 1.3/1.4 additions must be
#                     exported; 0: skip that check (e.g. to run this script
#                     with the reference libraries standing in for ours)
#   CC, NM, READELF   tools (default gcc, nm, readelf)
#   COMPAT_SKIP_STATUS  exit status when skipping (default 77); automake's
#                   tap-driver.sh reports any non-zero status as ERROR, so
#                   set it to 0 there ("1..0 # SKIP" already says skip)
# Prints TAP; exits 0 pass, 1 fail, 77 skip (libraries not found/given).

CC=${CC:-gcc}
NM=${NM:-nm}
READELF=${READELF:-readelf}
additions=${COMPAT_CHECK_ADDITIONS:-1}
ours_dri3=${1:-${OURS_DRI3_LIB:-}}
ours_present=${2:-${OURS_PRESENT_LIB:-}}

dri3_additions="xcb_dri3_import_syncobj xcb_dri3_import_syncobj_checked
xcb_dri3_free_syncobj xcb_dri3_free_syncobj_checked
xcb_dri3_syncobj_next xcb_dri3_syncobj_end"
present_additions="xcb_present_pixmap_synced xcb_present_pixmap_synced_checked
xcb_present_pixmap_synced_sizeof xcb_present_pixmap_synced_notifies
xcb_present_pixmap_synced_notifies_length xcb_present_pixmap_synced_notifies_iterator"

# Finds a system library by its SONAME file name: the compiler's own search
# path first, then the multiarch and plain library directories.
find_ref() {
    f=$("$CC" -print-file-name="$1" 2>/dev/null)
    case "$f" in
    /*)
        if [ -e "$f" ]; then
            # gcc answers with .. components; tidy them for the diagnostics.
            readlink -f "$f" 2>/dev/null || echo "$f"
            return
        fi
        ;;
    esac
    ma=$("$CC" -print-multiarch 2>/dev/null)
    for d in ${ma:+/usr/lib/$ma /lib/$ma} /usr/lib64 /usr/lib; do
        if [ -e "$d/$1" ]; then
            echo "$d/$1"
            return
        fi
    done
}

ref_dri3=${REF_DRI3_LIB:-$(find_ref libxcb-dri3.so.0)}
ref_present=${REF_PRESENT_LIB:-$(find_ref libxcb-present.so.0)}

if [ -z "$ours_dri3" ] || [ -z "$ours_present" ]; then
    echo "1..0 # SKIP set OURS_DRI3_LIB and OURS_PRESENT_LIB (or pass both libraries)"
    exit "${COMPAT_SKIP_STATUS:-77}"
fi
if [ -z "$ref_dri3" ] || [ -z "$ref_present" ]; then
    echo "1..0 # SKIP reference libxcb-dri3.so.0/libxcb-present.so.0 not found" \
         "(install libxcb-dri3-0 and libxcb-present0, or set REF_*_LIB)"
    exit "${COMPAT_SKIP_STATUS:-77}"
fi
for tool in "$NM" "$READELF"; do
    if ! command -v "$tool" > /dev/null 2>&1; then
        echo "1..0 # SKIP $tool not found"
        exit "${COMPAT_SKIP_STATUS:-77}"
    fi
done
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
need -f "does not exist" "$ours_dri3" "$ours_present" "$ref_dri3" "$ref_present"
tap_tmpdir symbols
echo "1..12"
echo "# reference: $ref_dri3 $ref_present"
echo "# ours:      $ours_dri3 $ours_present"

# "name class size" per exported definition, sorted by name.  The class is
# func or data (writable, as libxcb writes global_id into xcb_*_id), rodata,
# or nm's letter for anything else; version suffixes (name@@VER) stay part of
# the name, so a versioned export does not match libxcb's unversioned one.
# The linker's own boundary symbols are not part of the API.
exports() {
    "$NM" -D -S --defined-only "$1" > "$tmp/nm.out" 2> "$tmp/nm.err" || return 1
    awk '
        # With -S: address size letter name; symbols without a size: address letter name.
        NF == 4 { size = $2; letter = $3; name = $4 }
        NF == 3 { size = "-"; letter = $2; name = $3 }
        NF < 3 { next }
        name ~ /^(_edata|_end|__bss_start|_init|_fini)$/ { next }
        {
            if (letter ~ /^[Ti]$/) class = "func"
            else if (letter ~ /^[DBGS]$/) class = "data"
            else if (letter == "R") class = "rodata"
            else class = letter
            if (class != "data") size = "-"
            else { sub(/^0+/, "", size); if (size == "") size = "0" }
            print name, class, size
        }' "$tmp/nm.out" | sort
}

soname() {
    "$READELF" -d "$1" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p'
}

needed() {
    "$READELF" -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' | sort -u
}

# check_lib <label> <ours> <reference> <soname> <allowed additions>
check_lib() {
    label=$1 ours=$2 ref=$3 want_soname=$4 allowed=$5

    got=$(soname "$ours")
    if [ "$got" = "$want_soname" ]; then
        ok "$label: SONAME is $want_soname"
    else
        not_ok "$label: SONAME is $want_soname"
        echo "# $ours has SONAME '$got'"
    fi

    if ! exports "$ref" > "$tmp/ref.syms"; then
        echo "Bail out! $NM failed on $ref"
        diag "$tmp/nm.err"
        exit 1
    fi
    if ! exports "$ours" > "$tmp/ours.syms"; then
        echo "Bail out! $NM failed on $ours"
        diag "$tmp/nm.err"
        exit 1
    fi
    cut -d' ' -f1 "$tmp/ref.syms" > "$tmp/ref.names"
    cut -d' ' -f1 "$tmp/ours.syms" > "$tmp/ours.names"
    # Word splitting intended: the list is whitespace-separated names.
    # shellcheck disable=SC2086
    printf '%s\n' $allowed | sort > "$tmp/allowed"

    # Every reference symbol, with its kind and (for data) its size.
    comm -23 "$tmp/ref.names" "$tmp/ours.names" > "$tmp/missing"
    comm -23 "$tmp/ref.syms" "$tmp/ours.syms" > "$tmp/changed.all"
    # Missing names are reported once, under "missing".
    awk 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' \
        "$tmp/missing" "$tmp/changed.all" > "$tmp/changed"
    if [ ! -s "$tmp/missing" ] && [ ! -s "$tmp/changed" ]; then
        ok "$label: all $(wc -l < "$tmp/ref.names") reference exports present, same kind/size"
    else
        not_ok "$label: all $(wc -l < "$tmp/ref.names") reference exports present, same kind/size"
        if [ -s "$tmp/missing" ]; then
            echo "# missing from ours:"
            diag "$tmp/missing"
        fi
        if [ -s "$tmp/changed" ]; then
            echo "# kind or size differs (name class size: reference, then ours):"
            while read -r name rest; do
                echo "#   reference: $name $rest"
                echo "#   ours:      $(grep "^$name " "$tmp/ours.syms" || echo "$name ?")"
            done < "$tmp/changed"
        fi
    fi

    # Nothing beyond the reference and the listed additions.
    comm -13 "$tmp/ref.names" "$tmp/ours.names" | comm -23 - "$tmp/allowed" > "$tmp/extra"
    if [ ! -s "$tmp/extra" ]; then
        ok "$label: no exports beyond the reference and the 1.3/1.4 additions"
    else
        not_ok "$label: no exports beyond the reference and the 1.3/1.4 additions"
        echo "# unexpected exports:"
        diag "$tmp/extra"
    fi

    # The additions themselves, as functions.
    if [ "$additions" = 0 ]; then
        skip "$label: exports the 1.3/1.4 additions" "COMPAT_CHECK_ADDITIONS=0"
    else
        : > "$tmp/absent"
        for sym in $allowed; do
            grep -q "^$sym func " "$tmp/ours.syms" || echo "$sym" >> "$tmp/absent"
        done
        if [ ! -s "$tmp/absent" ]; then
            ok "$label: exports the $(wc -l < "$tmp/allowed") 1.3/1.4 additions as functions"
        else
            not_ok "$label: exports the $(wc -l < "$tmp/allowed") 1.3/1.4 additions as functions"
            echo "# absent (or not a function):"
            diag "$tmp/absent"
        fi
    fi

    # A drop-in replacement must not pull new libraries into its users.
    needed "$ref" > "$tmp/ref.needed"
    needed "$ours" > "$tmp/ours.needed"
    comm -13 "$tmp/ref.needed" "$tmp/ours.needed" > "$tmp/new.needed"
    if [ ! -s "$tmp/new.needed" ]; then
        ok "$label: needs no library the reference does not ($(tr '\n' ' ' < "$tmp/ours.needed"))"
    else
        not_ok "$label: needs no library the reference does not"
        echo "# reference needs: $(tr '\n' ' ' < "$tmp/ref.needed")"
        echo "# ours also needs:"
        diag "$tmp/new.needed"
    fi

    # Symbol versioning: libxcb has none, and a version node in ours would
    # make binaries linked against ours refuse to run on libxcb's library.
    if "$READELF" -V "$ours" 2>/dev/null | grep -q "Version definition section"; then
        not_ok "$label: defines no symbol versions (libxcb has none)"
        "$READELF" -V "$ours" 2>/dev/null | sed -n '/Version definition/,/^$/p' > "$tmp/ver"
        diag "$tmp/ver"
    else
        ok "$label: defines no symbol versions (libxcb has none)"
    fi
}

check_lib "libxcb-dri3" "$ours_dri3" "$ref_dri3" libxcb-dri3.so.0 "$dri3_additions"
check_lib "libxcb-present" "$ours_present" "$ref_present" libxcb-present.so.0 \
    "$present_additions"

exit $failed
