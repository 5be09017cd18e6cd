/*
 * DRI3 GetSupportedModifiers: the lists a loader chooses a buffer layout
 * from, and that xcb_dri3_util_buffer_to_pixmap() checks a buffer's
 * modifier against.  Answers are cached per connection, window, depth and
 * bpp (window lists may change when a window moves between CRTCs; asking
 * through the public function refreshes the cache).
 */
#include "conn-state.h"
#include "wait-private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/dri3.h>

static uint64_t *copy_mods(const uint64_t *src, uint32_t n, int *ret)
{
    uint64_t *dst;

    if (n == 0)
        return NULL;
    dst = malloc((size_t)n * sizeof *dst);
    if (!dst)
        *ret = -ENOMEM;
    else
        memcpy(dst, src, (size_t)n * sizeof *dst);
    return dst;
}

/* Asks the server; fills the outputs and the cache. */
static int query(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                 uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                 uint32_t *n_screen, xcb_generic_error_t **err)
{
    xcb_dri3_get_supported_modifiers_reply_t *r = NULL;
    xcb_generic_error_t *e = NULL;
    int ret;

    ret = util_wait_reply(c, xcb_dri3_get_supported_modifiers(c, window, depth, bpp).sequence,
                          0, (void **)&r, &e);
    if (ret == 1) {
        util_report_x_error(e, err);
        return -EIO;
    }
    if (ret < 0)
        return ret;
    /* Both lists must lie within the reply (libxcb read 32 + 4 * length
     * bytes; the counts are the server's word). */
    if (32 + 8 * ((uint64_t)r->num_window_modifiers + r->num_screen_modifiers) >
        32 + 4 * (uint64_t)r->length) {
        free(r);
        return -EPROTO;
    }
    *n_window = r->num_window_modifiers;
    *n_screen = r->num_screen_modifiers;
    *window_mods = copy_mods(xcb_dri3_get_supported_modifiers_window_modifiers(r), *n_window,
                             &ret);
    *screen_mods = copy_mods(xcb_dri3_get_supported_modifiers_screen_modifiers(r), *n_screen,
                             &ret);
    if (ret == 0)
        conn_modifiers_put(c, window, depth, bpp, *window_mods, *n_window, *screen_mods,
                           *n_screen);
    free(r);
    return ret;
}

static void clear_outputs(uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                          uint32_t *n_screen)
{
    free(*window_mods);
    free(*screen_mods);
    *window_mods = *screen_mods = NULL;
    *n_window = *n_screen = 0;
}

int modifiers_lookup(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                     uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                     uint32_t *n_screen, xcb_generic_error_t **err)
{
    int ret;

    *window_mods = *screen_mods = NULL;
    *n_window = *n_screen = 0;
    if (conn_modifiers_get(c, window, depth, bpp, window_mods, n_window, screen_mods,
                           n_screen))
        return 0;
    ret = query(c, window, depth, bpp, window_mods, n_window, screen_mods, n_screen, err);
    if (ret < 0)
        clear_outputs(window_mods, n_window, screen_mods, n_screen);
    return ret;
}

int xcb_dri3_util_modifiers_query(xcb_connection_t *c, xcb_window_t window,
                                  uint8_t depth, uint8_t bpp,
                                  uint64_t **window_mods, uint32_t *n_window,
                                  uint64_t **screen_mods, uint32_t *n_screen,
                                  xcb_generic_error_t **err)
{
    xcb_dri3_util_wait_scope_t previous;
    int ret;

    if (err)
        *err = NULL;
    if (!window_mods || !n_window || !screen_mods || !n_screen) {
        errno = EINVAL;
        return -EINVAL;
    }
    *window_mods = *screen_mods = NULL;
    *n_window = *n_screen = 0;
    previous = util_call_begin(c);
    ret = conn_need_dri3(c, 2, NULL);
    if (ret == 0)
        ret = query(c, window, depth, bpp, window_mods, n_window, screen_mods, n_screen, err);
    util_call_end(previous);
    if (ret < 0) {
        clear_outputs(window_mods, n_window, screen_mods, n_screen);
        errno = -ret;
    }
    return ret;
}
