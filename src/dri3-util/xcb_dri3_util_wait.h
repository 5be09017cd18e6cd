/*
 * xcb_dri3_util_wait.h: the one bounded wait of the util libraries.
 *
 * Installed as <xcb/xcb_dri3_util_wait.h> and included by
 * <xcb/xcb_dri3_util.h>; pkg-config name xcb-dri3-util.
 *
 * The rule
 * --------
 * Nothing in libxcb-dri3-util (and in the libraries built on it) waits on
 * the X server without a bound.  Every function that makes a round trip
 * waits at most the connection's timeout (xcb_dri3_util_set_timeout(),
 * 1 s unless changed) for the whole call, however many round trips it
 * makes, and gives up with ETIMEDOUT.  A library that calls this one can
 * cap those waits further for the calls of one thread (a scope: a
 * deadline and a cancel fd, see xcb_dri3_util_wait_scope_push()).
 *
 * libxcb's own waits (xcb_wait_for_reply(), xcb_request_check() and the
 * generated *_reply() functions) have no timeout: a server that stalls
 * holds the caller for ever.  The functions below wait with
 * xcb_poll_for_reply() and poll() instead, so they are bounded, and they
 * wake when the reply has arrived whoever read it off the socket: a
 * toolkit's event thread sitting in xcb_wait_for_event() on the same
 * connection takes every reply in, and the waiter must still see its own
 * at once.
 *
 * A wait that gives up leaves its request behind: its reply (or error)
 * comes later.  The library remembers such a request ("abandoned") and
 * takes its late answer in at the next wait on the connection (or at
 * xcb_dri3_util_collect_abandoned()): it frees it and closes the fds it
 * carries, so libxcb keeps no record of it, no fd leaks, and the answer is
 * never confused with that of a later request.
 *
 * Per-connection state: the timeout and the list of abandoned requests
 * are kept per connection, like the probe's answer, and dropped with it
 * by xcb_dri3_util_probe_forget() (call it before xcb_disconnect() when a
 * program opens and closes many connections).  All functions are
 * thread-safe.
 */
#ifndef XCB_DRI3_UTIL_WAIT_H
#define XCB_DRI3_UTIL_WAIT_H

#include <stdint.h>
#include <xcb/xcb.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The timeout of a connection whose timeout was never set: 1 s. */
#define XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS 1000000000LL

/*
 * The bound of every round trip on a connection.
 *
 * Sets the bound of every call on c that makes round trips (the whole
 * call: the probe, a modifier query and the request itself share one
 * deadline).
 *
 * Returns 0, -EINVAL (c is NULL or timeout_ns <= 0), -ENOMEM.
 *
 * See also xcb_dri3_util_deadline(), xcb_dri3_util_wait_reply(),
 * xcb_dri3_util_wait_scope_push().
 */
int xcb_dri3_util_set_timeout(xcb_connection_t *c, int64_t timeout_ns);

/*
 * The timeout of a connection's waits.
 *
 * The timeout of c: what xcb_dri3_util_set_timeout() set, or
 * XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS.
 *
 * See also xcb_dri3_util_set_timeout(), xcb_dri3_util_deadline().
 */
int64_t xcb_dri3_util_timeout(xcb_connection_t *c);

/* A flag of xcb_dri3_util_wait_reply(): the request's reply carries fds.
 * (libxcb appends them to the reply; their count is the reply's byte 1.) */
#define XCB_DRI3_UTIL_WAIT_REPLY_FDS 1u

/*
 * Wait for a reply with a deadline and a cancel fd.
 *
 * Waits for the reply or the error of request `sequence` (a cookie's
 * sequence) until deadline_ns (an absolute CLOCK_MONOTONIC time in ns;
 * INT64_MAX or a negative value: no deadline of its own), or until
 * cancel_fd (-1: none) turns readable; the thread's scope (below) caps
 * both.  The request is flushed first (libxcb's flush, and libxcb's read
 * of a packet whose first bytes have come, have no bound: see BUGS in
 * xcb_dri3_util_wait_reply(3)).  flags: 0 or
 * XCB_DRI3_UTIL_WAIT_REPLY_FDS.
 *
 * Returns
 *   0           *reply holds the reply (the caller frees it; with
 *               REPLY_FDS the fds are the caller's, made close-on-exec)
 *   1           *error holds the X error (the caller frees it; when error
 *               is NULL it is freed here)
 *   -ETIMEDOUT  the deadline passed first
 *   -ECANCELED  a cancel fd turned readable first
 *   -EPIPE      the connection has or got an error
 *   -EPROTO     the server answered later requests and never this one
 *   -EINVAL     c or reply is NULL
 * *reply and *error are NULL except as said.  A reply that has already
 * arrived is returned even when the deadline has passed or a cancel fd is
 * readable: a deadline in the past only looks.  On -ETIMEDOUT and
 * -ECANCELED the request is abandoned (see the top).
 *
 * See also xcb_dri3_util_wait_void(), xcb_dri3_util_deadline(),
 * xcb_dri3_util_set_timeout(), xcb_dri3_util_wait_scope_push(),
 * xcb_dri3_util_collect_abandoned().
 */
