# Tests of libXpresent (src/xlib): against a private Xvfb, against the mock
# server, and against Debian's libXpresent (symbols, ABI, differential).

EXTRA_DIST += tests/xlib/xlib-util.h

if HAVE_XLIB
XLIB_TEST_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/xlib/include \
	-I$(top_srcdir)/tests/common -I$(top_srcdir)/tests/xlib -I$(top_srcdir)/tools
XLIB_TEST_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS)
XLIB_TEST_LDADD = tests/libtestserver.la tests/libtestrunner.la src/xlib/libXpresent.la \
	src/libxcb-present.la $(XLIB_LIBS) $(XCB_LIBS)

# The mock server on a display number (mock-display.c), compiled once for
# the tests against our libXpresent and against Debian's: it includes
# neither.  It starts the server with tools/libxvfb-spawn.la.
check_LTLIBRARIES += tests/xlib/libmockdisplay.la
tests_xlib_libmockdisplay_la_SOURCES = tests/xlib/mock-display.c tests/xlib/mock-display.h
tests_xlib_libmockdisplay_la_CPPFLAGS = -D_GNU_SOURCE -I$(top_srcdir)/tools

XLIB_TESTS = tests/xlib/xlib-xvfb
check_PROGRAMS += $(XLIB_TESTS)
TESTS += $(XLIB_TESTS)
VALGRIND_TESTS += $(XLIB_TESTS)

tests_xlib_xlib_xvfb_SOURCES = tests/xlib/xlib-xvfb.c tests/xlib/xlib-util.c
tests_xlib_xlib_xvfb_CPPFLAGS = $(XLIB_TEST_CPPFLAGS)
tests_xlib_xlib_xvfb_CFLAGS = $(XLIB_TEST_CFLAGS)
tests_xlib_xlib_xvfb_LDADD = $(XLIB_TEST_LDADD)

# Against the mock server (mock/), started on a display number.
XLIB_MOCK_TESTS = tests/xlib/xlib-mock
check_PROGRAMS += $(XLIB_MOCK_TESTS)
TESTS += $(XLIB_MOCK_TESTS)
VALGRIND_TESTS += $(XLIB_MOCK_TESTS)
tests_xlib_xlib_mock_SOURCES = tests/xlib/xlib-mock.c
tests_xlib_xlib_mock_CPPFLAGS = $(XLIB_TEST_CPPFLAGS) -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock
tests_xlib_xlib_mock_CFLAGS = $(XLIB_TEST_CFLAGS)
tests_xlib_xlib_mock_LDADD = tests/xlib/libmockdisplay.la mock/libmockserver.la \
	$(XLIB_TEST_LDADD)
EXTRA_tests_xlib_xlib_mock_DEPENDENCIES = mock/mock-x-server

# Threads (XInitThreads) against the mock: XLockDisplay held by another
# thread during a first call, a stalled server beside a working one, racing
# first calls.
check_PROGRAMS += tests/xlib/xlib-threads
TESTS += tests/xlib/xlib-threads
VALGRIND_TESTS += tests/xlib/xlib-threads
tests_xlib_xlib_threads_SOURCES = tests/xlib/xlib-threads.c
tests_xlib_xlib_threads_CPPFLAGS = $(XLIB_TEST_CPPFLAGS)
tests_xlib_xlib_threads_CFLAGS = $(XLIB_TEST_CFLAGS) -pthread
tests_xlib_xlib_threads_LDADD = tests/xlib/libmockdisplay.la $(XLIB_TEST_LDADD)
EXTRA_tests_xlib_xlib_threads_DEPENDENCIES = mock/mock-x-server

# The API: our header alone, pedantic C99, against libXpresent 1.0's
# prototypes (a build failure is a failure), and the 1.4 additions.
check_PROGRAMS += tests/xlib/xpresent-prototypes tests/xlib/xpresent-layout
TESTS += tests/xlib/xpresent-prototypes tests/xlib/symbols.sh tests/xlib/abi-compare.sh
# XPresentFindDisplay is exported for binary compatibility only, as in
# libXpresent, which documents it nowhere either.
MAN_PAGE_CHECKS += src/xlib/.libs/libXpresent.so:src/xlib/man:^XPresentFindDisplay$$
tests_xlib_xpresent_prototypes_SOURCES = tests/xlib/xpresent-prototypes.c
tests_xlib_xpresent_prototypes_CPPFLAGS = -I$(top_srcdir)/src/xlib/include
tests_xlib_xpresent_prototypes_CFLAGS = -std=c99 $(WARN_CFLAGS) -Wpedantic $(XLIB_CFLAGS) \
	$(XLIB_HEADER_DEPS_CFLAGS)
