/*
 * Fences without waiting: creation, import (good pages and bad fds),
 * trigger/reset/query, and the proof that the uncontended paths make no
 * futex system call.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "fence-test-util.h"
#include "xcb_dri3_util.h"

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449 /* the same number on every architecture */
#endif

/* A memfd of the given size, as another party would make one. */
static int memfd_of_size(off_t size, unsigned int flags)
{
    int fd = memfd_create("fence-basic", MFD_CLOEXEC | flags);

    CHECK(fd >= 0);
    CHECK(ftruncate(fd, size) == 0);
    return fd;
}

static bool fd_is_open(int fd)
{
    return fcntl(fd, F_GETFD) >= 0;
}

TEST(create_untriggered)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    struct stat st;
    int fd;

    CHECK(f != NULL);
    fd = xcb_dri3_util_fence_fd(f);
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    CHECK(fstat(fd, &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK(st.st_size >= 4);
    CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    CHECK(fcntl(fd, F_GET_SEALS) & F_SEAL_SHRINK);
    /* Sealed: nobody can shrink the page under a mapping. */
    CHECK(ftruncate(fd, 0) < 0);
    CHECK_EQ(errno, EPERM);
    xcb_dri3_util_fence_destroy(f);
}

TEST(create_triggered)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(true);
    int32_t *word;

    CHECK(f != NULL);
    CHECK(xcb_dri3_util_fence_is_triggered(f));
    word = map_word(xcb_dri3_util_fence_fd(f));
    CHECK_EQ(*word, 1);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

/* The word's values are libxshmfence's: 0 untriggered, 1 triggered. */
TEST(trigger_reset_query)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));

    CHECK_EQ(*word, 0);
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0);
    CHECK(xcb_dri3_util_fence_is_triggered(f));
    CHECK_EQ(*word, 1);
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0); /* twice is harmless */
    CHECK_EQ(*word, 1);
    xcb_dri3_util_fence_reset(f);
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    CHECK_EQ(*word, 0);
    xcb_dri3_util_fence_reset(f); /* so is resetting an untriggered one */
    CHECK_EQ(*word, 0);
    /* A waiter's mark (-1) is "not triggered", and reset leaves it. */
    *word = -1;
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    xcb_dri3_util_fence_reset(f);
    CHECK_EQ(*word, -1);
    CHECK_EQ(xcb_dri3_util_fence_trigger(f), 0);
    CHECK_EQ(*word, 1);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

TEST(import_shares_the_page)
{
    xcb_dri3_util_fence_t *a = xcb_dri3_util_fence_create(false);
    int fd = fcntl(xcb_dri3_util_fence_fd(a), F_DUPFD_CLOEXEC, 0);
    xcb_dri3_util_fence_t *b = xcb_dri3_util_fence_import(fd);

    CHECK(b != NULL);
    CHECK_EQ(xcb_dri3_util_fence_fd(b), fd);
    xcb_dri3_util_fence_trigger(a);
    CHECK(xcb_dri3_util_fence_is_triggered(b));
    xcb_dri3_util_fence_reset(b);
    CHECK(!xcb_dri3_util_fence_is_triggered(a));
    xcb_dri3_util_fence_destroy(a);
    xcb_dri3_util_fence_destroy(b);
}

/* libxshmfence's pages are exactly 4 bytes, unsealed, close-on-exec. */
TEST(import_four_byte_page)
{
    int fd = memfd_of_size(4, 0);
    int32_t *word = map_word(fd);
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_import(fd);

    CHECK(f != NULL);
    xcb_dri3_util_fence_trigger(f);
    CHECK_EQ(*word, 1);
    unmap_word(word);
    xcb_dri3_util_fence_destroy(f);
}

/* Where memfd is missing, libxshmfence uses a regular file: valid too. */
TEST(import_regular_file)
{
    int fd = open(P_tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    xcb_dri3_util_fence_t *f;

    if (fd < 0)
        SKIP("no O_TMPFILE in %s: %s", P_tmpdir, strerror(errno));
    CHECK(ftruncate(fd, 4) == 0);
    f = xcb_dri3_util_fence_import(fd);
    CHECK(f != NULL);
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    xcb_dri3_util_fence_trigger(f);
    CHECK(xcb_dri3_util_fence_is_triggered(f));
    xcb_dri3_util_fence_destroy(f);
}

/* Fds from libxcb replies come without close-on-exec; the fence sets it. */
TEST(import_sets_cloexec)
{
    int fd = memfd_create("fence-basic", 0);
    xcb_dri3_util_fence_t *f;

    CHECK(fd >= 0);
    CHECK(ftruncate(fd, 4) == 0);
    f = xcb_dri3_util_fence_import(fd);
    CHECK(f != NULL);
    CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    xcb_dri3_util_fence_destroy(f);
}

/* Imports fd, which must be refused with errno want, and closed. */
static void check_refused(int fd, int want)
{
    errno = 0;
    CHECK(xcb_dri3_util_fence_import(fd) == NULL);
    CHECK_EQ(errno, want);
    CHECK(!fd_is_open(fd));
}

TEST(import_refuses_closed_fd)
{
    int fd = memfd_of_size(4, 0);

    close(fd);
    errno = 0;
    CHECK(xcb_dri3_util_fence_import(fd) == NULL);
    CHECK_EQ(errno, EBADF);
    CHECK(xcb_dri3_util_fence_import(-1) == NULL);
    CHECK_EQ(errno, EBADF);
}

TEST(import_refuses_too_small)
{
    check_refused(memfd_of_size(0, 0), EINVAL);
    check_refused(memfd_of_size(3, 0), EINVAL);
}

TEST(import_refuses_read_only)
{
    int rw = memfd_of_size(4, 0);
    char path[64];
    int ro;

    snprintf(path, sizeof(path), "/proc/self/fd/%d", rw);
    ro = open(path, O_RDONLY | O_CLOEXEC);
    CHECK(ro >= 0);
    close(rw);
    check_refused(ro, EACCES);
}

TEST(import_refuses_write_sealed)
{
    int fd = memfd_of_size(4, MFD_ALLOW_SEALING);

    CHECK(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE) == 0);
    check_refused(fd, EPERM);
}

