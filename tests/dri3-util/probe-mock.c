/*
 * The probe against the mock server: what it reports for servers with and
 * without DRI3 and Present, that it never sends a request to a missing
 * extension, that it pipelines its requests and that its answer is cached.
 */
#include "buffer-test-util.h"

enum { QUERY_EXTENSION = 98, DRI3 = MOCK_DRI3_MAJOR, PRESENT = MOCK_PRESENT_MAJOR,
       SYNC = MOCK_SYNC_MAJOR };

static void probe(struct e2e *t, xcb_dri3_util_caps_t *caps)
{
    memset(caps, 0xa5, sizeof *caps);
    caps->size = sizeof *caps;
    CHECK_EQ(xcb_dri3_util_probe(t->c, caps), 0);
    CHECK_EQ(caps->size, sizeof *caps);
}

/* The sized-struct rule: _init sets the size; a caller built against a
 * smaller (older) struct gets only its bytes written; one smaller than the
 * first version is refused before anything is asked. */
TEST(caps_size_is_respected)
{
    /* The first version ended with present_caps. */
    const size_t first = offsetof(xcb_dri3_util_caps_t, present_caps) + sizeof(uint32_t);
    unsigned char raw[sizeof(xcb_dri3_util_caps_t) + 16];
    xcb_dri3_util_caps_t caps, *part = (xcb_dri3_util_caps_t *)raw;
    struct e2e t;

    memset(&caps, 0xa5, sizeof caps);
    xcb_dri3_util_caps_init(&caps);
    CHECK_EQ(caps.size, sizeof caps);
    CHECK(!caps.dri3);
    CHECK_EQ(caps.present_caps, 0);
    xcb_dri3_util_caps_init(NULL);

    e2e_start(&t, NULL);
    caps.size = (uint32_t)first - 1;
    CHECK_EQ(xcb_dri3_util_probe(t.c, &caps), -EINVAL);
    caps.size = 0;
    CHECK_EQ(xcb_dri3_util_probe(t.c, &caps), -EINVAL);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, QUERY_EXTENSION, 0), 0);
    e2e_end(&t);

    e2e_start(&t, NULL);
    memset(raw, 0x5a, sizeof raw);
    part->size = (uint32_t)first;
    CHECK_EQ(xcb_dri3_util_probe(t.c, part), 0);
    CHECK_EQ(part->size, first);
    CHECK(part->dri3);
    for (size_t i = first; i < sizeof raw; i++)
        CHECK_EQ(raw[i], 0x5a);
    bt_stop(&t);
    e2e_end(&t);
}

TEST(full_server)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    struct e2e t;
    size_t first_version = SIZE_MAX, last_query = 0;

    e2e_start(&t, NULL);
    probe(&t, &caps);
    CHECK(caps.fd_passing);
    CHECK(caps.dri3);
    CHECK_EQ(caps.dri3_major, 1);
    CHECK_EQ(caps.dri3_minor, 4);
    CHECK(caps.present);
    CHECK_EQ(caps.present_major, 1);
    CHECK_EQ(caps.present_minor, 4);
    CHECK_EQ(caps.present_caps,
             XCB_PRESENT_CAPABILITY_ASYNC | XCB_PRESENT_CAPABILITY_FENCE |
                 XCB_PRESENT_CAPABILITY_UST | XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR |
                 XCB_PRESENT_CAPABILITY_SYNCOBJ);
    CHECK(caps.sync);
    CHECK(caps.sync_major >= 3);
    /* the mock has neither */
    CHECK(!caps.xfixes);
    CHECK(!caps.shm);
    CHECK_EQ(caps.xfixes_major, 0);
    CHECK_EQ(caps.shm_major, 0);
    CHECK(!caps.shm_pixmaps);
    bt_stop(&t);

    /* Five QueryExtension requests, then the version requests: no version
     * request was sent before the last QueryExtension. */
    CHECK_EQ(e2e_count_requests(&t, QUERY_EXTENSION, 0), 5);
    for (size_t i = 0; i < t.transcript->n; i++) {
        const struct mock_request_record *r = &t.transcript->requests[i];

        if (r->major == QUERY_EXTENSION)
            last_query = i;
        else if (r->major >= 128 && first_version == SIZE_MAX)
            first_version = i;
    }
    CHECK(first_version > last_query);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_QUERY_VERSION), 1);
    CHECK_EQ(e2e_u32(e2e_request(&t, DRI3, XCB_DRI3_QUERY_VERSION, 0), 8), 4);
    CHECK_EQ(e2e_count_requests(&t, PRESENT, XCB_PRESENT_QUERY_VERSION), 1);
    CHECK_EQ(e2e_u32(e2e_request(&t, PRESENT, XCB_PRESENT_QUERY_VERSION, 0), 8), 4);
    CHECK_EQ(e2e_count_requests(&t, PRESENT, XCB_PRESENT_QUERY_CAPABILITIES), 1);
    CHECK_EQ(e2e_u32(e2e_request(&t, PRESENT, XCB_PRESENT_QUERY_CAPABILITIES, 0), 4), t.root);
    e2e_end(&t);
}

