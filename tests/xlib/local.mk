# Tests of libXpresent (src/xlib): against a private Xvfb, against the mock
# server, and against Debian's libXpresent (symbols, ABI, differential).

EXTRA_DIST += tests/xlib/xvfb.h tests/xlib/xlib-util.h

if HAVE_XLIB
XLIB_TEST_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/xlib/include \
	-I$(top_srcdir)/tests/common -I$(top_srcdir)/tests/xlib
XLIB_TEST_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XLIB_CFLAGS) $(XLIB_HEADER_DEPS_CFLAGS)
XLIB_TEST_LDADD = tests/libtestrunner.la src/xlib/libXpresent.la src/libxcb-present.la \
	$(XLIB_LIBS) $(XCB_LIBS)

XLIB_TESTS = tests/xlib/xlib-xvfb
check_PROGRAMS += $(XLIB_TESTS)
TESTS += $(XLIB_TESTS)
VALGRIND_TESTS += $(XLIB_TESTS)

tests_xlib_xlib_xvfb_SOURCES = tests/xlib/xlib-xvfb.c tests/xlib/xlib-util.c \
	tests/xlib/xvfb.c
tests_xlib_xlib_xvfb_CPPFLAGS = $(XLIB_TEST_CPPFLAGS)
tests_xlib_xlib_xvfb_CFLAGS = $(XLIB_TEST_CFLAGS)
tests_xlib_xlib_xvfb_LDADD = $(XLIB_TEST_LDADD)
endif
