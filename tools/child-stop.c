/* See child-stop.h. */
#include "child-stop.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

/* Milliseconds of the programs' clock (clock.h). */
static long long now_ms(void)
{
    return (long long)(tool_now_ns() / 1000000);
}

/* 1: reaped (status set); 0: still running; -1: not our child. */
static int reap(pid_t pid, int *status)
{
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);

        if (r == pid)
            return 1;
        if (r == 0)
            return 0;
        if (errno != EINTR)
            return -1;
    }
}

int child_stop(pid_t pid, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    int status = 0, r;

    if (pid <= 0)
        return 0;
    /* Until we reap it the PID cannot be reused, so signalling it by
     * number always reaches our own child, even once it has exited. */
    kill(pid, SIGTERM);
    while ((r = reap(pid, &status)) == 0 && now_ms() < deadline)
        usleep(5000);
    if (r < 0)
        return -1;
    if (r == 0) {
        /* A server that hangs on SIGTERM must not outlive the test. */
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        return -1;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status) == 0 ? 0 : -1;
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? 0 : -1;
}
