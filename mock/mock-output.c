/* The clients' output: replies, errors and events queued with the fds
 * that go with them, written without ever blocking the server, and the
 * faults that tamper with replies on the way. */
#include "mock-internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

/* A client that reads nothing while we queue this much is dropped rather
 * than let it eat the server's memory. */
#define MAX_OUT_BYTES (64u << 20)

void mock_close_fds(const int *fds, int n)
{
    for (int i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* Appends bytes, and fds to go with the first of them.  Takes the fds
 * whatever happens.  A client that is closing or over its budget gets
 * nothing more. */
static void queue_out(struct mock_client *c, const void *buf, size_t len,
                      const int *fds, int nfds)
{
    if (c->closing || c->out_len + len > MAX_OUT_BYTES) {
        if (!c->closing)
            mock_info(c->server, "client %d reads nothing; dropping it", c->index);
        c->closing = true;
        mock_close_fds(fds, nfds);
        return;
    }
    if (c->out_len + len > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : 4096;
        uint8_t *p;

        while (cap < c->out_len + len)
            cap *= 2;
        p = realloc(c->out, cap);
        if (!p) {
            c->closing = true;
            mock_close_fds(fds, nfds);
            return;
        }
        c->out = p;
        c->out_cap = cap;
    }
    if (nfds > 0) {
        struct mock_out_marker *m;

        if (c->n_markers == c->cap_markers) {
            size_t cap = c->cap_markers ? 2 * c->cap_markers : 8;

            m = realloc(c->markers, cap * sizeof *m);
            if (!m) {
                c->closing = true;
                mock_close_fds(fds, nfds);
                return;
            }
            c->markers = m;
            c->cap_markers = cap;
        }
        m = &c->markers[c->n_markers++];
        m->offset = c->out_len;
        m->nfds = nfds > 8 ? 8 : nfds;
        memcpy(m->fds, fds, (size_t)m->nfds * sizeof(int));
        mock_close_fds(fds + m->nfds, nfds - m->nfds);
    }
    memcpy(c->out + c->out_len, buf, len);
    c->out_len += len;
}

void mock_queue_bytes(struct mock_client *c, const void *buf, size_t len)
{
    queue_out(c, buf, len, NULL, 0);
}

/* Writes what it can without blocking.  Fds travel with the first byte
 * of their reply, so one sendmsg never runs past the next marker. */
void mock_flush_out(struct mock_client *c)
{
    while (c->out_len > 0 && (uint64_t)mock_now_us() >= c->out_hold_until) {
        struct mock_out_marker *m = c->n_markers ? &c->markers[0] : NULL;
        size_t len = c->out_len;
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(8 * sizeof(int))];
        } control;
        struct iovec iov;
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
        bool with_fds = m && m->offset == 0;
        ssize_t n;

        if (m && m->offset > 0)
            len = m->offset;
        else if (with_fds && c->n_markers > 1)
            len = c->markers[1].offset;
        iov.iov_base = c->out;
        iov.iov_len = len;
        if (with_fds) {
            struct cmsghdr *cm;

            memset(&control, 0, sizeof control);
            msg.msg_control = control.buf;
            msg.msg_controllen = CMSG_SPACE((size_t)m->nfds * sizeof(int));
            cm = CMSG_FIRSTHDR(&msg);
            cm->cmsg_level = SOL_SOCKET;
            cm->cmsg_type = SCM_RIGHTS;
            cm->cmsg_len = CMSG_LEN((size_t)m->nfds * sizeof(int));
            memcpy(CMSG_DATA(cm), m->fds, (size_t)m->nfds * sizeof(int));
        }
        n = sendmsg(c->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                return;
            /* The peer is gone: nothing more can be written. */
            c->out_len = 0;
            c->closing = true;
            return;
        }
        if (with_fds) {
            mock_close_fds(m->fds, m->nfds);
            memmove(c->markers, c->markers + 1, (c->n_markers - 1) * sizeof *m);
            c->n_markers--;
        }
        memmove(c->out, c->out + n, c->out_len - (size_t)n);
        c->out_len -= (size_t)n;
        for (size_t i = 0; i < c->n_markers; i++)
            c->markers[i].offset -= (size_t)n;
    }
}

/* ---- replies, errors, events, faults -------------------------------- */

static bool fault_matches(const struct mock_fault *f, const struct mock_request *req)
{
    if (f->seq)
        return req->client->index == 1 && req->seq == f->seq;
    if (f->major != req->major)
        return false;
    return f->minor < 0 ? req->major < 128 : f->minor == req->minor;
}

/* The unused fault of this kind that the request triggers, marked used. */
const struct mock_fault *mock_take_fault(struct mock_request *req, enum mock_fault_kind kind)
{
    struct mock_server_state *s = req->client->server;

    for (int i = 0; i < s->cfg->n_faults; i++) {
        const struct mock_fault *f = &s->cfg->faults[i];

        if (!s->faults_used[i] && f->kind == kind && fault_matches(f, req)) {
            s->faults_used[i] = true;
            return f;
        }
    }
    return NULL;
}

