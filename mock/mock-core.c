/* The mock server's core: one poll() loop over the listening socket, the
 * clients and the extensions' timers; reading requests with their fds,
 * framing and dispatching them; clients coming and going; a clean
 * shutdown on SIGTERM or SIGINT. */
#include "mock-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define READ_CHUNK 65536
#define MAX_BIG_REQUEST_WORDS 4194303u
/* How long a closed client may take to notice before we drop it. */
#define LINGER_US 1000000u

static const struct mock_extension *const extensions[] = {
    &mock_ge_extension, &mock_bigreq_extension, &mock_sync_extension,
    &mock_dri3_extension, &mock_present_extension, &mock_shm_extension,
    &mock_xfixes_extension,
};
#define N_EXTENSIONS (sizeof extensions / sizeof extensions[0])

/* ---- extensions ----------------------------------------------------- */

static bool advertised(const struct mock_server_state *s, const struct mock_extension *e)
{
    return !e->present || e->present(s->cfg);
}

const struct mock_extension *mock_find_extension(struct mock_server_state *s,
                                                 const char *name, size_t len)
{
    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (strlen(extensions[i]->name) == len &&
            memcmp(extensions[i]->name, name, len) == 0 && advertised(s, extensions[i]))
            return extensions[i];
    return NULL;
}

size_t mock_extension_names(struct mock_server_state *s, const char **names, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < N_EXTENSIONS && n < max; i++)
        if (advertised(s, extensions[i]))
            names[n++] = extensions[i]->name;
    return n;
}

static const struct mock_extension *extension_by_major(struct mock_server_state *s,
                                                       uint8_t major)
{
    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->major == major && advertised(s, extensions[i]))
            return extensions[i];
    return NULL;
}

void mock_hook_drawable_destroyed(struct mock_server_state *s, struct mock_drawable *d)
{
    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->drawable_destroyed && advertised(s, extensions[i]))
            extensions[i]->drawable_destroyed(s, d);
}

void mock_hook_window_configured(struct mock_server_state *s, struct mock_drawable *d,
                                 bool resized)
{
    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->window_configured && advertised(s, extensions[i]))
            extensions[i]->window_configured(s, d, resized);
}

void mock_hook_fence_triggered(struct mock_server_state *s, struct mock_fence *f)
{
    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->fence_triggered && advertised(s, extensions[i]))
            extensions[i]->fence_triggered(s, f);
}

/* ---- input ---------------------------------------------------------- */

int mock_take_fd(struct mock_request *req)
{
    struct mock_client *c = req->client;
    int fd;

    if (c->n_in_fds == 0 || req->ntaken == 8)
        return -1;
    fd = c->in_fds[0];
    memmove(c->in_fds, c->in_fds + 1, (size_t)(c->n_in_fds - 1) * sizeof(int));
    c->n_in_fds--;
    mock_describe_fd(fd, &req->taken_info[req->ntaken]);
    req->taken[req->ntaken++] = fd;
    return fd;
}

/* Reads what is there, with any fds.  False when the client has gone. */
static bool read_in(struct mock_client *c)
{
    union {
        struct cmsghdr align;
        char buf[CMSG_SPACE(MOCK_MAX_FDS_IN * sizeof(int))];
    } control;
    struct iovec iov;
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
    ssize_t n;

    if (c->in_cap - c->in_len < READ_CHUNK) {
        /* doubling, so that a 16 MiB request is not copied 256 times */
        size_t cap = c->in_len + READ_CHUNK > 2 * c->in_cap ? c->in_len + READ_CHUNK
                                                            : 2 * c->in_cap;
        uint8_t *p = realloc(c->in, cap);

        if (!p)
            return false;
        c->in = p;
        c->in_cap = cap;
    }
    iov.iov_base = c->in + c->in_len;
    iov.iov_len = c->in_cap - c->in_len;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof control.buf;
    n = recvmsg(c->fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (n < 0)
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
            continue;
        int nfds = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
        int fds[MOCK_MAX_FDS_IN];

        memcpy(fds, CMSG_DATA(cm), (size_t)nfds * sizeof(int));
        for (int i = 0; i < nfds; i++) {
            if (c->n_in_fds < MOCK_MAX_FDS_IN) {
                c->in_fds[c->n_in_fds++] = fds[i];
            } else {
                close(fds[i]);
                mock_info(c->server, "client %d: too many unused fds, one dropped",
                          c->index);
            }
        }
    }
    if (msg.msg_flags & MSG_CTRUNC)
        mock_info(c->server, "client %d: fds lost (control data truncated)", c->index);
    if (n == 0)
        return false;
    c->in_len += (size_t)n;
    return true;
}

