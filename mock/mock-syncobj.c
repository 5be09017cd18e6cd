/*
 * Syncobjs imported with DRI3 ImportSyncobj, and the release points that
 * PresentPixmapSynced hands the server.
 *
 * A syncobj is one of three kinds, told apart when it is imported:
 *   - a memfd timeline page (timeline-page.h): the mock waits for acquire
 *     points and signals release points in it, as a real server does with
 *     a DRM syncobj, which lets tests run explicit sync without a GPU;
 *   - a DRM syncobj, when the mock has a DRM device ("dri3-open PATH" of a
 *     DRM node) whose file can import it: waited for and signalled through
 *     libdrm (for tests on machines with a render node);
 *   - anything else: an opaque stand-in whose points count as signalled
 *     and whose signals go nowhere (what the mock always did).
 *
 * A release point stays claimed ("held") from PresentPixmapSynced until
 * the server is done with the pixmap: after the copy, or for a flip when
 * the next presentation on the window is shown, or when the presentation
 * is skipped or dropped.  Every release is written to the transcript, and
 * a pixmap presented again while an earlier presentation of it is held is
 * written there too: a client that reused a buffer before its release
 * point would corrupt what the server still reads.
 */
#include "mock-internal.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

#include "timeline-page.h"

enum kind { KIND_OPAQUE, KIND_PAGE, KIND_DRM };

struct mock_syncobj {
    int refs;
    enum kind kind;
    int fd;
    struct timeline_page *page;     /* KIND_PAGE */
    uint32_t handle;                /* KIND_DRM, on the state's drm_fd */
};

struct mock_release {
    struct mock_release *next;
    uint32_t window, pixmap, serial, syncobj_id;
    struct mock_syncobj *syncobj;
    uint64_t point;
};

/* s->syncobjs */
struct syncobj_state {
    int drm_fd;                     /* -1: none (yet), -2: none to be had */
    struct mock_release *held;
};

static struct syncobj_state *state(struct mock_server_state *s)
{
    struct syncobj_state *st = s->syncobjs;

    if (!st && (st = calloc(1, sizeof *st))) {
        st->drm_fd = -1;
        s->syncobjs = st;
    }
    return st;
}

/* The DRM device of "dri3-open PATH", opened by the mock itself. */
static int drm_fd(struct mock_server_state *s)
{
    struct syncobj_state *st = state(s);

    if (!st || st->drm_fd == -2)
        return -1;
    if (st->drm_fd == -1) {
        st->drm_fd = -2;
        if (s->cfg->open_mode == MOCK_OPEN_PATH) {
            int fd = open(s->cfg->open_path, O_RDWR | O_CLOEXEC);

            if (fd >= 0 && drmGetNodeTypeFromFd(fd) >= 0)
                st->drm_fd = fd;
            else if (fd >= 0)
                close(fd);
        }
    }
    return st->drm_fd >= 0 ? st->drm_fd : -1;
}

static bool is_page(int fd, struct mock_syncobj *so)
{
    struct stat st;
    void *p;

    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
        st.st_size < (off_t)sizeof(struct timeline_page))
        return false;
    p = mmap(NULL, sizeof(struct timeline_page), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return false;
    if (((struct timeline_page *)p)->magic != TIMELINE_PAGE_MAGIC) {
        munmap(p, sizeof(struct timeline_page));
        return false;
    }
    so->page = p;
    return true;
}

struct mock_syncobj *mock_syncobj_import(struct mock_server_state *s, int fd, int *error)
{
    struct mock_syncobj *so = calloc(1, sizeof *so);
    int dev;

    if (!so) {
        close(fd);
        *error = MOCK_BAD_ALLOC;
        return NULL;
    }
    so->refs = 1;
    so->fd = fd;
    if (is_page(fd, so))
        so->kind = KIND_PAGE;
    else if ((dev = drm_fd(s)) >= 0 && drmSyncobjFDToHandle(dev, fd, &so->handle) == 0)
        so->kind = KIND_DRM;
    return so;
}

const char *mock_syncobj_kind(const struct mock_syncobj *so)
{
    static const char *const names[] = { "opaque", "memfd timeline", "DRM syncobj" };

    return names[so->kind];
}

