/*
 * The bounded wait's internals, shared by wait.c (the waits and the
 * thread's scope), wait-conn.c (per-connection timeout and abandoned
 * requests, in the connection's entry of conn-state.h) and every file of
 * the library that makes a round trip.
 */
#ifndef XCB_DRI3_UTIL_WAIT_PRIVATE_H
#define XCB_DRI3_UTIL_WAIT_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "xcb_dri3_util_wait.h"

/* An abandoned request's answer carries fds (the same bit as the public
 * flag) / is that of a checked void request. */
#define ABANDON_REPLY_FDS XCB_DRI3_UTIL_WAIT_REPLY_FDS
#define ABANDON_VOID 2u

/* Remembers that nobody waits for request `sequence` any longer; its late
 * answer is taken in by a later collect.  When memory runs out the request
 * is left to libxcb (a late reply then stays in its memory). */
void wait_abandon(xcb_connection_t *c, unsigned int sequence, unsigned flags);

/*
 * After a checked void request whose outcome nobody will wait for: sends
 * a GetInputFocus, so that the outcome becomes known once its reply
 * arrives, and abandons both.  Used for the clean-up requests (FreePixmap
 * after a PixmapFromBuffers that timed out) whose error must not reach
 * the application's event queue.
 */
void wait_abandon_void(xcb_connection_t *c, xcb_void_cookie_t cookie);

/*
 * The library's own round trips: the public waits with the deadline of
 * the call (xcb_dri3_util_deadline(): the scope the public entry point
 * pushed, see util_call_begin()) and no cancel fd of their own.
 */
static inline int util_wait_reply(xcb_connection_t *c, unsigned int sequence, unsigned flags,
                                  void **reply, xcb_generic_error_t **error)
{
    return xcb_dri3_util_wait_reply(c, sequence, flags, xcb_dri3_util_deadline(c), -1, reply,
                                    error);
}

/* Like xcb_dri3_util_wait_void(), but hands the X error itself to the
 * caller: 0, 1 (*error set), or a negative errno. */
int util_wait_checked(xcb_connection_t *c, xcb_void_cookie_t cookie, xcb_generic_error_t **error);

/*
 * A public function that makes round trips brackets its body with these,
 * so that all its waits (the probe's included) share one deadline: the
 * connection's timeout from the call's start, capped by the caller's
 * scope.
 */
static inline xcb_dri3_util_wait_scope_t util_call_begin(xcb_connection_t *c)
{
    return xcb_dri3_util_wait_scope_push(xcb_dri3_util_deadline(c), -1);
}

static inline void util_call_end(xcb_dri3_util_wait_scope_t previous)
{
    xcb_dri3_util_wait_scope_pop(previous);
}

#endif
