# Soak (tests/soak/soak-present.c): long runs that check that nothing grows.
# Not part of `make check` (minutes, not seconds); `make soak` runs it and
# writes tests/soak/soak-test-suite.log with automake-style counts, which
# .ci/run adds to its summary. SOAK_IMMEDIATE_FRAMES and SOAK_FIFO_FRAMES
# choose the lengths (README of the test: its header comment).
check_PROGRAMS += tests/soak/soak-present
tests_soak_soak_present_SOURCES = tests/soak/soak-present.c
tests_soak_soak_present_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE \
	-I$(top_srcdir)/src/present-util -I$(top_srcdir)/tests/common -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock \
	-I$(top_srcdir)/tests/present-util
tests_soak_soak_present_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
tests_soak_soak_present_LDADD = mock/libmockserver.la tests/libtestrunner.la \
	src/libxcb-present-util.la src/libxcb-present.la $(XCB_EXT_DEPS_LIBS) $(XCB_LIBS) \
	-lpthread
EXTRA_DIST += tests/soak/run-soak.sh

# Each test has up to SOAK_TIMEOUT seconds (the runner's TEST_TIMEOUT).
SOAK_TIMEOUT = 3600
soak: tests/soak/soak-present
	TEST_TIMEOUT='$(SOAK_TIMEOUT)' $(SHELL) $(top_srcdir)/tests/soak/run-soak.sh \
		tests/soak/soak-present tests/soak/soak-test-suite.log

.PHONY: soak
