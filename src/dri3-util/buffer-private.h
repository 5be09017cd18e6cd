/*
 * The buffer object, shared by buffer.c (life, checks, CPU mapping),
 * buffer-pixmap.c (the server's side) and buffer-gbm.c.
 */
#ifndef XCB_DRI3_UTIL_BUFFER_PRIVATE_H
#define XCB_DRI3_UTIL_BUFFER_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xcb_dri3_util.h"

struct buffer_plane {
    int fd;                 /* may equal another plane's fd */
    uint32_t stride, offset;
    uint64_t fd_size;       /* valid when size_known */
    bool size_known;        /* false only for a dma-buf whose kernel does not
                             * tell its size (lseek SEEK_END fails) */
    bool dmabuf;            /* needs DMA_BUF_IOCTL_SYNC around CPU access */
    void *map;              /* the mapping's start (page-aligned), or NULL */
    size_t map_len;
    unsigned map_flags;
    bool in_access;         /* between a begin (map) and an end (unmap) of
                             * the CPU's access: a DMA_BUF_IOCTL_SYNC start
                             * waits for its end */
};

struct xcb_dri3_util_buffer {
    uint16_t width, height;
    uint8_t depth, bpp;
    uint32_t fourcc;
    uint64_t modifier;
    unsigned n_planes;
    struct buffer_plane planes[4];
    void *gbm_bo;           /* struct gbm_bo *, destroyed with the buffer */
    void (*gbm_destroy)(void *bo);
};

/*
 * xcb_dri3_util_buffer_import() with the errno it would set returned as a
 * negative value instead (for callers that translate it, such as
 * from_pixmap, where a bad layout is the server's fault: EPROTO).  Takes
 * ownership of the fds whatever the outcome.
 */
int buffer_import(uint16_t width, uint16_t height, uint32_t fourcc, uint64_t modifier,
                  unsigned n_planes, const int *fds, const uint32_t *strides,
                  const uint32_t *offsets, xcb_dri3_util_buffer_t **out);

/* Closes fds[0..n), each distinct fd once. */
void close_distinct_fds(const int *fds, unsigned n);

#endif
