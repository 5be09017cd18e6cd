/*
 * Claiming a free display number for mock-x-server --displayfd, the way X
 * servers claim theirs, so that the mock, Xvfb and other tests started at
 * the same moment never end up on one number:
 *
 *   1. the abstract socket name "\0/tmp/.X11-unix/XN", bound and never
 *      listened on: bind() is atomic and fails while anybody holds the
 *      name (Xvfb binds it too), and the kernel frees it when we die, so a
 *      crashed mock leaves nothing behind.  libxcb tries that name first;
 *      a bound socket that does not listen refuses the connection, and
 *      libxcb goes on to the path socket, where the mock serves.
 *   2. the lock file /tmp/.XN-lock with our PID (Xvfb's format), for
 *      servers and scripts that look only there.  A lock whose PID is
 *      gone is stale and replaced; with the name of step 1 held nobody
 *      else can be doing the same for N.
 *   3. no live server on the path socket /tmp/.X11-unix/XN (an older
 *      mock started with --display :N takes neither of the above).
 */
#ifndef MOCK_DISPLAY_CLAIM_H
#define MOCK_DISPLAY_CLAIM_H

#include <stdbool.h>
#include <stddef.h>

/* Where --displayfd starts looking: above the numbers that people's and
 * CI's servers use, below the fuzz targets' range (47000 and up). */
enum { MOCK_DISPLAY_FIRST = 100, MOCK_DISPLAY_LAST = 9999 };

struct mock_display_claim {
    int number;             /* -1: nothing claimed */
    int abstract_fd;
    char lock[32];          /* /tmp/.XN-lock */
};

/* Claims the first free number from MOCK_DISPLAY_FIRST on and writes its
 * socket path (/tmp/.X11-unix/XN, the directory made if missing) into
 * path.  0, or -1 with a message on stderr. */
int mock_display_claim(struct mock_display_claim *c, char *path, size_t size);

/* Gives the number back: the lock file goes, the abstract name is freed. */
void mock_display_release(struct mock_display_claim *c);

/* True when something accepts connections on the Unix socket path. */
bool mock_socket_in_use(const char *path);

/* /tmp/.X11-unix, everybody's and sticky, as X servers make it.  0 or -1. */
int mock_socket_dir(void);

#endif
