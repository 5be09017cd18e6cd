/*
 * "present-event-fault": Present events altered on their way, as a broken
 * server or a proxy would alter them, so that the tests can show what a
 * client does when an IdleNotify never comes, a CompleteNotify carries an
 * MSC that makes no sense, every event of a few frames in a row is lost,
 * or a ConfigureNotify says a size no window can have.
 */
#include "mock-internal.h"

#include <stdio.h>
#include <string.h>

/* "drop-idle:N", "complete-msc:K:MSC", "drop-all:K:N[:EVERY]" or
 * "configure-zero:K". */
bool mock_event_fault_parse(const char *spec, struct mock_event_fault *f)
{
    unsigned long long n, count, every;
    long long msc;          /* -1 is 2^64 - 1, the largest MSC */
    int used = 0;

    memset(f, 0, sizeof *f);
    if (sscanf(spec, "drop-idle:%llu%n", &n, &used) == 1 && !spec[used] && n > 0) {
        f->kind = MOCK_EVENT_DROP_IDLE;
        f->n = n;
        return true;
    }
    used = 0;
    if (sscanf(spec, "complete-msc:%llu:%lli%n", &n, &msc, &used) == 2 && !spec[used] &&
        n > 0) {
        f->kind = MOCK_EVENT_COMPLETE_MSC;
        f->n = n;
        f->msc = (uint64_t)msc;
        return true;
    }
    used = 0;
    if (sscanf(spec, "drop-all:%llu:%llu%n", &n, &count, &used) == 2 && n > 0 && count > 0) {
        every = 0;
        if (spec[used]) {
            int more = 0;

            if (sscanf(spec + used, ":%llu%n", &every, &more) != 1 || spec[used + more] ||
                every < count)
                return false;
        }
        f->kind = MOCK_EVENT_DROP_ALL;
        f->n = n;
        f->count = count;
        f->every = every;
        return true;
    }
    used = 0;
    if (sscanf(spec, "proxy:%llu:%llu%n", &n, &count, &used) == 2 && !spec[used] &&
        count <= 100) {
        f->kind = MOCK_EVENT_PROXY;
        f->n = n;               /* the seed */
        f->count = count;       /* the percentage */
        return true;
    }
    used = 0;
    if (sscanf(spec, "configure-zero:%llu%n", &n, &used) == 1 && !spec[used] && n > 0) {
        f->kind = MOCK_EVENT_CONFIGURE_ZERO;
        f->n = n;
        return true;
    }
    return false;
}

/* Whether the k-th event (1, 2, ...) lies in a drop-all fault's range. */
static bool drop_all_hits(const struct mock_event_fault *f, uint64_t k)
{
    if (f->kind != MOCK_EVENT_DROP_ALL || k < f->n)
        return false;
    k -= f->n;
    if (f->every)
        k %= f->every;
    return k < f->count;
}

bool mock_event_fault_idle(struct mock_server_state *s)
{
    uint64_t k = ++s->n_idle_sent;

    for (int i = 0; i < s->cfg->n_event_faults; i++) {
        const struct mock_event_fault *f = &s->cfg->event_faults[i];

        if ((f->kind == MOCK_EVENT_DROP_IDLE && k % f->n == 0) || drop_all_hits(f, k)) {
            mock_info(s, "fault: IdleNotify %llu dropped", (unsigned long long)k);
            return false;
        }
    }
    return true;
}

bool mock_event_fault_complete(struct mock_server_state *s, uint64_t *msc)
{
    uint64_t k = ++s->n_complete_sent;
    bool send = true;

    for (int i = 0; i < s->cfg->n_event_faults; i++) {
        const struct mock_event_fault *f = &s->cfg->event_faults[i];

        if (f->kind == MOCK_EVENT_COMPLETE_MSC && k == f->n) {
            mock_info(s, "fault: CompleteNotify %llu says msc %llu instead of %llu",
                      (unsigned long long)k, (unsigned long long)f->msc,
                      (unsigned long long)*msc);
            *msc = f->msc;
        }
        if (drop_all_hits(f, k))
            send = false;
    }
    if (!send)
        mock_info(s, "fault: CompleteNotify %llu dropped", (unsigned long long)k);
    return send;
}

bool mock_event_fault_configure_zero(const struct mock_server_state *s)
{
    for (int i = 0; i < s->cfg->n_event_faults; i++) {
        const struct mock_event_fault *f = &s->cfg->event_faults[i];

        if (f->kind == MOCK_EVENT_CONFIGURE_ZERO && s->n_complete_sent == f->n)
            return true;
    }
    return false;
}

/* xorshift64*: the same faults for the same seed, run after run. */
static uint64_t proxy_random(struct mock_server_state *s, uint64_t seed)
{
    if (!s->proxy_rng)
        s->proxy_rng = seed * 0x9e3779b97f4a7c15ull + 1;
    s->proxy_rng ^= s->proxy_rng >> 12;
    s->proxy_rng ^= s->proxy_rng << 25;
    s->proxy_rng ^= s->proxy_rng >> 27;
    return s->proxy_rng * 0x2545f4914f6cdd1dull;
}

int mock_event_fault_proxy(struct mock_server_state *s, const char *what, uint32_t *serial)
{
    for (int i = 0; i < s->cfg->n_event_faults; i++) {
        const struct mock_event_fault *f = &s->cfg->event_faults[i];
        uint64_t r;

        if (f->kind != MOCK_EVENT_PROXY)
            continue;
        r = proxy_random(s, f->n);
        if (r % 100 >= f->count)
            return 1;
        switch ((r >> 32) % 3) {
        case 0:
            mock_info(s, "fault: proxy lost %s serial %u", what, *serial);
            return 0;
        case 1:
            mock_info(s, "fault: proxy duplicated %s serial %u", what, *serial);
            return 2;
        default:
            mock_info(s, "fault: proxy gave %s serial %u another serial", what, *serial);
            *serial ^= 0x40000000u;
            return 1;
        }
    }
    return 1;
}
