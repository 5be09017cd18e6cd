/*
 * Where the DRI3 back end's own buffers (and PRIME's display buffers)
 * come from.  A server with a GPU imports pixmaps through GBM and refuses
 * memfds (glamor wants dma-bufs), so when DRI3 Open gives a DRM device and
 * the library has GBM, buffers are allocated by GBM on that device; the
 * mock server, and any server whose device is no DRM node, takes memfds.
 * Every step from GBM back to memfds is logged with its reason and
 * counted (stats.gbm_fallbacks): the server's refusal of memfds then
 * takes the swapchain to MIT-SHM, and a silent fallback would hide why.
 *
 * The buffers are linear whatever the server lists: the CPU writes them
 * through pixels.  The GBM device lives from init to fini, after every
 * buffer made with it is gone.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_GBM
#include <gbm.h>
#endif

#include "alloc-private.h"
#include "backend-dri3-private.h"

static bool real_usable(const xcb_dri3_util_device_t *dev)
{
    return dev->is_drm;
}

#ifdef HAVE_GBM
static void *real_create_device(int fd)
{
    return gbm_create_device(fd);
}

static void real_destroy_device(void *gbm)
{
    gbm_device_destroy(gbm);
}
#else
static void *real_create_device(int fd)
{
    (void)fd;
    errno = ENOTSUP;
    return NULL;
}

static void real_destroy_device(void *gbm)
{
    (void)gbm;
}
#endif

static xcb_dri3_util_buffer_t *real_create(void *gbm, uint16_t width, uint16_t height,
                                           uint32_t fourcc, const uint64_t *modifiers,
                                           unsigned n_modifiers)
{
    return xcb_dri3_util_buffer_create_gbm(gbm, width, height, fourcc, modifiers,
                                           n_modifiers);
}

const struct sc_gbm_ops sc_gbm_real = {
#ifdef HAVE_GBM
    .built = true,
#else
    .built = false,
#endif
    .usable = real_usable,
    .create_device = real_create_device,
    .destroy_device = real_destroy_device,
    .create = real_create,
};

const struct sc_gbm_ops *sc_gbm_ops = &sc_gbm_real;

xcb_present_util_alloc_t sc_alloc_choose(const struct sc_gbm_ops *ops,
                                         const xcb_dri3_util_device_t *dev, const char **why)
{
    *why = NULL;
    if (!ops->built)
        *why = "built without GBM";
    else if (!dev)
        *why = "DRI3 Open gave no device";
    else if (!ops->usable(dev))
        *why = dev->note[0] ? dev->note : "not a DRM device";
    return *why ? XCB_PRESENT_UTIL_ALLOC_MEMFD : XCB_PRESENT_UTIL_ALLOC_GBM;
}

/* memfds from now on, for this reason (kept for the init's report). */
static void use_memfds(sc_t *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void use_memfds(sc_t *sc, const char *fmt, ...)
{
    struct dri3_state *st = dri3_state(sc);
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(st->memfd_why, sizeof st->memfd_why, fmt, ap);
    va_end(ap);
    sc->stats.buffer_alloc = XCB_PRESENT_UTIL_ALLOC_MEMFD;
}

/* GBM gave up, or the server refused what it made: counted and logged,
 * and the GBM device stays until fini for the buffers it made. */
static void gbm_fallback(sc_t *sc, const char *what, int e)
{
    struct dri3_state *st = dri3_state(sc);

    if (!st->gbm_on)
        return;
    st->gbm_on = false;
    sc->stats.gbm_fallbacks++;
    use_memfds(sc, "%s (%s)", what, strerror(e));
    sc_log(sc, "DRI3: GBM fallback: %s: buffers from memfd from now on", st->memfd_why);
}

int dri3_alloc_init(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);
    const char *why;
    int r;

    st->gbm_ops = sc_gbm_ops;
    r = dri3_device_open(sc);
    if (sc_unanswered(r))
        return r;
    if (sc_alloc_choose(st->gbm_ops, st->device, &why) == XCB_PRESENT_UTIL_ALLOC_MEMFD) {
        /* a failed DRI3 Open says how */
        if (!st->device && st->gbm_ops->built)
            use_memfds(sc, "%s (%s)", why, strerror(-r));
        else
            use_memfds(sc, "%s", why);
        return 0;
    }
    errno = 0;
    st->gbm = st->gbm_ops->create_device(st->device->fd);
    if (!st->gbm) {
        int e = errno ? errno : ENODEV;

        sc->stats.gbm_fallbacks++;
        use_memfds(sc, "gbm_create_device failed on %s (%s)",
                   st->device->render_node[0] ? st->device->render_node : st->device->note,
                   strerror(e));
        sc_log(sc, "DRI3: GBM fallback: %s", st->memfd_why);
        return 0;
    }
    st->gbm_on = true;
    sc->stats.buffer_alloc = XCB_PRESENT_UTIL_ALLOC_GBM;
    return 0;
}

