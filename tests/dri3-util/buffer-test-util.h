/*
 * Helpers for the tests of buffers, the probe, the device and explicit
 * sync against the mock server, on top of the end-to-end helpers
 * (tests/e2e/e2e-util.h): pixel patterns, GetImage checks, transcript
 * counts.
 */
#ifndef BUFFER_TEST_UTIL_H
#define BUFFER_TEST_UTIL_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/dri3.h>
#include <xcb/present.h>

#include "e2e-util.h"
#include "test-runner.h"
#include "xcb_dri3_util.h"

#define FOURCC(a, b, c, d) \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define XRGB8888 FOURCC('X', 'R', '2', '4')
#define ARGB8888 FOURCC('A', 'R', '2', '4')
#define RGB565 FOURCC('R', 'G', '1', '6')
#define XRGB2101010 FOURCC('X', 'R', '3', '0')
#define NV12 FOURCC('N', 'V', '1', '2')

/* Made-up layouts the mock is told to list; the mock maps plane 0 as
 * linear pixels whatever the modifier says. */
#define MOD_TWO_PLANES 0x0100000000000004ULL      /* I915_FORMAT_MOD_Y_TILED_CCS */
#define MOD_FOUR_PLANES 0x00f0000000000004ULL     /* a vendor no driver has */

/* Stops the server; forgets the library's cache first, because the next
 * connection of the same test may get the same address. */
static inline void bt_stop(struct e2e *t)
{
    xcb_dri3_util_probe_forget(t->c);
    e2e_stop(t);
}

static inline uint32_t pattern(int x, int y, uint32_t seed)
{
    return ((uint32_t)x * 0x010203u + (uint32_t)y * 0x030507u + seed) & 0x00ffffffu;
}

/* Writes the pattern into plane 0 of a 32-bpp buffer through map(). */
static inline void write_pattern(xcb_dri3_util_buffer_t *b, uint32_t seed)
{
    uint32_t stride = 0;
    uint8_t *p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_WRITE, &stride);

    CHECK(p != NULL);
    CHECK(stride >= 4u * xcb_dri3_util_buffer_width(b));
    for (int y = 0; y < xcb_dri3_util_buffer_height(b); y++)
        for (int x = 0; x < xcb_dri3_util_buffer_width(b); x++)
            ((uint32_t *)(p + (size_t)y * stride))[x] = pattern(x, y, seed);
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
}

/* Plane 0 of a 32-bpp buffer holds the pattern, read through map(). */
static inline void check_pattern_mapped(xcb_dri3_util_buffer_t *b, uint32_t seed)
{
    uint32_t stride = 0;
    const uint8_t *p = xcb_dri3_util_buffer_map(b, 0, XCB_DRI3_UTIL_MAP_READ, &stride);

    CHECK(p != NULL);
    for (int y = 0; y < xcb_dri3_util_buffer_height(b); y++)
        for (int x = 0; x < xcb_dri3_util_buffer_width(b); x++)
            CHECK_EQ(((const uint32_t *)(p + (size_t)y * stride))[x] & 0xffffff,
                     pattern(x, y, seed));
    CHECK_EQ(xcb_dri3_util_buffer_unmap(b, 0), 0);
}

/* The server's GetImage of the drawable shows the pattern. */
static inline void check_pattern_image(struct e2e *t, xcb_drawable_t d, uint16_t w,
                                       uint16_t h, uint32_t seed)
{
    xcb_get_image_reply_t *img = xcb_get_image_reply(
        t->c, xcb_get_image(t->c, XCB_IMAGE_FORMAT_Z_PIXMAP, d, 0, 0, w, h, ~0u), NULL);
    const uint32_t *px;

    CHECK(img != NULL);
    CHECK_EQ(xcb_get_image_data_length(img), 4 * w * h);
    px = (const uint32_t *)xcb_get_image_data(img);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            CHECK_EQ(px[y * w + x] & 0xffffff, pattern(x, y, seed));
    free(img);
}

/* Requests of an extension (any minor) in the transcript. */
static inline size_t count_major(struct e2e *t, uint8_t major)
{
    size_t n = 0;

    for (size_t i = 0; i < t->transcript->n; i++)
        n += t->transcript->requests[i].major == major;
    return n;
}

#endif
