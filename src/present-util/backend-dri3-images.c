/*
 * The DRI3 back end with the caller's images (options.images): a driver's
 * GPU images, which the library makes pixmaps of but never allocates,
 * maps or reallocates.
 *
 * PRIME: when the caller renders on another device than the server's
 * (xcb_dri3_util_device_needs_prime()), the server may not be able to
 * read the caller's images at all (another GPU's memory, a tiled layout
 * only that GPU knows).  Each image then gets a linear display buffer the
 * server can read, which becomes the pixmap instead, and every frame is
 * copied into it before it is presented: by the caller's copy hook (a
 * blit on its GPU), or by the CPU when both can be mapped.  The display
 * buffers come from GBM on the server's device where it has one, as the
 * back end's own buffers do (backend-dri3-alloc.c), else memfds.
 *
 * All pixmaps are made at create, or when set_images() replaces the
 * images, in one round trip for all of them
 * (xcb_dri3_util_buffers_to_pixmaps()), and each buffer takes its own
 * when it is set up.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend-dri3-private.h"

/* Whether the images must go through display buffers: only when the
 * caller named its device and it is not the server's.  0 or a negative
 * errno (-EINVAL: render_fd is no open fd). */
static int decide_prime(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);
    int r;

    if (sc->render_fd < 0)
        return 0;
    r = dri3_device_open(sc);
    if (r < 0) {
        sc_log(sc, "PRIME: DRI3 Open failed (%s): the server's device is unknown",
               strerror(-r));
        return sc_unanswered(r) ? r : -ENOTSUP;
    }
    r = xcb_dri3_util_device_needs_prime(st->device->fd, sc->render_fd);
    if (r < 0) {
        sc_log(sc, "PRIME: render_fd %d: %s", sc->render_fd, strerror(-r));
        return -EINVAL;
    }
    st->prime = r == 1;
    sc_log(sc, "PRIME: the caller renders on %s device (server's: %s)",
           st->prime ? "another" : "the same", st->device->note);
    return 0;
}

/* Frees the display buffers that no buffer took. */
static void free_display_buffers(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);

    for (uint32_t i = 0; i < SC_MAX_BUFFERS; i++) {
        if (st->display[i]) {
            xcb_dri3_util_buffer_destroy(st->display[i]);
            sc->fds_open--;
            st->display[i] = NULL;
        }
    }
}

/* PRIME: one linear display buffer per image, all from GBM or all
 * memfds (*gbm says which). */
static int make_display_buffers(sc_t *sc, bool *gbm)
{
    struct dri3_state *st = dri3_state(sc);
    uint16_t w = xcb_dri3_util_buffer_width(sc->images[0]);
    uint16_t h = xcb_dri3_util_buffer_height(sc->images[0]);

    *gbm = st->gbm_on;
    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        bool from_gbm;

        st->display[i] = dri3_alloc_buffer(sc, w, h, &from_gbm);
        if (!st->display[i])
            return errno == ENOMEM ? -ENOMEM : -ENOTSUP;
        sc->fds_open++;
        if (from_gbm != *gbm) {
            /* GBM failed half-way: memfds for all */
            free_display_buffers(sc);
            return make_display_buffers(sc, gbm);
        }
    }
    return 0;
}

/* The pixmaps of the images, or of PRIME's display buffers: 0, the error
 * of a round trip that got no answer, or -ENOTSUP when the server refused
 * them (*x_error: its X error code, 0 for none). */
static int make_pixmaps(sc_t *sc, uint8_t *x_error)
{
    struct dri3_state *st = dri3_state(sc);
    xcb_dri3_util_buffer_t *shown[SC_MAX_BUFFERS];
    xcb_generic_error_t *err = NULL;
    int r;

    for (uint32_t i = 0; i < sc->num_buffers; i++)
        shown[i] = st->prime ? st->display[i] : sc->images[i];
    r = xcb_dri3_util_buffers_to_pixmaps(sc->c, sc->window, shown, sc->num_buffers,
                                         st->image_pixmaps, &err);
    *x_error = err ? err->error_code : 0;
    free(err);
    sc_log(sc, "request: PixmapFromBuffers x%u (%s, one round trip): %s", sc->num_buffers,
           st->prime ? "PRIME display buffers" : "the caller's images",
           r == 0 ? "done" : strerror(-r));
    /* no answer stays what it is; a refusal is "cannot show these" */
    if (r < 0 && !sc_unanswered(r)) {
        sc_log(sc, "DRI3: the server refused the %s (X error %d)",
               st->prime ? "display buffers" : "images", *x_error);
        r = -ENOTSUP;
    }
    return r;
}

/* PRIME: display buffers the server takes, from GBM while it does.
 * first: at create, where the allocator is set up too. */
