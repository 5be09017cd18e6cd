/* Starting and stopping a private Xvfb; see xvfb.h. */
#include "xvfb.h"

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

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* In the child: Xvfb writes its display number to fd 3, and its chatter
 * goes to /dev/null. */
static void exec_xvfb(int write_fd)
{
    /* dup2() onto itself would keep close-on-exec. */
    if (write_fd == 3) {
        if (fcntl(3, F_SETFD, 0) < 0)
            _exit(127);
    } else if (dup2(write_fd, 3) < 0) {
        _exit(127);
    }
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 1);
        dup2(null, 2);
    }
    /* The server is the system's: not our build's libraries (which the
     * libtool wrapper puts on the path, and which Xvfb's GL loads through
     * Mesa; instrumented ones would stop it). */
    unsetenv("LD_LIBRARY_PATH");
    execlp("Xvfb", "Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-noreset", "-screen", "0",
           "640x480x24", (char *)NULL);
    _exit(127);
}

int xvfb_start(struct xvfb *x)
{
    int p[2];
    x->pid = -1;
    x->display[0] = '\0';
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0)
        exec_xvfb(p[1]);
    close(p[1]);
    x->pid = pid;

    char buf[16];
    size_t got = 0;
    long long deadline = now_ms() + 20000;
    while (got < sizeof(buf) - 1) {
        long long left = deadline - now_ms();
        struct pollfd pfd = { .fd = p[0], .events = POLLIN };
        if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
            break;
        ssize_t n = read(p[0], buf + got, sizeof(buf) - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
        if (memchr(buf, '\n', got))
            break;
    }
    close(p[0]);
    buf[got] = '\0';
    char *end;
    long n = strtol(buf, &end, 10);
    if (got == 0 || end == buf || n < 0) {
        fprintf(stderr, "Xvfb did not report a display (is it installed?)\n");
        xvfb_stop(x);
        return -1;
    }
    snprintf(x->display, sizeof(x->display), ":%ld", n);
    return 0;
}

void xvfb_stop(struct xvfb *x)
{
    if (x->pid <= 0)
        return;
    kill(x->pid, SIGTERM);
    long long deadline = now_ms() + 5000;
    while (waitpid(x->pid, NULL, WNOHANG) == 0) {
        if (now_ms() > deadline) {
            kill(x->pid, SIGKILL);
            waitpid(x->pid, NULL, 0);
            break;
        }
        usleep(10 * 1000);
    }
    x->pid = -1;
}
