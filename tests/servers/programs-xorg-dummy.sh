#!/bin/sh
# xcb-dri3-info and xcb-present-demo on xorg-dummy (tests/servers/programs.sh).
exec "${TOP_BUILDDIR:-.}/tests/servers/with-server" xorg-dummy \
    sh "${TOP_SRCDIR:-.}/tests/servers/programs.sh" xorg-dummy
