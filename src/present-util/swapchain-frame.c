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

#include "sized-private.h"
#include "swapchain-private.h"
#include "xcb_dri3_util_wait.h"

int sc_buffer_alloc(sc_t *sc, struct buffer *b)
{
    int r;

    sc_buffer_free(sc, b);
    b->last_serial = 0;         /* new contents: its age is 0 */
    b->width = sc->caller_images ? xcb_dri3_util_buffer_width(sc->images[0]) : sc->win_width;
    b->height = sc->caller_images ? xcb_dri3_util_buffer_height(sc->images[0]) : sc->win_height;
    /* A window the server says is 65535x65535 would want 16 GiB a buffer:
     * refused rather than tried (the largest screens stay far below). */
    if ((uint64_t)b->width * b->height * 4 > SC_MAX_BUFFER_BYTES) {
        sc_log(sc, "buffer %u: %ux%u is too large", b->index, b->width, b->height);
        b->pixmap = 0;
        b->pixels = NULL;
        return -ENOMEM;
    }
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

/* A buffer whose frame completed but whose IdleNotify has not come: when
 * it may be taken back all the same (a server or proxy lost the event), or
 * 0 while it may not.  A copy (or a skip) leaves nothing for the server
 * to read once the completion is sent; a flipped buffer is scanned out
 * until a later frame of ours is shown. */
static uint64_t reclaim_ns(const struct buffer *b)
{
    if (b->state != BUF_PRESENTED || b->idle_notified || !b->completed)
        return 0;
    if (b->complete_mode == XCB_PRESENT_COMPLETE_MODE_FLIP)
        return b->shown_after ? b->shown_after_ns + SC_IDLE_GRACE_NS : 0;
    return b->completed_ns + SC_IDLE_GRACE_NS;
}

uint64_t sc_next_reclaim_ns(const sc_t *sc)
{
    uint64_t next = 0;

    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        uint64_t t = reclaim_ns(&sc->buffers[i]);

        if (t && (!next || t < next))
            next = t;
    }
    return next;
}

static void reclaim_if_overdue(sc_t *sc, struct buffer *b)
{
    uint64_t t = reclaim_ns(b);

    if (!t || ((uint64_t)deadline_now_ns() < t && b->shown_after < SC_IDLE_GRACE_FRAMES))
        return;
    sc_log(sc, "buffer %u: no IdleNotify for serial %u (%s, %u frames shown since): "
           "taken back", b->index, b->last_wire_serial,
           b->complete_mode == 0xff ? "its completion was lost too" : "completed",
           b->shown_after);
    b->idle_notified = true;
}

