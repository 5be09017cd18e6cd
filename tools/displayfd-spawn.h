/*
 * Starting an X server that picks its own display number and writes it to
 * an fd (Xvfb's -displayfd, mock-x-server's --displayfd): the caller never
 * looks for a free number, so servers started at the same time by parallel
 * builds cannot race for one.  The server writes "N\n" once it accepts
 * clients; the number is read from a pipe on the server's fd 3.
 */
#ifndef DISPLAYFD_SPAWN_H
#define DISPLAYFD_SPAWN_H

#include <sys/types.h>

enum {
    /* The server's stdout, or its stderr, goes to /dev/null (Xvfb's
     * chatter, the mock's "ready" line in a test's TAP output); otherwise
     * it is ours, for diagnostics. */
    DISPLAYFD_NO_STDOUT = 1 << 0,
    DISPLAYFD_NO_STDERR = 1 << 1,
    /* The server is the system's: run it without LD_LIBRARY_PATH and
     * LD_PRELOAD, which libtool's wrappers and sanitizer runs set for our
     * uninstalled libraries (Xvfb's GL would load our libxcb-dri3 through
     * Mesa, and an instrumented one cannot be loaded there). */
    DISPLAYFD_SYSTEM_LIBS = 1 << 2,
};

/* Forks and runs argv[0] (looked up in PATH when it has no slash) with
 * argv, which must ask the server to write its number to fd 3.  The
 * server's stdin is /dev/null (it must not read a test harness's input),
 * and it gets SIGTERM when the thread that started it ends.  Returns the
 * read end of the pipe (close-on-exec) and sets *pid, or -1 with errno. */
int displayfd_spawn(char *const argv[], unsigned flags, pid_t *pid);

/* The same fork and exec for any server: fd3 (when not -1) becomes the
 * server's fd 3, and extra_env ("NAME=value" strings, NULL-terminated;
 * NULL for none) is set in its environment, over ours.  For servers that
 * say their display some other way (weston writes it to its log).
 * Returns 0 and sets *pid, or -1 with errno. */
int server_spawn(char *const argv[], char *const extra_env[], unsigned flags, int fd3,
                 pid_t *pid);

/* Reads the server's "N\n" from fd within timeout_ms (fd stays open).
 * Returns N, or -1 with errno ETIMEDOUT (nothing in time), EPROTO (not a
 * number, or the fd closed first: the server died) or another errno. */
int displayfd_read(int fd, int timeout_ms);

/* Both, for one server: returns the display number and sets *pid, or -1
 * with a message on stderr after stopping the server (child_stop()). */
int displayfd_start(char *const argv[], unsigned flags, int timeout_ms, pid_t *pid);

/* displayfd_spawn() and displayfd_start() with extra_env set in the
 * server's environment, as server_spawn() does (Xephyr's DISPLAY). */
int displayfd_spawn_env(char *const argv[], char *const extra_env[], unsigned flags, pid_t *pid);
int displayfd_start_env(char *const argv[], char *const extra_env[], unsigned flags,
                        int timeout_ms, pid_t *pid);

#endif
