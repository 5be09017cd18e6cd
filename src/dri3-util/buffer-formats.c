/*
 * DRM fourccs: X depth/bpp in both directions, plane geometry for the
 * import checks, and names for people (libdrm's where it has them).
 */
#include "buffer-formats.h"
#include "xcb_dri3_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <drm_fourcc.h>
#include <xf86drm.h>

#define RGB(code, d, b, bytes, r, g, bl, a) \
    { code, &(#code)[11], d, b, r, g, bl, a, 1, { bytes, 0, 0 }, 1, 1 }
#define YUV(code, n, c0, c1, c2, h, v) \
    { code, &(#code)[11], 0, 0, 0, 0, 0, 0, n, { c0, c1, c2 }, h, v }

/* &(#code)[11] skips "DRM_FORMAT_".  Where several fourccs share a depth and
 * bpp, the first one listed is what xcb_dri3_util_fourcc_from_depth()
 * answers: the layout X servers use for that depth.  The rest are every
 * layout that Mesa's GL loader and Vulkan X11 WSI present; the visual's
 * masks tell them apart (xcb_dri3_util_fourcc_from_visual()). */
static const struct format_info formats[] = {
    /* the defaults, one per depth and bpp */
    RGB(DRM_FORMAT_XRGB8888, 24, 32, 4, 0xff0000, 0xff00, 0xff, 0),
    RGB(DRM_FORMAT_ARGB8888, 32, 32, 4, 0xff0000, 0xff00, 0xff, 0xff000000),
    RGB(DRM_FORMAT_RGB565, 16, 16, 2, 0xf800, 0x7e0, 0x1f, 0),
    RGB(DRM_FORMAT_XRGB2101010, 30, 32, 4, 0x3ff00000, 0xffc00, 0x3ff, 0),
    RGB(DRM_FORMAT_XRGB1555, 15, 16, 2, 0x7c00, 0x3e0, 0x1f, 0),
    RGB(DRM_FORMAT_RGB888, 24, 24, 3, 0xff0000, 0xff00, 0xff, 0),
    /* grey: no RGB visual describes it */
    RGB(DRM_FORMAT_R8, 8, 8, 1, 0, 0, 0, 0),
    /* the other channel orders of the same depths */
    RGB(DRM_FORMAT_XBGR8888, 24, 32, 4, 0xff, 0xff00, 0xff0000, 0),
    RGB(DRM_FORMAT_ABGR8888, 32, 32, 4, 0xff, 0xff00, 0xff0000, 0xff000000),
    RGB(DRM_FORMAT_RGBX8888, 24, 32, 4, 0xff000000, 0xff0000, 0xff00, 0),
    RGB(DRM_FORMAT_RGBA8888, 32, 32, 4, 0xff000000, 0xff0000, 0xff00, 0xff),
    RGB(DRM_FORMAT_BGRX8888, 24, 32, 4, 0xff00, 0xff0000, 0xff000000, 0),
    RGB(DRM_FORMAT_BGRA8888, 32, 32, 4, 0xff00, 0xff0000, 0xff000000, 0xff),
    RGB(DRM_FORMAT_BGR565, 16, 16, 2, 0x1f, 0x7e0, 0xf800, 0),
    RGB(DRM_FORMAT_XBGR2101010, 30, 32, 4, 0x3ff, 0xffc00, 0x3ff00000, 0),
    /* 10-bit colour with 2 bits of alpha: X counts the alpha bits in the
     * depth, so these are depth-32 visuals with 10-bit masks */
    RGB(DRM_FORMAT_ARGB2101010, 32, 32, 4, 0x3ff00000, 0xffc00, 0x3ff, 0xc0000000),
    RGB(DRM_FORMAT_ABGR2101010, 32, 32, 4, 0x3ff, 0xffc00, 0x3ff00000, 0xc0000000),
    RGB(DRM_FORMAT_XBGR1555, 15, 16, 2, 0x1f, 0x3e0, 0x7c00, 0),
    RGB(DRM_FORMAT_BGR888, 24, 24, 3, 0xff, 0xff00, 0xff0000, 0),
    /* 16 bits a channel, as Mesa's GL loader presents them: bpp 64, and
     * the depth their colour (and alpha) bits add up to.  Pixels wider
     * than 32 bits have no visual, and a server accepts them only where
     * it lists a pixmap format of that depth. */
    RGB(DRM_FORMAT_XBGR16161616, 48, 64, 8, 0, 0, 0, 0),
    RGB(DRM_FORMAT_ABGR16161616, 64, 64, 8, 0, 0, 0, 0),
    RGB(DRM_FORMAT_XBGR16161616F, 48, 64, 8, 0, 0, 0, 0),
    RGB(DRM_FORMAT_ABGR16161616F, 64, 64, 8, 0, 0, 0, 0),
    /* formats with no X depth, for buffers handed around as dma-bufs */
    RGB(DRM_FORMAT_XRGB16161616F, 0, 64, 8, 0, 0, 0, 0),
    RGB(DRM_FORMAT_R16, 0, 16, 2, 0, 0, 0, 0),
    RGB(DRM_FORMAT_GR88, 0, 16, 2, 0, 0, 0, 0),
    YUV(DRM_FORMAT_YUYV, 1, 2, 0, 0, 1, 1),
    YUV(DRM_FORMAT_UYVY, 1, 2, 0, 0, 1, 1),
    YUV(DRM_FORMAT_AYUV, 1, 4, 0, 0, 1, 1),
    YUV(DRM_FORMAT_NV12, 2, 1, 2, 0, 2, 2),
    YUV(DRM_FORMAT_NV21, 2, 1, 2, 0, 2, 2),
    YUV(DRM_FORMAT_NV16, 2, 1, 2, 0, 2, 1),
    YUV(DRM_FORMAT_P010, 2, 2, 4, 0, 2, 2),
    YUV(DRM_FORMAT_YUV420, 3, 1, 1, 1, 2, 2),
    YUV(DRM_FORMAT_YVU420, 3, 1, 1, 1, 2, 2),
    YUV(DRM_FORMAT_YUV422, 3, 1, 1, 1, 2, 1),
    YUV(DRM_FORMAT_YUV444, 3, 1, 1, 1, 1, 1),
};

#define N_FORMATS (sizeof formats / sizeof formats[0])

const struct format_info *format_lookup(uint32_t fourcc)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].fourcc == fourcc)
            return &formats[i];
    return NULL;
}

uint32_t format_plane_rows(const struct format_info *f, unsigned plane, uint32_t height)
{
    if (plane == 0 || f->vsub <= 1)
        return height;
    return (height + f->vsub - 1) / f->vsub;
}

uint32_t format_plane_row_bytes(const struct format_info *f, unsigned plane, uint32_t width)
{
    uint32_t w = plane == 0 || f->hsub <= 1 ? width : (width + f->hsub - 1) / f->hsub;

    return w * f->cpp[plane];
}

uint32_t format_plane_align(const struct format_info *f, unsigned plane)
{
    uint32_t cpp = f->cpp[plane];

    return cpp ? cpp & -cpp : 1;
}

uint32_t xcb_dri3_util_fourcc_from_depth(uint8_t depth, uint8_t bpp)
{
    /* Beyond 32 bits a pixel has no default: unorm and half-float share
     * depth and bpp, and no visual can tell them apart. */
    if (depth == 0 || bpp > 32)
        return 0;
    for (size_t i = 0; i < N_FORMATS; i++)
        if (formats[i].depth == depth && formats[i].bpp == bpp)
            return formats[i].fourcc;
    return 0;
}

uint32_t xcb_dri3_util_fourcc_from_visual(const xcb_visualtype_t *visual, uint8_t depth,
                                          uint8_t bpp)
{
    /* Only these classes have masks; the others index a colormap. */
    if (!visual || (visual->_class != XCB_VISUAL_CLASS_TRUE_COLOR &&
                    visual->_class != XCB_VISUAL_CLASS_DIRECT_COLOR))
        return 0;
    for (size_t i = 0; i < N_FORMATS; i++) {
        const struct format_info *f = &formats[i];

        if (f->depth == depth && f->bpp == bpp && f->red != 0 &&
            f->red == visual->red_mask && f->green == visual->green_mask &&
            f->blue == visual->blue_mask)
            return f->fourcc;
    }
    return 0;
}

int xcb_dri3_util_fourcc_to_depth(uint32_t fourcc, uint8_t *depth, uint8_t *bpp)
{
    const struct format_info *f = format_lookup(fourcc);

    if (!f || f->depth == 0) {
        errno = EINVAL;
        return -EINVAL;
    }
    if (depth)
        *depth = f->depth;
    if (bpp)
        *bpp = f->bpp;
    return 0;
}

static char *dup_or_enomem(const char *s)
{
    char *d = strdup(s);

    if (!d)
        errno = ENOMEM;
    return d;
}

char *xcb_dri3_util_fourcc_name(uint32_t fourcc)
{
    const struct format_info *f = format_lookup(fourcc);
    char buf[32];

    if (f)
        return dup_or_enomem(f->name);
    /* libdrm names a fourcc by its four characters, whatever they are;
     * only printable ones make a name, the others are shown as a number. */
    for (int i = 0; i < 4; i++) {
        if (!isprint((unsigned char)(fourcc >> (8 * i)))) {
            snprintf(buf, sizeof buf, "0x%08x", (unsigned)fourcc);
            return dup_or_enomem(buf);
        }
    }
    char *name = drmGetFormatName(fourcc);
    if (!name)
        errno = ENOMEM;
    return name;
}

char *xcb_dri3_util_modifier_name(uint64_t modifier)
{
    char buf[160];
    char *vendor, *name;

    if (modifier == DRM_FORMAT_MOD_INVALID)
        return dup_or_enomem("INVALID");
    if (modifier == DRM_FORMAT_MOD_LINEAR)
        return dup_or_enomem("LINEAR");
    vendor = drmGetFormatModifierVendor(modifier);
    name = drmGetFormatModifierName(modifier);
    if (vendor && name)
        snprintf(buf, sizeof buf, "%s_%s", vendor, name);
    else
        snprintf(buf, sizeof buf, "0x%016llx", (unsigned long long)modifier);
    free(vendor);
    free(name);
    return dup_or_enomem(buf);
}
