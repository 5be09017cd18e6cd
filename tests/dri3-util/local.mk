# Tests of libxcb-dri3-util (src/dri3-util).
DRI3_UTIL_TEST_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/dri3-util \
	-I$(top_srcdir)/tests/common
DRI3_UTIL_TEST_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
DRI3_UTIL_TEST_LDADD = tests/libtestrunner.la src/libxcb-dri3-util.la $(XCB_LIBS) -lpthread

DRI3_UTIL_TESTS = tests/dri3-util/fence-basic tests/dri3-util/fence-wait tests/dri3-util/fence-watcher \
	tests/dri3-util/fence-conn
DRI3_UTIL_TESTS += tests/dri3-util/fence-rules
check_PROGRAMS += $(DRI3_UTIL_TESTS)
MAN_PAGE_CHECKS += src/.libs/libxcb-dri3-util.so:man/dri3-util+src/dri3-util/man
TESTS += $(DRI3_UTIL_TESTS) tests/dri3-util/no-blocking-waits.sh
VALGRIND_TESTS += $(DRI3_UTIL_TESTS)
EXTRA_DIST += tests/dri3-util/no-blocking-waits.sh \
	tests/dri3-util/fence-test-util.h

tests_dri3_util_fence_basic_SOURCES = tests/dri3-util/fence-basic.c tests/dri3-util/fence-test-util.h
tests_dri3_util_fence_basic_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_dri3_util_fence_basic_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_fence_basic_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_dri3_util_fence_wait_SOURCES = tests/dri3-util/fence-wait.c tests/dri3-util/fence-test-util.h
tests_dri3_util_fence_wait_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_dri3_util_fence_wait_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_fence_wait_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_dri3_util_fence_watcher_SOURCES = tests/dri3-util/fence-watcher.c tests/dri3-util/fence-test-util.h
tests_dri3_util_fence_watcher_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_dri3_util_fence_watcher_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_fence_watcher_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_dri3_util_fence_conn_SOURCES = tests/dri3-util/fence-conn.c tests/dri3-util/fence-test-util.h
tests_dri3_util_fence_conn_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_dri3_util_fence_conn_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_fence_conn_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_dri3_util_fence_rules_SOURCES = tests/dri3-util/fence-rules.c tests/dri3-util/fence-test-util.h
tests_dri3_util_fence_rules_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_dri3_util_fence_rules_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_fence_rules_LDADD = $(DRI3_UTIL_TEST_LDADD)

if HAVE_XSHMFENCE
check_PROGRAMS += tests/dri3-util/fence-interop
TESTS += tests/dri3-util/fence-interop
VALGRIND_TESTS += tests/dri3-util/fence-interop
tests_dri3_util_fence_interop_SOURCES = tests/dri3-util/fence-interop.c tests/dri3-util/fence-test-util.h
tests_dri3_util_fence_interop_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) $(XSHMFENCE_CFLAGS)
tests_dri3_util_fence_interop_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_fence_interop_LDADD = $(DRI3_UTIL_TEST_LDADD) $(XSHMFENCE_LIBS)
endif

# Against the mock X server (mock/).
check_PROGRAMS += tests/dri3-util/fence-mock
TESTS += tests/dri3-util/fence-mock
VALGRIND_TESTS += tests/dri3-util/fence-mock
tests_dri3_util_fence_mock_SOURCES = tests/dri3-util/fence-mock.c tests/dri3-util/fence-test-util.h
tests_dri3_util_fence_mock_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock
tests_dri3_util_fence_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_fence_mock_LDADD = mock/libmockserver.la $(DRI3_UTIL_TEST_LDADD) \
	$(XCB_EXT_DEPS_LIBS)

# Against the mock server, with the end-to-end helpers (tests/e2e).
BUFFER_MOCK_TESTS = tests/dri3-util/buffer-mock tests/dri3-util/probe-mock tests/dri3-util/device-mock \
	tests/dri3-util/syncobj-mock tests/dri3-util/wait-mock tests/dri3-util/bounded-mock tests/dri3-util/error-rule \
	tests/dri3-util/pixmaps-mock tests/dri3-util/formats-mock tests/dri3-util/device-prime
# No server needed.
BUFFER_UNIT_TESTS = tests/dri3-util/buffer-unit tests/dri3-util/formats tests/dri3-util/drm-nodevice \
	tests/dri3-util/formats-visual
# Against Xvfb, a real server without DRI3 (skipped where Xvfb is missing).
BUFFER_XVFB_TESTS = tests/dri3-util/probe-xvfb
# libxcb-present-util too: PresentPixmapSynced lives there, and the error
# rule's test covers both libraries.
BUFFER_TEST_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock \
	-I$(top_srcdir)/tests/e2e -I$(top_srcdir)/src/present-util
