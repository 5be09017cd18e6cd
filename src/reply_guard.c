/*
 * See reply_guard.h. Kept out of the generated code so that both libraries
 * share one reviewed implementation.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* syscall() */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#ifdef __linux__
#include <linux/close_range.h>
#endif
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <xcb/xcbext.h>

#include "reply_guard.h"

void *
xcbdp_refuse_reply(xcb_connection_t *c, void *reply, const int *fds, unsigned int nfd,
                   xcb_extension_t *ext, uint8_t opcode, unsigned int sequence,
                   xcb_generic_error_t **e)
{
    for (unsigned int i = 0; i < nfd; i++)
        close(fds[i]);
    free(reply);
    if (e == NULL)
        return NULL;

    /* The extension's data is cached: the request went out, so it was queried. */
    const xcb_query_extension_reply_t *info = xcb_get_extension_data(c, ext);
    xcb_generic_error_t *err = calloc(1, sizeof(*err));

    if (err != NULL) {
        err->response_type = 0;
        err->error_code = XCB_LENGTH;
        err->sequence = (uint16_t) sequence;
        err->full_sequence = sequence;
        err->major_code = info != NULL ? info->major_opcode : 0;
        err->minor_code = opcode;
    }
    *e = err;
    return NULL;
}

/* Kernels before 5.11 lack CLOSE_RANGE_CLOEXEC (EINVAL), before 5.9
 * close_range (ENOSYS); then each fd takes an fcntl(). */
static atomic_int no_close_range;

/* Marks the fds first..last close-on-exec. */
static void
set_cloexec_range(int first, int last)
{
#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
    if (!atomic_load_explicit(&no_close_range, memory_order_relaxed)) {
        if (syscall(SYS_close_range, (unsigned int) first, (unsigned int) last,
                    CLOSE_RANGE_CLOEXEC) == 0)
            return;
        if (errno == ENOSYS || errno == EINVAL)
            atomic_store_explicit(&no_close_range, 1, memory_order_relaxed);
    }
#endif
    /* FD_CLOEXEC is the only fd flag, so no F_GETFD first. */
    for (int fd = first; fd <= last; fd++)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
}

void
xcbdp_reply_fds_set_cloexec(const int *fds, unsigned int nfd)
{
    /* A system call per run of consecutive fds, not per fd: the fds of one
     * reply are usually the lowest free numbers, in order (bench/README.md). */
    for (unsigned int i = 0; i < nfd;) {
        unsigned int j = i + 1;

        while (j < nfd && fds[j - 1] >= 0 && fds[j] == fds[j - 1] + 1)
            j++;
        if (fds[i] >= 0)
            set_cloexec_range(fds[i], fds[j - 1]);
        i = j;
    }
}
