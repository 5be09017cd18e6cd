/*
 * What api-use.c and api-use-14.c share: the compile-time checks of a
 * member's type and a type's size, a minimal TAP reporter and the table
 * entry that pins a function's prototype.  Not test-runner.h: these
 * programs are also built against Debian's headers and libraries, and by
 * prefix-install.sh with nothing but pkg-config's flags, so they stand
 * alone; a quoted include finds this header beside them in every build.
 * The including file defines _POSIX_C_SOURCE first (O_CLOEXEC under
 * -std=c11).
 */
#ifndef API_CHECK_H
#define API_CHECK_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>

/* ---- compile-time checks ---------------------------------------------- */

/* A member exists and has exactly this type (qualifiers included): &m is
 * matched rather than m because _Generic's lvalue conversion would drop
 * qualifiers and decay arrays. */
#define MEMBER(T, m, type) \
    _Static_assert(_Generic(&((T *)0)->m, type *: 1, default: 0), #T "." #m " is " #type)
#define ARRAY(T, m, elem, n) \
    _Static_assert(_Generic(&((T *)0)->m, elem (*)[n]: 1, default: 0), \
                   #T "." #m " is " #elem "[" #n "]")
#define AT(T, m, off) _Static_assert(offsetof(T, m) == (off), #T "." #m " at " #off)
#define SIZE(T, n) _Static_assert(sizeof(T) == (n), "sizeof(" #T ") == " #n)

/* ---- a minimal TAP reporter -------------------------------------------- */

static int test_count;
static int test_failed;
static int any_failed;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("# %s:%d: failed: %s\n", __FILE__, __LINE__, #cond);    \
            test_failed = 1;                                               \
        }                                                                  \
    } while (0)

#define CHECK_EQ(a, b)                                                     \
    do {                                                                   \
        long long a_ = (long long)(a), b_ = (long long)(b);                \
        if (a_ != b_) {                                                    \
            printf("# %s:%d: %s == %lld, expected %s == %lld\n",           \
                   __FILE__, __LINE__, #a, a_, #b, b_);                    \
            test_failed = 1;                                               \
        }                                                                  \
    } while (0)

/* Byte offset of pointer p from the start of buffer base. */
#define OFF(p, base) ((const char *)(p) - (const char *)(base))

static inline void run(const char *name, void (*fn)(void))
{
    test_failed = 0;
    fn();
    printf("%s %d - %s\n", test_failed ? "not ok" : "ok", ++test_count, name);
    any_failed |= test_failed;
    fflush(stdout);
}

/* ---- every function, by its exact prototype ---------------------------- */

/* The compound literal is initialised by assignment, so a function whose
 * type differs from the spelled-out prototype (a parameter or return type, a
 * const) is a -Wincompatible-pointer-types error; only then is it cast to the
 * generic function pointer type for the table. */
#define FN(ret, name, params) { #name, (void (*)(void))(ret (*) params){ name } }

struct fn {
    const char *name;
    void (*addr)(void);
};

/* ---- fds handed to requests -------------------------------------------- */

/* A fresh fd to hand over; a failed open() would make the closed check
 * pass vacuously, so it fails the test instead. */
static inline int new_fd(void)
{
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

    CHECK(fd >= 0);
    return fd;
}

static inline int fd_is_closed(int fd)
{
    return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

#endif
