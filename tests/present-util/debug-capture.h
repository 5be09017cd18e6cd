/*
 * The swapchain's XCB_PRESENT_UTIL_DEBUG lines, caught for a test: stderr
 * goes into a memfd between debug_capture_start() and _end(), and the
 * swapchains created meanwhile log (the variable is read at create).
 * Start after the mock server: its child would write there too.
 */
#ifndef DEBUG_CAPTURE_H
#define DEBUG_CAPTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test-runner.h"

struct debug_capture {
    int saved, fd;
};

static inline void debug_capture_start(struct debug_capture *d)
{
    fflush(stderr);
    d->fd = memfd_create("debug-capture", MFD_CLOEXEC);
    d->saved = fcntl(2, F_DUPFD_CLOEXEC, 0);
    CHECK(d->fd >= 0 && d->saved >= 0);
    CHECK(dup2(d->fd, 2) == 2);
    setenv("XCB_PRESENT_UTIL_DEBUG", "1", 1);
}

/* stderr back, and what was written meanwhile (free() it). */
static inline char *debug_capture_end(struct debug_capture *d)
{
    off_t len;
    char *text;

    fflush(stderr);
    unsetenv("XCB_PRESENT_UTIL_DEBUG");
    CHECK(dup2(d->saved, 2) == 2);
    close(d->saved);
    len = lseek(d->fd, 0, SEEK_END);
    CHECK(len >= 0);
    text = calloc(1, (size_t)len + 1);
    CHECK(text != NULL);
    CHECK(pread(d->fd, text, (size_t)len, 0) == len);
    close(d->fd);
    return text;
}

/* The log has a line containing what; fails the test (showing the log)
 * when not. */
#define CHECK_LOGGED(log, what) check_logged(__FILE__, __LINE__, (log), (what))
static inline void check_logged(const char *file, int line, const char *log, const char *what)
{
    if (!strstr(log, what)) {
        test_note("debug log:\n%s", log);
        test_fail(file, line, "the debug log lacks \"%s\"", what);
    }
}

#endif
