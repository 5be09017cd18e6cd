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

    if (sc->work_signalled)
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

/* The 32-bit serial of an event, widened against the last one we sent:
 * the newest serial at or below sc->serial with these low bits. */
static uint64_t widen_serial(const sc_t *sc, uint32_t serial)
{
    return sc->serial - (uint32_t)((uint32_t)sc->serial - serial);
}

static struct frame *find_frame(sc_t *sc, uint64_t serial)
{
    struct frame *f = &sc->frames[serial % SC_MAX_FRAMES];

    return f->serial == serial ? f : NULL;
}

/* MSC can go backwards or read 0 when the window moves to another CRTC
 * or the CRTC is switched off: the FIFO chain starts over from the next
 * completion instead of aiming at vblanks that are long past or far off. */
static uint64_t sanitise_msc(sc_t *sc, uint64_t msc, uint64_t ust)
{
    if (sc->have_msc && msc < sc->last_msc) {
        sc_log(sc, "msc went from %llu to %llu: restarting the vblank chain",
               (unsigned long long)sc->last_msc, (unsigned long long)msc);
        sc->last_target = 0;
        sc->anchor_msc = sc->anchor_ust = 0;
    }
    if (!sc->anchor_ust) {
        sc->anchor_msc = msc;
        sc->anchor_ust = ust;
    } else if (msc > sc->anchor_msc && ust > sc->anchor_ust) {
        sc->stats.refresh_ns = (ust - sc->anchor_ust) * 1000 / (msc - sc->anchor_msc);
    }
    sc->last_msc = msc;
    sc->last_ust = ust;
    sc->have_msc = true;
    return msc;
}

static void on_complete(sc_t *sc, const xcb_present_complete_notify_event_t *ev)
{
    uint64_t serial;
    struct frame *f;
    uint64_t msc;

    if (ev->kind != XCB_PRESENT_COMPLETE_KIND_PIXMAP) {
        /* our NotifyMSC: where the CRTC is, to start the FIFO chain */
        sc_log(sc, "event: CompleteNotify (NotifyMSC) msc %llu ust %llu",
               (unsigned long long)ev->msc, (unsigned long long)ev->ust);
        sanitise_msc(sc, ev->msc, ev->ust);
        return;
    }
    serial = widen_serial(sc, ev->serial);
    f = find_frame(sc, serial);
    sc_log(sc, "event: CompleteNotify serial %llu mode %u msc %llu ust %llu",
           (unsigned long long)serial, ev->mode, (unsigned long long)ev->msc,
           (unsigned long long)ev->ust);
    if (!f) {
        sc_log(sc, "  not a frame in flight: ignored");
        return;
    }
    msc = sanitise_msc(sc, ev->msc, ev->ust);
    sc_stats_completed(sc, f, ev->mode, msc, ev->ust);
    if (ev->mode == XCB_PRESENT_COMPLETE_MODE_SUBOPTIMAL_COPY && sc->backend->suboptimal &&
        sc->backend->suboptimal(sc)) {
        sc_log(sc, "  suboptimal: buffers will be reallocated");
        for (uint32_t i = 0; i < sc->num_buffers; i++)
            sc->buffers[i].stale = true;
    }
    f->serial = 0;
    sc_signal_work(sc);
}

static void on_idle(sc_t *sc, const xcb_present_idle_notify_event_t *ev)
{
    uint64_t serial = widen_serial(sc, ev->serial);

    sc_log(sc, "event: IdleNotify pixmap 0x%x serial %llu", ev->pixmap,
           (unsigned long long)serial);
    for (uint32_t i = 0; i < sc->num_buffers; i++) {
        struct buffer *b = &sc->buffers[i];

        /* An IdleNotify for an older presentation of the same pixmap
         * says nothing about the newest one. */
        if (b->pixmap != ev->pixmap || b->state != BUF_PRESENTED || b->last_serial != serial)
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
    if (ev->width != sc->win_width || ev->height != sc->win_height) {
        sc->win_width = ev->width;
        sc->win_height = ev->height;
        sc->size_changed_ns = sc_now_ns();
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

        sc->last_activity_ns = sc_now_ns();
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
    return n;
}