/* Cached per connection: the second probe sends nothing; after
 * probe_forget the next one asks again. */
TEST(cached)
{
    xcb_dri3_util_caps_t a = { .size = sizeof a }, b = { .size = sizeof b };
    struct e2e t;

    e2e_start(&t, "dri3-version", "1.2", NULL);
    probe(&t, &a);
    probe(&t, &b);
    CHECK_MEM(&a, &b, sizeof a);
    CHECK_EQ(xcb_dri3_util_probe(t.c, NULL), 0);
    CHECK_EQ(a.dri3_minor, 2);
    xcb_dri3_util_probe_forget(t.c);
    probe(&t, &b);
    CHECK_MEM(&a, &b, sizeof a);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_QUERY_VERSION), 2);
    /* libxcb remembered the extensions: asked once. */
    CHECK_EQ(e2e_count_requests(&t, QUERY_EXTENSION, 0), 5);
    e2e_end(&t);
}

/* Servers without DRI3, without Present, without either: the probe says
 * so, no request goes to the missing one, the connection stays usable. */
static void without(const char *dri3, const char *present)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    struct e2e t;

    test_note("dri3 %s present %s", dri3, present);
    e2e_start(&t, "dri3-version", dri3, "present-version", present, NULL);
    probe(&t, &caps);
    CHECK_EQ(caps.dri3, strcmp(dri3, "none") != 0);
    CHECK_EQ(caps.present, strcmp(present, "none") != 0);
    if (!caps.dri3)
        CHECK_EQ(caps.dri3_major, 0);
    if (!caps.present) {
        CHECK_EQ(caps.present_major, 0);
        CHECK_EQ(caps.present_caps, 0);
    }
    CHECK(caps.sync);
    e2e_sync(&t);
    e2e_create_window(&t, 0, 0, 8, 8);
    bt_stop(&t);
    if (!caps.dri3)
        CHECK_EQ(count_major(&t, DRI3), 0);
    if (!caps.present)
        CHECK_EQ(count_major(&t, PRESENT), 0);
    e2e_end(&t);
}

TEST(without_dri3)
{
    without("none", "1.4");
}

TEST(without_present)
{
    without("1.4", "none");
}

TEST(without_either)
{
    without("none", "none");
}

TEST(older_versions)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    struct e2e t;

    e2e_start(&t, "dri3-version", "1.0", "present-version", "1.2", "present-caps", "none",
              NULL);
    probe(&t, &caps);
    CHECK_EQ(caps.dri3_major, 1);
    CHECK_EQ(caps.dri3_minor, 0);
    CHECK_EQ(caps.present_minor, 2);
    CHECK_EQ(caps.present_caps, 0);
    bt_stop(&t);
    e2e_end(&t);
}

/* Two connections to one server each get their own answer. */
TEST(per_connection)
{
    xcb_dri3_util_caps_t a = { .size = sizeof a }, b = { .size = sizeof b };
    xcb_connection_t *c2;
    struct e2e t;

    e2e_start(&t, NULL);
    c2 = mock_server_connect(t.server);
    CHECK_EQ(xcb_connection_has_error(c2), 0);
    probe(&t, &a);
    CHECK_EQ(xcb_dri3_util_probe(c2, &b), 0);
    CHECK_MEM(&a, &b, sizeof a);
    xcb_dri3_util_probe_forget(c2);
    xcb_disconnect(c2);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_QUERY_VERSION), 2);
    e2e_end(&t);
}

