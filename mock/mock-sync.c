/* SYNC fences.  Every fence is a futex page with libxshmfence's layout, so
 * that DRI3 FDFromFence can hand any fence to a client, and a client (or
 * any process) that writes the word triggers it. */
#include "mock-internal.h"

#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FENCE_PAGE 4096

/* SYNC minor opcodes the mock implements. */
enum {
    SYNC_INITIALIZE = 0, SYNC_CREATE_FENCE = 14, SYNC_TRIGGER_FENCE = 15,
    SYNC_RESET_FENCE = 16, SYNC_DESTROY_FENCE = 17, SYNC_QUERY_FENCE = 18,
    SYNC_AWAIT_FENCE = 19,
};

static struct mock_fence *fence_wrap(uint32_t id, uint32_t drawable, int fd, size_t size,
                                     int *error)
{
    struct mock_fence *f;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

    if (p == MAP_FAILED || !(f = calloc(1, sizeof *f))) {
        if (p != MAP_FAILED)
            munmap(p, size);
        close(fd);
        *error = p == MAP_FAILED ? MOCK_BAD_MATCH : MOCK_BAD_ALLOC;
        return NULL;
    }
    f->id = id;
    f->drawable = drawable;
    f->fd = fd;
    f->word = p;
    return f;
}

struct mock_fence *mock_fence_new(uint32_t id, uint32_t drawable, bool triggered)
{
    struct mock_fence *f;
    int error;
    int fd = memfd_create("mock-fence", MFD_CLOEXEC);

    if (fd < 0)
        return NULL;
    if (ftruncate(fd, FENCE_PAGE) < 0) {
        close(fd);
        return NULL;
    }
    f = fence_wrap(id, drawable, fd, FENCE_PAGE, &error);
    if (f)
        __atomic_store_n(f->word, triggered ? 1 : 0, __ATOMIC_SEQ_CST);
    return f;
}

struct mock_fence *mock_fence_import(uint32_t id, uint32_t drawable, int fd, int *error)
{
    struct stat st;

    /* libxshmfence's pages are 4-byte memfds; mapping one page of them
     * is fine, the kernel maps whole pages. */
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 4) {
        close(fd);
        *error = MOCK_BAD_MATCH;
        return NULL;
    }
    return fence_wrap(id, drawable, fd, sizeof(int32_t), error);
}

bool mock_fence_is_triggered(const struct mock_fence *f)
{
    return __atomic_load_n(f->word, __ATOMIC_SEQ_CST) == 1;
}