static int make_shown_display_buffers(sc_t *sc, bool first)
{
    bool gbm = false;
    uint8_t x_error;
    int r;

    if (!sc->prime_copy) {
        /* the CPU copies: the caller's images must be mappable */
        if (!xcb_dri3_util_buffer_map(sc->images[0], 0, XCB_DRI3_UTIL_MAP_READ, NULL)) {
            sc_log(sc, "PRIME: no copy hook and the images cannot be mapped (%s)",
                   strerror(errno));
            return -EINVAL;
        }
        xcb_dri3_util_buffer_unmap(sc->images[0], 0);
    }
    r = first ? dri3_alloc_init(sc) : 0;
    if (r == 0)
        r = make_display_buffers(sc, &gbm);
    if (r < 0)
        return r;
    r = make_pixmaps(sc, &x_error);
    if (r == -ENOTSUP && gbm) {
        /* a GPU server that takes no GBM buffer of ours: memfds */
        dri3_alloc_refused(sc, EIO, x_error);
        free_display_buffers(sc);
        r = make_display_buffers(sc, &gbm);
        if (r == 0)
            r = make_pixmaps(sc, &x_error);
    }
    if (r == 0) {
        for (uint32_t i = 0; i < sc->num_buffers; i++)
            dri3_alloc_kept(sc, gbm);
        dri3_alloc_report(sc, dri3_state(sc)->display[0]);
    } else {
        free_display_buffers(sc);
    }
    return r;
}

int dri3_images_init(sc_t *sc)
{
    uint8_t x_error;
    int r = decide_prime(sc);

    if (r < 0)
        return r;
    return dri3_state(sc)->prime ? make_shown_display_buffers(sc, true)
                                 : make_pixmaps(sc, &x_error);
}

int dri3_images_replace(sc_t *sc)
{
    uint8_t x_error;

    /* the device and PRIME's decision stay those of create: the images
     * come from the same renderer */
    return dri3_state(sc)->prime ? make_shown_display_buffers(sc, false)
                                 : make_pixmaps(sc, &x_error);
}

void dri3_images_attach(sc_t *sc, struct buffer *b, struct dri3_buffer *db)
{
    struct dri3_state *st = dri3_state(sc);

    db->image = sc->images[b->index];
    db->buf = st->display[b->index];            /* PRIME's, or NULL */
    st->display[b->index] = NULL;
    b->pixmap = st->image_pixmaps[b->index];
    st->image_pixmaps[b->index] = 0;
    b->pixels = NULL;                           /* the caller renders */
    b->stride = xcb_dri3_util_buffer_stride(db->image, 0);
    b->size = 0;
}

void dri3_images_fini(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);

    for (uint32_t i = 0; i < SC_MAX_BUFFERS; i++) {
        if (st->image_pixmaps[i] && !xcb_connection_has_error(sc->c))
            xcb_free_pixmap(sc->c, st->image_pixmaps[i]);
        st->image_pixmaps[i] = 0;
    }
    free_display_buffers(sc);
}

/* The CPU's copy of the damaged rectangles (all of it for none). */
static int cpu_copy(xcb_dri3_util_buffer_t *src, xcb_dri3_util_buffer_t *dst,
                    const xcb_rectangle_t *damage, uint32_t n)
{
    uint32_t src_stride, dst_stride = xcb_dri3_util_buffer_stride(dst, 0);
    uint32_t bytes_pp = xcb_dri3_util_buffer_bpp(dst) / 8;
    const xcb_rectangle_t all = { 0, 0, xcb_dri3_util_buffer_width(dst),
                                  xcb_dri3_util_buffer_height(dst) };
    uint8_t *to = xcb_dri3_util_buffer_map(dst, 0, XCB_DRI3_UTIL_MAP_WRITE, NULL);
    const uint8_t *from;
    int e;

    if (!to)
        return -errno;
    from = xcb_dri3_util_buffer_map(src, 0, XCB_DRI3_UTIL_MAP_READ, &src_stride);
    if (!from) {
        e = errno;
        xcb_dri3_util_buffer_unmap(dst, 0);
        return -e;
    }
    if (!n) {
        damage = &all;
        n = 1;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t y = damage[i].y; y < (uint32_t)damage[i].y + damage[i].height; y++)
            memcpy(to + (size_t)y * dst_stride + (size_t)damage[i].x * bytes_pp,
                   from + (size_t)y * src_stride + (size_t)damage[i].x * bytes_pp,
                   (size_t)damage[i].width * bytes_pp);
    xcb_dri3_util_buffer_unmap(src, 0);
    xcb_dri3_util_buffer_unmap(dst, 0);
    return 0;
}

int dri3_images_upload(sc_t *sc, struct buffer *b, const xcb_rectangle_t *damage, uint32_t n)
{
    struct dri3_buffer *db = b->priv;
    int r;

    if (!dri3_state(sc)->prime || !db->image || !db->buf)
        return 0;
    if (sc->prime_copy) {
        xcb_present_util_prime_copy_t copy = sc->prime_copy;
        void *data = sc->prime_data;
        const xcb_dri3_util_buffer_t *image = db->image, *buf = db->buf;

        /* The caller's hook runs without the lock, like the other
         * callbacks: a GPU blit may take a while, and the hook may call
         * back into the swapchain (its stats, from another thread an
         * acquire).  Counted as a waiter, so that destroy() waits for it;
         * the image stays acquired, so nothing reallocates its buffers
         * meanwhile (present() checks that it still is afterwards). */
        sc->waiters++;
        pthread_mutex_unlock(&sc->lock);
        r = copy(data, image, buf, damage, n);
        pthread_mutex_lock(&sc->lock);
        sc->waiters--;
        if (sc->destroying)
            pthread_cond_broadcast(&sc->idle_cond);
    } else {
        r = cpu_copy(db->image, db->buf, damage, n);
    }
    if (r < 0) {
        sc_log(sc, "PRIME: the copy of image %u failed (%d)", b->index, r);
        return r;
    }
    sc->stats.prime_copies++;
    return 0;
}