struct mock_syncobj *mock_syncobj_ref(struct mock_syncobj *so)
{
    so->refs++;
    return so;
}

void mock_syncobj_unref(struct mock_server_state *s, void *syncobj)
{
    struct mock_syncobj *so = syncobj;

    if (!so || --so->refs > 0)
        return;
    if (so->page)
        munmap(so->page, sizeof(struct timeline_page));
    if (so->kind == KIND_DRM)
        drmSyncobjDestroy(drm_fd(s), so->handle);
    close(so->fd);
    free(so);
}

bool mock_syncobj_signalled(struct mock_server_state *s, const struct mock_syncobj *so,
                            uint64_t point)
{
    uint64_t value = 0;
    uint32_t handle = so->handle;

    switch (so->kind) {
    case KIND_PAGE:
        return timeline_page_value(so->page) >= point;
    case KIND_DRM:
        return drmSyncobjQuery(drm_fd(s), &handle, &value, 1) == 0 && value >= point;
    case KIND_OPAQUE:
        break;
    }
    return true;
}

static void signal_point(struct mock_server_state *s, struct mock_syncobj *so,
                         uint64_t point)
{
    switch (so->kind) {
    case KIND_PAGE:
        timeline_page_signal(so->page, point);
        break;
    case KIND_DRM:
        drmSyncobjTimelineSignal(drm_fd(s), &so->handle, &point, 1);
        break;
    case KIND_OPAQUE:
        break;
    }
}

/* ---- release points ---------------------------------------------------- */

struct mock_release *mock_release_new(struct mock_server_state *s, uint32_t window,
                                      uint32_t pixmap, uint32_t serial, uint32_t syncobj_id,
                                      struct mock_syncobj *syncobj, uint64_t point)
{
    struct syncobj_state *st = state(s);
    struct mock_release *r = st ? calloc(1, sizeof *r) : NULL;
    size_t held = 1;

    if (!r)
        return NULL;
    for (const struct mock_release *h = st->held; h; h = h->next) {
        if (h->pixmap == pixmap)
            mock_info(s, "present synced: pixmap 0x%x presented again (serial %u) while the "
                      "server still holds it for serial %u (release 0x%x@%llu not signalled)",
                      pixmap, serial, h->serial, h->syncobj_id, (unsigned long long)h->point);
        held += h->window == window;
    }
    *r = (struct mock_release){ .window = window, .pixmap = pixmap, .serial = serial,
                                .syncobj_id = syncobj_id, .syncobj = mock_syncobj_ref(syncobj),
                                .point = point, .next = st->held };
    st->held = r;
    mock_info(s, "present synced: serial %u: the server holds %zu presentations of window 0x%x",
              serial, held, window);
    return r;
}

static void release_unlink(struct mock_server_state *s, struct mock_release *r)
{
    struct syncobj_state *st = s->syncobjs;
    struct mock_release **link = &st->held;

    while (*link != r)
        link = &(*link)->next;
    *link = r->next;
    mock_syncobj_unref(s, r->syncobj);
    free(r);
}

void mock_release_signal(struct mock_server_state *s, struct mock_release *r, const char *why)
{
    if (!r)
        return;
    bool attach = s->cfg->release_attach_only && r->syncobj->kind == KIND_PAGE;

    mock_info(s, "release: pixmap 0x%x serial %u %s: 0x%x@%llu %s (%s)", r->pixmap,
              r->serial, why, r->syncobj_id, (unsigned long long)r->point,
              attach ? "made available, not signalled" : "signalled",
              mock_syncobj_kind(r->syncobj));
    if (attach)
        timeline_page_attach(r->syncobj->page, r->point);
    else
        signal_point(s, r->syncobj, r->point);
    release_unlink(s, r);
}

void mock_syncobj_server_gone(struct mock_server_state *s)
{
    struct syncobj_state *st = s->syncobjs;

    if (!st)
        return;
    while (st->held)
        release_unlink(s, st->held);
    if (st->drm_fd >= 0)
        close(st->drm_fd);
    free(st);
    s->syncobjs = NULL;
}