void mock_fence_trigger(struct mock_server_state *s, struct mock_fence *f)
{
    /* -1 means somebody sleeps on the word: they must be woken. */
    if (__atomic_exchange_n(f->word, 1, __ATOMIC_SEQ_CST) == -1)
        syscall(SYS_futex, f->word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    mock_hook_fence_triggered(s, f);
}

void mock_fence_reset(struct mock_fence *f)
{
    int32_t expected = 1;

    /* Only a triggered fence goes back to 0; a waiter's -1 stays. */
    __atomic_compare_exchange_n(f->word, &expected, 0, false, __ATOMIC_SEQ_CST,
                                __ATOMIC_SEQ_CST);
}

void mock_fence_free(struct mock_server_state *s, void *fence)
{
    struct mock_fence *f = fence;

    (void)s;
    munmap(f->word, sizeof(int32_t));
    close(f->fd);
    free(f);
}

/* ---- AwaitFence ------------------------------------------------------- */

struct await {
    struct mock_server_state *server;
    size_t n;
    uint32_t ids[];
};

/* Still blocked while any listed fence exists and is not triggered; a
 * fence destroyed meanwhile no longer holds the client up. */
static bool await_blocked(struct mock_client *c, void *data)
{
    struct await *a = data;

    (void)c;
    for (size_t i = 0; i < a->n; i++) {
        struct mock_fence *f = mock_resource_find(a->server, a->ids[i], MOCK_RES_FENCE);

        if (f && !mock_fence_is_triggered(f))
            return true;
    }
    return false;
}

static void await_fence(struct mock_request *req)
{
    size_t n = (mock_req_size(req) - 4) / 4;
    struct mock_server_state *s = req->client->server;
    struct await *a;

    for (size_t i = 0; i < n; i++) {
        uint32_t id = mock_get32(mock_req_field(req, 4 + 4 * i));

        if (!mock_resource_find(s, id, MOCK_RES_FENCE)) {
            mock_send_error(req, MOCK_BAD_FENCE, id);
            return;
        }
    }
    a = malloc(sizeof *a + n * sizeof a->ids[0]);
    if (!a) {
        mock_send_error(req, MOCK_BAD_ALLOC, 0);
        return;
    }
    a->server = s;
    a->n = n;
    for (size_t i = 0; i < n; i++)
        a->ids[i] = mock_get32(mock_req_field(req, 4 + 4 * i));
    if (!await_blocked(req->client, a)) {
        free(a);
        return;
    }
    req->client->blocked = await_blocked;
    req->client->blocked_data = a;
    req->client->blocked_free = free;
}

/* ---- the other requests ---------------------------------------------- */

static void initialize(struct mock_request *req)
{
    uint8_t reply[32] = { 1 };

    reply[8] = 3;   /* SYNC 3.1: the version with fences */
    reply[9] = 1;
    mock_send_reply(req, reply, sizeof reply, NULL, 0);
}

static void create_fence(struct mock_request *req)
{
    struct mock_server_state *s = req->client->server;
    uint32_t drawable = mock_get32(mock_req_field(req, 4));
    uint32_t id = mock_get32(mock_req_field(req, 8));
    bool triggered = *mock_req_field(req, 12) != 0;
    struct mock_fence *f;
    int err;

    if (!mock_drawable_find(s, drawable, -1)) {
        mock_send_error(req, MOCK_BAD_DRAWABLE, drawable);
        return;
    }
    if (id == 0 || mock_resource_find(s, id, MOCK_RES_FENCE) ||
        (id & ~req->client->id_mask) != req->client->id_base) {
        mock_send_error(req, MOCK_BAD_ID_CHOICE, id);
        return;
    }
    f = mock_fence_new(id, drawable, triggered);
    if (!f) {
        mock_send_error(req, MOCK_BAD_ALLOC, id);
        return;
    }
    err = mock_resource_add(s, req->client, id, MOCK_RES_FENCE, f, mock_fence_free);
    if (err) {
        mock_fence_free(s, f);
        mock_send_error(req, (uint8_t)err, id);
    }
}

/* The fence a one-fence request names, or NULL after BadFence. */
static struct mock_fence *named_fence(struct mock_request *req)
{
    uint32_t id = mock_get32(mock_req_field(req, 4));
    struct mock_fence *f = mock_resource_find(req->client->server, id, MOCK_RES_FENCE);

    if (!f)
        mock_send_error(req, MOCK_BAD_FENCE, id);
    return f;
}

static void fence_request(struct mock_request *req)
{
    struct mock_fence *f = named_fence(req);
    uint8_t reply[32] = { 1 };

    if (!f)
        return;
    switch (req->minor) {
    case SYNC_TRIGGER_FENCE:
        mock_fence_trigger(req->client->server, f);
        break;
    case SYNC_RESET_FENCE:
        /* The SYNC spec: resetting a fence that is not triggered is a
         * Match error. */
        if (!mock_fence_is_triggered(f))
            mock_send_error(req, MOCK_BAD_MATCH, f->id);
        else
            mock_fence_reset(f);
        break;
    case SYNC_DESTROY_FENCE:
        mock_resource_free(req->client->server, f->id);
        break;
    case SYNC_QUERY_FENCE:
        reply[8] = mock_fence_is_triggered(f);
        mock_send_reply(req, reply, sizeof reply, NULL, 0);
        break;
    }
}

void mock_sync_dispatch(struct mock_request *req)
{
    size_t size = mock_req_size(req);
    size_t want;

    switch (req->minor) {
    case SYNC_INITIALIZE:
        want = 8;
        break;
    case SYNC_CREATE_FENCE:
        want = 16;
        break;
    case SYNC_TRIGGER_FENCE: case SYNC_RESET_FENCE: case SYNC_DESTROY_FENCE:
    case SYNC_QUERY_FENCE:
        want = 8;
        break;
    case SYNC_AWAIT_FENCE:
        want = size < 4 ? 4 : size;     /* any number of fences */
        break;
    default:
        /* Counters and alarms are not part of the mock. */
        mock_send_error(req, MOCK_BAD_REQUEST, 0);
        return;
    }
    if (size != want) {
        mock_send_error(req, MOCK_BAD_LENGTH, 0);
        return;
    }
    switch (req->minor) {
    case SYNC_INITIALIZE:
        initialize(req);
        break;
    case SYNC_CREATE_FENCE:
        create_fence(req);
        break;
    case SYNC_AWAIT_FENCE:
        await_fence(req);
        break;
    default:
        fence_request(req);
        break;
    }
}

const struct mock_extension mock_sync_extension = {
    .name = "SYNC",
    .major = MOCK_SYNC_MAJOR,
    .first_event = MOCK_SYNC_FIRST_EVENT,
    .first_error = MOCK_SYNC_FIRST_ERROR,
    .dispatch = mock_sync_dispatch,
};
