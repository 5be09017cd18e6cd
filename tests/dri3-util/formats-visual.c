/*
 * Every RGB format the library gives an X depth: its depth and bpp, the
 * visual masks that pick it, and which of them is the depth's default.
 * The table is written from drm_fourcc.h's layouts (a pixel read as one
 * little-endian integer), not taken from the library.
 */
#include <errno.h>

#include "test-runner.h"
#include "xcb_dri3_util.h"

#define FOURCC(a, b, c, d) \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

static const struct row {
    uint32_t fourcc;
    uint8_t depth, bpp;
    uint32_t red, green, blue;  /* 0: no visual describes it */
    bool is_default;            /* what fourcc_from_depth() answers */
} rows[] = {
    { FOURCC('X', 'R', '2', '4'), 24, 32, 0xff0000, 0xff00, 0xff, true },
    { FOURCC('X', 'B', '2', '4'), 24, 32, 0xff, 0xff00, 0xff0000, false },
    { FOURCC('R', 'X', '2', '4'), 24, 32, 0xff000000, 0xff0000, 0xff00, false },
    { FOURCC('B', 'X', '2', '4'), 24, 32, 0xff00, 0xff0000, 0xff000000, false },
    { FOURCC('A', 'R', '2', '4'), 32, 32, 0xff0000, 0xff00, 0xff, true },
    { FOURCC('A', 'B', '2', '4'), 32, 32, 0xff, 0xff00, 0xff0000, false },
    { FOURCC('R', 'A', '2', '4'), 32, 32, 0xff000000, 0xff0000, 0xff00, false },
    { FOURCC('B', 'A', '2', '4'), 32, 32, 0xff00, 0xff0000, 0xff000000, false },
    { FOURCC('X', 'R', '3', '0'), 30, 32, 0x3ff00000, 0xffc00, 0x3ff, true },
    { FOURCC('X', 'B', '3', '0'), 30, 32, 0x3ff, 0xffc00, 0x3ff00000, false },
    { FOURCC('A', 'R', '3', '0'), 32, 32, 0x3ff00000, 0xffc00, 0x3ff, false },
    { FOURCC('A', 'B', '3', '0'), 32, 32, 0x3ff, 0xffc00, 0x3ff00000, false },
    { FOURCC('R', 'G', '1', '6'), 16, 16, 0xf800, 0x7e0, 0x1f, true },
    { FOURCC('B', 'G', '1', '6'), 16, 16, 0x1f, 0x7e0, 0xf800, false },
    { FOURCC('X', 'R', '1', '5'), 15, 16, 0x7c00, 0x3e0, 0x1f, true },
    { FOURCC('X', 'B', '1', '5'), 15, 16, 0x1f, 0x3e0, 0x7c00, false },
    { FOURCC('R', 'G', '2', '4'), 24, 24, 0xff0000, 0xff00, 0xff, true },
    { FOURCC('B', 'G', '2', '4'), 24, 24, 0xff, 0xff00, 0xff0000, false },
    { FOURCC('R', '8', ' ', ' '), 8, 8, 0, 0, 0, true },
    /* 16 bits a channel: bpp 64, no visual, no default */
    { FOURCC('X', 'B', '4', '8'), 48, 64, 0, 0, 0, false },
    { FOURCC('A', 'B', '4', '8'), 64, 64, 0, 0, 0, false },
    { FOURCC('X', 'B', '4', 'H'), 48, 64, 0, 0, 0, false },
    { FOURCC('A', 'B', '4', 'H'), 64, 64, 0, 0, 0, false },
};

#define N_ROWS (sizeof rows / sizeof rows[0])

static xcb_visualtype_t visual(uint8_t class_, uint32_t red, uint32_t green, uint32_t blue)
{
    xcb_visualtype_t v = { 0 };

    v.visual_id = 0x42;
    v._class = class_;
    v.bits_per_rgb_value = 8;
    v.red_mask = red;
    v.green_mask = green;
    v.blue_mask = blue;
    return v;
}

static uint32_t from_masks(uint32_t red, uint32_t green, uint32_t blue, uint8_t depth,
                           uint8_t bpp)
{
    xcb_visualtype_t v = visual(XCB_VISUAL_CLASS_TRUE_COLOR, red, green, blue);

    return xcb_dri3_util_fourcc_from_visual(&v, depth, bpp);
}

/* fourcc -> depth/bpp -> fourcc: through the masks for every row that has
 * them, through the depth alone for the defaults. */
