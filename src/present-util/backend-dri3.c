/*
 * The DRI3 back end: buffers the client allocates (libxcb-dri3-util's
 * linear buffers, written by the CPU: dma-bufs from GBM on the server's
 * device, or memfds, as backend-dri3-alloc.c decides) become pixmaps
 * through PixmapFromBuffers, and each buffer has an idle fence, a futex
 * page the server triggers when it is done with the pixmap (FenceFromFD).
 * Where the window has Present's Syncobj capability and DRI3 Open gives a
 * DRM device with timeline syncobjs, frames go through PresentPixmapSynced
 * instead, and a buffer is free once its release point is signalled.
 *
 * Explicit sync gives every buffer a timeline of its own.  A timeline's
 * value is the highest point signalled on it, so a wait for point p ends
 * as soon as any point after p is: on a timeline shared by all buffers,
 * the next frame's acquire point (signalled by us before the server has
 * even read this frame) would release every earlier frame's buffer at
 * once.  On a buffer's own timeline nothing but that buffer's frames moves
 * the value, and the buffer is never presented again before its release
 * point, so that point cannot be overtaken: frame n of a buffer acquires
 * at 2n - 1 and releases at 2n.  The cost is one ImportSyncobj per buffer
 * (at allocation, freed with the buffer).
 *
 * The server must accept the buffers: one trial buffer is made into a
 * pixmap at init.  A server that refuses a GBM buffer gets memfds, and
 * one that refuses those too (a GPU server that wants dma-bufs, where GBM
 * is missing or failed) leaves the choice to MIT-SHM.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "backend-dri3-private.h"

static void *drm_create(const xcb_dri3_util_device_t *dev)
{
    if (!dev->is_drm) {
        errno = ENODEV;
        return NULL;
    }
    return xcb_dri3_util_timeline_create(dev->fd);
}

static int drm_fd(void *tl)
{
    return xcb_dri3_util_timeline_fd(tl);
}

static int drm_signal(void *tl, uint64_t point)
{
    return xcb_dri3_util_timeline_signal(tl, point);
}

static int drm_wait(void *tl, uint64_t point, int64_t timeout_ns)
{
    return xcb_dri3_util_timeline_wait(tl, point, timeout_ns);
}

static int drm_wait_available(void *tl, uint64_t point, int64_t timeout_ns)
{
    return xcb_dri3_util_timeline_wait_available(tl, point, timeout_ns);
}

static int drm_notify(void *tl, uint64_t point, bool available, int eventfd)
{
    return xcb_dri3_util_timeline_notify(tl, point,
                                         available ? XCB_DRI3_UTIL_TIMELINE_AVAILABLE : 0,
                                         eventfd);
}

static void drm_destroy(void *tl)
{
    xcb_dri3_util_timeline_destroy(tl);
}

const struct sc_timeline_ops sc_timeline_drm = {
    .name = "DRM timeline syncobj",
    .create = drm_create,
    .fd = drm_fd,
    .signal = drm_signal,
    .wait = drm_wait,
    .wait_available = drm_wait_available,
    .notify = drm_notify,
    .destroy = drm_destroy,
};

const struct sc_timeline_ops *sc_timeline_ops = &sc_timeline_drm;

/* An allocation's failure as acquire() reports it: no answer as it is,
 * anything else as "could not" (ENOMEM).  e is a positive errno. */
static int answer_error(int e)
{
    return sc_unanswered(-e) ? -e : -ENOMEM;
}

/* The window's modifier lists (DRI3 1.2), into *win and *scr: 0 with the
 * lists (empty before DRI3 1.2, or when the server refused), or the
 * negative errno of an answer that did not come. */
static int query_modifiers(sc_t *sc, uint64_t **win, uint32_t *n_win, uint64_t **scr,
                           uint32_t *n_scr)
{
    xcb_generic_error_t *err = NULL;
    int r;

    *win = *scr = NULL;
    *n_win = *n_scr = 0;
    if (dri3_state(sc)->caps.dri3_major == 1 && dri3_state(sc)->caps.dri3_minor < 2)
        return 0;
    r = xcb_dri3_util_modifiers_query(sc->c, sc->window, sc->depth, 32, win, n_win,
                                      scr, n_scr, &err);
    free(err);
    sc_log(sc, "request: GetSupportedModifiers: %u window, %u screen modifiers (%d)", *n_win,
           *n_scr, r);
    return sc_unanswered(r) ? r : 0;
}

