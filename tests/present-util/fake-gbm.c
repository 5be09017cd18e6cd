/* The stand-in for GBM (fake-gbm.h). */
#include "fake-gbm.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-fds.h"
#include "test-runner.h"

#define MAX_MADE 64

struct fake_gbm fake_gbm;
static struct fd_id made[MAX_MADE];
static struct sc_gbm_ops table;
static const char device_token[] = "fake gbm device";

/* How many of the memfds made here this process still has open. */
static int open_buffers(void)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;

    CHECK(d != NULL);
    while ((e = readdir(d))) {
        struct stat st;
        int fd = atoi(e->d_name);

        if (e->d_name[0] == '.' || fd == dirfd(d) || fstat(fd, &st) < 0)
            continue;
        for (int i = 0; i < fake_gbm.buffers_made && i < MAX_MADE; i++)
            n += made[i].dev == st.st_dev && made[i].ino == st.st_ino;
    }
    closedir(d);
    return n;
}

static bool fake_usable(const xcb_dri3_util_device_t *dev)
{
    return dev != NULL;
}

static void *fake_create_device(int fd)
{
    CHECK(fd >= 0);
    if (fake_gbm.fail_device) {
        errno = ENODEV;
        return NULL;
    }
    fake_gbm.devices_made++;
    return (void *)device_token;
}

static void fake_destroy_device(void *gbm)
{
    CHECK(gbm == device_token);
    fake_gbm.devices_destroyed++;
    fake_gbm.open_at_destroy = open_buffers();
}

static xcb_dri3_util_buffer_t *fake_create(void *gbm, uint16_t width, uint16_t height,
                                           uint32_t fourcc, const uint64_t *modifiers,
                                           unsigned n_modifiers)
{
    uint32_t stride = width * 4u + FAKE_GBM_PAD, offset = 0;
    size_t size = (size_t)stride * height;
    uint8_t *junk;
    int fd;

    CHECK(gbm == device_token);
    fake_gbm.last_n_modifiers = n_modifiers;
    fake_gbm.last_modifier = n_modifiers ? modifiers[0] : ~0ull;
    if (fake_gbm.fail_alloc) {
        errno = ENOMEM;
        return NULL;
    }
    CHECK(fake_gbm.buffers_made < MAX_MADE);
    fd = test_memfd("fake-gbm-bo", size, &made[fake_gbm.buffers_made]);
    fake_gbm.buffers_made++;
    /* GBM promises no zeros: the swapchain must clear new buffers */
    junk = malloc(size);
    CHECK(junk != NULL);
    memset(junk, 0xab, size);
    CHECK(pwrite(fd, junk, size, 0) == (ssize_t)size);
    free(junk);
    /* linear, as GBM's is with or without the LINEAR modifier asked */
    return xcb_dri3_util_buffer_import(width, height, fourcc, XCB_DRI3_UTIL_MOD_LINEAR, 1, &fd,
                                       &stride, &offset);
}

void fake_gbm_install(bool built)
{
    memset(&fake_gbm, 0, sizeof fake_gbm);
    table = (struct sc_gbm_ops){
        .built = built,
        .usable = fake_usable,
        .create_device = fake_create_device,
        .destroy_device = fake_destroy_device,
        .create = fake_create,
    };
    sc_gbm_ops = &table;
}
