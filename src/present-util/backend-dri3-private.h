/*
 * The DRI3 back end's state, shared by backend-dri3.c (the library's own
 * buffers, fences, explicit sync), backend-dri3-alloc.c (GBM or memfds
 * for those buffers) and backend-dri3-images.c (the caller's images and
 * PRIME's display buffers).
 */
#ifndef BACKEND_DRI3_PRIVATE_H
#define BACKEND_DRI3_PRIVATE_H

#include <xcb/sync.h>

#include "alloc-private.h"
#include "swapchain-private.h"
#include "timeline-private.h"
#include "xcb_dri3_util.h"

#pragma GCC visibility push(hidden)

/* A timeline the server knows: ours, and its XID (ImportSyncobj). */
struct sync_timeline {
    void *tl;
    uint32_t syncobj;
};

struct dri3_state {
    xcb_dri3_util_caps_t caps;
    /* for our buffers, timelines and PRIME; NULL when DRI3 Open failed
     * (device_error says how) or was not needed */
    xcb_dri3_util_device_t *device;
    int device_error;
    /* backend-dri3-alloc.c: GBM's calls and its device; gbm_on while
     * buffers come from it, else memfds for the reason in memfd_why */
    const struct sc_gbm_ops *gbm_ops;
    void *gbm;
    bool gbm_on;
    char memfd_why[160];
    /* explicit sync when set: each buffer gets a timeline of these */
    const struct sc_timeline_ops *tl_ops;
    /* init's trial timeline, kept for the first buffer made after it */
    struct sync_timeline spare;
    /* The kernel adds to it when a frame's release point is signalled
     * (available, with XCB_PRESENT_UTIL_SYNC_GPU_WAITS): acquire()'s
     * wait sleeps on it.  -1 without explicit sync, or once the kernel
     * refused to notify (acquire() then looks every millisecond). */
    int idle_efd;
    uint64_t *mods_window, *mods_screen;    /* the server's last lists */
    uint32_t n_window, n_screen;
    /* Caller images: their pixmaps, made at init in one round trip and
     * taken by each buffer's alloc; PRIME's display buffers likewise. */
    xcb_pixmap_t image_pixmaps[SC_MAX_BUFFERS];
    xcb_dri3_util_buffer_t *display[SC_MAX_BUFFERS];
    bool prime;
};

struct dri3_buffer {
    xcb_dri3_util_buffer_t *buf;            /* ours (GBM or memfd, or PRIME's display), or NULL */
    xcb_dri3_util_buffer_t *image;          /* the caller's, or NULL */
    xcb_dri3_util_fence_t *fence;
    xcb_sync_fence_t fence_id;
    struct sync_timeline sync;              /* explicit sync only */
    uint64_t point;                         /* last point used on it */
    uint64_t release_point;                 /* of its last frame, 0: none */
};

static inline struct dri3_state *dri3_state(sc_t *sc)
{
    return sc->backend_data;
}

/* backend-dri3.c */
/* DRI3 Open, once (a failure is remembered): 0 with st->device, or the
 * negative errno of the failure. */
int dri3_device_open(sc_t *sc);

/* backend-dri3-alloc.c */
/* Decides where buffers come from (opening the device): 0, or an
 * unanswered DRI3 Open's error (sc_unanswered()); anything else leaves
 * memfds with the reason. */
int dri3_alloc_init(sc_t *sc);
/* A buffer of the window's format: from GBM while it works (*gbm true),
 * else a memfd, after logging why GBM failed.  NULL with errno. */
xcb_dri3_util_buffer_t *dri3_alloc_buffer(sc_t *sc, uint16_t width, uint16_t height,
                                          bool *gbm);
/* The server refused a GBM buffer (errno e, X error code or 0): memfds
 * from now on, logged and counted. */
void dri3_alloc_refused(sc_t *sc, int e, uint8_t error_code);
/* A buffer made by dri3_alloc_buffer() is kept (stats). */
void dri3_alloc_kept(sc_t *sc, bool gbm);
/* The debug line that says where buffers come from; example (may be
 * NULL) gives the modifier. */
void dri3_alloc_report(sc_t *sc, const xcb_dri3_util_buffer_t *example);
/* Destroys the GBM device, after every buffer made with it. */
void dri3_alloc_fini(sc_t *sc);

/* backend-dri3-images.c */
/* At init, with caller images: decides PRIME (options.render_fd against
 * the server's device), makes the display buffers, and makes the
 * pixmaps of all images (or display buffers) in one round trip.  0 or a
 * negative errno (-ENOTSUP: the server refused them). */
int dri3_images_init(sc_t *sc);
/* set_images(): the same for the new images in sc->images, with the
 * device and PRIME's decision of init; the old buffers keep theirs. */
int dri3_images_replace(sc_t *sc);
/* A buffer's image (and display buffer) and pixmap, from what init made. */
void dri3_images_attach(sc_t *sc, struct buffer *b, struct dri3_buffer *db);
/* Frees what init (or replace) made and no buffer took. */
void dri3_images_fini(sc_t *sc);
/* PRIME's copy before a present: the caller's hook, or the CPU. */
int dri3_images_upload(sc_t *sc, struct buffer *b, const xcb_rectangle_t *damage, uint32_t n);

#pragma GCC visibility pop

#endif