TEST(import_refuses_pipe)
{
    int p[2];

    CHECK(pipe2(p, O_CLOEXEC) == 0);
    close(p[1]);
    check_refused(p[0], ENODEV);
}

TEST(import_refuses_socket)
{
    int sv[2];

    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    close(sv[1]);
    check_refused(sv[0], ENODEV);
}

TEST(import_refuses_directory)
{
    int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    CHECK(fd >= 0);
    check_refused(fd, ENODEV);
}

TEST(destroy_null)
{
    xcb_dri3_util_fence_destroy(NULL);
}

/* run_without_futex() (fence-test-util.h) with a new untriggered fence as
 * body's argument; returns the child's status. */
static int run_on_new_fence_without_futex(void (*body)(void *))
{
    xcb_dri3_util_fence_t *f;
    int status;

    if (RUNNING_ON_VALGRIND)
        SKIP("valgrind makes system calls of its own");
    f = xcb_dri3_util_fence_create(false);
    CHECK(f != NULL);
    status = run_without_futex(body, f);
    xcb_dri3_util_fence_destroy(f);
    return status;
}

static void uncontended_paths(void *fence)
{
    xcb_dri3_util_fence_t *f = fence;
    xcb_dri3_util_fence_t *both[2] = { f, f };

    for (int i = 0; i < 1000; i++) {
        if (xcb_dri3_util_fence_trigger(f) != 0 || !xcb_dri3_util_fence_is_triggered(f) ||
            xcb_dri3_util_fence_wait(f, -1) != 0 || xcb_dri3_util_fence_wait(f, 0) != 0 ||
            xcb_dri3_util_fence_wait_many(both, 2, true, -1, NULL) != 0 ||
            xcb_dri3_util_fence_wait_many(both, 2, false, -1, NULL) != 0)
            _exit(4);
        xcb_dri3_util_fence_reset(f);
        /* A zero timeout on an untriggered fence only looks. */
        if (xcb_dri3_util_fence_wait(f, 0) != -ETIMEDOUT)
            _exit(5);
    }
}

TEST(uncontended_paths_make_no_futex_call)
{
    CHECK_EQ(run_on_new_fence_without_futex(uncontended_paths), 0);
}

/* The filter works: a trigger that must wake a waiter is caught. */
static void contended_trigger(void *fence)
{
    xcb_dri3_util_fence_t *f = fence;
    int32_t *word = map_word(xcb_dri3_util_fence_fd(f));

    *word = -1; /* as a waiter leaves it */
    xcb_dri3_util_fence_trigger(f);
}

TEST(seccomp_filter_catches_a_wake)
{
    CHECK_EQ(run_on_new_fence_without_futex(contended_trigger), 128 + SIGSYS);
}

/* Caller mistakes the API can see: a clear error, no crash. */
TEST(null_arguments)
{
    xcb_dri3_util_fence_t *f = xcb_dri3_util_fence_create(false);
    xcb_dri3_util_fence_t *with_null[2] = { f, NULL };
    xcb_generic_error_t *err = (void *)1;

    CHECK_EQ(xcb_dri3_util_fence_trigger(NULL), -EINVAL);
    xcb_dri3_util_fence_reset(NULL);
    CHECK(!xcb_dri3_util_fence_is_triggered(NULL));
    CHECK_EQ(xcb_dri3_util_fence_fd(NULL), -1);
    CHECK_EQ(xcb_dri3_util_fence_wait(NULL, 0), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_wait(NULL, -1), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_wait_many(with_null, 2, false, -1, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(NULL, NULL, -1), -EINVAL);
    CHECK_EQ(xcb_dri3_util_fence_wait_conn(f, NULL, -1), -EINVAL);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_fence_to_server(NULL, 0, f, &err), XCB_NONE);
    CHECK(err == NULL);
    CHECK_EQ(errno, EINVAL);
    err = (void *)1;
    errno = 0;
    CHECK(xcb_dri3_util_fence_from_server(NULL, 0, 1, &err) == NULL);
    CHECK(err == NULL);
    CHECK_EQ(errno, EINVAL);
    /* Nothing happened to the fence. */
    CHECK(!xcb_dri3_util_fence_is_triggered(f));
    xcb_dri3_util_fence_destroy(f);
}

/* An fd that is not a fence page: each refusal has its errno, and the fd
 * is closed (the import owns it, whatever the outcome). */
TEST(import_refuses_out_of_range_fds)
{
    errno = 0;
    CHECK(xcb_dri3_util_fence_import(-1) == NULL);
    CHECK_EQ(errno, EBADF);
    errno = 0;
    CHECK(xcb_dri3_util_fence_import(INT_MAX) == NULL);
    CHECK_EQ(errno, EBADF);
}