static void consume_in(struct mock_client *c, size_t n)
{
    memmove(c->in, c->in + n, c->in_len - n);
    c->in_len -= n;
}

static void dispatch(struct mock_request *req)
{
    const struct mock_extension *e;

    if (req->major < 128) {
        mock_core_dispatch(req);
    } else if ((e = extension_by_major(req->client->server, req->major))) {
        e->dispatch(req);
    } else {
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
    }
}

/* Handles the request at p (avail bytes are there) if it is complete.
 * Returns the bytes it took, or 0 when more must be read first. */
static size_t handle_request(struct mock_client *c, const uint8_t *p, size_t avail)
{
    struct mock_server_state *s = c->server;
    struct mock_request req = { .client = c, .data = p, .body = 4 };
    uint32_t words;

    if (avail < 4)
        return 0;
    words = mock_get16(p + 2);
    if (words == 0 && c->big_requests) {
        if (avail < 8)
            return 0;
        words = mock_get32(p + 4);
        req.body = 8;
    }
    req.major = p[0];
    req.minor = p[1];
    /* A length that cannot even hold its header, or beyond what we
     * announced: BadLength, and the bytes are skipped. */
    if (words < req.body / 4 || words > MAX_BIG_REQUEST_WORDS) {
        req.seq = ++c->seq;
        req.length = req.body;
        mock_send_error(&req, MOCK_BAD_LENGTH, 0);
        mock_record_request(s, &req);
        mock_info(s, "client %d: bad request length %" PRIu32 " words", c->index, words);
        if (words > req.body / 4)
            c->in_skip = (size_t)words * 4 - req.body;
        return req.body;
    }
    if (avail < (size_t)words * 4)
        return 0;
    req.seq = ++c->seq;
    req.length = (size_t)words * 4;
    dispatch(&req);
    /* error:T:CODE on a request without a reply (a reply took its own, and
     * a second fault of the same target is the next request's): the error
     * follows the request's handling, whose effects stay.  A request the
     * handler refused by itself keeps its own error. */
    const struct mock_fault *f = req.replied ? NULL : mock_take_fault(&req, MOCK_FAULT_ERROR);
    if (f && !req.errored) {
        mock_send_error(&req, (uint8_t)f->arg, 0);
        mock_info(s, "fault: error %d for a request without a reply", f->arg);
    }
    /* stall:T:MS on a request without a reply: what the server sends
     * after handling it is held. */
    if (!req.replied && (f = mock_take_fault(&req, MOCK_FAULT_STALL))) {
        c->out_hold_until = (uint64_t)mock_now_us() + (uint64_t)f->arg * 1000u;
        mock_info(s, "fault: stall %d ms after a request without a reply", f->arg);
    }
    mock_record_request(s, &req);
    if (mock_take_fault(&req, MOCK_FAULT_CLOSE_AFTER)) {
        mock_info(s, "fault: closing client %d after request %" PRIu32, c->index, req.seq);
        c->closing = true;
    }
    return req.length;
}

/* Handles every complete request in c->in that may be handled now, and
 * drops the bytes used in one go (not one request at a time, which would
 * move a full buffer of small requests many times over). */
static void process_in(struct mock_client *c)
{
    size_t done = 0;

    for (;;) {
        size_t used;

        if (c->in_skip) {
            used = c->in_skip < c->in_len - done ? c->in_skip : c->in_len - done;
            done += used;
            c->in_skip -= used;
            if (c->in_skip)
                break;
        }
        if (c->closing || c->blocked)
            break;
        if (!c->setup_done) {
            long r = mock_setup_handle(c);

            if (r < 0)
                c->closing = true;
            if (r <= 0)
                break;
            done = (size_t)r;
            c->setup_done = true;
            continue;
        }
        used = handle_request(c, c->in + done, c->in_len - done);
        if (used == 0)
            break;
        done += used;
    }
    consume_in(c, done);
}

/* ---- clients -------------------------------------------------------- */

