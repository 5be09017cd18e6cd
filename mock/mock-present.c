/*
 * Present 1.4 for the mock server: the requests and the queue of pending
 * presentations.  The events and SelectInput are in mock-present-events.c,
 * the fake CRTC's clock in mock-crtc.c.
 *
 * Simplifications, each something a test of a client cannot tell apart
 * from a real server with one CRTC and no compositor:
 *   - `valid` and `update` regions are ignored, as if they were None (the
 *     whole pixmap), but the update region is written to the transcript
 *     (with "xfixes on", as rectangles);
 *   - target_crtc is ignored: there is one CRTC;
 *   - a presentation is looked at again at each vblank and whenever a
 *     fence is triggered through SYNC; one whose pixmap was freed in the
 *     meantime completes with mode Skip;
 *   - PixmapSynced waits for its acquire point and signals its release
 *     point where the syncobj is one the mock can read and write (a memfd
 *     timeline, or a DRM syncobj when it has a DRM device; see
 *     mock-syncobj.c): after the copy, or for a flip when the next frame
 *     on the window is shown; other syncobjs are opaque stand-ins.
 * Errors the specification leaves open: a bad syncobj or point in
 * PixmapSynced is BadValue; QueryCapabilities of anything but a window is
 * BadWindow (the mock has no CRTC ids).
 */
#include "mock-present.h"

#include <stdlib.h>

enum {
    PRESENT_QUERY_VERSION = 0, PRESENT_PIXMAP = 1, PRESENT_NOTIFY_MSC = 2,
    PRESENT_SELECT_INPUT = 3, PRESENT_QUERY_CAPABILITIES = 4, PRESENT_PIXMAP_SYNCED = 5,
};

enum {
    OPTION_ASYNC = 1, OPTION_COPY = 2, OPTION_UST = 4, OPTION_SUBOPTIMAL = 8,
    OPTION_ASYNC_MAY_TEAR = 16,
    OPTION_ALL = OPTION_ASYNC | OPTION_COPY | OPTION_UST | OPTION_SUBOPTIMAL |
                 OPTION_ASYNC_MAY_TEAR,
};

/* One entry of a presentation's notifies list: that window hears of the
 * completion too, under this serial. */
struct notify {
    uint32_t window, serial;
};

/* A PresentPixmap, PixmapSynced or NotifyMSC waiting for its MSC. */
struct pending {
    struct pending *next;
    struct mock_client *client;
    uint8_t kind;
    bool send_idle;         /* IdleNotify and idle fence (not PixmapSynced) */
    uint32_t window, pixmap, serial, wait_fence, idle_fence, options;
    int16_t x_off, y_off;
    uint64_t target_msc;
    struct mock_syncobj *acquire;       /* PixmapSynced: a reference */
    uint64_t acquire_point;
    struct mock_release *release;       /* PixmapSynced, until handed on */
    size_t n_notifies;
    struct notify notifies[];
};

/* s->present: the queue, oldest first. */
struct present_state {
    struct pending *queue;
};

static struct present_state *state(struct mock_server_state *s)
{
    if (!s->present)
        s->present = calloc(1, sizeof(struct present_state));
    return s->present;
}

/* ---- the queue ------------------------------------------------------------ */

/* A fence that was freed while the presentation waited no longer holds
 * it up. */
static bool fence_allows(struct mock_server_state *s, uint32_t id)
{
    const struct mock_fence *f = id ? mock_resource_find(s, id, MOCK_RES_FENCE) : NULL;
    return !f || mock_fence_is_triggered(f);
}

static bool ready(struct mock_server_state *s, const struct pending *p, uint64_t msc)
{
    return p->target_msc <= msc && fence_allows(s, p->wait_fence) &&
           (!p->acquire || mock_syncobj_signalled(s, p->acquire, p->acquire_point));
}

/* A presentation that leaves without being shown gives its pixmap back. */
static void pending_free(struct mock_server_state *s, struct pending *p)
{
    mock_syncobj_unref(s, p->acquire);
    mock_release_signal(s, p->release, "dropped");
    free(p);
}

/* A later presentation to the same window that is due now and aims at
 * the same MSC replaces this one, which completes with mode Skip.  Two
 * that aim at different MSCs are both shown, as on a real server, even
 * when a busy machine let the mock run late and both are due at once. */
