/* The XID table, and windows and pixmaps whose pixels live in memfds. */
#include "mock-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the XID table ------------------------------------------------------
 * A plain array searched linearly: a test has tens of resources, not
 * thousands, and this keeps freeing in the middle of a walk simple. */

static struct mock_resource *lookup(struct mock_server_state *s, uint32_t id)
{
    for (size_t i = 0; i < s->n_resources; i++)
        if (s->resources[i].id == id)
            return &s->resources[i];
    return NULL;
}

int mock_resource_add(struct mock_server_state *s, struct mock_client *owner,
                      uint32_t id, enum mock_res_type type, void *data,
                      void (*destroy)(struct mock_server_state *, void *))
{
    if (id == 0 || lookup(s, id))
        return MOCK_BAD_ID_CHOICE;
    if (owner && (id & ~owner->id_mask) != owner->id_base)
        return MOCK_BAD_ID_CHOICE;
    if (s->n_resources == s->cap_resources) {
        size_t cap = s->cap_resources ? 2 * s->cap_resources : 32;
        struct mock_resource *r = realloc(s->resources, cap * sizeof *r);

        if (!r)
            return MOCK_BAD_ALLOC;
        s->resources = r;
        s->cap_resources = cap;
    }
    s->resources[s->n_resources++] = (struct mock_resource){
        .id = id, .type = type, .owner = owner, .data = data, .destroy = destroy,
    };
    return 0;
}

bool mock_resource_add_or_refuse(struct mock_request *req, uint32_t id, enum mock_res_type type,
                                 void *data, void (*destroy)(struct mock_server_state *, void *))
{
    struct mock_server_state *s = req->client->server;
    int err = mock_resource_add(s, req->client, id, type, data, destroy);

    if (!err)
        return true;
    destroy(s, data);
    mock_send_error(req, (uint8_t)err, id);
    return false;
}

void *mock_resource_find(struct mock_server_state *s, uint32_t id, enum mock_res_type type)
{
    struct mock_resource *r = lookup(s, id);

    return r && r->type == type ? r->data : NULL;
}

bool mock_resource_free(struct mock_server_state *s, uint32_t id)
{
    struct mock_resource *r = lookup(s, id);
    struct mock_resource gone;

    if (!r)
        return false;
    /* Unlink first: the hooks and destroy may look the table up or free
     * other resources, which moves entries around. */
    gone = *r;
    *r = s->resources[--s->n_resources];
    if (gone.type == MOCK_RES_WINDOW || gone.type == MOCK_RES_PIXMAP)
        mock_hook_drawable_destroyed(s, gone.data);
    if (gone.destroy)
        gone.destroy(s, gone.data);
    return true;
}

void mock_resources_free_client(struct mock_server_state *s, struct mock_client *c)
{
    size_t i = s->n_resources;

    /* Newest first, so that things made from a resource go before it. */
    while (i > 0) {
        i--;
        if (i < s->n_resources && s->resources[i].owner == c) {
            mock_resource_free(s, s->resources[i].id);
            i = s->n_resources;
        }
    }
}

void mock_resources_free_all(struct mock_server_state *s)
{
    while (s->n_resources > 0)
        mock_resource_free(s, s->resources[s->n_resources - 1].id);
    free(s->resources);
    s->resources = NULL;
    s->cap_resources = 0;
}

/* ---- drawables ---------------------------------------------------------- */

struct mock_drawable *mock_drawable_find(struct mock_server_state *s, uint32_t id,
                                         int want_window)
{
    struct mock_resource *r = lookup(s, id);

    if (!r || (r->type != MOCK_RES_WINDOW && r->type != MOCK_RES_PIXMAP))
        return NULL;
    if (want_window >= 0 && (r->type == MOCK_RES_WINDOW) != (want_window != 0))
        return NULL;
    return r->data;
}

