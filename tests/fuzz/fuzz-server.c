/*
 * The scripted server's thread: reads requests (with the fds they carry),
 * hands each to fsrv_answer(), sends packets with fds of fuzzed kinds, and
 * models libxcb's queue of received fds so that an fd left open after an
 * input can be blamed on the library or on libxcb (fuzz-server.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fuzz-server-int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define IO_TIMEOUT_MS 2000

/* The fd model outlives the server: the check runs after the thread ends.
 * One input at a time, so plain statics. */
static struct fsrv_sent sent[FSRV_MAX_SENT];
static unsigned n_sent;
/* Replies libxcb handed to the library, by the low 16 bits of their
 * sequence numbers (no input makes 65536 requests). */
static uint8_t fetched[65536 / 8];

void fuzz_server_mark_fetched(uint64_t sequence)
{
    fetched[(sequence & 0xffff) / 8] |= (uint8_t)(1u << (sequence & 7));
}

static bool was_fetched(uint64_t sequence)
{
    return fetched[(sequence & 0xffff) / 8] & (1u << (sequence & 7));
}

bool fuzz_server_fd_was_sent(dev_t dev, ino_t ino)
{
    for (unsigned i = 0; i < n_sent; i++)
        if (sent[i].dev == dev && sent[i].ino == ino)
            return true;
    return false;
}

bool fuzz_server_fd_is_clients(dev_t dev, ino_t ino)
{
    bool any = false;

    /* A directory or /dev/null is one inode however often it is sent:
     * the library is blamed only when every copy was its own. */
    for (unsigned i = 0; i < n_sent; i++) {
        if (sent[i].dev != dev || sent[i].ino != ino)
            continue;
        if (!sent[i].attached || !sent[i].first || !was_fetched(sent[i].seq))
            return false;
        any = true;
    }
    return any;
}

/* ---------------------------------------------------------------- script */

uint8_t fsrv_byte(struct fuzz_server *s)
{
    return s->pos < s->len ? s->script[s->pos++] : 0;
}

uint64_t fsrv_pick(struct fuzz_server *s, uint64_t good, unsigned bits)
{
    uint8_t b = fsrv_byte(s);
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1, v = 0;

    /* Most bytes keep the good value, so that a mutation of one byte
     * changes one field. */
    if (b < 0xc0)
        return good & mask;
    switch (b & 7) {
    case 0: v = 0; break;
    case 1: v = 1; break;
    case 2: v = good + 1; break;
    case 3: v = good - 1; break;
    case 4: v = ~0ull; break;
    case 5: v = mask >> 1; break;           /* the largest signed value */
    case 6: v = 0xffff; break;
    default:
        for (unsigned i = 0; i < (bits + 7) / 8; i++)
            v |= (uint64_t)fsrv_byte(s) << (8 * i);
        break;
    }
    return v & mask;
}

/* ------------------------------------------------------------------- fds */

static int memfd_sized(uint64_t size)
{
    int fd = memfd_create("fuzz-server", MFD_CLOEXEC);

    if (fd >= 0 && size > 0 && ftruncate(fd, (off_t)size) < 0) {
        close(fd);
        fd = memfd_create("fuzz-server", MFD_CLOEXEC);
    }
    return fd;
}

/* One fd of a kind the script picks; the caller closes its copy once it
 * is sent. */
static int make_fd(struct fuzz_server *s, uint64_t good_size)
{
    static const uint64_t sizes[] = { 1, 3, 4, 4095, 4096, 4097, 1 << 20,
                                      (uint64_t)1 << 40 };
    uint8_t kind = fsrv_byte(s) % 9;
    int pair[2], fd;

    switch (kind) {
    case 0:
        return memfd_sized(good_size);
    case 1:
        return memfd_sized(0);
    case 2:
        return memfd_sized(sizes[fsrv_byte(s) % 8]);
    case 3:
        fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        return fd >= 0 ? fd : memfd_sized(0);
    case 4:
    case 5:
        if (pipe2(pair, O_CLOEXEC) < 0)
            return -1;
        close(pair[kind == 4 ? 1 : 0]);
        return pair[kind == 4 ? 0 : 1];
    case 6:
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0)
            return -1;
        close(pair[1]);
        return pair[0];
    case 7:
        return open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    default:
        return open("/dev/null", O_RDWR | O_CLOEXEC);
    }
}

