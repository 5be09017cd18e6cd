/*
 * Buffers and the server: a pixmap of a buffer (PixmapFromBuffers on DRI3
 * 1.2 and later, PixmapFromBuffer on 1.0) and the buffer of a pixmap
 * (BuffersFromPixmap / BufferFromPixmap).
 */
#include "buffer-private.h"
#include "conn-state.h"
#include "formats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/dri3.h>

static bool dri3_at_least_12(const xcb_dri3_util_caps_t *caps)
{
    return caps->dri3_major > 1 || caps->dri3_minor >= 2;
}

static bool listed(const uint64_t *mods, uint32_t n, uint64_t modifier)
{
    for (uint32_t i = 0; i < n; i++)
        if (mods[i] == modifier)
            return true;
    return false;
}

/*
 * The modifier to send for buf on window, following what loaders do: the
 * buffer's own when the server lists it (window or screen list); "none"
 * (implicit) for a linear one-plane buffer the server does not list
 * linear for, which every DRI3 server takes.  -EOPNOTSUPP otherwise.
 */
static int choose_modifier(xcb_connection_t *c, xcb_window_t window,
                           const xcb_dri3_util_buffer_t *buf, uint64_t *out,
                           xcb_generic_error_t **err)
{
    uint64_t *wm, *sm;
    uint32_t nw, ns;
    bool ok;
    int ret;

    if (buf->modifier == XCB_DRI3_UTIL_MOD_INVALID) {
        if (buf->n_planes != 1)
            return -EOPNOTSUPP;
        *out = XCB_DRI3_UTIL_MOD_INVALID;
        return 0;
    }
    ret = modifiers_lookup(c, window, buf->depth, buf->bpp, &wm, &nw, &sm, &ns, err);
    if (ret < 0)
        return ret;
    ok = listed(wm, nw, buf->modifier) || listed(sm, ns, buf->modifier);
    free(wm);
    free(sm);
    if (ok) {
        *out = buf->modifier;
        return 0;
    }
    if (buf->modifier == XCB_DRI3_UTIL_MOD_LINEAR && buf->n_planes == 1) {
        *out = XCB_DRI3_UTIL_MOD_INVALID;
        return 0;
    }
    return -EOPNOTSUPP;
}

/* The version 1.0 request can say: one plane at offset 0, a 16-bit stride,
 * a 32-bit size, and no modifier beyond linear. */
static int check_v10(const xcb_dri3_util_buffer_t *buf, uint32_t *size)
{
    const struct buffer_plane *p = &buf->planes[0];
    uint64_t bytes = (uint64_t)p->stride * buf->height;

    if (buf->n_planes != 1 || p->offset != 0 || p->stride > UINT16_MAX ||
        bytes > UINT32_MAX ||
        (buf->modifier != XCB_DRI3_UTIL_MOD_LINEAR &&
         buf->modifier != XCB_DRI3_UTIL_MOD_INVALID))
        return -EOPNOTSUPP;
    *size = (uint32_t)bytes;
    return 0;
}

/* Close-on-exec dups of the planes' fds, for libxcb to send and close. */
static int dup_planes(const xcb_dri3_util_buffer_t *buf, int32_t *fds)
{
    for (unsigned i = 0; i < buf->n_planes; i++) {
        fds[i] = fcntl(buf->planes[i].fd, F_DUPFD_CLOEXEC, 0);
        if (fds[i] < 0) {
            int ret = -errno;

            for (unsigned j = 0; j < i; j++)
                close(fds[j]);
            return ret;
        }
    }
    return 0;
}

static xcb_pixmap_t fail_pixmap(int ret)
{
    errno = -ret;
    return XCB_NONE;
}

xcb_pixmap_t xcb_dri3_util_buffer_to_pixmap(xcb_connection_t *c, xcb_drawable_t drawable,
                                            const xcb_dri3_util_buffer_t *buf,
                                            xcb_generic_error_t **err)
{
    xcb_dri3_util_caps_t caps;
    xcb_void_cookie_t cookie;
    xcb_generic_error_t *e;
    uint64_t modifier = 0;
    uint32_t size = 0;
    int32_t fds[4];
    xcb_pixmap_t pixmap;
    int ret;

    if (err)
        *err = NULL;
    if (!buf)
        return fail_pixmap(-EINVAL);
    ret = conn_need_dri3(c, 0, &caps);
    if (ret < 0)
        return fail_pixmap(ret);
    if (buf->depth == 0)
        return fail_pixmap(-EINVAL);
    /* Everything that can refuse is decided before anything is sent. */
    if (dri3_at_least_12(&caps))
        ret = choose_modifier(c, drawable, buf, &modifier, err);
    else
        ret = check_v10(buf, &size);
    if (ret < 0)
        return fail_pixmap(ret);
    pixmap = xcb_generate_id(c);
    if (pixmap == (uint32_t)-1)
        return fail_pixmap(-EPIPE);
    ret = dup_planes(buf, fds);
    if (ret < 0)
        return fail_pixmap(ret);

    if (dri3_at_least_12(&caps)) {
        const struct buffer_plane *p = buf->planes;
        uint32_t st[4] = { 0 }, off[4] = { 0 };

        /* Unused planes go as stride 0, offset 0. */
        for (unsigned i = 0; i < buf->n_planes; i++) {
            st[i] = p[i].stride;
            off[i] = p[i].offset;
        }
        cookie = xcb_dri3_pixmap_from_buffers_checked(
            c, pixmap, drawable, (uint8_t)buf->n_planes, buf->width, buf->height, st[0],
            off[0], st[1], off[1], st[2], off[2], st[3], off[3], buf->depth, buf->bpp,
            modifier, fds);
    } else {
        cookie = xcb_dri3_pixmap_from_buffer_checked(c, pixmap, drawable, size, buf->width,
                                                     buf->height,
                                                     (uint16_t)buf->planes[0].stride,
                                                     buf->depth, buf->bpp, fds[0]);
    }
    e = xcb_request_check(c, cookie);
    if (e) {
        util_report_x_error(e, err);
        return XCB_NONE;
    }
    if (xcb_connection_has_error(c))
        return fail_pixmap(-EPIPE);
    return pixmap;
}