/* A new timeline, made known to the server.  0, -ENODEV (not a device for
 * these timelines), -EPIPE, or why the timeline or its import failed. */
static int sync_timeline_make(sc_t *sc, struct sync_timeline *s)
{
    const struct sc_timeline_ops *ops = dri3_state(sc)->tl_ops;
    xcb_generic_error_t *err = NULL;
    int e;

    errno = 0;
    s->tl = ops->create(dri3_state(sc)->device);
    if (!s->tl)
        return errno > 0 ? -errno : -ENOMEM;
    sc->fds_open++;
    s->syncobj = xcb_dri3_util_syncobj_import(sc->c, sc->window, ops->fd(s->tl), &err);
    e = errno;
    sc_log(sc, "request: ImportSyncobj (%s) -> 0x%x", ops->name, s->syncobj);
    free(err);
    if (!s->syncobj) {
        int r = e == EPIPE || xcb_connection_has_error(sc->c) ? -EPIPE : (e > 0 ? -e : -ENOMEM);

        ops->destroy(s->tl);
        sc->fds_open--;
        s->tl = NULL;
        return r;
    }
    return 0;
}

static void sync_timeline_free(sc_t *sc, struct sync_timeline *s)
{
    if (!s->tl)
        return;
    /* The server keeps what it needs of a syncobj still in use. */
    if (s->syncobj && !xcb_connection_has_error(sc->c))
        xcb_dri3_util_syncobj_free(sc->c, s->syncobj);
    dri3_state(sc)->tl_ops->destroy(s->tl);
    sc->fds_open--;
    s->tl = NULL;
    s->syncobj = 0;
}

int dri3_device_open(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);
    xcb_generic_error_t *err = NULL;

    if (st->device || st->device_error)
        return st->device_error;
    st->device = xcb_dri3_util_device_open(sc->c, sc->window, 0, &err);
    if (!st->device)
        st->device_error = errno > 0 ? -errno : -ENOMEM;
    sc_log(sc, "request: DRI3 Open: %s (X error %d)",
           st->device ? st->device->note : strerror(-st->device_error),
           err ? err->error_code : 0);
    free(err);
    return st->device_error;
}

static void free_state(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);

    if (!st)
        return;
    dri3_images_fini(sc);
    sync_timeline_free(sc, &st->spare);
    if (st->idle_efd >= 0) {
        close(st->idle_efd);
        sc->fds_open--;
    }
    /* the buffers made with GBM are gone: the caller's teardown freed
     * ours, dri3_images_fini() PRIME's */
    dri3_alloc_fini(sc);
    xcb_dri3_util_device_close(st->device);
    free(st->mods_window);
    free(st->mods_screen);
    free(st);
    sc->backend_data = NULL;
    /* The probe's cache is keyed on the connection's address, which a
     * later connection may reuse: let it be asked again.  Only the answers
     * go: the application's timeout stays the connection's. */
    xcb_dri3_util_probe_refresh(sc->c);
}

/* A buffer made a pixmap: from GBM while the server takes its buffers,
 * else (once it refused one) a memfd.  0 with *buf, *pixmap and *gbm; or
 * the negative errno of the last try, *x_error its X error (0: none). */
