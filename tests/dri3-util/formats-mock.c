/*
 * Formats chosen from a server's visuals: the mock lists a depth-30
 * visual with red in the low bits, as some GPUs scan out, whose pixmaps
 * must be XBGR2101010 (XRGB2101010, the depth's default, would swap red
 * and blue).
 */
#include "buffer-test-util.h"

#define XBGR2101010 FOURCC('X', 'B', '3', '0')

/* The first TrueColor visual of `depth` on the first screen, or NULL. */
static const xcb_visualtype_t *visual_of_depth(xcb_connection_t *c, uint8_t depth)
{
    xcb_screen_t *screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;

    for (xcb_depth_iterator_t d = xcb_screen_allowed_depths_iterator(screen); d.rem;
         xcb_depth_next(&d)) {
        xcb_visualtype_iterator_t v = xcb_depth_visuals_iterator(d.data);

        if (d.data->depth != depth)
            continue;
        for (; v.rem; xcb_visualtype_next(&v))
            if (v.data->_class == XCB_VISUAL_CLASS_TRUE_COLOR)
                return v.data;
    }
    return NULL;
}

/* The bits per pixel of the setup's pixmap format for `depth`, or 0. */
static uint8_t bpp_of_depth(xcb_connection_t *c, uint8_t depth)
{
    for (xcb_format_iterator_t f = xcb_setup_pixmap_formats_iterator(xcb_get_setup(c)); f.rem;
         xcb_format_next(&f))
        if (f.data->depth == depth)
            return f.data->bits_per_pixel;
    return 0;
}

TEST(bgr30_visual_makes_xbgr2101010_pixmaps)
{
    xcb_generic_error_t *err = (void *)1;
    xcb_dri3_util_buffer_t *b;
    const xcb_visualtype_t *v;
    xcb_get_geometry_reply_t *geom;
    xcb_window_t w;
    xcb_pixmap_t p;
    uint32_t fourcc;
    uint8_t bpp;
    struct e2e t;

    e2e_start(&t, NULL);
    v = visual_of_depth(t.c, 30);
    CHECK(v != NULL);
    CHECK_EQ(v->red_mask, 0x3ff);
    CHECK_EQ(v->bits_per_rgb_value, 10);
    bpp = bpp_of_depth(t.c, 30);
    CHECK_EQ(bpp, 32);
    fourcc = xcb_dri3_util_fourcc_from_visual(v, 30, bpp);
    CHECK_EQ(fourcc, XBGR2101010);
    /* the root visual, by contrast, is the usual order */
    CHECK_EQ(xcb_dri3_util_fourcc_from_visual(visual_of_depth(t.c, 24), 24, 32), XRGB8888);

    b = xcb_dri3_util_buffer_create_memfd(32, 16, fourcc);
    CHECK(b != NULL);
    CHECK_EQ(xcb_dri3_util_buffer_depth(b), 30);
    CHECK_EQ(xcb_dri3_util_buffer_bpp(b), 32);
    w = e2e_create_window(&t, 0, 0, 64, 64);
    p = xcb_dri3_util_buffer_to_pixmap(t.c, w, b, &err);
    CHECK(err == NULL);
    CHECK(p != XCB_NONE);
    geom = xcb_get_geometry_reply(t.c, xcb_get_geometry(t.c, p), NULL);
    CHECK(geom != NULL);
    CHECK_EQ(geom->depth, 30);
    CHECK_EQ(geom->width, 32);
    free(geom);
    xcb_free_pixmap(t.c, p);
    xcb_dri3_util_buffer_destroy(b);
    bt_stop(&t);
    e2e_end(&t);
}
