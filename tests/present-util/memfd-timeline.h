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
/* The same without notify(), as on a kernel that cannot: the swapchain
 * looks every millisecond. */
extern const struct sc_timeline_ops test_memfd_timelines_polled;
/* How many of them exist now (made and not yet destroyed). */
int test_memfd_timelines_alive(void);
/* How many times the swapchain looked at a point (wait, wait_available),
 * counted since the program started. */
unsigned long test_memfd_timelines_looks(void);

#endif
