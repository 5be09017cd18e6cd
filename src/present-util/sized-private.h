/*
 * The sized-struct rule of xcb_present_util.h: every struct the caller
 * allocates starts with its size, the caller's sizeof.  The library reads
 * and writes only that many bytes (a newer caller's larger struct keeps
 * its tail; an older caller's shorter one is not overrun), treats fields
 * beyond it as their defaults, and refuses a size below the struct's first
 * version.  The first versions end with the fields named below: fields
 * added later go after them.
 */
#ifndef SIZED_PRIVATE_H
#define SIZED_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "xcb_present_util.h"

#define SIZE_THROUGH(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

#define OPTIONS_SIZE_FIRST SIZE_THROUGH(xcb_present_util_options_t, num_buffers)
#define IMAGE_SIZE_FIRST SIZE_THROUGH(xcb_present_util_image_t, index)
#define STATS_SIZE_FIRST SIZE_THROUGH(xcb_present_util_stats_t, flips)
#define FRAME_SIZE_FIRST SIZE_THROUGH(xcb_present_util_frame_t, submit_us)
#define TIMING_SIZE_FIRST SIZE_THROUGH(xcb_present_util_timing_t, sbc)
#define PRESENT_INFO_SIZE_FIRST SIZE_THROUGH(xcb_present_util_present_info_t, target_ust)
/* What a caller's struct holds (its size reaches past the field). */
#define SIZED_HAS(ptr, type, field) ((ptr)->size >= SIZE_THROUGH(type, field))
#define SYNCED_SIZE_FIRST SIZE_THROUGH(xcb_present_util_synced_t, n_notifies)

/* How many bytes of a struct of ours fit into the caller's. */
static inline size_t sized_len(uint32_t caller_size, size_t ours)
{
    return caller_size < ours ? caller_size : ours;
}

#endif