static void add_client(struct mock_server_state *s, int fd)
{
    int slot;
    struct mock_client *c;

    for (slot = 0; slot < MOCK_MAX_CLIENTS && s->clients[slot]; slot++)
        ;
    c = slot < MOCK_MAX_CLIENTS ? calloc(1, sizeof *c) : NULL;
    if (!c || fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
        mock_info(s, "refusing a client: %s", c ? strerror(errno) : "no room");
        free(c);
        close(fd);
        return;
    }
    c->server = s;
    c->index = ++s->next_client_index;
    c->fd = fd;
    /* The slot, not the index, picks the XID range: XIDs have 29 bits, so
     * ranges of 2^21 only go so far, and only live clients need their own. */
    c->id_base = (uint32_t)(slot + 1) << 21;
    c->id_mask = 0x1fffff;
    s->clients[slot] = c;
    mock_info(s, "client %d connected", c->index);
}

static void remove_client(struct mock_server_state *s, int slot)
{
    struct mock_client *c = s->clients[slot];

    mock_info(s, "client %d gone", c->index);
    if (c->blocked_free)
        c->blocked_free(c->blocked_data);
    mock_resources_free_client(s, c);
    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->client_gone && advertised(s, extensions[i]))
            extensions[i]->client_gone(c);
    close(c->fd);
    mock_close_fds(c->in_fds, c->n_in_fds);
    for (size_t i = 0; i < c->n_markers; i++)
        mock_close_fds(c->markers[i].fds, c->markers[i].nfds);
    free(c->markers);
    free(c->in);
    free(c->out);
    free(c);
    s->clients[slot] = NULL;
}

/* Lets a client on whose fences nobody waits any more go on. */
static void check_blocked(struct mock_client *c)
{
    if (!c->blocked || c->blocked(c, c->blocked_data))
        return;
    if (c->blocked_free)
        c->blocked_free(c->blocked_data);
    c->blocked = NULL;
    c->blocked_data = NULL;
    c->blocked_free = NULL;
    process_in(c);
}

/* ---- signals -------------------------------------------------------- */

/* The self-pipe: the handler only writes a byte, the loop sees it. */
static int signal_pipe_w = -1;

static void on_signal(int sig)
{
    int saved = errno;
    char b = (char)sig;

    if (write(signal_pipe_w, &b, 1) < 0) {
        /* Full pipe: a byte is already waiting, which is enough. */
    }
    errno = saved;
}

/* ---- the loop ------------------------------------------------------- */

static int poll_timeout_ms(struct mock_server_state *s, uint64_t now)
{
    uint64_t next = UINT64_MAX;

    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->next_wakeup && advertised(s, extensions[i])) {
            uint64_t t = extensions[i]->next_wakeup(s);

            if (t < next)
                next = t;
        }
    for (int i = 0; i < MOCK_MAX_CLIENTS; i++) {
        struct mock_client *c = s->clients[i];

        if (!c)
            continue;
        /* Fences may be triggered through shared memory by anyone: look
         * again every millisecond. */
        if (c->blocked && now + 1000 < next)
            next = now + 1000;
        if (c->out_len && c->out_hold_until > now && c->out_hold_until < next)
            next = c->out_hold_until;
        if (c->linger_until && c->linger_until < next)
            next = c->linger_until;
    }
    if (next == UINT64_MAX)
        return -1;
    if (next <= now)
        return 0;
    return (int)((next - now + 999) / 1000 < INT_MAX ? (next - now + 999) / 1000 : INT_MAX);
}

static void run_timers(struct mock_server_state *s)
{
    uint64_t now = (uint64_t)mock_now_us();

    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->wakeup && extensions[i]->next_wakeup && advertised(s, extensions[i])
            && extensions[i]->next_wakeup(s) <= now)
            extensions[i]->wakeup(s);
}

static void accept_clients(struct mock_server_state *s)
{
    int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

    if (fd >= 0)
        add_client(s, fd);
}

