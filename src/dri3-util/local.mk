# libxcb-dri3-util, by concern; each concern has its header and its files:
#   fence   xcb_dri3_util_fence.h    fence*.c      futex-page fences
#   wait    xcb_dri3_util_wait.h     wait*.c       bounded reply waits
#   buffer  xcb_dri3_util_buffer.h   buffer*.c     probe, formats, modifiers,
#                                                  dma-buf buffers
#   device  xcb_dri3_util_device.h   buffer-device.c, device-prime.c
#                                                  the DRM device, PRIME
#   sync    xcb_dri3_util_sync.h     sync.c        syncobjs and timelines
# <xcb/xcb_dri3_util.h> is the umbrella that includes all five.  Inside the
# project the headers are found through -I$(top_srcdir)/src/dri3-util.

lib_LTLIBRARIES += src/libxcb-dri3-util.la
src_libxcb_dri3_util_la_SOURCES = src/dri3-util/conn-state.h src/dri3-util/conn.c \
	src/dri3-util/fence-private.h src/dri3-util/fence-futex.h src/dri3-util/fence-futex.c \
	src/dri3-util/fence.c src/dri3-util/fence-wait.c src/dri3-util/fence-conn.c \
	src/dri3-util/fence-watcher.c src/dri3-util/fence-server.c \
	src/dri3-util/wait-private.h src/util-internal/deadline.h src/dri3-util/wait.c \
	src/dri3-util/wait-conn.c \
	src/dri3-util/buffer-private.h src/dri3-util/buffer-probe.c \
	src/dri3-util/buffer-window-caps.c src/dri3-util/buffer.c \
	src/dri3-util/buffer-pixmap.c src/dri3-util/buffer-gbm.c src/dri3-util/buffer-formats.h \
	src/dri3-util/buffer-formats.c src/dri3-util/buffer-modifiers.c \
	src/dri3-util/buffer-device.c src/dri3-util/device-prime.c \
	src/dri3-util/sync.c
src_libxcb_dri3_util_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/dri3-util \
	$(DRI3_UTIL_DRM_CFLAGS) $(GBM_CFLAGS)
src_libxcb_dri3_util_la_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
src_libxcb_dri3_util_la_LIBADD = src/libxcb-dri3.la src/libxcb-present.la $(XCB_LIBS) \
	$(DRI3_UTIL_DRM_LIBS) $(GBM_LIBS) $(XCB_EXT_DEPS_LIBS) -lpthread
src_libxcb_dri3_util_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^xcb_dri3_util_'

dri3utilincludedir = $(includedir)/xcb
dri3utilinclude_HEADERS = src/dri3-util/xcb_dri3_util.h src/dri3-util/xcb_dri3_util_fence.h \
	src/dri3-util/xcb_dri3_util_wait.h src/dri3-util/xcb_dri3_util_buffer.h \
	src/dri3-util/xcb_dri3_util_sync.h src/dri3-util/xcb_dri3_util_device.h

pkgconfig_DATA += pkgconfig/xcb-dri3-util.pc
EXTRA_DIST += pkgconfig/xcb-dri3-util.pc.in

# The section-3 pages are generated from the headers (Makefile.am,
# man/util.stamp); the overview, xcb_dri3_util(7), is written by hand:
# "man xcb_dri3_util".
dri3utilman7dir = $(mandir)/man7
dist_dri3utilman7_DATA = src/dri3-util/man/xcb_dri3_util.7
