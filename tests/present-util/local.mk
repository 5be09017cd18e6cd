# Tests of libxcb-present-util and its programs: against a real Xvfb that
# each test starts (tests/present-util/xvfb-fixture.c) and against the
# mock X server.

PRESENT_UTIL_TEST_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/present-util \
	-I$(top_srcdir)/tests/common -I$(top_srcdir)/tools
PRESENT_UTIL_TEST_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
PRESENT_UTIL_TEST_LDADD = tests/libtestrunner.la src/libxcb-present-util.la \
	src/libxcb-present.la $(XCB_LIBS) -lpthread
PRESENT_UTIL_XVFB_SOURCES = tests/present-util/xvfb-fixture.c \
	tests/present-util/xvfb-fixture.h tests/present-util/swapchain-or-fail.h tests/present-util/lsan-libxcb.c
PRESENT_UTIL_XVFB_LDADD = tests/libtestserver.la $(PRESENT_UTIL_TEST_LDADD)

PRESENT_UTIL_TESTS = tests/present-util/swapchain-modes tests/present-util/swapchain-faults \
	tests/present-util/swapchain-callers tests/present-util/swapchain-clock-xvfb
check_PROGRAMS += $(PRESENT_UTIL_TESTS)
TESTS += $(PRESENT_UTIL_TESTS)
VALGRIND_TESTS += $(PRESENT_UTIL_TESTS)

tests_present_util_swapchain_modes_SOURCES = tests/present-util/swapchain-modes.c \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_present_util_swapchain_modes_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS)
tests_present_util_swapchain_modes_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_modes_LDADD = $(PRESENT_UTIL_XVFB_LDADD)
tests_present_util_swapchain_faults_SOURCES = tests/present-util/swapchain-faults.c \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_present_util_swapchain_faults_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS)
tests_present_util_swapchain_faults_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_faults_LDADD = $(PRESENT_UTIL_XVFB_LDADD)
# The frame clock on a real server's timing.
tests_present_util_swapchain_clock_xvfb_SOURCES = tests/present-util/swapchain-clock-xvfb.c \
	tests/present-util/present-at-check.h \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_present_util_swapchain_clock_xvfb_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS)
tests_present_util_swapchain_clock_xvfb_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_clock_xvfb_LDADD = $(PRESENT_UTIL_XVFB_LDADD)
# Callers as toolkits are: an event thread, a poll loop, a late first
# frame, two swapchains on one window.
tests_present_util_swapchain_callers_SOURCES = tests/present-util/swapchain-callers.c \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_present_util_swapchain_callers_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS) \
	-I$(top_srcdir)/src/dri3-util
tests_present_util_swapchain_callers_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_callers_LDADD = src/libxcb-dri3-util.la $(PRESENT_UTIL_XVFB_LDADD)

# xcb-present-demo's figures (percentiles, its latency lines), no server.
check_PROGRAMS += tests/present-util/demo-figures
TESTS += tests/present-util/demo-figures
tests_present_util_demo_figures_SOURCES = tests/present-util/demo-figures.c \
	tools/percentile.c tools/percentile.h tools/demo-report.c tools/demo-report.h
tests_present_util_demo_figures_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS)
tests_present_util_demo_figures_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_demo_figures_LDADD = $(PRESENT_UTIL_TEST_LDADD)

# The programs, end to end.
TESTS += tests/present-util/demo.sh tests/present-util/info.sh tests/present-util/mock-xdpyinfo.sh
MAN_PAGE_CHECKS += src/.libs/libxcb-present-util.so:man/present-util+src/present-util/man
EXTRA_DIST += tests/present-util/demo.sh tests/present-util/info.sh \
	tests/present-util/json-schema-check.py \
	tests/present-util/mock-xdpyinfo.sh \
	tests/present-util/libxcb.supp

# Against the mock X server, which the test configures.
PRESENT_UTIL_MOCK_TESTS = tests/present-util/swapchain-mock tests/present-util/swapchain-robust \
	tests/present-util/swapchain-lost
check_PROGRAMS += $(PRESENT_UTIL_MOCK_TESTS)
TESTS += $(PRESENT_UTIL_MOCK_TESTS)
VALGRIND_TESTS += $(PRESENT_UTIL_MOCK_TESTS)
PRESENT_UTIL_MOCK_SOURCES = tests/present-util/mock-fixture.c tests/present-util/mock-fixture.h \
	tests/present-util/swapchain-or-fail.h \
	tests/present-util/lsan-libxcb.c
PRESENT_UTIL_MOCK_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock \
	-I$(top_srcdir)/src/dri3-util
PRESENT_UTIL_MOCK_LDADD = mock/libmockserver.la src/libxcb-dri3-util.la \
	$(PRESENT_UTIL_TEST_LDADD)
