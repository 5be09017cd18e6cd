/*
 * The mock X server: a small X11 server with DRI3 1.4 and Present 1.4
 * semantics, for tests and tools.  Memfds stand in for dma-bufs, a timer
 * stands in for the CRTC's vblank, and every request it receives is written
 * to a transcript that a test reads back.
 *
 * Two ways to use it:
 *   - the program, `mock-x-server --displayfd FD | --display :N |
 *     --socket PATH | --fd N`, with options (see mock-x-server --help) or
 *     a config file.  --displayfd FD is how scripts and tests start it: the
 *     server picks a free display itself (from :100 up, claimed with the
 *     abstract socket name and /tmp/.XN-lock as X servers do; see
 *     mock-display-claim.h), and once it accepts clients writes N and a
 *     newline to FD (Xvfb's -displayfd) and closes FD.  Nobody looks for a
 *     free number, so servers started at once never share one;
 *   - this library: a test builds a config, starts the server in a forked
 *     child on a socket in a fresh private directory, connects with
 *     ordinary libxcb, stops it and reads the transcript.
 *
 * Configuration keys (the program's --KEY VALUE options and the config
 * file's "KEY VALUE" lines are the same thing):
 *   dri3-version MAJ.MIN       highest DRI3 version (default 1.4); "none"
 *                              leaves DRI3 out of QueryExtension
 *   present-version MAJ.MIN    the same for Present (default 1.4, or "none")
 *   present-caps LIST          comma list of async,fence,ust,async-may-tear,
 *                              syncobj, or "none" (default async,fence,ust,
 *                              async-may-tear,syncobj)
 *   present-window-caps LIST   what QueryCapabilities answers for windows
 *                              other than the root (same syntax; default:
 *                              present-caps), as a window on a CRTC that
 *                              lacks a capability of the root's would;
 *                              the gates of requests follow present-caps
 *   dri3-open memfd|none|PATH  what DRI3 Open returns: a fresh memfd named
 *                              "mock-drm-device" (default), BadMatch ("none"),
 *                              or PATH opened read-write
 *   dri3-pixmap-fds any|dmabuf what PixmapFromBuffer(s) takes: memfds,
 *                              files and dma-bufs (default), or dma-bufs
 *                              only, BadAlloc for the rest (a GPU server,
 *                              whose glamor imports through GBM)
 *   modifiers-window LIST      comma list of 64-bit modifiers (decimal or 0x);
 *                              default "0" (DRM_FORMAT_MOD_LINEAR, as real
 *                              servers list), "" for an empty list
 *   modifiers-window-later MS:LIST  from MS ms after the start on, the
 *                              window's list is LIST (a window whose
 *                              supported layouts changed)
 *   modifiers-screen LIST      the same for the screen list
 *   msc-rate HZ                fake CRTC refresh rate (default 60)
 *   msc-rate-later MS:HZ       from MS ms after the start on, the CRTC counts
 *                              HZ vblanks a second (a screen that blanks)
 *   present-event-fault SPEC   alters the Present events the server sends,
 *                              as a broken server or proxy would:
 *                              drop-idle:N (every N-th IdleNotify is lost),
 *                              complete-msc:K:MSC (the K-th CompleteNotify
 *                              of a pixmap says MSC instead),
 *                              drop-all:K:N[:EVERY] (the K-th to the
 *                              K+N-1-th CompleteNotify of a pixmap and
 *                              IdleNotify are lost, again every EVERY),
 *                              configure-zero:K (a ConfigureNotify of 0x0
 *                              follows the K-th CompleteNotify of a pixmap),
 *                              proxy:SEED:PERCENT (PERCENT % of the
 *                              CompleteNotify of pixmaps and IdleNotify are
 *                              lost, duplicated or get another serial, at
 *                              random from SEED, as a bad proxy does);
 *                              may be given up to four times
 *   screen-size WxH            root window size (default 1024x768)
 *   shm on|off                 MIT-SHM 1.2 (AttachFd, CreatePixmap; default off)
 *   xfixes on|off              XFixes regions (CreateRegion, SetRegion,
 *                              DestroyRegion; default off): update regions
 *                              of presentations are written to the transcript
 *   present-complete-mode M    what a presentation's CompleteNotify says:
 *                              copy (default), flip (full-window pixmaps are
 *                              flipped and stay busy until the next one),
 *                              suboptimal (SuboptimalCopy where the client
 *                              set the Suboptimal option)
 *   syncobj-release signal|attach  what the server does with a release
 *                              point of a memfd timeline once it is done
 *                              with the pixmap: signal it (default), or
 *                              only make it available, as a server whose
 *                              GPU has yet to finish its copy (the test
 *                              signals the point itself, as that GPU would)
 *   transcript PATH            where the transcript goes (default: none for
 *                              the program, the private directory for tests);
 *                              "off": none, for long runs (tests/soak)
 *   stats PATH                 where a NoOperation request makes the server
 *                              write its resource counts (tests: the private
 *                              directory; see mock_server_stats())
 *   fault SPEC                 may be given many times; see below
 *
 * Fault specs, "KIND:TARGET[:ARG]".  TARGET is "MAJOR.MINOR" (the first
 * request with that opcode, in any client, triggers it once), "MAJOR" for a
 * core request, or "seq=N" (the N-th request of the first client):
 *   reply-length:T:DELTA  the reply's length field is off by DELTA words
 *   extra-fds:T:N         N more fds (memfds) than the reply carries
 *   missing-fds:T:N       N fds fewer than the reply carries
 *   wrong-fd:T            a pipe's read end instead of the fd the reply implies
 *   empty-fd:T            an empty memfd (size 0) instead of each fd of the reply
 *   bad-event:T           an XGE event of an unknown evtype before the reply
 *   close-after:T         close the connection after the request is handled
 *   close-mid-reply:T     send half of the reply, then close
 *   stall:T:MS            hold the reply (and everything after it) MS ms;
 *                         after a request without a reply, hold what
 *                         follows it (its effects stay)
 *   error:T:CODE          an X error CODE instead of the reply; a request
 *                         without a reply gets the error after it was
 *                         handled (its effects stay)
 *   no-reply:T            neither the reply nor an error: a broken server
 *                         that answers the next requests and never this one
 *
 * The transcript is text, one record per line:
 *   request client=C seq=S major=M minor=m length=L fds=N data=HEX
 *   fd index=I kind=memfd|file|dmabuf|pipe|socket|other size=BYTES dev=D ino=I
 *   info TEXT                          (things the server did, for humans)
 * "fd" lines follow their request.  seq is the 32-bit sequence number that
 * the server counted for that client (the first request after setup is 1),
 * length is in bytes, data is the whole request as hex.
 */
