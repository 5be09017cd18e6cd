/*
 * Helpers for the end-to-end tests: each test starts its own mock X server
 * (mock/), talks to it through our generated libraries over a real
 * Unix socket, and afterwards reads the server's transcript to see what
 * arrived.  Every helper ends the test with a failure message when
 * something it needs does not work, so test bodies stay short.
 */
#ifndef E2E_UTIL_H
#define E2E_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <xcb/present.h>
#include <xcb/xcb.h>

#include "mock-server.h"
#include "test-fds.h"

/* One test's server, its connection and what the test learnt about both. */
struct e2e {
    struct mock_server *server;
    xcb_connection_t *c;
    xcb_window_t root;
    xcb_visualid_t root_visual;
    uint8_t root_depth;
    /* filled in by e2e_stop() */
    struct mock_transcript *transcript;
};

/*
 * Starts a mock server configured with the NULL-terminated list of
 * "key", "value" pairs that follows t (mock-server.h lists the keys) and
 * connects to it.  Any server still running when the test process exits
 * (a failed CHECK ends the test early) is stopped then.
 */
void e2e_start(struct e2e *t, ...) __attribute__((sentinel));
/* Disconnects, stops the server (which must exit cleanly) and reads its
 * transcript into t->transcript. */
void e2e_stop(struct e2e *t);
/* Frees everything, stopping the server if e2e_stop() was not called, and
 * checks that no child process is left behind. */
void e2e_end(struct e2e *t);

/* A mapped window of the root's depth and visual, a child of the root. */
xcb_window_t e2e_create_window(struct e2e *t, int16_t x, int16_t y, uint16_t width,
                               uint16_t height);
/* A core pixmap of the root's depth. */
xcb_pixmap_t e2e_create_pixmap(struct e2e *t, uint16_t width, uint16_t height);

/* Waits until the server has handled every request sent so far. */
void e2e_sync(struct e2e *t);

/* The extension is in QueryExtension's answer with the mock's opcode. */
void e2e_check_extension(struct e2e *t, xcb_extension_t *ext, uint8_t major);
/* Starts a mock server whose version of an extension is `version` ("1.2";
 * NULL: the mock's default) under the config key `key` ("dri3-version"),
 * and checks that the extension is there as by e2e_check_extension(). */
void e2e_start_version(struct e2e *t, const char *key, const char *version,
                       xcb_extension_t *ext, uint8_t major);

/* The checked request's X error: its code and the request it names. */
#define E2E_CHECK_ERROR(t, cookie, code, major, minor) \
    e2e_check_error(__FILE__, __LINE__, (t), (cookie), (code), (major), (minor))
void e2e_check_error(const char *file, int line, struct e2e *t, xcb_void_cookie_t cookie,
                     uint8_t code, uint8_t major, uint16_t minor);
/* The same for an error that came back from a *_reply() call. */
#define E2E_CHECK_REPLY_ERROR(e, code, major, minor) \
    e2e_check_reply_error(__FILE__, __LINE__, (e), (code), (major), (minor))
void e2e_check_reply_error(const char *file, int line, xcb_generic_error_t *e, uint8_t code,
                           uint8_t major, uint16_t minor);
/* A checked request succeeded. */
#define E2E_CHECK_OK(t, cookie) e2e_check_ok(__FILE__, __LINE__, (t), (cookie))
void e2e_check_ok(const char *file, int line, struct e2e *t, xcb_void_cookie_t cookie);

/* ---- the transcript (after e2e_stop) ------------------------------------ */

/* The i-th request with these opcodes; the test fails if there is none. */
const struct mock_request_record *e2e_request(struct e2e *t, uint8_t major, uint8_t minor,
                                              size_t i);
/* How many requests with these opcodes the server received. */
size_t e2e_count_requests(struct e2e *t, uint8_t major, uint8_t minor);
/* Little-endian fields of a recorded request at a byte offset (the test
 * fails if the request is shorter). */
uint8_t e2e_u8(const struct mock_request_record *r, size_t offset);
uint16_t e2e_u16(const struct mock_request_record *r, size_t offset);
uint32_t e2e_u32(const struct mock_request_record *r, size_t offset);
uint64_t e2e_u64(const struct mock_request_record *r, size_t offset);
/* A transcript "info" line contains text. */
bool e2e_info_contains(struct e2e *t, const char *text);

/* ---- fds ---------------------------------------------------------------- */

/* The request's i-th fd record is a memfd of the given file. */
/* Constants the tests share that no installed header we may use defines:
 * DRM's modifiers (drm_fourcc.h is not a dependency) and SYNC 3.1's Fence
 * error, first_error + 2 (xcb-proto's sync.xml lacks it). */
#define DRM_FORMAT_MOD_LINEAR 0ULL
#define DRM_FORMAT_MOD_INVALID 0x00ffffffffffffffULL
#define SYNC_BAD_FENCE 2

