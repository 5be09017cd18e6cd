#define _GNU_SOURCE
#include "test-runner.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* Provided by the linker for the section that TEST() fills. */
extern const struct test __start_test_section[];
extern const struct test __stop_test_section[];

enum result { RESULT_PASS = 1, RESULT_FAIL, RESULT_SKIP };

#define EXIT_SKIP 77

/*
 * What a test says about itself.  It lives in a shared anonymous mapping so
 * that a forked child can hand it to the runner even when it dies of a
 * signal half-way, and without any fd that would disturb the fd count.
 */
struct report {
    char skip_reason[512];
    size_t diag_len;
    bool truncated;
    char diag[60 * 1024];
};

static struct report *report;
static jmp_buf test_jmp;
static volatile enum result jump_result;
static bool in_test;

static void diag_vappend(const char *fmt, va_list ap)
{
    size_t room = sizeof(report->diag) - report->diag_len;
    int n = vsnprintf(report->diag + report->diag_len, room, fmt, ap);

    if (n < 0)
        return;
    if ((size_t)n >= room) {
        report->diag_len = sizeof(report->diag) - 1;
        report->truncated = true;
    } else {
        report->diag_len += (size_t)n;
    }
}

__attribute__((format(printf, 1, 2)))
static void diag(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    diag_vappend(fmt, ap);
    va_end(ap);
}

static __attribute__((noreturn)) void end_test(enum result r)
{
    if (in_test) {
        /* C allows setjmp() only as a bare condition, so the result travels
         * beside the jump rather than as its value. */
        jump_result = r;
        longjmp(test_jmp, 1);
    }
    /* A helper failed outside any test: nothing to return to. */
    fprintf(stderr, "%.*s", (int)report->diag_len, report->diag);
    abort();
}

void test_note(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    diag_vappend(fmt, ap);
    va_end(ap);
    diag("\n");
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    diag("%s:%d: ", file, line);
    va_start(ap, fmt);
    diag_vappend(fmt, ap);
    va_end(ap);
    diag("\n");
    end_test(RESULT_FAIL);
}

void test_skip(const char *file, int line, const char *fmt, ...)
{
    va_list ap;

    (void)file;
    (void)line;
    va_start(ap, fmt);
    vsnprintf(report->skip_reason, sizeof(report->skip_reason), fmt, ap);
    va_end(ap);
    end_test(RESULT_SKIP);
}

void test_fail_eq(const char *file, int line, const char *expr_a, const char *expr_b,
                  unsigned long long a, unsigned long long b)
{
    diag("%s:%d: CHECK_EQ(%s, %s) failed\n", file, line, expr_a, expr_b);
    diag("  %s = %llu / %lld (0x%llx)\n", expr_a, a, (long long)a, a);
    diag("  %s = %llu / %lld (0x%llx)\n", expr_b, b, (long long)b, b);
    end_test(RESULT_FAIL);
}

static void dump_row(const char *label, const unsigned char *p, size_t off, size_t len)
{
    diag("  %06zx %s:", off, label);
    for (size_t i = 0; i < len; i++)
        diag(" %02x", p[off + i]);
    diag("\n");
}

void test_fail_mem(const char *file, int line, const char *expr_a, const char *expr_b,
                   const void *a, const void *b, size_t n)
{
    const unsigned char *pa = a, *pb = b;
    size_t first = 0, start, end;

    while (first < n && pa[first] == pb[first])
        first++;
    diag("%s:%d: CHECK_MEM(%s, %s, %zu) failed: first difference at offset %zu (0x%zx)\n",
         file, line, expr_a, expr_b, n, first, first);
    diag("  a = %s, b = %s\n", expr_a, expr_b);

    /* Long buffers (a 24 KiB reply) would bury the point: show up to 32 rows
     * from two rows before the first difference. */
    start = first & ~(size_t)15;
    start = start >= 32 ? start - 32 : 0;
    end = n - start > 512 ? start + 512 : n;
    if (start > 0)
        diag("  ... %zu bytes before not shown\n", start);
    for (size_t off = start; off < end; off += 16) {
        size_t len = end - off < 16 ? end - off : 16;
        bool differs = memcmp(pa + off, pb + off, len) != 0;

        dump_row("a", pa, off, len);
        dump_row("b", pb, off, len);
        if (differs) {
            size_t last = len;

            while (pa[off + last - 1] == pb[off + last - 1])
                last--;
            diag("           ");
            for (size_t i = 0; i < last; i++)
                diag("%s", pa[off + i] != pb[off + i] ? " ^^" : "   ");
            diag("\n");
        }
    }
    if (end < n)
        diag("  ... %zu bytes after not shown\n", n - end);
    end_test(RESULT_FAIL);
}