static int shown_buffer(sc_t *sc, uint16_t width, uint16_t height, xcb_dri3_util_buffer_t **buf,
                        xcb_pixmap_t *pixmap, bool *gbm, uint8_t *x_error)
{
    for (;;) {
        xcb_generic_error_t *err = NULL;
        int e;

        *x_error = 0;
        *pixmap = 0;
        *buf = dri3_alloc_buffer(sc, width, height, gbm);
        if (!*buf)
            return errno > 0 ? -errno : -ENOMEM;
        *pixmap = xcb_dri3_util_buffer_to_pixmap(sc->c, sc->window, *buf, &err);
        e = errno;
        *x_error = err ? err->error_code : 0;
        free(err);
        sc_log(sc, "request: PixmapFromBuffers %ux%u (%s) stride %u -> 0x%x", width, height,
               *gbm ? "GBM" : "memfd", xcb_dri3_util_buffer_stride(*buf, 0), *pixmap);
        if (*pixmap)
            return 0;
        xcb_dri3_util_buffer_destroy(*buf);
        *buf = NULL;
        /* a refused GBM buffer: memfds next; the loop ends with them */
        if (!*gbm || sc_unanswered(-e))
            return e > 0 ? -e : -ENOMEM;
        dri3_alloc_refused(sc, e, *x_error);
    }
}

/* A 16x16 buffer made into a pixmap and freed again: does the server
 * take our buffers at all? */
static int trial_buffer(sc_t *sc)
{
    xcb_dri3_util_buffer_t *buf;
    xcb_pixmap_t pixmap;
    uint8_t x_error;
    bool gbm;
    int r = shown_buffer(sc, 16, 16, &buf, &pixmap, &gbm, &x_error);

    if (r < 0) {
        sc_log(sc, "DRI3: the server refused a %s buffer (%s, X error %d)",
               gbm ? "GBM" : "memfd", strerror(-r), x_error);
        /* No answer is not "no DRI3": create() reports the timeout. */
        return sc_unanswered(r) || r == -ENOMEM ? r : -ENOTSUP;
    }
    dri3_alloc_report(sc, buf);
    xcb_free_pixmap(sc->c, pixmap);
    xcb_dri3_util_buffer_destroy(buf);
    return 0;
}

/* Explicit sync where the window can do it and the device gives
 * timelines; otherwise idle fences.  One timeline is made and imported
 * here as a trial (a server may refuse it), and the first buffer takes it. */
static void try_explicit_sync(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);
    const struct sc_timeline_ops *ops = sc_timeline_ops;
    int r;

    if (sc->sync == XCB_PRESENT_UTIL_SYNC_IMPLICIT) {
        sc_log(sc, "DRI3: implicit sync, as the caller asked");
        return;
    }
    if (!(sc->caps & XCB_PRESENT_CAPABILITY_SYNCOBJ) || st->caps.dri3_minor < 4 ||
        st->caps.present_minor < 4)
        return;
    if (dri3_device_open(sc) < 0) {
        sc_log(sc, "DRI3: Syncobj capability, but DRI3 Open failed: idle fences");
        return;
    }
    st->tl_ops = ops;
    r = sync_timeline_make(sc, &st->spare);
    if (r < 0) {
        if (r == -ENODEV)
            sc_log(sc, "DRI3: Syncobj capability, but no DRM device for timelines (%s): "
                   "idle fences", st->device->note);
        else
            sc_log(sc, "DRI3: no timeline syncobj (%s): idle fences", strerror(-r));
        st->tl_ops = NULL;
        return;
    }
    st->idle_efd = ops->notify ? eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK) : -1;
    if (st->idle_efd >= 0)
        sc->fds_open++;
    sc_log(sc, "DRI3: explicit sync, a %s per buffer; acquire() waits until a release point "
           "is %s", ops->name, sc->gpu_waits ? "available (the caller's GPU waits)" : "signalled");
}

