/*
 * "present-event-fault": Present events altered on their way, as a broken
 * server or a proxy would alter them, so that the tests can show what a
 * client does when an IdleNotify never comes or a CompleteNotify carries
 * an MSC that makes no sense.
 */
#include "mock-internal.h"

#include <stdio.h>
#include <string.h>

/* "drop-idle:N" or "complete-msc:K:MSC". */
bool mock_event_fault_parse(const char *spec, struct mock_event_fault *f)
{
    unsigned long long n;
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
    return false;
}

bool mock_event_fault_idle(struct mock_server_state *s)
{
    uint64_t k = ++s->n_idle_sent;

    for (int i = 0; i < s->cfg->n_event_faults; i++) {
        const struct mock_event_fault *f = &s->cfg->event_faults[i];

        if (f->kind == MOCK_EVENT_DROP_IDLE && k % f->n == 0) {
            mock_info(s, "fault: IdleNotify %llu dropped", (unsigned long long)k);
            return false;
        }
    }
    return true;
}

void mock_event_fault_complete(struct mock_server_state *s, uint64_t *msc)
{
    uint64_t k = ++s->n_complete_sent;

    for (int i = 0; i < s->cfg->n_event_faults; i++) {
        const struct mock_event_fault *f = &s->cfg->event_faults[i];

        if (f->kind == MOCK_EVENT_COMPLETE_MSC && k == f->n) {
            mock_info(s, "fault: CompleteNotify %llu says msc %llu instead of %llu",
                      (unsigned long long)k, (unsigned long long)f->msc,
                      (unsigned long long)*msc);
            *msc = f->msc;
        }
    }
}
