/*
 * What a driver changes between frames: an image given back unpresented,
 * the mode and the swap interval, and the sticky status and window size
 * its state machine reads; and the wait for the caller's present ids
 * (VK_KHR_present_wait).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/randr.h>
#include <xcb/xcbext.h>

#include "sized-private.h"
#include "swapchain-private.h"

/* Xwayland: its XWAYLAND extension (Xwayland 23.1 on) or, before it, the
 * name of its first RandR output (XWAYLAND0...).  Asked once, with the
 * connection's bound; a server that does not answer is taken for another. */
static bool ask_xwayland(sc_t *sc)
{
    static xcb_extension_t xwayland_id = { "XWAYLAND", 0 };
    const xcb_query_extension_reply_t *ext;
    xcb_randr_query_version_reply_t *v = NULL;
    xcb_randr_get_screen_resources_current_reply_t *res = NULL;
    xcb_randr_get_output_info_reply_t *out = NULL;
    xcb_generic_error_t *e = NULL;
    bool found = false;
    int r;

    ext = sc_extension(sc, &xwayland_id, &r);
    if (ext && ext->present)
        return true;
    ext = sc_extension(sc, &xcb_randr_id, &r);
    if (!ext || !ext->present)
        return false;
    /* GetScreenResourcesCurrent is RandR 1.3's, for clients that said so */
    if (sc_wait_reply(sc, xcb_randr_query_version(sc->c, 1, 3).sequence, (void **)&v, &e) == 0 &&
        (v->major_version > 1 || v->minor_version >= 3)) {
        xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(sc->c)).data->root;

        if (sc_wait_reply(sc, xcb_randr_get_screen_resources_current(sc->c, root).sequence,
                          (void **)&res, &e) != 0)
            res = NULL;
    }
    free(e);
    e = NULL;
    if (res && xcb_randr_get_screen_resources_current_outputs_length(res) > 0 &&
        sc_wait_reply(sc, xcb_randr_get_output_info(
                              sc->c, xcb_randr_get_screen_resources_current_outputs(res)[0],
                              res->config_timestamp).sequence,
                      (void **)&out, &e) == 0)
        found = xcb_randr_get_output_info_name_length(out) >= 8 &&
                memcmp(xcb_randr_get_output_info_name(out), "XWAYLAND", 8) == 0;
    free(e);
    free(v);
    free(res);
    free(out);
    return found;
}

void sc_detect_xwayland(sc_t *sc)
{
    if (sc->xwayland >= 0)
        return;
    sc->xwayland = ask_xwayland(sc);
    sc_log(sc, "server: %s", sc->xwayland ? "Xwayland (MAILBOX frames go Async)"
                                          : "not Xwayland");
}

void sc_apply_mode(sc_t *sc)
{
    xcb_present_util_mode_t was = sc->mode;

    /* GLX_EXT_swap_control: interval 0 does not wait for vblanks */
    sc->mode = !sc->swap_interval && sc->base_mode <= XCB_PRESENT_UTIL_MODE_FIFO_RELAXED
                   ? XCB_PRESENT_UTIL_MODE_IMMEDIATE : sc->base_mode;
    if (sc->mode == was)
        return;
    sc_log(sc, "mode: %s from the next frame on", xcb_present_util_mode_name(sc->mode));
    /* LOW_LATENCY's plan was made for the old mode */
    sc->pace.plan_key = 0;
    sc->pace.plan_msc = sc->pace.plan_slot = 0;
}

int xcb_present_util_release(xcb_present_util_swapchain_t *sc,
                             const xcb_present_util_image_t *image)
{
    struct buffer *b;

    if (!sc || !image || image->size < IMAGE_SIZE_FIRST)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    b = sc_acquired_buffer(sc, image, "release");
    if (!b) {
        sc_unlock(sc);
        return -EINVAL;
    }
    sc_give_back(sc, b);        /* the caller may have drawn: age 0 */
    sc->pace.plan_key = 0;           /* the frame the plan was for never comes */
    sc_log(sc, "release: image %u given back unpresented", b->index);
    sc_update_readiness(sc);
    sc_unlock(sc);
    return 0;
}

int xcb_present_util_swapchain_set_mode(xcb_present_util_swapchain_t *sc,
                                        xcb_present_util_mode_t mode)
{
    if (!sc || (unsigned)mode > XCB_PRESENT_UTIL_MODE_IMMEDIATE)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    sc->base_mode = mode;
    if (mode == XCB_PRESENT_UTIL_MODE_MAILBOX)
        sc_detect_xwayland(sc);
    sc_apply_mode(sc);
    sc_update_readiness(sc);
    sc_unlock(sc);
    return 0;
}

int xcb_present_util_swapchain_set_swap_interval(xcb_present_util_swapchain_t *sc,
                                                 uint32_t interval)
{
    if (!sc)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    sc->swap_interval = interval;
    /* interval 0 is IMMEDIATE, where fifo_target() is not used */
    sc_apply_mode(sc);
    sc_update_readiness(sc);
    sc_unlock(sc);
    return 0;
}

int xcb_present_util_swapchain_status(xcb_present_util_swapchain_t *sc)
{
    int r = 0;

    if (!sc)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    if (sc->dead)
        r = sc->dead;
    else if (sc->caller_images)
        for (uint32_t i = 0; i < sc->num_buffers && !r; i++)
            if (!sc_images_fit(sc, &sc->buffers[i]))
                r = XCB_PRESENT_UTIL_SUBOPTIMAL;
    sc_unlock(sc);
    return r;
}

int xcb_present_util_swapchain_window_size(xcb_present_util_swapchain_t *sc,
                                           uint16_t *width, uint16_t *height)
{
    if (!sc || !width || !height)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    *width = sc->win_width;
    *height = sc->win_height;
    sc_unlock(sc);
    return 0;
}

static int present_id_step(sc_t *sc, void *arg, int *r, uint64_t *wake_ns)
{
    const uint64_t *present_id = arg;

    (void)wake_ns;
    if (sc->shown.done_present_id < *present_id)
        return 0;
    *r = 0;
    return 1;
}

int xcb_present_util_wait_present(xcb_present_util_swapchain_t *sc, uint64_t present_id,
                                  int64_t timeout_ns, xcb_present_util_frame_t *frame)
{
    xcb_present_util_frame_t info = { .size = sizeof info, .present_id = present_id };
    int r;

    if (!sc || !present_id || (frame && frame->size < FRAME_SIZE_FIRST))
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    /* no bound but the end of the window or the connection: in slices of
     * the waits' own bound */
    do
        r = sc_wait_for(sc, timeout_ns, 0, present_id_step, &present_id, "wait_present");
    while (r == -ETIMEDOUT && timeout_ns < 0);
    if (!r)
        for (uint32_t i = 0; i < SC_DONE_FRAMES; i++)
            if (sc->shown.done[i].frame && sc->shown.done[i].present_id == present_id)
                info = sc->shown.done[i];
    sc_update_readiness(sc);
    sc_unlock(sc);
    if (!r && frame) {
        info.size = frame->size;
        memcpy(frame, &info, sized_len(frame->size, sizeof info));
    }
    return r;
}