static int dri3_init(sc_t *sc)
{
    struct dri3_state *st;
    int r;

    st = calloc(1, sizeof *st);
    if (!st)
        return -ENOMEM;
    st->idle_efd = -1;
    sc->backend_data = st;
    xcb_dri3_util_caps_init(&st->caps);
    r = xcb_dri3_util_probe(sc->c, &st->caps);
    if (r == 0 && !(st->caps.dri3 && st->caps.present && st->caps.sync && st->caps.fd_passing))
        r = -ENOTSUP;
    /* the modifiers first: their answer fills the cache that making a
     * pixmap of a buffer consults, so the trial asks nothing again */
    if (r == 0)
        r = query_modifiers(sc, &st->mods_window, &st->n_window, &st->mods_screen,
                            &st->n_screen);
    /* where our buffers come from, before any is made */
    if (r == 0 && !sc->caller_images)
        r = dri3_alloc_init(sc);
    /* the caller's images (and PRIME's display buffers) are the trial */
    if (r == 0)
        r = sc->caller_images ? dri3_images_init(sc) : trial_buffer(sc);
    if (r) {
        sc_log(sc, "DRI3: %s", r == -ENOTSUP ? "not usable here" : strerror(-r));
        free_state(sc);
        return r;
    }
    try_explicit_sync(sc);
    if (sc->sync == XCB_PRESENT_UTIL_SYNC_EXPLICIT && !st->tl_ops) {
        sc_log(sc, "DRI3: explicit sync asked for, and the window or device cannot");
        free_state(sc);
        return -ENOTSUP;
    }
    /* SuboptimalCopy (Present 1.2): tell us when another layout would flip */
    if (st->caps.present_major > 1 || st->caps.present_minor >= 2)
        sc->backend_options = XCB_PRESENT_OPTION_SUBOPTIMAL;
    return 0;
}

/* Undoes what dri3_alloc() made, whatever part of it: shared by its
 * failure path and by dri3_free(). A dead connection takes the server's
 * objects with it, so they are freed only while it lives. */
static void release_buffer(sc_t *sc, struct buffer *b, struct dri3_buffer *db)
{
    bool ok = !xcb_connection_has_error(sc->c);

    if (b->pixmap && ok)
        xcb_free_pixmap(sc->c, b->pixmap);
    if (!db)
        return;
    if (db->fence_id && ok)
        xcb_sync_destroy_fence(sc->c, db->fence_id);
    sync_timeline_free(sc, &db->sync);
    if (db->fence) {
        xcb_dri3_util_fence_destroy(db->fence);
        sc->fds_open--;
    }
    /* destroy unmaps what is mapped and closes the fds; the caller's
     * image stays the caller's */
    if (db->buf) {
        xcb_dri3_util_buffer_destroy(db->buf);
        sc->fds_open--;
    }
    free(db);
}

static int dri3_alloc(sc_t *sc, struct buffer *b)
{
    struct dri3_buffer *db = calloc(1, sizeof *db);
    xcb_generic_error_t *err = NULL;
    int r = -ENOMEM;
    uint8_t x_error;
    bool gbm;

    if (!db)
        return -ENOMEM;
    if (sc->caller_images) {
        dri3_images_attach(sc, b, db);
        goto sync;
    }
    r = shown_buffer(sc, b->width, b->height, &db->buf, &b->pixmap, &gbm, &x_error);
    if (r < 0) {
        r = answer_error(-r);
        goto fail;
    }
    sc->fds_open++;
    /* mapped for good; each frame's access is begun at acquire() and
     * ended at present() (dri3_begin_access(), dri3_upload()) */
    r = -ENOMEM;
    b->pixels = xcb_dri3_util_buffer_map(db->buf, 0,
                                         XCB_DRI3_UTIL_MAP_READ | XCB_DRI3_UTIL_MAP_WRITE,
                                         &b->stride);
    if (!b->pixels)
        goto fail;
    b->size = (size_t)b->stride * b->height;
    /* memfds start as zeros; GBM promises nothing, and acquire() does */
    if (gbm)
        memset(b->pixels, 0, b->size);
    dri3_alloc_kept(sc, gbm);
sync:
    if (dri3_state(sc)->tl_ops) {
        /* the trial timeline of init first: no second round trip */
        if (dri3_state(sc)->spare.tl) {
            db->sync = dri3_state(sc)->spare;
            dri3_state(sc)->spare = (struct sync_timeline){ 0 };
        } else {
            r = sync_timeline_make(sc, &db->sync);
            if (r < 0) {
                r = answer_error(-r);
                goto fail;
            }
        }
    } else {
        /* born triggered: the buffer is idle until its first present */
        db->fence = xcb_dri3_util_fence_create(true);
        if (!db->fence)
            goto fail;
        sc->fds_open++;
        db->fence_id = xcb_dri3_util_fence_to_server(sc->c, sc->window, db->fence, &err);
        sc_log(sc, "request: FenceFromFD -> 0x%x", db->fence_id);
        if (!db->fence_id) {
            r = errno == EPIPE ? -EPIPE : -ENOMEM;
            goto fail;
        }
    }
    b->priv = db;
    return 0;
fail:
    free(err);
    release_buffer(sc, b, db);
    b->pixmap = 0;
    b->pixels = NULL;
    return r;
}

