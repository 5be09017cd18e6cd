/*
 * with-server KIND COMMAND [ARG...]: runs a TAP test script against a
 * private server of that kind (tests/common/test-server.h), with DISPLAY
 * set to it, and stops the server by its PID when the command ends.  The
 * exit status is the command's.  When the server is not installed, the
 * whole script is skipped in TAP ("1..0 # SKIP ..."); when it is but does
 * not start, that is one failed test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-server.h"

int main(int argc, char **argv)
{
    struct test_server server;
    const char *why;
    int kind, r, status = 0;
    pid_t pid;

    if (argc < 3 || (kind = test_server_kind(argv[1])) < 0) {
        fprintf(stderr, "usage: with-server xvfb|xwayland|xephyr|xorg-dummy COMMAND [ARG...]\n");
        return 2;
    }
    r = test_server_start(&server, kind, 640, 480, &why);
    if (r > 0) {
        printf("1..0 # SKIP %s\n", why);
        return 0;
    }
    if (r < 0) {
        printf("1..1\nnot ok 1 - %s did not start: %s\n", argv[1], why);
        return 1;
    }
    setenv("DISPLAY", server.display, 1);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "with-server: cannot run %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    test_server_stop(&server);
    if (pid < 0)
        return 1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