/* A recorded request's first word (its major and minor opcode, its length
 * in words), its size in bytes and the number of fds that came with it. */
#define E2E_CHECK_HEADER(r, major, minor, bytes, nfds) \
    e2e_check_header(__FILE__, __LINE__, (r), (major), (minor), (bytes), (nfds))
void e2e_check_header(const char *file, int line, const struct mock_request_record *r,
                      uint8_t major, uint8_t minor, size_t bytes, unsigned nfds);

/* A little-endian field of a recorded request and the value it must hold. */
struct e2e_field {
    size_t offset;
    unsigned size;              /* 1, 2, 4 or 8 bytes */
    uint64_t value;
};

/* The i-th request with these opcodes, its header checked as by
 * E2E_CHECK_HEADER() and then each of the fields that follow (struct
 * e2e_field initializers); it is returned for any further checks. */
#define E2E_CHECK_REQUEST(t, major, minor, i, bytes, nfds, ...)                             \
    e2e_check_request(__FILE__, __LINE__, (t), (major), (minor), (i), (bytes), (nfds),        \
                      (const struct e2e_field[]){ __VA_ARGS__ },                              \
                      sizeof((const struct e2e_field[]){ __VA_ARGS__ }) /                     \
                          sizeof(struct e2e_field))
const struct mock_request_record *e2e_check_request(const char *file, int line, struct e2e *t,
                                                    uint8_t major, uint8_t minor, size_t i,
                                                    size_t bytes, unsigned nfds,
                                                    const struct e2e_field *fields, size_t n);
#define E2E_CHECK_FD_RECORD(r, i, id) e2e_check_fd_record(__FILE__, __LINE__, (r), (i), (id))
void e2e_check_fd_record(const char *file, int line, const struct mock_request_record *r,
                         int i, struct fd_id id);
/* fd is open, close-on-exec, and a memfd whose name contains name. */
#define E2E_CHECK_MEMFD(fd, name) e2e_check_memfd(__FILE__, __LINE__, (fd), (name))
void e2e_check_memfd(const char *file, int line, int fd, const char *name);

/* Which fds are open (those below 1024), to find later which ones
 * appeared in between. */
struct e2e_fd_set {
    uint64_t bits[16];
};
void e2e_fd_snapshot(struct e2e_fd_set *set);
/* Closes the fds open now that were not in before and whose
 * /proc/self/fd target contains text, noting each; returns how many.
 * Only for fds libxcb keeps out of any caller's reach (see e2e-faults.c). */
int e2e_close_stray_fds(const struct e2e_fd_set *before, const char *text);

/* Maps size bytes of fd shared, read-write; unmap with munmap(). */
void *e2e_map(int fd, size_t size);

/* A fence page as libxshmfence makes it: a 4-byte memfd whose futex word
 * starts at `value` (0 untriggered, 1 triggered). */
int e2e_fence_page(int32_t value);

/* ---- events ------------------------------------------------------------- */

/* The next event of the special queue, waiting at most timeout_ms; NULL when
 * none came in time or the connection broke. */
xcb_generic_event_t *e2e_wait_special(struct e2e *t, xcb_special_event_t *se, int timeout_ms);

/* Present events of window w in a special queue of their own: registers the
 * queue, then selects mask for a new event id (*eid) with a checked
 * request. */
xcb_special_event_t *e2e_present_select(struct e2e *t, xcb_window_t w, uint32_t mask,
                                        uint32_t *eid);
/* The orderly teardown: select nothing (checked), then unregister. */
void e2e_present_unselect(struct e2e *t, xcb_special_event_t *se, xcb_window_t w, uint32_t eid);
/* The next event of the queue, which must be a Present event of evtype
 * (XCB_PRESENT_COMPLETE_NOTIFY ...) and arrive within 2 s; free() it. */
#define E2E_NEXT_PRESENT_EVENT(t, se, evtype) \
    e2e_next_present_event(__FILE__, __LINE__, (t), (se), (evtype))
void *e2e_next_present_event(const char *file, int line, struct e2e *t,
                             xcb_special_event_t *se, uint16_t evtype);
/* The CompleteNotify and the IdleNotify of one presentation, which may
 * come in either order, each within 2 s; any other event fails the test.
 * The caller checks and frees both. */
void e2e_wait_complete_and_idle(struct e2e *t, xcb_special_event_t *se,
                                xcb_present_complete_notify_event_t **complete,
                                xcb_present_idle_notify_event_t **idle);
/* The current MSC of w's CRTC, from a NotifyMSC for MSC 0 (which completes
 * at once); the queue must have no other event pending. */
uint64_t e2e_current_msc(struct e2e *t, xcb_special_event_t *se, xcb_window_t w);

#endif
