#!/bin/sh
# libxcb-dri3-util's man pages: one for every exported function, each
# formatting without a groff warning.  TAP output.
exec sh "${TOP_SRCDIR:-.}/tests/common/check-man-pages.sh" src/util/man \
    src/.libs/libxcb-dri3-util.so
