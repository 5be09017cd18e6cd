/*
 * What the library remembers per X connection: the probe's answer and the
 * modifier lists of GetSupportedModifiers.  Shared by the files of the
 * buffer, device and explicit-sync part (probe.c owns the state).
 */
#ifndef XCB_DRI3_UTIL_CONN_STATE_H
#define XCB_DRI3_UTIL_CONN_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "xcb_dri3_util.h"

/*
 * The probe's answer for c, probing first if nothing is cached.  Copies it
 * to *caps.  0, -EPIPE or -ENOMEM.
 */
int conn_caps(xcb_connection_t *c, xcb_dri3_util_caps_t *caps);

/*
 * Whether requests of DRI3 >= major.minor may go to c: 0, or -ENOTSUP /
 * -EPIPE / -ENOMEM.  The caps are copied to *caps when caps is not NULL.
 */
int conn_need_dri3(xcb_connection_t *c, uint32_t minor, xcb_dri3_util_caps_t *caps);

/* A cached modifier list pair, or false when none is cached.  *window and
 * *screen are fresh copies the caller frees (NULL when empty). */
bool conn_modifiers_get(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                        uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                        uint32_t *n_screen);
/* Remembers a pair (copies the arrays); silently keeps nothing when memory
 * runs out. */
void conn_modifiers_put(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                        const uint64_t *window_mods, uint32_t n_window,
                        const uint64_t *screen_mods, uint32_t n_screen);

/*
 * The server's modifier lists for window/depth/bpp: from the cache, or
 * asked for (GetSupportedModifiers) and cached.  Same contract as
 * xcb_dri3_util_get_supported_modifiers() except that it does not check
 * the DRI3 version (the caller has).
 */
int modifiers_lookup(xcb_connection_t *c, uint32_t window, uint8_t depth, uint8_t bpp,
                     uint64_t **window_mods, uint32_t *n_window, uint64_t **screen_mods,
                     uint32_t *n_screen, xcb_generic_error_t **err);

/* Stores an X error in *err (or frees it) and sets errno to EIO. */
void util_report_x_error(xcb_generic_error_t *e, xcb_generic_error_t **err);

#endif
