/* The mock's listening socket, shared by the program and the tests. */
#include "mock-internal.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int mock_listen_unix(const char *path)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd, saved;

    if (strlen(path) >= sizeof addr.sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(addr.sun_path, path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    /* A socket left by a server that died is in the way of bind(). */
    if (unlink(path) < 0 && errno != ENOENT)
        goto fail;
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(fd, 16) < 0)
        goto fail;
    return fd;
fail:
    saved = errno;
    close(fd);
    errno = saved;
    return -1;
}
