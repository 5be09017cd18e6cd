# The mock X server: a convenience library (built by `make`, since the
# program links it too), the mock-x-server program and its smoke test.

MOCK_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/tests/mock -I$(top_srcdir)/tests/common

noinst_LTLIBRARIES += tests/mock/libmockserver.la
tests_mock_libmockserver_la_SOURCES = \
	tests/mock/mock-server.h tests/mock/mock-internal.h \
	tests/mock/mock-core.c tests/mock/mock-output.c tests/mock/mock-record.c \
	tests/mock/mock-setup.c tests/mock/mock-config.c \
	tests/mock/mock-resources.c tests/mock/mock-core-requests.c \
	tests/mock/mock-sync.c tests/mock/mock-dri3.c tests/mock/mock-present.c \
	tests/mock/mock-present-events.c tests/mock/mock-present.h tests/mock/mock-crtc.c \
	tests/mock/mock-present-faults.c \
	tests/mock/mock-child.c tests/mock/mock-socket.c tests/mock/mock-transcript.c \
	tests/mock/mock-core-draw.c tests/mock/mock-shm.c tests/mock/mock-present-modes.c \
	tests/mock/mock-syncobj.c tests/mock/timeline-page.h tests/mock/mock-xfixes.c \
	$(TEST_CLOCK)
tests_mock_libmockserver_la_CPPFLAGS = $(MOCK_CPPFLAGS) $(DRI3_UTIL_DRM_CFLAGS)
tests_mock_libmockserver_la_LIBADD = $(XCB_LIBS) $(DRI3_UTIL_DRM_LIBS)

# How the tests begin a session with the mock (test-side, header only).
EXTRA_DIST += tests/mock/mock-session.h

noinst_PROGRAMS += tests/mock/mock-x-server
tests_mock_mock_x_server_SOURCES = tests/mock/mock-x-server.c tests/mock/mock-display-claim.c \
	tests/mock/mock-display-claim.h
tests_mock_mock_x_server_CPPFLAGS = $(MOCK_CPPFLAGS)
tests_mock_mock_x_server_LDADD = tests/mock/libmockserver.la $(XCB_LIBS)

check_PROGRAMS += tests/mock/mock-smoke
TESTS += tests/mock/mock-smoke
tests_mock_mock_smoke_SOURCES = tests/mock/mock-smoke.c
tests_mock_mock_smoke_CPPFLAGS = $(MOCK_CPPFLAGS)
tests_mock_mock_smoke_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS)
tests_mock_mock_smoke_LDADD = tests/mock/libmockserver.la tests/libtestrunner.la \
	$(XCB_EXT_DEPS_LIBS) $(XCB_LIBS)

# mock-x-server --displayfd: servers started at once get different numbers.
check_PROGRAMS += tests/mock/displayfd-race
TESTS += tests/mock/displayfd-race
tests_mock_displayfd_race_SOURCES = tests/mock/displayfd-race.c
tests_mock_displayfd_race_CPPFLAGS = $(MOCK_CPPFLAGS) -I$(top_srcdir)/tests/common \
	-I$(top_srcdir)/tools
tests_mock_displayfd_race_LDADD = tools/libxvfb-spawn.la tests/libtestrunner.la $(XCB_LIBS)
EXTRA_tests_mock_displayfd_race_DEPENDENCIES = tests/mock/mock-x-server
