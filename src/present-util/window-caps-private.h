/*
 * The Present capabilities of a window (PresentQueryCapabilities), kept
 * per connection for the last window asked, for present-synced.c: a frame
 * loop presents to one window, and a round trip per frame would cost it
 * its frame rate.
 */
#ifndef WINDOW_CAPS_PRIVATE_H
#define WINDOW_CAPS_PRIVATE_H

#include <stdint.h>
#include <xcb/xcb.h>

/*
 * window's capabilities (XCB_PRESENT_CAPABILITY_* bits) in *caps: cached,
 * or asked for and waited for until the deadline of the caller's scope
 * (the caller pushes it; at most the connection's timeout).  The caller
 * has made sure that the server has Present.  0, -ENODEV (the server
 * refused: no such window), -EPIPE, -ETIMEDOUT, -ECANCELED, -EPROTO.
 */
int window_caps(xcb_connection_t *c, xcb_window_t window, uint32_t *caps);

#endif