static bool replaced(struct mock_server_state *s, const struct pending *p, uint64_t msc)
{
    if (p->kind != MOCK_PRESENT_KIND_PIXMAP)
        return false;
    for (const struct pending *q = p->next; q; q = q->next)
        if (q->kind == MOCK_PRESENT_KIND_PIXMAP && q->window == p->window &&
            q->target_msc == p->target_msc && ready(s, q, msc))
            return true;
    return false;
}

/* The idle pixmap's IdleNotify and idle fence. */
static void release_pixmap(struct mock_server_state *s, const struct pending *p)
{
    if (!p->send_idle)
        return;
    mock_present_send_idle(s, p->window, p->serial, p->pixmap, p->idle_fence);
    struct mock_fence *f = p->idle_fence ? mock_resource_find(s, p->idle_fence, MOCK_RES_FENCE)
                                         : NULL;
    if (f)
        mock_fence_trigger(s, f);
}

static void execute(struct mock_server_state *s, struct pending *p, uint64_t msc, bool skip)
{
    /* The UST is always that of the reported MSC's vblank, also for an
     * async presentation that ran between two vblanks: clients derive the
     * refresh rate from (ust, msc) pairs, and those stay consistent. */
    uint64_t ust = mock_crtc_vblank_us(s, msc);
    if (p->kind == MOCK_PRESENT_KIND_NOTIFY_MSC) {
        mock_present_send_complete(s, p->window, p->serial, MOCK_PRESENT_KIND_NOTIFY_MSC,
                                   MOCK_PRESENT_MODE_COPY, ust, msc);
        return;
    }
    struct mock_drawable *window = mock_drawable_find(s, p->window, 1);
    const struct mock_drawable *pixmap = mock_drawable_find(s, p->pixmap, 0);
    uint8_t mode = MOCK_PRESENT_MODE_SKIP;
    if (!skip && window && pixmap) {
        mock_drawable_copy(window, pixmap, p->x_off, p->y_off);
        mode = mock_present_complete_mode(s, p->options, window, pixmap);
    }
    mock_info(s, "present: pixmap 0x%x serial %u %s to window 0x%x at msc %llu",
              p->pixmap, p->serial, mode == MOCK_PRESENT_MODE_SKIP ? "skipped"
                                    : mode == MOCK_PRESENT_MODE_FLIP ? "flipped" : "copied",
              p->window, (unsigned long long)msc);
    mock_present_send_complete(s, p->window, p->serial, MOCK_PRESENT_KIND_PIXMAP, mode, ust, msc);
    for (size_t i = 0; i < p->n_notifies; i++)
        mock_present_send_complete(s, p->notifies[i].window, p->notifies[i].serial,
                                   MOCK_PRESENT_KIND_PIXMAP, mode, ust, msc);
    /* A flip keeps its pixmap until the window shows the next frame. */
    if (mode != MOCK_PRESENT_MODE_SKIP)
        mock_present_flip_release(s, p->window);
    if (mode == MOCK_PRESENT_MODE_FLIP && (p->send_idle || p->release))
        mock_present_flip_hold(s, p->window, p->pixmap, p->serial, p->idle_fence, p->release);
    else if (p->release)
        mock_release_signal(s, p->release, mode == MOCK_PRESENT_MODE_SKIP ? "skipped"
                                                                          : "copied");
    else
        release_pixmap(s, p);
    p->release = NULL;
}

/* Executes every presentation that is due, oldest first.  Each one leaves
 * the queue before it runs: triggering its idle fence calls this function
 * again through the fence_triggered hook. */
static void run_due(struct mock_server_state *s)
{
    struct present_state *st = s->present;
    if (!st)
        return;
    uint64_t msc = mock_crtc_msc(s);
    for (;;) {
        struct pending **link = &st->queue;
        while (*link && !ready(s, *link, msc))
            link = &(*link)->next;
        struct pending *p = *link;
        if (!p)
            break;
        bool skip = replaced(s, p, msc);
        *link = p->next;
        execute(s, p, msc, skip);
        pending_free(s, p);
    }
}

static void enqueue(struct present_state *st, struct pending *p)
{
    struct pending **link = &st->queue;
    while (*link)
        link = &(*link)->next;
    *link = p;
}

/* Unlinks every pending presentation for which drop() is true and hands
 * each to gone() (which may be NULL), then frees it.  Unlinking all of
 * them first keeps the queue consistent while gone() triggers fences. */
