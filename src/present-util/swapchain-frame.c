/*
 * acquire() and present(): handing buffers out, aiming each frame at its
 * vblank, and taking buffers back.
 *
 * FIFO frames are aimed from completions (the last target + 1), never
 * from a fresh reading of the MSC: a server that rounds its MSC (Xvfb
 * does) would otherwise put two frames on one vblank, and the later would
 * replace the earlier.
 */
#include <errno.h>
#include <string.h>
#include <xcb/xfixes.h>

#include "swapchain-private.h"

int sc_buffer_alloc(sc_t *sc, struct buffer *b)
{
    int r;

    sc_buffer_free(sc, b);
    b->width = sc->win_width;
    b->height = sc->win_height;
    r = sc->backend->alloc(sc, b);
    if (r < 0) {
        sc_log(sc, "buffer %u: allocating %ux%u failed (%d)", b->index, b->width, b->height, r);
        b->pixmap = 0;
        b->pixels = NULL;
        return r;
    }
    b->stale = false;
    sc_log(sc, "buffer %u: %ux%u stride %u pixmap 0x%x (%d fds held)", b->index, b->width,
           b->height, b->stride, b->pixmap, sc->fds_open);
    return 0;
}

void sc_buffer_free(sc_t *sc, struct buffer *b)
{
    if (!b->pixmap && !b->pixels)
        return;
    sc->backend->free(sc, b);
    b->pixmap = 0;
    b->pixels = NULL;
    b->size = 0;
}

static bool buffer_available(sc_t *sc, struct buffer *b)
{
    if (b->state == BUF_FREE)
        return true;
    if (b->state != BUF_PRESENTED || !b->idle_notified)
        return false;
    if (sc->backend->is_idle && !sc->backend->is_idle(sc, b, 0))
        return false;
    b->state = BUF_FREE;
    return true;
}

int sc_free_buffers(sc_t *sc)
{
    int n = 0;

    for (uint32_t i = 0; i < sc->num_buffers; i++)
        n += buffer_available(sc, &sc->buffers[i]);
    return n;
}

/* After a resize, a buffer is reallocated once the new size has held for
 * a moment, so that a drag-resize does not reallocate at every step; a
 * long drag still gets new buffers every SC_RESIZE_FORCE_NS. */
static bool wants_new_size(sc_t *sc, const struct buffer *b, uint64_t now)
{
    if (b->width == sc->win_width && b->height == sc->win_height)
        return false;
    if (!sc->mismatch_since_ns)
        sc->mismatch_since_ns = now;
    return now - sc->size_changed_ns >= SC_RESIZE_SETTLE_NS ||
           now - sc->mismatch_since_ns >= SC_RESIZE_FORCE_NS;
}

static int hand_out(sc_t *sc, struct buffer *b, xcb_present_util_image_t *image)
{
    uint64_t now = sc_now_ns();
    bool all_match = true;
    int r;

    if (!b->pixmap || b->stale || wants_new_size(sc, b, now)) {
        r = sc_buffer_alloc(sc, b);
        if (r < 0)
            return r;
    }
    for (uint32_t i = 0; i < sc->num_buffers; i++)
        if (sc->buffers[i].width != sc->win_width || sc->buffers[i].height != sc->win_height)
            all_match = false;
    if (all_match)
        sc->mismatch_since_ns = 0;
    b->state = BUF_ACQUIRED;
    memset(image, 0, sizeof *image);
    image->pixels = b->pixels;
    image->stride = b->stride;
    image->width = b->width;
    image->height = b->height;
    image->fourcc = sc->fourcc;
    image->index = b->index;
    return 0;
}

static struct buffer *find_available(sc_t *sc)
{
    /* A MAILBOX client may render far faster than the vblank: its frames
     * wait for their completions in a ring that must not overflow. */
    if (sc->frames[(sc->serial + 1) % SC_MAX_FRAMES].serial)
        return NULL;
    /* FIFO without any MSC known: a second frame aimed at "the next
     * vblank" could land on the first one's and replace it; wait for
     * the first completion instead. */
    if (!sc->have_msc && sc->mode <= XCB_PRESENT_UTIL_MODE_FIFO_RELAXED && sc->serial &&
        sc->stats.completed == 0)
        return NULL;
    for (uint32_t i = 0; i < sc->num_buffers; i++)
        if (buffer_available(sc, &sc->buffers[i]))
            return &sc->buffers[i];
    return NULL;
}

/* A buffer that the server released whose idle fence has not triggered
 * yet: the wait then looks again soon instead of sleeping on the socket. */
static bool fence_pending(const sc_t *sc)
{
    for (uint32_t i = 0; i < sc->num_buffers; i++)
        if (sc->buffers[i].state == BUF_PRESENTED && sc->buffers[i].idle_notified)
            return true;
    return false;
}