/* The layouts asked of GBM: LINEAR when the server lists it for the
 * window or its screen (the buffer then goes with that explicit
 * modifier), none otherwise (GBM's linear fallback, which goes as an
 * implicit one).  Never a tiled one: the CPU writes these buffers. */
static unsigned linear_if_listed(const struct dri3_state *st, uint64_t *mods)
{
    for (uint32_t i = 0; i < st->n_window; i++)
        if (st->mods_window[i] == XCB_DRI3_UTIL_MOD_LINEAR)
            goto listed;
    for (uint32_t i = 0; i < st->n_screen; i++)
        if (st->mods_screen[i] == XCB_DRI3_UTIL_MOD_LINEAR)
            goto listed;
    return 0;
listed:
    mods[0] = XCB_DRI3_UTIL_MOD_LINEAR;
    return 1;
}

xcb_dri3_util_buffer_t *dri3_alloc_buffer(sc_t *sc, uint16_t width, uint16_t height,
                                          bool *gbm)
{
    struct dri3_state *st = dri3_state(sc);
    xcb_dri3_util_buffer_t *buf;
    uint64_t mods[1];
    unsigned n;

    *gbm = false;
    if (st->gbm_on) {
        n = linear_if_listed(st, mods);
        errno = 0;
        buf = st->gbm_ops->create(st->gbm, width, height, sc->fourcc, n ? mods : NULL, n);
        if (buf) {
            *gbm = true;
            return buf;
        }
        gbm_fallback(sc, "GBM could not allocate", errno ? errno : ENOMEM);
    }
    return xcb_dri3_util_buffer_create_memfd(width, height, sc->fourcc);
}

void dri3_alloc_refused(sc_t *sc, int e, uint8_t error_code)
{
    char what[64];

    snprintf(what, sizeof what, "the server refused a GBM buffer (X error %u)", error_code);
    gbm_fallback(sc, what, e);
}

void dri3_alloc_kept(sc_t *sc, bool gbm)
{
    if (gbm)
        sc->stats.gbm_buffers++;
    else
        sc->stats.memfd_buffers++;
}

void dri3_alloc_report(sc_t *sc, const xcb_dri3_util_buffer_t *example)
{
    struct dri3_state *st = dri3_state(sc);
    char *mod;

    if (!st->gbm_on) {
        sc_log(sc, "DRI3: buffers from memfd: %s", st->memfd_why);
        return;
    }
    mod = example ? xcb_dri3_util_modifier_name(xcb_dri3_util_buffer_modifier(example)) : NULL;
    sc_log(sc, "DRI3: buffers from GBM on %s (driver %s, modifier %s)",
           st->device->render_node[0] ? st->device->render_node : st->device->note,
           st->device->driver[0] ? st->device->driver : "unknown", mod ? mod : "unknown");
    free(mod);
}

void dri3_alloc_fini(sc_t *sc)
{
    struct dri3_state *st = dri3_state(sc);

    if (st->gbm)
        st->gbm_ops->destroy_device(st->gbm);
    st->gbm = NULL;
    st->gbm_on = false;
    sc->stats.buffer_alloc = XCB_PRESENT_UTIL_ALLOC_NONE;
}
