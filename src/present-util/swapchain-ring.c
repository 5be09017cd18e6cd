/*
 * The image ring changed in place: the caller's images replaced
 * (set_images(): a GL drawable's new back buffers after a resize, a new
 * modifier set) and the number of the library's own buffers changed
 * (set_num_buffers()), without making a new swapchain: frame ids, the
 * MSC count, the clock and the pacing go on.
 *
 * Both build the new buffers first and let the old ones go only once all
 * of them exist, so that a failure changes nothing.  An old buffer may
 * still be queued on the server or on screen: freeing its pixmap is safe
 * (the server keeps its own reference to what it shows), and its frame
 * goes on counting as in flight, so the FIFO chain and the queue bound
 * stay right.  Its completion and IdleNotify no longer find a buffer of
 * theirs (the new buffer in the slot has another pixmap and no frame), so
 * they touch none.
 */
#include <errno.h>
#include <string.h>

#include "swapchain-private.h"
#include "xcb_dri3_util_wait.h"

/* A slot made ready for a new buffer: nothing of the old one's state. */
static void fresh_slot(struct buffer *b, uint32_t index)
{
    memset(b, 0, sizeof *b);
    b->index = index;
}

static bool any_acquired(const sc_t *sc, uint32_t from)
{
    for (uint32_t i = from; i < sc->num_buffers; i++)
        if (sc->buffers[i].state == BUF_ACQUIRED)
            return true;
    return false;
}

/* The lock held, within a wait_scope(): allocates buffers [from, to) in
 * fresh slots.  On failure frees what it made (the slots,
 * beyond num_buffers or restored by the caller, hold nothing then).  0
 * or a negative errno. */
static int alloc_range(sc_t *sc, uint32_t from, uint32_t to)
{
    int r = 0;
    uint32_t i;

    for (i = from; i < to && !r; i++) {
        fresh_slot(&sc->buffers[i], i);
        r = sc_buffer_alloc(sc, &sc->buffers[i]);
    }
    if (r)
        for (uint32_t j = from; j < i; j++)
            sc_buffer_free(sc, &sc->buffers[j]);
    return r;
}

/* The round trips of one change, together, within the connection's
 * bound, as create()'s. */
static xcb_dri3_util_wait_scope_t wait_scope(sc_t *sc)
{
    return xcb_dri3_util_wait_scope_push(xcb_dri3_util_deadline(sc->c), sc->cancel_fd);
}

int xcb_present_util_swapchain_set_images(xcb_present_util_swapchain_t *sc,
                                          xcb_dri3_util_buffer_t *const *images,
                                          uint32_t num_images)
{
    struct buffer old[SC_MAX_BUFFERS];
    xcb_dri3_util_buffer_t *old_images[SC_MAX_BUFFERS];
    xcb_dri3_util_wait_scope_t scope;
    uint32_t old_n;
    int r;

    if (!sc)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    r = sc->dead;
    if (!r && (!sc->caller_images ||
               sc_check_images(images, num_images, sc->backend->kind) < 0 ||
               xcb_dri3_util_buffer_depth(images[0]) != sc->depth)) {
        sc_log(sc, "set_images: %s", !sc->caller_images ? "the swapchain has no caller images"
                                                        : "images it cannot take");
        r = -EINVAL;
    }
    if (!r && any_acquired(sc, 0)) {
        sc_log(sc, "set_images: an image is acquired");
        r = -EBUSY;
    }
    if (r) {
        sc_unlock(sc);
        return r;
    }
    old_n = sc->num_buffers;
    memcpy(old, sc->buffers, sizeof old);
    memcpy(old_images, sc->images, sizeof old_images);
    memset(sc->images, 0, sizeof sc->images);
    memcpy(sc->images, images, num_images * sizeof *images);
    sc->num_buffers = num_images;
    /* the new images' server side first (DRI3: all pixmaps in one round
     * trip), then each buffer takes its own */
    scope = wait_scope(sc);
    r = sc->backend->prepare_images ? sc->backend->prepare_images(sc) : 0;
    if (!r)
        r = alloc_range(sc, 0, num_images);
    xcb_dri3_util_wait_scope_pop(scope);
    if (sc->backend->discard_images)
        sc->backend->discard_images(sc);    /* what no buffer took */
    if (r) {
        sc_log(sc, "set_images: %u new images failed (%s): the old ones stay", num_images,
               strerror(-r));
        memcpy(sc->buffers, old, sizeof old);
        memcpy(sc->images, old_images, sizeof old_images);
        sc->num_buffers = old_n;
        if (sc->dead)
            r = sc->dead;
        sc_unlock(sc);
        return r;
    }
    for (uint32_t i = 0; i < old_n; i++)
        sc_buffer_free(sc, &old[i]);
    for (uint32_t i = num_images; i < SC_MAX_BUFFERS; i++)
        fresh_slot(&sc->buffers[i], i);
    sc->images_suboptimal = false;
    sc->mismatch_since_ns = 0;
    sc_clamp_latency(sc);
    sc_log(sc, "set_images: %u images of %ux%u replace %u", num_images,
           xcb_dri3_util_buffer_width(images[0]), xcb_dri3_util_buffer_height(images[0]),
           old_n);
    sc_update_readiness(sc);
    sc_unlock(sc);
    return 0;
}

int xcb_present_util_swapchain_set_num_buffers(xcb_present_util_swapchain_t *sc, uint32_t n)
{
    uint32_t old_n;
    int r;

    if (!sc || n < 2 || n > SC_MAX_BUFFERS)
        return -EINVAL;
    pthread_mutex_lock(&sc->lock);
    r = sc->dead;
    if (!r && sc->caller_images) {
        sc_log(sc, "set_num_buffers: caller images (set_images() changes them)");
        r = -EINVAL;
    }
    if (!r && any_acquired(sc, n)) {
        sc_log(sc, "set_num_buffers: a buffer that would go is acquired");
        r = -EBUSY;
    }
    if (r) {
        sc_unlock(sc);
        return r;
    }
    old_n = sc->num_buffers;
    if (n > old_n) {
        xcb_dri3_util_wait_scope_t scope = wait_scope(sc);

        r = alloc_range(sc, old_n, n);
        xcb_dri3_util_wait_scope_pop(scope);
        if (r) {
            sc_log(sc, "set_num_buffers: %u more failed (%s)", n - old_n, strerror(-r));
            if (sc->dead)
                r = sc->dead;
            sc_unlock(sc);
            return r;
        }
    }
    for (uint32_t i = n; i < old_n; i++) {
        sc_buffer_free(sc, &sc->buffers[i]);
        fresh_slot(&sc->buffers[i], i);
    }
    sc->num_buffers = n;
    sc_clamp_latency(sc);
    sc_log(sc, "set_num_buffers: %u buffers (were %u), max_latency %u", n, old_n,
           sc->max_latency);
    sc_update_readiness(sc);
    sc_unlock(sc);
    return 0;
}