#ifndef MOCK_SERVER_H
#define MOCK_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <xcb/xcb.h>

struct mock_config;
struct mock_server;

/* ---- configuration -------------------------------------------------- */

struct mock_config *mock_config_new(void);
void mock_config_free(struct mock_config *cfg);
/* 0 on success; -1 with a message on stderr for an unknown key or a bad
 * value. */
int mock_config_set(struct mock_config *cfg, const char *key, const char *value);
/* "KEY VALUE" lines, '#' comments, blank lines ignored.  0 or -1. */
int mock_config_load(struct mock_config *cfg, const char *path);

/* ---- running in this process (what the program does) ----------------- */

/* Serves until SIGTERM or SIGINT arrives (the caller must have blocked
 * neither; the function installs its own handlers), then closes every
 * client and returns 0.  listen_fd is a listening Unix socket or -1;
 * client_fd is an already connected socket (a socketpair end) or -1.
 * Returns -1 on a setup failure. */
int mock_server_run(const struct mock_config *cfg, int listen_fd, int client_fd);

/* Creates, binds and listens on a Unix socket at path (removing a stale
 * socket first).  Returns the fd (close-on-exec) or -1 with errno set. */
int mock_listen_unix(const char *path);

/* ---- running in a child process (what tests do) ---------------------- */

