/*
 * One input of a util-library fuzz target: a connection to the scripted
 * server (fuzz-server.h), the target's driver over it, and the checks that
 * follow every input: no fd left open, and the clock (fuzz-vtime.h)
 * within what the driver's timeouts and the server's stalls allow.
 */
#ifndef FUZZ_UTIL_RUN_H
#define FUZZ_UTIL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>

/* The driver's part of the input: the first FUZZ_UTIL_HEAD bytes (zeros
 * where the input is shorter); the server's script is the rest. */
#define FUZZ_UTIL_HEAD 8
/* What an input may take beyond its budget: the work itself, under the
 * sanitizers, on a loaded machine. Generous on purpose. */
#define FUZZ_UTIL_MARGIN_NS 3000000000ll
/* A round trip the server left unanswered: the swapchain's bound. */
#define FUZZ_UTIL_ROUND_TRIP_NS 1000000000ll
/* The bound the harness gives libxcb-dri3-util's round trips, where the
 * library lets it (fuzz-util-timeout.c). */
#define FUZZ_UTIL_SET_TIMEOUT_NS 100000000ll

/* The target's calls, defined by each target (fuzz-swapchain.c,
 * fuzz-dri3util.c); LLVMFuzzerTestOneInput() is fuzz-util-run.c's. Adds
 * to *budget_ns every timeout it passes and every wait the library
 * documents (the swapchain's anchor, say). */
void fuzz_util_drive(xcb_connection_t *c, const uint8_t head[FUZZ_UTIL_HEAD],
                     int64_t *budget_ns);

/* Checks an fd the API handed over: open and close-on-exec. */
void fuzz_util_check_fd(int fd, const char *what);

/* Whether an errno value is among those listed (terminated by 0). */
bool fuzz_util_errno_in(int e, const int *allowed);

/* fuzz-util-timeout.c: whether the library has the call; sets the bound
 * when it has. */
bool fuzz_util_has_timeout(void);
bool fuzz_util_set_timeout(xcb_connection_t *c, int64_t timeout_ns);

#endif