int xcb_present_util_acquire(xcb_present_util_swapchain_t *sc, int64_t timeout_ns,
                             xcb_present_util_image_t *image)
{
    uint64_t start, deadline, probe_at;
    int r;

    if (!sc || !image)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    if (sc->destroying) {
        pthread_mutex_unlock(&sc->lock);
        return -ECANCELED;
    }
    sc->waiters++;
    start = sc_now_ns();
    deadline = start + (uint64_t)(timeout_ns < 0 || timeout_ns > SC_MAX_WAIT_NS
                                      ? SC_MAX_WAIT_NS : timeout_ns);
    probe_at = start + SC_PROBE_AFTER_NS;
    for (bool drained = false;; drained = true) {
        struct buffer *b;
        uint64_t now, wake;

        /* A buffer already known to be free needs no look at the socket
         * (present() takes in what has arrived); nor does an empty queue
         * that libxcb has added nothing to since (its stamp), before the
         * poll() below says the socket has something. */
        if (drained || (!(sc->dead || sc->destroying || find_available(sc)) &&
                        __atomic_load_n(&sc->stamp, __ATOMIC_ACQUIRE) != sc->drained_stamp)) {
            r = sc_drain_events(sc);
            if (r < 0)
                break;
        }
        if (sc->destroying) {
            r = -ECANCELED;
            break;
        }
        if (sc->dead) {
            r = sc->dead;
            break;
        }
        b = find_available(sc);
        if (b) {
            r = hand_out(sc, b, image);
            break;
        }
        now = sc_now_ns();
        /* Xvfb drops a destroyed window's presentations without a word:
         * after a quiet while, ask whether the window is still there. */
        if (timeout_ns != 0 && now >= probe_at &&
            now - sc->last_activity_ns >= SC_PROBE_AFTER_NS) {
            r = sc_probe_window(sc);
            if (r < 0)
                break;
            probe_at = sc_now_ns() + SC_PROBE_AFTER_NS;
            continue;
        }
        if (now >= deadline) {
            sc_log(sc, "acquire: no buffer free after %lld ns (hidden or throttled window?)",
                   (long long)timeout_ns);
            r = -ETIMEDOUT;
            break;
        }
        wake = deadline < probe_at ? deadline : probe_at;
        if (fence_pending(sc) && wake > now + 1000000)
            wake = now + 1000000;
        sc_sleep_unlocked(sc, wake);
    }
    sc->waiters--;
    if (sc->destroying)
        pthread_cond_broadcast(&sc->idle_cond);
    pthread_mutex_unlock(&sc->lock);
    return r;
}

/* The vblank a FIFO frame aims at: the one after the last frame's.  The
 * target must also lie safely ahead of the server's current MSC, which
 * Xvfb reports rounded to the nearest vblank: a target that the server
 * thinks has passed becomes "the next vblank", where it meets the next
 * frame and is replaced.  So the target is kept past the current MSC
 * rounded up from three quarters of a frame on.  *late: the chain's
 * vblank had come before the client presented. */
static uint64_t fifo_target(sc_t *sc, uint64_t now_us, bool *late)
{
    uint64_t target, refresh_us = sc->stats.refresh_ns / 1000, safe;
    bool in_flight = false;

    *late = false;
    if (!sc->have_msc)
        return 0;       /* nothing known: the server's next vblank */
    if (!sc->last_target || !refresh_us) {
        /* From a NotifyMSC reading, or before the refresh is known: two
         * vblanks ahead is past any rounding. */
        target = sc->last_msc + 2;
        return sc->last_target + 1 > target ? sc->last_target + 1 : target;
    }
    for (uint32_t i = 0; i < SC_MAX_FRAMES; i++)
        in_flight |= sc->frames[i].serial != 0;
    target = sc->last_target + 1 > sc->last_msc + 1 ? sc->last_target + 1 : sc->last_msc + 1;
    if (now_us <= sc->last_ust)
        return target;
    /* the current MSC by our clock, in quarters of a frame */
    uint64_t quarters = (now_us - sc->last_ust) * 4 / refresh_us;
    safe = sc->last_msc + (quarters + 1) / 4 + 1;
    if (target >= safe)
        return target;
    /* Behind while streaming: the frame is late.  After a pause (nothing
     * in flight) it is simply the first of a new run. */
    *late = in_flight;
    return safe;
}

static int validate_damage(sc_t *sc, const struct buffer *b,
                           const xcb_rectangle_t *damage, uint32_t n)
{
    if (n && !damage)
        return -EINVAL;
    for (uint32_t i = 0; i < n; i++) {
        const xcb_rectangle_t *d = &damage[i];

        if (d->x < 0 || d->y < 0 || d->x + d->width > b->width ||
            d->y + d->height > b->height) {
            sc_log(sc, "present: damage %d,%d %ux%u outside the %ux%u buffer", d->x, d->y,
                   d->width, d->height, b->width, b->height);
            return -EINVAL;
        }
    }
    return 0;
}