static bool write_all(struct fuzz_server *s, const uint8_t *p, size_t len, const int *fds,
                      unsigned nfds)
{
    union fuzz_fd_control control;

    while (len > 0) {
        struct iovec iov = { (void *)p, len };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
        ssize_t n;

        if (nfds > 0)
            fuzz_attach_fds(&msg, &control, fds, nfds);
        if (!fuzz_io_ready(s->fd, POLLOUT, IO_TIMEOUT_MS))
            return false;
        n = sendmsg(s->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return false;
        nfds = 0;           /* they went with the first byte */
        p += n;
        len -= (size_t)n;
    }
    return true;
}

void fsrv_hang_up(struct fuzz_server *s)
{
    if (!s->gone)
        shutdown(s->fd, SHUT_RDWR);
    s->gone = true;
}

/* What libxcb does with the queued fds when it reads this packet. */
static void model_packet(struct fuzz_server *s, const uint8_t *p, size_t len, bool fd_reply)
{
    bool for_this = len >= 4 && fsrv_get16(p + 2) == (uint16_t)s->seq;

    if (!s->model_ok || len < 32)
        return;
    if (p[0] == 1 && fd_reply && for_this && !s->errored) {
        unsigned queued = s->q_tail - s->q_head;

        if (p[1] > queued) {
            /* libxcb waits for the fds the reply claims: a reply owed, as
             * far as the client can tell */
            s->model_ok = false;
            s->confused = true;
            return;
        }
        for (unsigned i = 0; i < p[1]; i++) {
            struct fsrv_sent *e = &sent[s->queue[s->q_head++ % FSRV_MAX_SENT]];

            e->attached = true;
            e->first = !s->replied;
            e->seq = s->seq;
        }
    }
    if (p[0] == 1 && for_this)
        s->replied = true;
    if (p[0] == 0 && for_this)
        s->errored = true;
}

bool fsrv_send(struct fuzz_server *s, const uint8_t *p, size_t len, unsigned nfds,
               uint64_t good_size, bool fd_reply)
{
    int fds[8];
    unsigned made = 0;
    bool ok;

    if (s->gone)
        return false;
    if (nfds > 5)
        nfds = 5;
    for (unsigned i = 0; i < nfds; i++) {
        struct stat st;
        int fd = make_fd(s, good_size);

        if (fd < 0)
            continue;
        if (fstat(fd, &st) < 0 || n_sent >= FSRV_MAX_SENT) {
            close(fd);
            continue;
        }
        sent[n_sent] = (struct fsrv_sent){ .dev = st.st_dev, .ino = st.st_ino };
        if (s->model_ok)
            s->queue[s->q_tail++ % FSRV_MAX_SENT] = n_sent;
        n_sent++;
        fds[made++] = fd;
    }
    if (len < 32)
        s->model_ok = false;        /* a packet cut short: libxcb fails */
    ok = write_all(s, p, len, fds, made);
    for (unsigned i = 0; i < made; i++)
        close(fds[i]);
    if (!ok) {
        s->model_ok = false;
        fsrv_hang_up(s);
        return false;
    }
    model_packet(s, p, len, fd_reply);
    return true;
}

int fsrv_take_rx(struct fuzz_server *s)
{
    int fd;

    if (s->n_rx == 0)
        return -1;
    fd = s->rx[0];
    memmove(s->rx, s->rx + 1, (s->n_rx - 1) * sizeof(int));
    s->n_rx--;
    return fd;
}

/* ---------------------------------------------------------------- reading */

static void keep_rx(struct fuzz_server *s, struct msghdr *msg)
{
    for (struct cmsghdr *cm = CMSG_FIRSTHDR(msg); cm; cm = CMSG_NXTHDR(msg, cm)) {
        size_t n;

        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
            continue;
        n = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; i++) {
            int fd;

            memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof(int));
            if (s->n_rx < FSRV_MAX_RX)
                s->rx[s->n_rx++] = fd;
            else
                close(fd);
        }
    }
}

/* Reads exactly len bytes (into buf, or nowhere when buf is NULL). The
 * first wait of a request is the watchdog's: a client that stays quiet
 * that long is stuck in a wait that should have ended. */
