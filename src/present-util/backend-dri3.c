/*
 * The DRI3 back end.  Placeholder until the dma-buf buffer helpers of
 * libxcb-dri3-util are available: it declines, and the automatic choice
 * moves on to MIT-SHM.
 */
#include <errno.h>

#include "swapchain-private.h"

static int dri3_init(sc_t *sc)
{
    sc_log(sc, "DRI3 back end not built");
    return -ENOTSUP;
}

static int dri3_alloc(sc_t *sc, struct buffer *b)
{
    (void)sc;
    (void)b;
    return -ENOTSUP;
}

static void dri3_free(sc_t *sc, struct buffer *b)
{
    (void)sc;
    (void)b;
}

const struct backend_ops sc_backend_dri3 = {
    .kind = XCB_PRESENT_UTIL_BACKEND_DRI3,
    .init = dri3_init,
    .alloc = dri3_alloc,
    .free = dri3_free,
};
