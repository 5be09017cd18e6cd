/*
 * Where the DRI3 back end's own buffers come from: GBM on the DRM device
 * that DRI3 Open gave, or memfds.  GBM's calls are a table of functions
 * (a seam, as timeline-private.h's), so that a test that builds the
 * swapchain's sources into itself can stand in for GBM where there is no
 * /dev/dri: make gbm_create_device() fail, or hand out buffers of its own
 * as if GBM had made them.  The library never changes the table.
 * Hidden: nothing here is exported from libxcb-present-util.so.
 */
#ifndef ALLOC_PRIVATE_H
#define ALLOC_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "xcb_dri3_util.h"
#include "xcb_present_util.h"

#pragma GCC visibility push(hidden)

struct sc_gbm_ops {
    /* false: the library was built without GBM (configure --without-gbm) */
    bool built;
    /* whether GBM can open dev: a DRM device */
    bool (*usable)(const xcb_dri3_util_device_t *dev);
    /* gbm_create_device() on fd, which outlives it; NULL with errno */
    void *(*create_device)(int fd);
    void (*destroy_device)(void *gbm);
    /* xcb_dri3_util_buffer_create_gbm() */
    xcb_dri3_util_buffer_t *(*create)(void *gbm, uint16_t width, uint16_t height,
                                      uint32_t fourcc, const uint64_t *modifiers,
                                      unsigned n_modifiers);
};

/* GBM itself (backend-dri3-alloc.c). */
extern const struct sc_gbm_ops sc_gbm_real;
/* What the next swapchain's DRI3 back end uses: &sc_gbm_real unless a
 * test set it. */
extern const struct sc_gbm_ops *sc_gbm_ops;

/*
 * The choice, from what is known before anything is allocated: GBM when
 * the library has it and dev (NULL: DRI3 Open failed) is a device it can
 * open; otherwise memfds, with *why saying why (a static string, or dev's
 * note).  GBM may still fail later (its device, an allocation, the
 * server's refusal); the back end then turns to memfds and says so.
 */
xcb_present_util_alloc_t sc_alloc_choose(const struct sc_gbm_ops *ops,
                                         const xcb_dri3_util_device_t *dev, const char **why);

#pragma GCC visibility pop

#endif
