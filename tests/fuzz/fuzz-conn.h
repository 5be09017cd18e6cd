/*
 * What the fuzz targets share: a real libxcb connection on a socketpair to
 * a scripted "server" in the same process, a byte stream built from the
 * fuzzer's input and written to the client with 0-4 fds, and the check
 * that an input leaves no fd open.
 *
 * One connection per input. Once the stream is written, the server's side
 * shuts down for writing, so every libxcb wait ends at the latest when the
 * client reads end-of-file: no input can hang a target.
 */
#ifndef FUZZ_CONN_H
#define FUZZ_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <xcb/xcb.h>

/* Major opcodes the scripted server gives the two extensions. */
#define FUZZ_DRI3_MAJOR 140
#define FUZZ_PRESENT_MAJOR 141
/* The first request a target makes after the two QueryExtensions. */
#define FUZZ_FIRST_SEQ 3
/* The most fds one input sends. */
#define FUZZ_MAX_FDS 4

struct fuzz_conn {
    xcb_connection_t *c;
    int server;             /* the scripted server's end of the socketpair */
    unsigned int nfds;      /* fds sent with the stream */
    uint64_t ino[FUZZ_MAX_FDS];     /* their memfds' inodes, in order */
};

/* Connects, answers the handshake and both QueryExtensions. Returns false
 * (and leaves nothing open) if the connection cannot be made, which is the
 * harness's problem, not the input's: the caller aborts. */
bool fuzz_conn_open(struct fuzz_conn *fc);

/* Disconnects the client and closes the server's end. */
void fuzz_conn_close(struct fuzz_conn *fc);

/*
 * A stream of X11 packets made from fuzzer bytes: each packet takes 32
 * bytes, and a reply or Generic Event takes 4 * length more, its length
 * field masked to 14 bits (64 KiB) so that no input asks libxcb for
 * gigabytes, and the stream stops before 128 KiB (what a socket buffer
 * holds: the server writes it all before the client reads).
 * Input that runs out is padded with zeros unless `truncate` is set, in
 * which case the stream simply ends there (a packet cut short).
 * With `patch_seq`, every packet's sequence number becomes seq; either way
 * `with_seq` counts the replies and errors that carry seq.
 * `patch` runs on each packet (NULL for none), for target-specific fixes.
 */
struct fuzz_stream {
    uint8_t *bytes;
    size_t len;
    unsigned int packets;
    unsigned int with_seq;      /* replies and errors carrying `seq` */
};

typedef void (*fuzz_patch_fn)(uint8_t *packet, size_t len, void *data);

void fuzz_stream_build(struct fuzz_stream *s, const uint8_t *in, size_t n, uint16_t seq,
                       bool patch_seq, bool truncate, fuzz_patch_fn patch, void *data);
void fuzz_stream_free(struct fuzz_stream *s);

/* Writes the stream to the client with nfds new memfds attached to its first
 * byte (the harness closes its own copies), then, when `eof`, shuts the
 * server's side down for writing. */
void fuzz_conn_send(struct fuzz_conn *fc, const struct fuzz_stream *s, unsigned int nfds,
                    bool eof);

/* The set of open fds (the harness runs far below FUZZ_FD_LIMIT fds). */
#define FUZZ_FD_LIMIT 1024
struct fuzz_fds {
    bool open[FUZZ_FD_LIMIT];
};
void fuzz_fds_snapshot(struct fuzz_fds *set);
/*
 * Closes every fd open now that was not open in `before`. Those that are
 * one of the first `claimed` fds sent count in *ours, the other sent ones
 * in *libxcbs, anything else (a socket, say) in *ours too.
 */
void fuzz_fds_leaked(const struct fuzz_fds *before, const struct fuzz_conn *fc,
                     unsigned int claimed, int *ours, int *libxcbs);

/*
 * How many of the nfds fds libxcb attaches to the reply a client gets for
 * request `seq`, following libxcb's own rules: it widens each packet's
 * 16-bit sequence number against the last one read (starting from
 * `last_read`), and attaches byte 1's count of the fds received so far to
 * the first reply to the request, unless an error for it came first or the
 * count exceeds the fds there are. All fds are sent with the first byte.
 */
unsigned int fuzz_stream_claimed_fds(const struct fuzz_stream *s, uint64_t last_read,
                                     uint64_t seq, unsigned int nfds);

/*
 * Closes an fd the API handed over, after checking that it is open and,
 * when `want_cloexec`, close-on-exec. Aborts (a finding) otherwise.
 */
void fuzz_close_handed(int fd, bool want_cloexec);

/* poll() on one fd for `events` for up to timeout_ms, again when a signal
 * cuts it short: whether the fd is ready. */
bool fuzz_io_ready(int fd, short events, int timeout_ms);

/* The most fds one sendmsg() of a harness carries, and room for them. */
#define FUZZ_SEND_MAX_FDS 8
union fuzz_fd_control {
    struct cmsghdr align;
    char buf[CMSG_SPACE(sizeof(int) * FUZZ_SEND_MAX_FDS)];
};

/* Attaches fds (nfds of them, 1 to FUZZ_SEND_MAX_FDS) to msg as one
 * SCM_RIGHTS message kept in *control. */
void fuzz_attach_fds(struct msghdr *msg, union fuzz_fd_control *control, const int *fds,
                     unsigned int nfds);

/* Adds every byte of [p, p + n) to a sink the compiler cannot drop, so that
 * the sanitizers see each byte an accessor points at being read. */
void fuzz_touch(const void *p, size_t n);

/* Where a harness parks memory that libxcb leaks, so that leak checkers
 * see it reachable (fuzz-events.c). */
extern void *fuzz_keep_reachable;

/* Whether FUZZ_STRICT_LEAKS=1 asks for the fds libxcb's core leaks (those
 * of replies nobody claims or fetches) to count as findings too. */
bool fuzz_strict_leaks(void);

/* Prints a finding and aborts, so that libFuzzer saves the input. */
__attribute__((noreturn, format(printf, 1, 2)))
void fuzz_finding(const char *fmt, ...);

#endif
