/* The mock X server on a display number; see mock-display.h. */
#include "mock-display.h"

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

enum { FIRST_DISPLAY = 150, LAST_DISPLAY = 400, MAX_ARGS = 32 };

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void lock_path(int n, char *buf, size_t size)
{
    snprintf(buf, size, "/tmp/.X%d-lock", n);
}

/* Claims display n as X servers do: an exclusive lock file with our PID,
 * and no socket of anybody's there. */
static int claim(int n)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/.X11-unix/X%d", n);
    if (access(path, F_OK) == 0)
        return -1;
    lock_path(n, path, sizeof(path));
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (fd < 0)
        return -1;
    char pid[16];
    int len = snprintf(pid, sizeof(pid), "%10d\n", (int)getpid());
    int ok = write(fd, pid, (size_t)len) == len;
    close(fd);
    if (!ok) {
        unlink(path);
        return -1;
    }
    return 0;
}

static void release(int n)
{
    char path[64];
    lock_path(n, path, sizeof(path));
    unlink(path);
}

static const char *server_path(void)
{
    static char path[4096];
    const char *top = getenv("TOP_BUILDDIR");
    snprintf(path, sizeof(path), "%s/tests/mock/mock-x-server", top ? top : ".");
    return path;
}

/* Runs the server on display n; 0 once it said "ready". */
static int spawn(struct mock_display *m, const char *const *args)
{
    const char *argv[MAX_ARGS + 8];
    int a = 0;
    argv[a++] = "mock-x-server";
    argv[a++] = "--display";
    argv[a++] = m->display;
    argv[a++] = "--transcript";
    argv[a++] = m->transcript;
    for (int i = 0; args && args[i] && a < MAX_ARGS; i++)
        argv[a++] = args[i];
    argv[a] = NULL;

    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0)
        return -1;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        /* A test that fails ends without stopping us: the server goes with
         * it instead of living on (the signal survives execv). */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(1);
        dup2(p[1], 1);
        execv(server_path(), (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    m->pid = pid;
    char buf[256];
    size_t got = 0;
    long long deadline = now_ms() + 10000;
    while (got < sizeof(buf) - 1 && !memchr(buf, '\n', got)) {
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
    }
    close(p[0]);
    if (got >= 5 && memcmp(buf, "ready", 5) == 0)
        return 0;
    mock_display_stop(m);
    return -1;
}

int mock_display_start(struct mock_display *m, const char *const *args)
{
    memset(m, 0, sizeof(*m));
    m->pid = -1;
    m->number = -1;
    snprintf(m->dir, sizeof(m->dir), "/tmp/xlib-mock.XXXXXX");
    if (!mkdtemp(m->dir))
        return -1;
    snprintf(m->transcript, sizeof(m->transcript), "%s/transcript", m->dir);
    for (int n = FIRST_DISPLAY; n < LAST_DISPLAY; n++) {
        if (claim(n) < 0)
            continue;
        m->number = n;
        snprintf(m->display, sizeof(m->display), ":%d", n);
        if (spawn(m, args) == 0)
            return 0;
        /* spawn() stopped it and gave the number back. */
    }
    fprintf(stderr, "mock-x-server did not start on any display\n");
    mock_display_cleanup(m);
    return -1;
}

void mock_display_stop(struct mock_display *m)
{
    if (m->pid > 0) {
        kill(m->pid, SIGTERM);
        long long deadline = now_ms() + 5000;
        while (waitpid(m->pid, NULL, WNOHANG) == 0) {
            if (now_ms() > deadline) {
                kill(m->pid, SIGKILL);
                waitpid(m->pid, NULL, 0);
                break;
            }
            usleep(5 * 1000);
        }
        m->pid = -1;
    }
    if (m->number >= 0) {
        release(m->number);
        m->number = -1;
    }
}

void mock_display_cleanup(struct mock_display *m)
{
    mock_display_stop(m);
    if (m->dir[0]) {
        unlink(m->transcript);
        rmdir(m->dir);
        m->dir[0] = '\0';
    }
}
