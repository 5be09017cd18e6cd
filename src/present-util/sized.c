/* The _init() functions of the caller's structs (see sized-private.h). */
#include "sized-private.h"

#include <string.h>

void xcb_present_util_options_init(xcb_present_util_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof *o);
    o->size = sizeof *o;
    o->mode = XCB_PRESENT_UTIL_MODE_FIFO;
    o->backend = XCB_PRESENT_UTIL_BACKEND_AUTO;
    o->num_buffers = 3;
    o->max_latency = 2;
    o->pacing = XCB_PRESENT_UTIL_PACING_THROUGHPUT;
    o->swap_interval = 1;
    o->render_fd = -1;
}

void xcb_present_util_image_init(xcb_present_util_image_t *img)
{
    if (!img)
        return;
    memset(img, 0, sizeof *img);
    img->size = sizeof *img;
    img->sync_fd = -1;
}

void xcb_present_util_stats_init(xcb_present_util_stats_t *st)
{
    if (!st)
        return;
    memset(st, 0, sizeof *st);
    st->size = sizeof *st;
}

void xcb_present_util_frame_init(xcb_present_util_frame_t *f)
{
    if (!f)
        return;
    memset(f, 0, sizeof *f);
    f->size = sizeof *f;
}

void xcb_present_util_timing_init(xcb_present_util_timing_t *t)
{
    if (!t)
        return;
    memset(t, 0, sizeof *t);
    t->size = sizeof *t;
}

void xcb_present_util_present_info_init(xcb_present_util_present_info_t *info)
{
    if (!info)
        return;
    memset(info, 0, sizeof *info);
    info->size = sizeof *info;
}