/* A zero-filled memfd of `size` bytes, mapped shared; fd -1 on failure. */
static int new_store(size_t size, uint8_t **map)
{
    int fd = memfd_create("mock-drawable", MFD_CLOEXEC);
    void *p;

    if (fd < 0)
        return -1;
    if (ftruncate(fd, (off_t)size) < 0 ||
        (p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
        close(fd);
        return -1;
    }
    *map = p;
    return fd;
}

static struct mock_drawable *drawable_alloc(void)
{
    struct mock_drawable *d = calloc(1, sizeof *d);

    if (d)
        for (int i = 0; i < 4; i++)
            d->planes[i].fd = -1;
    return d;
}

struct mock_drawable *mock_drawable_new(uint16_t width, uint16_t height, uint8_t depth)
{
    struct mock_drawable *d = drawable_alloc();
    size_t size = (size_t)width * height * 4;

    if (!d)
        return NULL;
    d->width = width;
    d->height = height;
    d->depth = depth;
    d->bpp = 32;
    d->modifier = UINT64_C(0xffffffffffffff);     /* DRM_FORMAT_MOD_INVALID */
    d->nplanes = 1;
    d->planes[0].stride = (uint32_t)width * 4;
    d->map_size = size ? size : 4;  /* mmap refuses 0 bytes */
    d->planes[0].fd = new_store(d->map_size, &d->map);
    if (d->planes[0].fd < 0) {
        free(d);
        return NULL;
    }
    return d;
}

bool mock_fd_is_dmabuf(int fd)
{
    char link[64], target[64];
    ssize_t n;

    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, target, sizeof target - 1);
    if (n <= 0)
        return false;
    target[n] = '\0';
    /* "/dmabuf:NAME" since Linux 5.3, "anon_inode:dmabuf" before */
    return strncmp(target, "/dmabuf:", 8) == 0 || strcmp(target, "anon_inode:dmabuf") == 0;
}

/* The bytes an fd can hold pixels in: a regular file's (memfds are
 * regular files) or a dma-buf's (only lseek tells its size); -1 for
 * anything else. */
static off_t pixel_store_size(int fd, const struct stat *st)
{
    off_t end;

    if (S_ISREG(st->st_mode))
        return st->st_size;
    if (!mock_fd_is_dmabuf(fd))
        return -1;
    end = lseek(fd, 0, SEEK_END);
    lseek(fd, 0, SEEK_SET);
    return end;
}

static void close_planes(const struct mock_plane *planes, int nplanes)
{
    for (int i = 0; i < nplanes; i++)
        if (planes[i].fd >= 0)
            close(planes[i].fd);
}

struct mock_drawable *mock_drawable_import(uint16_t width, uint16_t height, uint8_t depth,
                                           uint8_t bpp, const struct mock_plane *planes,
                                           int nplanes, uint64_t modifier, int *error)
{
    struct mock_drawable *d;
    struct stat st;
    uint64_t need;
    off_t size;
    void *p;

    if (nplanes < 1 || nplanes > 4 || planes[0].fd < 0 || fstat(planes[0].fd, &st) < 0) {
        *error = MOCK_BAD_MATCH;
        close_planes(planes, nplanes > 4 ? 4 : nplanes);
        return NULL;
    }
    /* memfds and files are regular files, and a dma-buf of a real GPU
     * maps alike when it is linear; pipes and sockets cannot hold pixels
     * at all, which is a mismatch rather than a lack of memory. */
    size = pixel_store_size(planes[0].fd, &st);
    if (size < 0) {
        *error = MOCK_BAD_MATCH;
        close_planes(planes, nplanes);
        return NULL;
    }
    need = (uint64_t)planes[0].offset + (uint64_t)planes[0].stride * height;
    if (height > 0 && planes[0].stride < (uint32_t)width * ((bpp + 7u) / 8u))
        need = UINT64_MAX;
    p = MAP_FAILED;
    if (need <= (uint64_t)size && size > 0) {
        p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, planes[0].fd, 0);
        if (p == MAP_FAILED)    /* a read-only fd still lets us show it */
            p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, planes[0].fd, 0);
    }
    d = p == MAP_FAILED ? NULL : drawable_alloc();
    if (!d) {
        if (p != MAP_FAILED)
            munmap(p, (size_t)size);
        *error = MOCK_BAD_ALLOC;
        close_planes(planes, nplanes);
        return NULL;
    }
    d->width = width;
    d->height = height;
    d->depth = depth;
    d->bpp = bpp;
    d->modifier = modifier;
    d->nplanes = nplanes;
    memcpy(d->planes, planes, (size_t)nplanes * sizeof *planes);
    d->map = p;
    d->map_size = (size_t)size;
    return d;
}