/* A broken connection: -EPIPE, and nothing is cached. */
TEST(broken_connection)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    struct e2e t;

    e2e_start(&t, "fault", "close-after:98", NULL);
    CHECK_EQ(xcb_dri3_util_probe(t.c, &caps), -EPIPE);
    CHECK_EQ(xcb_dri3_util_probe(t.c, &caps), -EPIPE);
    bt_stop(&t);
    e2e_end(&t);
}

/* A window's Present capabilities: asked once for the last window, a
 * window the server refuses is -ENODEV and replaces nothing, a refresh
 * asks again; the arguments and a server without Present are refused
 * before anything is sent. */
TEST(window_caps_asked_once_for_the_last_window)
{
    const uint32_t all = XCB_PRESENT_CAPABILITY_ASYNC | XCB_PRESENT_CAPABILITY_FENCE |
                         XCB_PRESENT_CAPABILITY_UST | XCB_PRESENT_CAPABILITY_ASYNC_MAY_TEAR |
                         XCB_PRESENT_CAPABILITY_SYNCOBJ;
    uint32_t caps = 0;
    struct e2e t;
    xcb_window_t w;

    e2e_start(&t, "present-window-caps", "async,ust", NULL);
    w = e2e_create_window(&t, 0, 0, 8, 8);
    CHECK_EQ(xcb_dri3_util_window_caps(NULL, w, &caps), -EINVAL);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, w, NULL), -EINVAL);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, w, &caps), 0);
    CHECK_EQ(caps, XCB_PRESENT_CAPABILITY_ASYNC | XCB_PRESENT_CAPABILITY_UST);
    caps = 0;
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, w, &caps), 0);
    CHECK_EQ(caps, XCB_PRESENT_CAPABILITY_ASYNC | XCB_PRESENT_CAPABILITY_UST);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, 0x00bad000, &caps), -ENODEV);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, w, &caps), 0);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, t.root, &caps), 0);
    CHECK_EQ(caps, all);
    xcb_dri3_util_probe_refresh(t.c);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, t.root, &caps), 0);
    CHECK_EQ(caps, all);
    CHECK_EQ(xcb_connection_has_error(t.c), 0);
    bt_stop(&t);
    /* The probes' two (the root's), w once, the bad window, the root
     * once before the refresh and once after. */
    CHECK_EQ(e2e_count_requests(&t, PRESENT, XCB_PRESENT_QUERY_CAPABILITIES), 6);
    CHECK_EQ(e2e_count_requests(&t, PRESENT, XCB_PRESENT_QUERY_VERSION), 2);
    e2e_end(&t);

    e2e_start(&t, "present-version", "none", NULL);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, t.root, &caps), -ENOTSUP);
    bt_stop(&t);
    CHECK_EQ(count_major(&t, PRESENT), 0);
    e2e_end(&t);
}

/* One entry per connection, two lifetimes inside it: a refresh (a
 * swapchain's teardown) drops the server's answers and keeps the
 * application's timeout; forget drops both. */
TEST(refresh_keeps_the_timeout_forget_drops_it)
{
    xcb_dri3_util_caps_t caps = { .size = sizeof caps };
    uint32_t wcaps;
    struct e2e t;

    e2e_start(&t, NULL);
    CHECK_EQ(xcb_dri3_util_set_timeout(t.c, 5000000000LL), 0);
    probe(&t, &caps);
    CHECK_EQ(xcb_dri3_util_window_caps(t.c, t.root, &wcaps), 0);
    xcb_dri3_util_probe_refresh(t.c);
    CHECK_EQ(xcb_dri3_util_timeout(t.c), 5000000000LL);
    probe(&t, &caps);
    CHECK_EQ(xcb_dri3_util_timeout(t.c), 5000000000LL);
    xcb_dri3_util_probe_forget(t.c);
    CHECK_EQ(xcb_dri3_util_timeout(t.c), XCB_DRI3_UTIL_DEFAULT_TIMEOUT_NS);
    probe(&t, &caps);
    bt_stop(&t);
    CHECK_EQ(e2e_count_requests(&t, DRI3, XCB_DRI3_QUERY_VERSION), 3);
    e2e_end(&t);
}
