#!/bin/sh
# The installed project works the way users consume it: with only what
# pkg-config reports for xcb-dri3 and xcb-present, api-use.c and api-use-14.c
# compile against the installed headers (not Debian's in /usr/include), link
# and run against the installed libraries (not Debian's in /usr/lib), and each
# installed header compiles on its own.
#
# Environment:
#   INSTALL_PREFIX  where the project was installed ("make install" with
#                   prefix= or DESTDIR=); unset: the test is skipped.  If the
#                   .pc files name another prefix (a DESTDIR install), their
#                   prefix variable is redefined to this one.
#   COMPAT_SRCDIR   directory of api-use.c etc.; default
#                   $TOP_SRCDIR/tests/compat, else this script's directory
#   COMPAT_CHECK_ADDITIONS  1 (default): also api-use-14.c (1.3/1.4 API);
#                   0: skip it (for a 1.15-only install)
#   CC, PKG_CONFIG  tools (default gcc, pkg-config)
#   COMPAT_SKIP_STATUS  exit status when skipping (default 77); automake's
#                   tap-driver.sh reports any non-zero status as ERROR, so
#                   set it to 0 there ("1..0 # SKIP" already says skip)
# Prints TAP; exits 0 pass, 1 fail, 77 skip.

CC=${CC:-gcc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
additions=${COMPAT_CHECK_ADDITIONS:-1}

if [ -z "${INSTALL_PREFIX:-}" ]; then
    echo "1..0 # SKIP INSTALL_PREFIX is not set (run after make install into a prefix)"
    exit "${COMPAT_SKIP_STATUS:-77}"
fi
if [ ! -d "$INSTALL_PREFIX" ]; then
    echo "Bail out! INSTALL_PREFIX=$INSTALL_PREFIX is not a directory"
    exit 1
fi
if ! command -v "$PKG_CONFIG" > /dev/null 2>&1; then
    echo "1..0 # SKIP $PKG_CONFIG not found"
    exit "${COMPAT_SKIP_STATUS:-77}"
fi
if [ -n "${COMPAT_SRCDIR:-}" ]; then
    srcdir=$COMPAT_SRCDIR
elif [ -n "${TOP_SRCDIR:-}" ]; then
    srcdir=$TOP_SRCDIR/tests/compat
else
    srcdir=$(dirname "$0")
fi
if [ ! -f "$srcdir/api-use.c" ]; then
    echo "Bail out! api-use.c not found in $srcdir (set COMPAT_SRCDIR)"
    exit 1
fi

prefix=$(cd "$INSTALL_PREFIX" && pwd -P)
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/common/tap.sh"
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/compat/ldd-resolves.sh"
tap_tmpdir prefix-install
echo "1..10"
echo "# prefix: $prefix"

# 1. The .pc files, and pkg-config picking them rather than the system's.
pcdir=
for d in "$prefix"/lib/pkgconfig "$prefix"/lib/*/pkgconfig "$prefix"/lib64/pkgconfig \
         "$prefix"/share/pkgconfig; do
    if [ -f "$d/xcb-dri3.pc" ] && [ -f "$d/xcb-present.pc" ]; then
        pcdir=$d
        break
    fi
done
if [ -z "$pcdir" ]; then
    not_ok "xcb-dri3.pc and xcb-present.pc installed under the prefix"
    find "$prefix" -name '*.pc' > "$tmp/pcs" 2>/dev/null
    echo "# .pc files found:"
    diag "$tmp/pcs"
    echo "Bail out! no installed .pc files to build with"
    exit 1
fi
# Ours first; the system's stay reachable for xcb, xcb-randr and the others
# our .pc files require.
PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export PKG_CONFIG_PATH
define=
pc_prefix=$("$PKG_CONFIG" --variable=prefix xcb-dri3 2>/dev/null)
if [ -n "$pc_prefix" ] && [ "$(canon "$pc_prefix")" != "$prefix" ]; then
    # Installed with DESTDIR or "make install prefix=": relocate.
    define="--define-variable=prefix=$prefix"
    echo "# .pc prefix is $pc_prefix; using $define"
fi
pc() {
    # $define is empty or a single word without spaces (prefix paths with
    # spaces are not supported by pkg-config's output anyway).
    # shellcheck disable=SC2086
    "$PKG_CONFIG" $define "$@"
}
dri3_pcdir=$(pc --variable=pcfiledir xcb-dri3 2>/dev/null)
present_pcdir=$(pc --variable=pcfiledir xcb-present 2>/dev/null)
if pc --cflags --libs xcb-dri3 xcb-present > /dev/null 2> "$tmp/pc.err" \
   && [ "$(canon "$dri3_pcdir")" = "$(canon "$pcdir")" ] \
   && [ "$(canon "$present_pcdir")" = "$(canon "$pcdir")" ]; then
    ok "pkg-config resolves xcb-dri3 and xcb-present to $pcdir"
else
    not_ok "pkg-config resolves xcb-dri3 and xcb-present to $pcdir"
    echo "# pcfiledir: xcb-dri3 '$dri3_pcdir', xcb-present '$present_pcdir'"
    diag "$tmp/pc.err"
    echo "Bail out! cannot build against the installed .pc files"
    exit 1
fi
libdir=$(pc --variable=libdir xcb-dri3)
cflags=$(pc --cflags xcb-dri3 xcb-present)
libs=$(pc --libs xcb-dri3 xcb-present)
# The programs call xcb_connect() themselves, and our .pc files, like
# libxcb's, list xcb only in Requires.private: users add it, as these do.
xcb_libs=$("$PKG_CONFIG" --libs xcb)
echo "# cflags: $cflags"
echo "# libs:   $libs $xcb_libs"
echo "# libdir: $libdir"

# 2. Each installed header compiles on its own (C99, pedantic, as libxcb's do).
: > "$tmp/sc.log"
sc_ok=1
for h in dri3 present; do
    # shellcheck disable=SC2086
    if ! "$CC" -std=c99 -Wall -Wextra -Werror -Wpedantic $cflags \
         -c "$srcdir/self-contained-$h.c" -o "$tmp/sc-$h.o" >> "$tmp/sc.log" 2>&1; then
        sc_ok=0
    fi
done
if [ "$sc_ok" = 1 ]; then
    ok "installed <xcb/dri3.h> and <xcb/present.h> each compile on their own"
else
    not_ok "installed <xcb/dri3.h> and <xcb/present.h> each compile on their own"
    diag "$tmp/sc.log"
fi

# check_program <name>: compile, header provenance, ldd, run.
check_program() {
    name=$1
    src=$srcdir/$name.c
    bin=$tmp/$name

    # shellcheck disable=SC2086
    if "$CC" -std=c11 -Wall -Wextra -Werror $cflags "$src" -o "$bin" $libs $xcb_libs \
         > "$tmp/cc.log" 2>&1; then
        ok "$name.c compiles and links with pkg-config's flags only"
    else
        not_ok "$name.c compiles and links with pkg-config's flags only"
        diag "$tmp/cc.log"
        not_ok "$name.c uses the installed headers"
        not_ok "$name links to the installed libraries"
        not_ok "$name passes against the installed libraries"
        return
    fi

    # Every dri3.h/present.h the compiler read must be the installed one.
    # shellcheck disable=SC2086
    "$CC" -std=c11 $cflags -M "$src" 2> "$tmp/dep.err" | tr ' ' '\n' \
        | grep -E '/xcb/(dri3|present)\.h$' > "$tmp/deps"
    : > "$tmp/foreign"
    while read -r dep; do
        case "$(canon "$dep")" in
        "$prefix"/*) ;;
        *) echo "$dep" >> "$tmp/foreign" ;;
        esac
    done < "$tmp/deps"
    if [ "$(wc -l < "$tmp/deps")" -eq 2 ] && [ ! -s "$tmp/foreign" ]; then
        ok "$name.c uses the installed headers ($(tr '\n' ' ' < "$tmp/deps"))"
    else
        not_ok "$name.c uses the installed headers"
        echo "# headers read:"
        diag "$tmp/deps"
        diag "$tmp/dep.err"
    fi

    # The dynamic linker must pick the installed libraries.
    LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$bin" \
        > "$tmp/ldd" 2>&1
    if resolves_in "$tmp/ldd" "$libdir"; then
        ok "$name links to the installed libraries"
    else
        not_ok "$name links to the installed libraries"
        diag "$tmp/ldd"
    fi

    if LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$bin" \
         > "$tmp/run.log" 2>&1; then
        ok "$name passes against the installed libraries"
    else
        not_ok "$name passes against the installed libraries"
        diag "$tmp/run.log"
    fi
}

check_program api-use
if [ "$additions" = 0 ]; then
    for what in "compiles and links" "uses the installed headers" \
                "links to the installed libraries" "passes"; do
        skip "api-use-14 $what" "COMPAT_CHECK_ADDITIONS=0"
    done
else
    check_program api-use-14
fi

exit $failed
