/* See info-names.h.  The device comes from sysfs, so that the tool needs
 * no libdrm: /sys/dev/char/MAJ:MIN/device names the driver and the bus,
 * and its drm/ directory lists the render node. */
#include "info-names.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define DRM_MAJOR 226

static const struct {
    uint64_t value;
    const char *name;
} known_modifiers[] = {
    { 0, "LINEAR" },
    { 0x00ffffffffffffffull, "INVALID (implicit layout)" },
    { 0x0100000000000001ull, "INTEL X_TILED" },
    { 0x0100000000000002ull, "INTEL Y_TILED" },
    { 0x0100000000000003ull, "INTEL Yf_TILED" },
    { 0x0100000000000004ull, "INTEL Y_TILED_CCS" },
    { 0x0100000000000005ull, "INTEL Yf_TILED_CCS" },
    { 0x0100000000000006ull, "INTEL Y_TILED_GEN12_RC_CCS" },
    { 0x0100000000000007ull, "INTEL Y_TILED_GEN12_MC_CCS" },
    { 0x0100000000000008ull, "INTEL Y_TILED_GEN12_RC_CCS_CC" },
    { 0x0100000000000009ull, "INTEL 4_TILED" },
    { 0x0200000000000001ull, "AMD (tiled)" },
    { 0x0300000000000001ull, "NVIDIA TEGRA_TILED" },
    { 0x0700000000000001ull, "BROADCOM VC4_T_TILED" },
};

static const char *const vendors[] = {
    "NONE", "INTEL", "AMD", "NVIDIA", "SAMSUNG", "QCOM", "VIVANTE", "BROADCOM", "ARM",
    "ALLWINNER", "AMLOGIC",
};

void info_modifier_name(uint64_t m, char *buf, size_t size)
{
    unsigned vendor = (unsigned)(m >> 56);

    for (size_t i = 0; i < sizeof known_modifiers / sizeof known_modifiers[0]; i++)
        if (known_modifiers[i].value == m) {
            snprintf(buf, size, "%s", known_modifiers[i].name);
            return;
        }
    if (vendor < sizeof vendors / sizeof vendors[0])
        snprintf(buf, size, "%s 0x%014llx", vendors[vendor],
                 (unsigned long long)(m & 0x00ffffffffffffffull));
    else
        snprintf(buf, size, "vendor 0x%02x 0x%014llx", vendor,
                 (unsigned long long)(m & 0x00ffffffffffffffull));
}

void info_caps_names(uint32_t caps, char *buf, size_t size)
{
    static const char *const names[] = { "async", "fence", "ust", "async-may-tear", "syncobj" };
    size_t at = 0;

    buf[0] = 0;
    for (unsigned i = 0; i < 32; i++) {
        if (!(caps & (1u << i)))
            continue;
        if (i < 5)
            at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%s%s", at ? ", " : "",
                                   names[i]);
        else
            at += (size_t)snprintf(buf + at, at < size ? size - at : 0, "%sbit %u",
                                   at ? ", " : "", i);
    }
    if (!at)
        snprintf(buf, size, "none");
}

/* Copies src, cut to fit. */
static void set(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);

    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* Appends src, cut to fit. */
static void append(char *dst, size_t size, const char *src)
{
    size_t at = strlen(dst);

    if (at + 1 < size)
        set(dst + at, size - at, src);
}

/* The last component of the link at path, or "" */
static void link_base(const char *path, char *buf, size_t size)
{
    char target[PATH_MAX];
    ssize_t n = readlink(path, target, sizeof target - 1);
    const char *slash;

    buf[0] = 0;
    if (n <= 0)
        return;
    target[n] = 0;
    slash = strrchr(target, '/');
    set(buf, size, slash ? slash + 1 : target);
}

static void drm_device(const struct stat *st, struct info_device *d)
{
    char base[96], path[192], bus_name[64];
    DIR *dir;
    struct dirent *e;

    snprintf(base, sizeof base, "/sys/dev/char/%u:%u/device", major(st->st_rdev),
             minor(st->st_rdev));
    snprintf(d->kind, sizeof d->kind, "%s", minor(st->st_rdev) >= 128 ? "DRM render node"
                                                                       : "DRM primary node");
    snprintf(d->path, sizeof d->path, "%s%u", minor(st->st_rdev) >= 128 ? "/dev/dri/renderD"
                                                                        : "/dev/dri/card",
             minor(st->st_rdev) >= 128 ? minor(st->st_rdev) : minor(st->st_rdev));
    snprintf(path, sizeof path, "%s/driver", base);
    link_base(path, d->driver, sizeof d->driver);
    snprintf(path, sizeof path, "%s/subsystem", base);
    link_base(path, bus_name, sizeof bus_name);
    link_base(base, path, sizeof path);
    if (bus_name[0] || path[0]) {
        set(d->bus, sizeof d->bus, bus_name);
        append(d->bus, sizeof d->bus, " ");
        append(d->bus, sizeof d->bus, path);
    }
    snprintf(path, sizeof path, "%s/drm", base);
    dir = opendir(path);
    while (dir && (e = readdir(dir)))
        if (strncmp(e->d_name, "renderD", 7) == 0)
        {
            set(d->render_node, sizeof d->render_node, "/dev/dri/");
            append(d->render_node, sizeof d->render_node, e->d_name);
        }
    if (dir)
        closedir(dir);
}

void info_describe_device(int fd, struct info_device *d)
{
    char link[64], target[128];
    struct stat st;
    ssize_t n;

    memset(d, 0, sizeof *d);
    if (fstat(fd, &st) < 0) {
        snprintf(d->kind, sizeof d->kind, "unknown");
        return;
    }
    if (S_ISCHR(st.st_mode) && major(st.st_rdev) == DRM_MAJOR) {
        drm_device(&st, d);
        return;
    }
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, target, sizeof target - 1);
    target[n > 0 ? n : 0] = 0;
    set(d->path, sizeof d->path, target);
    snprintf(d->kind, sizeof d->kind, "%s",
             strncmp(target, "/memfd:", 7) == 0 ? "memfd (not a DRM device)"
             : S_ISCHR(st.st_mode)              ? "character device (not DRM)"
                                                : "file (not a DRM device)");
}
