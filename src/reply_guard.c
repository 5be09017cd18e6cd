/*
 * See reply_guard.h. Kept out of the generated code so that both libraries
 * share one reviewed implementation.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <fcntl.h>
#include <stdlib.h>
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

void
xcbdp_reply_fds_set_cloexec(const int *fds, unsigned int nfd)
{
    for (unsigned int i = 0; i < nfd; i++) {
        int flags = fcntl(fds[i], F_GETFD);

        if (flags >= 0 && !(flags & FD_CLOEXEC))
            fcntl(fds[i], F_SETFD, flags | FD_CLOEXEC);
    }
}