TEST(every_row_round_trips)
{
    for (size_t i = 0; i < N_ROWS; i++) {
        const struct row *r = &rows[i];
        uint8_t depth = 0, bpp = 0;

        test_note("row %zu: depth %u bpp %u", i, r->depth, r->bpp);
        CHECK_EQ(xcb_dri3_util_fourcc_to_depth(r->fourcc, &depth, &bpp), 0);
        CHECK_EQ(depth, r->depth);
        CHECK_EQ(bpp, r->bpp);
        if (r->red) {
            xcb_visualtype_t direct = visual(XCB_VISUAL_CLASS_DIRECT_COLOR, r->red, r->green,
                                             r->blue);

            CHECK_EQ(from_masks(r->red, r->green, r->blue, depth, bpp), r->fourcc);
            CHECK_EQ(xcb_dri3_util_fourcc_from_visual(&direct, depth, bpp), r->fourcc);
        }
        if (r->is_default)
            CHECK_EQ(xcb_dri3_util_fourcc_from_depth(depth, bpp), r->fourcc);
        else
            CHECK(xcb_dri3_util_fourcc_from_depth(depth, bpp) != r->fourcc);
    }
}

/* The cases that made this function: the channel order of deep colour. */
TEST(visual_masks_pick_the_channel_order)
{
    CHECK_EQ(from_masks(0x3ff, 0xffc00, 0x3ff00000, 30, 32), FOURCC('X', 'B', '3', '0'));
    CHECK_EQ(from_masks(0x3ff00000, 0xffc00, 0x3ff, 30, 32), FOURCC('X', 'R', '3', '0'));
    CHECK_EQ(from_masks(0xff, 0xff00, 0xff0000, 32, 32), FOURCC('A', 'B', '2', '4'));
    CHECK_EQ(from_masks(0xff0000, 0xff00, 0xff, 32, 32), FOURCC('A', 'R', '2', '4'));
    CHECK_EQ(from_masks(0xf800, 0x7e0, 0x1f, 16, 16), FOURCC('R', 'G', '1', '6'));
    /* the same masks at depth 24 have no alpha */
    CHECK_EQ(from_masks(0xff, 0xff00, 0xff0000, 24, 32), FOURCC('X', 'B', '2', '4'));
}

TEST(visual_bad_inputs)
{
    xcb_visualtype_t pseudo = visual(XCB_VISUAL_CLASS_PSEUDO_COLOR, 0xff0000, 0xff00, 0xff);
    xcb_visualtype_t static_gray = visual(XCB_VISUAL_CLASS_STATIC_GRAY, 0, 0, 0);

    CHECK_EQ(xcb_dri3_util_fourcc_from_visual(NULL, 24, 32), 0);
    /* only TrueColor and DirectColor have masks */
    CHECK_EQ(xcb_dri3_util_fourcc_from_visual(&pseudo, 24, 32), 0);
    CHECK_EQ(xcb_dri3_util_fourcc_from_visual(&static_gray, 8, 8), 0);
    /* masks of no format, or of a format of another depth or bpp */
    CHECK_EQ(from_masks(0xff0000, 0xff, 0xff00, 24, 32), 0);
    CHECK_EQ(from_masks(0, 0, 0, 24, 32), 0);
    CHECK_EQ(from_masks(0, 0, 0, 8, 8), 0);
    CHECK_EQ(from_masks(0xff0000, 0xff00, 0xff, 30, 32), 0);
    CHECK_EQ(from_masks(0x3ff, 0xffc00, 0x3ff00000, 24, 32), 0);
    CHECK_EQ(from_masks(0xff0000, 0xff00, 0xff, 24, 16), 0);
    CHECK_EQ(from_masks(0xf800, 0x7e0, 0x1f, 15, 16), 0);
    CHECK_EQ(from_masks(0xff0000, 0xff00, 0xff, 48, 64), 0);
    CHECK_EQ(from_masks(0xff0000, 0xff00, 0xff, 0, 0), 0);
}

/* 48/64 and 64/64 are shared by the unorm and half-float formats: no
 * default, and XRGB16161616F still has no X depth at all. */
TEST(deep_pixels_have_no_default)
{
    CHECK_EQ(xcb_dri3_util_fourcc_from_depth(48, 64), 0);
    CHECK_EQ(xcb_dri3_util_fourcc_from_depth(64, 64), 0);
    CHECK_EQ(xcb_dri3_util_fourcc_to_depth(FOURCC('X', 'R', '4', 'H'), NULL, NULL), -EINVAL);
}
