/* See xvfb-spawn.h. */
#include "xvfb-spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* In the child: fd 3 is the pipe, everything else stays out of Xvfb. */
static void exec_xvfb(int pipe_w, const char *screen)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);

    /* Xvfb must not outlive us, whatever happens to us. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* Xvfb is the system's: a library path for our uninstalled libraries
     * (libtool's wrappers set one) would hand its GL driver our
     * libxcb-dri3, which a sanitizer build cannot load into Xvfb. */
    unsetenv("LD_LIBRARY_PATH");
    unsetenv("LD_PRELOAD");
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
    }
    if (pipe_w == 3) {
        fcntl(3, F_SETFD, 0);
    } else if (dup2(pipe_w, 3) < 0) {
        _exit(127);
    }
    execlp("Xvfb", "Xvfb", "-displayfd", "3", "-screen", "0", screen, "-nolisten", "tcp",
           (char *)NULL);
    _exit(127);
}

int xvfb_start(struct xvfb *x, const char *screen)
{
    char buf[16] = "";
    size_t got = 0;
    long long deadline = now_ms() + 10000;
    int p[2];

    x->pid = -1;
    x->display[0] = 0;
    if (pipe2(p, O_CLOEXEC) < 0) {
        perror("xvfb: pipe2");
        return -1;
    }
    x->pid = fork();
    if (x->pid < 0) {
        perror("xvfb: fork");
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (x->pid == 0)
        exec_xvfb(p[1], screen);
    close(p[1]);
    while (got < sizeof buf - 1 && !memchr(buf, '\n', got)) {
        struct pollfd pf = { .fd = p[0], .events = POLLIN };
        long long left = deadline - now_ms();
        ssize_t n;

        if (left <= 0 || poll(&pf, 1, (int)left) <= 0)
            break;
        n = read(p[0], buf + got, sizeof buf - 1 - got);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            break;
        if (n > 0)
            got += (size_t)n;
    }
    close(p[0]);
    buf[got] = 0;
    if (!memchr(buf, '\n', got)) {
        fprintf(stderr, "xvfb: Xvfb did not report a display (is it installed?)\n");
        xvfb_stop(x);
        return -1;
    }
    snprintf(x->display, sizeof x->display, ":%d", atoi(buf));
    return 0;
}

int xvfb_stop(struct xvfb *x)
{
    long long deadline = now_ms() + 5000;
    int status = 0;

    if (x->pid <= 0)
        return 0;
    kill(x->pid, SIGTERM);
    for (;;) {
        pid_t r = waitpid(x->pid, &status, WNOHANG);

        if (r == x->pid || (r < 0 && errno != EINTR))
            break;
        if (now_ms() >= deadline) {
            kill(x->pid, SIGKILL);
            waitpid(x->pid, &status, 0);
            status = -1;
            break;
        }
        usleep(5000);
    }
    x->pid = -1;
    return status == 0 || (WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) ? 0 : -1;
}
