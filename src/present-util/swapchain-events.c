/*
 * Present's events for our window, from the special event queue: frames
 * complete, buffers come back, the window changes size or goes away.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "swapchain-private.h"

void sc_signal_work(sc_t *sc)
{
    uint64_t one = 1;

    /* only for a caller that polls the fd (swapchain_fd() was called) */
    if (sc->work_signalled || !sc->fd_wanted)
        return;
    sc->work_signalled = write(sc->work_fd, &one, sizeof one) == sizeof one;
}

void sc_clear_work(sc_t *sc)
{
    uint64_t v;

    if (!sc->work_signalled)
        return;
    if (read(sc->work_fd, &v, sizeof v) == sizeof v || errno == EAGAIN)
        sc->work_signalled = false;
}

/* A frame of ours in flight with this serial, or NULL.  Serials are
 * unique in the process (next_wire_serial), so another swapchain's
 * completion, which a real server sends to every selection on the window,
 * never matches one of ours. */
static struct frame *find_frame(sc_t *sc, uint32_t wire_serial)
{
    for (uint64_t s = sc->ring.oldest; s <= sc->ring.serial; s++) {
        struct frame *f = &sc->ring.frames[s % SC_MAX_FRAMES];

        if (f->serial == s && f->wire_serial == wire_serial)
            return f;
    }
    return NULL;
}

/* Whether b is out with no word from the server since a frame was given
 * up by time (see struct buffer). */
static bool lost_out(const struct buffer *b)
{
    return b->state == BUF_PRESENTED && !b->idle_notified && b->lost_ns &&
           b->lost_serial == b->last_serial;
}

/* How long a buffer given up by time stays out without evidence: many
 * refreshes, doubled for each frame given up by time in a row before it
 * (a server that is slow, not one that loses events, shows them late). */
static uint64_t lost_buffer_ns(const sc_t *sc)
{
    uint64_t bound = SC_LOST_BUFFER_PERIODS * sc_clock_period_ns(sc);
    uint32_t streak = sc->ring.lost_streak < SC_LOST_BACKOFF ? sc->ring.lost_streak : SC_LOST_BACKOFF;

    if (bound < SC_LOST_BUFFER_MIN_NS)
        bound = SC_LOST_BUFFER_MIN_NS;
    return bound << streak;
}

static void mark_lost_out(sc_t *sc, struct buffer *b, uint64_t now, uint64_t msc)
{
    b->lost_ns = now;
    b->lost_until_ns = now + lost_buffer_ns(sc);
    b->lost_serial = b->last_serial;
    b->lost_msc = msc;
}

/* Our frame `serial` was shown at msc (when taken): the buffers whose
 * frames were given up by time before it, aimed at or before that vblank
 * (or at "the next vblank"), were done with by then, their IdleNotify
 * lost.  They count as completed copies shown once since: taken back as
 * such (swapchain-frame.c). */
static void later_frame_shown(sc_t *sc, uint64_t serial, uint64_t msc, bool taken,
                              uint64_t now)
{
    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        struct buffer *o = &sc->buffers[i];

        if (!lost_out(o) || o->completed || o->last_serial >= serial ||
            (o->lost_msc && (!taken || msc < o->lost_msc)))
            continue;
        sc_log(sc, "buffer %u: frame %llu was shown after its frame %llu (given up): "
               "that one was done with", o->index, (unsigned long long)serial,
               (unsigned long long)o->last_serial);
        o->completed = true;
        o->complete_mode = XCB_PRESENT_UTIL_COMPLETE_LOST;
        o->completed_ns = now;
        o->shown_after = 1;
        o->shown_after_ns = now;
        o->lost_ns = 0;
    }
}

/* A frame is done: its buffer's record says how, the buffers presented
 * before it count one more frame shown after theirs, and the slot is
 * free.  mode XCB_PRESENT_UTIL_COMPLETE_LOST: the completion never came;
 * by_time: nor did any later one, so nothing says the server is done with
 * the frame (a throttled window may show it yet): its buffer, and a flip
 * before it that no later frame replaced, wait for evidence or a long
 * while (sc_recover_by_time()). */
