/*
 * The caller's callbacks, run outside the swapchain's lock: the frame
 * callback for every completed frame, the resize callback when the
 * window's size changes.  What happens under the lock is queued; the
 * thread that lets the lock go (sc_unlock(), or a wait about to sleep)
 * runs the callbacks, one thread at a time so that they come in order,
 * and counts as a waiter meanwhile so that destroy() waits for it.
 */
#include "swapchain-private.h"

void sc_queue_frame(sc_t *sc, const xcb_present_util_frame_t *f)
{
    if (!sc->hooks.frame_cb)
        return;
    /* at most SC_MAX_FRAMES frames are in flight, and each completes once */
    if (sc->hooks.cb_count == SC_MAX_FRAMES) {
        sc_log(sc, "frame callback: queue full, frame %llu not reported",
               (unsigned long long)f->frame);
        return;
    }
    sc->hooks.cb_queue[(sc->hooks.cb_head + sc->hooks.cb_count) % SC_MAX_FRAMES] = *f;
    sc->hooks.cb_count++;
}

void sc_set_window_size(sc_t *sc, uint16_t width, uint16_t height)
{
    if (width == sc->win_width && height == sc->win_height)
        return;
    sc->win_width = width;
    sc->win_height = height;
    sc->hooks.resize_pending = true;
}

/* Runs what is queued, the lock held on entry and on return. */
static void deliver(sc_t *sc)
{
    while (!sc->hooks.delivering && !sc->destroying && (sc->hooks.cb_count || sc->hooks.resize_pending)) {
        xcb_present_util_frame_cb_t frame_cb = NULL;
        xcb_present_util_resize_cb_t resize_cb = NULL;
        xcb_present_util_frame_t f;
        uint16_t w = 0, h = 0;
        void *data;

        if (sc->hooks.cb_count) {
            f = sc->hooks.cb_queue[sc->hooks.cb_head];
            sc->hooks.cb_head = (sc->hooks.cb_head + 1) % SC_MAX_FRAMES;
            sc->hooks.cb_count--;
            frame_cb = sc->hooks.frame_cb;
            data = sc->hooks.frame_cb_data;
        } else {
            sc->hooks.resize_pending = false;
            resize_cb = sc->hooks.resize_cb;
            data = sc->hooks.resize_cb_data;
            w = sc->win_width;
            h = sc->win_height;
        }
        if (!frame_cb && !resize_cb)
            continue;
        sc->hooks.delivering = true;
        sc->waiters++;
        pthread_mutex_unlock(&sc->lock);
        if (frame_cb)
            frame_cb(data, &f);
        else
            resize_cb(data, w, h);
        pthread_mutex_lock(&sc->lock);
        sc->waiters--;
        sc->hooks.delivering = false;
        if (sc->destroying)
            pthread_cond_broadcast(&sc->idle_cond);
    }
}

void sc_unlock(sc_t *sc)
{
    deliver(sc);
    pthread_mutex_unlock(&sc->lock);
}

void sc_deliver_callbacks(sc_t *sc)
{
    deliver(sc);
}

void xcb_present_util_swapchain_set_resize_callback(xcb_present_util_swapchain_t *sc,
                                                    xcb_present_util_resize_cb_t cb, void *data)
{
    if (!sc)
        return;
    pthread_mutex_lock(&sc->lock);
    sc->hooks.resize_cb = cb;
    sc->hooks.resize_cb_data = data;
    pthread_mutex_unlock(&sc->lock);
}
