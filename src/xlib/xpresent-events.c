/*
 * Present's events, from the wire to Xlib's GenericEvent cookies.
 *
 * Xlib hands a converter the whole event as it came off the wire: the
 * 32-byte GenericEvent header and the 4 * length bytes after it, in one
 * piece.
 *
 * Nothing a server sends is trusted.  An event too short for its type, or
 * of a type we do not know, still becomes a cookie (Xlib queues a cookie
 * whatever the converter answers), but one without data and with an
 * extension number below 128 that has no converter (0 unless an extension
 * has opcode 128): programs written for libXpresent check the extension and
 * then read the data without testing it for NULL, so such an event must not
 * look like Present's.  XGetEventData() fails on it, and nothing reads past
 * what arrived.  An event whose opcode byte is below 128 is nobody's, but
 * reaches us when its low 7 bits are our opcode's: it gets no data either.
 */
#include "xpresent-private.h"

#include <stdlib.h>
#include <string.h>

/* Wire offsets of the fields (the protocol's event encodings). */
enum {
    GE_LENGTH = 4, GE_EVTYPE = 8, GE_EID = 12, GE_SIZE = 32,

    CONF_WINDOW = 16, CONF_X = 20, CONF_Y = 22, CONF_WIDTH = 24, CONF_HEIGHT = 26,
    CONF_OFF_X = 28, CONF_OFF_Y = 30, CONF_PIXMAP_WIDTH = 32, CONF_PIXMAP_HEIGHT = 34,
    CONF_PIXMAP_FLAGS = 36, CONF_SIZE = 40,

    COMP_KIND = 10, COMP_MODE = 11, COMP_WINDOW = 16, COMP_SERIAL = 20, COMP_UST = 24,
    COMP_MSC = 32, COMP_SIZE = 40,

    IDLE_WINDOW = 16, IDLE_SERIAL = 20, IDLE_PIXMAP = 24, IDLE_FENCE = 28, IDLE_SIZE = 32,

    REDIR_EVENT_WINDOW = 16, REDIR_WINDOW = 20, REDIR_PIXMAP = 24, REDIR_SERIAL = 28,
    REDIR_VALID = 32, REDIR_UPDATE = 36, REDIR_VALID_RECT = 40, REDIR_UPDATE_RECT = 48,
    REDIR_X_OFF = 56, REDIR_Y_OFF = 58, REDIR_CRTC = 60, REDIR_WAIT_FENCE = 64,
    REDIR_IDLE_FENCE = 68, REDIR_OPTIONS = 72, REDIR_TARGET_MSC = 80, REDIR_DIVISOR = 88,
    REDIR_REMAINDER = 96, REDIR_NOTIFIES = 104, NOTIFY_SIZE = 8,
};

/* The wire is in the client's byte order (Xlib connects that way). */
static uint16_t rd16(const uint8_t *w, size_t off)
{
    uint16_t v;
    memcpy(&v, w + off, sizeof(v));
    return v;
}

static uint32_t rd32(const uint8_t *w, size_t off)
{
    uint32_t v;
    memcpy(&v, w + off, sizeof(v));
    return v;
}

static uint64_t rd64(const uint8_t *w, size_t off)
{
    uint64_t v;
    memcpy(&v, w + off, sizeof(v));
    return v;
}

static void rd_rect(XRectangle *r, const uint8_t *w, size_t off)
{
    r->x = (short)rd16(w, off);
    r->y = (short)rd16(w, off + 2);
    r->width = rd16(w, off + 4);
    r->height = rd16(w, off + 6);
}

/* Fills the XPresentEvent start that every struct shares from the cookie. */
static void *new_event(size_t size, const XGenericEventCookie *cookie)
{
    XPresentEvent *e = calloc(1, size);
    if (!e)
        return NULL;
    e->type = cookie->type;
    e->serial = cookie->serial;
    e->send_event = cookie->send_event;
    e->display = cookie->display;
    e->extension = cookie->extension;
    e->evtype = cookie->evtype;
    return e;
}

