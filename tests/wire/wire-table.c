/* See wire-table.h. */
#define _GNU_SOURCE
#include "wire-table.h"

#include <unistd.h>

#include "test-fds.h"
#include "test-runner.h"

static void run_variant(xcb_connection_t *c, fake_server_t *srv, const struct wire_row *row,
                        int variant)
{
    struct wire want = { 0 };
    struct fd_id id[FAKE_MAX_FDS];
    int32_t fds[FAKE_MAX_FDS];
    int got[FAKE_MAX_FDS], ngot = 0;
    unsigned int seq;

    CHECK(row->nfds <= FAKE_MAX_FDS);
    for (unsigned int i = 0; i < row->nfds; i++)
        fds[i] = test_memfd(row->name, 0, &id[i]);
    seq = row->send(c, variant, fds, row->arg);
    CHECK(xcb_flush(c) > 0);
    /* Sent, so libxcb has closed them: checked before the server's recvmsg
     * could reuse the numbers. */
    for (unsigned int i = 0; i < row->nfds; i++)
        CHECK_FD_CLOSED(fds[i]);

    row->bytes(&want, variant, row->arg);
    EXPECT_REQUEST(srv, &want, row->nfds ? got : NULL, row->nfds ? &ngot : NULL);
    if (row->accessors)
        row->accessors(want.data, row->arg);
    wire_free(&want);
    CHECK_EQ(seq, fake_seq(srv));
    CHECK_EQ(ngot, row->nfds);
    for (int i = 0; i < ngot; i++) {
        CHECK_FD_IS(got[i], id[i]);
        close(got[i]);
    }
    if (row->reply)
        row->reply(c, srv, seq, row->arg);
}

void wire_run(const struct wire_row *rows, size_t n)
{
    for (size_t r = 0; r < n; r++) {
        xcb_connection_t *c;
        fake_server_t *srv = fake_start(&c);

        for (int variant = 0; variant < 2; variant++) {
            /* Shown only if the test fails: which row and variant. */
            test_note("row %s, variant %d", rows[r].name, variant);
            run_variant(c, srv, &rows[r], variant);
        }
        fake_stop(srv);
    }
}
