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
 * The bound of every round trip on a connection.  Every function of
 * libxcb-dri3-util (and of the libraries built on it) that makes round trips
 * to the X server waits at most a bound, and fails with ETIMEDOUT when the
 * server does not answer in time.  The bound covers the whole call: the probe,
 * a modifier query and the request itself share one deadline, which is the
 * time the call started plus the connection's timeout.
 *
 * xcb_dri3_util_set_timeout() sets that timeout for c to timeout_ns
 * nanoseconds.  xcb_dri3_util_timeout() returns it: what was set, or
 * XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS (1 s) for a connection whose timeout was
 * never set (or c NULL).
 *
 * The timeout is kept per connection with the probe's answer and dropped with
 * it by xcb_dri3_util_probe_forget().  A thread's scope
 * (xcb_dri3_util_wait_scope_push()) can make the bound of its calls shorter,
 * never longer.
 *
 * Returns 0 from xcb_dri3_util_set_timeout(), -EINVAL (c is NULL or
 * timeout_ns is not positive) or -ENOMEM (and sets errno).
 *
 * See also xcb_dri3_util_deadline(), xcb_dri3_util_wait_reply(),
 * xcb_dri3_util_wait_scope_push().
 */
int xcb_dri3_util_set_timeout(xcb_connection_t *c, int64_t timeout_ns);

/*
 * The bound of every round trip on a connection.  Returns the timeout, in
 * nanoseconds, that bounds each call of the util libraries on c: what
 * xcb_dri3_util_set_timeout() set, or XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS (1 s)
 * when it was never set or c is NULL.
 *
 * See also xcb_dri3_util_set_timeout(), xcb_dri3_util_deadline().
 */
int64_t xcb_dri3_util_timeout(xcb_connection_t *c);

/* A flag of xcb_dri3_util_wait_reply(): the request's reply carries fds.
 * (libxcb appends them to the reply; their count is the reply's byte 1.) */
#define XCB_DRI3_UTIL_WAIT_REPLY_FDS 1u

/*
 * Wait for a reply with a deadline and a cancel fd.  Waits for the reply or
 * the error of the request whose cookie has the sequence number sequence, as
 * xcb_wait_for_reply() does, but only until deadline_ns (an absolute
 * CLOCK_MONOTONIC time in nanoseconds; INT64_MAX or a negative value: no
 * deadline of its own) and only until cancel_fd (-1: none) turns readable.
 * The calling thread's scope (xcb_dri3_util_wait_scope_push()) caps both.  The
 * request is flushed first.
 *
 * With flags XCB_DRI3_UTIL_WAIT_REPLY_FDS, the request's reply carries fds
 * (libxcb appends them to the reply; byte 1 of the reply is their count): they
 * become the caller's, close-on-exec.
 *
 * The wait wakes when the reply has arrived, whoever read it off the socket: a
 * toolkit's event thread that sleeps in xcb_wait_for_event() on the same
 * connection reads every reply first, and libxcb tells only its own waiters.
 * So the wait sleeps in ticks of at most 1 ms and asks libxcb
 * (xcb_poll_for_reply()) after each; replies are seen within a tick of their
 * arrival.
 *
 * A reply that has already arrived is returned even when the deadline has
 * passed or a cancel fd is readable: a deadline in the past only looks.
 *
 * When the wait gives up (deadline or cancel fd), the request is abandoned:
 * its answer, when it comes, is taken in by a later wait on c or by
 * xcb_dri3_util_collect_abandoned(), which frees it and closes its fds, so
 * that libxcb keeps no record of it and no fd leaks.
 *
 * Returns one of:
 *   0  *reply holds the reply, which the caller frees (NULL only for a request
 *      without a reply)
 *   1  *error holds the X error, which the caller frees (when error is NULL it
 *      is freed here)
 *   -ETIMEDOUT  the deadline passed first
 *   -ECANCELED  a cancel fd turned readable first
 *   -EPIPE  the connection has or got an error
 *   -EPROTO  the server answered later requests and never this one (libxcb
 *            then reports it as answered with nothing)
 *   -EINVAL  c or reply is NULL
 * *reply and *error are NULL except as said above.
 *
 * Bugs
 * ----
 * The flush before the wait is libxcb's, which has no bound: a server that
 * stops reading while a large request is queued can still block it.  So is
 * libxcb's read of a packet whose first bytes have come: a server that sends
 * part of a reply or event and then neither the rest nor a hang-up holds the
 * wait (and every other libxcb call on the connection).
 *
 * See also xcb_dri3_util_wait_void(), xcb_dri3_util_deadline(),
 * xcb_dri3_util_set_timeout(), xcb_dri3_util_wait_scope_push(),
 * xcb_dri3_util_collect_abandoned().
 */
