/*
 * A tiny test runner: each TEST() runs in its own fork()ed child under an
 * alarm() timeout, and fails if it leaves an fd open that was not open before
 * it started.  Results go to stdout as TAP, so automake's tap-driver.sh can
 * read them; every diagnostic line starts with "# ".
 *
 * Environment:
 *   TEST_NOFORK=1     run the tests in the runner's own process (for gdb);
 *                     no timeout then, and a failed test cannot clean up
 *   TEST_ONLY=name    run only the named test
 *   TEST_TIMEOUT=s    seconds per test instead of 10 (for valgrind)
 */
#ifndef TEST_RUNNER_H
#define TEST_RUNNER_H

#include <stddef.h>
#include <string.h> /* memcmp, for CHECK_MEM */

struct test {
    const char *name;
    void (*run)(void);
    const char *file;
    int line;
} __attribute__((aligned(16)));
/* aligned(16): every entry in the section has the same size and alignment,
 * whatever the compiler would otherwise pad, so the runner can walk it as an
 * array between __start_ and __stop_. */

/* Tests live in their own linker section, which the runner finds through the
 * linker's __start_/__stop_ symbols, so registration needs no constructor and
 * no global list.  The compiler may lay a file's entries out in any order
 * (GCC reverses them), so the runner sorts them by file and line. */
#define TEST(tname)                                                         \
    static void test_body_##tname(void);                                    \
    static const struct test test_entry_##tname                             \
        __attribute__((used, section("test_section"))) = {                  \
            #tname, test_body_##tname, __FILE__, __LINE__                   \
        };                                                                  \
    static void test_body_##tname(void)

/* The failure reporters end the current test (they do not return). */
__attribute__((noreturn, format(printf, 3, 4)))
void test_fail(const char *file, int line, const char *fmt, ...);
__attribute__((noreturn, format(printf, 3, 4)))
void test_skip(const char *file, int line, const char *fmt, ...);
__attribute__((noreturn))
void test_fail_eq(const char *file, int line, const char *expr_a, const char *expr_b,
                  unsigned long long a, unsigned long long b);
__attribute__((noreturn))
void test_fail_mem(const char *file, int line, const char *expr_a, const char *expr_b,
                   const void *a, const void *b, size_t n);

/* A "# " line in the test's diagnostics; shown only if the test fails. */
__attribute__((format(printf, 1, 2)))
void test_note(const char *fmt, ...);

/* Number of open fds of the calling process (for tests that check a
 * specific step, beyond the runner's check around the whole test). */
int test_count_fds(void);

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond))                                                        \
            test_fail(__FILE__, __LINE__, "CHECK(%s) failed", #cond);      \
    } while (0)

/* Integers of any width and signedness: both sides are widened to 64 bits
 * (sign-extended if signed), so -1 == (int16_t)-1 but -1 != 0xffffffffu. */
#define CHECK_EQ(a, b)                                                      \
    do {                                                                    \
        unsigned long long check_a_ = (unsigned long long)(a);             \
        unsigned long long check_b_ = (unsigned long long)(b);             \
        if (check_a_ != check_b_)                                           \
            test_fail_eq(__FILE__, __LINE__, #a, #b, check_a_, check_b_);   \
    } while (0)

#define CHECK_MEM(a, b, n)                                                  \
    do {                                                                    \
        const void *check_a_ = (a);                                         \
        const void *check_b_ = (b);                                         \
        size_t check_n_ = (n);                                              \
        if (memcmp(check_a_, check_b_, check_n_) != 0)                      \
            test_fail_mem(__FILE__, __LINE__, #a, #b, check_a_, check_b_,   \
                          check_n_);                                        \
    } while (0)

#define SKIP(...) test_skip(__FILE__, __LINE__, __VA_ARGS__)

#endif
