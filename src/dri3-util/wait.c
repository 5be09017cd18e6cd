/*
 * The bounded wait: a reply (or an error, or the outcome of a checked
 * void request) by a deadline, or until a cancel fd turns readable, and
 * the thread's scope that caps every such wait.
 *
 * Why not libxcb's waits: xcb_wait_for_reply() and xcb_request_check()
 * have no timeout.  Why not only poll() on the connection's fd: libxcb
 * reads the socket in whichever thread is waiting in it.  A toolkit's
 * event thread sits in xcb_wait_for_event(); when our reply arrives, that
 * thread may read it into libxcb's queue first, and libxcb tells only
 * waiters inside libxcb (a condition variable we cannot reach).  Our
 * poll() would then sleep to the deadline with the reply already there
 * (measured: a swapchain's create took 3 s instead of 2 ms).  So the wait
 * sleeps in ticks of at most WAIT_TICK_NS and asks libxcb
 * (xcb_poll_for_reply) after each: a reply read by someone else is seen
 * within a tick.  Reply waits are rare and short; the cost, about a
 * thousand wake-ups a second while one lasts, is the price of never
 * sleeping past a reply.
 */
#include "wait-private.h"
#include "util-internal/deadline.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <xcb/xcbext.h>

#define WAIT_TICK_NS 1000000LL      /* 1 ms */
#define NO_DEADLINE INT64_MAX

static _Thread_local xcb_dri3_util_wait_scope_t scope = { NO_DEADLINE, -1 };

static int64_t normalize(int64_t deadline_ns)
{
    return deadline_ns < 0 ? NO_DEADLINE : deadline_ns;
}

static int64_t earlier(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

xcb_dri3_util_wait_scope_t xcb_dri3_util_wait_scope_push(int64_t deadline_ns, int cancel_fd)
{
    xcb_dri3_util_wait_scope_t previous = scope;

    scope.deadline_ns = earlier(normalize(deadline_ns), scope.deadline_ns);
    if (cancel_fd >= 0)
        scope.cancel_fd = cancel_fd;
    return previous;
}

void xcb_dri3_util_wait_scope_pop(xcb_dri3_util_wait_scope_t previous)
{
    scope = previous;
}

int64_t xcb_dri3_util_deadline(xcb_connection_t *c)
{
    int64_t timeout = xcb_dri3_util_timeout(c);
    int64_t now = deadline_now_ns();
    int64_t d = timeout > NO_DEADLINE - now ? NO_DEADLINE : now + timeout;

    return earlier(d, scope.deadline_ns);
}

/* Sets FD_CLOEXEC on the fds libxcb appended to a reply (it receives them
 * without MSG_CMSG_CLOEXEC). */
static void reply_fds_cloexec(const void *reply)
{
    const xcb_generic_reply_t *r = reply;
    const int *fds = (const int *)((const char *)reply + 32 + (size_t)r->length * 4);

    for (unsigned i = 0; i < r->pad0; i++)
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
}

enum wake { WAKE_TIME, WAKE_SOCKET, WAKE_CANCEL };

/* Sleeps at most timeout_ns, until a cancel fd or (when sock >= 0) the
 * socket turns readable. */
static enum wake sleep_tick(int sock, const int *cancel, int n_cancel, int64_t timeout_ns)
{
    struct pollfd pfd[3];
    struct timespec ts = { .tv_sec = timeout_ns / NSEC_PER_SEC,
                           .tv_nsec = timeout_ns % NSEC_PER_SEC };
    nfds_t n = 0;

    for (int i = 0; i < n_cancel; i++)
        pfd[n++] = (struct pollfd){ .fd = cancel[i], .events = POLLIN };
    if (sock >= 0)
        pfd[n++] = (struct pollfd){ .fd = sock, .events = POLLIN };
    /* EINTR: the caller loops and recomputes the time left. */
    if (ppoll(pfd, n, &ts, NULL) <= 0)
        return WAKE_TIME;
    for (int i = 0; i < n_cancel; i++)
        if (pfd[i].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))
            return WAKE_CANCEL;
    return WAKE_SOCKET;
}

static bool readable_now(int fd)
{
    struct pollfd pfd = { .fd = fd, .events = POLLIN };

    return poll(&pfd, 1, 0) > 0;
}

