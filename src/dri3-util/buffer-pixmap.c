/*
 * Buffers and the server: a pixmap of a buffer (PixmapFromBuffers on DRI3
 * 1.2 and later, PixmapFromBuffer on 1.0) and the buffer of a pixmap
 * (BuffersFromPixmap / BufferFromPixmap).
 */
#include "buffer-private.h"
#include "conn-state.h"
#include "buffer-formats.h"
#include "wait-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xcb/xcbext.h>

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

/* One buffer's request, decided and its fds dup'ed before anything is
 * sent, so that a refusal leaves nothing on the server. */
struct pixmap_req {
    xcb_pixmap_t pixmap;
    uint64_t modifier;      /* DRI3 >= 1.2 */
    uint32_t size;          /* DRI3 1.0 */
    int32_t fds[4];         /* dups, for libxcb to send and close */
    xcb_void_cookie_t cookie;
    bool failed;            /* the server refused it */
};

static int prepare_req(xcb_connection_t *c, xcb_drawable_t drawable,
                       const xcb_dri3_util_caps_t *caps, const xcb_dri3_util_buffer_t *buf,
                       struct pixmap_req *req, xcb_generic_error_t **err)
{
    int ret;

    if (buf->depth == 0)
        return -EINVAL;
    if (dri3_at_least_12(caps))
        ret = choose_modifier(c, drawable, buf, &req->modifier, err);
    else
        ret = check_v10(buf, &req->size);
    if (ret < 0)
        return ret;
    req->pixmap = xcb_generate_id(c);
    if (req->pixmap == (uint32_t)-1)
        return -EPIPE;
    return dup_planes(buf, req->fds);
}

static void send_req(xcb_connection_t *c, xcb_drawable_t drawable,
                     const xcb_dri3_util_caps_t *caps, const xcb_dri3_util_buffer_t *buf,
                     struct pixmap_req *req)
{
    if (dri3_at_least_12(caps)) {
        const struct buffer_plane *p = buf->planes;
        uint32_t st[4] = { 0 }, off[4] = { 0 };

        /* Unused planes go as stride 0, offset 0. */
        for (unsigned i = 0; i < buf->n_planes; i++) {
            st[i] = p[i].stride;
            off[i] = p[i].offset;
        }
        req->cookie = xcb_dri3_pixmap_from_buffers_checked(
            c, req->pixmap, drawable, (uint8_t)buf->n_planes, buf->width, buf->height, st[0],
            off[0], st[1], off[1], st[2], off[2], st[3], off[3], buf->depth, buf->bpp,
            req->modifier, req->fds);
    } else {
        req->cookie = xcb_dri3_pixmap_from_buffer_checked(
            c, req->pixmap, drawable, req->size, buf->width, buf->height,
            (uint16_t)buf->planes[0].stride, buf->depth, buf->bpp, req->fds[0]);
    }
}

/* The server may still make the pixmap (and, for a memfd, keep the memory
 * pinned) after a wait gave up: free it after the fact, checked, so that
 * its BadPixmap, when it never came to be, is swallowed like the request's
 * own late error instead of reaching the event queue. */
static void free_late(xcb_connection_t *c, xcb_pixmap_t pixmap)
{
    wait_abandon_void(c, xcb_free_pixmap_checked(c, pixmap));
}

static xcb_pixmap_t to_pixmap(xcb_connection_t *c, xcb_drawable_t drawable,
                              const xcb_dri3_util_buffer_t *buf, xcb_generic_error_t **err)
{
    xcb_dri3_util_caps_t caps;
    xcb_generic_error_t *e = NULL;
    struct pixmap_req req = { 0 };
    int ret;

    ret = conn_need_dri3(c, 0, &caps);
    if (ret == 0)
        ret = prepare_req(c, drawable, &caps, buf, &req, err);
    if (ret < 0)
        return fail_pixmap(ret);
    send_req(c, drawable, &caps, buf, &req);
    ret = util_wait_checked(c, req.cookie, &e);
    if (ret == 1) {
        util_report_x_error(e, err);
        return XCB_NONE;
    }
    if (ret == -ETIMEDOUT || ret == -ECANCELED)
        free_late(c, req.pixmap);
    if (ret < 0)
        return fail_pixmap(ret);
    return req.pixmap;
}

xcb_pixmap_t xcb_dri3_util_buffer_to_pixmap(xcb_connection_t *c, xcb_drawable_t drawable,
                                            const xcb_dri3_util_buffer_t *buf,
                                            xcb_generic_error_t **err)
{
    xcb_dri3_util_wait_scope_t previous;
    xcb_pixmap_t pixmap;

    if (err)
        *err = NULL;
    if (!buf)
        return fail_pixmap(-EINVAL);
    previous = util_call_begin(c);
    pixmap = to_pixmap(c, drawable, buf, err);
    util_call_end(previous);
    return pixmap;
}

/* Every request was sent; one round trip (after the last) tells how each
 * went: libxcb then answers for the earlier ones at once, the X error or
 * nothing.  0, -EIO (the first X error in *err, the pixmaps that were made
 * freed), or the wait's error (the pixmaps the server may still make are
 * freed after the fact). */
