#!/bin/sh
# The installed project works the way users consume it: with only what
# pkg-config reports for xcb-dri3 and xcb-present, api-use.c and api-use-14.c
# compile against the installed headers (not Debian's in /usr/include), link
# and run against the installed libraries (not Debian's in /usr/lib), and each
# installed header compiles on its own.  Then the util libraries as the
# README's quick start uses them: their .pc files say the util version,
# examples/present-loop.c builds with pkg-config xcb-present-util only and
# runs with LD_LIBRARY_PATH (on the mock server), or links the libdir in
# with -Wl,-rpath; and the overview pages are installed in section 7 and
# open with "man NAME".
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
#   UTIL_VERSION    the version the util .pc files must say (unset: 0.x)
#   MOCK_SERVER     mock-x-server to run present-loop on (default
#                   $TOP_BUILDDIR/mock/mock-x-server; absent: skipped)
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
echo "1..15"
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

# 11. The util libraries' .pc files carry the util version, not the
# bindings' one.
pu_version=$(pc --modversion xcb-present-util 2>&1)
du_version=$(pc --modversion xcb-dri3-util 2>&1)
case "${UTIL_VERSION:-}" in
"") want_ok() { case "$1" in 0.*) return 0 ;; *) return 1 ;; esac; } ;;
*) want_ok() { [ "$1" = "$UTIL_VERSION" ]; } ;;
esac
if want_ok "$pu_version" && [ "$pu_version" = "$du_version" ]; then
    ok "xcb-present-util.pc and xcb-dri3-util.pc say the util version ($pu_version)"
else
    echo "xcb-present-util $pu_version, xcb-dri3-util $du_version, wanted ${UTIL_VERSION:-0.x}" \
        > "$tmp/ver"
    not_ok "xcb-present-util.pc and xcb-dri3-util.pc say the util version" "$tmp/ver"
fi

