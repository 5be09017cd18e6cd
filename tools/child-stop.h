/*
 * Stopping a server we started, by its PID only: never by name, which
 * would also hit the servers of other builds running on the same machine.
 */
#ifndef CHILD_STOP_H
#define CHILD_STOP_H

#include <sys/types.h>

/* Sends SIGTERM to pid (a child of ours), waits up to timeout_ms for it
 * to exit, then sends SIGKILL and reaps it.  The child is always reaped.
 * Returns 0 when it exited with status 0 or by the SIGTERM, -1 otherwise
 * (a failure status, another signal, killed after the timeout, or pid is
 * not our child).  A pid <= 0 means "nothing started" and returns 0. */
int child_stop(pid_t pid, int timeout_ms);

#endif