static void *configure_notify(const XGenericEventCookie *c, const uint8_t *w, size_t n)
{
    if (n < CONF_SIZE)
        return NULL;
    XPresentConfigureNotifyEvent *e = new_event(sizeof(*e), c);
    if (!e)
        return NULL;
    e->eid = rd32(w, GE_EID);
    e->window = rd32(w, CONF_WINDOW);
    e->x = (int16_t)rd16(w, CONF_X);
    e->y = (int16_t)rd16(w, CONF_Y);
    e->width = rd16(w, CONF_WIDTH);
    e->height = rd16(w, CONF_HEIGHT);
    e->off_x = (int16_t)rd16(w, CONF_OFF_X);
    e->off_y = (int16_t)rd16(w, CONF_OFF_Y);
    e->pixmap_width = rd16(w, CONF_PIXMAP_WIDTH);
    e->pixmap_height = rd16(w, CONF_PIXMAP_HEIGHT);
    /* A CARD32 of flags: kept unsigned however wide long is. */
    e->pixmap_flags = (long)rd32(w, CONF_PIXMAP_FLAGS);
    return e;
}

static void *complete_notify(const XGenericEventCookie *c, const uint8_t *w, size_t n)
{
    if (n < COMP_SIZE)
        return NULL;
    XPresentCompleteNotifyEvent *e = new_event(sizeof(*e), c);
    if (!e)
        return NULL;
    e->eid = rd32(w, GE_EID);
    e->window = rd32(w, COMP_WINDOW);
    e->serial_number = rd32(w, COMP_SERIAL);
    e->ust = rd64(w, COMP_UST);
    e->msc = rd64(w, COMP_MSC);
    e->kind = w[COMP_KIND];
    e->mode = w[COMP_MODE];
    return e;
}

static void *idle_notify(const XGenericEventCookie *c, const uint8_t *w, size_t n)
{
    if (n < IDLE_SIZE)
        return NULL;
    XPresentIdleNotifyEvent *e = new_event(sizeof(*e), c);
    if (!e)
        return NULL;
    e->eid = rd32(w, GE_EID);
    e->window = rd32(w, IDLE_WINDOW);
    e->serial_number = rd32(w, IDLE_SERIAL);
    e->pixmap = rd32(w, IDLE_PIXMAP);
    e->idle_fence = rd32(w, IDLE_FENCE);
    return e;
}

/* The struct and its notifies in one allocation, so that XFreeEventData()'s
 * single free() releases both. */
static size_t redirect_size(int nnotifies)
{
    size_t head = sizeof(XPresentRedirectNotifyEvent);
    size_t align = _Alignof(XPresentNotify);
    head = (head + align - 1) / align * align;
    return head + (size_t)nnotifies * sizeof(XPresentNotify);
}

static XPresentNotify *redirect_notifies(XPresentRedirectNotifyEvent *e)
{
    return (XPresentNotify *)((char *)e + redirect_size(0));
}

static void *redirect_notify(const XGenericEventCookie *c, const uint8_t *w, size_t n)
{
    if (n < REDIR_NOTIFIES)
        return NULL;
    int nnotifies = (int)((n - REDIR_NOTIFIES) / NOTIFY_SIZE);
    XPresentRedirectNotifyEvent *e = new_event(redirect_size(nnotifies), c);
    if (!e)
        return NULL;
    e->eid = rd32(w, GE_EID);
    e->event_window = rd32(w, REDIR_EVENT_WINDOW);
    e->window = rd32(w, REDIR_WINDOW);
    e->pixmap = rd32(w, REDIR_PIXMAP);
    e->serial_number = rd32(w, REDIR_SERIAL);
    e->valid_region = rd32(w, REDIR_VALID);
    e->update_region = rd32(w, REDIR_UPDATE);
    rd_rect(&e->valid_rect, w, REDIR_VALID_RECT);
    rd_rect(&e->update_rect, w, REDIR_UPDATE_RECT);
    e->x_off = (int16_t)rd16(w, REDIR_X_OFF);
    e->y_off = (int16_t)rd16(w, REDIR_Y_OFF);
    e->target_crtc = rd32(w, REDIR_CRTC);
    e->wait_fence = rd32(w, REDIR_WAIT_FENCE);
    e->idle_fence = rd32(w, REDIR_IDLE_FENCE);
    e->options = rd32(w, REDIR_OPTIONS);
    e->target_msc = rd64(w, REDIR_TARGET_MSC);
    e->divisor = rd64(w, REDIR_DIVISOR);
    e->remainder = rd64(w, REDIR_REMAINDER);
    e->nnotifies = nnotifies;
    e->notifies = nnotifies ? redirect_notifies(e) : NULL;
    for (int i = 0; i < nnotifies; i++) {
        e->notifies[i].window = rd32(w, REDIR_NOTIFIES + (size_t)i * NOTIFY_SIZE);
        e->notifies[i].serial = rd32(w, REDIR_NOTIFIES + (size_t)i * NOTIFY_SIZE + 4);
    }
    return e;
}

