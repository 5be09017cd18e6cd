#define _GNU_SOURCE
#include "fake-server.h"
#include "mock-inproc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xcb/dri3.h>
#include <xcb/present.h>

#include "test-clock.h"
#include "test-runner.h"
#include "wire-util.h"

/* Long enough for a loaded machine, short enough to fail a stuck test well
 * inside the runner's own timeout. */
#define IO_TIMEOUT_MS 2000

struct fake_server {
    int fd;                 /* the server's end of the socketpair */
    xcb_connection_t *c;
    uint32_t seq;           /* last request read */
    bool hung_up;
};

static void wait_for(fake_server_t *srv, short events, const char *what)
{
    int n = test_poll_one(srv->fd, events, IO_TIMEOUT_MS);

    if (n < 0)
        test_fail(__FILE__, __LINE__, "poll: %s", strerror(errno));
    if (n == 0)
        test_fail(__FILE__, __LINE__, "fake server: timed out %s", what);
}

/* Reads exactly len bytes, gathering whatever fds arrive with them. */
static void read_exact(fake_server_t *srv, uint8_t *buf, size_t len, int *fds, int *nfds)
{
    size_t got = 0;

    while (got < len) {
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int) * FAKE_MAX_FDS)];
        } control;
        struct iovec iov = { buf + got, len - got };
        struct msghdr msg = {
            .msg_iov = &iov,
            .msg_iovlen = 1,
            .msg_control = control.buf,
            .msg_controllen = sizeof(control.buf),
        };
        bool unexpected = false;
        ssize_t n;

        wait_for(srv, POLLIN, "waiting for a request");
        n = recvmsg(srv->fd, &msg, MSG_CMSG_CLOEXEC);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0)
            test_fail(__FILE__, __LINE__, "recvmsg: %s", strerror(errno));
        if (n == 0)
            test_fail(__FILE__, __LINE__, "the client closed the connection");

        for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
            const unsigned char *data = CMSG_DATA(cm);
            size_t count;

            if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
                continue;
            count = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count; i++) {
                int fd;

                memcpy(&fd, data + i * sizeof(int), sizeof(int));
                if (fds && *nfds < FAKE_MAX_FDS) {
                    fds[(*nfds)++] = fd;
                } else {
                    close(fd);
                    unexpected = true;
                }
            }
        }
        if (unexpected)
            test_fail(__FILE__, __LINE__, "fds arrived where none were expected");
        if (msg.msg_flags & MSG_CTRUNC)
            test_fail(__FILE__, __LINE__, "more than %d fds in one message", FAKE_MAX_FDS);
        got += (size_t)n;
    }
}

size_t fake_read_request(fake_server_t *srv, uint8_t *buf, size_t cap, int *fds, int *nfds)
{
    int ignored = 0;
    size_t head = 4, size;
    uint32_t length;

    CHECK(fds == NULL || nfds != NULL);
    if (!nfds)
        nfds = &ignored;
    *nfds = 0;
    CHECK(cap >= 8);
    read_exact(srv, buf, 4, fds, nfds);
    length = (uint32_t)buf[2] | (uint32_t)buf[3] << 8;
    if (length == 0) {
        /* BIG-REQUESTS: a zero length is followed by a 32-bit one, which
         * counts the extra word too. */
        read_exact(srv, buf + 4, 4, fds, nfds);
        length = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 | (uint32_t)buf[6] << 16 |
                 (uint32_t)buf[7] << 24;
        head = 8;
    }
    size = (size_t)length * 4;
    if (size < head || size > cap)
        test_fail(__FILE__, __LINE__, "request %u.%u has length %u words (room for %zu bytes)",
                  buf[0], buf[1], length, cap);
    read_exact(srv, buf + head, size - head, fds, nfds);
    srv->seq++;
    return size;
}

void fake_write(fake_server_t *srv, const void *bytes, size_t len, const int *fds, int nfds)
{
    const uint8_t *p = bytes;
    bool fds_sent = nfds == 0;

    CHECK(nfds >= 0 && nfds <= FAKE_MAX_FDS);
    while (len > 0 || !fds_sent) {
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int) * FAKE_MAX_FDS)];
        } control;
        struct iovec iov = { (void *)p, len };
        struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
        ssize_t n;

        CHECK(len > 0); /* fds need at least one byte to travel with */
        if (!fds_sent) {
            struct cmsghdr *cm;

            memset(&control, 0, sizeof(control));
            msg.msg_control = control.buf;
            msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
            cm = CMSG_FIRSTHDR(&msg);
            cm->cmsg_level = SOL_SOCKET;
            cm->cmsg_type = SCM_RIGHTS;
            cm->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
            memcpy(CMSG_DATA(cm), fds, sizeof(int) * (size_t)nfds);
        }
        wait_for(srv, POLLOUT, "writing to the client");
        n = sendmsg(srv->fd, &msg, MSG_NOSIGNAL);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n < 0)
            test_fail(__FILE__, __LINE__, "sendmsg: %s", strerror(errno));
        fds_sent = true;
        p += n;
        len -= (size_t)n;
    }
}