void mock_send_error(struct mock_request *req, uint8_t code, uint32_t bad_value)
{
    uint8_t e[32] = { 0, code };

    req->errored = true;
    mock_put16(e + 2, (uint16_t)req->seq);
    mock_put32(e + 4, bad_value);
    mock_put16(e + 8, req->minor);
    e[10] = req->major;
    queue_out(req->client, e, sizeof e, NULL, 0);
}

void mock_send_event(struct mock_client *c, void *buf, size_t len)
{
    uint8_t *e = buf;

    mock_put16(e + 2, (uint16_t)c->seq);
    if ((e[0] & 0x7f) == 35)
        mock_put32(e + 4, (uint32_t)((len - 32) / 4));
    queue_out(c, e, len, NULL, 0);
}

/* The fds of a faulty reply: some dropped, some memfds added, or every
 * one swapped for a pipe's read end.  Returns the new count. */
static int fault_fds(struct mock_request *req, int *fds, int nfds, int max)
{
    struct mock_server_state *s = req->client->server;
    const struct mock_fault *f;

    if ((f = mock_take_fault(req, MOCK_FAULT_MISSING_FDS))) {
        int drop = f->arg < nfds ? f->arg : nfds;

        mock_close_fds(fds + nfds - drop, drop);
        nfds -= drop;
        mock_info(s, "fault: %d fds fewer", drop);
    }
    if ((f = mock_take_fault(req, MOCK_FAULT_EXTRA_FDS))) {
        for (int i = 0; i < f->arg && nfds < max; i++) {
            int fd = memfd_create("mock-extra-fd", MFD_CLOEXEC);

            if (fd >= 0)
                fds[nfds++] = fd;
        }
        mock_info(s, "fault: %d extra fds", f->arg);
    }
    if (mock_take_fault(req, MOCK_FAULT_WRONG_FD)) {
        for (int i = 0; i < nfds; i++) {
            int p[2];

            if (pipe2(p, O_CLOEXEC) < 0)
                continue;
            close(p[1]);
            close(fds[i]);
            fds[i] = p[0];
        }
        mock_info(s, "fault: pipes instead of fds");
    }
    if (mock_take_fault(req, MOCK_FAULT_EMPTY_FD)) {
        for (int i = 0; i < nfds; i++) {
            int fd = memfd_create("mock-empty-fd", MFD_CLOEXEC);

            if (fd < 0)
                continue;
            close(fds[i]);
            fds[i] = fd;
        }
        mock_info(s, "fault: empty memfds instead of fds");
    }
    return nfds;
}

void mock_send_reply(struct mock_request *req, void *buf, size_t len,
                     const int *fds_in, int nfds)
{
    struct mock_client *c = req->client;
    struct mock_server_state *s = c->server;
    const struct mock_fault *f;
    uint8_t *r = buf;
    int fds[8];

    req->replied = true;
    /* The core owns the fds from here on; more than a reply can carry
     * are closed. */
    if (nfds > 8) {
        mock_close_fds(fds_in + 8, nfds - 8);
        nfds = 8;
    }
    if (nfds > 0)
        memcpy(fds, fds_in, (size_t)nfds * sizeof(int));

    mock_put16(r + 2, (uint16_t)req->seq);
    mock_put32(r + 4, (uint32_t)((len - 32) / 4));

    if ((f = mock_take_fault(req, MOCK_FAULT_STALL))) {
        c->out_hold_until = (uint64_t)mock_now_us() + (uint64_t)f->arg * 1000u;
        mock_info(s, "fault: stall %d ms", f->arg);
    }
    if (mock_take_fault(req, MOCK_FAULT_BAD_EVENT)) {
        uint8_t e[32] = { 35, MOCK_PRESENT_MAJOR };

        mock_put16(e + 8, 0xffff);   /* no extension has this evtype */
        mock_send_event(c, e, sizeof e);
        mock_info(s, "fault: unknown event before the reply");
    }
    if (mock_take_fault(req, MOCK_FAULT_NO_REPLY)) {
        mock_close_fds(fds, nfds);
        mock_info(s, "fault: no reply and no error");
        return;
    }
    if ((f = mock_take_fault(req, MOCK_FAULT_ERROR))) {
        mock_close_fds(fds, nfds);
        mock_send_error(req, (uint8_t)f->arg, 0);
        mock_info(s, "fault: error %d instead of the reply", f->arg);
        return;
    }
    if ((f = mock_take_fault(req, MOCK_FAULT_REPLY_LENGTH))) {
        mock_put32(r + 4, mock_get32(r + 4) + (uint32_t)f->arg);
        mock_info(s, "fault: reply length off by %d", f->arg);
    }
    nfds = fault_fds(req, fds, nfds, 8);
    if (mock_take_fault(req, MOCK_FAULT_CLOSE_MID_REPLY)) {
        queue_out(c, r, len / 2, fds, nfds);
        mock_info(s, "fault: closing in the middle of a reply");
        c->closing = true;
        return;
    }
    queue_out(c, r, len, fds, nfds);
}
