/* See displayfd-spawn.h. */
#include "displayfd-spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"

#include "child-stop.h"

enum { STOP_TIMEOUT_MS = 5000 };

/* Milliseconds of the programs' clock (clock.h). */
static long long now_ms(void)
{
    return (long long)(tool_now_ns() / 1000000);
}

/* Whether entry ("NAME=value") sets one of the names in extra. */
static int replaced(const char *entry, char *const extra[])
{
    size_t len = strcspn(entry, "=");

    for (size_t i = 0; extra && extra[i]; i++)
        if (strncmp(entry, extra[i], len + 1) == 0)
            return 1;
    return 0;
}

/* The child's environment: ours, without the variables that point a
 * program at our uninstalled libraries when asked (SYSTEM_LIBS), with
 * extra's settings in place of ours.  Built before fork(), so that the
 * child of a threaded test only calls async-signal-safe functions. */
static char **child_environment(unsigned flags, char *const extra[])
{
    size_t n = 0, n_extra = 0, kept = 0;
    char **env;

    while (environ[n])
        n++;
    while (extra && extra[n_extra])
        n_extra++;
    env = malloc((n + n_extra + 1) * sizeof *env);
    if (!env)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if ((flags & DISPLAYFD_SYSTEM_LIBS) &&
            (strncmp(environ[i], "LD_LIBRARY_PATH=", 16) == 0 ||
             strncmp(environ[i], "LD_PRELOAD=", 11) == 0))
            continue;
        if (!replaced(environ[i], extra))
            env[kept++] = environ[i];
    }
    for (size_t i = 0; i < n_extra; i++)
        env[kept++] = extra[i];
    env[kept] = NULL;
    return env;
}

/* from onto to, inheritable (dup2() onto itself would keep close-on-exec). */
static int redirect(int from, int to)
{
    if (from == to)
        return fcntl(to, F_SETFD, 0);
    return dup2(from, to) < 0 ? -1 : 0;
}

/* In the child; never returns. */
static void exec_server(char *const argv[], char **env, unsigned flags, int fd3,
                        pid_t parent)
{
    int null;

    /* A test that fails ends without stopping its server: the server goes
     * with it instead of living on.  SIGTERM, so that it still removes its
     * socket and lock file.  The check closes the window in which the
     * parent died before prctl(). */
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent)
        _exit(127);
    /* fd 3 first: /dev/null may land on any free fd, never on 3. */
    if (fd3 >= 0 && redirect(fd3, 3) < 0)
        _exit(127);
    null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || redirect(null, 0) < 0 ||
        ((flags & DISPLAYFD_NO_STDOUT) && redirect(null, 1) < 0) ||
        ((flags & DISPLAYFD_NO_STDERR) && redirect(null, 2) < 0))
        _exit(127);
    execvpe(argv[0], argv, env);
    _exit(127);
}

int server_spawn(char *const argv[], char *const extra_env[], unsigned flags, int fd3,
                 pid_t *pid)
{
    pid_t parent = getpid();
    char **env = child_environment(flags, extra_env);
    int saved;

    *pid = -1;
    if (!env)
        return -1;
    *pid = fork();
    if (*pid == 0)
        exec_server(argv, env, flags, fd3, parent);
    saved = errno;
    free(env);
    errno = saved;
    return *pid < 0 ? -1 : 0;
}

int displayfd_spawn(char *const argv[], unsigned flags, pid_t *pid)
{
    return displayfd_spawn_env(argv, NULL, flags, pid);
}

int displayfd_spawn_env(char *const argv[], char *const extra_env[], unsigned flags, pid_t *pid)
{
    int p[2], saved;

    *pid = -1;
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    if (server_spawn(argv, extra_env, flags, p[1], pid) < 0) {
        saved = errno;
        close(p[0]);
        close(p[1]);
        errno = saved;
        return -1;
    }
    close(p[1]);
    return p[0];
}

int displayfd_read(int fd, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    char buf[16];
    size_t got = 0;
    char *end;
    long n;

    /* Byte by byte up to the newline: nothing after it is ours to take. */
    while (got < sizeof buf - 1 && (got == 0 || buf[got - 1] != '\n')) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        long long left = deadline - now_ms();
        ssize_t r;

        if (left <= 0) {
            errno = ETIMEDOUT;
            return -1;
        }
        r = poll(&pfd, 1, (int)left);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r <= 0)
            continue;
        r = read(fd, buf + got, 1);
        if (r < 0 && errno != EINTR && errno != EAGAIN)
            return -1;
        if (r == 0)
            break;
        if (r > 0)
            got++;
    }
    buf[got] = '\0';
    errno = 0;
    n = strtol(buf, &end, 10);
    if (got == 0 || end == buf || *end != '\n' || errno || n < 0 || n > 65535) {
        errno = EPROTO;
        return -1;
    }
    return (int)n;
}

int displayfd_start(char *const argv[], unsigned flags, int timeout_ms, pid_t *pid)
{
    return displayfd_start_env(argv, NULL, flags, timeout_ms, pid);
}

int displayfd_start_env(char *const argv[], char *const extra_env[], unsigned flags,
                        int timeout_ms, pid_t *pid)
{
    int fd = displayfd_spawn_env(argv, extra_env, flags, pid), n, saved;

    if (fd < 0) {
        fprintf(stderr, "%s: cannot start: %s\n", argv[0], strerror(errno));
        return -1;
    }
    n = displayfd_read(fd, timeout_ms);
    saved = errno;
    close(fd);
    if (n >= 0)
        return n;
    fprintf(stderr, "%s did not report a display within %d s (%s; is it installed?)\n",
            argv[0], timeout_ms / 1000,
            saved == EPROTO ? "it exited or wrote no number" : strerror(saved));
    child_stop(*pid, STOP_TIMEOUT_MS);
    *pid = -1;
    return -1;
}
