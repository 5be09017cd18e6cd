/*
 * One present_at() checked the way both frame-clock tests check it (mock
 * and Xvfb): a frame aimed offset_us from now is never shown before its
 * time, and shown within late_us of it.
 */
#ifndef PRESENT_AT_CHECK_H
#define PRESENT_AT_CHECK_H

#include "test-clock.h"
#include "test-runner.h"
#include "xcb_present_util.h"

typedef void (*present_at_render_t)(const xcb_present_util_image_t *img, uint32_t n);

static inline void present_at_check(xcb_present_util_swapchain_t *sc, uint32_t n,
                                    int offset_us, present_at_render_t render,
                                    uint64_t late_us)
{
    xcb_present_util_image_t img;
    xcb_present_util_frame_t f;
    uint64_t target;

    xcb_present_util_image_init(&img);
    xcb_present_util_frame_init(&f);
    CHECK_EQ(xcb_present_util_acquire(sc, 1000000000LL, &img), 0);
    render(&img, n);
    target = (uint64_t)test_now_us() + (uint64_t)offset_us;
    CHECK_EQ(xcb_present_util_present_at(sc, &img, NULL, 0, target), 0);
    CHECK_EQ(xcb_present_util_wait_frame(sc, img.frame_id, 2000000000LL, &f), 0);
    test_note("frame %u, +%d us: shown %lld us after its time (msc %llu, target %llu)", n,
              offset_us, (long long)f.ust - (long long)target, (unsigned long long)f.msc,
              (unsigned long long)f.target_msc);
    CHECK(f.ust >= target);
    CHECK(f.msc >= f.target_msc);
    CHECK(f.ust < target + late_us);
}

#endif