int xcb_dri3_util_wait_reply(xcb_connection_t *c, unsigned int sequence, unsigned flags,
                             int64_t deadline_ns, int cancel_fd, void **reply,
                             xcb_generic_error_t **error);

/*
 * The outcome of a checked request, with a deadline.  The bounded counterpart
 * of xcb_request_check() for a request sent with its *_checked function: sends
 * a GetInputFocus after it and waits for that round trip as
 * xcb_dri3_util_wait_reply() does (same deadline, cancel fd and scope rules).
 * Its reply proves that the server handled the request, which either failed
 * with an X error or succeeded.
 *
 * When the wait gives up, both requests are abandoned: a late error is taken
 * in and freed by a later wait, and never reaches the event queue.
 *
 * Returns 0 (the request succeeded), the X error code (greater than 0; the
 * error itself is freed), -ETIMEDOUT, -ECANCELED, -EPIPE (the connection has
 * or got an error) or -EINVAL (c is NULL).
 *
 * See also xcb_dri3_util_wait_reply(), xcb_dri3_util_deadline().
 */
int xcb_dri3_util_wait_void(xcb_connection_t *c, xcb_void_cookie_t cookie,
                            int64_t deadline_ns, int cancel_fd);

/*
 * The deadline of a call that starts now.  Returns the absolute
 * CLOCK_MONOTONIC time, in nanoseconds, by which a call that starts now on c
 * must end: now plus xcb_dri3_util_timeout(), or the calling thread's scope
 * deadline (xcb_dri3_util_wait_scope_push()) when that is earlier.  Pass it to
 * xcb_dri3_util_wait_reply() and xcb_dri3_util_wait_void() to give all the
 * waits of one call one bound.
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
 * Cap every wait of this thread.  A scope caps every wait that the calling
 * thread makes in libxcb-dri3-util and in the libraries built on it: each ends
 * by deadline_ns (absolute CLOCK_MONOTONIC, nanoseconds) at the latest, and
 * gives up with ECANCELED once cancel_fd turns readable.  A library that calls
 * this one (the swapchain) pushes its own caller's deadline and cancel fd
 * around those calls, so that a call of its own never outlives its caller's
 * bound.
 *
 * xcb_dri3_util_wait_scope_push() returns the scope it replaces; pass that to
 * xcb_dri3_util_wait_scope_pop() to restore it, in the reverse order of the
 * pushes.  Scopes nest: a deadline later than the current scope's keeps the
 * current one (a scope never extends an outer bound); cancel_fd -1 keeps the
 * current scope's cancel fd, and any other fd replaces it until the pop (a
 * library that nests one cancel fd in another watches the outer one itself).
 * A deadline_ns of INT64_MAX (or a negative value) sets no deadline.  The fd
 * is borrowed: it must stay open until the scope is popped.  A new thread
 * starts with no scope.
 *
 * Returns the previous scope from xcb_dri3_util_wait_scope_push() (INT64_MAX
 * and -1 where none was in force).
 *
 * See also xcb_dri3_util_wait_reply(), xcb_dri3_util_deadline(),
 * xcb_dri3_util_set_timeout().
 */
xcb_dri3_util_wait_scope_t xcb_dri3_util_wait_scope_push(int64_t deadline_ns, int cancel_fd);

/*
 * End the scope that a push began.  Restores the calling thread's scope to
 * previous, the value that the matching xcb_dri3_util_wait_scope_push()
 * returned.  Pops go in the reverse order of the pushes.
 *
 * See also xcb_dri3_util_wait_scope_push().
 */
void xcb_dri3_util_wait_scope_pop(xcb_dri3_util_wait_scope_t previous);

/*
 * Free the late answers of requests nobody waits for.  A wait of the util
 * libraries that gives up (its deadline passed, or a cancel fd turned
 * readable) abandons its request.  This function takes in the answers of c's
 * abandoned requests that have arrived since: it frees each reply or error and
 * closes the fds a reply carries, so that libxcb keeps no record of them and
 * no fd leaks.  Answers still to come stay on the list.
 *
 * It never blocks: it reads what is on the socket when no other thread is
 * reading it.  Every wait does the same, before and after it waits; a program
 * that rarely waits may call this from its event loop.
 *
 * See also xcb_dri3_util_wait_reply(), xcb_dri3_util_probe_forget().
 */
void xcb_dri3_util_collect_abandoned(xcb_connection_t *c);

#ifdef __cplusplus
}
#endif

#endif
