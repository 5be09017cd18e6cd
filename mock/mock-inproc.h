/*
 * The first words of an X server, in the client's own process: the setup
 * reply of a small fixed server and a libxcb connection on a socketpair
 * whose handshake a short-lived thread answers with it.  What comes after
 * the handshake is the caller's: the wire tests read each request and
 * write each answer themselves, the fuzz targets write a stream made from
 * their input, the codec benchmark answers as fast as it can.  (The mock
 * X server proper, mock-server.h, runs in a child and answers everything
 * itself.)
 */
#ifndef MOCK_INPROC_H
#define MOCK_INPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <xcb/xcb.h>

/* The setup's one screen: its root, colormap and (depth-24 TrueColor)
 * visual.  Resource ids start at 0x00200000. */
#define MOCK_INPROC_ROOT 0x00000123
#define MOCK_INPROC_COLORMAP 0x00000022
#define MOCK_INPROC_VISUAL 0x00000021
/* The setup's maximum-request-length, in 4-byte words (16 KiB): the least
 * a server may offer, so that a request needing BIG-REQUESTS still fits
 * in a socket buffer. */
#define MOCK_INPROC_MAX_REQUEST_WORDS 4096
/* Room for the setup reply. */
#define MOCK_INPROC_SETUP_MAX 128
/* The client's setup request (no authorization): 12 bytes. */
#define MOCK_INPROC_REQUEST_SIZE 12

/* The setup reply (X11 "Connection Setup", Success) into b; its length. */
size_t mock_inproc_setup_reply(uint8_t b[MOCK_INPROC_SETUP_MAX]);

/*
 * A libxcb connection to a new in-process server: *server_fd is the
 * server's end of the socketpair (close-on-exec, blocking), the client's
 * setup request is copied to request when it is not NULL.  Every read and
 * write of the handshake gives up after two seconds.  NULL, with nothing
 * left open and *error saying what failed, when the connection could not
 * be made.
 */
xcb_connection_t *mock_inproc_connect(int *server_fd,
                                      uint8_t request[MOCK_INPROC_REQUEST_SIZE],
                                      const char **error);

/* Writes all len bytes to fd (the server's end), each wait for room
 * bounded at two seconds: whether it could. */
bool mock_inproc_write(int fd, const void *bytes, size_t len);

/*
 * Makes DRI3 and Present known to c (from mock_inproc_connect()) with
 * these major opcodes: asks libxcb for both (QueryExtension, sequence 1
 * and 2) and writes both replies to server_fd before reading them, so
 * that the caller's first request is sequence 3.  The two requests stay
 * unread in the socket for the caller.  0, or -1 when the replies could
 * not be written or libxcb did not take them.
 */
int mock_inproc_know_extensions(xcb_connection_t *c, int server_fd, uint8_t dri3_major,
                                uint8_t present_major);

#endif