static void serve(struct mock_server_state *s, int signal_pipe_r)
{
    struct pollfd pfd[MOCK_MAX_CLIENTS + 2];
    int slot_of[MOCK_MAX_CLIENTS + 2];

    for (;;) {
        uint64_t now = (uint64_t)mock_now_us();
        nfds_t n = 0;

        pfd[n++] = (struct pollfd){ .fd = signal_pipe_r, .events = POLLIN };
        if (s->listen_fd >= 0)
            pfd[n++] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
        for (int i = 0; i < MOCK_MAX_CLIENTS; i++) {
            struct mock_client *c = s->clients[i];
            short ev = 0;

            if (!c)
                continue;
            if (!c->closing || c->linger_until)
                ev |= POLLIN;
            if (c->out_len && c->out_hold_until <= now)
                ev |= POLLOUT;
            slot_of[n] = i;
            pfd[n++] = (struct pollfd){ .fd = c->fd, .events = ev };
        }
        if (poll(pfd, n, poll_timeout_ms(s, now)) < 0 && errno != EINTR)
            return;
        if (pfd[0].revents)
            return;
        run_timers(s);
        if (s->listen_fd >= 0 && (pfd[1].revents & POLLIN))
            accept_clients(s);
        for (nfds_t k = s->listen_fd >= 0 ? 2 : 1; k < n; k++) {
            struct mock_client *c = s->clients[slot_of[k]];

            if (!c)
                continue;
            /* Gone while we were holding its last bytes back: nobody
             * will read them. */
            if ((pfd[k].revents & (POLLHUP | POLLERR)) && c->closing && !c->linger_until) {
                remove_client(s, slot_of[k]);
                continue;
            }
            if ((pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) &&
                (!c->closing || c->linger_until)) {
                if (!read_in(c)) {
                    remove_client(s, slot_of[k]);
                    continue;
                }
                if (c->linger_until) {
                    /* What a closed client still sends is thrown away. */
                    c->in_len = 0;
                    mock_close_fds(c->in_fds, c->n_in_fds);
                    c->n_in_fds = 0;
                }
                process_in(c);
            }
        }
        for (int i = 0; i < MOCK_MAX_CLIENTS; i++) {
            struct mock_client *c = s->clients[i];

            if (!c)
                continue;
            check_blocked(c);
            mock_flush_out(c);
            /* A closing client is shut down for writing once its last
             * bytes are out (a failed write counts as out), and goes
             * when it has closed its end too, or took too long. */
            if (c->closing && c->out_len == 0) {
                if (!c->linger_until) {
                    shutdown(c->fd, SHUT_WR);
                    c->linger_until = (uint64_t)mock_now_us() + LINGER_US;
                } else if ((uint64_t)mock_now_us() >= c->linger_until) {
                    remove_client(s, i);
                }
            }
        }
    }
}

static int open_transcript(struct mock_server_state *s)
{
    if (!s->cfg->transcript_path)
        return 0;
    s->transcript = fopen(s->cfg->transcript_path, "we");
    if (!s->transcript) {
        fprintf(stderr, "mock server: %s: %s\n", s->cfg->transcript_path, strerror(errno));
        return -1;
    }
    return 0;
}

static int make_root(struct mock_server_state *s)
{
    struct mock_drawable *root = mock_drawable_new((uint16_t)s->cfg->screen_width,
                                                   (uint16_t)s->cfg->screen_height, 24);

    if (!root)
        return -1;
    root->is_window = true;
    root->mapped = true;
    root->id = s->root;
    if (mock_resource_add(s, NULL, root->id, MOCK_RES_WINDOW, root, mock_drawable_free)) {
        mock_drawable_free(s, root);
        return -1;
    }
    return 0;
}

int mock_server_run(const struct mock_config *cfg, int listen_fd, int client_fd)
{
    struct mock_server_state s = {
        .cfg = cfg, .listen_fd = listen_fd, .root = 0x100, .root_visual = 0x21,
        .argb_visual = 0x22, .bgr30_visual = 0x23, .atoms_next = 69, .start_us = (uint64_t)mock_now_us(),
    };
    struct sigaction sa = { .sa_handler = on_signal }, old_term, old_int;
    sigset_t sigs, old_mask;
    int pipe_fds[2];
    int rc = -1;

    if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) < 0)
        return -1;
    signal_pipe_w = pipe_fds[1];
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGINT, &sa, &old_int);
    /* mock_server_start forks with them blocked, so that a stop that
     * comes early is not lost; from here on they are handled. */
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGINT);
    sigprocmask(SIG_UNBLOCK, &sigs, &old_mask);

    if (open_transcript(&s) == 0 && make_root(&s) == 0) {
        if (client_fd >= 0)
            add_client(&s, client_fd);
        client_fd = -1;
        serve(&s, pipe_fds[0]);
        rc = 0;
    }

    for (int i = 0; i < MOCK_MAX_CLIENTS; i++)
        if (s.clients[i])
            remove_client(&s, i);
    mock_resources_free_all(&s);
    for (size_t i = 0; i < N_EXTENSIONS; i++)
        if (extensions[i]->server_gone && advertised(&s, extensions[i]))
            extensions[i]->server_gone(&s);
    for (size_t i = 0; i < s.n_atoms; i++)
        free(s.atom_names[i]);
    free(s.atom_names);
    if (s.transcript)
        fclose(s.transcript);
    if (client_fd >= 0)
        close(client_fd);

    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGINT, &old_int, NULL);
    signal_pipe_w = -1;
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return rc;
}
