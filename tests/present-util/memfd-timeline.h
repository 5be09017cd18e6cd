/*
 * Timelines for the swapchain's explicit sync without a DRM device: memfd
 * pages (mock/timeline-page.h) that the mock X server maps, waits
 * for and signals.  A test that links the swapchain's sources points the
 * DRI3 back end's hidden seam at them before it creates a swapchain:
 *     sc_timeline_ops = &test_memfd_timelines;
 */
#ifndef MEMFD_TIMELINE_H
#define MEMFD_TIMELINE_H

#include "timeline-private.h"

extern const struct sc_timeline_ops test_memfd_timelines;
/* How many of them exist now (made and not yet destroyed). */
int test_memfd_timelines_alive(void);

#endif
