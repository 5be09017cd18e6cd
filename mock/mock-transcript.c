/* Reading the transcript back (its format is in mock-server.h). */
#include "mock-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

static bool parse_request(const char *line, struct mock_request_record *r)
{
    unsigned major, minor;
    int used = 0;
    const char *hex;

    memset(r, 0, sizeof *r);
    if (sscanf(line, "request client=%d seq=%" SCNu32 " major=%u minor=%u length=%zu fds=%d "
               "data=%n", &r->client, &r->seq, &major, &minor, &r->length, &r->nfds,
               &used) != 6 || used == 0 || major > 255 || minor > 255 || r->nfds < 0)
        return false;
    r->major = (uint8_t)major;
    r->minor = (uint8_t)minor;
    hex = line + used;
    if (strlen(hex) != 2 * r->length)
        return false;
    r->data = malloc(r->length ? r->length : 1);
    if (!r->data)
        return false;
    for (size_t i = 0; i < r->length; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);

        if (hi < 0 || lo < 0) {
            free(r->data);
            return false;
        }
        r->data[i] = (uint8_t)(hi << 4 | lo);
    }
    /* The fd lines that follow fill these in; nfds counts them again. */
    r->fds = calloc((size_t)r->nfds + 1, sizeof *r->fds);
    if (!r->fds) {
        free(r->data);
        return false;
    }
    r->nfds = 0;
    return true;
}

static bool parse_fd(const char *line, struct mock_fd_record *f)
{
    int index;

    return sscanf(line, "fd index=%d kind=%7s size=%" SCNu64 " dev=%" SCNu64 " ino=%" SCNu64,
                  &index, f->kind, &f->size, &f->dev, &f->ino) == 5;
}

/* One line into t.  `expect_fds` is what the last request line announced. */
static bool parse_line(struct mock_transcript *t, const char *line, int *expect_fds)
{
    if (strncmp(line, "request ", 8) == 0) {
        struct mock_request_record *v = realloc(t->requests, (t->n + 1) * sizeof *v);

        if (!v)
            return false;
        t->requests = v;
        if (sscanf(line, "request client=%*d seq=%*u major=%*u minor=%*u length=%*u fds=%d",
                   expect_fds) != 1 || *expect_fds < 0 || *expect_fds > 64)
            return false;
        if (!parse_request(line, &t->requests[t->n]))
            return false;
        t->n++;
        return true;
    }
    if (strncmp(line, "fd ", 3) == 0) {
        struct mock_request_record *r = t->n ? &t->requests[t->n - 1] : NULL;

        if (!r || r->nfds >= *expect_fds)
            return false;
        return parse_fd(line, &r->fds[r->nfds++]);
    }
    if (strncmp(line, "info ", 5) == 0) {
        char **v = realloc(t->info, (t->ninfo + 1) * sizeof *v);

        if (!v)
            return false;
        t->info = v;
        return (t->info[t->ninfo] = strdup(line + 5)) && ++t->ninfo;
    }
    return false;
}

struct mock_transcript *mock_transcript_read(const char *path)
{
    struct mock_transcript *t;
    FILE *f = fopen(path, "re");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned lineno = 0;
    int expect_fds = 0;

    if (!f) {
        fprintf(stderr, "transcript %s: %s\n", path, strerror(errno));
        return NULL;
    }
    t = calloc(1, sizeof *t);
    while (t && (len = getline(&line, &cap, f)) > 0) {
        lineno++;
        /* A last line without its newline is still being written. */
        if (line[len - 1] != '\n')
            break;
        line[len - 1] = '\0';
        if (!parse_line(t, line, &expect_fds)) {
            fprintf(stderr, "transcript %s:%u: cannot parse \"%.60s\"\n", path, lineno, line);
            mock_transcript_free(t);
            t = NULL;
        }
    }
    free(line);
    fclose(f);
    return t;
}

void mock_transcript_free(struct mock_transcript *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->requests[i].data);
        free(t->requests[i].fds);
    }
    free(t->requests);
    for (size_t i = 0; i < t->ninfo; i++)
        free(t->info[i]);
    free(t->info);
    free(t);
}

const struct mock_request_record *mock_transcript_find(const struct mock_transcript *t,
                                                       uint8_t major, uint8_t minor,
                                                       size_t i)
{
    for (size_t k = 0; k < t->n; k++)
        if (t->requests[k].major == major && t->requests[k].minor == minor && i-- == 0)
            return &t->requests[k];
    return NULL;
}
