/*
 * Buffers allocated by GBM, for builds that have it (configure --with-gbm,
 * on by default where gbm is found).  Without GBM the function stays, so
 * that the library's ABI does not depend on how it was configured, and
 * fails with ENOTSUP.
 */
#include "config.h"

#include "buffer-private.h"

#include <errno.h>
#include <stdlib.h>

#ifdef HAVE_GBM
#include <gbm.h>
#include <unistd.h>

static void destroy_bo(void *bo)
{
    gbm_bo_destroy(bo);
}

/* Allocates with one modifier, or linear when modifier is NULL. */
static struct gbm_bo *allocate(struct gbm_device *device, uint16_t width, uint16_t height,
                               uint32_t fourcc, const uint64_t *modifier)
{
    /* Rendering, and scan-out by the X server if it flips the pixmap. */
    const uint32_t use = GBM_BO_USE_RENDERING | GBM_BO_USE_SCANOUT;

    if (modifier)
        return gbm_bo_create_with_modifiers2(device, width, height, fourcc, modifier, 1,
                                             use);
    return gbm_bo_create(device, width, height, fourcc, use | GBM_BO_USE_LINEAR);
}

/* A buffer of bo's planes; the buffer owns bo from here on. */
static xcb_dri3_util_buffer_t *wrap_bo(struct gbm_bo *bo, uint16_t width, uint16_t height,
                                       uint32_t fourcc, bool linear)
{
    int n = gbm_bo_get_plane_count(bo), fds[4];
    uint32_t strides[4], offsets[4];
    uint64_t modifier = linear ? XCB_DRI3_UTIL_MOD_LINEAR : gbm_bo_get_modifier(bo);
    xcb_dri3_util_buffer_t *b;
    int ret;

    if (n < 1 || n > 4) {
        gbm_bo_destroy(bo);
        errno = EPROTO;
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        fds[i] = gbm_bo_get_fd_for_plane(bo, i);
        strides[i] = gbm_bo_get_stride_for_plane(bo, i);
        offsets[i] = gbm_bo_get_offset(bo, i);
        if (fds[i] < 0) {
            for (int j = 0; j < i; j++)
                close(fds[j]);
            gbm_bo_destroy(bo);
            errno = ENOMEM;
            return NULL;
        }
    }
    ret = buffer_import(width, height, fourcc, modifier, (unsigned)n, fds, strides, offsets,
                        &b);
    if (ret < 0) {
        gbm_bo_destroy(bo);
        errno = -ret;
        return NULL;
    }
    b->gbm_bo = bo;
    b->gbm_destroy = destroy_bo;
    return b;
}

xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_gbm(struct gbm_device *device,
                                                        uint16_t width, uint16_t height,
                                                        uint32_t fourcc,
                                                        const uint64_t *modifiers,
                                                        unsigned n_modifiers)
{
    struct gbm_bo *bo = NULL;

    if (!device || width == 0 || height == 0 || (n_modifiers > 0 && !modifiers)) {
        errno = EINVAL;
        return NULL;
    }
    /* One modifier at a time keeps the caller's order (the window's list
     * before the screen's); GBM would pick by its own taste from a set. */
    for (unsigned i = 0; i < n_modifiers; i++) {
        if (modifiers[i] == XCB_DRI3_UTIL_MOD_INVALID)
            continue;
        bo = allocate(device, width, height, fourcc, &modifiers[i]);
        if (bo)
            return wrap_bo(bo, width, height, fourcc, false);
    }
    errno = 0;
    bo = allocate(device, width, height, fourcc, NULL);
    if (!bo) {
        if (errno == 0)
            errno = ENOMEM;
        return NULL;
    }
    return wrap_bo(bo, width, height, fourcc, true);
}

#else

xcb_dri3_util_buffer_t *xcb_dri3_util_buffer_create_gbm(struct gbm_device *device,
                                                        uint16_t width, uint16_t height,
                                                        uint32_t fourcc,
                                                        const uint64_t *modifiers,
                                                        unsigned n_modifiers)
{
    (void)device, (void)width, (void)height, (void)fourcc, (void)modifiers;
    (void)n_modifiers;
    errno = ENOTSUP;
    return NULL;
}

#endif
