/*
 * xcb_dri3_util_fence_wait_conn() against a fake X server in a child
 * process: a minimal connection setup over a socketpair, after which the
 * "server" either stays quiet or dies.
 */
#include <pthread.h>
#include <sys/socket.h>

#include "fence-test-util.h"
#include "xcb_dri3_util.h"

#define MS 1000000LL

struct fake_peer {
    pid_t pid;
    xcb_connection_t *c;
    int64_t *death_ns;      /* shared: when the peer killed itself */
};

/* The setup request without authorization is 12 bytes; the answer is a
 * successful setup with no screens and no formats, which libxcb accepts. */
static void serve_setup(int fd)
{
    uint8_t request[12], reply[8 + 32] = { 0 };
    size_t got = 0;

    while (got < sizeof(request)) {
        ssize_t n = read(fd, request + got, sizeof(request) - got);

        if (n <= 0)
            _exit(2);
        got += (size_t)n;
    }
    reply[0] = 1;                               /* Success */
    reply[2] = 11;                              /* protocol-major-version */
    reply[6] = 32 / 4;                          /* length of what follows */
    reply[8 + 8] = 0xff;                        /* resource-id-mask */
    reply[8 + 9] = 0xff;
    reply[8 + 18] = 0xff;                       /* maximum-request-length */
    if (write(fd, reply, sizeof(reply)) != (ssize_t)sizeof(reply))
        _exit(2);
}

/* Connects to a child that serves the setup and then, if die_after_ms is
 * not negative, kills itself that much later; otherwise it stays until
 * the client hangs up. */
static void start_peer(struct fake_peer *p, int die_after_ms)
{
    int sv[2];

    p->death_ns = mmap(NULL, sizeof(int64_t), PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(p->death_ns != MAP_FAILED);
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    p->pid = fork_child();
    if (p->pid == 0) {
        char byte;

        close(sv[0]);
        serve_setup(sv[1]);
        if (die_after_ms < 0) {
            while (read(sv[1], &byte, 1) > 0)
                ;
            _exit(0);
        }
        test_sleep_ms(die_after_ms);
        *p->death_ns = test_now_ns();
        kill(getpid(), SIGKILL);
    }
    close(sv[1]);
    p->c = xcb_connect_to_fd(sv[0], NULL);
    CHECK_EQ(xcb_connection_has_error(p->c), 0);
}

static void stop_peer(struct fake_peer *p)
{
    xcb_disconnect(p->c);
    wait_child(p->pid);
    munmap(p->death_ns, sizeof(int64_t));
}

TEST(dead_server_ends_the_wait)
{
    xcb_dri3_util_fence_t *f;
    struct fake_peer p;
    int64_t late;

    /* The fence comes after the fork: the child inherits nothing to free. */
    start_peer(&p, 30);
    f = xcb_dri3_util_fence_create(false);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, p.c, -1), -EPIPE);
    late = test_now_ns() - *p.death_ns;
    test_note("returned %lld ns after the server died", (long long)late);
    CHECK(*p.death_ns != 0);
    /* Noticed within a 4 ms slice; the bound only allows for a loaded
     * machine that runs the waiter late. */
    CHECK(late < 500 * MS);
    /* Still dead on the next call, which returns at once. */
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, p.c, -1), -EPIPE);
    stop_peer(&p);
    xcb_dri3_util_fence_destroy(f);
}

static void *trigger_after_20ms(void *arg)
{
    test_sleep_ms(20);
    xcb_dri3_util_fence_trigger(arg);
    return NULL;
}

TEST(live_server_trigger_ends_the_wait)
{
    xcb_dri3_util_fence_t *f;
    struct fake_peer p;
    pthread_t thread;

    start_peer(&p, -1);
    f = xcb_dri3_util_fence_create(false);
    CHECK_EQ(pthread_create(&thread, NULL, trigger_after_20ms, f), 0);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, p.c, 5000 * MS), 0);
    pthread_join(thread, NULL);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, p.c, 0), 0);
    stop_peer(&p);
    xcb_dri3_util_fence_destroy(f);
}

TEST(live_server_wait_times_out)
{
    xcb_dri3_util_fence_t *f;
    struct fake_peer p;
    int64_t start, took;

    start_peer(&p, -1);
    f = xcb_dri3_util_fence_create(false);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, p.c, 0), -ETIMEDOUT);
    start = test_now_ns();
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, p.c, 30 * MS), -ETIMEDOUT);
    took = test_now_ns() - start;
    test_note("took %lld ns", (long long)took);
    CHECK(took >= 30 * MS);
    CHECK(took < 30 * MS + 500 * MS);
    stop_peer(&p);
    xcb_dri3_util_fence_destroy(f);
}

/* A connection that never worked fails at once, for waits and requests. */
TEST(broken_connection_fails_at_once)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int sv[2];
    xcb_connection_t *c;
    xcb_generic_error_t *err = (void *)1;

    /* A peer that hangs up before the setup: libxcb marks the error. */
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    close(sv[1]);
    c = xcb_connect_to_fd(sv[0], NULL);
    CHECK(xcb_connection_has_error(c) != 0);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, c, -1), -EPIPE);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_fence_to_server(c, 0, f, &err), XCB_NONE);
    CHECK(err == NULL);
    CHECK_EQ(errno, EPIPE);
    CHECK(xcb_dri3_util_fence_from_server(c, 0, 1, &err) == NULL);
    CHECK(err == NULL);
    CHECK_EQ(errno, EPIPE);
    /* A triggered fence still says so: there is nothing to wait for. */
    xcb_dri3_util_fence_trigger(f);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, c, -1), 0);
    xcb_disconnect(c);
    xcb_dri3_util_fence_destroy(f);
}

/* A wait_conn that times out takes its -1 mark back, like the other waits,
 * so that the next trigger (from the server, say) makes no wake-up call. */
TEST(timed_out_wait_conn_leaves_no_mark)
{
    xcb_dri3_util_fence_t *f;
    struct fake_peer p;
    int32_t *word;

    start_peer(&p, -1);
    f = xcb_dri3_util_fence_create(false);
    word = map_word(xcb_dri3_util_fence_fd(f));
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, p.c, 10 * MS), -ETIMEDOUT);
    CHECK_EQ(*word, 0);
    unmap_word(word);
    stop_peer(&p);
    xcb_dri3_util_fence_destroy(f);
}
