/* See mock-display-claim.h. */
#include "mock-display-claim.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define X11_SOCKET_DIR "/tmp/.X11-unix"

bool mock_socket_in_use(const char *path)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool live;

    if (fd < 0)
        return false;
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    live = connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
    close(fd);
    return live;
}

int mock_socket_dir(void)
{
    if (mkdir(X11_SOCKET_DIR, 01777) == 0)
        return chmod(X11_SOCKET_DIR, 01777);    /* past the umask */
    return errno == EEXIST ? 0 : -1;
}

/* Step 1: the abstract name; the fd, or -1 when somebody holds it. */
static int bind_abstract(int n)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int len = snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, X11_SOCKET_DIR "/X%d", n);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len);

    if (fd < 0)
        return -1;
    if (bind(fd, (struct sockaddr *)&addr, size) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* True when the lock file names a process that no longer exists. */
static bool lock_is_stale(const char *path)
{
    char buf[32];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;
    long pid;

    if (fd < 0)
        return false;
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return false;   /* being written right now, or not ours to judge */
    buf[n] = '\0';
    pid = strtol(buf, NULL, 10);
    return pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Step 2: the lock file.  0, or -1 when a live server holds it. */
static int take_lock(const char *path)
{
    char pid[16];
    int len = snprintf(pid, sizeof pid, "%10d\n", (int)getpid());

    for (int tries = 0; tries < 2; tries++) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);

        if (fd >= 0) {
            bool ok = write(fd, pid, (size_t)len) == len;

            close(fd);
            if (ok)
                return 0;
            unlink(path);
            return -1;
        }
        if (errno != EEXIST || !lock_is_stale(path) || unlink(path) < 0)
            return -1;
    }
    return -1;
}

static int try_number(struct mock_display_claim *c, int n, char *path, size_t size)
{
    c->abstract_fd = bind_abstract(n);
    if (c->abstract_fd < 0)
        return -1;
    snprintf(c->lock, sizeof c->lock, "/tmp/.X%d-lock", n);
    if (take_lock(c->lock) < 0) {
        close(c->abstract_fd);
        return -1;
    }
    c->number = n;
    snprintf(path, size, X11_SOCKET_DIR "/X%d", n);
    if (mock_socket_in_use(path)) {
        mock_display_release(c);
        return -1;
    }
    return 0;
}

int mock_display_claim(struct mock_display_claim *c, char *path, size_t size)
{
    c->number = -1;
    c->abstract_fd = -1;
    if (mock_socket_dir() < 0) {
        fprintf(stderr, "mock-x-server: %s: %s\n", X11_SOCKET_DIR, strerror(errno));
        return -1;
    }
    for (int n = MOCK_DISPLAY_FIRST; n <= MOCK_DISPLAY_LAST; n++)
        if (try_number(c, n, path, size) == 0)
            return 0;
    fprintf(stderr, "mock-x-server: no free display between :%d and :%d\n",
            MOCK_DISPLAY_FIRST, MOCK_DISPLAY_LAST);
    return -1;
}

void mock_display_release(struct mock_display_claim *c)
{
    if (c->number < 0)
        return;
    unlink(c->lock);
    close(c->abstract_fd);
    c->abstract_fd = -1;
    c->number = -1;
}
