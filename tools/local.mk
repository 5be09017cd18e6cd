# The installed programs: xcb-present-demo (an animated window presented on
# vblank through libxcb-present-util) and xcb-dri3-info (what the server
# offers).  Both start an Xvfb of their own when DISPLAY is not set.

TOOLS_CPPFLAGS = $(AM_CPPFLAGS) -D_GNU_SOURCE -I$(top_srcdir)/tools \
	-I$(top_srcdir)/src/present-util -I$(top_srcdir)/src/dri3-util

# Starting a server that picks its own display (Xvfb -displayfd, the mock's
# --displayfd) and stopping it by PID: compiled once, linked by the
# programs, the benchmark and the tests that need a server.  Built by
# `make`, since installed programs link it.
noinst_LTLIBRARIES += tools/libxvfb-spawn.la
tools_libxvfb_spawn_la_SOURCES = tools/xvfb-spawn.c tools/xvfb-spawn.h \
	tools/displayfd-spawn.c tools/displayfd-spawn.h tools/child-stop.c tools/child-stop.h
tools_libxvfb_spawn_la_CPPFLAGS = -D_GNU_SOURCE

bin_PROGRAMS += tools/xcb-present-demo
tools_xcb_present_demo_SOURCES = tools/xcb-present-demo.c tools/clock.h tools/demo-report.c \
	tools/demo-report.h tools/percentile.c tools/percentile.h tools/png-write.c \
	tools/png-write.h
tools_xcb_present_demo_CPPFLAGS = $(TOOLS_CPPFLAGS)
tools_xcb_present_demo_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS)
# libxcb-dri3-util for its bounded wait (the screenshot's GetImage).
tools_xcb_present_demo_LDADD = tools/libxvfb-spawn.la src/libxcb-present-util.la \
	src/libxcb-dri3-util.la src/libxcb-present.la $(XCB_LIBS)

# What xcb-dri3-info --json prints, as a JSON schema (draft 2020-12),
# installed for scripts that read it; the tests validate the program's
# output on every server they have against it.
toolsschemadir = $(datadir)/$(PACKAGE)
dist_toolsschema_DATA = tools/xcb-dri3-info.schema.json

bin_PROGRAMS += tools/xcb-dri3-info
tools_xcb_dri3_info_SOURCES = tools/xcb-dri3-info.c tools/info-report.c tools/info-report.h \
	tools/info-names.c tools/info-names.h
tools_xcb_dri3_info_CPPFLAGS = $(TOOLS_CPPFLAGS)
tools_xcb_dri3_info_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS)
# The probe, the device, modifiers and names: libxcb-dri3-util's own.
# RandR: whether the server is Xwayland (its output names).
tools_xcb_dri3_info_LDADD = tools/libxvfb-spawn.la src/libxcb-dri3-util.la src/libxcb-dri3.la \
	src/libxcb-present.la $(XCB_EXT_DEPS_LIBS) $(XCB_LIBS)