static void frame_done(sc_t *sc, struct frame *f, uint8_t mode, uint64_t msc, bool taken,
                       bool by_time)
{
    struct buffer *b = &sc->buffers[f->index];
    uint64_t now = (uint64_t)deadline_now_ns();

    if (b->state == BUF_PRESENTED && b->last_serial == f->serial) {
        if (by_time) {
            mark_lost_out(sc, b, now, f->target_msc);
        } else {
            b->completed = true;
            b->complete_mode = mode;
            b->completed_ns = now;
            b->shown_after = 0;
        }
    }
    if (mode != XCB_PRESENT_COMPLETE_MODE_SKIP && mode != XCB_PRESENT_UTIL_COMPLETE_LOST) {
        for (uint32_t i = 0; i < sc->num_buffers; i++) {
            struct buffer *o = &sc->buffers[i];

            if (o->state != BUF_PRESENTED || !o->completed || o->idle_notified ||
                o->last_serial >= f->serial)
                continue;
            if (!o->shown_after++)
                o->shown_after_ns = now;
        }
        later_frame_shown(sc, f->serial, msc, taken, now);
    }
    if (by_time) {
        for (uint32_t i = 0; i < sc->num_buffers; i++) {
            struct buffer *o = &sc->buffers[i];

            if (o->state == BUF_PRESENTED && o->completed && !o->idle_notified &&
                o->complete_mode == XCB_PRESENT_COMPLETE_MODE_FLIP && !o->shown_after &&
                o->last_serial < f->serial && !lost_out(o))
                mark_lost_out(sc, o, now, 0);
        }
    }
    if (f->serial == sc->ring.restart_serial) {
        /* The frame that restarted the FIFO chain: the chain goes on from
         * the vblank where it landed. */
        sc->ring.restart_serial = 0;
        if (taken && msc > sc->ring.last_target)
            sc->ring.last_target = msc;
    }
    f->serial = 0;
    sc->ring.in_flight--;
    while (sc->ring.oldest <= sc->ring.serial &&
           sc->ring.frames[sc->ring.oldest % SC_MAX_FRAMES].serial != sc->ring.oldest)
        sc->ring.oldest++;
}

/* Frames older than one that just completed whose completion has not come
 * after a long while were lost on the way (a server or proxy that drops
 * events): they are given up, so that their slots and buffers come back. */
static void give_up_lost_frames(sc_t *sc, uint64_t completed)
{
    uint64_t now_us = (uint64_t)deadline_now_ns() / 1000;

    while (sc->ring.oldest < completed) {
        struct frame *o = &sc->ring.frames[sc->ring.oldest % SC_MAX_FRAMES];

        /* Age alone: a MAILBOX frame replaced by a later one completes (as
         * skipped) at its vblank, after the frames that replaced it. */
        if (now_us - o->submit_us < (uint64_t)SC_LOST_FRAME_NS / 1000)
            return;
        sc_log(sc, "frame %llu: no CompleteNotify came; given up",
               (unsigned long long)o->serial);
        sc_stats_lost(sc, o);
        frame_done(sc, o, XCB_PRESENT_UTIL_COMPLETE_LOST, 0, false, false);
    }
}

/* When frame f is given up by time: the vblank that should have shown it,
 * plus SC_LOST_PERIODS periods within [SC_LOST_MIN_NS, SC_LOST_MAX_NS]
 * (SC_LOST_UNKNOWN_NS after a guess of that vblank while the refresh is
 * unknown), doubled for each frame given up by time since the last
 * completion: a server that shows frames late (a throttled window) is not
 * given ever more frames to queue at the pace of the lost ones. */
static uint64_t lost_after_ns(const sc_t *sc, const struct frame *f)
{
    uint64_t period, due = sc_clock_due_ns(sc, f->target_msc, f->submit_us * 1000, &period);
    uint64_t bound = SC_LOST_PERIODS * period;
    uint32_t streak = sc->ring.lost_streak < SC_LOST_BACKOFF ? sc->ring.lost_streak : SC_LOST_BACKOFF;

    if (!period)
        bound = SC_LOST_UNKNOWN_NS;
    else if (bound < SC_LOST_MIN_NS)
        bound = SC_LOST_MIN_NS;
    else if (bound > SC_LOST_MAX_NS)
        bound = SC_LOST_MAX_NS;
    return due + (bound << streak);
}

void sc_recover_by_time(sc_t *sc, uint64_t now_ns)
{
    /* Frames oldest first; the frames after one not yet due wait for it. */
    while (sc->ring.in_flight && sc->ring.oldest <= sc->ring.serial) {
        struct frame *f = &sc->ring.frames[sc->ring.oldest % SC_MAX_FRAMES];
        struct buffer *b;
        bool done;

        if (f->serial != sc->ring.oldest || now_ns < lost_after_ns(sc, f))
            break;
        sc_log(sc, "frame %llu (serial %u, target %llu): no CompleteNotify %llu ms after it "
               "was sent, nor any later one: given up by time", (unsigned long long)f->serial,
               f->wire_serial, (unsigned long long)f->target_msc,
               (unsigned long long)(now_ns / 1000 - f->submit_us) / 1000);
        sc_stats_lost(sc, f);
        b = &sc->buffers[f->index];
        /* Its idle fence triggered: the server is done with the frame, so
         * its completion was lost, not late, and nothing of it is queued. */
        done = b->state == BUF_PRESENTED && b->last_serial == f->serial &&
               sc->backend->is_idle && sc->backend->is_idle(sc, b, 0);
        frame_done(sc, f, XCB_PRESENT_UTIL_COMPLETE_LOST, 0, false, true);
        if (!done)
            sc->ring.lost_streak++;
        sc_signal_work(sc);
    }
    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        struct buffer *b = &sc->buffers[i];
        const char *why;

        if (!lost_out(b))
            continue;
        if (sc->backend->is_idle && sc->backend->is_idle(sc, b, 0))
            why = "its idle fence triggered";
        else if (now_ns >= b->lost_until_ns)
            why = "out too long";
        else
            continue;
        sc_log(sc, "buffer %u: no IdleNotify for serial %u, no word since its frame (or the "
               "next) was given up %llu ms ago: taken back (%s)", b->index,
               b->last_wire_serial, (unsigned long long)(now_ns - b->lost_ns) / 1000000, why);
        b->idle_notified = true;
        b->lost_ns = 0;
        sc_signal_work(sc);
    }
}