/* A reply with X error e (or none: the connection broke). */
static xcb_dri3_util_buffer_t *fail_reply(xcb_generic_error_t *e, xcb_generic_error_t **err)
{
    if (e)
        util_report_x_error(e, err);
    else
        errno = EPIPE;
    return NULL;
}

static xcb_dri3_util_buffer_t *finish_import(int ret, xcb_dri3_util_buffer_t *b)
{
    if (ret == 0)
        return b;
    /* A layout that does not fit its fds is the server's fault here. */
    errno = ret == -EINVAL ? EPROTO : -ret;
    return NULL;
}

static xcb_dri3_util_buffer_t *from_pixmap_v12(xcb_connection_t *c, xcb_pixmap_t pixmap,
                                               xcb_generic_error_t **err)
{
    xcb_dri3_buffers_from_pixmap_reply_t *r;
    xcb_dri3_util_buffer_t *b = NULL;
    xcb_generic_error_t *e = NULL;
    uint32_t fourcc;
    unsigned n;
    int *fds, ret;

    r = xcb_dri3_buffers_from_pixmap_reply(c, xcb_dri3_buffers_from_pixmap(c, pixmap), &e);
    if (!r)
        return fail_reply(e, err);
    /* The binding has checked that strides and offsets (nfd of each) fit
     * in the reply; the fds are ours from here on. */
    n = r->nfd;
    fds = xcb_dri3_buffers_from_pixmap_reply_fds(c, r);
    fourcc = xcb_dri3_util_fourcc_from_depth(r->depth, r->bpp);
    if (n < 1 || n > 4) {
        close_distinct_fds(fds, n);
        ret = -EPROTO;
    } else if (fourcc == 0) {
        close_distinct_fds(fds, n);
        free(r);
        errno = EINVAL;
        return NULL;
    } else {
        ret = buffer_import(r->width, r->height, fourcc, r->modifier, n, fds,
                            xcb_dri3_buffers_from_pixmap_strides(r),
                            xcb_dri3_buffers_from_pixmap_offsets(r), &b);
    }
    free(r);
    return finish_import(ret, b);
}

static xcb_dri3_util_buffer_t *from_pixmap_v10(xcb_connection_t *c, xcb_pixmap_t pixmap,
                                               xcb_generic_error_t **err)
{
    xcb_dri3_buffer_from_pixmap_reply_t *r;
    xcb_dri3_util_buffer_t *b = NULL;
    xcb_generic_error_t *e = NULL;
    uint32_t fourcc, stride, offset = 0;
    int *fds, ret;

    r = xcb_dri3_buffer_from_pixmap_reply(c, xcb_dri3_buffer_from_pixmap(c, pixmap), &e);
    if (!r)
        return fail_reply(e, err);
    /* The binding refuses a reply whose fd count is not 1. */
    fds = xcb_dri3_buffer_from_pixmap_reply_fds(c, r);
    fourcc = xcb_dri3_util_fourcc_from_depth(r->depth, r->bpp);
    stride = r->stride;
    if (fourcc == 0) {
        close(fds[0]);
        free(r);
        errno = EINVAL;
        return NULL;
    }
    if ((uint64_t)stride * r->height > r->size) {
        close(fds[0]);
        ret = -EPROTO;
    } else {
        ret = buffer_import(r->width, r->height, fourcc, XCB_DRI3_UTIL_MOD_INVALID, 1, fds,
                            &stride, &offset, &b);
    }
    free(r);
    return finish_import(ret, b);
}

xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_from_pixmap(xcb_connection_t *c,
                                                         xcb_pixmap_t pixmap,
                                                         xcb_generic_error_t **err)
{
    xcb_dri3_util_caps_t caps;
    int ret;

    if (err)
        *err = NULL;
    ret = conn_need_dri3(c, 0, &caps);
    if (ret < 0) {
        errno = -ret;
        return NULL;
    }
    return dri3_at_least_12(&caps) ? from_pixmap_v12(c, pixmap, err)
                                   : from_pixmap_v10(c, pixmap, err);
}