static int finish_pixmaps(xcb_connection_t *c, struct pixmap_req *reqs, uint32_t n,
                          xcb_generic_error_t **err)
{
    xcb_generic_error_t *first = NULL, *e = NULL;
    int ret = util_wait_checked(c, reqs[n - 1].cookie, &e);

    if (ret == -ETIMEDOUT || ret == -ECANCELED) {
        /* wait_checked abandoned the last request; the others too. */
        for (uint32_t i = 0; i + 1 < n; i++)
            wait_abandon(c, reqs[i].cookie.sequence, ABANDON_VOID);
        for (uint32_t i = 0; i < n; i++)
            free_late(c, reqs[i].pixmap);
    }
    if (ret < 0)
        return ret;
    reqs[n - 1].failed = e != NULL;
    first = e;
    for (uint32_t i = n - 1; i-- > 0;) {
        void *r = NULL;

        e = NULL;
        xcb_poll_for_reply(c, reqs[i].cookie.sequence, &r, &e);
        free(r);
        reqs[i].failed = e != NULL;
        /* Walking backwards: the last error kept is the first sent. */
        if (e) {
            free(first);
            first = e;
        }
    }
    if (!first)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (!reqs[i].failed)
            xcb_free_pixmap(c, reqs[i].pixmap);     /* it exists: no error */
    util_report_x_error(first, err);
    return -EIO;
}

static int to_pixmaps(xcb_connection_t *c, xcb_drawable_t drawable,
                      xcb_dri3_util_buffer_t *const *buffers, uint32_t n,
                      struct pixmap_req *reqs, xcb_generic_error_t **err)
{
    xcb_dri3_util_caps_t caps;
    uint32_t i;
    int ret = conn_need_dri3(c, 0, &caps);

    /* Everything that can refuse is decided for every buffer before the
     * first request goes. */
    for (i = 0; ret == 0 && i < n; i++)
        ret = prepare_req(c, drawable, &caps, buffers[i], &reqs[i], err);
    if (ret < 0) {
        /* reqs[i - 1] failed and closed its own dups */
        for (uint32_t j = 0; j + 1 < i; j++)
            close_fds((const int *)reqs[j].fds, buffers[j]->n_planes);
        return ret;
    }
    for (i = 0; i < n; i++)
        send_req(c, drawable, &caps, buffers[i], &reqs[i]);
    return finish_pixmaps(c, reqs, n, err);
}

int xcb_dri3_util_buffers_to_pixmaps(xcb_connection_t *c, xcb_drawable_t drawable,
                                     xcb_dri3_util_buffer_t *const *buffers, uint32_t n,
                                     xcb_pixmap_t *pixmaps, xcb_generic_error_t **err)
{
    xcb_dri3_util_wait_scope_t previous;
    struct pixmap_req *reqs;
    int ret;

    if (err)
        *err = NULL;
    if (!buffers || !pixmaps)
        return -EINVAL;
    for (uint32_t i = 0; i < n; i++) {
        pixmaps[i] = XCB_NONE;
        if (!buffers[i])
            return -EINVAL;
    }
    if (n == 0)
        return 0;
    reqs = calloc(n, sizeof *reqs);
    if (!reqs)
        return -ENOMEM;
    previous = util_call_begin(c);
    ret = to_pixmaps(c, drawable, buffers, n, reqs, err);
    util_call_end(previous);
    for (uint32_t i = 0; ret == 0 && i < n; i++)
        pixmaps[i] = reqs[i].pixmap;
    free(reqs);
    return ret;
}

/* The reply (with fds) of request `sequence`, or NULL with errno set
 * (EIO with the X error in *err, or the wait's error). */
static void *wait_fds_reply(xcb_connection_t *c, unsigned int sequence,
                            xcb_generic_error_t **err)
{
    xcb_generic_error_t *e = NULL;
    void *r = NULL;
    int ret = util_wait_reply(c, sequence, XCB_DRI3_UTIL_WAIT_REPLY_FDS, &r, &e);

    if (ret == 1)
        util_report_x_error(e, err);
    else if (ret < 0)
        errno = -ret;
    return r;
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
    uint32_t fourcc;
    unsigned n;
    int *fds, ret;

    r = wait_fds_reply(c, xcb_dri3_buffers_from_pixmap(c, pixmap).sequence, err);
    if (!r)
        return NULL;
    /* The fds are ours from here on, whatever happens. */
    n = r->nfd;
    fds = xcb_dri3_buffers_from_pixmap_reply_fds(c, r);
    fourcc = xcb_dri3_util_fourcc_from_depth(r->depth, r->bpp);
    /* One stride and one offset per fd, within what libxcb read (32 +
     * 4 * length bytes). */
    if (n < 1 || n > 4 || 32 + 8 * (uint64_t)n > 32 + 4 * (uint64_t)r->length) {
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
    uint32_t fourcc, stride, offset = 0;
    int *fds, ret;

    r = wait_fds_reply(c, xcb_dri3_buffer_from_pixmap(c, pixmap).sequence, err);
    if (!r)
        return NULL;
    fds = xcb_dri3_buffer_from_pixmap_reply_fds(c, r);
    if (r->nfd != 1) {
        close_fds(fds, r->nfd);
        free(r);
        errno = EPROTO;
        return NULL;
    }
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
    xcb_dri3_util_wait_scope_t previous;
    xcb_dri3_util_caps_t caps;
    xcb_dri3_util_buffer_t *b = NULL;
    int ret;

    if (err)
        *err = NULL;
    previous = util_call_begin(c);
    ret = conn_need_dri3(c, 0, &caps);
    if (ret < 0)
        errno = -ret;
    else
        b = dri3_at_least_12(&caps) ? from_pixmap_v12(c, pixmap, err)
                                    : from_pixmap_v10(c, pixmap, err);
    util_call_end(previous);
    return b;
}