uint64_t sc_next_recovery_ns(const sc_t *sc)
{
    const struct frame *f = &sc->ring.frames[sc->ring.oldest % SC_MAX_FRAMES];
    uint64_t next = 0;

    if (sc->ring.in_flight && sc->ring.oldest <= sc->ring.serial && f->serial == sc->ring.oldest)
        next = lost_after_ns(sc, f);
    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        const struct buffer *b = &sc->buffers[i];

        if (lost_out(b) && (!next || b->lost_until_ns < next))
            next = b->lost_until_ns;
    }
    return next;
}

/* The completion of a frame given up by time came after all (a server
 * that was slow, not one that lost it): the frame stays given up, but its
 * buffer, and those of earlier frames given up, are done with. */
static void late_completion(sc_t *sc, const xcb_present_complete_notify_event_t *ev)
{
    uint64_t now = (uint64_t)deadline_now_ns();

    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        struct buffer *b = &sc->buffers[i];

        if (!lost_out(b) || b->completed || b->last_wire_serial != ev->serial)
            continue;
        sc_log(sc, "  the frame of buffer %u, given up by time, completed late", b->index);
        b->completed = true;
        b->complete_mode = ev->mode;
        b->completed_ns = now;
        b->shown_after = 0;
        b->lost_ns = 0;
        if (ev->mode != XCB_PRESENT_COMPLETE_MODE_SKIP)
            later_frame_shown(sc, b->last_serial, ev->msc, true, now);
        sc_signal_work(sc);
    }
}

static void on_complete(sc_t *sc, const xcb_present_complete_notify_event_t *ev)
{
    uint64_t serial, told_msc, told_ust;
    struct frame *f;
    bool taken;

    if (ev->kind != XCB_PRESENT_COMPLETE_KIND_PIXMAP && sc_msc_wait_complete(sc, ev)) {
        sc_signal_work(sc);
        return;
    }
    if (ev->kind != XCB_PRESENT_COMPLETE_KIND_PIXMAP) {
        /* a NotifyMSC (ours, or another selection's on the window): a
         * reading of the window's MSC all the same */
        sc_log(sc, "event: CompleteNotify (NotifyMSC) serial %u msc %llu ust %llu", ev->serial,
               (unsigned long long)ev->msc, (unsigned long long)ev->ust);
        /* sc_clock_prime()'s serial is its target: one that came at it
         * is a reading of the clock */
        if (sc_take_reading(sc, ev->msc, ev->ust) && ev->serial &&
            ev->serial == (uint32_t)ev->msc)
            sc_clock_add(sc, ev->msc, ev->ust);
        sc_signal_work(sc);
        return;
    }
    f = find_frame(sc, ev->serial);
    sc_log(sc, "event: CompleteNotify serial %u (frame %llu) mode %u msc %llu ust %llu",
           ev->serial, f ? (unsigned long long)f->serial : 0ull, ev->mode,
           (unsigned long long)ev->msc, (unsigned long long)ev->ust);
    if (!f) {
        sc_log(sc, "  not a frame of ours in flight: ignored");
        late_completion(sc, ev);
        return;
    }
    serial = f->serial;
    taken = sc_take_reading(sc, ev->msc, ev->ust);
    if (ev->mode != XCB_PRESENT_COMPLETE_MODE_SKIP && serial > sc->shown.last_shown_id)
        sc->shown.last_shown_id = serial;
    if (taken && f->target_msc == ev->msc && ev->mode != XCB_PRESENT_COMPLETE_MODE_SKIP)
        sc_clock_add(sc, ev->msc, ev->ust);
    sc_pacing_completed(sc, f, taken ? ev->msc : 0);
    sc_tell_times(sc, taken, ev->msc, ev->ust, &told_msc, &told_ust);
    sc_stats_completed(sc, f, ev->mode, taken ? ev->msc : 0, told_msc, told_ust);
    if (ev->mode == XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY && sc->backend->suboptimal)
        sc->suboptimal_pending = true;      /* looked into outside event processing */
    if (taken)
        sc->ring.lost_streak = 0;        /* the chain goes on from a fresh reading */
    frame_done(sc, f, ev->mode, ev->msc, taken, false);
    give_up_lost_frames(sc, serial);
    sc_signal_work(sc);
}

