# libxcb-dri3-util: futex-page fences (see src/util/xcb_dri3_util.h).
#
# Inside the project the header is included as "xcb_dri3_util.h", found
# through -I$(top_srcdir)/src/util; installed, it is <xcb/xcb_dri3_util.h>.

lib_LTLIBRARIES += src/libxcb-dri3-util.la
src_libxcb_dri3_util_la_SOURCES = \
	src/util/xcb_dri3_util.h src/util/fence-private.h src/util/futex.h \
	src/util/deadline.h src/util/futex.c src/util/fence.c src/util/fence-wait.c \
	src/util/fence-conn.c src/util/fence-watcher.c src/util/fence-server.c \
	src/util/xcb_dri3_util_wait.h src/util/wait-private.h src/util/wait.c \
	src/util/wait-conn.c
src_libxcb_dri3_util_la_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/util
src_libxcb_dri3_util_la_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
src_libxcb_dri3_util_la_LIBADD = src/libxcb-dri3.la $(XCB_LIBS) -lpthread
src_libxcb_dri3_util_la_LDFLAGS = -version-info 0:0:0 -no-undefined \
	-export-symbols-regex '^xcb_dri3_util_'

dri3utilincludedir = $(includedir)/xcb
dri3utilinclude_HEADERS = src/util/xcb_dri3_util.h src/util/xcb_dri3_util_wait.h \
	src/util/xcb_dri3_util_fence.h src/util/xcb_dri3_util_buffer.h src/util/xcb_dri3_util_sync.h

pkgconfig_DATA += pkgconfig/xcb-dri3-util.pc
EXTRA_DIST += pkgconfig/xcb-dri3-util.pc.in

DRI3_UTIL_MAN_PAGES = \
	src/util/man/xcb_dri3_util_fence_create.3 \
	src/util/man/xcb_dri3_util_fence_import.3 \
	src/util/man/xcb_dri3_util_fence_trigger.3 \
	src/util/man/xcb_dri3_util_fence_reset.3 \
	src/util/man/xcb_dri3_util_fence_is_triggered.3 \
	src/util/man/xcb_dri3_util_fence_fd.3 \
	src/util/man/xcb_dri3_util_fence_destroy.3 \
	src/util/man/xcb_dri3_util_fence_wait.3 \
	src/util/man/xcb_dri3_util_fence_wait_many.3 \
	src/util/man/xcb_dri3_util_fence_wait_conn.3 \
	src/util/man/xcb_dri3_util_fence_to_server.3 \
	src/util/man/xcb_dri3_util_fence_from_server.3 \
	src/util/man/xcb_dri3_util_fence_watcher_create.3 \
	src/util/man/xcb_dri3_util_fence_watcher_fd.3 \
	src/util/man/xcb_dri3_util_fence_watcher_add.3 \
	src/util/man/xcb_dri3_util_fence_watcher_remove.3 \
	src/util/man/xcb_dri3_util_fence_watcher_collect.3 \
	src/util/man/xcb_dri3_util_fence_watcher_destroy.3 \
	src/util/man/xcb_dri3_util_set_timeout.3 \
	src/util/man/xcb_dri3_util_timeout.3 \
	src/util/man/xcb_dri3_util_wait_reply.3 \
	src/util/man/xcb_dri3_util_wait_void.3 \
	src/util/man/xcb_dri3_util_deadline.3 \
	src/util/man/xcb_dri3_util_wait_scope_push.3 \
	src/util/man/xcb_dri3_util_wait_scope_pop.3 \
	src/util/man/xcb_dri3_util_collect_abandoned.3
# Installed as data: Makefile.am already owns man3dir for the generated pages.
dri3utilmandir = $(mandir)/man3
dist_dri3utilman_DATA = $(DRI3_UTIL_MAN_PAGES)

# ---- tests

DRI3_UTIL_TEST_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/src/util \
	-I$(top_srcdir)/tests/common
DRI3_UTIL_TEST_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) -pthread
DRI3_UTIL_TEST_LDADD = tests/libtestrunner.la src/libxcb-dri3-util.la $(XCB_LIBS) -lpthread

DRI3_UTIL_TESTS = tests/util/fence-basic tests/util/fence-wait tests/util/fence-watcher \
	tests/util/fence-conn
DRI3_UTIL_TESTS += tests/util/fence-rules
check_PROGRAMS += $(DRI3_UTIL_TESTS)
MAN_PAGE_CHECKS += src/.libs/libxcb-dri3-util.so:src/util/man
TESTS += $(DRI3_UTIL_TESTS) tests/util/no-blocking-waits.sh
VALGRIND_TESTS += $(DRI3_UTIL_TESTS)
EXTRA_DIST += tests/util/no-blocking-waits.sh \
	tests/util/fence-test-util.h

tests_util_fence_basic_SOURCES = tests/util/fence-basic.c tests/util/fence-test-util.h
tests_util_fence_basic_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_util_fence_basic_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_fence_basic_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_util_fence_wait_SOURCES = tests/util/fence-wait.c tests/util/fence-test-util.h
tests_util_fence_wait_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_util_fence_wait_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_fence_wait_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_util_fence_watcher_SOURCES = tests/util/fence-watcher.c tests/util/fence-test-util.h
tests_util_fence_watcher_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_util_fence_watcher_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_fence_watcher_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_util_fence_conn_SOURCES = tests/util/fence-conn.c tests/util/fence-test-util.h
tests_util_fence_conn_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_util_fence_conn_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_fence_conn_LDADD = $(DRI3_UTIL_TEST_LDADD)
tests_util_fence_rules_SOURCES = tests/util/fence-rules.c tests/util/fence-test-util.h
tests_util_fence_rules_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS)
tests_util_fence_rules_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_fence_rules_LDADD = $(DRI3_UTIL_TEST_LDADD)

if HAVE_XSHMFENCE
check_PROGRAMS += tests/util/fence-interop
TESTS += tests/util/fence-interop
VALGRIND_TESTS += tests/util/fence-interop
tests_util_fence_interop_SOURCES = tests/util/fence-interop.c tests/util/fence-test-util.h
tests_util_fence_interop_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) $(XSHMFENCE_CFLAGS)
tests_util_fence_interop_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_fence_interop_LDADD = $(DRI3_UTIL_TEST_LDADD) $(XSHMFENCE_LIBS)
endif

# Against the mock X server (tests/mock).
check_PROGRAMS += tests/util/fence-mock
TESTS += tests/util/fence-mock
VALGRIND_TESTS += tests/util/fence-mock
tests_util_fence_mock_SOURCES = tests/util/fence-mock.c tests/util/fence-test-util.h
tests_util_fence_mock_CPPFLAGS = $(DRI3_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/tests/mock
tests_util_fence_mock_CFLAGS = $(DRI3_UTIL_TEST_CFLAGS)
tests_util_fence_mock_LDADD = tests/mock/libmockserver.la $(DRI3_UTIL_TEST_LDADD) \
	$(XCB_EXT_DEPS_LIBS)
