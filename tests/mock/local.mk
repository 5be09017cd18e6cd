# The mock X server's own tests (the server itself is in mock/).

MOCK_TEST_CPPFLAGS = $(MOCK_CPPFLAGS) -I$(top_srcdir)/tests/mock -I$(top_srcdir)/tests/common

# How the tests begin a session with the mock (test-side, header only).
EXTRA_DIST += tests/mock/mock-session.h

check_PROGRAMS += tests/mock/mock-smoke
TESTS += tests/mock/mock-smoke
tests_mock_mock_smoke_SOURCES = tests/mock/mock-smoke.c
tests_mock_mock_smoke_CPPFLAGS = $(MOCK_TEST_CPPFLAGS)
tests_mock_mock_smoke_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS)
tests_mock_mock_smoke_LDADD = mock/libmockserver.la tests/libtestrunner.la \
	$(XCB_EXT_DEPS_LIBS) $(XCB_LIBS)

# mock-x-server --displayfd: servers started at once get different numbers.
check_PROGRAMS += tests/mock/displayfd-race
TESTS += tests/mock/displayfd-race
tests_mock_displayfd_race_SOURCES = tests/mock/displayfd-race.c
tests_mock_displayfd_race_CPPFLAGS = $(MOCK_TEST_CPPFLAGS) -I$(top_srcdir)/tools
tests_mock_displayfd_race_LDADD = tools/libxvfb-spawn.la tests/libtestrunner.la $(XCB_LIBS)
EXTRA_tests_mock_displayfd_race_DEPENDENCIES = mock/mock-x-server