/* What acquire() tells a caller that renders with its own means: the
 * buffer, and under explicit sync the points of the frame to come. */
static void dri3_describe(sc_t *sc, struct buffer *b, xcb_present_util_image_t *image)
{
    struct dri3_buffer *db = b->priv;

    image->buffer = db->image ? db->image : db->buf;
    if (!db->sync.tl)
        return;
    image->sync_fd = dri3_state(sc)->tl_ops->fd(db->sync.tl);
    image->acquire_point = db->point + 1;
    image->release_point = db->point + 2;
    image->wait_point = sc->gpu_waits ? db->release_point : 0;
}

/* A frame that was not sent: its acquire point may have been signalled
 * by the caller's GPU already, so the next frame of the buffer gets
 * points after both of its own (nobody waits for the skipped release
 * point: the buffer's release point stays its last sent frame's). */
static void dri3_abandon(sc_t *sc, struct buffer *b)
{
    struct dri3_buffer *db = b->priv;

    (void)sc;
    if (db && db->sync.tl)
        db->point += 2;
}

/* The CPU writes pixels between acquire() and present(): on a dma-buf
 * that access is bracketed by DMA_BUF_IOCTL_SYNC, begun here (which waits
 * for the server's and the GPU's work on it) and ended in dri3_upload().
 * A failed sync is logged, not fatal: the mapping stays valid. */
static void dri3_begin_access(sc_t *sc, struct buffer *b)
{
    struct dri3_buffer *db = b->priv;
    int r;

    if (db->image || !db->buf)
        return;
    r = xcb_dri3_util_buffer_begin_access(db->buf, 0);
    if (r < 0)
        sc_log(sc, "buffer %u: DMA_BUF_IOCTL_SYNC start failed (%s)", b->index, strerror(-r));
}

/* Before the frame goes: the CPU's writes end (our buffers), or PRIME's
 * copy (the caller's images). */
static int dri3_upload(sc_t *sc, struct buffer *b, const xcb_rectangle_t *damage, uint32_t n)
{
    struct dri3_buffer *db = b->priv;
    int r;

    if (db->image)
        return dri3_images_upload(sc, b, damage, n);
    r = xcb_dri3_util_buffer_end_access(db->buf, 0);
    if (r < 0)
        sc_log(sc, "buffer %u: DMA_BUF_IOCTL_SYNC end failed (%s)", b->index, strerror(-r));
    return 0;
}

static void dri3_free(sc_t *sc, struct buffer *b)
{
    release_buffer(sc, b, b->priv);
    b->priv = NULL;
}

static uint32_t dri3_idle_fence(sc_t *sc, struct buffer *b)
{
    struct dri3_buffer *db = b->priv;

    (void)sc;
    if (!db->fence_id)
        return 0;
    xcb_dri3_util_fence_reset(db->fence);
    return db->fence_id;
}

static bool dri3_is_idle(sc_t *sc, struct buffer *b, int64_t timeout_ns)
{
    struct dri3_buffer *db = b->priv;

    if (db->sync.tl) {
        const struct sc_timeline_ops *ops = dri3_state(sc)->tl_ops;

        if (!db->release_point)
            return true;
        if (sc->gpu_waits && ops->wait_available)
            return ops->wait_available(db->sync.tl, db->release_point, timeout_ns) == 0;
        return ops->wait(db->sync.tl, db->release_point, timeout_ns) == 0;
    }
    if (xcb_dri3_util_fence_is_triggered(db->fence))
        return true;
    return timeout_ns > 0 && xcb_dri3_util_fence_wait(db->fence, timeout_ns) == 0;
}

static void watch_release(sc_t *sc, struct dri3_buffer *db);