# 12-14. README's "your own program against the prefix": with
# PKG_CONFIG_PATH set (above; relocated when installed with DESTDIR),
#   cc examples/present-loop.c $(pkg-config --cflags --libs xcb-present-util) -o present-loop
# then LD_LIBRARY_PATH=libdir, or -Wl,-rpath,libdir at link time.
# One difference: the linker must find libxcb-dri3-util.so.0, which
# libxcb-present-util.so.0 needs.  Installed into a prefix outside the
# system's library directories, the library's RUNPATH (libtool's) names
# it; a DESTDIR install of /usr/local, as here, has none, so the first
# link gets LD_LIBRARY_PATH (which ld searches too) in its place.
loop_src=${TOP_SRCDIR:-$srcdir/../..}/examples/present-loop.c
mock=${MOCK_SERVER:-${TOP_BUILDDIR:-.}/mock/mock-x-server}
pu_flags=$(pc --cflags --libs xcb-present-util 2> "$tmp/pc.err")
# shellcheck disable=SC2086
if [ -f "$loop_src" ] &&
   LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
       "$CC" "$loop_src" $pu_flags -o "$tmp/present-loop" > "$tmp/cc.log" 2>&1; then
    LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$tmp/present-loop" \
        > "$tmp/ldd" 2>&1
    util_in_prefix=1
    for lib in libxcb-present-util.so.0 libxcb-dri3-util.so.0 libxcb-present.so.0; do
        path=$(awk -v l="$lib" '$1 == l && $2 == "=>" { print $3 }' "$tmp/ldd")
        case "$(canon "${path:-/nonexistent}")" in
        "$(canon "$libdir")"/*) ;;
        *) util_in_prefix=0 ;;
        esac
    done
    if [ "$util_in_prefix" = 1 ]; then
        ok "present-loop.c builds with pkg-config xcb-present-util and finds the prefix's libraries"
    else
        not_ok "present-loop.c builds with pkg-config xcb-present-util and finds the prefix's libraries" \
            "$tmp/ldd"
    fi
else
    [ -f "$loop_src" ] || echo "$loop_src is missing" >> "$tmp/cc.log"
    cat "$tmp/pc.err" >> "$tmp/cc.log"
    not_ok "present-loop.c builds with pkg-config xcb-present-util and finds the prefix's libraries" \
        "$tmp/cc.log"
fi
if [ ! -x "$tmp/present-loop" ]; then
    not_ok "present-loop runs with LD_LIBRARY_PATH (not built)"
elif [ ! -x "$mock" ]; then
    skip "present-loop runs with LD_LIBRARY_PATH on the mock server" "no mock-x-server"
else
    . "${TOP_SRCDIR:-$srcdir/../..}/scripts/displayfd.sh"
    mkdir "$tmp/mock"
    if displayfd_start "$tmp/mock" "$mock" --displayfd 3; then
        if DISPLAY=$server_display LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
           "$tmp/present-loop" --frames 30 > "$tmp/run.log" 2>&1 &&
           grep -q "30 frames presented, 30 completed" "$tmp/run.log"; then
            ok "present-loop runs with LD_LIBRARY_PATH on the mock server (30 frames)"
        else
            not_ok "present-loop runs with LD_LIBRARY_PATH on the mock server" "$tmp/run.log"
        fi
        displayfd_stop
    else
        not_ok "present-loop runs with LD_LIBRARY_PATH: the mock server started" \
            "$tmp/mock/server.err"
    fi
fi
# The rpath variant: the program itself finds libxcb-present-util.so.0
# without LD_LIBRARY_PATH.  (Its own dependencies come from the library's
# RUNPATH, which libtool writes for a prefix outside the system's library
# directories, not for the /usr/local of a DESTDIR install like this one.)
# shellcheck disable=SC2086
if [ -f "$loop_src" ] &&
   "$CC" "$loop_src" $pu_flags -Wl,-rpath,"$libdir" -o "$tmp/present-loop-rpath" \
       > "$tmp/cc.log" 2>&1; then
    env -u LD_LIBRARY_PATH ldd "$tmp/present-loop-rpath" > "$tmp/ldd" 2>&1
    path=$(awk '$1 == "libxcb-present-util.so.0" && $2 == "=>" { print $3 }' "$tmp/ldd")
    case "$(canon "${path:-/nonexistent}")" in
    "$(canon "$libdir")"/*)
        ok "present-loop linked with -Wl,-rpath finds libxcb-present-util.so.0 without LD_LIBRARY_PATH" ;;
    *)
        not_ok "present-loop linked with -Wl,-rpath finds libxcb-present-util.so.0 without LD_LIBRARY_PATH" \
            "$tmp/ldd" ;;
    esac
else
    not_ok "present-loop links with -Wl,-rpath" "$tmp/cc.log"
fi

# 15. The overviews: installed in section 7, "man xcb_present_util" and
# "man xcb_dri3_util" open them, and the types' pages (generated from the
# headers) are installed in section 3.
mandir=$prefix/share/man
: > "$tmp/man.log"
man_ok=1
for page in man7/xcb_present_util.7 man7/xcb_dri3_util.7 man3/xcb_present_util_options_t.3 \
            man3/xcb_present_util_image_t.3 man3/xcb_present_util_stats_t.3 \
            man3/xcb_present_util_frame_t.3; do
    [ -f "$mandir/$page" ] || { echo "$mandir/$page is not installed" >> "$tmp/man.log"; man_ok=0; }
done
if [ "$man_ok" = 1 ] && command -v man > /dev/null 2>&1; then
    for name in xcb_present_util xcb_dri3_util xcb_present_util_options_t; do
        where=$(man -M "$mandir" -w "$name" 2>> "$tmp/man.log")
        case "$name:$where" in
        xcb_present_util:*/man7/xcb_present_util.7 | xcb_dri3_util:*/man7/xcb_dri3_util.7 | \
        xcb_present_util_options_t:*/man3/xcb_present_util_options_t.3 | \
        xcb_present_util_options_t:*/man7/xcb_present_util.7) ;;
        *) echo "man -w $name: '$where'" >> "$tmp/man.log"; man_ok=0 ;;
        esac
        if ! MANWIDTH=80 man -M "$mandir" "$name" > "$tmp/man.out" 2>> "$tmp/man.log" ||
           ! grep -q "^NAME" "$tmp/man.out"; then
            echo "man $name did not render" >> "$tmp/man.log"
            man_ok=0
        fi
    done
    [ -s "$tmp/man.log" ] && man_ok=0
fi
if [ "$man_ok" = 1 ]; then
    ok "the overviews are installed in man7 and man xcb_present_util, xcb_dri3_util, xcb_present_util_options_t open them"
else
    not_ok "the overviews are installed in man7 and open with man" "$tmp/man.log"
fi

exit $failed
