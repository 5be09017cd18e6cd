/* The transcript writer: one line per request, one per fd it took, and
 * "info" lines (the format is in mock-server.h). */
#include "mock-internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void mock_info(struct mock_server_state *s, const char *fmt, ...)
{
    va_list ap;

    if (!s->transcript)
        return;
    fputs("info ", s->transcript);
    va_start(ap, fmt);
    vfprintf(s->transcript, fmt, ap);
    va_end(ap);
    fputc('\n', s->transcript);
    /* Each line is flushed so that a test can read it even after the
     * server died of a signal. */
    fflush(s->transcript);
}

void mock_describe_fd(int fd, struct mock_fd_record *r)
{
    struct stat st;
    char link[64], target[32];
    ssize_t n;

    memset(r, 0, sizeof *r);
    if (fstat(fd, &st) < 0) {
        strcpy(r->kind, "other");
        return;
    }
    r->dev = st.st_dev;
    r->ino = st.st_ino;
    if (S_ISFIFO(st.st_mode)) {
        strcpy(r->kind, "pipe");
    } else if (S_ISSOCK(st.st_mode)) {
        strcpy(r->kind, "socket");
    } else if (S_ISREG(st.st_mode)) {
        r->size = (uint64_t)st.st_size;
        /* memfds are regular files too; only their /proc link tells. */
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        n = readlink(link, target, sizeof target - 1);
        target[n > 0 ? n : 0] = '\0';
        strcpy(r->kind, strncmp(target, "/memfd:", 7) == 0 ? "memfd" : "file");
    } else if (mock_fd_is_dmabuf(fd)) {
        /* a GPU's buffer: its size only lseek tells */
        off_t end = lseek(fd, 0, SEEK_END);

        lseek(fd, 0, SEEK_SET);
        r->size = end > 0 ? (uint64_t)end : 0;
        strcpy(r->kind, "dmabuf");
    } else {
        strcpy(r->kind, "other");
    }
}

void mock_record_request(struct mock_server_state *s, const struct mock_request *req)
{
    FILE *t = s->transcript;

    if (!t)
        return;
    fprintf(t, "request client=%d seq=%" PRIu32 " major=%u minor=%u length=%zu fds=%d data=",
            req->client->index, req->seq, req->major, req->minor, req->length, req->ntaken);
    for (size_t i = 0; i < req->length; i++)
        fprintf(t, "%02x", req->data[i]);
    fputc('\n', t);
    for (int i = 0; i < req->ntaken; i++) {
        const struct mock_fd_record *r = &req->taken_info[i];

        fprintf(t, "fd index=%d kind=%s size=%" PRIu64 " dev=%" PRIu64 " ino=%" PRIu64 "\n",
                i, r->kind, r->size, r->dev, r->ino);
    }
    fflush(t);
}