/* Forks a child that serves on <private dir>/X0 with its transcript in
 * <private dir>/transcript.  Returns NULL with a message on stderr on
 * failure.  The parent keeps no fd of the child's. */
struct mock_server *mock_server_start(const struct mock_config *cfg);
/* The socket's path, for people and for xcb_connect-alikes. */
const char *mock_server_socket_path(const struct mock_server *s);
pid_t mock_server_pid(const struct mock_server *s);
/* A new libxcb connection to the server (xcb_connect_to_fd on a freshly
 * connected socket); never NULL, check xcb_connection_has_error(). */
xcb_connection_t *mock_server_connect(struct mock_server *s);
/* A connected socket, for tests that speak raw bytes; -1 on failure. */
int mock_server_connect_raw(struct mock_server *s);
/* SIGTERM, then waitpid.  Returns the child's exit status (0 for a clean
 * shutdown), or -1 if it died of a signal or did not stop within 5 s (it
 * is then killed with SIGKILL).  Safe to call twice. */
int mock_server_stop(struct mock_server *s);
/* Stops the server if it still runs, removes the private directory and
 * frees everything. */
void mock_server_free(struct mock_server *s);

/* What the server holds, all clients together (MOCK_RES_* in
 * mock-internal.h), for tests that check that nothing grows. */
struct mock_stats {
    unsigned clients, resources;
    unsigned windows, pixmaps, fences, syncobjs, gcs, shm_segments, event_selections;
};

/* Asks the server for its counts over c (a NoOperation request and a
 * round trip) and reads them.  0, or -1 when c or the file fails. */
int mock_server_stats(struct mock_server *s, xcb_connection_t *c, struct mock_stats *out);

/* ---- the transcript -------------------------------------------------- */

struct mock_fd_record {
    char kind[8];           /* "memfd", "file", "dmabuf", "pipe", "socket", "other" */
    uint64_t size;          /* st_size (0 for pipes and sockets) */
    uint64_t dev, ino;      /* the same file on both sides has the same pair */
};

struct mock_request_record {
    int client;             /* 1 for the first client, in connection order */
    uint32_t seq;
    uint8_t major, minor;   /* minor is byte 1 of the request */
    size_t length;          /* bytes */
    uint8_t *data;          /* the whole request */
    int nfds;
    struct mock_fd_record *fds;
};

struct mock_transcript {
    size_t n;
    struct mock_request_record *requests;
    size_t ninfo;
    char **info;            /* the "info" lines' text */
};

/* Reads the transcript written so far (complete once the server stopped).
 * NULL with a message on stderr if it cannot be read or parsed. */
struct mock_transcript *mock_server_transcript(struct mock_server *s);
struct mock_transcript *mock_transcript_read(const char *path);
void mock_transcript_free(struct mock_transcript *t);
/* The i-th request (0-based) with the given opcode, or NULL. */
const struct mock_request_record *mock_transcript_find(const struct mock_transcript *t,
                                                       uint8_t major, uint8_t minor,
                                                       size_t i);

/* The extension opcodes the mock assigns (QueryExtension answers with
 * these), so tests can read transcripts. */
enum {
    MOCK_GE_MAJOR = 128,
    MOCK_BIGREQ_MAJOR = 129,
    MOCK_SYNC_MAJOR = 130,
    MOCK_DRI3_MAJOR = 131,
    MOCK_PRESENT_MAJOR = 132,
    MOCK_SHM_MAJOR = 133,
    MOCK_XFIXES_MAJOR = 134,
    MOCK_XFIXES_FIRST_EVENT = 100,
    MOCK_XFIXES_FIRST_ERROR = 180,
    MOCK_SHM_FIRST_EVENT = 90,
    MOCK_SHM_FIRST_ERROR = 170,
    MOCK_SYNC_FIRST_EVENT = 80,
    MOCK_SYNC_FIRST_ERROR = 150,
};

#endif