/* The extension a cookie without data gets: one whose slot in Xlib's table
 * of converters is empty, so that XGetEventData() fails on it.  0 is not
 * always such: Xlib files converters by the low 7 bits of the opcode, and
 * an extension with opcode 128 (Present itself, on some servers) sits in
 * slot 0.  Xlib calls us with the Display locked, so the table holds still. */
static int extension_without_converter(Display *dpy)
{
    for (int e = 0; e < 128; e++) {
        if (!dpy->generic_event_vec[e])
            return e;
    }
    return 0;
}

Bool xpresent_wire_to_cookie(Display *dpy, XGenericEventCookie *cookie, xEvent *wire)
{
    const uint8_t *w = (const uint8_t *)wire;
    /* The header, as every GenericEvent converter must fill it. */
    cookie->type = w[0] & 0x7f;
    cookie->serial = _XSetLastRequestRead(dpy, (xGenericReply *)wire);
    cookie->send_event = (w[0] & 0x80) != 0;
    cookie->display = dpy;
    cookie->extension = w[1];
    cookie->evtype = rd16(w, GE_EVTYPE);
    cookie->data = NULL;

    size_t n = GE_SIZE + 4 * (size_t)rd32(w, GE_LENGTH);
    /* Xlib picks the converter by the low 7 bits of byte 1, so an event
     * whose byte 1 is the low half of our opcode (below 128, no extension's
     * opcode) comes here too: it is not Present's and gets no data. */
    int evtype = (w[1] & 0x80) ? cookie->evtype : -1;
    switch (evtype) {
    case PresentConfigureNotify:
        cookie->data = configure_notify(cookie, w, n);
        break;
    case PresentCompleteNotify:
        cookie->data = complete_notify(cookie, w, n);
        break;
    case PresentIdleNotify:
        cookie->data = idle_notify(cookie, w, n);
        break;
    case PresentRedirectNotify:
        cookie->data = redirect_notify(cookie, w, n);
        break;
    default:
        break;
    }
    if (!cookie->data)
        cookie->extension = extension_without_converter(dpy);
    return cookie->data != NULL;
}

static size_t event_size(const XGenericEventCookie *c)
{
    switch (c->evtype) {
    case PresentConfigureNotify:
        return sizeof(XPresentConfigureNotifyEvent);
    case PresentCompleteNotify:
        return sizeof(XPresentCompleteNotifyEvent);
    case PresentIdleNotify:
        return sizeof(XPresentIdleNotifyEvent);
    case PresentRedirectNotify:
        return redirect_size(((const XPresentRedirectNotifyEvent *)c->data)->nnotifies);
    default:
        return 0;
    }
}

Bool xpresent_copy_cookie(Display *dpy, XGenericEventCookie *in, XGenericEventCookie *out)
{
    (void)dpy;
    size_t size = in->data ? event_size(in) : 0;
    if (size == 0)
        return False;
    void *copy = malloc(size);
    if (!copy)
        return False;
    memcpy(copy, in->data, size);
    if (in->evtype == PresentRedirectNotify) {
        XPresentRedirectNotifyEvent *r = copy;
        r->notifies = r->nnotifies ? redirect_notifies(r) : NULL;
    }
    *out = *in;
    out->data = copy;
    return True;
}
