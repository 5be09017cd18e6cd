/*
 * The scripted server's loop, run from the client's waits (fuzz-vtime.h):
 * reads requests (with the fds they carry) as far as they have come,
 * hands each to fsrv_answer(), sends packets with fds of fuzzed kinds
 * (queued while the socket is full, so that the server never blocks the
 * thread it shares with the client), and models libxcb's queue of
 * received fds so that an fd left open after an input can be blamed on the
 * library or on libxcb (fuzz-server.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fuzz-server-int.h"
#include "fuzz-vtime.h"
#include "mock-inproc.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* How long the server waits for the rest of a request cut short, and for
 * the connection setup. */
#define IO_TIMEOUT_MS 2000

/* The server of the input being run. */
static struct fuzz_server *active;

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

/* ------------------------------------------------------ the socket, counted */

bool fuzz_server_verify(void)
{
#ifdef FUZZ_VT_VERIFY
    return true;
#else
    static int on = -1;

    if (on < 0) {
        const char *v = getenv("FUZZ_VT_VERIFY");

        on = v && *v && strcmp(v, "0") != 0;
    }
    return on;
#endif
}

/* The counts and the kernel disagree: a harness bug (a call on the
 * client's end that the harness does not see), which verify mode
 * reports; otherwise the kernel answers from now on. */
static void count_wrong(struct fuzz_server *s, const char *what)
{
    if (fuzz_server_verify())
        fuzz_finding("harness: the socket's counts are wrong: %s (%zu bytes for the client, "
                     "%zu for the server)", what, s->to_client, s->to_server);
    s->uncounted = true;
}

static void uncount(struct fuzz_server *s)
{
    s->uncounted = true;
}

void fuzz_server_client_wrote(ssize_t n)
{
    struct fuzz_server *s = active;

    if (s == NULL)
        return;
    s->client_wrote = true;
    if (n > 0)
        s->to_server += (size_t)n;
}

void fuzz_server_client_read(ssize_t n, int err)
{
    struct fuzz_server *s = active;

    if (s == NULL || s->uncounted)
        return;
    if (n > 0 && (size_t)n <= s->to_client)
        s->to_client -= (size_t)n;
    else if (n > 0)
        count_wrong(s, "the client read more than was sent");
    else if (n < 0 && err == EAGAIN && s->to_client > 0)
        count_wrong(s, "the client found nothing to read");
}

void fuzz_server_client_shut(void)
{
    if (active) {
        active->client_wrote = true;
        uncount(active);
    }
}

int fuzz_server_client_revents(short events)
{
    const struct fuzz_server *s = active;
    int r = 0;

    if (s == NULL || s->uncounted || s->shut ||
        (events & ~(POLLIN | POLLOUT | POLLRDHUP)) != 0)
        return -1;
    /* A write has room for certain only while the server has read all. */
    if ((events & POLLOUT) && s->to_server > 0)
        return -1;
    if ((events & POLLIN) && s->to_client > 0)
        r |= POLLIN;
    if (events & POLLOUT)
        r |= POLLOUT;
    return r;
}