int xcb_dri3_util_wait_reply(xcb_connection_t *c, unsigned int sequence, unsigned flags,
                             int64_t deadline_ns, int cancel_fd, void **reply,
                             xcb_generic_error_t **error)
{
    int64_t deadline = earlier(normalize(deadline_ns), scope.deadline_ns);
    int cancel[2], n_cancel = 0, sock;
    enum wake woke = WAKE_TIME;

    if (error)
        *error = NULL;
    if (!c || !reply) {
        if (reply)
            *reply = NULL;
        return -EINVAL;
    }
    *reply = NULL;
    if (cancel_fd >= 0)
        cancel[n_cancel++] = cancel_fd;
    if (scope.cancel_fd >= 0 && scope.cancel_fd != cancel_fd)
        cancel[n_cancel++] = scope.cancel_fd;
    /* libxcb's poll never writes: the request must be on its way.  (A
     * server that stops reading can still block this write; libxcb has
     * no bounded one.) */
    if (xcb_flush(c) <= 0)
        return -EPIPE;
    sock = xcb_get_file_descriptor(c);
    xcb_dri3_util_collect_abandoned(c);

    for (;;) {
        void *r = NULL;
        xcb_generic_error_t *e = NULL;
        bool skip_socket;
        int64_t now;

        if (xcb_connection_has_error(c))
            return -EPIPE;
        if (xcb_poll_for_reply(c, sequence, &r, &e)) {
            if (xcb_connection_has_error(c) && !r && !e)
                return -EPIPE;
            /* Late answers that came before this one are in memory now. */
            xcb_dri3_util_collect_abandoned(c);
            if (e) {
                if (error)
                    *error = e;
                else
                    free(e);
                return 1;
            }
            /* Neither: the server answered a later request first, so this
             * one will never get its reply.  Without this the caller would
             * read a NULL reply as success. */
            if (!r)
                return -EPROTO;
            if (flags & XCB_DRI3_UTIL_WAIT_REPLY_FDS)
                reply_fds_cloexec(r);
            *reply = r;
            return 0;
        }
        now = deadline_now_ns();
        if (now >= deadline) {
            wait_abandon(c, sequence, flags);
            return -ETIMEDOUT;
        }
        /* The socket woke us, libxcb found nothing, and it is still
         * readable: another thread is reading it (libxcb lets one thread
         * read at a time).  Sleep this tick without it rather than spin. */
        skip_socket = woke == WAKE_SOCKET && readable_now(sock);
        woke = sleep_tick(skip_socket ? -1 : sock, cancel, n_cancel,
                          earlier(deadline - now, WAIT_TICK_NS));
        if (woke == WAKE_CANCEL) {
            wait_abandon(c, sequence, flags);
            return -ECANCELED;
        }
    }
}

/* The outcome of checked void request `cookie`: 0, 1 (*error set), or a
 * negative errno as xcb_dri3_util_wait_reply() gives. */
static int wait_checked(xcb_connection_t *c, xcb_void_cookie_t cookie, int64_t deadline_ns,
                        int cancel_fd, xcb_generic_error_t **error)
{
    xcb_get_input_focus_cookie_t sync;
    void *reply = NULL, *r = NULL;
    xcb_generic_error_t *e = NULL;
    int ret;

    *error = NULL;
    if (!c)
        return -EINVAL;
    if (xcb_connection_has_error(c))
        return -EPIPE;
    /* The round trip's reply proves the server handled the request; only
     * then can libxcb tell "no error" from "not yet". */
    sync = xcb_get_input_focus(c);
    ret = xcb_dri3_util_wait_reply(c, sync.sequence, 0, deadline_ns, cancel_fd, &reply, &e);
    free(reply);
    free(e);
    if (ret < 0) {
        if (ret == -ETIMEDOUT || ret == -ECANCELED)
            wait_abandon(c, cookie.sequence, ABANDON_VOID);
        return ret;
    }
    /* After that reply libxcb answers at once: the error, or nothing. */
    if (!xcb_poll_for_reply(c, cookie.sequence, &r, error)) {
        wait_abandon(c, cookie.sequence, ABANDON_VOID);
        return -EPIPE;
    }
    free(r);
    if (xcb_connection_has_error(c) && !*error)
        return -EPIPE;
    return *error ? 1 : 0;
}

int util_wait_checked(xcb_connection_t *c, xcb_void_cookie_t cookie, xcb_generic_error_t **error)
{
    return wait_checked(c, cookie, xcb_dri3_util_deadline(c), -1, error);
}

int xcb_dri3_util_wait_void(xcb_connection_t *c, xcb_void_cookie_t cookie, int64_t deadline_ns,
                            int cancel_fd)
{
    xcb_generic_error_t *e = NULL;
    int ret = wait_checked(c, cookie, deadline_ns, cancel_fd, &e);

    if (ret == 1) {
        /* X error codes start at 1; 0 would read as success. */
        ret = e->error_code ? e->error_code : 256;
        free(e);
    }
    return ret;
}

void wait_abandon_void(xcb_connection_t *c, xcb_void_cookie_t cookie)
{
    xcb_get_input_focus_cookie_t sync;

    if (xcb_connection_has_error(c))
        return;
    sync = xcb_get_input_focus(c);
    wait_abandon(c, cookie.sequence, ABANDON_VOID);
    wait_abandon(c, sync.sequence, 0);
    xcb_flush(c);
}
