/* A minimal PNG writer (8-bit RGB, stored deflate blocks: no
 * compression, no dependency) for screenshots. */
#ifndef PNG_WRITE_H
#define PNG_WRITE_H

#include <stdint.h>

/* Writes width x height pixels, rows of stride bytes of 0x00RRGGBB
 * words, to path.  Returns 0, or -1 with errno set. */
int png_write_xrgb(const char *path, const uint32_t *pixels, uint32_t stride, uint32_t width,
                   uint32_t height);

#endif