static void drop_pending(struct mock_server_state *s,
                         bool (*drop)(const struct pending *, const void *), const void *arg,
                         void (*gone)(struct mock_server_state *, const struct pending *))
{
    struct present_state *st = s->present;
    struct pending *dropped = NULL, **link;
    if (!st)
        return;
    link = &st->queue;
    while (*link) {
        struct pending *p = *link;
        if (drop(p, arg)) {
            *link = p->next;
            p->next = dropped;
            dropped = p;
        } else {
            link = &p->next;
        }
    }
    while (dropped) {
        struct pending *p = dropped;
        dropped = p->next;
        if (gone)
            gone(s, p);
        pending_free(s, p);
    }
}

/* The MSC a request asks for, per the specification: target_msc if it is
 * still ahead; else the next MSC with msc % divisor == remainder; with no
 * divisor, the next vblank, or the current MSC (that is, right away, with
 * no vblank to wait for) for an async presentation and for NotifyMSC, as
 * the X server does. */
static uint64_t choose_msc(uint64_t msc, uint64_t target, uint64_t divisor, uint64_t remainder,
                           bool async)
{
    if (target > msc)
        return target;
    if (divisor != 0) {
        uint64_t t = msc - msc % divisor + remainder;
        if (t <= msc && __builtin_add_overflow(t, divisor, &t))
            return UINT64_MAX;
        return t;
    }
    return async ? msc : msc + 1;
}

/* ---- requests -------------------------------------------------------------- */

/* True when the request has exactly `size` bytes; otherwise answers
 * BadLength. */
static bool check_size(struct mock_request *req, size_t size)
{
    if (mock_req_size(req) == size)
        return true;
    mock_send_error(req, MOCK_BAD_LENGTH, 0);
    return false;
}

