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

DRI3_UTIL_MAN_PAGES = \
	src/dri3-util/man/xcb_dri3_util_fence_create.3 \
	src/dri3-util/man/xcb_dri3_util_fence_import.3 \
	src/dri3-util/man/xcb_dri3_util_fence_trigger.3 \
	src/dri3-util/man/xcb_dri3_util_fence_reset.3 \
	src/dri3-util/man/xcb_dri3_util_fence_is_triggered.3 \
	src/dri3-util/man/xcb_dri3_util_fence_fd.3 \
	src/dri3-util/man/xcb_dri3_util_fence_destroy.3 \
	src/dri3-util/man/xcb_dri3_util_fence_wait.3 \
	src/dri3-util/man/xcb_dri3_util_fence_wait_many.3 \
	src/dri3-util/man/xcb_dri3_util_fence_wait_conn.3 \
	src/dri3-util/man/xcb_dri3_util_fence_to_server.3 \
	src/dri3-util/man/xcb_dri3_util_fence_from_server.3 \
	src/dri3-util/man/xcb_dri3_util_fence_watcher_create.3 \
	src/dri3-util/man/xcb_dri3_util_fence_watcher_fd.3 \
	src/dri3-util/man/xcb_dri3_util_fence_watcher_add.3 \
	src/dri3-util/man/xcb_dri3_util_fence_watcher_remove.3 \
	src/dri3-util/man/xcb_dri3_util_fence_watcher_collect.3 \
	src/dri3-util/man/xcb_dri3_util_fence_watcher_destroy.3 \
	src/dri3-util/man/xcb_dri3_util_set_timeout.3 \
	src/dri3-util/man/xcb_dri3_util_timeout.3 \
	src/dri3-util/man/xcb_dri3_util_wait_reply.3 \
	src/dri3-util/man/xcb_dri3_util_wait_void.3 \
	src/dri3-util/man/xcb_dri3_util_deadline.3 \
	src/dri3-util/man/xcb_dri3_util_wait_scope_push.3 \
	src/dri3-util/man/xcb_dri3_util_wait_scope_pop.3 \
	src/dri3-util/man/xcb_dri3_util_collect_abandoned.3 \
	src/dri3-util/man/xcb_dri3_util_probe.3 \
	src/dri3-util/man/xcb_dri3_util_probe_forget.3 \
	src/dri3-util/man/xcb_dri3_util_probe_refresh.3 \
	src/dri3-util/man/xcb_dri3_util_window_caps.3 \
	src/dri3-util/man/xcb_dri3_util_caps_init.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_create_memfd.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_import.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_to_pixmap.3 \
	src/dri3-util/man/xcb_dri3_util_buffers_to_pixmaps.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_from_pixmap.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_map.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_unmap.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_begin_access.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_end_access.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_width.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_height.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_depth.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_bpp.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_fourcc.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_modifier.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_n_planes.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_fd.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_stride.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_offset.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_destroy.3 \
	src/dri3-util/man/xcb_dri3_util_buffer_create_gbm.3 \
	src/dri3-util/man/xcb_dri3_util_device_open.3 \
	src/dri3-util/man/xcb_dri3_util_device_same.3 \
	src/dri3-util/man/xcb_dri3_util_device_close.3 \
	src/dri3-util/man/xcb_dri3_util_device_set_in_use.3 \
	src/dri3-util/man/xcb_dri3_util_device_needs_prime.3 \
	src/dri3-util/man/xcb_dri3_util_device_open_selected.3 \
	src/dri3-util/man/xcb_dri3_util_fourcc_from_depth.3 \
	src/dri3-util/man/xcb_dri3_util_fourcc_from_visual.3 \
	src/dri3-util/man/xcb_dri3_util_fourcc_to_depth.3 \
	src/dri3-util/man/xcb_dri3_util_fourcc_name.3 \
	src/dri3-util/man/xcb_dri3_util_modifier_name.3 \
	src/dri3-util/man/xcb_dri3_util_modifiers_query.3 \
	src/dri3-util/man/xcb_dri3_util_syncobj_import.3 \
	src/dri3-util/man/xcb_dri3_util_syncobj_free.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_create.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_fd.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_signal.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_wait.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_wait_any.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_query.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_wait_available.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_notify.3 \
	src/dri3-util/man/xcb_dri3_util_timeline_destroy.3
# Installed as data: Makefile.am already owns man3dir for the generated pages.
dri3utilmandir = $(mandir)/man3
dist_dri3utilman_DATA = $(DRI3_UTIL_MAN_PAGES)
# The overview, xcb_dri3_util(7): "man xcb_dri3_util".
dri3utilman7dir = $(mandir)/man7
dist_dri3utilman7_DATA = src/dri3-util/man/xcb_dri3_util.7
