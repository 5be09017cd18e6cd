# libxcb-present-util: a vsync swapchain on Present (see
# src/present-util/xcb_present_util.h).  Inside the project the header is
# included as "xcb_present_util.h"; installed, it is <xcb/xcb_present_util.h>.

lib_LTLIBRARIES += src/libxcb-present-util.la
src_libxcb_present_util_la_SOURCES = \
	src/present-util/xcb_present_util.h src/present-util/swapchain-private.h \
	src/present-util/swapchain.c src/present-util/swapchain-wait.c \
	src/present-util/swapchain-events.c src/present-util/swapchain-frame.c \
	src/present-util/swapchain-stats.c src/present-util/swapchain-debug.c \
	src/present-util/swapchain-timing.c src/present-util/swapchain-clock.c \
	src/present-util/swapchain-pacing.c src/present-util/swapchain-wait-frame.c \
	src/present-util/swapchain-oml.c src/present-util/swapchain-driver.c \
	src/present-util/swapchain-ring.c \
	src/present-util/swapchain-hooks.c \
	src/present-util/backend-shm.c src/present-util/backend-put-image.c \
	src/present-util/backend-dri3.c src/present-util/timeline-private.h \
	src/present-util/backend-dri3-private.h src/present-util/backend-dri3-images.c \
	src/present-util/backend-dri3-alloc.c src/present-util/alloc-private.h \
	src/present-util/present-synced.c src/present-util/xcb_present_util_synced.h \
	src/present-util/sized.c src/present-util/sized-private.h
src_libxcb_present_util_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE \
	-I$(top_srcdir)/src/present-util -I$(top_srcdir)/src/dri3-util $(GBM_CFLAGS)
src_libxcb_present_util_la_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XCB_SHM_CFLAGS) \
	-pthread
src_libxcb_present_util_la_LIBADD = src/libxcb-present.la src/libxcb-dri3-util.la \
	src/libxcb-dri3.la $(GBM_LIBS) $(XCB_SHM_LIBS) $(XCB_EXT_DEPS_LIBS) $(XCB_LIBS) -lpthread
src_libxcb_present_util_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^xcb_present_util_'

presentutilincludedir = $(includedir)/xcb
presentutilinclude_HEADERS = src/present-util/xcb_present_util.h \
	src/present-util/xcb_present_util_timing.h \
	src/present-util/xcb_present_util_synced.h

pkgconfig_DATA += pkgconfig/xcb-present-util.pc
EXTRA_DIST += pkgconfig/xcb-present-util.pc.in

# The section-3 pages are generated from the headers (Makefile.am,
# man/util.stamp); the overview, xcb_present_util(7), is written by hand:
# "man xcb_present_util" (there is no such page in section 3).
presentutilman7dir = $(mandir)/man7
dist_presentutilman7_DATA = src/present-util/man/xcb_present_util.7