static void query_version(struct mock_request *req)
{
    const struct mock_config *cfg = req->client->server->cfg;
    if (!check_size(req, 12))
        return;
    uint32_t major = mock_get32(mock_req_field(req, 4));
    uint32_t minor = mock_get32(mock_req_field(req, 8));
    /* The lower of the two versions, compared as (major, minor) pairs. */
    if (major > (uint32_t)cfg->present_major ||
        (major == (uint32_t)cfg->present_major && minor > (uint32_t)cfg->present_minor)) {
        major = (uint32_t)cfg->present_major;
        minor = (uint32_t)cfg->present_minor;
    }
    uint8_t reply[32] = { 1 };
    mock_put32(reply + 8, major);
    mock_put32(reply + 12, minor);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

/* What PresentPixmap and PresentPixmapSynced share, decoded. */
struct present_args {
    uint32_t window, pixmap, serial, options;
    int16_t x_off, y_off;
    uint32_t update;                        /* region, 0: None */
    uint32_t wait_fence, idle_fence;        /* PresentPixmap only */
    /* PixmapSynced only */
    struct mock_syncobj *acquire, *release;
    uint32_t release_id;
    uint64_t acquire_point, release_point;
    uint64_t target_msc, divisor, remainder;
    const uint8_t *notifies;                /* n pairs of window, serial */
    size_t n_notifies;
};

/* The checks both presentation requests make, in the X server's order;
 * answers the error and returns false on the first that fails. */
static bool check_present_args(struct mock_request *req, const struct present_args *a)
{
    struct mock_server_state *s = req->client->server;
    const struct mock_drawable *window = mock_drawable_find(s, a->window, 1);
    const struct mock_drawable *pixmap = mock_drawable_find(s, a->pixmap, 0);
    uint8_t error = 0;
    uint32_t value = 0;
    if (!window) {
        error = MOCK_BAD_WINDOW, value = a->window;
    } else if (!pixmap) {
        error = MOCK_BAD_PIXMAP, value = a->pixmap;
    } else if (pixmap->depth != window->depth) {
        error = MOCK_BAD_MATCH, value = a->pixmap;
    } else if ((a->options & ~(uint32_t)OPTION_ALL) ||
               ((a->options & OPTION_ASYNC_MAY_TEAR) &&
                !(s->cfg->present_caps & MOCK_CAP_ASYNC_MAY_TEAR))) {
        error = MOCK_BAD_VALUE, value = a->options;
    } else if ((a->divisor == 0 && a->remainder != 0) ||
               (a->divisor != 0 && a->remainder >= a->divisor)) {
        error = MOCK_BAD_VALUE, value = (uint32_t)a->remainder;
    } else if (a->wait_fence && !mock_resource_find(s, a->wait_fence, MOCK_RES_FENCE)) {
        error = MOCK_BAD_FENCE, value = a->wait_fence;
    } else if (a->idle_fence && !mock_resource_find(s, a->idle_fence, MOCK_RES_FENCE)) {
        error = MOCK_BAD_FENCE, value = a->idle_fence;
    }
    for (size_t i = 0; !error && i < a->n_notifies; i++) {
        uint32_t w = mock_get32(a->notifies + 8 * i);
        if (!mock_drawable_find(s, w, 1))
            error = MOCK_BAD_WINDOW, value = w;
    }
    if (error)
        mock_send_error(req, error, value);
    return !error;
}

/* Queues a presentation (or a NotifyMSC, with kind
 * MOCK_PRESENT_KIND_NOTIFY_MSC) and runs it at once if it is already due. */
static void queue_presentation(struct mock_request *req, const struct present_args *a,
                               uint8_t kind, bool send_idle)
{
    struct mock_server_state *s = req->client->server;
    struct present_state *st = state(s);
    struct pending *p = malloc(sizeof *p + a->n_notifies * sizeof p->notifies[0]);
    if (!st || !p) {
        free(p);
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    bool async = kind == MOCK_PRESENT_KIND_NOTIFY_MSC || (a->options & OPTION_ASYNC);
    uint64_t target = choose_msc(mock_crtc_msc(s), a->target_msc, a->divisor, a->remainder,
                                 async);
    *p = (struct pending){
        .client = req->client, .kind = kind, .send_idle = send_idle,
        .window = a->window, .pixmap = a->pixmap, .serial = a->serial,
        .wait_fence = a->wait_fence, .idle_fence = a->idle_fence,
        .x_off = a->x_off, .y_off = a->y_off, .target_msc = target, .options = a->options,
        .n_notifies = a->n_notifies,
        .acquire = a->acquire ? mock_syncobj_ref(a->acquire) : NULL,
        .acquire_point = a->acquire_point,
        .release = a->release ? mock_release_new(s, a->window, a->pixmap, a->serial,
                                                 a->release_id, a->release, a->release_point)
                              : NULL,
    };
    for (size_t i = 0; i < a->n_notifies; i++) {
        p->notifies[i].window = mock_get32(a->notifies + 8 * i);
        p->notifies[i].serial = mock_get32(a->notifies + 8 * i + 4);
    }
    enqueue(st, p);
    run_due(s);
}

/* The notifies list fills the rest of the request in 8-byte pairs. */
static bool check_variable_size(struct mock_request *req, size_t fixed)
{
    size_t size = mock_req_size(req);
    if (size >= fixed && (size - fixed) % 8 == 0)
        return true;
    mock_send_error(req, MOCK_BAD_LENGTH, 0);
    return false;
}

/* The update region in the transcript, when there is one. */
static void note_update(struct mock_server_state *s, const char *request,
                        const struct present_args *a)
{
    char region[512];

    if (!a->update)
        return;
    mock_region_describe(s, a->update, region, sizeof region);
    mock_info(s, "%s: serial %u update %s", request, a->serial, region);
}

/* The fields PresentPixmap and PixmapSynced share: the same head (window
 * to y-off), and the same tail of the fixed part, `fixed` bytes long
 * (options, unused, target-msc, divisor, remainder), the notifies after it. */
static struct present_args pixmap_args(struct mock_request *req, size_t fixed)
{
    const uint8_t *f = mock_req_field(req, 0);
    const uint8_t *tail = f + fixed - 32;
    return (struct present_args){
        .window = mock_get32(f + 4), .pixmap = mock_get32(f + 8), .serial = mock_get32(f + 12),
        .update = mock_get32(f + 20),
        .x_off = (int16_t)mock_get16(f + 24), .y_off = (int16_t)mock_get16(f + 26),
        .options = mock_get32(tail), .target_msc = mock_get64(tail + 8),
        .divisor = mock_get64(tail + 16), .remainder = mock_get64(tail + 24),
        .notifies = f + fixed, .n_notifies = (mock_req_size(req) - fixed) / 8,
    };
}

static void present_pixmap(struct mock_request *req)
{
    if (!check_variable_size(req, 72))
        return;
    const uint8_t *f = mock_req_field(req, 0);
    struct present_args a = pixmap_args(req, 72);
    a.wait_fence = mock_get32(f + 32);
    a.idle_fence = mock_get32(f + 36);
    if (!check_present_args(req, &a))
        return;
    note_update(req->client->server, "present", &a);
    queue_presentation(req, &a, MOCK_PRESENT_KIND_PIXMAP, true);
}

/* PixmapSynced's syncobjs must be imported ones, its points non-zero, and
 * on a single syncobj the release must come after the acquire. */
static bool check_syncobjs(struct mock_request *req, uint32_t acquire, uint32_t release,
                           uint64_t acquire_point, uint64_t release_point)
{
    struct mock_server_state *s = req->client->server;
    uint32_t bad = 0;
    if (!mock_resource_find(s, acquire, MOCK_RES_SYNCOBJ))
        bad = acquire;
    else if (!mock_resource_find(s, release, MOCK_RES_SYNCOBJ))
        bad = release;
    else if (acquire_point == 0 || release_point == 0 ||
             (acquire == release && acquire_point >= release_point))
        bad = acquire;
    if (!bad)
        return true;
    mock_send_error(req, MOCK_BAD_VALUE, bad);
    return false;
}

static void present_pixmap_synced(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_variable_size(req, 88))
        return;
    const uint8_t *f = mock_req_field(req, 0);
    struct present_args a = pixmap_args(req, 88);
    uint32_t acquire = mock_get32(f + 32), release = mock_get32(f + 36);
    uint64_t acquire_point = mock_get64(f + 40), release_point = mock_get64(f + 48);
    if (!check_present_args(req, &a) ||
        !check_syncobjs(req, acquire, release, acquire_point, release_point))
        return;
    a.acquire = mock_resource_find(s, acquire, MOCK_RES_SYNCOBJ);
    a.acquire_point = acquire_point;
    a.release = mock_resource_find(s, release, MOCK_RES_SYNCOBJ);
    a.release_id = release;
    a.release_point = release_point;
    mock_info(s, "present synced: pixmap 0x%x serial %u acquire 0x%x@%llu release 0x%x@%llu "
              "(%s)", a.pixmap, a.serial, acquire, (unsigned long long)acquire_point, release,
              (unsigned long long)release_point, mock_syncobj_kind(a.release));
    note_update(s, "present synced", &a);
    queue_presentation(req, &a, MOCK_PRESENT_KIND_PIXMAP, false);
}

static void notify_msc(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_size(req, 40))
        return;
    const uint8_t *f = mock_req_field(req, 0);
    struct present_args a = {
        .window = mock_get32(f + 4), .serial = mock_get32(f + 8),
        .target_msc = mock_get64(f + 16), .divisor = mock_get64(f + 24),
        .remainder = mock_get64(f + 32),
    };
    if (!mock_drawable_find(s, a.window, 1)) {
        mock_send_error(req, MOCK_BAD_WINDOW, a.window);
        return;
    }
    if ((a.divisor == 0 && a.remainder != 0) || (a.divisor != 0 && a.remainder >= a.divisor)) {
        mock_send_error(req, MOCK_BAD_VALUE, (uint32_t)a.remainder);
        return;
    }
    queue_presentation(req, &a, MOCK_PRESENT_KIND_NOTIFY_MSC, false);
}

