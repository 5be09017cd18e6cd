# Threads and load: tests that share one connection or fence between
# threads, the ThreadSanitizer list for .ci/run, and the stress script.

# The suite under load, run by hand (see the script); never by make check.
EXTRA_DIST += tests/stress-check.sh

# N threads on one connection to the mock server, with fences and a watcher.
THREAD_TESTS = tests/threads/threads-connection
check_PROGRAMS += $(THREAD_TESTS)
TESTS += $(THREAD_TESTS)
VALGRIND_TESTS += $(THREAD_TESTS)
tests_threads_threads_connection_SOURCES = tests/threads/threads-connection.c \
	tests/dri3-util/fence-test-util.h
tests_threads_threads_connection_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/mock -I$(top_srcdir)/tests/mock \
	-I$(top_srcdir)/tests/dri3-util
tests_threads_threads_connection_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_threads_threads_connection_LDADD = mock/libmockserver.la $(DRI3_UTIL_TEST_LDADD) \
	src/libxcb-dri3.la src/libxcb-present.la $(XCB_EXT_DEPS_LIBS)

# Caller mistakes (dimensions, bad ids) against the mock: clear errors,
# and the connection stays usable.
check_PROGRAMS += tests/threads/caller-mistakes
TESTS += tests/threads/caller-mistakes
VALGRIND_TESTS += tests/threads/caller-mistakes
tests_threads_caller_mistakes_SOURCES = tests/threads/caller-mistakes.c \
	tests/dri3-util/fence-test-util.h
tests_threads_caller_mistakes_CPPFLAGS = $(tests_threads_threads_connection_CPPFLAGS)
tests_threads_caller_mistakes_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_threads_caller_mistakes_LDADD = $(tests_threads_threads_connection_LDADD)

# What .ci/run builds and runs under ThreadSanitizer: the tests with
# threads, and the fence tests (the library's own threads and atomics).
TSAN_TESTS = $(THREAD_TESTS) $(DRI3_UTIL_TESTS)
if HAVE_XSHMFENCE
TSAN_TESTS += tests/dri3-util/fence-interop
endif
TSAN_TESTS += tests/dri3-util/fence-mock
.PHONY: list-tsan-tests
list-tsan-tests:
	@echo $(TSAN_TESTS)

# tests/compat/prefix-install-run.sh runs "make install" in the build tree,
# and libtool relinks libxcb-dri3-util there (it depends on the uninstalled
# libxcb-dri3): for a moment src/.libs has no libxcb-dri3-util.so.0, and a
# test that starts then cannot load it (status 127, seen under make -j8
# check).  So that test runs after all the others.
# (Named through a variable: a literal target would replace automake's own
# rule for that log instead of adding to it.)
PREFIX_INSTALL_LOG = tests/compat/prefix-install-run.sh.log
$(PREFIX_INSTALL_LOG): $(filter-out $(PREFIX_INSTALL_LOG),$(TEST_LOGS))
