/*
 * The format table shared by the buffer files: for each DRM fourcc the
 * library knows, its X depth and bpp (0 for formats with no X depth), the
 * channel masks of its pixel as an X visual describes it, and the geometry
 * of its planes.
 */
#ifndef XCB_DRI3_UTIL_FORMATS_H
#define XCB_DRI3_UTIL_FORMATS_H

#include <stdint.h>

struct format_info {
    uint32_t fourcc;
    const char *name;
    uint8_t depth, bpp;         /* 0/0: no X depth */
    /* Where each channel sits in the pixel read as one little-endian
     * integer of bpp bits, as a visual's masks say it; all 0 for formats
     * no visual can describe (YUV, and pixels wider than 32 bits, which a
     * visual's 32-bit masks cannot reach). */
    uint32_t red, green, blue, alpha;
    uint8_t n_planes;
    uint8_t cpp[3];             /* bytes per pixel (per block) of each plane */
    uint8_t hsub, vsub;         /* chroma subsampling of planes 1 and 2 */
};

/* The entry for fourcc, or NULL. */
const struct format_info *format_lookup(uint32_t fourcc);

/* Rows of plane `plane` of a format for an image `height` rows high. */
uint32_t format_plane_rows(const struct format_info *f, unsigned plane, uint32_t height);

/* Bytes one row of plane `plane` holds for an image `width` pixels wide:
 * the least stride that plane can have. */
uint32_t format_plane_row_bytes(const struct format_info *f, unsigned plane, uint32_t width);

/* The alignment a plane's offset and stride need: the largest power of
 * two that divides its bytes per pixel (4 for 32-bit pixels, 2 for 16-bit
 * ones, 1 for 8- and 24-bit ones), so that every pixel of every row sits
 * at its natural alignment. */
uint32_t format_plane_align(const struct format_info *f, unsigned plane);

#endif
