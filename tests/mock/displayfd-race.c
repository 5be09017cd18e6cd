/*
 * mock-x-server --displayfd: servers started at the same moment pick
 * different display numbers by themselves, each accepts an ordinary
 * libxcb client on its number (past the abstract name it holds without
 * listening), and each gives the number back when stopped by its PID.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include "child-stop.h"
#include "displayfd-spawn.h"
#include "test-runner.h"

enum { SERVERS = 4, START_TIMEOUT_MS = 20000, STOP_TIMEOUT_MS = 5000 };

static char *server_path(void)
{
    static char path[4096];
    const char *top = getenv("TOP_BUILDDIR");

    snprintf(path, sizeof path, "%s/mock/mock-x-server", top ? top : ".");
    return path;
}

static bool exists(const char *fmt, int n)
{
    char path[64];

    snprintf(path, sizeof path, fmt, n);
    return access(path, F_OK) == 0;
}

/* True when the stopped server (number n, pid) left its socket or lock
 * file.  Tests running beside us may have taken the number since: then
 * the lock names them, and the socket is theirs. */
static bool left_behind(int n, pid_t pid)
{
    char path[64];
    FILE *f;
    long owner = -1;

    snprintf(path, sizeof path, "/tmp/.X%d-lock", n);
    f = fopen(path, "re");
    if (f) {
        if (fscanf(f, "%ld", &owner) != 1)
            owner = -1;
        fclose(f);
        return owner == (long)pid;
    }
    return exists("/tmp/.X11-unix/X%d", n);
}

TEST(servers_started_at_once_get_different_numbers)
{
    char *argv[] = { server_path(), "--displayfd", "3", "--transcript", "off", NULL };
    pid_t pid[SERVERS];
    int fd[SERVERS], number[SERVERS];

    /* All of them are running before we read the first number. */
    for (int i = 0; i < SERVERS; i++) {
        fd[i] = displayfd_spawn(argv, DISPLAYFD_NO_STDOUT, &pid[i]);
        CHECK(fd[i] >= 0);
    }
    for (int i = 0; i < SERVERS; i++) {
        number[i] = displayfd_read(fd[i], START_TIMEOUT_MS);
        close(fd[i]);
        if (number[i] < 0)
            test_note("server %d: %s", i, errno == EPROTO ? "no number" : "no answer");
        CHECK(number[i] >= 0);
    }
    for (int i = 0; i < SERVERS; i++)
        for (int j = 0; j < i; j++)
            CHECK(number[i] != number[j]);

    for (int i = 0; i < SERVERS; i++) {
        char display[16];
        xcb_connection_t *c;

        snprintf(display, sizeof display, ":%d", number[i]);
        c = xcb_connect(display, NULL);
        if (xcb_connection_has_error(c))
            test_note("no connection to %s", display);
        CHECK_EQ(xcb_connection_has_error(c), 0);
        CHECK(xcb_get_setup(c)->roots_len >= 1);
        xcb_disconnect(c);
    }

    for (int i = 0; i < SERVERS; i++) {
        CHECK_EQ(child_stop(pid[i], STOP_TIMEOUT_MS), 0);
        CHECK(!left_behind(number[i], pid[i]));
    }
}

/* Its number is taken while it runs: a server started next picks another. */
TEST(a_running_server_keeps_its_number)
{
    char *argv[] = { server_path(), "--displayfd", "3", "--transcript", "off", NULL };
    pid_t first, second;
    int a = displayfd_start(argv, DISPLAYFD_NO_STDOUT, START_TIMEOUT_MS, &first);
    int b;

    CHECK(a >= 0);
    CHECK(exists("/tmp/.X%d-lock", a));
    b = displayfd_start(argv, DISPLAYFD_NO_STDOUT, START_TIMEOUT_MS, &second);
    CHECK(b >= 0);
    CHECK(a != b);
    CHECK_EQ(child_stop(second, STOP_TIMEOUT_MS), 0);
    CHECK_EQ(child_stop(first, STOP_TIMEOUT_MS), 0);
}

TEST(a_displayfd_that_is_not_open_is_refused)
{
    char *argv[] = { server_path(), "--displayfd", "999", NULL };
    pid_t pid;
    int fd = displayfd_spawn(argv, DISPLAYFD_NO_STDOUT | DISPLAYFD_NO_STDERR, &pid);

    CHECK(fd >= 0);
    /* It exits without a number: end of file, not a wait to the limit. */
    CHECK_EQ(displayfd_read(fd, START_TIMEOUT_MS), -1);
    CHECK_EQ(errno, EPROTO);
    close(fd);
    CHECK_EQ(child_stop(pid, STOP_TIMEOUT_MS), -1);
}