BUFFER_TEST_LDADD = mock/libmockserver.la src/libxcb-present-util.la $(DRI3_UTIL_TEST_LDADD) \
	src/libxcb-dri3.la src/libxcb-present.la $(XCB_EXT_DEPS_LIBS)
BUFFER_TEST_COMMON = tests/e2e/e2e-util.c tests/e2e/e2e-util.h tests/dri3-util/buffer-test-util.h

check_PROGRAMS += $(BUFFER_MOCK_TESTS) $(BUFFER_UNIT_TESTS) $(BUFFER_XVFB_TESTS)
TESTS += $(BUFFER_MOCK_TESTS) $(BUFFER_UNIT_TESTS) $(BUFFER_XVFB_TESTS)
VALGRIND_TESTS += $(BUFFER_MOCK_TESTS) $(BUFFER_UNIT_TESTS) $(BUFFER_XVFB_TESTS)

tests_dri3_util_buffer_mock_SOURCES = tests/dri3-util/buffer-mock.c $(BUFFER_TEST_COMMON)
tests_dri3_util_buffer_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_buffer_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_buffer_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_probe_mock_SOURCES = tests/dri3-util/probe-mock.c $(BUFFER_TEST_COMMON)
tests_dri3_util_probe_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_probe_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_probe_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_device_mock_SOURCES = tests/dri3-util/device-mock.c $(BUFFER_TEST_COMMON)
tests_dri3_util_device_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_device_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_device_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_pixmaps_mock_SOURCES = tests/dri3-util/pixmaps-mock.c $(BUFFER_TEST_COMMON)
tests_dri3_util_pixmaps_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_pixmaps_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_pixmaps_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_formats_mock_SOURCES = tests/dri3-util/formats-mock.c $(BUFFER_TEST_COMMON)
tests_dri3_util_formats_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_formats_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_formats_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_device_prime_SOURCES = tests/dri3-util/device-prime.c $(BUFFER_TEST_COMMON)
tests_dri3_util_device_prime_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_device_prime_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_device_prime_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_syncobj_mock_SOURCES = tests/dri3-util/syncobj-mock.c $(BUFFER_TEST_COMMON)
tests_dri3_util_syncobj_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_syncobj_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_syncobj_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_wait_mock_SOURCES = tests/dri3-util/wait-mock.c tests/dri3-util/event-thread.h \
	$(BUFFER_TEST_COMMON)
tests_dri3_util_wait_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_wait_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_wait_mock_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_bounded_mock_SOURCES = tests/dri3-util/bounded-mock.c tests/dri3-util/event-thread.h \
	$(BUFFER_TEST_COMMON)
tests_dri3_util_bounded_mock_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_bounded_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_bounded_mock_LDADD = $(BUFFER_TEST_LDADD)

tests_dri3_util_error_rule_SOURCES = tests/dri3-util/error-rule.c $(BUFFER_TEST_COMMON)
tests_dri3_util_error_rule_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_error_rule_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_error_rule_LDADD = $(BUFFER_TEST_LDADD)

tests_dri3_util_buffer_unit_SOURCES = tests/dri3-util/buffer-unit.c $(BUFFER_TEST_COMMON)
tests_dri3_util_buffer_unit_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_buffer_unit_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_buffer_unit_LDADD = $(BUFFER_TEST_LDADD)
tests_dri3_util_formats_SOURCES = tests/dri3-util/formats.c
tests_dri3_util_formats_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_formats_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_formats_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_dri3_util_formats_visual_SOURCES = tests/dri3-util/formats-visual.c
tests_dri3_util_formats_visual_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS)
tests_dri3_util_formats_visual_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_formats_visual_LDADD = $(DRI3_UTIL_TEST_LDADD)
# GBM and drmSyncobj as far as a machine without a GPU goes; with a
# render node (/dev/dri/renderD*) the same program allocates for real.
tests_dri3_util_drm_nodevice_SOURCES = tests/dri3-util/drm-nodevice.c
tests_dri3_util_drm_nodevice_CPPFLAGS = $(BUFFER_TEST_CPPFLAGS) $(DRI3_UTIL_DRM_CFLAGS) $(GBM_CFLAGS)
tests_dri3_util_drm_nodevice_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_drm_nodevice_LDADD = $(DRI3_UTIL_TEST_LDADD) $(GBM_LIBS) $(DRI3_UTIL_DRM_LIBS)
tests_dri3_util_probe_xvfb_SOURCES = tests/dri3-util/probe-xvfb.c
tests_dri3_util_probe_xvfb_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/tools \
	-I$(top_srcdir)/src/present-util
tests_dri3_util_probe_xvfb_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_dri3_util_probe_xvfb_LDADD = tools/libxvfb-spawn.la src/libxcb-present-util.la $(DRI3_UTIL_TEST_LDADD)
