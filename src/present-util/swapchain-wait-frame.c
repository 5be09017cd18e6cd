/*
 * wait_frame(): until a given frame was shown or skipped
 * (VK_KHR_present_wait, glXWaitForSbcOML), with its timing.
 */
#include <errno.h>
#include <string.h>

#include "sized-private.h"
#include "swapchain-private.h"

/* A frame is done once its slot in the ring of frames in flight no longer
 * holds it (completed, or given up as lost). */
static bool frame_is_done(const sc_t *sc, uint64_t frame_id)
{
    return sc->ring.frames[frame_id % SC_MAX_FRAMES].serial != frame_id;
}

static int frame_step(sc_t *sc, void *arg, int *r, uint64_t *wake_ns)
{
    const uint64_t *frame_id = arg;

    (void)wake_ns;
    if (!frame_is_done(sc, *frame_id))
        return 0;
    *r = 0;
    return 1;
}

int xcb_present_util_wait_frame(xcb_present_util_swapchain_t *sc, uint64_t frame_id,
                                int64_t timeout_ns, xcb_present_util_frame_t *frame)
{
    xcb_present_util_frame_t info;
    int r;

    if (!sc || (frame && frame->size < FRAME_SIZE_FIRST))
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    if (!frame_id)
        frame_id = sc->ring.serial;
    if (!frame_id || frame_id > sc->ring.serial) {
        sc_log(sc, "wait_frame: frame %llu was not presented (last %llu)",
               (unsigned long long)frame_id, (unsigned long long)sc->ring.serial);
        sc_unlock(sc);
        return -EINVAL;
    }
    r = sc_wait_for(sc, timeout_ns, 0, frame_step, &frame_id, "wait_frame");
    if (!r) {
        /* Kept for the last SC_DONE_FRAMES frames; an older one is known
         * done, its timing no longer. */
        info = sc->shown.done[frame_id % SC_DONE_FRAMES];
        if (info.frame != frame_id)
            info = (xcb_present_util_frame_t){ .frame = frame_id };
        info.size = sizeof info;
    }
    sc_update_readiness(sc);
    sc_unlock(sc);
    if (!r && frame) {
        info.size = frame->size;
        memcpy(frame, &info, sized_len(frame->size, sizeof info));
    }
    return r;
}