static void on_idle(sc_t *sc, const xcb_present_idle_notify_event_t *ev)
{
    sc_log(sc, "event: IdleNotify pixmap 0x%x serial %u", ev->pixmap, ev->serial);
    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        struct buffer *b = &sc->buffers[i];

        /* An IdleNotify for an older presentation of the same pixmap
         * says nothing about the newest one. */
        if (b->pixmap != ev->pixmap || b->state != BUF_PRESENTED ||
            b->last_wire_serial != ev->serial)
            continue;
        b->idle_notified = true;
        sc_signal_work(sc);
    }
}

static void on_configure(sc_t *sc, const xcb_present_configure_notify_event_t *ev)
{
    sc_log(sc, "event: ConfigureNotify %ux%u pixmap_flags 0x%x", ev->width, ev->height,
           ev->pixmap_flags);
    if (ev->pixmap_flags & SC_WINDOW_DESTROYED) {
        sc->dead = -ENODEV;
        sc_signal_work(sc);
        return;
    }
    /* A size no window has (a server or proxy that altered the event):
     * the buffers keep theirs rather than fail to become that. */
    if (!ev->width || !ev->height || ev->width > SC_MAX_WINDOW_SIDE ||
        ev->height > SC_MAX_WINDOW_SIDE) {
        sc_log(sc, "  no window is %ux%u: size ignored", ev->width, ev->height);
        return;
    }
    /* An event carries the sequence of the last request the server had
     * handled: one at or past the GetGeometry probe's is newer than the
     * probe's reply, which libxcb may hand over after it. */
    if (sc->probe.sequence &&
        (uint16_t)(ev->sequence - (uint16_t)sc->probe.sequence) < 0x8000)
        sc->probe.size_stale = true;
    if (ev->width != sc->win_width || ev->height != sc->win_height) {
        sc_set_window_size(sc, ev->width, ev->height);
        sc->size_changed_ns = (uint64_t)deadline_now_ns();
        sc_signal_work(sc);
    }
}

/* libxcb keeps an XGE event as its 32 bytes, its full_sequence and then
 * the 4 * length bytes that followed on the wire: a server that sends an
 * event shorter than its type leaves the struct's tail outside that memory. */
static bool event_holds(const xcb_ge_generic_event_t *ge, size_t struct_size)
{
    return sizeof(xcb_generic_event_t) + (size_t)ge->length * 4 >= struct_size;
}

int sc_drain_events(sc_t *sc)
{
    xcb_generic_event_t *ev;
    int n = 0;

    /* xcb_poll_for_special_event() reads the socket when its queue is
     * empty, without blocking. */
    while ((ev = xcb_poll_for_special_event(sc->c, sc->special))) {
        const xcb_ge_generic_event_t *ge = (const xcb_ge_generic_event_t *)ev;

        sc->last_activity_ns = (uint64_t)deadline_now_ns();
        switch (ge->event_type) {
        case XCB_PRESENT_COMPLETE_NOTIFY:
            if (event_holds(ge, sizeof(xcb_present_complete_notify_event_t)))
                on_complete(sc, (const xcb_present_complete_notify_event_t *)ev);
            else
                sc_log(sc, "event: CompleteNotify too short (length %u): ignored", ge->length);
            break;
        case XCB_PRESENT_IDLE_NOTIFY:
            if (event_holds(ge, sizeof(xcb_present_idle_notify_event_t)))
                on_idle(sc, (const xcb_present_idle_notify_event_t *)ev);
            else
                sc_log(sc, "event: IdleNotify too short (length %u): ignored", ge->length);
            break;
        case XCB_PRESENT_CONFIGURE_NOTIFY:
            if (event_holds(ge, sizeof(xcb_present_configure_notify_event_t)))
                on_configure(sc, (const xcb_present_configure_notify_event_t *)ev);
            else
                sc_log(sc, "event: ConfigureNotify too short (length %u): ignored", ge->length);
            break;
        default:
            sc_log(sc, "event: Present event type %u ignored", ge->event_type);
            break;
        }
        free(ev);
        n++;
    }
    sc->drained_stamp = __atomic_load_n(&sc->stamp, __ATOMIC_ACQUIRE);
    if (sc_conn_ok(sc))
        return -EPIPE;
    /* After what came: a completion waiting in the socket is never
     * given up for a client that was slow to read it. */
    sc_recover_by_time(sc, (uint64_t)deadline_now_ns());
    return n;
}