static bool read_exact(struct fuzz_server *s, uint8_t *buf, size_t len, bool first)
{
    uint8_t sink[4096];

    while (len > 0) {
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int) * 16)];
        } control;
        struct iovec iov = { buf ? buf : sink, buf || len < sizeof(sink) ? len : sizeof(sink) };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf,
                              .msg_controllen = sizeof(control.buf) };
        ssize_t n;

        if (!fuzz_io_ready(s->fd, POLLIN, first ? FUZZ_WATCHDOG_MS : IO_TIMEOUT_MS)) {
            if (first) {
                s->report.watchdog = true;
                s->report.watchdog_outstanding = s->outstanding || s->confused;
                /* Where is it stuck? (fuzz-util-run.c prints its stack) */
                if (getenv("FUZZ_DEBUG"))
                    pthread_kill(s->client, SIGUSR2);
            }
            return false;
        }
        n = recvmsg(s->fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            return false;
        keep_rx(s, &msg);
        if (buf)
            buf += n;
        len -= (size_t)n;
        first = false;
    }
    return true;
}

/* One request, whole (its first FSRV_MAX_PACKET bytes; the rest is read
 * and dropped). Returns its length, 0 when the connection ends. */
static size_t read_request(struct fuzz_server *s, uint8_t *buf)
{
    size_t len, keep;

    if (!read_exact(s, buf, 4, true))
        return 0;
    len = (size_t)fsrv_get16(buf + 2) * 4;
    if (len == 0 && s->bigreq) {
        if (!read_exact(s, buf + 4, 4, false))
            return 0;
        len = (size_t)fsrv_get32(buf + 4) * 4;
        if (len < 8)
            return 0;
        /* Drop the extra length word, as a server does. */
        keep = len - 8 < FSRV_MAX_PACKET - 4 ? len - 8 : FSRV_MAX_PACKET - 4;
        if (!read_exact(s, buf + 4, keep, false) || !read_exact(s, NULL, len - 8 - keep, false))
            return 0;
        fsrv_put16(buf + 2, 0);
        return keep + 4;
    }
    if (len < 4)
        return 0;
    keep = len < FSRV_MAX_PACKET ? len : FSRV_MAX_PACKET;
    if (!read_exact(s, buf + 4, keep - 4, false) || !read_exact(s, NULL, len - keep, false))
        return 0;
    return keep;
}

static void *serve(void *arg)
{
    struct fuzz_server *s = arg;
    uint8_t *buf = malloc(FSRV_MAX_PACKET);

    if (buf == NULL)
        abort();
    /* Sequence 1 and 2 are fuzz_conn_open()'s QueryExtensions, answered
     * before they were asked. */
    for (s->seq = 0; s->seq < 2; s->seq++)
        if (read_request(s, buf) == 0)
            goto out;
    for (;;) {
        size_t len = read_request(s, buf);

        if (len == 0)
            break;
        s->seq++;
        s->replied = s->errored = s->outstanding = false;
        s->report.requests++;
        fsrv_answer(s, buf, len);
        if (s->gone)
            break;
    }
out:
    fsrv_hang_up(s);
    free(buf);
    return NULL;
}

struct fuzz_server *fuzz_server_start(struct fuzz_conn *fc, const uint8_t *script, size_t n,
                                      bool allow_drop)
{
    struct fuzz_server *s = calloc(1, sizeof(*s));
    struct timespec now;

    if (s == NULL)
        abort();
    s->fd = fc->server;
    s->client = pthread_self();
    s->script = script;
    s->len = n;
    s->allow_drop = allow_drop;
    s->model_ok = true;
    s->window = FUZZ_WINDOW;
    s->msc = 1000;
    /* UST is the server's CLOCK_MONOTONIC in microseconds, which a local
     * client compares with its own clock. */
    clock_gettime(CLOCK_MONOTONIC, &now);
    s->ust = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
    s->win_w = 64;
    s->win_h = 48;
    n_sent = 0;
    memset(fetched, 0, sizeof(fetched));
    if (pthread_create(&s->thread, NULL, serve, s) != 0)
        fuzz_finding("harness: pthread_create failed");
    return s;
}

void fuzz_server_stop(struct fuzz_server *s, struct fuzz_server_report *report)
{
    pthread_join(s->thread, NULL);
    for (int fd; (fd = fsrv_take_rx(s)) >= 0;)
        close(fd);
    fsrv_fences_free(s);
    *report = s->report;
    free(s);
}
