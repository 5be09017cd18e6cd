/*
 * GLX_OML_sync_control on the swapchain: present_msc() aims a frame at a
 * vblank count with divisor and remainder, wait_msc() waits for one
 * (PresentNotifyMSC).  The swap count of glXWaitForSbcOML is the
 * frame_id, and its wait is wait_frame().
 *
 * The caller counts in the swapchain's MSC (the server's plus
 * sc->msc.msc_offset, which keeps the count from stepping back when the window
 * moves to another CRTC); requests go out in the server's count.
 */
#include <errno.h>
#include <string.h>

#include "sized-private.h"
#include "swapchain-private.h"

/* The aim in the server's count: the target less the offset (a target
 * the offset puts before the server's 0 is "passed"), and the remainder
 * moved by the offset modulo the divisor. */
static struct sc_aim server_aim(const sc_t *sc, uint64_t target, uint64_t divisor,
                                uint64_t remainder)
{
    struct sc_aim a = { .divisor = divisor };

    a.target = target > sc->msc.msc_offset ? target - sc->msc.msc_offset : 0;
    if (divisor)
        a.remainder = (remainder + divisor - sc->msc.msc_offset % divisor) % divisor;
    return a;
}

int xcb_present_util_present_msc(xcb_present_util_swapchain_t *sc,
                                 const xcb_present_util_image_t *image,
                                 const xcb_rectangle_t *damage, uint32_t n_damage,
                                 uint64_t target_msc, uint64_t divisor, uint64_t remainder)
{
    struct sc_aim aim;

    if (!sc || (divisor && remainder >= divisor) || (!divisor && remainder))
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    aim = server_aim(sc, target_msc, divisor, remainder);
    sc_unlock(sc);
    return sc_present_frame(sc, image, damage, n_damage, 0, &aim, 0, NULL);
}

/* wait_msc()'s serials: the top bit set, apart from the frames' (a
 * pixmap's completion is told apart by its kind anyway) and from the
 * clock's NotifyMSCs (serial = target, far below 2^31). */
static uint32_t next_wait_serial(void)
{
    static uint32_t last;

    return 0x80000000u | (__atomic_add_fetch(&last, 1, __ATOMIC_RELAXED) & 0x7fffffffu);
}

bool sc_msc_wait_complete(sc_t *sc, const xcb_present_complete_notify_event_t *ev)
{
    for (uint32_t i = 0; i < SC_MSC_WAITS; i++) {
        struct msc_wait *w = &sc->msc_waits[i];
        bool taken;

        if (!w->serial || w->serial != ev->serial || w->done)
            continue;
        sc_log(sc, "event: CompleteNotify (wait_msc) serial 0x%x msc %llu ust %llu",
               ev->serial, (unsigned long long)ev->msc, (unsigned long long)ev->ust);
        taken = sc_take_reading(sc, ev->msc, ev->ust);
        sc_tell_times(sc, taken, ev->msc, ev->ust, &w->msc, &w->ust);
        w->done = true;
        return true;
    }
    return false;
}

static int msc_step(sc_t *sc, void *arg, int *r, uint64_t *wake_ns)
{
    struct msc_wait *w = arg;

    (void)sc;
    (void)wake_ns;
    if (!w->done)
        return 0;
    *r = 0;
    return 1;
}

int xcb_present_util_wait_msc(xcb_present_util_swapchain_t *sc, uint64_t target_msc,
                              uint64_t divisor, uint64_t remainder, int64_t timeout_ns,
                              xcb_present_util_timing_t *t)
{
    xcb_present_util_timing_t all = { .size = sizeof all };
    struct msc_wait *w = NULL;
    struct sc_aim aim;
    int r;

    if (!sc || (divisor && remainder >= divisor) || (!divisor && remainder) ||
        (t && t->size < TIMING_SIZE_FIRST))
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    for (uint32_t i = 0; i < SC_MSC_WAITS && !w; i++)
        if (!sc->msc_waits[i].serial)
            w = &sc->msc_waits[i];
    r = sc->dead ? sc->dead : sc_conn_ok(sc);
    if (!r && !w) {
        sc_log(sc, "wait_msc: %u waits at once already", SC_MSC_WAITS);
        r = -EBUSY;
    }
    if (r) {
        sc_unlock(sc);
        return r;
    }
    *w = (struct msc_wait){ .serial = next_wait_serial() };
    aim = server_aim(sc, target_msc, divisor, remainder);
    xcb_present_notify_msc(sc->c, sc->window, w->serial, aim.target, aim.divisor,
                           aim.remainder);
    xcb_flush(sc->c);
    sc_log(sc, "request: NotifyMSC serial 0x%x target %llu divisor %llu remainder %llu "
           "(wait_msc)", w->serial, (unsigned long long)aim.target,
           (unsigned long long)aim.divisor, (unsigned long long)aim.remainder);
    r = sc_wait_for(sc, timeout_ns, 0, msc_step, w, "wait_msc");
    if (r == 0) {
        all.msc = w->msc;
        all.ust = w->ust;
        all.sbc = sc->shown.last_shown_id;
    }
    /* a late answer finds no slot and goes by as someone else's */
    w->serial = 0;
    sc_unlock(sc);
    if (r == 0 && t) {
        all.size = t->size;
        memcpy(t, &all, sized_len(t->size, sizeof all));
    }
    return r;
}