static void query_capabilities(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    if (!check_size(req, 8))
        return;
    uint32_t target = mock_get32(mock_req_field(req, 4));
    if (!mock_drawable_find(s, target, 1)) {
        mock_send_error(req, MOCK_BAD_WINDOW, target);
        return;
    }
    uint8_t reply[32] = { 1 };
    /* A window on a CRTC that lacks what the root's has (a test's
     * present-window-caps) answers for itself. */
    bool own = s->cfg->window_caps_set && target != s->root;
    mock_put32(reply + 8, own ? s->cfg->window_caps : s->cfg->present_caps);
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

/* An older configured version, or one without the syncobj capability,
 * does not know PixmapSynced at all. */
static bool request_known(const struct mock_config *cfg, uint8_t minor)
{
    if (minor < PRESENT_PIXMAP_SYNCED)
        return true;
    return minor == PRESENT_PIXMAP_SYNCED && (cfg->present_major > 1 ||
           (cfg->present_major == 1 && cfg->present_minor >= 4)) &&
           (cfg->present_caps & MOCK_CAP_SYNCOBJ);
}

static void present_dispatch(struct mock_request *req)
{
    static void (*const handlers[])(struct mock_request *) = {
        [PRESENT_QUERY_VERSION] = query_version,
        [PRESENT_PIXMAP] = present_pixmap,
        [PRESENT_NOTIFY_MSC] = notify_msc,
        [PRESENT_SELECT_INPUT] = mock_present_select_input,
        [PRESENT_QUERY_CAPABILITIES] = query_capabilities,
        [PRESENT_PIXMAP_SYNCED] = present_pixmap_synced,
    };
    if (!request_known(req->client->server->cfg, req->minor)) {
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
        return;
    }
    handlers[req->minor](req);
}

/* ---- hooks ------------------------------------------------------------------ */

static uint64_t present_next_wakeup(struct mock_server_state *s)
{
    const struct present_state *st = s->present;
    if (!st || !st->queue)
        return UINT64_MAX;
    /* Now, when something is due (the core asks again after its poll
     * woke, and the time it was due at has passed by then); else the
     * earliest target; a presentation that is due but waits for a fence
     * looks again at the next vblank. */
    uint64_t msc = mock_crtc_msc(s), next = UINT64_MAX;
    for (const struct pending *p = st->queue; p; p = p->next) {
        if (ready(s, p, msc))
            return 0;
        uint64_t t = p->target_msc > msc ? p->target_msc : msc + 1;
        if (t < next)
            next = t;
    }
    return mock_crtc_vblank_us(s, next);
}

static void present_fence_triggered(struct mock_server_state *s, struct mock_fence *f)
{
    (void)f;
    run_due(s);
}

static bool for_window(const struct pending *p, const void *window)
{
    return p->window == *(const uint32_t *)window;
}

static bool from_client(const struct pending *p, const void *client)
{
    return p->client == client;
}

/* A destroyed window's presentations never complete, but their pixmaps
 * are idle again. */
static void abandon(struct mock_server_state *s, const struct pending *p)
{
    struct mock_fence *f = p->send_idle && p->idle_fence
                               ? mock_resource_find(s, p->idle_fence, MOCK_RES_FENCE) : NULL;
    if (f)
        mock_fence_trigger(s, f);
}

static void present_drawable_destroyed(struct mock_server_state *s, struct mock_drawable *d)
{
    if (!d->is_window)
        return;
    /* The only word a client gets: ConfigureNotify with the
     * window-destroyed flag; then its selections of the window go. */
    mock_present_send_configure(s, d, MOCK_PRESENT_WINDOW_DESTROYED);
    mock_present_forget_window(s, d->id);
    mock_present_flip_forget(s, d->id);
    drop_pending(s, for_window, &d->id, abandon);
}

static void present_window_configured(struct mock_server_state *s, struct mock_drawable *d,
                                      bool resized)
{
    (void)resized;
    mock_present_send_configure(s, d, 0);
}

static void present_client_gone(struct mock_client *c)
{
    drop_pending(c->server, from_client, c, NULL);
}

static void present_server_gone(struct mock_server_state *s)
{
    struct present_state *st = s->present;
    mock_present_flip_forget_all(s);
    if (st) {
        while (st->queue) {
            struct pending *p = st->queue;
            st->queue = p->next;
            pending_free(s, p);
        }
        free(st);
        s->present = NULL;
    }
    /* after the queue, whose releases it holds; also when nothing was
     * ever presented (a client that only imported syncobjs) */
    mock_syncobj_server_gone(s);
}

static bool present_advertised(const struct mock_config *cfg)
{
    return cfg->present_major != 0;
}

const struct mock_extension mock_present_extension = {
    .name = "Present",
    .major = MOCK_PRESENT_MAJOR,
    .present = present_advertised,
    .dispatch = present_dispatch,
    .next_wakeup = present_next_wakeup,
    .wakeup = run_due,
    .drawable_destroyed = present_drawable_destroyed,
    .window_configured = present_window_configured,
    .client_gone = present_client_gone,
    .fence_triggered = present_fence_triggered,
    .server_gone = present_server_gone,
};
