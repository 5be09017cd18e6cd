# libxcb-dri3-util, part 2: the probe, dma-buf buffers, the DRM device,
# formats and modifiers, explicit sync (declared in src/util/xcb_dri3_util.h
# after the fences).  Added to the library that src/util/local.mk builds.

src_libxcb_dri3_util_la_SOURCES += \
	src/util/conn-state.h src/util/probe.c \
	src/util/buffer-private.h src/util/buffer.c src/util/buffer-pixmap.c \
	src/util/buffer-gbm.c \
	src/util/formats.h src/util/formats.c src/util/modifiers.c \
	src/util/device.c src/util/syncobj.c
src_libxcb_dri3_util_la_CPPFLAGS += $(DRI3_UTIL_DRM_CFLAGS) $(GBM_CFLAGS)
src_libxcb_dri3_util_la_LIBADD += src/libxcb-present.la $(DRI3_UTIL_DRM_LIBS) $(GBM_LIBS) \
	$(XCB_EXT_DEPS_LIBS)

DRI3_UTIL_MAN_PAGES += \
	src/util/man/xcb_dri3_util_probe.3 \
	src/util/man/xcb_dri3_util_probe_forget.3 \
	src/util/man/xcb_dri3_util_caps_init.3 \
	src/util/man/xcb_dri3_util_buffer_create_memfd.3 \
	src/util/man/xcb_dri3_util_buffer_import.3 \
	src/util/man/xcb_dri3_util_buffer_to_pixmap.3 \
	src/util/man/xcb_dri3_util_buffer_from_pixmap.3 \
	src/util/man/xcb_dri3_util_buffer_map.3 \
	src/util/man/xcb_dri3_util_buffer_unmap.3 \
	src/util/man/xcb_dri3_util_buffer_width.3 \
	src/util/man/xcb_dri3_util_buffer_height.3 \
	src/util/man/xcb_dri3_util_buffer_depth.3 \
	src/util/man/xcb_dri3_util_buffer_bpp.3 \
	src/util/man/xcb_dri3_util_buffer_fourcc.3 \
	src/util/man/xcb_dri3_util_buffer_modifier.3 \
	src/util/man/xcb_dri3_util_buffer_n_planes.3 \
	src/util/man/xcb_dri3_util_buffer_fd.3 \
	src/util/man/xcb_dri3_util_buffer_stride.3 \
	src/util/man/xcb_dri3_util_buffer_offset.3 \
	src/util/man/xcb_dri3_util_buffer_destroy.3 \
	src/util/man/xcb_dri3_util_buffer_create_gbm.3 \
	src/util/man/xcb_dri3_util_device_open.3 \
	src/util/man/xcb_dri3_util_device_same.3 \
	src/util/man/xcb_dri3_util_device_close.3 \
	src/util/man/xcb_dri3_util_device_set_in_use.3 \
	src/util/man/xcb_dri3_util_fourcc_from_depth.3 \
	src/util/man/xcb_dri3_util_fourcc_to_depth.3 \
	src/util/man/xcb_dri3_util_fourcc_name.3 \
	src/util/man/xcb_dri3_util_modifier_name.3 \
	src/util/man/xcb_dri3_util_modifiers_query.3 \
	src/util/man/xcb_dri3_util_syncobj_import.3 \
	src/util/man/xcb_dri3_util_syncobj_free.3 \
	src/util/man/xcb_dri3_util_timeline_create.3 \
	src/util/man/xcb_dri3_util_timeline_fd.3 \
	src/util/man/xcb_dri3_util_timeline_signal.3 \
	src/util/man/xcb_dri3_util_timeline_wait.3 \
	src/util/man/xcb_dri3_util_timeline_query.3 \
	src/util/man/xcb_dri3_util_timeline_destroy.3

# ---- tests of part 2

# Against the mock server, with the end-to-end helpers (tests/e2e).
BUFFER_MOCK_TESTS = tests/util/buffer-mock tests/util/probe-mock tests/util/device-mock \
	tests/util/syncobj-mock tests/util/wait-mock tests/util/bounded-mock tests/util/error-rule
