#define _GNU_SOURCE
#include "test-fds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-runner.h"

int test_memfd(const char *name, size_t size, struct fd_id *id)
{
    int fd = memfd_create(name, MFD_CLOEXEC);

    if (fd < 0)
        test_fail(__FILE__, __LINE__, "memfd_create: %s", strerror(errno));
    if (size && ftruncate(fd, (off_t)size) != 0)
        test_fail(__FILE__, __LINE__, "ftruncate(%zu): %s", size, strerror(errno));
    if (id)
        *id = fd_identity(__FILE__, __LINE__, fd);
    return fd;
}

int test_dup(int fd)
{
    int d = fcntl(fd, F_DUPFD_CLOEXEC, 0);

    if (d < 0)
        test_fail(__FILE__, __LINE__, "dup of fd %d: %s", fd, strerror(errno));
    return d;
}

struct fd_id fd_identity(const char *file, int line, int fd)
{
    struct stat st;

    if (fstat(fd, &st) < 0)
        test_fail(file, line, "fstat(%d): %s", fd, strerror(errno));
    return (struct fd_id){ (uint64_t)st.st_dev, (uint64_t)st.st_ino };
}

void check_fd_is(const char *file, int line, const char *expr, int fd, struct fd_id id)
{
    struct stat st;

    if (fd < 0)
        test_fail(file, line, "%s = %d is not an fd", expr, fd);
    if (fstat(fd, &st) < 0)
        test_fail(file, line, "fstat(%s = %d): %s", expr, fd, strerror(errno));
    if ((uint64_t)st.st_dev != id.dev || (uint64_t)st.st_ino != id.ino)
        test_fail(file, line, "%s = %d is inode %llu on device %llu, expected %llu on %llu",
                  expr, fd, (unsigned long long)st.st_ino, (unsigned long long)st.st_dev,
                  (unsigned long long)id.ino, (unsigned long long)id.dev);
}

void check_fd_closed(const char *file, int line, const char *expr, int fd)
{
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
        test_fail(file, line, "%s = %d is still open", expr, fd);
}

void check_cloexec(const char *file, int line, const char *expr, int fd)
{
    int flags = fcntl(fd, F_GETFD);

    if (flags < 0)
        test_fail(file, line, "fcntl(%s = %d): %s", expr, fd, strerror(errno));
    if (!(flags & FD_CLOEXEC))
        test_fail(file, line, "%s = %d lacks FD_CLOEXEC", expr, fd);
}

int test_render_node(char *path, size_t size)
{
    for (int i = 128; i < 192; i++) {
        int fd;

        snprintf(path, size, "/dev/dri/renderD%d", i);
        fd = open(path, O_RDWR | O_CLOEXEC);
        if (fd >= 0) {
            test_note("render node %s", path);
            return fd;
        }
    }
    return -1;
}
