/*
 * The per-input frame of the util targets (fuzz-util-run.h), and the
 * stand-ins for libxcb's reply functions that tell the fd model which
 * replies the library received.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fuzz-util-run.h"

#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <xcb/xcbext.h>

/* The library's own clock: a run's time is measured as its waits count it. */
#include "util-internal/deadline.h"
#include "fuzz-conn.h"
#include "fuzz-server.h"
#include "xcb_dri3_util.h"

/* ------------------------------------------------ libxcb's reply calls */

/* The executable's definitions come first for our code linked in and for
 * our shared libraries alike (fuzz-replies.c does the same). */
#define REAL(fn) \
    static __typeof__(fn) *real; \
    if (real == NULL) \
        *(void **)&real = dlsym(RTLD_NEXT, #fn)

void *xcb_wait_for_reply(xcb_connection_t *c, unsigned int request, xcb_generic_error_t **e)
{
    REAL(xcb_wait_for_reply);
    void *r = real(c, request, e);

    if (r != NULL)
        fuzz_server_mark_fetched(request);
    return r;
}

void *xcb_wait_for_reply64(xcb_connection_t *c, uint64_t request, xcb_generic_error_t **e)
{
    REAL(xcb_wait_for_reply64);
    void *r = real(c, request, e);

    if (r != NULL)
        fuzz_server_mark_fetched(request);
    return r;
}

int xcb_poll_for_reply(xcb_connection_t *c, unsigned int request, void **reply,
                       xcb_generic_error_t **e)
{
    REAL(xcb_poll_for_reply);
    int r = real(c, request, reply, e);

    if (r && reply && *reply)
        fuzz_server_mark_fetched(request);
    return r;
}

int xcb_poll_for_reply64(xcb_connection_t *c, uint64_t request, void **reply,
                         xcb_generic_error_t **e)
{
    REAL(xcb_poll_for_reply64);
    int r = real(c, request, reply, e);

    if (r && reply && *reply)
        fuzz_server_mark_fetched(request);
    return r;
}

/* Fds the library handed to libxcb with a request: from then on libxcb's
 * to close (design.md), even when the connection fails before they are
 * sent, which libxcb 1.15 does not do. */
#define MAX_HANDED 512
static struct {
    int fd;
    dev_t dev;
    ino_t ino;
} handed[MAX_HANDED];
static unsigned n_handed;

static void note_handed(const int *fds, unsigned n)
{
    for (unsigned i = 0; i < n && n_handed < MAX_HANDED; i++) {
        struct stat st;

        if (fstat(fds[i], &st) == 0) {
            handed[n_handed].fd = fds[i];
            handed[n_handed].dev = st.st_dev;
            handed[n_handed].ino = st.st_ino;
            n_handed++;
        }
    }
}

static bool was_handed(const struct stat *st)
{
    for (unsigned i = 0; i < n_handed; i++)
        if (handed[i].dev == st->st_dev && handed[i].ino == st->st_ino)
            return true;
    return false;
}

/* This very fd went to libxcb with a request. A dup() the library handed
 * over shares its inode with the fd it came from (fence_to_server sends a
 * dup of a fence that came with a reply): the number tells them apart. */
static bool is_handed_fd(int fd, const struct stat *st)
{
    for (unsigned i = 0; i < n_handed; i++)
        if (handed[i].fd == fd && handed[i].dev == st->st_dev && handed[i].ino == st->st_ino)
            return true;
    return false;
}

unsigned int xcb_send_request_with_fds(xcb_connection_t *c, int flags, struct iovec *vector,
                                       const xcb_protocol_request_t *request,
                                       unsigned int num_fds, int *fds)
{
    REAL(xcb_send_request_with_fds);

    note_handed(fds, num_fds);
    return real(c, flags, vector, request, num_fds, fds);
}

uint64_t xcb_send_request_with_fds64(xcb_connection_t *c, int flags, struct iovec *vector,
                                     const xcb_protocol_request_t *request,
                                     unsigned int num_fds, int *fds)
{
    REAL(xcb_send_request_with_fds64);

    note_handed(fds, num_fds);
    return real(c, flags, vector, request, num_fds, fds);
}

/* libxcb 1.15's xcb_unregister_for_special_event() returns at once on a
 * connection in error, leaving the queue and its events allocated for
 * good (README.md). LeakSanitizer is told about it (fuzz-conn.c), but
 * each such input still ends with more mallocs than frees, which makes
 * libFuzzer run it again and scan the heap: that was most of these
 * targets' time. So the harness frees such a queue itself once the
 * connection is gone, where it has seen at registration that the queue
 * is laid out as in libxcb 1.15 (xcb_in.c: next; extension; eid; stamp;
 * events; events_tail; a condition variable): other versions keep the
 * leak and the cost. */
struct special_layout {
    void *next;
    uint8_t extension;
    uint32_t eid;
    uint32_t *stamp;
    struct special_node {
        void *event;
        struct special_node *next;
    } *events;
    struct special_node **events_tail;
    pthread_cond_t cond;
};
#define MAX_SPECIAL 16
static xcb_special_event_t *known[MAX_SPECIAL], *orphans[MAX_SPECIAL];
static unsigned n_known, n_orphans;

xcb_special_event_t *xcb_register_for_special_xge(xcb_connection_t *c, xcb_extension_t *ext,
                                                  uint32_t eid, uint32_t *stamp)
{
    REAL(xcb_register_for_special_xge);
    xcb_special_event_t *se = real(c, ext, eid, stamp);
    const struct special_layout *l = (const void *)se;
    const xcb_query_extension_reply_t *e = se ? xcb_get_extension_data(c, ext) : NULL;

    if (e && l->extension == e->major_opcode && l->eid == eid && l->stamp == stamp &&
        l->events == NULL && l->events_tail == &((struct special_layout *)se)->events &&
        n_known < MAX_SPECIAL)
        known[n_known++] = se;
    return se;
}

void xcb_unregister_for_special_event(xcb_connection_t *c, xcb_special_event_t *se)
{
    REAL(xcb_unregister_for_special_event);
    bool failed = se && xcb_connection_has_error(c);

    real(c, se);
    for (unsigned i = 0; i < n_known; i++) {
        if (known[i] != se)
            continue;
        if (failed && n_orphans < MAX_SPECIAL)
            orphans[n_orphans++] = se;
        known[i] = known[--n_known];
        break;
    }
}

/* After xcb_disconnect(): nothing in libxcb can reach them any more. */
static void free_orphans(void)
{
    for (unsigned i = 0; i < n_orphans; i++) {
        struct special_layout *l = (void *)orphans[i];

        for (struct special_node *e = l->events, *next; e; e = next) {
            next = e->next;
            free(e->event);
            free(e);
        }
        pthread_cond_destroy(&l->cond);
        free(l);
    }
    n_orphans = n_known = 0;
}

/* ------------------------------------------------------------- checks */

void fuzz_util_check_fd(int fd, const char *what)
{
    int flags = fcntl(fd, F_GETFD);

    if (flags < 0)
        fuzz_finding("%s: fd %d is not open", what, fd);
    if (!(flags & FD_CLOEXEC))
        fuzz_finding("%s: fd %d is not close-on-exec", what, fd);
}

bool fuzz_util_errno_in(int e, const int *allowed)
{
    for (; *allowed; allowed++)
        if (e == *allowed)
            return true;
    return false;
}

/* FUZZ_DEBUG: the server's watchdog asks where the client waits. */
void __sanitizer_print_stack_trace(void) __attribute__((weak));

static void print_stack(int sig)
{
    void *frames[32];

    (void)sig;
    fputs("the client's stack while the server waited for it:\n", stderr);
    if (__sanitizer_print_stack_trace)
        __sanitizer_print_stack_trace();
    else
        backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
}

static bool env_set(const char *name)
{
    const char *v = getenv(name);

    return v && *v && strcmp(v, "0") != 0;
}

/* What an fd is, for a message: "/memfd:NAME (deleted)", "pipe:[N]". */
static const char *fd_name(int fd, char *buf, size_t size)
{
    char path[64];
    ssize_t n;

    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    n = readlink(path, buf, size - 1);
    buf[n > 0 ? n : 0] = '\0';
    return n > 0 ? buf : "?";
}

/* Every fd open now and not before: the library's finding when it is its
 * own or came with a reply it received; libxcb's otherwise (README.md),
 * a finding then only with FUZZ_STRICT_LEAKS=1. All are closed. */
static void check_leaks(const struct fuzz_fds *before)
{
    struct fuzz_fds now;
    bool strict = env_set("FUZZ_STRICT_LEAKS");
    char link[256];

    fuzz_fds_snapshot(&now);
    for (int fd = 0; fd < FUZZ_FD_LIMIT; fd++) {
        struct stat st;

        if (!now.open[fd] || before->open[fd])
            continue;
        if (fstat(fd, &st) < 0)
            fuzz_finding("harness: fstat of fd %d: not open", fd);
        if (!fuzz_server_fd_was_sent(st.st_dev, st.st_ino) && !was_handed(&st))
            fuzz_finding("fd %d (%s) left open: the library's own", fd,
                         fd_name(fd, link, sizeof(link)));
        if (!is_handed_fd(fd, &st) && fuzz_server_fd_is_clients(st.st_dev, st.st_ino))
            fuzz_finding("fd %d (%s) left open: it came with a reply the library received",
                         fd, fd_name(fd, link, sizeof(link)));
        if (strict)
            fuzz_finding("fd %d (%s) left open inside libxcb", fd,
                         fd_name(fd, link, sizeof(link)));
        close(fd);
    }
}

/* A connection to a new server: the handshake and both QueryExtensions,
 * which the server answers from inside libxcb's waits. */
static xcb_connection_t *connect_to(struct fuzz_server **server, const uint8_t *script,
                                    size_t n, bool bounded, int *server_fd)
{
    extern xcb_extension_t xcb_dri3_id, xcb_present_id;
    xcb_connection_t *c;
    int sv[2];

    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        fuzz_finding("harness: socketpair: %s", strerror(errno));
    *server = fuzz_server_start(sv[1], sv[0], script, n, bounded);
    *server_fd = sv[1];
    c = xcb_connect_to_fd(sv[0], NULL);
    xcb_prefetch_extension_data(c, &xcb_dri3_id);
    xcb_prefetch_extension_data(c, &xcb_present_id);
    if (xcb_connection_has_error(c) || xcb_get_extension_data(c, &xcb_dri3_id) == NULL ||
        xcb_get_extension_data(c, &xcb_present_id) == NULL || xcb_connection_has_error(c))
        fuzz_finding("harness: cannot set up a connection");
    return c;
}

static void run(const uint8_t *data, size_t size)
{
    static bool once;
    uint8_t head[FUZZ_UTIL_HEAD] = { 0 };
    struct fuzz_fds before;
    xcb_connection_t *c;
    struct fuzz_server *server;
    struct fuzz_server_report rep;
    int64_t budget = 0, t0, elapsed, bound;
    bool bounded = fuzz_util_has_timeout();
    int server_fd;

    if (!once) {
        /* A server that hangs up makes libxcb's next write fail with
         * EPIPE; the signal would end the process instead. */
        signal(SIGPIPE, SIG_IGN);
        signal(SIGUSR2, print_stack);
        once = true;
    }
    memcpy(head, data, size < FUZZ_UTIL_HEAD ? size : FUZZ_UTIL_HEAD);
    n_handed = 0;
    fuzz_fds_snapshot(&before);
    c = connect_to(&server, size > FUZZ_UTIL_HEAD ? data + FUZZ_UTIL_HEAD : data,
                   size > FUZZ_UTIL_HEAD ? size - FUZZ_UTIL_HEAD : 0, bounded, &server_fd);
    if (bounded)
        fuzz_util_set_timeout(c, FUZZ_UTIL_SET_TIMEOUT_NS);
    /* The time an input takes is the clock of fuzz-vtime.h: its waits
     * count in full although none is slept. */
    t0 = deadline_now_ns();
    fuzz_util_drive(c, head, &budget);
    /* The probe's cache is keyed on the connection's address, which the
     * next input's connection may get. */
    xcb_dri3_util_probe_forget(c);
    xcb_disconnect(c);
    free_orphans();
    fuzz_server_stop(server, &rep);
    close(server_fd);
    elapsed = deadline_now_ns() - t0;

    if (rep.watchdog && !rep.watchdog_outstanding)
        fuzz_finding("the client went quiet for %d ms with every request answered "
                     "(last: %s)", FUZZ_WATCHDOG_MS, rep.last_request);
    /* After raw bytes the client may be inside libxcb's read of a packet
     * that never ends, which no caller of libxcb can bound (README.md);
     * FUZZ_STRICT_HANGS=1 shows those too. */
    if (rep.watchdog && ((bounded && !rep.raw_bytes) || env_set("FUZZ_STRICT_HANGS")))
        fuzz_finding("a round trip outlived its bound: quiet for %d ms waiting for the "
                     "reply to %s", FUZZ_WATCHDOG_MS, rep.last_request);
    bound = budget + (int64_t)rep.stall_ms * 1000000 +
            rep.unanswered * FUZZ_UTIL_ROUND_TRIP_NS +
            (rep.watchdog ? FUZZ_WATCHDOG_MS * 1000000ll : 0) + FUZZ_UTIL_MARGIN_NS;
    if (elapsed > bound)
        fuzz_finding("the input took %lld ms, more than its bound of %lld ms (timeouts "
                     "%lld ms, stalls %llu ms, %u unanswered)",
                     (long long)(elapsed / 1000000), (long long)(bound / 1000000),
                     (long long)(budget / 1000000), (unsigned long long)rep.stall_ms,
                     rep.unanswered);
    check_leaks(&before);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    return 0;
}
