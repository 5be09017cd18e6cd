/*
 * What the parts of libXpresent share; nothing here is exported (the
 * library's export list, Xpresent.sym, names the public symbols).
 */
#ifndef XPRESENT_PRIVATE_H
#define XPRESENT_PRIVATE_H

#include <X11/Xlibint.h>
#include <X11/extensions/extutil.h>
#include <X11/extensions/Xpresent.h>
#include <xcb/xcb.h>

/* What we keep per Display.  It starts with libXext's XExtDisplayInfo so
 * that XPresentFindDisplay(), exported for compatibility, returns what
 * libXpresent's callers expect; codes is NULL where the server lacks
 * Present. */
struct xpresent_display {
    XExtDisplayInfo info;
    xcb_connection_t *conn;
};

/* The display's record, made on first use (which asks the server for the
 * extension once).  NULL only when memory runs out. */
struct xpresent_display *xpresent_display_get(Display *dpy);

/* The display's connection when Present is there, else NULL. */
xcb_connection_t *xpresent_connection(Display *dpy);

/* Installed as the extension's cookie converters (xpresent-events.c). */
Bool xpresent_wire_to_cookie(Display *dpy, XGenericEventCookie *cookie, xEvent *wire);
Bool xpresent_copy_cookie(Display *dpy, XGenericEventCookie *in, XGenericEventCookie *out);

/* Exported for binary compatibility with libXpresent, whose .so has them
 * (libXext's extension-registry idiom); they are in no public header.
 * XPresentExtensionInfo is the list of xpresent_display records. */
extern XExtensionInfo XPresentExtensionInfo;
extern const char *XPresentExtensionName;
XExtDisplayInfo *XPresentFindDisplay(Display *dpy);

#endif
