/*
 * The fourcc tables, both ways, and the names for people.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "test-runner.h"
#include "xcb_dri3_util.h"

#define FOURCC(a, b, c, d) \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* Depth/bpp -> fourcc is what X servers and Mesa use; fourcc -> depth/bpp
 * gives the same pair back. */
TEST(depth_to_fourcc_and_back)
{
    static const struct { uint8_t depth, bpp; uint32_t fourcc; } table[] = {
        { 16, 16, FOURCC('R', 'G', '1', '6') },     /* RGB565 */
        { 24, 32, FOURCC('X', 'R', '2', '4') },     /* XRGB8888 */
        { 30, 32, FOURCC('X', 'R', '3', '0') },     /* XRGB2101010 */
        { 32, 32, FOURCC('A', 'R', '2', '4') },     /* ARGB8888 */
        { 15, 16, FOURCC('X', 'R', '1', '5') },     /* XRGB1555 */
        { 24, 24, FOURCC('R', 'G', '2', '4') },     /* RGB888 */
        { 8, 8, FOURCC('R', '8', ' ', ' ') },       /* R8 */
    };

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        uint8_t depth = 0, bpp = 0;

        test_note("depth %u bpp %u", table[i].depth, table[i].bpp);
        CHECK_EQ(xcb_dri3_util_fourcc_from_depth(table[i].depth, table[i].bpp),
                 table[i].fourcc);
        CHECK_EQ(xcb_dri3_util_fourcc_to_depth(table[i].fourcc, &depth, &bpp), 0);
        CHECK_EQ(depth, table[i].depth);
        CHECK_EQ(bpp, table[i].bpp);
    }
    CHECK_EQ(xcb_dri3_util_fourcc_to_depth(FOURCC('X', 'R', '2', '4'), NULL, NULL), 0);
}

/* Other layouts of the same depths map to the same depth, not back. */
TEST(fourcc_to_depth_only)
{
    static const struct { uint32_t fourcc; uint8_t depth, bpp; } table[] = {
        { FOURCC('X', 'B', '2', '4'), 24, 32 },     /* XBGR8888 */
        { FOURCC('A', 'B', '2', '4'), 32, 32 },     /* ABGR8888 */
        { FOURCC('B', 'G', '1', '6'), 16, 16 },     /* BGR565 */
        { FOURCC('X', 'B', '3', '0'), 30, 32 },     /* XBGR2101010 */
        { FOURCC('A', 'R', '3', '0'), 32, 32 },     /* ARGB2101010: alpha counts */
        { FOURCC('B', 'G', '2', '4'), 24, 24 },     /* BGR888 */
    };

    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        uint8_t depth = 0, bpp = 0;

        CHECK_EQ(xcb_dri3_util_fourcc_to_depth(table[i].fourcc, &depth, &bpp), 0);
        CHECK_EQ(depth, table[i].depth);
        CHECK_EQ(bpp, table[i].bpp);
        CHECK(xcb_dri3_util_fourcc_from_depth(depth, bpp) != table[i].fourcc);
    }
}

TEST(no_x_depth)
{
    uint8_t depth = 99, bpp = 99;

    errno = 0;
    CHECK_EQ(xcb_dri3_util_fourcc_to_depth(FOURCC('N', 'V', '1', '2'), &depth, &bpp),
             -EINVAL);
    CHECK_EQ(errno, EINVAL);
    CHECK_EQ(depth, 99);
    CHECK_EQ(xcb_dri3_util_fourcc_to_depth(FOURCC('X', 'R', '4', 'H'), &depth, &bpp),
             -EINVAL);
    CHECK_EQ(xcb_dri3_util_fourcc_to_depth(0, &depth, &bpp), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fourcc_from_depth(24, 16), 0);
    CHECK_EQ(xcb_dri3_util_fourcc_from_depth(1, 1), 0);
    CHECK_EQ(xcb_dri3_util_fourcc_from_depth(0, 0), 0);
    CHECK_EQ(xcb_dri3_util_fourcc_from_depth(64, 64), 0);
}

static void check_name(char *got, const char *want)
{
    CHECK(got != NULL);
    test_note("got \"%s\", want \"%s\"", got, want);
    CHECK(strcmp(got, want) == 0);
    free(got);
}

TEST(fourcc_names)
{
    check_name(xcb_dri3_util_fourcc_name(FOURCC('X', 'R', '2', '4')), "XRGB8888");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('R', 'G', '1', '6')), "RGB565");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('X', 'R', '3', '0')), "XRGB2101010");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('N', 'V', '1', '2')), "NV12");
    /* the layouts that Mesa presents beside the defaults */
    check_name(xcb_dri3_util_fourcc_name(FOURCC('X', 'B', '3', '0')), "XBGR2101010");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('A', 'B', '3', '0')), "ABGR2101010");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('R', 'X', '2', '4')), "RGBX8888");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('B', 'A', '2', '4')), "BGRA8888");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('X', 'B', '4', '8')), "XBGR16161616");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('A', 'B', '4', '8')), "ABGR16161616");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('X', 'B', '4', 'H')), "XBGR16161616F");
    check_name(xcb_dri3_util_fourcc_name(FOURCC('A', 'B', '4', 'H')), "ABGR16161616F");
    /* one of libdrm's that our table lacks: libdrm names it by its code */
    check_name(xcb_dri3_util_fourcc_name(FOURCC('X', 'R', '4', '8')), "XR48");
    /* unknown: its characters, or its number */
    check_name(xcb_dri3_util_fourcc_name(FOURCC('Q', 'Q', 'Q', 'Q')), "QQQQ");
    check_name(xcb_dri3_util_fourcc_name(0x01020304), "0x01020304");
}

TEST(modifier_names)
{
    char *name;

    check_name(xcb_dri3_util_modifier_name(XCB_DRI3_UTIL_MOD_LINEAR), "LINEAR");
    check_name(xcb_dri3_util_modifier_name(XCB_DRI3_UTIL_MOD_INVALID), "INVALID");
    /* libdrm's name for I915_FORMAT_MOD_Y_TILED, with its vendor */
    name = xcb_dri3_util_modifier_name(0x0100000000000002ULL);
    CHECK(name != NULL);
    test_note("Y_TILED: %s", name);
    CHECK(strstr(name, "Y_TILED") != NULL);
    free(name);
    check_name(xcb_dri3_util_modifier_name(0x7f00000000001234ULL), "0x7f00000000001234");
}
