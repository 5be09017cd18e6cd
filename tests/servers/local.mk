# The same tests on every real X server that Debian has and that runs
# here without a GPU (tests/common/test-server.h is the table): the
# swapchain's modes and back ends, libXpresent's tests and the programs
# on Xwayland (under weston), Xephyr (nested in Xvfb) and Xorg with the
# dummy driver; what only Xwayland does in xwayland-behaviour.  Xvfb runs
# them as tests/present-util/swapchain-modes and tests/xlib/xlib-xvfb.
# Each program is the Xvfb one built with FIXTURE_SERVER naming its server.

# Runs a TAP script with DISPLAY on a private server of a kind.
check_PROGRAMS += tests/servers/with-server
tests_servers_with_server_SOURCES = tests/servers/with-server.c
tests_servers_with_server_CPPFLAGS = $(TEST_SERVER_CPPFLAGS)
tests_servers_with_server_LDADD = $(TEST_SERVER_LDADD)

SERVER_PROGRAM_TESTS = tests/servers/programs-xwayland.sh tests/servers/programs-xephyr.sh \
	tests/servers/programs-xorg-dummy.sh
TESTS += $(SERVER_PROGRAM_TESTS)
EXTRA_DIST += $(SERVER_PROGRAM_TESTS) tests/servers/programs.sh tests/servers/demo-frame.py
$(SERVER_PROGRAM_TESTS:.sh=.log): tests/servers/with-server tools/xcb-present-demo \
	tools/xcb-dri3-info

SERVER_SWAPCHAIN_TESTS = tests/servers/swapchain-modes-xwayland \
	tests/servers/swapchain-modes-xephyr tests/servers/swapchain-modes-xorg-dummy \
	tests/servers/xwayland-behaviour
check_PROGRAMS += $(SERVER_SWAPCHAIN_TESTS)
TESTS += $(SERVER_SWAPCHAIN_TESTS)

tests_servers_swapchain_modes_xwayland_SOURCES = tests/present-util/swapchain-modes.c \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_servers_swapchain_modes_xwayland_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS) \
	-DFIXTURE_SERVER='"xwayland"'
tests_servers_swapchain_modes_xwayland_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_servers_swapchain_modes_xwayland_LDADD = $(PRESENT_UTIL_XVFB_LDADD)
tests_servers_swapchain_modes_xephyr_SOURCES = tests/present-util/swapchain-modes.c \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_servers_swapchain_modes_xephyr_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS) \
	-DFIXTURE_SERVER='"xephyr"'
tests_servers_swapchain_modes_xephyr_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_servers_swapchain_modes_xephyr_LDADD = $(PRESENT_UTIL_XVFB_LDADD)
tests_servers_swapchain_modes_xorg_dummy_SOURCES = tests/present-util/swapchain-modes.c \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_servers_swapchain_modes_xorg_dummy_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS) \
	-DFIXTURE_SERVER='"xorg-dummy"'
tests_servers_swapchain_modes_xorg_dummy_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_servers_swapchain_modes_xorg_dummy_LDADD = $(PRESENT_UTIL_XVFB_LDADD)
tests_servers_xwayland_behaviour_SOURCES = tests/servers/xwayland-behaviour.c \
	$(PRESENT_UTIL_XVFB_SOURCES)
tests_servers_xwayland_behaviour_CPPFLAGS = $(PRESENT_UTIL_TEST_CPPFLAGS) -I$(top_srcdir)/tests/present-util \
	-DFIXTURE_SERVER='"xwayland"'
tests_servers_xwayland_behaviour_CFLAGS = $(PRESENT_UTIL_TEST_CFLAGS)
tests_servers_xwayland_behaviour_LDADD = $(PRESENT_UTIL_XVFB_LDADD)

if HAVE_XLIB
SERVER_XLIB_TESTS = tests/servers/xlib-xwayland tests/servers/xlib-xephyr \
	tests/servers/xlib-xorg-dummy
check_PROGRAMS += $(SERVER_XLIB_TESTS)
TESTS += $(SERVER_XLIB_TESTS)
tests_servers_xlib_xwayland_SOURCES = tests/xlib/xlib-xvfb.c tests/xlib/xlib-util.c
tests_servers_xlib_xwayland_CPPFLAGS = $(XLIB_TEST_CPPFLAGS) -DFIXTURE_SERVER='"xwayland"'
tests_servers_xlib_xwayland_CFLAGS = $(XLIB_TEST_CFLAGS)
tests_servers_xlib_xwayland_LDADD = $(XLIB_TEST_LDADD)
tests_servers_xlib_xephyr_SOURCES = tests/xlib/xlib-xvfb.c tests/xlib/xlib-util.c
tests_servers_xlib_xephyr_CPPFLAGS = $(XLIB_TEST_CPPFLAGS) -DFIXTURE_SERVER='"xephyr"'
tests_servers_xlib_xephyr_CFLAGS = $(XLIB_TEST_CFLAGS)
tests_servers_xlib_xephyr_LDADD = $(XLIB_TEST_LDADD)
tests_servers_xlib_xorg_dummy_SOURCES = tests/xlib/xlib-xvfb.c tests/xlib/xlib-util.c
tests_servers_xlib_xorg_dummy_CPPFLAGS = $(XLIB_TEST_CPPFLAGS) -DFIXTURE_SERVER='"xorg-dummy"'
tests_servers_xlib_xorg_dummy_CFLAGS = $(XLIB_TEST_CFLAGS)
tests_servers_xlib_xorg_dummy_LDADD = $(XLIB_TEST_LDADD)
endif
