/*
 * The probe against a real X server: Xvfb has Present, SYNC, XFixes and
 * MIT-SHM but no DRI3.  The helpers that need DRI3 must refuse without
 * sending anything (libxcb would shut the connection down), and the
 * connection must stay usable.  Xvfb picks a free display itself
 * (-displayfd), because other builds run Xvfb on this machine at once;
 * it is stopped by its PID.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test-runner.h"
#include "xcb_dri3_util.h"

struct xvfb {
    pid_t pid;
    char display[16];
};

/* Starts Xvfb and waits (at most 8 s) until it says its display; skips
 * the test where Xvfb is missing. */
static void xvfb_start(struct xvfb *x)
{
    char fdarg[16], buf[16] = "";
    struct pollfd pfd;
    size_t len = 0;
    int p[2];

    CHECK(pipe2(p, O_CLOEXEC) == 0);
    x->pid = fork();
    CHECK(x->pid >= 0);
    if (x->pid == 0) {
        int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

        if (null >= 0) {
            dup2(null, 1);
            dup2(null, 2);
        }
        fcntl(p[1], F_SETFD, 0);
        snprintf(fdarg, sizeof fdarg, "%d", p[1]);
        execlp("Xvfb", "Xvfb", "-displayfd", fdarg, "-nolisten", "tcp", "-screen", "0",
               "320x240x24", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    pfd.fd = p[0];
    pfd.events = POLLIN;
    /* The number arrives followed by a newline; EOF means Xvfb died. */
    while (len < sizeof buf - 1 && !strchr(buf, '\n')) {
        ssize_t n;

        if (poll(&pfd, 1, 8000) <= 0)
            break;
        n = read(p[0], buf + len, sizeof buf - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = '\0';
    }
    close(p[0]);
    if (!strchr(buf, '\n')) {
        int status;

        kill(x->pid, SIGKILL);
        waitpid(x->pid, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            SKIP("Xvfb is not installed");
        test_fail(__FILE__, __LINE__, "Xvfb did not start");
    }
    snprintf(x->display, sizeof x->display, ":%d", atoi(buf));
}

/* SIGTERM, then at most 5 s for it to go; SIGKILL after that. */
static void xvfb_stop(struct xvfb *x)
{
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    int status;

    kill(x->pid, SIGTERM);
    for (int i = 0; i < 500; i++) {
        if (waitpid(x->pid, &status, WNOHANG) == x->pid)
            return;
        nanosleep(&tick, NULL);
    }
    kill(x->pid, SIGKILL);
    waitpid(x->pid, &status, 0);
}

TEST(xvfb_has_no_dri3)
{
    xcb_dri3_util_buffer_t *b = xcb_dri3_util_buffer_create_memfd(16, 16, 0x34325258);
    xcb_generic_error_t *err = (void *)1;
    xcb_dri3_util_caps_t caps;
    xcb_connection_t *c;
    xcb_window_t root;
    struct xvfb x;
    uint64_t *wm, *sm;
    uint32_t nw, ns;

    CHECK(b != NULL);
    xvfb_start(&x);
    c = xcb_connect(x.display, NULL);
    CHECK_EQ(xcb_connection_has_error(c), 0);
    root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    CHECK_EQ(xcb_dri3_util_probe(c, &caps), 0);
    test_note("present %u.%u caps 0x%x, sync %u.%u, xfixes %u.%u, shm %u.%u pixmaps %d",
              caps.present_major, caps.present_minor, caps.present_caps, caps.sync_major,
              caps.sync_minor, caps.xfixes_major, caps.xfixes_minor, caps.shm_major,
              caps.shm_minor, caps.shm_pixmaps);
    CHECK(caps.fd_passing);
    CHECK(!caps.dri3);
    CHECK(caps.present);
    CHECK_EQ(caps.present_major, 1);
    CHECK(caps.sync);
    CHECK(caps.xfixes);
    CHECK(caps.xfixes_major >= 2);
    CHECK(caps.shm);

    /* Every helper that needs DRI3 refuses, sending nothing. */
    errno = 0;
    CHECK_EQ(xcb_dri3_util_buffer_to_pixmap(c, root, b, &err), XCB_NONE);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(err == NULL);
    CHECK(xcb_dri3_util_buffer_from_pixmap(c, root, &err) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK(xcb_dri3_util_device_open(c, root, 0, &err) == NULL);
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_dri3_util_get_supported_modifiers(c, root, 24, 32, &wm, &nw, &sm, &ns, &err),
             -ENOTSUP);
    CHECK_EQ(xcb_dri3_util_syncobj_import(c, root, 0, &err), XCB_NONE);
    CHECK_EQ(errno, ENOTSUP);
    CHECK_EQ(xcb_dri3_util_present_synced(c, root, 1, 1, 1, 1, 2, 2, 0, 0, 0, 0, NULL),
             -ENOTSUP);
    /* and the connection still works */
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    CHECK_EQ(xcb_connection_has_error(c), 0);

    xcb_dri3_util_probe_forget(c);
    xcb_disconnect(c);
    xvfb_stop(&x);
    xcb_dri3_util_buffer_destroy(b);
}
