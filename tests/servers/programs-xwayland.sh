#!/bin/sh
# xcb-dri3-info and xcb-present-demo on xwayland (tests/servers/programs.sh).
exec "${TOP_BUILDDIR:-.}/tests/servers/with-server" xwayland \
    sh "${TOP_SRCDIR:-.}/tests/servers/programs.sh" xwayland
