/*
 * The timelines behind the DRI3 back end's explicit sync, as a table of
 * functions (a seam, like libwayland's wrappers of system calls).
 *
 * The library uses DRM timeline syncobjs through libdrm
 * (xcb_dri3_util_timeline_*) and never changes the table.  A test that
 * builds the swapchain's sources into itself (tests/present-util) points
 * sc_timeline_ops at timelines of its own, memfds that the mock X server
 * maps, so that PresentPixmapSynced runs where there is no DRM device.
 * Hidden: nothing here is exported from libxcb-present-util.so.
 */
#ifndef TIMELINE_PRIVATE_H
#define TIMELINE_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "xcb_dri3_util.h"

#pragma GCC visibility push(hidden)

struct sc_timeline_ops {
    const char *name;               /* for the debug log */
    /* A timeline for the device that DRI3 Open gave (it outlives the
     * timeline), at point 0; NULL with errno set (ENODEV: not a device
     * these timelines can live on). */
    void *(*create)(const xcb_dri3_util_device_t *dev);
    /* The syncobj fd for ImportSyncobj, owned by the timeline (one fd). */
    int (*fd)(void *tl);
    int (*signal)(void *tl, uint64_t point);
    /* 0 once point is signalled; -ETIMEDOUT when timeout_ns passed first
     * (0: only look), another negative errno on failure. */
    int (*wait)(void *tl, uint64_t point, int64_t timeout_ns);
    /* As wait, until a fence for point is attached (signalled or not). */
    int (*wait_available)(void *tl, uint64_t point, int64_t timeout_ns);
    /* Adds 1 to eventfd once point is signalled (available: attached);
     * 0, or a negative errno when it cannot (the caller then looks
     * again every millisecond). */
    int (*notify)(void *tl, uint64_t point, bool available, int eventfd);
    void (*destroy)(void *tl);
};

/* DRM timeline syncobjs (backend-dri3.c). */
extern const struct sc_timeline_ops sc_timeline_drm;
/* What the next swapchain's DRI3 back end uses: &sc_timeline_drm unless a
 * test set it. */
extern const struct sc_timeline_ops *sc_timeline_ops;

#pragma GCC visibility pop

#endif