tests_xlib_xpresent_prototypes_LDADD = src/xlib/libXpresent.la
check_PROGRAMS += tests/xlib/xpresent-cplusplus
TESTS += tests/xlib/xpresent-cplusplus
tests_xlib_xpresent_cplusplus_SOURCES = tests/xlib/xpresent-cplusplus.cc
tests_xlib_xpresent_cplusplus_CPPFLAGS = -I$(top_srcdir)/src/xlib/include
tests_xlib_xpresent_cplusplus_CXXFLAGS = -std=c++11 $(WARN_CFLAGS) -Wpedantic $(XLIB_CFLAGS) \
	$(XLIB_HEADER_DEPS_CFLAGS)
tests_xlib_xpresent_cplusplus_LDADD = src/xlib/libXpresent.la
tests_xlib_xpresent_layout_SOURCES = tests/xlib/xpresent-layout.c
tests_xlib_xpresent_layout_CPPFLAGS = -I$(top_srcdir)/src/xlib/include -DPRESENT_FUTURE_VERSION=1
tests_xlib_xpresent_layout_CFLAGS = $(AM_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS)

if HAVE_XPRESENT_REF
# The same layout program against Debian's header (no -I of ours).
check_PROGRAMS += tests/xlib/xpresent-layout-ref
tests_xlib_xpresent_layout_ref_SOURCES = tests/xlib/xpresent-layout.c
tests_xlib_xpresent_layout_ref_CPPFLAGS = $(XPRESENT_REF_CFLAGS) -DPRESENT_FUTURE_VERSION=1
tests_xlib_xpresent_layout_ref_CFLAGS = $(AM_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS)

# The differential test: one session on Xvfb through Debian's libXpresent,
# through ours under Debian's header, and through ours.
check_PROGRAMS += tests/xlib/xlib-diff tests/xlib/xlib-diff-ref
TESTS += tests/xlib/differential.sh
tests_xlib_xlib_diff_SOURCES = tests/xlib/xlib-diff.c $(TEST_CLOCK)
tests_xlib_xlib_diff_CPPFLAGS = -D_GNU_SOURCE -I$(top_srcdir)/src/xlib/include \
	-I$(top_srcdir)/tests/xlib -I$(top_srcdir)/tests/common -I$(top_srcdir)/tools
tests_xlib_xlib_diff_CFLAGS = $(AM_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS)
tests_xlib_xlib_diff_LDADD = src/xlib/libXpresent.la tools/libxvfb-spawn.la $(XLIB_LIBS)
tests_xlib_xlib_diff_ref_SOURCES = tests/xlib/xlib-diff.c $(TEST_CLOCK)
tests_xlib_xlib_diff_ref_CPPFLAGS = -D_GNU_SOURCE $(XPRESENT_REF_CFLAGS) -I$(top_srcdir)/tests/xlib \
	-I$(top_srcdir)/tests/common -I$(top_srcdir)/tools
tests_xlib_xlib_diff_ref_CFLAGS = $(AM_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS)
tests_xlib_xlib_diff_ref_LDADD = $(XPRESENT_REF_LIBS) tools/libxvfb-spawn.la $(XLIB_LIBS)

# The first two thread tests on Debian's libXpresent, which passes them (it
# fails the third: see the source).
check_PROGRAMS += tests/xlib/xlib-threads-ref
TESTS += tests/xlib/xlib-threads-ref
tests_xlib_xlib_threads_ref_SOURCES = tests/xlib/xlib-threads.c
tests_xlib_xlib_threads_ref_CPPFLAGS = -D_GNU_SOURCE -DXPRESENT_REF $(XPRESENT_REF_CFLAGS) \
	-I$(top_srcdir)/tests/common -I$(top_srcdir)/tests/xlib
tests_xlib_xlib_threads_ref_CFLAGS = $(AM_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS) -pthread
tests_xlib_xlib_threads_ref_LDADD = tests/xlib/libmockdisplay.la tools/libxvfb-spawn.la \
	tests/libtestrunner.la $(XPRESENT_REF_LIBS) $(XLIB_LIBS)
EXTRA_tests_xlib_xlib_threads_ref_DEPENDENCIES = mock/mock-x-server
endif
endif
EXTRA_DIST += tests/xlib/symbols.sh tests/xlib/abi-compare.sh tests/xlib/differential.sh
