/*
 * A scripted X server for fuzzing the util libraries: unlike the stream of
 * fuzz-conn.c, which is written before the client reads, it answers each
 * request as it arrives, because the swapchain and the probe decide what to
 * ask next from the answers they got.
 *
 * It runs in the client's own thread, inside the client's waits
 * (fuzz-vtime.h): it answers the handshake and both QueryExtensions as
 * fuzz_conn_open() would, then takes, for every request, a few bytes of
 * the script:
 *
 *   action   what to do instead of a well-formed answer: an error, a stall
 *            of up to 50 ms, hang up, raw bytes, the answer cut short, a
 *            second reply, padding, no answer at all (only where the
 *            client's round trips are bounded; see allow_drop)
 *   values   each field of the answer, kept or replaced by 0, 1, +-1, all
 *            ones, a 16-bit or any 32/64-bit value
 *   fds      0-5 fds with the answer, each a memfd of some size, an empty
 *            file, either end of a pipe, a socket, a directory or /dev/null
 *   events   Present events after the answer: those a server sends for a
 *            PresentPixmap or NotifyMSC, and any others, with MSC and UST
 *            going backwards, wrapping or huge, wrong serials, event ids and
 *            kinds, cut short or padded, ConfigureNotify of 0x0 and
 *            65535x65535
 *
 * A byte of 0 always means "as a good server would", and a script that has
 * run out reads as zeros: every prefix of an input is a well-behaved server
 * with faults where the bytes say so.
 */
#ifndef FUZZ_SERVER_H
#define FUZZ_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fuzz-conn.h"

/* The window the drivers use: an id the client never allocates. */
#define FUZZ_WINDOW 0x00400001u
/* The longest a stall lasts (in the clock of fuzz-vtime.h, like every
 * time here); the client must live through it. */
#define FUZZ_MAX_STALL_MS 50
/* When the client has sent nothing for this long, the server hangs up
 * (and says so): longer than every bounded wait of the libraries. */
#define FUZZ_WATCHDOG_MS 1500

struct fuzz_server;

/* What the server did that the client's time may rightly go on. */
struct fuzz_server_report {
    unsigned requests;
    uint64_t stall_ms;          /* slept before answers */
    unsigned unanswered;        /* requests with a reply that got none with
                                 * their sequence number */
    bool watchdog;              /* hung up on a quiet client */
    bool watchdog_outstanding;  /* ... while a reply was owed, or after a
                                 * request the server could not read */
    bool raw_bytes;             /* sent bytes that are no packet: libxcb may
                                 * sit in its own unbounded read of a packet
                                 * whose header came and whose rest never
                                 * does (README.md, known findings) */
    char last_request[32];      /* "DRI3 3", "core 14": for messages */
};

/*
 * Starts the server on `fd`, the server's end of a socketpair whose other
 * end (`client_fd`) the caller then gives to xcb_connect_to_fd(): the
 * server answers the handshake too. The script is borrowed: it must stay
 * valid until fuzz_server_stop(). allow_drop permits "no answer" actions;
 * without it, the action plays as a normal answer. One server at a time.
 */
struct fuzz_server *fuzz_server_start(int fd, int client_fd, const uint8_t *script, size_t n,
                                      bool allow_drop);

/* Once the client has disconnected: answers what is left to read, closes
 * what it holds and fills *report. The fd model stays readable
 * through fuzz_server_fd_is_clients() until the next fuzz_server_start(). */
void fuzz_server_stop(struct fuzz_server *s, struct fuzz_server_report *report);

/* For fuzz-vtime.c: whether a wait now is the client's, on the thread of
 * the input, while a server runs (the server's own calls pass through);
 * the client's end of the connection; lets the server take in and answer
 * what has come, and whatever is due (a stall that has ended, its
 * watchdog); and when it next acts by itself (-1: never, until the client
 * sends something). */
bool fuzz_server_here(void);
int fuzz_server_client_fd(void);
void fuzz_server_pump(void);
int64_t fuzz_server_next_ns(void);

/*
 * The socket's contents, counted (fuzz-server-int.h), for fuzz-vtime.c:
 * the client's calls on its end report what they moved (n: their return
 * value, < 0 for nothing), and its polls and reads of an empty socket are
 * answered from the counts. A shutdown() or close() of the client's end
 * ends the counting for the input: from then on the kernel answers.
 */
void fuzz_server_client_wrote(ssize_t n);
void fuzz_server_client_read(ssize_t n, int err);
void fuzz_server_client_shut(void);
/* The revents a poll() of the client's end for `events` would give now,
 * or -1 where the counts cannot tell (the room left for a write while the
 * server has not read everything, a peer shut down, events other than
 * POLLIN, POLLOUT and POLLRDHUP). */
int fuzz_server_client_revents(short events);
/* Whether a read of the client's end with these flags would fail with
 * EAGAIN now: nothing to read, and the fd does not block. */
bool fuzz_server_client_read_empty(int flags);
/* Goes up whenever the server does something a client's wait could see
 * (bytes written or read, a shutdown, a fence triggered): a wait that saw
 * nothing need not look again until it has moved. */
uint64_t fuzz_server_acts(void);
/* Checks every answer of the counts against the kernel's (a finding when
 * they differ): FUZZ_VT_VERIFY=1, and always in the replays of `make
 * check` (built with -DFUZZ_VT_VERIFY). */
bool fuzz_server_verify(void);

/*
 * Whether an fd found open after the input belongs to the library: true
 * when every fd the server sent with that device and inode went with the
 * first reply to a request whose reply libxcb handed to the library (see
 * fuzz_server_mark_fetched()), following libxcb's fd queue. An fd that
 * libxcb kept (a reply nobody asked for, a connection error) is libxcb's.
 */
bool fuzz_server_fd_is_clients(dev_t dev, ino_t ino);
/* Whether the server sent an fd of that device and inode at all. */
bool fuzz_server_fd_was_sent(dev_t dev, ino_t ino);

/* Called from the xcb_wait_for_reply()/xcb_poll_for_reply() stand-ins:
 * the reply to `sequence` was handed to the library. */
void fuzz_server_mark_fetched(uint64_t sequence);

#endif
