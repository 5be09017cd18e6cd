# The mock X server: a small X server with DRI3 1.4 and Present 1.4 that
# tests, benchmarks and users start (README.md, "The mock X server").  A
# convenience library (built by `make`: the program links it, and so does
# every test that runs a server in a child of its own) and the
# mock-x-server program.  Its own tests are in tests/mock/.

MOCK_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/mock

noinst_LTLIBRARIES += mock/libmockserver.la
mock_libmockserver_la_SOURCES = \
	mock/mock-server.h mock/mock-internal.h \
	mock/mock-core.c mock/mock-output.c mock/mock-record.c \
	mock/mock-setup.c mock/mock-config.c \
	mock/mock-resources.c mock/mock-core-requests.c \
	mock/mock-sync.c mock/mock-dri3.c mock/mock-present.c \
	mock/mock-present-events.c mock/mock-present.h mock/mock-crtc.c \
	mock/mock-present-faults.c \
	mock/mock-child.c mock/mock-socket.c mock/mock-transcript.c \
	mock/mock-core-draw.c mock/mock-shm.c mock/mock-present-modes.c \
	mock/mock-syncobj.c mock/timeline-page.h mock/mock-xfixes.c \
	mock/mock-inproc.c mock/mock-inproc.h
mock_libmockserver_la_CPPFLAGS = $(MOCK_CPPFLAGS) $(DRI3_UTIL_DRM_CFLAGS)
mock_libmockserver_la_LIBADD = $(XCB_LIBS) $(DRI3_UTIL_DRM_LIBS)

noinst_PROGRAMS += mock/mock-x-server
mock_mock_x_server_SOURCES = mock/mock-x-server.c mock/mock-display-claim.c \
	mock/mock-display-claim.h
mock_mock_x_server_CPPFLAGS = $(MOCK_CPPFLAGS)
mock_mock_x_server_LDADD = mock/libmockserver.la $(XCB_LIBS)
