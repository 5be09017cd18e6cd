/*
 * xcb_dri3_util.h: helpers for DRI3 clients (libxcb-dri3-util).
 *
 * Installed as <xcb/xcb_dri3_util.h>; pkg-config name xcb-dri3-util.
 * This header includes the library's five headers, one per concern; each
 * opens with an overview of its objects and their life cycle:
 *   <xcb/xcb_dri3_util_fence.h>   futex-page fences: trigger, wait, hand
 *                                 to the server and back, watch from a
 *                                 main loop
 *   <xcb/xcb_dri3_util_buffer.h>  what the server offers (the probe),
 *                                 buffers of dma-bufs or memfds and their
 *                                 pixmaps, formats and modifiers
 *   <xcb/xcb_dri3_util_device.h>  the DRM device of DRI3 Open, and which
 *                                 GPU renders (PRIME)
 *   <xcb/xcb_dri3_util_sync.h>    explicit sync: DRM timeline syncobjs and
 *                                 their XIDs (DRI3 1.4)
 *   <xcb/xcb_dri3_util_wait.h>    the bounded wait behind every round trip,
 *                                 and the per-connection timeout
 *
 * Errors, one rule for the whole library (libxcb-present-util follows it
 * too):
 *   - a function that returns int returns 0, or the count, index, fd or
 *     flag it documents, on success and a negative errno on failure;
 *   - a function that returns a pointer or an X id returns NULL or
 *     XCB_NONE on failure, with errno set to a positive errno;
 *   - a function that sends a request the server can refuse takes
 *     xcb_generic_error_t **err as its last parameter: when the server
 *     refused, *err (when err is not NULL) receives the X error, which the
 *     caller frees, and the errno is EIO; in every other case *err is NULL.
 * Timeouts are ETIMEDOUT everywhere.  Every call that makes a round trip
 * may also fail with EPROTO where the server breaks the protocol (it
 * answers later requests and never the call's own); the errors listed
 * with each call come in addition.  The futex system calls behind the
 * fences' waits and wake-ups cannot fail on a valid fence in a process
 * that may use futex(2) at all; where a sandbox forbids futex(2) itself
 * (which also breaks pthreads), its errno (EPERM or ENOSYS) is passed on,
 * as noted with "a futex refusal".
 *
 * Names: xcb_dri3_util_<object>_<verb> for what acts on an object
 * (fence_trigger, buffer_map, timeline_signal, modifiers_query) and
 * xcb_dri3_util_<object>_<property> for what reads one (fence_fd,
 * buffer_width, timeline_fd): no "get_".  What concerns the connection as
 * a whole (probe, the waits, the timeout) names no object.  Constructors
 * end in _create, _import, _open or _from_<source>; destructors in
 * _destroy, _close or _free, each of which accepts NULL.
 *
 * Talking to the server.  No function sends a request to an extension
 * the server lacks (libxcb would shut the connection down): each consults
 * the probe (<xcb/xcb_dri3_util_buffer.h>) and fails with ENOTSUP, having
 * sent nothing, when the extension or version it needs is missing.  EPIPE
 * means the connection has an error.  Every function that makes round
 * trips is bounded as a whole (its probe, modifier query and request share
 * one deadline) by the connection's timeout, 1 s unless
 * xcb_dri3_util_set_timeout() changed it, and by the caller's scope: it
 * fails with ETIMEDOUT when the server does not answer in time, and with
 * ECANCELED when the scope's cancel fd turns readable.  The answer that
 * comes later is taken in and freed (its fds closed) by a later call, and
 * what the request may still create on the server (a pixmap, a fence, a
 * syncobj) is freed after the fact, its error kept out of the event queue.
 * The functions that only send (device_set_in_use, syncobj_free) wait only
 * for the probe, on a connection's first call, and can then fail the same
 * way.
 */
#ifndef XCB_DRI3_UTIL_H
#define XCB_DRI3_UTIL_H

#include "xcb_dri3_util_wait.h"
#include "xcb_dri3_util_fence.h"
#include "xcb_dri3_util_buffer.h"
#include "xcb_dri3_util_device.h"
#include "xcb_dri3_util_sync.h"

#endif
