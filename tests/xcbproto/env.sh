# Sourced by the shell tests of this directory: where the sources and the
# installed xcb-proto are, the tools, and a TAP skip when xcb-proto is absent.
# Environment: XCBPROTO_DIR (default: pkg-config's xcbincludedir of
# xcb-proto), TOP_SRCDIR (default: two levels up), PYTHON, CC.
# shellcheck shell=sh

top=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
dir=${XCBPROTO_DIR:-$(pkg-config --variable=xcbincludedir xcb-proto 2>/dev/null)}
PYTHON=${PYTHON:-python3}
CC=${CC:-cc}

if [ -z "$dir" ] || [ ! -f "$dir/xproto.xml" ]; then
    echo "1..0 # SKIP xcb-proto is not installed (no xproto.xml in '${dir:-?}')"
    exit 0
fi
