# libXpresent: the Xlib binding of Present, over our libxcb-present.
#
# It links libX11, libX11-xcb and libxcb-present only; the libXext, Xfixes
# and Xrandr packages are needed for the headers that <X11/extensions/
# Xpresent.h> includes (as libXpresent's does), not for linking.

XPRESENT_MAN_PAGES = \
	src/xlib/man/Xpresent.3 \
	src/xlib/man/XPresentQueryExtension.3 \
	src/xlib/man/XPresentQueryVersion.3 \
	src/xlib/man/XPresentVersion.3 \
	src/xlib/man/XPresentQueryCapabilities.3 \
	src/xlib/man/XPresentPixmap.3 \
	src/xlib/man/XPresentPixmapSynced.3 \
	src/xlib/man/XPresentNotifyMSC.3 \
	src/xlib/man/XPresentSelectInput.3 \
	src/xlib/man/XPresentFreeInput.3
XPRESENT_SOURCES = \
	src/xlib/xpresent-private.h src/xlib/xpresent-display.c \
	src/xlib/xpresent-events.c src/xlib/xpresent-requests.c
XPRESENT_HEADER = src/xlib/include/X11/extensions/Xpresent.h
EXTRA_DIST += src/xlib/Xpresent.sym pkgconfig/xpresent.pc.in

if HAVE_XLIB
lib_LTLIBRARIES += src/xlib/libXpresent.la
src_xlib_libXpresent_la_SOURCES = $(XPRESENT_SOURCES)
# PRESENT_FUTURE_VERSION: the library decodes RedirectNotify too, for the
# programs that select it with the same switch.
src_xlib_libXpresent_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/xlib/include \
	-DPRESENT_FUTURE_VERSION=1
src_xlib_libXpresent_la_CFLAGS = $(AM_CFLAGS) $(XCB_EXT_DEPS_CFLAGS) $(XLIB_CFLAGS) \
	$(XLIB_HEADER_DEPS_CFLAGS) -pthread
src_xlib_libXpresent_la_LIBADD = src/libxcb-present.la $(XLIB_LIBS) $(XCB_LIBS)
# soname libXpresent.so.1, like libXpresent's; only the API is exported.
src_xlib_libXpresent_la_LDFLAGS = -version-info 1:0:0 -no-undefined \
	-export-symbols $(top_srcdir)/src/xlib/Xpresent.sym
EXTRA_src_xlib_libXpresent_la_DEPENDENCIES = $(top_srcdir)/src/xlib/Xpresent.sym

xpresentincludedir = $(includedir)/X11/extensions
xpresentinclude_HEADERS = $(XPRESENT_HEADER)
pkgconfig_DATA += pkgconfig/xpresent.pc

# Installed as data: Makefile.am already owns man3dir for the generated pages.
xpresentmandir = $(mandir)/man3
dist_xpresentman_DATA = $(XPRESENT_MAN_PAGES)
else
EXTRA_DIST += $(XPRESENT_SOURCES) $(XPRESENT_HEADER) $(XPRESENT_MAN_PAGES)
endif
