/*
 * Presenting with explicit sync (Present 1.4 PresentPixmapSynced): the
 * server waits for an acquire point before it reads the pixmap and
 * signals a release point when it is done, instead of the implicit fences
 * and IdleNotify of PresentPixmap.  A Present request, so it lives here;
 * the versions and the window's Syncobj capability come from
 * libxcb-dri3-util's probe (xcb_dri3_util_window_caps(), kept there per
 * connection).
 */
#include "xcb_present_util.h"
#include "xcb_dri3_util.h"
#include "sized-private.h"

#include <errno.h>
#include <string.h>
#include <xcb/present.h>

#define KNOWN_OPTIONS                                                                     \
    (XCB_PRESENT_OPTION_ASYNC | XCB_PRESENT_OPTION_COPY | XCB_PRESENT_OPTION_UST |        \
     XCB_PRESENT_OPTION_SUBOPTIMAL | XCB_PRESENT_OPTION_ASYNC_MAY_TEAR)

/* The notifies a request of the core length limit holds: 22 words of fixed
 * part, 2 per notify.  More would need BIG-REQUESTS, whose length query is
 * one of libxcb's unbounded waits; nobody sends that many. */
#define MAX_NOTIFIES ((UINT16_MAX - 22) / 2)

void xcb_present_util_synced_init(xcb_present_util_synced_t *s)
{
    if (!s)
        return;
    memset(s, 0, sizeof *s);
    s->size = sizeof *s;
}

static int fail(int ret)
{
    errno = -ret;
    return ret;
}

/* What the server would refuse with BadValue (or libxcb with a closed
 * connection), refused here, where the caller can see which call was
 * wrong.  The capability-dependent option is checked later. */
static bool args_valid(const xcb_present_util_synced_t *a)
{
    if (a->acquire_point == 0 || a->release_point == 0 || a->acquire_syncobj == XCB_NONE ||
        a->release_syncobj == XCB_NONE ||
        (a->acquire_syncobj == a->release_syncobj && a->acquire_point >= a->release_point))
        return false;
    if ((a->divisor == 0 && a->remainder != 0) || (a->divisor != 0 && a->remainder >= a->divisor))
        return false;
    if (a->options & ~(uint32_t)KNOWN_OPTIONS)
        return false;
    return a->n_notifies <= MAX_NOTIFIES && (a->notifies || a->n_notifies == 0);
}

/* DRI3 1.4 and Present 1.4 (the probe's), then the window's capabilities. */
static int server_caps(xcb_connection_t *c, xcb_window_t window, uint32_t *window_caps_out)
{
    xcb_dri3_util_caps_t caps;
    int ret;

    xcb_dri3_util_caps_init(&caps);
    ret = xcb_dri3_util_probe(c, &caps);
    if (ret < 0)
        return ret;
    if (!caps.dri3 || !caps.present || (caps.dri3_major == 1 && caps.dri3_minor < 4) ||
        (caps.present_major == 1 && caps.present_minor < 4))
        return -ENOTSUP;
    return xcb_dri3_util_window_caps(c, window, window_caps_out);
}

int xcb_present_util_present_pixmap_synced(xcb_connection_t *c,
                                           const xcb_present_util_synced_t *s,
                                           xcb_void_cookie_t *cookie)
{
    xcb_present_util_synced_t a;
    xcb_dri3_util_wait_scope_t previous;
    xcb_void_cookie_t ck;
    uint32_t wcaps = 0;
    int ret;

    if (!c || !s || s->size < SYNCED_SIZE_FIRST)
        return fail(-EINVAL);
    /* Fields a newer caller added after ours stay unread; those an older
     * caller lacks keep their defaults. */
    xcb_present_util_synced_init(&a);
    memcpy(&a, s, sized_len(s->size, sizeof a));
    if (!args_valid(&a))
        return fail(-EINVAL);
    /* The probe and the capability query share one deadline. */
    previous = xcb_dri3_util_wait_scope_push(xcb_dri3_util_deadline(c), -1);
    ret = server_caps(c, a.window, &wcaps);
    xcb_dri3_util_wait_scope_pop(previous);
    if (ret < 0)
        return fail(ret);
    if (!(wcaps & XCB_PRESENT_CAPABILITY_SYNCOBJ))
        return fail(-ENOTSUP);
    if ((a.options & XCB_PRESENT_OPTION_ASYNC_MAY_TEAR) &&
        !(wcaps & XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR))
        return fail(-EINVAL);
    /* Checked only when the caller takes the cookie; otherwise an error
     * goes to the event queue like any unchecked request's. */
    if (cookie)
        ck = xcb_present_pixmap_synced_checked(
            c, a.window, a.pixmap, a.serial, a.valid, a.update, a.x_off, a.y_off, a.target_crtc,
            a.acquire_syncobj, a.release_syncobj, a.acquire_point, a.release_point, a.options,
            a.target_msc, a.divisor, a.remainder, a.n_notifies, a.notifies);
    else
        ck = xcb_present_pixmap_synced(
            c, a.window, a.pixmap, a.serial, a.valid, a.update, a.x_off, a.y_off, a.target_crtc,
            a.acquire_syncobj, a.release_syncobj, a.acquire_point, a.release_point, a.options,
            a.target_msc, a.divisor, a.remainder, a.n_notifies, a.notifies);
    if (cookie)
        *cookie = ck;
    return xcb_connection_has_error(c) ? fail(-EPIPE) : 0;
}

int xcb_present_util_present_synced(xcb_connection_t *c, xcb_window_t window,
                                    xcb_pixmap_t pixmap, uint32_t serial,
                                    xcb_dri3_syncobj_t acquire_syncobj, uint64_t acquire_point,
                                    xcb_dri3_syncobj_t release_syncobj, uint64_t release_point,
                                    uint32_t options, uint64_t target_msc, uint64_t divisor,
                                    uint64_t remainder, xcb_void_cookie_t *cookie)
{
    xcb_present_util_synced_t s;

    xcb_present_util_synced_init(&s);
    s.window = window;
    s.pixmap = pixmap;
    s.serial = serial;
    s.acquire_syncobj = acquire_syncobj;
    s.acquire_point = acquire_point;
    s.release_syncobj = release_syncobj;
    s.release_point = release_point;
    s.options = options;
    s.target_msc = target_msc;
    s.divisor = divisor;
    s.remainder = remainder;
    return xcb_present_util_present_pixmap_synced(c, &s, cookie);
}