static bool buffer_available(sc_t *sc, struct buffer *b)
{
    if (b->state == BUF_FREE)
        return true;
    if (b->state != BUF_PRESENTED)
        return false;
    if (!b->idle_notified)
        reclaim_if_overdue(sc, b);
    if (!b->idle_notified)
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

/* Where the window's MSC is now by our clock, in quarters of a frame past
 * the last reading, or false when the last reading is too old to tell (or
 * no refresh is known).  The reading's UST is when its vblank happened,
 * when the server shares our clock (a local server); otherwise the time
 * the reading came stands in for it. */
static bool msc_quarters_now(const sc_t *sc, uint64_t now_ns, uint64_t *quarters)
{
    uint64_t refresh = sc->stats.refresh_ns, base = sc->msc.last_reading_ns;

    if (!sc->msc.have_msc || !refresh || now_ns - sc->msc.last_reading_ns > SC_FRESH_PERIODS * refresh)
        return false;
    if (sc->msc.last_ust && sc->msc.last_ust * 1000 <= sc->msc.last_reading_ns &&
        sc->msc.last_reading_ns - sc->msc.last_ust * 1000 < refresh)
        base = sc->msc.last_ust * 1000;
    *quarters = (now_ns - base) * 4 / refresh;
    return true;
}

/* The vblank a FIFO frame aims at: the one after the last frame's.  The
 * target must also lie safely ahead of the server's current MSC, which
 * Xvfb reports rounded to the nearest vblank: a target that the server
 * thinks has passed becomes "the next vblank", where it meets the next
 * frame and is replaced.  So the target is kept past the current MSC
 * rounded up from three quarters of a frame on.
 *
 * Without a recent reading (the first frame, a long pause, a refresh not
 * yet measured) the current MSC is unknown: a target aimed from an old
 * reading would lie in the past, and every frame aimed so would land on
 * the next vblank and replace the one before.  Such a frame goes to "the
 * next vblank" (target 0) and restarts the chain from where it lands.
 * *late: the chain's vblank had come before the client presented. */
static uint64_t fifo_target(sc_t *sc, uint64_t now_ns, bool *late)
{
    /* frames given up by time may still be queued at the server */
    bool streaming = (sc->ring.in_flight > 0 || sc->ring.lost_streak) && sc->ring.last_target;
    uint64_t target, safe, quarters;

    *late = false;
    /* Never at or before a vblank the server has already reported: a
     * late server (or a loaded machine) can complete frames past the
     * chain's targets. */
    target = sc->ring.last_target + sc->swap_interval > sc->msc.last_msc + 1
                 ? sc->ring.last_target + sc->swap_interval : sc->msc.last_msc + 1;
    /* A predecessor's last frame, sent before our anchor's reading (or
     * aimed at last_target), is shown at last_msc + 1 at the latest. */
    if (sc->ring.after_predecessor && target < sc->msc.last_msc + 2)
        target = sc->msc.last_msc + 2;
    if (!msc_quarters_now(sc, now_ns, &quarters))
        return streaming || sc->ring.after_predecessor ? target : 0;
    safe = sc->msc.last_msc + (quarters + 1) / 4 + 1;
    if (target >= safe)
        return target;
    /* Behind while streaming: the frame is late.  After a pause it is
     * simply the first of a new run. */
    *late = streaming;
    return safe;
}

/* EGL_EXT_buffer_age: the frames presented since the buffer's own last
 * presentation, counting the one about to be drawn (1: it holds the frame
 * presented just before); 0 for a buffer never presented or reallocated. */
static uint32_t buffer_age(const struct buffer *b, uint64_t frame_id)
{
    if (!b->last_serial || frame_id <= b->last_serial || frame_id - b->last_serial > UINT32_MAX)
        return 0;
    return (uint32_t)(frame_id - b->last_serial);
}

static uint32_t acquired_count(const sc_t *sc)
{
    uint32_t n = 0;

    for (uint32_t i = 0; i < sc->num_buffers; i++)
        n += sc->buffers[i].state == BUF_ACQUIRED;
    return n;
}

/* The vblank a frame presented now would be shown at (server's count),
 * 0 when unknown: LOW_LATENCY's plan, else the FIFO chain's aim. */
static uint64_t predicted_msc(sc_t *sc, uint64_t now)
{
    bool late;
    uint64_t target;

    if (sc->mode > XCB_PRESENT_UTIL_MODE_FIFO_RELAXED)
        return 0;
    if (sc->pace.plan_slot)
        return sc->pace.plan_msc;
    target = fifo_target(sc, now, &late);
    return target;
}

/* Caller images are never reallocated: where the library's own buffers
 * would be, acquire() says SUBOPTIMAL instead. */
bool sc_images_fit(const sc_t *sc, const struct buffer *b)
{
    return !sc->images_suboptimal && b->width == sc->win_width && b->height == sc->win_height;
}

static int hand_out(sc_t *sc, struct buffer *b, xcb_present_util_image_t *image)
{
    uint64_t now = (uint64_t)deadline_now_ns(), frame_id, msc, ust_ns;
    bool all_match = true;
    int r, fit = 0;

    if (sc->caller_images)
        fit = sc_images_fit(sc, b) ? 0 : XCB_PRESENT_UTIL_SUBOPTIMAL;
    else if (!b->pixmap || b->stale || wants_new_size(sc, b, now)) {
        r = sc_buffer_alloc(sc, b);
        if (r < 0)
            return r;
    }
    for (uint32_t i = 0; i < sc->num_buffers; i++)
        if (sc->buffers[i].width != sc->win_width || sc->buffers[i].height != sc->win_height)
            all_match = false;
    if (all_match)
        sc->mismatch_since_ns = 0;
    frame_id = sc->ring.serial + 1 + acquired_count(sc);
    /* MAILBOX and IMMEDIATE frames aim at no vblank: the clock (and the
     * refresh the caller is told) learns from NotifyMSCs instead */
    if (sc->mode > XCB_PRESENT_UTIL_MODE_FIFO_RELAXED)
        sc_clock_prime(sc);
    msc = predicted_msc(sc, now);
    ust_ns = msc ? sc_clock_vblank_ns(sc, msc) : 0;
    b->state = BUF_ACQUIRED;
    b->acquired_ns = now;
    b->age = buffer_age(b, frame_id);
    b->planned_msc = sc->pace.plan_slot ? sc->pace.plan_msc : 0;
    if (sc->pace.plan_slot)
        sc->pace.slot_ns = sc->pace.plan_slot;
    sc->pace.plan_key = 0;
    xcb_present_util_image_t all = {
        .size = image->size, .pixels = b->pixels, .stride = b->stride, .width = b->width,
        .height = b->height, .fourcc = sc->fourcc, .index = b->index, .frame_id = frame_id,
        .age = b->age, .predicted_msc = msc && ust_ns ? msc + sc->msc.msc_offset : 0,
        .predicted_ust = msc ? ust_ns / 1000 : 0, .refresh_ns = sc_clock_period_ns(sc),
        .sync_fd = -1, .buffer = sc->caller_images ? sc->images[b->index] : NULL,
    };
    if (b->pixels && sc->backend->begin_access)
        sc->backend->begin_access(sc, b);
    if (sc->backend->describe)
        sc->backend->describe(sc, b, &all);
    memcpy(image, &all, sized_len(image->size, sizeof all));
    return fit;
}

/* Whether a FIFO frame presented now could be aimed: not while the frame
 * sent for "the next vblank" (fifo_target) is in flight, since a second
 * one aimed there too could land on the same vblank and replace it; and
 * not while the chain restarts (the MSC went back or jumped) with frames
 * aimed in the old count in flight, which a frame for "the next vblank"
 * would overtake. */
static bool chain_settled(const sc_t *sc)
{
    if (sc->mode > XCB_PRESENT_UTIL_MODE_FIFO_RELAXED)
        return true;
    return !sc->ring.restart_serial && (sc->ring.last_target || !sc->ring.in_flight);
}

static struct buffer *find_available(sc_t *sc)
{
    /* A MAILBOX client may render far faster than the vblank: its frames
     * wait for their completions in a ring that must not overflow. */
    if (sc->ring.frames[(sc->ring.serial + 1) % SC_MAX_FRAMES].serial)
        return NULL;
    /* The next buffer waits for the chain (chain_settled()).
     * (Without the swapchain's throttle, present() waits instead.) */
    if (sc->throttle == XCB_PRESENT_UTIL_THROTTLE_ACQUIRE && !chain_settled(sc))
        return NULL;
    for (uint32_t i = 0; i < sc->num_buffers; i++)
        if (buffer_available(sc, &sc->buffers[i]))
            return &sc->buffers[i];
    return NULL;
}

/* A buffer that the server released whose idle fence has not triggered
 * yet: the wait then looks again soon instead of sleeping on the socket,
 * unless the back end has an fd that says when (sc_idle_fd()). */
static bool fence_pending(const sc_t *sc)
{
    for (uint32_t i = 0; i < sc->num_buffers; i++)
        if (sc->buffers[i].state == BUF_PRESENTED && sc->buffers[i].idle_notified)
            return true;
    return false;
}

/* A SuboptimalCopy completion asks the back end whether the buffers
 * should change (a round trip for DRI3); done here rather than while
 * events are processed, within the caller's deadline, and tried again at
 * the next SuboptimalCopy when the server did not answer in time. */
static void look_into_suboptimal(sc_t *sc)
{
    if (!sc->suboptimal_pending)
        return;
    sc->suboptimal_pending = false;
    if (!sc->backend->suboptimal(sc))
        return;
    if (sc->caller_images) {
        sc_log(sc, "suboptimal: the caller's images no longer fit the window");
        sc->images_suboptimal = true;
        return;
    }
    sc_log(sc, "suboptimal: buffers will be reallocated");
    for (uint32_t i = 0; i < sc->num_buffers; i++)
        sc->buffers[i].stale = true;
}

/* Whether the plan in sc->plan_* is for the frame acquire() would hand
 * out next (plans are made once per frame, so that a moment that has
 * come does not move on to the next vblank while acquire() looks again). */
static bool plan_is_current(const sc_t *sc)
{
    return sc->pace.plan_key && sc->pace.plan_key == sc->ring.serial + acquired_count(sc) + 1;
}

struct buffer *sc_ready_buffer(sc_t *sc, uint64_t now_ns, uint64_t *wake_ns)
{
    struct buffer *b;

    *wake_ns = sc_next_reclaim_ns(sc);
    /* a completion, an event from the server, ends this wait */
    if (!sc_latency_allows(sc))
        return NULL;
    b = find_available(sc);
    if (!b) {
        if (fence_pending(sc) && sc_idle_fd(sc) < 0 &&
            (!*wake_ns || *wake_ns > now_ns + 1000000))
            *wake_ns = now_ns + 1000000;
        return NULL;
    }
    /* Planned when the buffer and the latency allow a frame, so that a
     * moment already passed moves to the next vblank now, not later.  While
     * the caller holds a buffer it has not presented, where that frame
     * lands is not known yet: the plan for the next one is only
     * provisional (for get_fd()'s timer), made again once it is known. */
    if (!plan_is_current(sc)) {
        uint64_t key = sc->ring.serial + acquired_count(sc) + 1;

        if (!sc_pacing_plan(sc, now_ns, &sc->pace.plan_msc, &sc->pace.plan_slot))
            sc->pace.plan_msc = sc->pace.plan_slot = 0;
        sc->pace.plan_key = acquired_count(sc) ? 0 : key;
        if (sc->pace.plan_key && sc->pace.plan_slot)
            sc_log(sc, "pacing: frame %llu planned for msc %llu, acquire at +%lld us",
                   (unsigned long long)key, (unsigned long long)sc->pace.plan_msc,
                   (long long)((int64_t)(sc->pace.plan_slot - now_ns) / 1000));
    }
    if (sc->pace.plan_slot > now_ns) {
        *wake_ns = sc->pace.plan_slot;
        sc->moment_only = sc->pace.plan_slot - now_ns <= SC_MOMENT_ONLY_NS &&
                          (!sc_next_reclaim_ns(sc) || sc_next_reclaim_ns(sc) >= sc->pace.plan_slot);
        return NULL;
    }
    return b;
}

int sc_ready_count(sc_t *sc, uint64_t now_ns, uint64_t *wake_ns)
{
    int free_now;

    if (!sc_ready_buffer(sc, now_ns, wake_ns))
        return 0;
    free_now = sc_free_buffers(sc);
    if (sc->mode <= XCB_PRESENT_UTIL_MODE_FIFO_RELAXED &&
        sc->throttle == XCB_PRESENT_UTIL_THROTTLE_ACQUIRE) {
        int room = (int)sc->max_latency - (int)sc->ring.in_flight;

        if (free_now > room)
            free_now = room;
    }
    return free_now;
}

/* acquire()'s look: a buffer to hand out, after the SuboptimalCopy
 * question and the probe of a quiet window. */
static int acquire_step(sc_t *sc, void *arg, int *r, uint64_t *wake_ns)
{
    xcb_present_util_image_t *image = arg;
    uint64_t now = (uint64_t)deadline_now_ns();
    struct buffer *b;

    look_into_suboptimal(sc);
    b = sc_ready_buffer(sc, now, wake_ns);
    if (!b)
        return 0;
    *r = hand_out(sc, b, image);
    return 1;
}

int xcb_present_util_acquire(xcb_present_util_swapchain_t *sc, int64_t timeout_ns,
                             xcb_present_util_image_t *image)
{
    int r;

    if (!sc || !image || image->size < IMAGE_SIZE_FIRST)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    /* A reallocation needs the server: a very short timeout still gives
     * its round trips SC_MIN_REALLOC_NS. */
    r = sc_wait_for(sc, timeout_ns, SC_MIN_REALLOC_NS, acquire_step, image, "acquire");
    if (r == -ETIMEDOUT)
        sc_log(sc, "acquire: no buffer free after %lld ns (hidden or throttled window?)",
               (long long)timeout_ns);
    sc_update_readiness(sc);
    sc_unlock(sc);
    return r;
}

/* The serial a frame goes out with: unique in the process, because a real
 * server sends every CompleteNotify to every selection on the window, and
 * two swapchains on one window (a new one made before the old one goes,
 * as Vulkan's oldSwapchain does) would otherwise take each other's
 * completions for their own. */
static uint32_t next_wire_serial(void)
{
    static uint32_t last;

    return __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

/* A buffer present() did not send goes back to the swapchain (also
 * release()); the caller drew into it, so its contents no longer match
 * its age. */
void sc_give_back(sc_t *sc, struct buffer *b)
{
    b->state = BUF_FREE;
    b->last_serial = 0;
    /* the points acquire() reported are spent (the caller's GPU may have
     * signalled the acquire point): the next frame gets new ones */
    if (sc->backend->abandon)
        sc->backend->abandon(sc, b);
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

/* The target of a frame for target_ust (present_at()), or 0 when
 * target_ust has come or is 0.  The display's timing is waited for when
 * unknown: -EAGAIN when it did not come. */
static int target_for_ust(sc_t *sc, uint64_t target_ust, uint64_t *msc);

/* The vblank an OML aim lands on, by the server's rule, when the count
 * is at msc now: target if ahead, else the next vblank (divisor 0) or the
 * next that satisfies the divisor. */
static uint64_t oml_lands_at(const struct sc_aim *a, uint64_t msc)
{
    uint64_t next;

    if (a->target > msc)
        return a->target;
    if (!a->divisor)
        return msc + 1;
    next = msc + 1 - (msc + 1) % a->divisor + a->remainder;
    return next > msc ? next : next + a->divisor;
}

/* present(), present_at() and present_msc(): target_ust 0 and oml NULL
 * for "as the mode says". */
struct buffer *sc_acquired_buffer(sc_t *sc, const xcb_present_util_image_t *image,
                                  const char *what)
{
    if (image->index >= sc->num_buffers || sc->buffers[image->index].state != BUF_ACQUIRED ||
        sc->buffers[image->index].pixels != image->pixels) {
        sc_log(sc, "%s: image %u was not acquired", what, image->index);
        return NULL;
    }
    return &sc->buffers[image->index];
}

/* present()'s wait, without the swapchain's throttle at acquire(), for a
 * FIFO chain that can be aimed (chain_settled()). */
static int settle_step(sc_t *sc, void *arg, int *r, uint64_t *wake_ns)
{
    (void)arg;
    (void)wake_ns;
    if (!chain_settled(sc))
        return 0;
    *r = 0;
    return 1;
}

/* THROTTLE_PRESENT: present() returns once max_latency frames at most
 * are queued. */
static int queue_step(sc_t *sc, void *arg, int *r, uint64_t *wake_ns)
{
    (void)arg;
    (void)wake_ns;
    if (sc->ring.in_flight > sc->max_latency)
        return 0;
    *r = 0;
    return 1;
}

/*
 * Where the frame goes (aim->target, 0: at once) and with which options,
 * by mode: FIFO's chain, LOW_LATENCY's planned vblank, a time asked for
 * (at_msc) or the caller's OML aim.  Whether the frame is late for the
 * vblank it was paced for.
 */
static bool aim_frame(sc_t *sc, const struct buffer *b, uint64_t now_ns, uint64_t at_msc,
                      const struct sc_aim *oml, struct sc_aim *aim, uint32_t *options_io)
{
    uint32_t options = *options_io;
    uint64_t target = 0;
    bool late = false;

    switch (sc->mode) {
    case XCB_PRESENT_UTIL_MODE_FIFO:
        target = fifo_target(sc, now_ns, &late);
        break;
    case XCB_PRESENT_UTIL_MODE_FIFO_RELAXED:
        target = fifo_target(sc, now_ns, &late);
        /* A late frame may tear; one that restarts the chain goes to the
         * next vblank like FIFO's, or it would be shown at once, on the
         * vblank of the frame before. */
        if (target)
            options |= XCB_PRESENT_OPTION_ASYNC;
        break;
    case XCB_PRESENT_UTIL_MODE_MAILBOX:
        /* Xwayland holds a frame that is not Async for the compositor's
         * frame callback, blocking the ones after it; Async there still
         * never tears (the compositor shows whole frames) */
        if (sc->xwayland == 1)
            options |= XCB_PRESENT_OPTION_ASYNC;
        break;
    case XCB_PRESENT_UTIL_MODE_IMMEDIATE:
        options |= XCB_PRESENT_OPTION_ASYNC;
        if (sc->caps & XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR)
            options |= XCB_PRESENT_OPTION_ASYNC_MAY_TEAR;
        break;
    }
    /* The vblank LOW_LATENCY paced the frame for, when the chain goes on
     * (a restart goes to the next vblank, as THROUGHPUT's would); then a
     * time asked for.  Both only ever move the target later. */
    if (target && b->planned_msc) {
        /* late: after the last moment for the vblank it was paced for */
        late = target > b->planned_msc;
        if (b->planned_msc > target)
            target = b->planned_msc;
    }
    if (at_msc && at_msc > target) {
        target = at_msc;
        late = false;
    }
    *aim = (struct sc_aim){ .target = target };
    if (oml) {
        *aim = *oml;
        late = false;
    }
    *options_io = options;
    return late;
}

/* What the server would refuse with BadValue or BadMatch, refused here
 * (with the reason in the debug output). */
static bool request_valid(sc_t *sc, uint32_t options, bool oml, const struct sc_aim *aim)
{
    return sc_check(sc, !(options & XCB_PRESENT_OPTION_ASYNC_MAY_TEAR) ||
                            (sc->caps & XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR),
                    "AsyncMayTear only with its capability") &&
           sc_check(sc, !(options & XCB_PRESENT_OPTION_SUBOPTIMAL) ||
                            sc->backend->kind == XCB_PRESENT_UTIL_BACKEND_DRI3,
                    "Suboptimal only for DRI3 buffers") &&
           sc_check(sc, oml || !aim->target || !sc->msc.have_msc || aim->target > sc->msc.last_msc,
                    "FIFO target ahead of the last msc") &&
           sc_check(sc, aim->divisor == 0 ? aim->remainder == 0 : aim->remainder < aim->divisor,
                    "remainder < divisor, or both 0");
}

/* The frame's serial and its entry in the frame ring; where the FIFO
 * chain goes on from. */
static struct frame *record_frame(sc_t *sc, const struct buffer *b, bool oml,
                                  const struct sc_aim *aim, bool late, uint64_t now_us,
                                  uint64_t present_id)
{
    uint64_t target = aim->target;
    struct frame *f;

    sc->ring.serial++;
    sc->ring.after_predecessor = false;
    if (oml && sc->msc.have_msc)
        /* the chain goes on from where the server will show it */
        sc->ring.last_target = oml_lands_at(aim, sc->msc.last_msc);
    else if (target)
        sc->ring.last_target = target;
    else if (sc->mode <= XCB_PRESENT_UTIL_MODE_FIFO_RELAXED)
        sc->ring.restart_serial = sc->ring.serial;
    /* Aimed after frames given up by time: where it lands restarts the
     * chain, as "the next vblank" does. */
    if (!oml && target && sc->ring.lost_streak && sc->mode <= XCB_PRESENT_UTIL_MODE_FIFO_RELAXED)
        sc->ring.restart_serial = sc->ring.serial;
    f = &sc->ring.frames[sc->ring.serial % SC_MAX_FRAMES];
    *f = (struct frame){ .serial = sc->ring.serial, .wire_serial = next_wire_serial(),
                         /* an OML frame's vblank is the server's choice
                          * unless it aims ahead */
                         .target_msc = !oml || (sc->msc.have_msc && target > sc->msc.last_msc)
                                           ? target : 0, .submit_us = now_us, .index = b->index,
                         .client_late = late, .acquire_us = b->acquired_ns / 1000,
                         .age = b->age, .planned_msc = b->planned_msc,
                         .present_id = present_id };
    return f;
}

/* The frame went to the server: the buffer is out, the ids move on. */
static void frame_sent(sc_t *sc, struct buffer *b, const struct frame *f, bool synced,
                       uint64_t present_id, uint64_t *frame_id)
{
    sc->ring.in_flight++;
    if (present_id)
        sc->shown.last_present_id = present_id;
    if (frame_id)
        *frame_id = sc->ring.serial;
    b->state = BUF_PRESENTED;
    b->completed = false;
    b->last_wire_serial = f->wire_serial;
    /* PresentPixmapSynced sends no IdleNotify: the release point alone
     * says when the buffer is free (the back end's is_idle). */
    b->idle_notified = synced;
    b->last_serial = sc->ring.serial;
}

void sc_submit(sc_t *sc, const struct sc_submit *s)
{
    if (s->acquire_syncobj)
        xcb_present_pixmap_synced(sc->c, sc->window, s->pixmap, s->wire_serial, XCB_NONE,
                                  s->update, 0, 0, XCB_NONE, s->acquire_syncobj,
                                  s->release_syncobj, s->acquire_point, s->release_point,
                                  s->options, s->aim.target, s->aim.divisor, s->aim.remainder,
                                  0, NULL);
    else
        xcb_present_pixmap(sc->c, sc->window, s->pixmap, s->wire_serial, XCB_NONE, s->update,
                           0, 0, XCB_NONE, XCB_NONE, s->idle_fence, s->options, s->aim.target,
                           s->aim.divisor, s->aim.remainder, 0, NULL);
}

int sc_present_frame(sc_t *sc, const xcb_present_util_image_t *image,
                     const xcb_rectangle_t *damage, uint32_t n_damage, uint64_t target_ust,
                     const struct sc_aim *oml, uint64_t present_id, uint64_t *frame_id)
{
    struct buffer *b;
    uint32_t options, update = 0, idle_fence = 0;
    uint64_t now_us, at_msc = 0;
    struct frame *f;
    bool late, synced;
    struct sc_aim aim;
    struct sc_submit submit;
    int r;

    if (!sc || !image || image->size < IMAGE_SIZE_FIRST)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    b = sc_acquired_buffer(sc, image, "present");
    if (!b) {
        sc_unlock(sc);
        return -EINVAL;
    }
    /* The clock's wait (present_at()) after the image was checked; on its
     * failure the buffer stays acquired. */
    if (target_ust) {
        r = target_for_ust(sc, target_ust, &at_msc);
        if (r < 0) {
            sc_unlock(sc);
            return r;
        }
    }
    if (present_id && present_id <= sc->shown.last_present_id) {
        sc_log(sc, "present: present_id %llu is not above the last one (%llu)",
               (unsigned long long)present_id, (unsigned long long)sc->shown.last_present_id);
        sc_give_back(sc, b);
        sc_unlock(sc);
        return -EINVAL;
    }
    /* Without the throttle at acquire(), a FIFO frame waits here for the
     * frame sent for "the next vblank" (a few refresh periods at most: a
     * window that shows nothing must not hold the caller longer). */
    if (sc->throttle != XCB_PRESENT_UTIL_THROTTLE_ACQUIRE && !chain_settled(sc) &&
        sc_wait_for(sc, SC_SETTLE_WAIT_NS, 0, settle_step, NULL, "present: the chain") ==
            -ETIMEDOUT)
        sc_log(sc, "present: the frame for the next vblank did not complete: aimed anyway");
    if (sc->buffers[image->index].state != BUF_ACQUIRED) {
        /* released by another thread while the lock was not held */
        sc_unlock(sc);
        return -EINVAL;
    }
    options = sc->backend_options;
    b->caller_signals = SIZED_HAS(image, xcb_present_util_image_t, flags) &&
                        (image->flags & XCB_PRESENT_UTIL_IMAGE_CALLER_SIGNALS);
    r = sc->dead ? sc->dead : sc_conn_ok(sc);
    if (!r)
        r = validate_damage(sc, b, damage, n_damage);
    if (!r && sc->backend->upload)
        r = sc->backend->upload(sc, b, damage, n_damage);
    if (sc->buffers[image->index].state != BUF_ACQUIRED) {
        /* released by another thread while PRIME's hook ran unlocked */
        sc_unlock(sc);
        return -EINVAL;
    }
    if (!r && (sc->destroying || sc->dead))
        r = sc->destroying ? -ECANCELED : sc->dead;
    if (r < 0) {
        sc_give_back(sc, b);
        sc_unlock(sc);
        return r;
    }
    if (n_damage && sc->region) {
        xcb_xfixes_set_region(sc->c, sc->region, n_damage, damage);
        update = sc->region;
    }
    now_us = (uint64_t)deadline_now_ns() / 1000;
    /* divisor 0 and remainder 0 unless the caller aims: the server checks
     * remainder < divisor only when the divisor is set. */
    late = aim_frame(sc, b, now_us * 1000, at_msc, oml, &aim, &options);
    if (!request_valid(sc, options, oml != NULL, &aim)) {
        sc_give_back(sc, b);
        sc_unlock(sc);
        return -EINVAL;
    }
    if (sc->backend->idle_fence)
        idle_fence = sc->backend->idle_fence(sc, b);
    f = record_frame(sc, b, oml != NULL, &aim, late, now_us, present_id);
    submit = (struct sc_submit){ .pixmap = b->pixmap, .wire_serial = f->wire_serial,
                                 .update = update, .idle_fence = idle_fence,
                                 .options = options, .aim = aim };
    r = sc->backend->prepare_submit ? sc->backend->prepare_submit(sc, b, &submit) : 0;
    if (r < 0) {
        if (sc->ring.restart_serial == sc->ring.serial)
            sc->ring.restart_serial = 0;
        sc->ring.serial--;
        f->serial = 0;
        sc_give_back(sc, b);
        sc_unlock(sc);
        return r;
    }
    synced = submit.acquire_syncobj != 0;
    sc_submit(sc, &submit);
    sc_log(sc, "request: PresentPixmap%s buffer %u pixmap 0x%x frame %llu serial %u target "
           "%llu options 0x%x update 0x%x (%u rects) idle fence 0x%x%s",
           synced ? "Synced" : "", b->index, b->pixmap, (unsigned long long)sc->ring.serial,
           f->wire_serial, (unsigned long long)aim.target, options, update, n_damage,
           synced ? 0 : idle_fence, late ? " late" : "");
    frame_sent(sc, b, f, synced, present_id, frame_id);
    sc_stats_presented(sc);
    sc_pacing_rendered(sc, now_us * 1000 - b->acquired_ns);
    xcb_flush(sc->c);
    /* No drain here: the frame's own events cannot have come yet, and the
     * next acquire(), wait or dispatch() takes in the older ones (a read
     * of the socket here would, in a render loop, find nothing but what
     * that acquire() reads anyway). */
    r = sc_conn_ok(sc);
    /* the frame is sent: a wait that ends early does not undo it */
    if (r >= 0 && sc->throttle == XCB_PRESENT_UTIL_THROTTLE_PRESENT &&
        sc->mode <= XCB_PRESENT_UTIL_MODE_FIFO_RELAXED && sc->ring.in_flight > sc->max_latency) {
        int w = sc_wait_for(sc, -1, 0, queue_step, NULL, "present: the queue");

        if (w == -ENODEV || w == -EPIPE)
            r = w;
    }
    sc_update_readiness(sc);
    sc_unlock(sc);
    return r < 0 ? r : 0;
}

int xcb_present_util_present(xcb_present_util_swapchain_t *sc,
                             const xcb_present_util_image_t *image,
                             const xcb_rectangle_t *damage, uint32_t n_damage)
{
    return sc_present_frame(sc, image, damage, n_damage, 0, NULL, 0, NULL);
}

int xcb_present_util_present_at(xcb_present_util_swapchain_t *sc,
                                const xcb_present_util_image_t *image,
                                const xcb_rectangle_t *damage, uint32_t n_damage,
                                uint64_t target_ust)
{
    /* The clock works in nanoseconds: a time past 2^64 ns is no time. */
    if (target_ust > UINT64_MAX / 1000)
        return -EINVAL;
    return sc_present_frame(sc, image, damage, n_damage, target_ust, NULL, 0, NULL);
}

int xcb_present_util_present_with(xcb_present_util_swapchain_t *sc,
                                  const xcb_present_util_image_t *image,
                                  xcb_present_util_present_info_t *info)
{
    uint64_t frame_id = 0;
    int r;

    if (!info)
        return sc_present_frame(sc, image, NULL, 0, 0, NULL, 0, NULL);
    if (info->size < PRESENT_INFO_SIZE_FIRST || info->target_ust > UINT64_MAX / 1000)
        return -EINVAL;
    r = sc_present_frame(sc, image, info->damage, info->n_damage, info->target_ust, NULL,
                         info->present_id, &frame_id);
    if (SIZED_HAS(info, xcb_present_util_present_info_t, frame_id))
        info->frame_id = frame_id;
    return r;
}

/* present_at()'s wait for the display's timing: done once the clock
 * knows it. */
static int clock_step(sc_t *sc, void *arg, int *r, uint64_t *wake_ns)
{
    (void)arg;
    (void)wake_ns;
    sc_clock_prime(sc);
    if (!sc_clock_vblank_ns(sc, sc->msc.last_msc))
        return 0;
    *r = 0;
    return 1;
}

static int target_for_ust(sc_t *sc, uint64_t target_ust, uint64_t *msc)
{
    uint64_t first;
    int r;

    *msc = 0;
    if (target_ust * 1000 <= (uint64_t)deadline_now_ns() && sc_clock_is_local(sc))
        return 0;
    r = sc_wait_for(sc, SC_CLOCK_WAIT_NS, 0, clock_step, NULL, "present_at: the clock");
    if (r == -ETIMEDOUT)
        return -EAGAIN;
    if (r < 0)
        return r;
    first = sc_clock_first_msc_at(sc, target_ust * 1000);
    /* A time that has come: as the mode says. */
    if (first <= sc->msc.last_msc)
        return 0;
    *msc = first;
    sc_log(sc, "present_at: ust %llu is msc %llu (predicted %llu)",
           (unsigned long long)target_ust, (unsigned long long)first,
           (unsigned long long)sc_clock_vblank_ns(sc, first) / 1000);
    return 0;
}


int xcb_present_util_dispatch(xcb_present_util_swapchain_t *sc)
{
    uint64_t wake;
    int r, ready;

    if (!sc)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    r = sc_drain_events(sc);
    ready = sc_update_readiness(sc);
    if (r >= 0 && sc->dead)
        r = sc->dead;
    else if (r >= 0)
        r = ready >= 0 ? ready : sc_ready_count(sc, (uint64_t)deadline_now_ns(), &wake);
    sc_unlock(sc);
    return r;
}
