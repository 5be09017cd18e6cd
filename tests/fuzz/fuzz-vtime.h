/*
 * The util targets' clock and waits (fuzz-vtime.c). The scripted server
 * (fuzz-server.h) runs in the client's own thread, and the client's waits
 * are where it runs: poll(), ppoll(), recvmsg() on the connection and the
 * futex waits of libxcb-dri3-util's fences first let the server take in
 * what has come and answer it; a wait that would then sleep skips to its
 * deadline, or to the moment the server acts by itself (the end of a
 * stall, its watchdog), at once. CLOCK_MONOTONIC is the real clock plus
 * every wait skipped so far, so that the library's and the harness's
 * reckoning of time (timeouts, the bound on an input) is as if each wait
 * had been slept, and a busy loop still sees time pass.
 *
 * The calls are replaced for the whole program (the executable's
 * definitions come first, for the library code linked in and for the
 * shared libraries alike); they act only inside an input, on the thread
 * that runs it, and pass straight through otherwise.
 */
#ifndef FUZZ_VTIME_H
#define FUZZ_VTIME_H

#include <stdint.h>

/* CLOCK_MONOTONIC as the library sees it, in ns. */
int64_t fuzz_vt_now(void);
/* Moves the clock on to t (nothing if t is not later). */
void fuzz_vt_advance_to(int64_t t);

#endif