# No server needed.
BUFFER_UNIT_TESTS = tests/util/buffer-unit tests/util/formats tests/util/drm-nodevice
# Against Xvfb, a real server without DRI3 (skipped where Xvfb is missing).
BUFFER_XVFB_TESTS = tests/util/probe-xvfb
# libxcb-present-util too: PresentPixmapSynced lives there, and the error
# rule's test covers both libraries.
BUFFER_TEST_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/tests/mock \
	-I$(top_srcdir)/tests/e2e -I$(top_srcdir)/src/present-util
BUFFER_TEST_LDADD = tests/mock/libmockserver.la src/libxcb-present-util.la $(DRI3_UTIL_TEST_LDADD) \
	src/libxcb-dri3.la src/libxcb-present.la $(XCB_EXT_DEPS_LIBS)
BUFFER_TEST_COMMON = tests/e2e/e2e-util.c tests/e2e/e2e-util.h tests/util/buffer-test-util.h

check_PROGRAMS += $(BUFFER_MOCK_TESTS) $(BUFFER_UNIT_TESTS) $(BUFFER_XVFB_TESTS)
TESTS += $(BUFFER_MOCK_TESTS) $(BUFFER_UNIT_TESTS) $(BUFFER_XVFB_TESTS)
VALGRIND_TESTS += $(BUFFER_MOCK_TESTS) $(BUFFER_UNIT_TESTS) $(BUFFER_XVFB_TESTS)

tests_util_buffer_mock_SOURCES = tests/util/buffer-mock.c $(BUFFER_TEST_COMMON)
tests_util_buffer_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_buffer_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_buffer_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_util_probe_mock_SOURCES = tests/util/probe-mock.c $(BUFFER_TEST_COMMON)
tests_util_probe_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_probe_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_probe_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_util_device_mock_SOURCES = tests/util/device-mock.c $(BUFFER_TEST_COMMON)
tests_util_device_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_device_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_device_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_util_syncobj_mock_SOURCES = tests/util/syncobj-mock.c $(BUFFER_TEST_COMMON)
tests_util_syncobj_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_syncobj_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_syncobj_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_util_wait_mock_SOURCES = tests/util/wait-mock.c tests/util/event-thread.h \
	$(BUFFER_TEST_COMMON)
tests_util_wait_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_wait_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_wait_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_util_bounded_mock_SOURCES = tests/util/bounded-mock.c tests/util/event-thread.h \
	$(BUFFER_TEST_COMMON)
tests_util_bounded_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_bounded_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_bounded_mock_LDADD = $(BUFFER_TEST_LDADD)

tests_util_error_rule_SOURCES = tests/util/error-rule.c $(BUFFER_TEST_COMMON)
tests_util_error_rule_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_error_rule_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_error_rule_LDADD = $(BUFFER_TEST_LDADD)

tests_util_buffer_unit_SOURCES = tests/util/buffer-unit.c $(BUFFER_TEST_COMMON)
tests_util_buffer_unit_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_buffer_unit_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_buffer_unit_LDADD = $(BUFFER_TEST_LDADD)
tests_util_formats_SOURCES = tests/util/formats.c
tests_util_formats_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_util_formats_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_formats_LDADD = $(DRI3_UTIL_TEST_LDADD)
# GBM and drmSyncobj as far as a machine without a GPU goes; with a
# render node (/dev/dri/renderD*) the same program allocates for real.
tests_util_drm_nodevice_SOURCES = tests/util/drm-nodevice.c
tests_util_drm_nodevice_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS) $(DRI3_UTIL_DRM_CFLAGS) $(GBM_CFLAGS)
tests_util_drm_nodevice_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_drm_nodevice_LDADD = $(DRI3_UTIL_TEST_LDADD) $(GBM_LIBS) $(DRI3_UTIL_DRM_LIBS)
tests_util_probe_xvfb_SOURCES = tests/util/probe-xvfb.c
tests_util_probe_xvfb_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/tools \
	-I$(top_srcdir)/src/present-util
tests_util_probe_xvfb_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_probe_xvfb_LDADD = tools/libxvfb-spawn.la src/libxcb-present-util.la $(DRI3_UTIL_TEST_LDADD)
