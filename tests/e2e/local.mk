# The end-to-end suite: our generated libraries over a real socket to the
# mock X server (mock/), one mock per test.  Plus the differential
# check, one program built against our libraries and against Debian's.

E2E_TESTS = tests/e2e/e2e-dri3 tests/e2e/e2e-present tests/e2e/e2e-roundtrip \
	tests/e2e/e2e-timing tests/e2e/e2e-faults
E2E_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/tests/common \
	-I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock
E2E_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
E2E_LDADD = tests/e2e/libe2e.la tests/libtestrunner.la mock/libmockserver.la \
	src/libxcb-dri3.la src/libxcb-present.la $(XCB_EXT_DEPS_LIBS) $(XCB_LIBS) -lpthread

# The helpers are compiled once, into a convenience library; each test is
# one source file with the group's flags.
check_LTLIBRARIES += tests/e2e/libe2e.la
tests_e2e_libe2e_la_SOURCES = tests/e2e/e2e-util.c tests/e2e/e2e-util.h
tests_e2e_libe2e_la_CPPFLAGS = $(E2E_CPPFLAGS)
tests_e2e_libe2e_la_CFLAGS = $(E2E_CFLAGS)

check_PROGRAMS += $(E2E_TESTS)
TESTS += $(E2E_TESTS)
# Not e2e-timing: it needs each frame turned around within one 60 Hz
# vblank, which memcheck's slowdown cannot promise on a loaded machine.
VALGRIND_TESTS += tests/e2e/e2e-dri3 tests/e2e/e2e-present tests/e2e/e2e-roundtrip \
	tests/e2e/e2e-faults
tests_e2e_e2e_dri3_SOURCES = tests/e2e/e2e-dri3.c
tests_e2e_e2e_present_SOURCES = tests/e2e/e2e-present.c
tests_e2e_e2e_roundtrip_SOURCES = tests/e2e/e2e-roundtrip.c
tests_e2e_e2e_timing_SOURCES = tests/e2e/e2e-timing.c
tests_e2e_e2e_faults_SOURCES = tests/e2e/e2e-faults.c
tests_e2e_e2e_dri3_CPPFLAGS = $(E2E_CPPFLAGS)
tests_e2e_e2e_present_CPPFLAGS = $(E2E_CPPFLAGS)
tests_e2e_e2e_roundtrip_CPPFLAGS = $(E2E_CPPFLAGS)
tests_e2e_e2e_timing_CPPFLAGS = $(E2E_CPPFLAGS)
tests_e2e_e2e_faults_CPPFLAGS = $(E2E_CPPFLAGS)
tests_e2e_e2e_dri3_CFLAGS = $(E2E_CFLAGS)
tests_e2e_e2e_present_CFLAGS = $(E2E_CFLAGS)
tests_e2e_e2e_roundtrip_CFLAGS = $(E2E_CFLAGS)
tests_e2e_e2e_timing_CFLAGS = $(E2E_CFLAGS)
tests_e2e_e2e_faults_CFLAGS = $(E2E_CFLAGS)
tests_e2e_e2e_dri3_LDADD = $(E2E_LDADD)
tests_e2e_e2e_present_LDADD = $(E2E_LDADD)
tests_e2e_e2e_roundtrip_LDADD = $(E2E_LDADD)
tests_e2e_e2e_timing_LDADD = $(E2E_LDADD)
tests_e2e_e2e_faults_LDADD = $(E2E_LDADD)

EXTRA_DIST += tests/e2e/differential.sh

if HAVE_REF
# diff-calls against our libraries and against Debian's; the -ref build
# leaves out $(AM_CPPFLAGS), so <xcb/dri3.h> and <xcb/present.h> are the
# system's.
check_PROGRAMS += tests/e2e/diff-calls tests/e2e/diff-calls-ref
TESTS += tests/e2e/differential.sh
DIFF_CPPFLAGS = -D_GNU_SOURCE -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock
DIFF_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS)
tests_e2e_diff_calls_SOURCES = tests/e2e/diff-calls.c
tests_e2e_diff_calls_CPPFLAGS = $(AM_CPPFLAGS) $(DIFF_CPPFLAGS)
tests_e2e_diff_calls_CFLAGS = $(DIFF_CFLAGS)
tests_e2e_diff_calls_LDADD = mock/libmockserver.la src/libxcb-dri3.la \
	src/libxcb-present.la $(XCB_EXT_DEPS_LIBS) $(XCB_LIBS)
tests_e2e_diff_calls_ref_SOURCES = tests/e2e/diff-calls.c
tests_e2e_diff_calls_ref_CPPFLAGS = $(DIFF_CPPFLAGS)
tests_e2e_diff_calls_ref_CFLAGS = $(DIFF_CFLAGS) $(REF_CFLAGS)
tests_e2e_diff_calls_ref_LDADD = mock/libmockserver.la $(REF_LIBS) \
	$(XCB_EXT_DEPS_LIBS) $(XCB_LIBS)
endif

# The mock started by hand, as `mock-x-server --displayfd 3`, and a plain
# libxcb client that finds it through $DISPLAY.  The client is built against
# libxcb's own extension libraries where they are installed: "a client of
# anyone's".
check_PROGRAMS += tests/e2e/any-client
TESTS += tests/e2e/by-hand.sh
EXTRA_DIST += tests/e2e/by-hand.sh
tests_e2e_any_client_SOURCES = tests/e2e/any-client.c
if HAVE_REF
tests_e2e_any_client_CPPFLAGS = -D_GNU_SOURCE
tests_e2e_any_client_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(REF_CFLAGS)
tests_e2e_any_client_LDADD = $(REF_LIBS) $(XCB_LIBS)
else
tests_e2e_any_client_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE
tests_e2e_any_client_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS)
tests_e2e_any_client_LDADD = src/libxcb-dri3.la src/libxcb-present.la $(XCB_LIBS)
endif