bool fuzz_server_client_read_empty(int flags)
{
    struct fuzz_server *s = active;

    if (s == NULL || s->uncounted || s->shut || s->to_client > 0 || (flags & MSG_PEEK))
        return false;
    /* libxcb sets O_NONBLOCK before its first read; one look suffices. */
    if (!s->nonblocking && !(flags & MSG_DONTWAIT)) {
        int fl = fcntl(s->client_fd, F_GETFL);

        s->nonblocking = fl >= 0 && (fl & O_NONBLOCK);
        if (!s->nonblocking)
            return false;
    }
    return true;
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
        /* An empty regular file, not a memfd: on a tmpfs where there is
         * one. ext4 (/tmp here) searches longer for a free inode the more
         * it has deleted of late, and this was a few per cent of the
         * swapchain target's time; the library sees a regular file of 0
         * bytes either way. */
        fd = open("/dev/shm", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0)
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

struct fsrv_pkt {
    struct fsrv_pkt *next;
    size_t len, off;
    unsigned nfds;
    int fds[8];
    uint8_t b[];
};

static void pkt_free(struct fsrv_pkt *p)
{
    for (unsigned i = 0; i < p->nfds; i++)
        close(p->fds[i]);
    free(p);
}

static void drop_out(struct fuzz_server *s)
{
    while (s->out_head) {
        struct fsrv_pkt *p = s->out_head;

        s->out_head = p->next;
        pkt_free(p);
    }
    s->out_tail = &s->out_head;
}

/* The most packets one write takes. */
#define FSRV_RUN 32

/* Writes what the socket takes; once the server has hung up and all is
 * written, shuts the socket down. A packet with fds is written alone, as
 * the fds go with its first byte; those without, as many as follow each
 * other, in one write: the client reads the same either way (a read goes
 * on across writes without fds, and ends after one that has them). */
static void flush_out(struct fuzz_server *s)
{
    while (s->out_head && !s->shut) {
        struct fsrv_pkt *p = s->out_head;
        union fuzz_fd_control control;
        struct iovec iov[FSRV_RUN];
        struct msghdr msg = { .msg_iov = iov };
        size_t k = 0;
        ssize_t n;

        for (struct fsrv_pkt *q = p; q && k < FSRV_RUN && (k == 0 || q->nfds == 0);
             q = q->next) {
            iov[k].iov_base = q->b + q->off;
            iov[k].iov_len = q->len - q->off;
            k++;
            if (q->nfds > 0)
                break;
        }
        msg.msg_iovlen = k;
        if (p->nfds > 0)
            fuzz_attach_fds(&msg, &control, p->fds, p->nfds);
        n = sendmsg(s->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;             /* when the client has read some */
        if (n <= 0) {
            /* The client is gone: what was not written never will be. */
            s->model_ok = false;
            s->gone = true;
            uncount(s);
            drop_out(s);
            break;
        }
        s->to_client += (size_t)n;
        s->acts++;
        for (unsigned i = 0; i < p->nfds; i++)
            close(p->fds[i]);   /* they went with the first byte */
        p->nfds = 0;
        while (n > 0) {
            size_t left = p->len - p->off, k2 = (size_t)n < left ? (size_t)n : left;

            p->off += k2;
            n -= (ssize_t)k2;
            if (p->off < p->len)
                break;
            s->out_head = p->next;
            if (s->out_head == NULL)
                s->out_tail = &s->out_head;
            free(p);
            p = s->out_head;
        }
    }
    if (s->gone && !s->shut && s->out_head == NULL) {
        shutdown(s->fd, SHUT_RDWR);
        s->shut = true;
        s->acts++;
        uncount(s);
    }
}

/* Queues a packet (taking the fds). While the client's end is open (and
 * counted) a write cannot fail, and what an answer sends is written at the
 * end of pump(), together; otherwise at once, so that the server learns
 * when the client is gone where it did before. */
static void enqueue(struct fuzz_server *s, const uint8_t *b, size_t len, const int *fds,
                    unsigned nfds)
{
    struct fsrv_pkt *p;

    if (len == 0 || s->shut) {
        for (unsigned i = 0; i < nfds; i++)
            close(fds[i]);
        return;
    }
    p = malloc(sizeof(*p) + len);
    if (p == NULL)
        abort();
    p->next = NULL;
    p->len = len;
    p->off = 0;
    p->nfds = nfds;
    if (nfds > 0)
        memcpy(p->fds, fds, nfds * sizeof(int));
    memcpy(p->b, b, len);
    *s->out_tail = p;
    s->out_tail = &p->next;
    if (s->uncounted || !s->in_pump)
        flush_out(s);
}

void fsrv_hang_up(struct fuzz_server *s)
{
    s->gone = true;
    flush_out(s);
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
    enqueue(s, p, len, fds, made);
    if (s->gone && s->shut)
        return false;
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


/* A QueryExtension reply of fuzz_conn_open()'s, for sequence 1 (DRI3) and
 * 2 (Present): the harness's own, outside the script and the fd model. */
static void setup_reply(struct fuzz_server *s)
{
    uint8_t b[MOCK_INPROC_SETUP_MAX];
    size_t n;

    if (s->stage == FSRV_SETUP) {
        n = mock_inproc_setup_reply(b);
    } else {
        memset(b, 0, 32);
        b[0] = 1;
        fsrv_put16(b + 2, (uint16_t)s->seq);
        b[8] = 1;
        b[9] = s->seq == 1 ? FUZZ_DRI3_MAJOR : FUZZ_PRESENT_MAJOR;
        n = 32;
    }
    enqueue(s, b, n, NULL, 0);
}

/* A whole request has come (its first FSRV_MAX_PACKET bytes). */
static void request_done(struct fuzz_server *s)
{
    s->req_len = s->want;
    s->stage = FSRV_HEAD;
    s->got = 0;
    s->want = 4;
    s->seq++;
    if (s->setup_replies < 2) {
        s->setup_replies++;
        setup_reply(s);
    } else {
        s->replied = s->errored = s->outstanding = false;
        s->report.requests++;
        fsrv_answer(s, s->req, s->req_len);
    }
    s->waiting_since = s->now;
}

/* What the next bytes are for, once those asked for have come. Returns
 * false where the stream cannot be a request (the server hangs up, as it
 * does at end-of-file). */
static bool next_stage(struct fuzz_server *s)
{
    size_t len, keep;

    switch (s->stage) {
    case FSRV_SETUP:
        /* No authorization: the 12 bytes are all. */
        setup_reply(s);
        s->stage = FSRV_HEAD;
        s->got = 0;
        s->want = 4;
        return true;
    case FSRV_HEAD:
        len = (size_t)fsrv_get16(s->req + 2) * 4;
        if (len == 0 && s->bigreq) {
            s->stage = FSRV_BIGLEN;
            s->want = 8;
            return true;
        }
        if (len < 4)
            return false;
        keep = len < FSRV_MAX_PACKET ? len : FSRV_MAX_PACKET;
        s->want = keep;
        s->drop = len - keep;
        s->stage = FSRV_BODY;
        return true;
    case FSRV_BIGLEN:
        len = (size_t)fsrv_get32(s->req + 4) * 4;
        if (len < 8)
            return false;
        /* Drop the extra length word, as a server does. */
        keep = len - 8 < FSRV_MAX_PACKET - 4 ? len - 8 : FSRV_MAX_PACKET - 4;
        fsrv_put16(s->req + 2, 0);
        s->got = 4;
        s->want = 4 + keep;
        s->drop = len - 8 - keep;
        s->stage = FSRV_BODY;
        return true;
    case FSRV_BODY:
        if (s->drop > 0)
            s->stage = FSRV_DROP;
        else
            request_done(s);
        return true;
    case FSRV_DROP:
    default:
        request_done(s);
        return true;
    }
}

/* Takes in what the client has sent, and answers each request whole,
 * until nothing more has come, a stall holds the answer back, or the
 * server has hung up. */
static void read_requests(struct fuzz_server *s)
{
    while (!s->gone && !s->stalled) {
        size_t avail = s->in_hi - s->in_lo, k;

        if (s->stage == FSRV_DROP ? s->drop == 0 : s->got == s->want) {
            if (!next_stage(s))
                fsrv_hang_up(s);
            continue;
        }
        if (avail == 0 && (s->uncounted ? !s->client_wrote : s->to_server == 0)) {
            /* nothing can have come */
            if (!s->uncounted && fuzz_server_verify()) {
                char c;

                if (recv(s->fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) >= 0 || errno != EAGAIN)
                    count_wrong(s, "the server's end is not empty");
            }
            return;
        }
        if (avail == 0) {
            union {
                struct cmsghdr align;
                char buf[CMSG_SPACE(sizeof(int) * 32)];
            } control;
            struct iovec iov = { s->in, sizeof(s->in) };
            struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                                  .msg_control = control.buf,
                                  .msg_controllen = sizeof(control.buf) };
            ssize_t n = recvmsg(s->fd, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);

            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && errno == EAGAIN) {
                s->client_wrote = false;
                if (!s->uncounted && s->to_server > 0)
                    count_wrong(s, "the server found nothing to read");
                return;
            }
            if (n > 0) {
                keep_rx(s, &msg);
                s->acts++;
            }
            if (n > 0 && !s->uncounted) {
                if ((size_t)n > s->to_server)
                    count_wrong(s, "the server read more than the client wrote");
                else
                    s->to_server -= (size_t)n;
            }
            if (n <= 0) {
                fsrv_hang_up(s);    /* the client is gone */
                return;
            }
            s->in_lo = 0;
            s->in_hi = (size_t)n;
            s->waiting_since = s->now;
            continue;
        }
        if (s->stage == FSRV_DROP) {
            k = avail < s->drop ? avail : s->drop;
            s->drop -= k;
        } else {
            k = avail < s->want - s->got ? avail : s->want - s->got;
            memcpy(s->req + s->got, s->in + s->in_lo, k);
            s->got += k;
        }
        s->in_lo += k;
    }
}

/* When the server gives up waiting for the client: the watchdog's 1.5 s
 * for a request to begin, 2 s for one cut short or for the setup. */
static int64_t give_up_at(const struct fuzz_server *s)
{
    bool between = s->stage == FSRV_HEAD && s->got == 0 && s->in_lo == s->in_hi;

    return s->waiting_since + (between ? FUZZ_WATCHDOG_MS : IO_TIMEOUT_MS) * 1000000ll;
}

static void pump(struct fuzz_server *s)
{
    s->in_pump = true;
    /* One reading of the clock for the turn: the server's work takes a
     * moment, and the clock was read a few times for each turn (a few
     * per cent of the time, with the vDSO of this VM). */
    s->now = fuzz_vt_now();
    flush_out(s);
    for (;;) {
        if (s->stalled && s->now >= s->due) {
            fsrv_answer_resume(s);
            s->waiting_since = s->now;
        }
        read_requests(s);
        if (s->stalled && s->now >= s->due)
            continue;
        break;
    }
    if (!s->gone && !s->stalled && s->now >= give_up_at(s)) {
        if (s->stage == FSRV_HEAD && s->got == 0) {
            /* A client that stays quiet that long is stuck in a wait that
             * should have ended. */
            s->report.watchdog = true;
            s->report.watchdog_outstanding = s->outstanding || s->confused;
            /* Where is it stuck? (fuzz-util-run.c prints its stack) */
            if (getenv("FUZZ_DEBUG"))
                pthread_kill(s->client, SIGUSR2);
        }
        fsrv_hang_up(s);
    }
    flush_out(s);
    s->in_pump = false;
}

bool fuzz_server_here(void)
{
    return active && !active->in_pump && pthread_equal(pthread_self(), active->client);
}

int fuzz_server_client_fd(void)
{
    return active ? active->client_fd : -1;
}

void fuzz_server_pump(void)
{
    if (active)
        pump(active);
}

uint64_t fuzz_server_acts(void)
{
    return active ? active->acts : 0;
}

int64_t fuzz_server_next_ns(void)
{
    if (active == NULL || active->gone)
        return -1;
    return active->stalled ? active->due : give_up_at(active);
}

struct fuzz_server *fuzz_server_start(int fd, int client_fd, const uint8_t *script, size_t n,
                                      bool allow_drop)
{
    /* One at a time, and big (its buffers): kept from input to input. */
    static struct fuzz_server *s;
    static uint8_t *req;

    if (s == NULL)
        s = malloc(sizeof(*s));
    if (req == NULL)
        req = malloc(FSRV_MAX_PACKET);
    if (s == NULL || req == NULL)
        abort();
    memset(s, 0, offsetof(struct fuzz_server, in));
    memset(&s->in_lo, 0, sizeof(*s) - offsetof(struct fuzz_server, in_lo));
    s->fd = fd;
    s->client_fd = client_fd;
    s->client = pthread_self();
    s->script = script;
    s->len = n;
    s->allow_drop = allow_drop;
    s->model_ok = true;
    s->req = req;
    s->stage = FSRV_SETUP;
    s->want = 12;
    s->out_tail = &s->out_head;
    s->window = FUZZ_WINDOW;
    s->msc = 1000;
    /* UST is the server's CLOCK_MONOTONIC in microseconds, which a local
     * client compares with its own clock. */
    s->ust = (uint64_t)fuzz_vt_now() / 1000;
    s->win_w = 64;
    s->win_h = 48;
    s->waiting_since = s->now = fuzz_vt_now();
    n_sent = 0;
    memset(fetched, 0, sizeof(fetched));
    active = s;
    return s;
}

void fuzz_server_stop(struct fuzz_server *s, struct fuzz_server_report *report)
{
    /* The client has disconnected: what it sent before is answered (into
     * a closed socket), as a server would read it, up to end-of-file. */
    s->in_pump = true;
    s->now = fuzz_vt_now();
    s->client_wrote = true;     /* and closed its end */
    uncount(s);
    while (!s->gone) {
        if (s->stalled)
            fsrv_answer_resume(s);
        read_requests(s);
        if (!s->gone && !s->stalled && s->in_lo == s->in_hi)
            fsrv_hang_up(s);    /* nothing more, and no end-of-file */
    }
    drop_out(s);
    if (!s->shut)
        shutdown(s->fd, SHUT_RDWR);
    active = NULL;
    for (int fd; (fd = fsrv_take_rx(s)) >= 0;)
        close(fd);
    fsrv_fences_free(s);
    *report = s->report;
}