/* PresentPixmapSynced when explicit sync is on, on the buffer's own
 * timeline: the CPU has finished writing, so the acquire point is
 * signalled at once (unless the caller's GPU signals it); the release
 * point is the next one after it.  The core sends it (sc_submit()). */
static int dri3_prepare_submit(sc_t *sc, struct buffer *b, struct sc_submit *s)
{
    struct dri3_buffer *db = b->priv;
    uint64_t acquire;
    int r;

    if (!db->sync.tl)
        return 0;
    acquire = db->point + 1;
    r = b->caller_signals ? 0 : dri3_state(sc)->tl_ops->signal(db->sync.tl, acquire);
    if (r < 0)
        return r;
    db->point = acquire + 1;
    db->release_point = db->point;
    s->acquire_syncobj = s->release_syncobj = db->sync.syncobj;
    s->acquire_point = acquire;
    s->release_point = db->release_point;
    watch_release(sc, db);
    return 0;
}

/* The kernel is asked to wake acquire()'s wait when the release point
 * comes (a frame not sent after all wakes it once for nothing).  Where it
 * cannot, is_idle() is asked every millisecond instead, as before. */
static void watch_release(sc_t *sc, struct dri3_buffer *db)
{
    struct dri3_state *st = dri3_state(sc);
    int r;

    if (st->idle_efd < 0)
        return;
    r = st->tl_ops->notify(db->sync.tl, db->release_point, sc->gpu_waits, st->idle_efd);
    if (r == 0)
        return;
    sc_log(sc, "DRI3: the kernel cannot notify release points (%s): acquire() looks every "
           "millisecond", strerror(-r));
    close(st->idle_efd);
    sc->fds_open--;
    st->idle_efd = -1;
}

static int dri3_idle_fd(sc_t *sc)
{
    return dri3_state(sc)->idle_efd;
}

static void dri3_drain_idle_fd(sc_t *sc)
{
    uint64_t count;

    /* EAGAIN: nothing came */
    if (dri3_state(sc)->idle_efd >= 0 &&
        read(dri3_state(sc)->idle_efd, &count, sizeof count) < 0 && errno != EAGAIN)
        sc_log(sc, "DRI3: reading the release points' eventfd failed (%s)", strerror(errno));
}

/* SuboptimalCopy: the server would flip another layout.  Reallocate only
 * when its modifier lists really changed. */
static bool dri3_suboptimal(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);
    uint64_t *win, *scr;
    uint32_t n_win, n_scr;
    bool changed;

    /* No answer tells nothing about the layouts: keep the buffers (the
     * next SuboptimalCopy asks again). */
    if (query_modifiers(sc, &win, &n_win, &scr, &n_scr) < 0) {
        sc_log(sc, "suboptimal copy: the modifiers did not come: buffers kept");
        return false;
    }
    changed = n_win != st->n_window || n_scr != st->n_screen ||
              (n_win && memcmp(win, st->mods_window, n_win * sizeof *win) != 0) ||
              (n_scr && memcmp(scr, st->mods_screen, n_scr * sizeof *scr) != 0);
    sc_log(sc, "suboptimal copy: modifiers %s", changed ? "changed" : "unchanged");
    free(st->mods_window);
    free(st->mods_screen);
    st->mods_window = win;
    st->mods_screen = scr;
    st->n_window = n_win;
    st->n_screen = n_scr;
    return changed;
}

const struct backend_ops sc_backend_dri3 = {
    .kind = XCB_PRESENT_UTIL_BACKEND_DRI3,
    .init = dri3_init,
    .alloc = dri3_alloc,
    .free = dri3_free,
    .idle_fence = dri3_idle_fence,
    .is_idle = dri3_is_idle,
    .idle_fd = dri3_idle_fd,
    .drain_idle_fd = dri3_drain_idle_fd,
    .prepare_submit = dri3_prepare_submit,
    .describe = dri3_describe,
    .abandon = dri3_abandon,
    .begin_access = dri3_begin_access,
    .upload = dri3_upload,
    .suboptimal = dri3_suboptimal,
    .prepare_images = dri3_images_replace,
    .discard_images = dri3_images_fini,
    .fini = free_state,
};