/* ---- open fds ------------------------------------------------------------ */

struct fd_entry {
    int fd;
    char target[256];
};

struct fd_list {
    struct fd_entry *v;
    size_t n;
};

static void fd_target(int fd, char *buf, size_t size)
{
    char path[64];
    ssize_t len;

    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    len = readlink(path, buf, size - 1);
    if (len < 0)
        len = snprintf(buf, size, "(readlink: %s)", strerror(errno));
    buf[len] = '\0';
}

static int cmp_fd(const void *a, const void *b)
{
    const struct fd_entry *x = a, *y = b;

    return (x->fd > y->fd) - (x->fd < y->fd);
}

/* The snapshot is taken with malloc'd memory, not fds, so it does not
 * perturb what it measures (only the directory's own fd, which it skips). */
static bool fd_snapshot(struct fd_list *l)
{
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *de;
    size_t cap = 0;

    l->v = NULL;
    l->n = 0;
    if (!dir)
        return false;
    while ((de = readdir(dir))) {
        char *end;
        long fd = strtol(de->d_name, &end, 10);

        if (de->d_name[0] == '.' || *end != '\0' || fd == dirfd(dir))
            continue;
        if (l->n == cap) {
            cap = cap ? 2 * cap : 32;
            l->v = realloc(l->v, cap * sizeof(*l->v));
            if (!l->v)
                abort();
        }
        l->v[l->n].fd = (int)fd;
        fd_target((int)fd, l->v[l->n].target, sizeof(l->v[l->n].target));
        l->n++;
    }
    closedir(dir);
    qsort(l->v, l->n, sizeof(*l->v), cmp_fd);
    return true;
}

int test_count_fds(void)
{
    struct fd_list l;
    int n;

    if (!fd_snapshot(&l))
        return -1;
    n = (int)l.n;
    free(l.v);
    return n;
}

/* Reports every difference; returns whether there was one. */
static bool fd_compare(const struct fd_list *before, const struct fd_list *after)
{
    size_t i = 0, j = 0;
    bool differs = false;

    while (i < before->n || j < after->n) {
        const struct fd_entry *b = i < before->n ? &before->v[i] : NULL;
        const struct fd_entry *a = j < after->n ? &after->v[j] : NULL;

        if (b && a && b->fd == a->fd) {
            if (strcmp(b->target, a->target) != 0) {
                diag("fd %d changed from %s to %s\n", a->fd, b->target, a->target);
                differs = true;
            }
            i++;
            j++;
        } else if (a && (!b || a->fd < b->fd)) {
            diag("leaked fd %d -> %s\n", a->fd, a->target);
            differs = true;
            j++;
        } else {
            diag("fd %d -> %s was open before the test and is closed now\n", b->fd,
                 b->target);
            differs = true;
            i++;
        }
    }
    return differs;
}

/* ---- running ------------------------------------------------------------- */

static enum result run_body(const struct test *t)
{
    struct fd_list before, after;
    enum result r;

    if (!fd_snapshot(&before)) {
        diag("cannot list /proc/self/fd: %s\n", strerror(errno));
        return RESULT_FAIL;
    }
    in_test = true;
    if (setjmp(test_jmp) != 0) {
        r = jump_result;
    } else {
        t->run();
        if (!fd_snapshot(&after)) {
            diag("cannot list /proc/self/fd: %s\n", strerror(errno));
            r = RESULT_FAIL;
        } else {
            r = fd_compare(&before, &after) ? RESULT_FAIL : RESULT_PASS;
            free(after.v);
        }
    }
    in_test = false;
    free(before.v);
    return r;
}

