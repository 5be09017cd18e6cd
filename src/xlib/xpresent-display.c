/*
 * The per-Display record: whether the server has Present, its codes, the
 * XCB connection under the Display, and the hooks that free the record
 * when the Display closes and decode Present's events.
 */
#include "xpresent-private.h"

#include <X11/Xlib-xcb.h>
#include <pthread.h>
#include <stdlib.h>

XExtensionInfo XPresentExtensionInfo;
const char *XPresentExtensionName = PRESENT_NAME;

/* Guards XPresentExtensionInfo, and nothing else: it is held only to read
 * or change the list, never across a call into Xlib or libxcb.  Holding it
 * across XInitExtension() deadlocked against a thread that held the
 * Display's lock (XLockDisplay) and called us, and let one stalled server
 * block every other Display's first call.
 *
 * Lock order: the Display's lock, then registry_lock (the close hook runs
 * inside XCloseDisplay; xpresent_display_get() inserts with the Display
 * locked).  Nothing takes them the other way round. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static struct xpresent_display *lookup_locked(Display *dpy)
{
    XExtensionInfo *reg = &XPresentExtensionInfo;
    if (reg->cur && reg->cur->display == dpy)
        return (struct xpresent_display *)reg->cur;
    for (XExtDisplayInfo *i = reg->head; i; i = i->next) {
        if (i->display == dpy) {
            reg->cur = i;
            return (struct xpresent_display *)i;
        }
    }
    return NULL;
}

static int close_display(Display *dpy, XExtCodes *codes)
{
    (void)codes;
    pthread_mutex_lock(&registry_lock);
    XExtensionInfo *reg = &XPresentExtensionInfo;
    for (XExtDisplayInfo **p = &reg->head; *p; p = &(*p)->next) {
        if ((*p)->display == dpy) {
            XExtDisplayInfo *gone = *p;
            *p = gone->next;
            if (reg->cur == gone)
                reg->cur = NULL;
            reg->ndisplays--;
            free(gone);
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return 0;
}

/* Asks the server (through Xlib, which then knows the extension's name for
 * its error messages) and installs the hooks. */
static struct xpresent_display *create(Display *dpy)
{
    struct xpresent_display *d = calloc(1, sizeof(*d));
    if (!d)
        return NULL;
    d->info.display = dpy;
    d->conn = XGetXCBConnection(dpy);
    XExtCodes *codes = XInitExtension(dpy, PRESENT_NAME);
    if (codes) {
        d->info.codes = codes;
        XESetWireToEventCookie(dpy, codes->major_opcode, xpresent_wire_to_cookie);
        XESetCopyEventCookie(dpy, codes->major_opcode, xpresent_copy_cookie);
    } else {
        /* Without Present we still need a slot for the close hook. */
        codes = XAddExtension(dpy);
        if (!codes) {
            free(d);
            return NULL;
        }
    }
    XESetCloseDisplay(dpy, codes->extension, close_display);
    return d;
}

static struct xpresent_display *lookup(Display *dpy)
{
    pthread_mutex_lock(&registry_lock);
    struct xpresent_display *d = lookup_locked(dpy);
    pthread_mutex_unlock(&registry_lock);
    return d;
}

static void insert(struct xpresent_display *d)
{
    pthread_mutex_lock(&registry_lock);
    XExtensionInfo *reg = &XPresentExtensionInfo;
    d->info.next = reg->head;
    reg->head = &d->info;
    reg->cur = &d->info;
    reg->ndisplays++;
    pthread_mutex_unlock(&registry_lock);
}

/* The first call on a Display makes its record under the Display's own
 * lock, which XInitExtension() takes anyway: two first calls on one Display
 * make one record (the second finds the first's once it gets the lock),
 * and a thread that already holds the lock through XLockDisplay() takes it
 * again (Xlib's user lock counts per thread) instead of waiting for a
 * thread that waits for it.  First calls on other Displays do not wait at
 * all.  Without XInitThreads() the lock is a no-op, and so is the race. */
struct xpresent_display *xpresent_display_get(Display *dpy)
{
    struct xpresent_display *d = lookup(dpy);
    if (d)
        return d;
    XLockDisplay(dpy);
    d = lookup(dpy);
    if (!d) {
        d = create(dpy);
        if (d)
            insert(d);
    }
    XUnlockDisplay(dpy);
    return d;
}

xcb_connection_t *xpresent_connection(Display *dpy)
{
    struct xpresent_display *d = xpresent_display_get(dpy);
    return d && d->info.codes ? d->conn : NULL;
}

XExtDisplayInfo *XPresentFindDisplay(Display *dpy)
{
    struct xpresent_display *d = xpresent_display_get(dpy);
    return d ? &d->info : NULL;
}

Bool XPresentQueryExtension(Display *dpy, int *major_opcode_return, int *event_base_return,
                            int *error_base_return)
{
    struct xpresent_display *d = xpresent_display_get(dpy);
    if (!d || !d->info.codes)
        return False;
    if (major_opcode_return)
        *major_opcode_return = d->info.codes->major_opcode;
    if (event_base_return)
        *event_base_return = d->info.codes->first_event;
    if (error_base_return)
        *error_base_return = d->info.codes->first_error;
    return True;
}

int XPresentVersion(void)
{
    return XPRESENT_VERSION;
}