tests_present_util_swapchain_mock_SOURCES = tests/present-util/swapchain-mock.c \
	$(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_swapchain_mock_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_swapchain_mock_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_mock_LDADD = $(PRESENT_UTIL_MOCK_LDADD)
# Servers and proxies that lose or alter events, stall or stop reading.
tests_present_util_swapchain_robust_SOURCES = tests/present-util/swapchain-robust.c \
	$(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_swapchain_robust_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_swapchain_robust_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_robust_LDADD = $(PRESENT_UTIL_MOCK_LDADD)
# Every event of the frames in flight lost, a 0x0 ConfigureNotify, late
# completions of frames given up by time.
tests_present_util_swapchain_lost_SOURCES = tests/present-util/swapchain-lost.c \
	tests/present-util/debug-capture.h $(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_swapchain_lost_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_swapchain_lost_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_lost_LDADD = $(PRESENT_UTIL_MOCK_LDADD)

# Explicit sync on the mock.  The test builds the swapchain's sources into a
# convenience library of its own, so that it reaches the DRI3 back end's
# hidden seam (src/present-util/timeline-private.h) and puts memfd
# timelines there; the installed library is untouched.
check_LTLIBRARIES += tests/present-util/libswapchain-seams.la
tests_present_util_libswapchain_seams_la_SOURCES = $(src_libxcb_present_util_la_SOURCES)
tests_present_util_libswapchain_seams_la_CPPFLAGS = $(src_libxcb_present_util_la_CPPFLAGS)
tests_present_util_libswapchain_seams_la_CFLAGS = $(src_libxcb_present_util_la_CFLAGS)

PRESENT_UTIL_SEAM_TESTS = tests/present-util/swapchain-synced tests/present-util/swapchain-clock \
	tests/present-util/engine-gl tests/present-util/engine-vulkan tests/present-util/swapchain-gbm \
	tests/present-util/engine-driver
check_PROGRAMS += $(PRESENT_UTIL_SEAM_TESTS)
TESTS += $(PRESENT_UTIL_SEAM_TESTS)
VALGRIND_TESTS += $(PRESENT_UTIL_SEAM_TESTS)
tests_present_util_swapchain_synced_SOURCES = tests/present-util/swapchain-synced.c \
	tests/present-util/memfd-timeline.c tests/present-util/memfd-timeline.h \
	tests/present-util/lsan-libxcb.c
tests_present_util_swapchain_synced_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS) \
	-I$(top_srcdir)/src/dri3-util -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock
tests_present_util_swapchain_synced_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_synced_LDADD = tests/present-util/libswapchain-seams.la \
	mock/libmockserver.la tests/libtestrunner.la src/libxcb-dri3-util.la \
	src/libxcb-present.la src/libxcb-dri3.la $(GBM_LIBS) $(XCB_SHM_LIBS) $(XCB_EXT_DEPS_LIBS) \
	$(XCB_LIBS) -lpthread
# The frame clock (wait_frame, present_at, age, max_latency, LOW_LATENCY,
# fd readiness) on the mock; the seam lets it read LOW_LATENCY's plan.
tests_present_util_swapchain_clock_SOURCES = tests/present-util/swapchain-clock.c \
	tests/present-util/present-at-check.h \
	$(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_swapchain_clock_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_swapchain_clock_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_clock_LDADD = $(tests_present_util_swapchain_synced_LDADD)
# A driver's use of the swapchain, shaped like the two consumers: a GL
# loader (caller images, swap intervals, OML, PRIME) and a Vulkan WSI
# (caller images with explicit sync points, SUBOPTIMAL, -ENODEV).
tests_present_util_engine_gl_SOURCES = tests/present-util/engine-gl.c \
	$(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_engine_gl_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_engine_gl_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_engine_gl_LDADD = $(tests_present_util_swapchain_synced_LDADD)
# The calls a driver makes between frames (throttle, present ids, release,
# mode and interval, status), and caller images on MIT-SHM.
tests_present_util_engine_driver_SOURCES = tests/present-util/engine-driver.c \
	$(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_engine_driver_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_engine_driver_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_engine_driver_LDADD = $(tests_present_util_swapchain_synced_LDADD)
tests_present_util_engine_vulkan_SOURCES = tests/present-util/engine-vulkan.c \
	tests/present-util/memfd-timeline.c tests/present-util/memfd-timeline.h \
	$(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_engine_vulkan_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_engine_vulkan_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_engine_vulkan_LDADD = $(tests_present_util_swapchain_synced_LDADD)
# Where the DRI3 back end's buffers come from: GBM (a stand-in behind the
# back end's seam; real GBM where a render node exists) or memfds, and
# each fallback, on the mock.
tests_present_util_swapchain_gbm_SOURCES = tests/present-util/swapchain-gbm.c \
	tests/present-util/fake-gbm.c tests/present-util/fake-gbm.h \
	tests/present-util/debug-capture.h $(PRESENT_UTIL_MOCK_SOURCES)
tests_present_util_swapchain_gbm_CPPFLAGS = $(PRESENT_UTIL_MOCK_CPPFLAGS)
tests_present_util_swapchain_gbm_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_present_util_swapchain_gbm_LDADD = $(tests_present_util_swapchain_synced_LDADD)
# The render-node tests above, for a machine with a GPU (builds nothing).
EXTRA_DIST += scripts/gpu-check.sh tests/gpu/run-on-device.sh
