/*
 * Fd helpers shared by the test programs: close-on-exec memfds (stand-ins
 * for dma-bufs, fence pages and DRM devices) and checks of what an fd is.
 * Every check ends the test with a failure at the caller's line.
 */
#ifndef TEST_FDS_H
#define TEST_FDS_H

#include <stddef.h>
#include <stdint.h>

/* What identifies an open file across fd passing: the same file has the
 * same pair in every process that holds it. */
struct fd_id {
    uint64_t dev, ino;
};

/* A new close-on-exec memfd of size bytes; *id receives its identity when
 * id != NULL. */
int test_memfd(const char *name, size_t size, struct fd_id *id);
/* A close-on-exec duplicate, for a request that closes what it is given. */
int test_dup(int fd);

/* The first render node this process can open read-write
 * (/dev/dri/renderD128 onwards): its fd (close-on-exec), its path in
 * path[size] and as a TAP note; -1 when there is none (the tests that
 * need one skip). */
int test_render_node(char *path, size_t size);

#define FD_ID(fd) fd_identity(__FILE__, __LINE__, (fd))
struct fd_id fd_identity(const char *file, int line, int fd);

/* fd is open and refers to the file id. */
#define CHECK_FD_IS(fd, id) check_fd_is(__FILE__, __LINE__, #fd, (fd), (id))
void check_fd_is(const char *file, int line, const char *expr, int fd, struct fd_id id);

/* fd is not open in this process. */
#define CHECK_FD_CLOSED(fd) check_fd_closed(__FILE__, __LINE__, #fd, (fd))
void check_fd_closed(const char *file, int line, const char *expr, int fd);

/* fd has FD_CLOEXEC set. */
#define CHECK_CLOEXEC(fd) check_cloexec(__FILE__, __LINE__, #fd, (fd))
void check_cloexec(const char *file, int line, const char *expr, int fd);

#endif