uint32_t fake_seq(const fake_server_t *srv)
{
    return srv->seq;
}

size_t fake_pending(fake_server_t *srv)
{
    int n = 0;

    if (ioctl(srv->fd, FIONREAD, &n) < 0)
        test_fail(__FILE__, __LINE__, "FIONREAD: %s", strerror(errno));
    return (size_t)n;
}

/* The handshake (mock-inproc.h), then a check of the client's setup
 * request, byte by byte. */
static void connect_client(fake_server_t *srv)
{
    uint8_t request[MOCK_INPROC_REQUEST_SIZE];
    struct wire want = { 0 };
    const char *error = NULL;

    srv->c = mock_inproc_connect(&srv->fd, request, &error);
    if (!srv->c)
        test_fail(__FILE__, __LINE__, "fake server: %s", error);
    /* Non-blocking, with poll() in front of every call: a test waiting for
     * bytes that never come times out in wait_for() with a message. */
    CHECK(fcntl(srv->fd, F_SETFL, O_NONBLOCK) == 0);

    w8(&want, 'l');             /* byte-order: LSBFirst */
    w8(&want, 0);               /* unused */
    w16(&want, 11);             /* protocol-major-version */
    w16(&want, 0);              /* protocol-minor-version */
    w16(&want, 0);              /* length of authorization-protocol-name */
    w16(&want, 0);              /* length of authorization-protocol-data */
    w16(&want, 0);              /* unused */
    CHECK_MEM(request, want.data, sizeof(request));
    wire_free(&want);
}

void fake_answer_query_extension(fake_server_t *srv, const char *name, uint8_t major)
{
    size_t n = strlen(name), pad = (4 - n % 4) % 4;
    struct wire want = { 0 }, reply = { 0 };

    w8(&want, 98);                          /* opcode: QueryExtension */
    w8(&want, 0);                           /* unused */
    w16(&want, (uint16_t)(2 + (n + pad) / 4)); /* request length */
    w16(&want, (uint16_t)n);                /* length of name */
    w16(&want, 0);                          /* unused */
    for (size_t i = 0; i < n; i++)
        w8(&want, (uint8_t)name[i]);        /* name */
    wpad(&want, pad);
    EXPECT_REQUEST(srv, &want, NULL, NULL);

    w_reply_head(&reply, 0, srv->seq, 0);
    w8(&reply, 1);                          /* present */
    w8(&reply, major);                      /* major-opcode */
    w8(&reply, 0);                          /* first-event */
    w8(&reply, 0);                          /* first-error */
    wpad(&reply, 20);                       /* unused */
    fake_write_wire(srv, &reply, NULL, 0);
    wire_free(&want);
    wire_free(&reply);
}

fake_server_t *fake_start(xcb_connection_t **c)
{
    const xcb_query_extension_reply_t *ext;
    fake_server_t *srv;

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    SKIP("the expected bytes are written for a little-endian client");
#endif
    srv = calloc(1, sizeof(*srv));
    CHECK(srv != NULL);
    connect_client(srv);

    /* Ask for both extensions at once, then answer both, so that later
     * xcb_get_extension_data() calls find cached answers and the tests see
     * only their own requests. */
    xcb_prefetch_extension_data(srv->c, &xcb_dri3_id);
    xcb_prefetch_extension_data(srv->c, &xcb_present_id);
    CHECK(xcb_flush(srv->c) > 0);
    fake_answer_query_extension(srv, "DRI3", FAKE_DRI3_MAJOR);
    fake_answer_query_extension(srv, "Present", FAKE_PRESENT_MAJOR);

    ext = xcb_get_extension_data(srv->c, &xcb_dri3_id);
    CHECK(ext != NULL && ext->present);
    CHECK_EQ(ext->major_opcode, FAKE_DRI3_MAJOR);
    ext = xcb_get_extension_data(srv->c, &xcb_present_id);
    CHECK(ext != NULL && ext->present);
    CHECK_EQ(ext->major_opcode, FAKE_PRESENT_MAJOR);
    CHECK_EQ(srv->seq, 2);

    *c = srv->c;
    return srv;
}

void fake_hangup(fake_server_t *srv)
{
    CHECK(shutdown(srv->fd, SHUT_RDWR) == 0);
    srv->hung_up = true;
}

void fake_stop(fake_server_t *srv)
{
    xcb_generic_event_t *ev;

    if (srv->hung_up)
        goto close;
    CHECK_EQ(fake_pending(srv), 0);
    ev = xcb_poll_for_event(srv->c);
    if (ev) {
        uint8_t type = ev->response_type, code = ((xcb_generic_error_t *)ev)->error_code;

        free(ev);
        test_fail(__FILE__, __LINE__, "an unread %s (response_type %u, code %u) is queued",
                  type == 0 ? "error" : "event", type, code);
    }
    CHECK_EQ(xcb_connection_has_error(srv->c), 0);
close:
    xcb_disconnect(srv->c);
    close(srv->fd);
    free(srv);
}