int xcb_present_util_present(xcb_present_util_swapchain_t *sc,
                             const xcb_present_util_image_t *image,
                             const xcb_rectangle_t *damage, uint32_t n_damage)
{
    struct buffer *b;
    uint32_t options, update = 0, idle_fence = 0;
    uint64_t now_us, target = 0;
    struct frame *f;
    bool late = false;
    int synced;
    /* The swapchain aims at MSCs itself: no divisor, no remainder. */
    const uint64_t divisor = 0, remainder = 0;
    int r;

    if (!sc || !image)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    if (image->index >= sc->num_buffers ||
        sc->buffers[image->index].state != BUF_ACQUIRED ||
        sc->buffers[image->index].pixels != image->pixels) {
        sc_log(sc, "present: image %u was not acquired", image->index);
        pthread_mutex_unlock(&sc->lock);
        return -EINVAL;
    }
    b = &sc->buffers[image->index];
    options = sc->backend_options;
    r = sc->dead ? sc->dead : sc_conn_ok(sc);
    if (!r)
        r = validate_damage(sc, b, damage, n_damage);
    if (!r && sc->backend->upload)
        r = sc->backend->upload(sc, b);
    if (r < 0) {
        b->state = BUF_FREE;
        pthread_mutex_unlock(&sc->lock);
        return r;
    }
    if (n_damage && sc->region) {
        xcb_xfixes_set_region(sc->c, sc->region, n_damage, damage);
        update = sc->region;
    }
    now_us = sc_now_ns() / 1000;
    switch (sc->mode) {
    case XCB_PRESENT_UTIL_MODE_FIFO:
        target = fifo_target(sc, now_us, &late);
        break;
    case XCB_PRESENT_UTIL_MODE_FIFO_RELAXED:
        target = fifo_target(sc, now_us, &late);
        options |= XCB_PRESENT_OPTION_ASYNC;
        break;
    case XCB_PRESENT_UTIL_MODE_MAILBOX:
        break;
    case XCB_PRESENT_UTIL_MODE_IMMEDIATE:
        options |= XCB_PRESENT_OPTION_ASYNC;
        if (sc->caps & XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR)
            options |= XCB_PRESENT_OPTION_ASYNC_MAY_TEAR;
        break;
    }
    if (!sc_check(sc, !(options & XCB_PRESENT_OPTION_ASYNC_MAY_TEAR) ||
                          (sc->caps & XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR),
                  "AsyncMayTear only with its capability") ||
        !sc_check(sc, !(options & XCB_PRESENT_OPTION_SUBOPTIMAL) ||
                          sc->backend->kind == XCB_PRESENT_UTIL_BACKEND_DRI3,
                  "Suboptimal only for DRI3 buffers") ||
        !sc_check(sc, !target || !sc->have_msc || target > sc->last_msc,
                  "FIFO target ahead of the last msc") ||
        !sc_check(sc, divisor == 0 ? remainder == 0 : remainder < divisor,
                  "remainder < divisor, or both 0")) {
        b->state = BUF_FREE;
        pthread_mutex_unlock(&sc->lock);
        return -EINVAL;
    }
    if (sc->backend->idle_fence)
        idle_fence = sc->backend->idle_fence(sc, b);
    sc->serial++;
    if (target)
        sc->last_target = target;
    f = &sc->frames[sc->serial % SC_MAX_FRAMES];
    *f = (struct frame){ .serial = sc->serial, .target_msc = target, .submit_us = now_us,
                         .index = b->index, .client_late = late };
    /* divisor 0 and remainder 0: the server checks remainder < divisor
     * only when the divisor is set. */
    synced = sc->backend->present ? sc->backend->present(sc, b, options, target, update) : 0;
    if (synced < 0) {
        sc->serial--;
        f->serial = 0;
        b->state = BUF_FREE;
        pthread_mutex_unlock(&sc->lock);
        return synced;
    }
    if (!synced)
        xcb_present_pixmap(sc->c, sc->window, b->pixmap, (uint32_t)sc->serial, 0, update, 0,
                           0, 0, 0, idle_fence, options, target, divisor, remainder, 0,
                           NULL);
    sc_log(sc, "request: PresentPixmap%s buffer %u pixmap 0x%x serial %llu target %llu "
           "options 0x%x update 0x%x (%u rects) idle fence 0x%x%s", synced ? "Synced" : "",
           b->index, b->pixmap, (unsigned long long)sc->serial, (unsigned long long)target,
           options, update, n_damage, idle_fence, late ? " late" : "");
    b->state = BUF_PRESENTED;
    /* PresentPixmapSynced sends no IdleNotify: the release point alone
     * says when the buffer is free (the back end's is_idle). */
    b->idle_notified = synced > 0;
    b->last_serial = sc->serial;
    sc_stats_presented(sc);
    xcb_flush(sc->c);
    r = sc_drain_events(sc);
    pthread_mutex_unlock(&sc->lock);
    return r < 0 ? r : 0;
}

int xcb_present_util_dispatch(xcb_present_util_swapchain_t *sc)
{
    int r;

    if (!sc)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    r = sc_drain_events(sc);
    sc_clear_work(sc);
    if (r >= 0)
        r = sc->dead ? sc->dead : sc_free_buffers(sc);
    pthread_mutex_unlock(&sc->lock);
    return r;
}
