#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "fuzz-conn.h"
#include "mock-inproc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every write of the scripted server is bounded (mock_inproc_write(): two
 * seconds): a harness that hangs hides findings, and libFuzzer's own
 * timeout would blame the input. */
/* Less than a socket buffer holds, so that the whole stream is written
 * before the client reads any of it. */
#define FUZZ_MAX_STREAM (128 * 1024)

void fuzz_finding(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    fputs("FUZZ FINDING: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static volatile uint8_t touch_sink;
void *fuzz_keep_reachable;

void fuzz_touch(const void *p, size_t n)
{
    const volatile uint8_t *b = p;
    uint8_t sum = 0;

    for (size_t i = 0; i < n; i++)
        sum = (uint8_t)(sum + b[i]);
    touch_sink = (uint8_t)(touch_sink ^ sum);
}

/* ------------------------------------------------------------ handshake */

bool fuzz_strict_leaks(void)
{
    const char *s = getenv("FUZZ_STRICT_LEAKS");

    return s != NULL && s[0] == '1';
}

bool fuzz_io_ready(int fd, short events, int timeout_ms)
{
    struct pollfd p = { .fd = fd, .events = events };
    int n;

    do
        n = poll(&p, 1, timeout_ms);
    while (n < 0 && errno == EINTR);
    return n > 0;
}

void fuzz_attach_fds(struct msghdr *msg, union fuzz_fd_control *control, const int *fds,
                     unsigned int nfds)
{
    struct cmsghdr *cm;

    memset(control, 0, sizeof(*control));
    msg->msg_control = control->buf;
    msg->msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
    cm = CMSG_FIRSTHDR(msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
    memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
}

bool fuzz_conn_open(struct fuzz_conn *fc)
{
    const char *error;

    fc->c = mock_inproc_connect(&fc->server, NULL, &error);
    if (!fc->c)
        return false;
    if (mock_inproc_know_extensions(fc->c, fc->server, FUZZ_DRI3_MAJOR,
                                    FUZZ_PRESENT_MAJOR) < 0) {
        fuzz_conn_close(fc);
        return false;
    }
    return true;
}

void fuzz_conn_close(struct fuzz_conn *fc)
{
    xcb_disconnect(fc->c);
    close(fc->server);
    fc->c = NULL;
    fc->server = -1;
}

/* --------------------------------------------------------------- stream */

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void fuzz_stream_build(struct fuzz_stream *s, const uint8_t *in, size_t n, uint16_t seq,
                       bool patch_seq, bool truncate, fuzz_patch_fn patch, void *data)
{
    size_t cap = 256, pos = 0;

    memset(s, 0, sizeof(*s));
    s->bytes = calloc(1, cap);
    if (s->bytes == NULL)
        abort();
    while (pos < n) {
        uint8_t head[32] = { 0 };
        size_t take = n - pos < 32 ? n - pos : 32;
        size_t body = 0, size;

        memcpy(head, in + pos, take);
        pos += take;
        if (take < 32 && truncate) {
            /* A packet cut short: the bytes there are, then end-of-file. */
            size = take;
        } else {
            if (head[0] == 1 || (head[0] & 0x7f) == 35) {
                head[5] &= 0x3f;
                head[6] = head[7] = 0;
                body = (size_t)get32(head + 4) * 4;
            }
            size = 32 + body;
        }
        if (s->len + size > FUZZ_MAX_STREAM)
            break;
        if (patch_seq && size >= 4 && (head[0] & 0x7f) != 11 /* KeymapNotify */) {
            head[2] = (uint8_t)seq;
            head[3] = (uint8_t)(seq >> 8);
        }
        if (head[0] <= 1 && size >= 4 && (head[2] | head[3] << 8) == seq)
            s->with_seq++;
        while (s->len + size > cap) {
            cap *= 2;
            s->bytes = realloc(s->bytes, cap);
            if (s->bytes == NULL)
                abort();
        }
        memcpy(s->bytes + s->len, head, size < 32 ? size : 32);
        if (body > 0) {
            size_t avail = n - pos < body ? n - pos : body;

            memcpy(s->bytes + s->len + 32, in + pos, avail);
            memset(s->bytes + s->len + 32 + avail, 0, body - avail);
            pos += avail;
            if (avail < body && truncate)
                size = 32 + avail;
        }
        if (patch != NULL && size >= 32)
            patch(s->bytes + s->len, size, data);
        s->len += size;
        s->packets++;
    }
}

unsigned int fuzz_stream_claimed_fds(const struct fuzz_stream *s, uint64_t last_read,
                                     uint64_t seq, unsigned int nfds)
{
    size_t pos = 0;

    while (s->len - pos >= 32) {
        const uint8_t *p = s->bytes + pos;
        size_t size = 32;
        uint64_t read;

        if (p[0] == 1 || (p[0] & 0x7f) == 35)
            size += (size_t)get32(p + 4) * 4;
        if (s->len - pos < size)
            return 0;           /* cut short: libxcb never reads it whole */
        pos += size;
        if ((p[0] & 0x7f) == 11)
            continue;           /* KeymapNotify has no sequence number */
        read = (last_read & ~(uint64_t)0xffff) | (uint64_t)(p[2] | p[3] << 8);
        if (read < last_read)
            read += 0x10000;
        last_read = read;
        if (read > seq)
            return 0;
        if (read == seq && p[0] == 0)
            return 0;
        if (read == seq && p[0] == 1)
            return p[1] <= nfds ? p[1] : 0;
    }
    return 0;
}

void fuzz_stream_free(struct fuzz_stream *s)
{
    free(s->bytes);
    s->bytes = NULL;
}

void fuzz_conn_send(struct fuzz_conn *fc, const struct fuzz_stream *s, unsigned int nfds,
                    bool eof)
{
    int fds[FUZZ_MAX_FDS];
    union fuzz_fd_control control;
    uint8_t nul = 0;
    const uint8_t *p = s->len > 0 ? s->bytes : &nul;
    size_t len = s->len > 0 ? s->len : 1;

    if (nfds > FUZZ_MAX_FDS)
        nfds = FUZZ_MAX_FDS;
    fc->nfds = nfds;
    for (unsigned int i = 0; i < nfds; i++) {
        struct stat st;

        fds[i] = memfd_create("fuzz-fd", MFD_CLOEXEC);
        if (fds[i] < 0 || fstat(fds[i], &st) < 0)
            fuzz_finding("harness: memfd_create: %s", strerror(errno));
        fc->ino[i] = (uint64_t)st.st_ino;
    }
    /* fds need a byte to travel with; an empty stream with fds sends one
     * zero byte, which libxcb sees as the start of a packet cut short. */
    if (nfds > 0 || s->len > 0) {
        struct iovec iov = { (void *)p, len };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
        ssize_t n;

        if (nfds > 0)
            fuzz_attach_fds(&msg, &control, fds, nfds);
        do
            n = sendmsg(fc->server, &msg, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n > 0 && (size_t)n < len)
            mock_inproc_write(fc->server, p + n, len - (size_t)n);
    }
    for (unsigned int i = 0; i < nfds; i++)
        close(fds[i]);
    if (eof)
        shutdown(fc->server, SHUT_WR);
}

/* ------------------------------------------------------------------ fds */

/* Calls f for each open fd but the directory's own. The entries are read
 * with getdents64 into a buffer on the stack: opendir() would allocate
 * 32 KiB for each of the two snapshots of every input. The directory stays
 * open from snapshot to snapshot, read again from its start: the kernel
 * lists the fds open at each read, and the path walk of an open() was a
 * good part of the snapshot's cost. (A library that closed it, not being
 * its own, makes the next read fail: a finding.) */
static int fd_dir = -1;

/* A child (fuzz-replay.c forks) would share the parent's offset. */
static void fd_dir_forget(void)
{
    if (fd_dir >= 0)
        close(fd_dir);
    fd_dir = -1;
}

static void each_fd(void (*f)(int fd, void *data), void *data)
{
    static bool once;
    int dir;
    _Alignas(8) char buf[8192];
    long n;

    if (!once) {
        pthread_atfork(NULL, NULL, fd_dir_forget);
        once = true;
    }
    if (fd_dir < 0)
        fd_dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    else if (lseek(fd_dir, 0, SEEK_SET) != 0)
        fuzz_finding("harness: lseek /proc/self/fd: %s", strerror(errno));
    dir = fd_dir;
    if (dir < 0)
        fuzz_finding("harness: open /proc/self/fd: %s", strerror(errno));
    while ((n = getdents64(dir, buf, sizeof(buf))) > 0) {
        for (long pos = 0; pos < n;) {
            /* struct linux_dirent64: ino, off, reclen, type, name */
            unsigned short reclen;
            const char *name = buf + pos + 19;
            int fd = atoi(name);

            memcpy(&reclen, buf + pos + 16, sizeof(reclen));
            if (name[0] != '.' && fd != dir)
                f(fd, data);
            pos += reclen;
        }
    }
    if (n < 0)
        fuzz_finding("harness: getdents64 /proc/self/fd: %s", strerror(errno));
}

static void mark_open(int fd, void *data)
{
    struct fuzz_fds *set = data;

    if (fd >= 0 && fd < FUZZ_FD_LIMIT)
        set->open[fd] = true;
}

void fuzz_fds_snapshot(struct fuzz_fds *set)
{
    memset(set, 0, sizeof(*set));
    each_fd(mark_open, set);
}

void fuzz_fds_leaked(const struct fuzz_fds *before, const struct fuzz_conn *fc,
                     unsigned int claimed, int *ours, int *libxcbs)
{
    struct fuzz_fds now;

    *ours = *libxcbs = 0;
    fuzz_fds_snapshot(&now);
    for (int fd = 0; fd < FUZZ_FD_LIMIT; fd++) {
        struct stat st;
        unsigned int i = fc->nfds;

        if (!now.open[fd] || before->open[fd])
            continue;
        if (fstat(fd, &st) == 0)
            for (i = 0; i < fc->nfds && fc->ino[i] != (uint64_t)st.st_ino; i++)
                ;
        if (getenv("FUZZ_DEBUG") != NULL) {
            char link[256], path[64];
            ssize_t n;

            snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
            n = readlink(path, link, sizeof(link) - 1);
            link[n > 0 ? n : 0] = '\0';
            fprintf(stderr, "left open: fd %d (%s), sent as number %u of %u, %u claimed\n",
                    fd, link, i, fc->nfds, claimed);
        }
        if (i < fc->nfds && i >= claimed)
            (*libxcbs)++;
        else
            (*ours)++;
        close(fd);
    }
}

void fuzz_close_handed(int fd, bool want_cloexec)
{
    int flags = fcntl(fd, F_GETFD);

    if (flags < 0)
        fuzz_finding("the API handed over fd %d, which is not open", fd);
    if (want_cloexec && !(flags & FD_CLOEXEC))
        fuzz_finding("the API handed over fd %d without close-on-exec", fd);
    close(fd);
}

/* LeakSanitizer reads this. libxcb 1.15 returns from
 * xcb_unregister_for_special_event() without freeing the queue once the
 * connection has an error, which every input here ends with (README.md). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:xcb_register_for_special_xge\n";
}