int xcb_dri3_util_wait_reply(xcb_connection_t *c, unsigned int sequence, unsigned flags,
                             int64_t deadline_ns, int cancel_fd, void **reply,
                             xcb_generic_error_t **error);

/*
 * The outcome of a checked request, with a deadline.
 *
 * The outcome of a void request sent with its *_checked function: sends a
 * GetInputFocus after it and waits, as xcb_dri3_util_wait_reply() does,
 * for that round trip, which tells whether the request failed.
 *
 * Returns
 * 0 (it succeeded), the X error code (> 0, the error itself is freed),
 * -ETIMEDOUT, -ECANCELED, -EPIPE, -EINVAL (c is NULL).  On -ETIMEDOUT and
 * -ECANCELED both requests are abandoned, so a late error never reaches
 * the event queue.
 *
 * See also xcb_dri3_util_wait_reply(), xcb_dri3_util_deadline().
 */
int xcb_dri3_util_wait_void(xcb_connection_t *c, xcb_void_cookie_t cookie,
                            int64_t deadline_ns, int cancel_fd);

/*
 * The deadline of a call that starts now.
 *
 * The deadline of a call that starts now on c: now plus
 * xcb_dri3_util_timeout(c), or the thread's scope deadline when that
 * is earlier.
 *
 * See also xcb_dri3_util_set_timeout(), xcb_dri3_util_wait_reply().
 */
int64_t xcb_dri3_util_deadline(xcb_connection_t *c);

/*
 * A deadline and a cancel fd that cap the calling thread's waits.
 *
 * A scope caps every wait of the calling thread, in this library and in
 * the libraries built on it: each ends by deadline_ns at the latest and
 * gives up with -ECANCELED (errno ECANCELED) once cancel_fd turns
 * readable.  A library that calls this one (the swapchain) pushes its own
 * caller's deadline and cancel fd around those calls.
 *
 * Push returns the scope it replaces; pass that to pop to restore it, in
 * the reverse order of the pushes.  Scopes nest: a pushed deadline later
 * than the current scope's keeps the current one (a scope never extends
 * an outer bound); cancel_fd -1 keeps the current scope's cancel fd, any
 * other fd replaces it for the scope's lifetime (a library that nests one
 * cancel fd in another watches the outer one itself).  deadline_ns
 * INT64_MAX (or negative): no deadline.  The fd is borrowed: it must stay
 * open until the scope is popped.  No scope is in force in a new thread.
 */
typedef struct xcb_dri3_util_wait_scope {
    int64_t deadline_ns;    /* absolute CLOCK_MONOTONIC; INT64_MAX: none */
    int cancel_fd;          /* -1: none */
} xcb_dri3_util_wait_scope_t;

/*
 * Cap every wait of this thread.
 *
 * A scope caps every wait that the calling thread makes in libxcb-dri3-util
 * and in the libraries built on it: each ends by deadline_ns (absolute
 * CLOCK_MONOTONIC, nanoseconds) at the latest, and gives up with ECANCELED
 * once cancel_fd turns readable. A library that calls this one (the swapchain)
 * pushes its own caller's deadline and cancel fd around those calls, so that a
 * call of its own never outlives its caller's bound.
 *
 * xcb_dri3_util_wait_scope_push() returns the scope it replaces; pass that to
 * xcb_dri3_util_wait_scope_pop() to restore it, in the reverse order of the
 * pushes. Scopes nest: a deadline later than the current scope's keeps the
 * current one (a scope never extends an outer bound); cancel_fd -1 keeps the
 * current scope's cancel fd, and any other fd replaces it until the pop (a
 * library that nests one cancel fd in another watches the outer one itself). A
 * deadline_ns of INT64_MAX (or a negative value) sets no deadline. The fd is
 * borrowed: it must stay open until the scope is popped. A new thread starts
 * with no scope.
 *
 * Returns xcb_dri3_util_wait_scope_push() returns the previous scope
 * (INT64_MAX and -1 where none was in force).
 *
 * See also xcb_dri3_util_wait_reply(), xcb_dri3_util_deadline(),
 * xcb_dri3_util_set_timeout().
 */
xcb_dri3_util_wait_scope_t xcb_dri3_util_wait_scope_push(int64_t deadline_ns, int cancel_fd);

/*
 * End the scope that a push began.
 *
 * Restores the calling thread's scope to previous, the value that the matching
 * xcb_dri3_util_wait_scope_push() returned. Pops go in the reverse order of
 * the pushes.
 *
 * See also xcb_dri3_util_wait_scope_push().
 */
void xcb_dri3_util_wait_scope_pop(xcb_dri3_util_wait_scope_t previous);

/*
 * Free the late answers of requests nobody waits for.
 *
 * Takes in the late answers of c's abandoned requests that have arrived:
 * frees them and closes their fds.  Never blocks (it reads what is on the
 * socket, if no other thread is reading).  Every wait does this too; a
 * program that rarely waits may call it from its event loop.
 *
 * See also xcb_dri3_util_wait_reply(), xcb_dri3_util_probe_forget().
 */
void xcb_dri3_util_collect_abandoned(xcb_connection_t *c);

#ifdef __cplusplus
}
#endif

#endif
