#include "e2e-util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-clock.h"
#include "test-runner.h"

/* ---- servers that must not outlive the test ---------------------------- */

/* A CHECK that fails ends the test by jumping out of its body, past the
 * test's own e2e_end(); the test process then exits.  These servers are
 * stopped at that exit so that no mock process lingers.  A test that hangs
 * dies of the runner's SIGALRM instead, without exit handlers: the alarm
 * handler kills the servers then. */
#define MAX_LIVE_SERVERS 8
static struct mock_server *live_servers[MAX_LIVE_SERVERS];
static volatile pid_t live_pids[MAX_LIVE_SERVERS];
static pid_t live_owner;   /* the process that started them */

static void kill_live_servers_on_alarm(int sig)
{
    /* Only async-signal-safe calls here. */
    for (size_t i = 0; i < MAX_LIVE_SERVERS; i++) {
        if (live_pids[i] > 0)
            kill(live_pids[i], SIGKILL);
    }
    /* Then die of the alarm as before, so the runner reports a timeout. */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void stop_live_servers(void)
{
    /* The mock's own child is a fork of the test and inherits this handler:
     * it must not stop its siblings. */
    if (getpid() != live_owner)
        return;
    for (size_t i = 0; i < MAX_LIVE_SERVERS; i++) {
        live_pids[i] = 0;
        if (live_servers[i])
            mock_server_free(live_servers[i]);
        live_servers[i] = NULL;
    }
}

static void remember_server(struct mock_server *s)
{
    static bool registered;

    if (!registered) {
        struct sigaction sa = { .sa_handler = kill_live_servers_on_alarm };

        CHECK(atexit(stop_live_servers) == 0);
        sigemptyset(&sa.sa_mask);
        CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
        registered = true;
    }
    live_owner = getpid();
    for (size_t i = 0; i < MAX_LIVE_SERVERS; i++) {
        if (!live_servers[i]) {
            live_servers[i] = s;
            live_pids[i] = mock_server_pid(s);
            return;
        }
    }
    mock_server_free(s);
    test_fail(__FILE__, __LINE__, "more than %d mock servers at once", MAX_LIVE_SERVERS);
}

static void forget_server(struct mock_server *s)
{
    for (size_t i = 0; i < MAX_LIVE_SERVERS; i++) {
        if (live_servers[i] == s) {
            live_pids[i] = 0;
            live_servers[i] = NULL;
        }
    }
}

/* ---- starting and stopping ------------------------------------------------ */

void e2e_start(struct e2e *t, ...)
{
    struct mock_config *cfg = mock_config_new();
    const xcb_setup_t *setup;
    xcb_screen_t *screen;
    const char *key;
    va_list ap;

    memset(t, 0, sizeof(*t));
    CHECK(cfg != NULL);
    va_start(ap, t);
    while ((key = va_arg(ap, const char *)) != NULL) {
        const char *value = va_arg(ap, const char *);

        if (mock_config_set(cfg, key, value) != 0) {
            va_end(ap);
            mock_config_free(cfg);
            test_fail(__FILE__, __LINE__, "mock config refused \"%s %s\"", key, value);
        }
    }
    va_end(ap);
    t->server = mock_server_start(cfg);
    mock_config_free(cfg);
    CHECK(t->server != NULL);
    remember_server(t->server);

    t->c = mock_server_connect(t->server);
    CHECK(t->c != NULL);
    CHECK_EQ(xcb_connection_has_error(t->c), 0);
    setup = xcb_get_setup(t->c);
    CHECK(xcb_setup_roots_length(setup) >= 1);
    screen = xcb_setup_roots_iterator(setup).data;
    t->root = screen->root;
    t->root_visual = screen->root_visual;
    t->root_depth = screen->root_depth;
}

void e2e_stop(struct e2e *t)
{
    if (t->c) {
        xcb_disconnect(t->c);
        t->c = NULL;
    }
    CHECK_EQ(mock_server_stop(t->server), 0);
    t->transcript = mock_server_transcript(t->server);
    CHECK(t->transcript != NULL);
}

void e2e_end(struct e2e *t)
{
    int status;

    if (t->c)
        xcb_disconnect(t->c);
    t->c = NULL;
    mock_transcript_free(t->transcript);
    t->transcript = NULL;
    forget_server(t->server);
    mock_server_free(t->server);
    t->server = NULL;
    /* The mock ran in a child of this process; it must be reaped by now. */
    CHECK(waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD);
}

/* ---- requests ------------------------------------------------------------ */

xcb_window_t e2e_create_window(struct e2e *t, int16_t x, int16_t y, uint16_t width,
                               uint16_t height)
{
    xcb_window_t w = xcb_generate_id(t->c);

    E2E_CHECK_OK(t, xcb_create_window_checked(t->c, t->root_depth, w, t->root, x, y, width,
                                              height, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                                              t->root_visual, 0, NULL));
    E2E_CHECK_OK(t, xcb_map_window_checked(t->c, w));
    return w;
}

xcb_pixmap_t e2e_create_pixmap(struct e2e *t, uint16_t width, uint16_t height)
{
    xcb_pixmap_t p = xcb_generate_id(t->c);

    E2E_CHECK_OK(t, xcb_create_pixmap_checked(t->c, t->root_depth, p, t->root, width, height));
    return p;
}

void e2e_sync(struct e2e *t)
{
    free(xcb_get_input_focus_reply(t->c, xcb_get_input_focus(t->c), NULL));
    CHECK_EQ(xcb_connection_has_error(t->c), 0);
}

void e2e_check_extension(struct e2e *t, xcb_extension_t *ext, uint8_t major)
{
    const xcb_query_extension_reply_t *q = xcb_get_extension_data(t->c, ext);

    CHECK(q != NULL);
    CHECK(q->present);
    CHECK_EQ(q->major_opcode, major);
}

void e2e_start_version(struct e2e *t, const char *key, const char *version,
                       xcb_extension_t *ext, uint8_t major)
{
    test_note("server %s %s", key, version ? version : "default");
    if (version)
        e2e_start(t, key, version, NULL);
    else
        e2e_start(t, NULL);
    e2e_check_extension(t, ext, major);
}

void e2e_check_reply_error(const char *file, int line, xcb_generic_error_t *e, uint8_t code,
                           uint8_t major, uint16_t minor)
{
    if (!e)
        test_fail(file, line, "expected X error %u, got none", code);
    if (e->error_code != code || e->major_code != major || e->minor_code != minor) {
        unsigned got = e->error_code, got_major = e->major_code, got_minor = e->minor_code;

        free(e);
        test_fail(file, line, "expected X error %u for %u.%u, got error %u for %u.%u", code,
                  major, minor, got, got_major, got_minor);
    }
    free(e);
}

void e2e_check_error(const char *file, int line, struct e2e *t, xcb_void_cookie_t cookie,
                     uint8_t code, uint8_t major, uint16_t minor)
{
    e2e_check_reply_error(file, line, xcb_request_check(t->c, cookie), code, major, minor);
}

void e2e_check_ok(const char *file, int line, struct e2e *t, xcb_void_cookie_t cookie)
{
    xcb_generic_error_t *e = xcb_request_check(t->c, cookie);

    if (e) {
        unsigned code = e->error_code, major = e->major_code, minor = e->minor_code;

        free(e);
        test_fail(file, line, "unexpected X error %u for %u.%u", code, major, minor);
    }
    if (xcb_connection_has_error(t->c))
        test_fail(file, line, "connection broke (%d)", xcb_connection_has_error(t->c));
}

/* ---- the transcript ------------------------------------------------------ */

const struct mock_request_record *e2e_request(struct e2e *t, uint8_t major, uint8_t minor,
                                              size_t i)
{
    const struct mock_request_record *r;

    CHECK(t->transcript != NULL);
    r = mock_transcript_find(t->transcript, major, minor, i);
    if (!r)
        test_fail(__FILE__, __LINE__, "no request %u.%u #%zu in the transcript", major, minor,
                  i);
    return r;
}

size_t e2e_count_requests(struct e2e *t, uint8_t major, uint8_t minor)
{
    size_t n = 0;

    CHECK(t->transcript != NULL);
    while (mock_transcript_find(t->transcript, major, minor, n))
        n++;
    return n;
}

static const uint8_t *field(const struct mock_request_record *r, size_t offset, size_t size)
{
    if (offset + size > r->length)
        test_fail(__FILE__, __LINE__, "request %u.%u is %zu bytes, field at %zu needs %zu",
                  r->major, r->minor, r->length, offset, offset + size);
    return r->data + offset;
}

uint8_t e2e_u8(const struct mock_request_record *r, size_t offset)
{
    return *field(r, offset, 1);
}

void e2e_check_header(const char *file, int line, const struct mock_request_record *r,
                      uint8_t major, uint8_t minor, size_t bytes, unsigned nfds)
{
    if (r->major != major || r->minor != minor)
        test_fail(file, line, "request %u.%u, expected %u.%u", r->major, r->minor, major,
                  minor);
    if (r->length != bytes)
        test_fail(file, line, "request of %zu bytes, expected %zu", (size_t) r->length, bytes);
    if (e2e_u16(r, 2) != bytes / 4)
        test_fail(file, line, "length field %u, expected %zu", e2e_u16(r, 2), bytes / 4);
    if ((unsigned) r->nfds != nfds)
        test_fail(file, line, "%u fds came with the request, expected %u", (unsigned) r->nfds,
                  nfds);
}

const struct mock_request_record *e2e_check_request(const char *file, int line, struct e2e *t,
                                                    uint8_t major, uint8_t minor, size_t i,
                                                    size_t bytes, unsigned nfds,
                                                    const struct e2e_field *fields, size_t n)
{
    const struct mock_request_record *r = e2e_request(t, major, minor, i);

    e2e_check_header(file, line, r, major, minor, bytes, nfds);
    for (size_t k = 0; k < n; k++) {
        const struct e2e_field *f = &fields[k];
        uint64_t got = f->size == 1 ? e2e_u8(r, f->offset)
                     : f->size == 2 ? e2e_u16(r, f->offset)
                     : f->size == 4 ? e2e_u32(r, f->offset)
                     : e2e_u64(r, f->offset);

        if (got != f->value)
            test_fail(file, line, "request %u.%u: the %u-byte field at %zu is %llu, expected %llu",
                      major, minor, f->size, f->offset, (unsigned long long)got,
                      (unsigned long long)f->value);
    }
    return r;
}

uint16_t e2e_u16(const struct mock_request_record *r, size_t offset)
{
    const uint8_t *p = field(r, offset, 2);

    return (uint16_t)(p[0] | p[1] << 8);
}

uint32_t e2e_u32(const struct mock_request_record *r, size_t offset)
{
    const uint8_t *p = field(r, offset, 4);

    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t e2e_u64(const struct mock_request_record *r, size_t offset)
{
    return (uint64_t)e2e_u32(r, offset) | (uint64_t)e2e_u32(r, offset + 4) << 32;
}

bool e2e_info_contains(struct e2e *t, const char *text)
{
    CHECK(t->transcript != NULL);
    for (size_t i = 0; i < t->transcript->ninfo; i++) {
        if (strstr(t->transcript->info[i], text))
            return true;
    }
    return false;
}

/* ---- fds ----------------------------------------------------------------- */

void e2e_check_fd_record(const char *file, int line, const struct mock_request_record *r,
                         int i, struct fd_id id)
{
    const struct mock_fd_record *f;

    if (i >= r->nfds)
        test_fail(file, line, "request %u.%u came with %d fds, wanted #%d", r->major, r->minor,
                  r->nfds, i);
    f = &r->fds[i];
    if (strcmp(f->kind, "memfd") != 0 || f->dev != id.dev || f->ino != id.ino)
        test_fail(file, line,
                  "fd #%d of request %u.%u is %s dev=%llu ino=%llu, sent memfd dev=%llu "
                  "ino=%llu",
                  i, r->major, r->minor, f->kind, (unsigned long long)f->dev,
                  (unsigned long long)f->ino, (unsigned long long)id.dev,
                  (unsigned long long)id.ino);
}

void e2e_check_memfd(const char *file, int line, int fd, const char *name)
{
    char path[64], target[256];
    ssize_t n;
    int flags = fcntl(fd, F_GETFD);

    if (flags < 0)
        test_fail(file, line, "fd %d is not open", fd);
    if (!(flags & FD_CLOEXEC))
        test_fail(file, line, "fd %d lacks FD_CLOEXEC", fd);
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    n = readlink(path, target, sizeof(target) - 1);
    if (n < 0)
        test_fail(file, line, "readlink %s: %s", path, strerror(errno));
    target[n] = '\0';
    if (strncmp(target, "/memfd:", 7) != 0 || !strstr(target, name))
        test_fail(file, line, "fd %d is %s, wanted memfd \"%s\"", fd, target, name);
}

void e2e_fd_snapshot(struct e2e_fd_set *set)
{
    memset(set, 0, sizeof(*set));
    for (int fd = 0; fd < 1024; fd++) {
        if (fcntl(fd, F_GETFD) >= 0)
            set->bits[fd / 64] |= 1ULL << (fd % 64);
    }
}

int e2e_close_stray_fds(const struct e2e_fd_set *before, const char *text)
{
    struct e2e_fd_set now;
    int closed = 0;

    e2e_fd_snapshot(&now);
    for (int fd = 0; fd < 1024; fd++) {
        char path[64], target[256];
        ssize_t n;

        if (!(now.bits[fd / 64] & ~before->bits[fd / 64] & 1ULL << (fd % 64)))
            continue;
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        n = readlink(path, target, sizeof(target) - 1);
        if (n < 0)
            continue;
        target[n] = '\0';
        if (strstr(target, text)) {
            test_note("closing stray fd %d -> %s", fd, target);
            close(fd);
            closed++;
        }
    }
    return closed;
}

void *e2e_map(int fd, size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

    if (p == MAP_FAILED)
        test_fail(__FILE__, __LINE__, "mmap(%zu): %s", size, strerror(errno));
    return p;
}

int e2e_fence_page(int32_t value)
{
    int fd = test_memfd("e2e-fence", sizeof(int32_t), NULL);

    if (pwrite(fd, &value, sizeof(value), 0) != (ssize_t)sizeof(value)) {
        close(fd);
        test_fail(__FILE__, __LINE__, "cannot write the fence word");
    }
    return fd;
}

/* ---- events -------------------------------------------------------------- */

xcb_generic_event_t *e2e_wait_special(struct e2e *t, xcb_special_event_t *se, int timeout_ms)
{
    int64_t deadline = test_now_ms() + timeout_ms;

    for (;;) {
        xcb_generic_event_t *ev = xcb_poll_for_special_event(t->c, se);

        if (ev)
            return ev;
        if (xcb_connection_has_error(t->c))
            return NULL;
        /* Short slices: libxcb may have read the event into its buffer
         * while waiting for something else, leaving the socket quiet. */
        if (!test_poll_until(xcb_get_file_descriptor(t->c), deadline, 20))
            return NULL;
    }
}

xcb_special_event_t *e2e_present_select(struct e2e *t, xcb_window_t w, uint32_t mask,
                                        uint32_t *eid)
{
    xcb_special_event_t *se;

    *eid = xcb_generate_id(t->c);
    /* Registered first, so that no event can reach the ordinary queue. */
    se = xcb_register_for_special_xge(t->c, &xcb_present_id, *eid, NULL);
    CHECK(se != NULL);
    E2E_CHECK_OK(t, xcb_present_select_input_checked(t->c, *eid, w, mask));
    return se;
}

void e2e_present_unselect(struct e2e *t, xcb_special_event_t *se, xcb_window_t w, uint32_t eid)
{
    E2E_CHECK_OK(t, xcb_present_select_input_checked(t->c, eid, w, 0));
    xcb_unregister_for_special_event(t->c, se);
}

void *e2e_next_present_event(const char *file, int line, struct e2e *t,
                             xcb_special_event_t *se, uint16_t evtype)
{
    xcb_generic_event_t *ev = e2e_wait_special(t, se, 2000);
    const xcb_ge_generic_event_t *ge = (const xcb_ge_generic_event_t *)ev;

    if (!ev)
        test_fail(file, line, "no Present event %u within 2 s (connection error %d)", evtype,
                  xcb_connection_has_error(t->c));
    if ((ev->response_type & 0x7f) != XCB_GE_GENERIC || ge->event_type != evtype) {
        unsigned type = ev->response_type, got = ge->event_type;

        free(ev);
        test_fail(file, line, "wanted Present event %u, got response %u evtype %u", evtype,
                  type, got);
    }
    return ev;
}

void e2e_wait_complete_and_idle(struct e2e *t, xcb_special_event_t *se,
                                xcb_present_complete_notify_event_t **complete,
                                xcb_present_idle_notify_event_t **idle)
{
    *complete = NULL;
    *idle = NULL;
    while (!*complete || !*idle) {
        xcb_generic_event_t *ev = e2e_wait_special(t, se, 2000);
        const xcb_present_generic_event_t *pe = (const xcb_present_generic_event_t *)ev;

        CHECK(ev != NULL);
        if (pe->evtype == XCB_PRESENT_COMPLETE_NOTIFY && !*complete) {
            *complete = (xcb_present_complete_notify_event_t *)ev;
        } else if (pe->evtype == XCB_PRESENT_IDLE_NOTIFY && !*idle) {
            *idle = (xcb_present_idle_notify_event_t *)ev;
        } else {
            unsigned type = pe->evtype;

            free(ev);
            test_fail(__FILE__, __LINE__, "unexpected Present event %u", type);
        }
    }
}

uint64_t e2e_current_msc(struct e2e *t, xcb_special_event_t *se, xcb_window_t w)
{
    xcb_present_complete_notify_event_t *ev;
    uint64_t msc;

    xcb_present_notify_msc(t->c, w, 0, 0, 0, 0);
    CHECK(xcb_flush(t->c) > 0);
    ev = E2E_NEXT_PRESENT_EVENT(t, se, XCB_PRESENT_COMPLETE_NOTIFY);
    CHECK_EQ(ev->kind, XCB_PRESENT_COMPLETE_KIND_NOTIFY_MSC);
    msc = ev->msc;
    free(ev);
    return msc;
}
