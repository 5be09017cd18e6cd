/*
 * Checks the generated reply functions make before a caller sees a reply.
 *
 * Internal to the libraries: the symbols are not exported (the libraries
 * export only xcb_dri3_* and xcb_present_*).
 */
#ifndef XCBDP_REPLY_GUARD_H
#define XCBDP_REPLY_GUARD_H

#include <xcb/xcb.h>

/*
 * Where a reply's fds sit is the generator's to say (its model holds the
 * one rule): the generated code finds them and passes them in here.
 */

/*
 * Refuses a reply that does not hold what its counts promise: closes the
 * `nfd` fds that libxcb received with it (`fds`, NULL when `nfd` is 0),
 * frees it, and, when `e` is not NULL, stores in *e a BadLength error for
 * the request (`opcode` of `ext`, sent with `sequence`) that the caller
 * frees like any other.
 * Always returns NULL, so callers can `return xcbdp_refuse_reply(...)`.
 */
void *xcbdp_refuse_reply(xcb_connection_t *c, void *reply, const int *fds, unsigned int nfd,
                         xcb_extension_t *ext, uint8_t opcode, unsigned int sequence,
                         xcb_generic_error_t **e);

/*
 * Marks the `nfd` fds of a reply close-on-exec. libxcb receives them
 * without MSG_CMSG_CLOEXEC, so a fork+exec in another thread between
 * recvmsg() and this call can still inherit them; that window is libxcb's.
 */
void xcbdp_reply_fds_set_cloexec(const int *fds, unsigned int nfd);

#endif
