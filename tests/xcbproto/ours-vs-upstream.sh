#!/bin/sh
# Our xml/dri3.xml and xml/present.xml against xcb-proto's own: the headers
# generated from both must declare the same API with the same layout, but
# for the DRI3 1.4 and Present 1.3/1.4 additions listed here (and the
# documentation, which is not part of the API). The allowed differences are
# printed as diagnostics; anything else fails.
#
# Environment: see env.sh.

. "$(dirname "$0")/env.sh"

if [ ! -f "$dir/dri3.xml" ] || [ ! -f "$dir/present.xml" ]; then
    echo "1..0 # SKIP xcb-proto's dri3.xml and present.xml are not installed"
    exit 0
fi

. "$top/tests/common/tap.sh"
tap_tmpdir ours-vs-upstream

# Generates $2/xcb/{dri3,present}.h from the XML in $1 (imports from xcb-proto).
generate() {
    "$PYTHON" "$top/codegen/xcb-codegen" -I "$dir" --c-dir "$2" --h-dir "$2/xcb" \
        "$1/dri3.xml" "$1/present.xml"
}
if ! generate "$dir" "$tmp/upstream" || ! generate "$top/xml" "$tmp/ours"; then
    bail_out "the generator failed"
fi

# What DRI3 1.4 (syncobjs) and Present 1.3/1.4 (AsyncMayTear, PixmapSynced,
# the Syncobj capability) add, and the minor versions that say so.
additions="
    XCB_DRI3_MINOR_VERSION XCB_PRESENT_MINOR_VERSION
    XCB_DRI3_IMPORT_SYNCOBJ XCB_DRI3_FREE_SYNCOBJ
    xcb_dri3_import_syncobj xcb_dri3_import_syncobj_checked xcb_dri3_import_syncobj_request_t
    xcb_dri3_free_syncobj xcb_dri3_free_syncobj_checked xcb_dri3_free_syncobj_request_t
    xcb_dri3_syncobj_t xcb_dri3_syncobj_iterator_t xcb_dri3_syncobj_next xcb_dri3_syncobj_end
    XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR XCB_PRESENT_CAPABILITY_SYNCOBJ
    XCB_PRESENT_OPTION_ASYNC_MAY_TEAR XCB_PRESENT_PIXMAP_SYNCED
    xcb_present_pixmap_synced xcb_present_pixmap_synced_checked
    xcb_present_pixmap_synced_request_t xcb_present_pixmap_synced_sizeof
    xcb_present_pixmap_synced_notifies xcb_present_pixmap_synced_notifies_length
    xcb_present_pixmap_synced_notifies_iterator
"
allow=
for a in $additions; do
    allow="$allow --allow $a"
done
# shellcheck disable=SC2086
exec "$PYTHON" "$top/tests/xcbproto/abi-compare.py" --ref "$tmp/upstream" --ours "$tmp/ours" \
    $allow dri3 present
