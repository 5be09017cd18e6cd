#!/bin/sh
# xcb-dri3-info and xcb-present-demo on xephyr (tests/servers/programs.sh).
exec "${TOP_BUILDDIR:-.}/tests/servers/with-server" xephyr \
    sh "${TOP_SRCDIR:-.}/tests/servers/programs.sh" xephyr