static enum result run_forked(const struct test *t, unsigned timeout)
{
    int status;
    pid_t pid;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) {
        diag("fork: %s\n", strerror(errno));
        return RESULT_FAIL;
    }
    if (pid == 0) {
        enum result r;

        alarm(timeout);
        r = run_body(t);
        /* exit(), not _exit(): sanitizers report leaks from atexit. */
        exit(r == RESULT_PASS ? 0 : r == RESULT_SKIP ? EXIT_SKIP : 1);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            diag("waitpid: %s\n", strerror(errno));
            return RESULT_FAIL;
        }
    }
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 0)
            return RESULT_PASS;
        if (WEXITSTATUS(status) == EXIT_SKIP)
            return RESULT_SKIP;
        if (WEXITSTATUS(status) != 1)
            diag("test exited with status %d\n", WEXITSTATUS(status));
        return RESULT_FAIL;
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        diag("timed out after %u s\n", timeout);
    else if (WIFSIGNALED(status))
        diag("killed by signal %d (%s)\n", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return RESULT_FAIL;
}

static void print_diag(void)
{
    const char *p = report->diag, *end = report->diag + report->diag_len;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

        printf("# %.*s\n", (int)len, p);
        p += len + (nl != NULL);
    }
    if (report->truncated)
        printf("# (diagnostics truncated)\n");
}

/* TAP has no escape for '#' or a newline in a skip reason. */
static void print_reason(const char *s)
{
    for (; *s; s++)
        putchar(*s == '\n' || *s == '#' ? ' ' : *s);
}

static int cmp_test(const void *a, const void *b)
{
    const struct test *x = *(const struct test *const *)a;
    const struct test *y = *(const struct test *const *)b;
    int c = strcmp(x->file, y->file);

    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static bool env_flag(const char *name)
{
    const char *v = getenv(name);

    return v && *v && strcmp(v, "0") != 0;
}

int main(void)
{
    const struct test **tests;
    size_t ntests = (size_t)(__stop_test_section - __start_test_section);
    const char *only = getenv("TEST_ONLY");
    const char *timeout_env = getenv("TEST_TIMEOUT");
    bool nofork = env_flag("TEST_NOFORK");
    unsigned timeout = 10;
    int planned = 0, number = 0, failed = 0;

    if (only && !*only)
        only = NULL;
    if (timeout_env && *timeout_env) {
        char *end;
        unsigned long v = strtoul(timeout_env, &end, 10);

        if (*end == '\0' && v > 0 && v < UINT_MAX)
            timeout = (unsigned)v;
    }

    /* A test that writes to a socket whose peer is gone should see EPIPE and
     * report it, not vanish with a signal. */
    signal(SIGPIPE, SIG_IGN);

    report = mmap(NULL, sizeof(*report), PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (report == MAP_FAILED) {
        printf("Bail out! mmap: %s\n", strerror(errno));
        return 1;
    }

    tests = calloc(ntests ? ntests : 1, sizeof(*tests));
    if (!tests) {
        printf("Bail out! out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < ntests; i++)
        tests[i] = &__start_test_section[i];
    qsort(tests, ntests, sizeof(*tests), cmp_test);

    for (size_t i = 0; i < ntests; i++)
        if (!only || strcmp(only, tests[i]->name) == 0)
            planned++;
    if (only && planned == 0) {
        printf("Bail out! TEST_ONLY=%s: no such test\n", only);
        return 1;
    }
    printf("1..%d\n", planned);

    for (size_t i = 0; i < ntests; i++) {
        const struct test *t = tests[i];
        enum result r;

        if (only && strcmp(only, t->name) != 0)
            continue;
        memset(report, 0, sizeof(*report));
        r = nofork ? run_body(t) : run_forked(t, timeout);
        number++;
        switch (r) {
        case RESULT_PASS:
            printf("ok %d - %s\n", number, t->name);
            break;
        case RESULT_SKIP:
            printf("ok %d - %s # SKIP ", number, t->name);
            print_reason(report->skip_reason);
            putchar('\n');
            break;
        default:
            printf("not ok %d - %s\n", number, t->name);
            print_diag();
            failed++;
            break;
        }
        fflush(stdout);
    }
    free(tests);
    return failed ? 1 : 0;
}