void mock_drawable_free(struct mock_server_state *s, void *drawable)
{
    struct mock_drawable *d = drawable;

    (void)s;
    munmap(d->map, d->map_size);
    close_planes(d->planes, d->nplanes);
    free(d);
}

int mock_drawable_resize(struct mock_drawable *d, uint16_t width, uint16_t height)
{
    size_t size = (size_t)width * height * 4;
    uint8_t *map;
    int fd;

    if (size == 0)
        size = 4;
    fd = new_store(size, &map);
    if (fd < 0)
        return -1;
    for (uint16_t y = 0; y < height && y < d->height; y++)
        memcpy(map + (size_t)y * width * 4, d->map + d->planes[0].offset +
               (size_t)y * d->planes[0].stride, (size_t)(width < d->width ? width : d->width) * 4);
    munmap(d->map, d->map_size);
    close_planes(d->planes, d->nplanes);
    d->map = map;
    d->map_size = size;
    d->nplanes = 1;
    d->planes[0] = (struct mock_plane){ .fd = fd, .offset = 0, .stride = (uint32_t)width * 4 };
    for (int i = 1; i < 4; i++)
        d->planes[i].fd = -1;
    d->width = width;
    d->height = height;
    return 0;
}

uint32_t mock_drawable_pixel(const struct mock_drawable *d, int x, int y)
{
    const uint8_t *p = d->map + d->planes[0].offset + (size_t)y * d->planes[0].stride +
                       (size_t)x * 4;

    return mock_get32(p);
}

void mock_drawable_copy(struct mock_drawable *dst, const struct mock_drawable *src,
                        int dx, int dy)
{
    int x0 = dx < 0 ? -dx : 0, y0 = dy < 0 ? -dy : 0;
    int x1 = src->width, y1 = src->height;

    if (dx + x1 > dst->width)
        x1 = dst->width - dx;
    if (dy + y1 > dst->height)
        y1 = dst->height - dy;
    if (x0 >= x1)
        return;
    for (int y = y0; y < y1; y++)
        memcpy(dst->map + dst->planes[0].offset + (size_t)(y + dy) * dst->planes[0].stride +
               (size_t)(x0 + dx) * 4,
               src->map + src->planes[0].offset + (size_t)y * src->planes[0].stride +
               (size_t)x0 * 4,
               (size_t)(x1 - x0) * 4);
}

void mock_resources_write_stats(struct mock_server_state *s)
{
    unsigned by_type[MOCK_RES_SHM_SEG + 1] = { 0 }, clients = 0;
    FILE *f;

    if (!s->cfg->stats_path)
        return;
    for (size_t i = 0; i < s->n_resources; i++)
        if ((unsigned)s->resources[i].type <= MOCK_RES_SHM_SEG)
            by_type[s->resources[i].type]++;
    for (size_t i = 0; i < MOCK_MAX_CLIENTS; i++)
        clients += s->clients[i] != NULL;
    f = fopen(s->cfg->stats_path, "we");
    if (!f)
        return;
    fprintf(f, "clients %u resources %zu windows %u pixmaps %u fences %u syncobjs %u "
               "gcs %u shm-segments %u event-selections %u\n",
            clients, s->n_resources, by_type[MOCK_RES_WINDOW], by_type[MOCK_RES_PIXMAP],
            by_type[MOCK_RES_FENCE], by_type[MOCK_RES_SYNCOBJ], by_type[MOCK_RES_GC],
            by_type[MOCK_RES_SHM_SEG], by_type[MOCK_RES_PRESENT_EVENT]);
    fclose(f);
}
