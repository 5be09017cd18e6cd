/*
 * VK_EXT_present_timing (revision 3) on Present's completions.
 *
 * What X11 lets a client observe, and so what is reported:
 *   QUEUE_OPERATIONS_END   the application's wait semaphores were done
 *                          (the layer's fence, vkQueuePresentKHR)
 *   REQUEST_DEQUEUED       the PresentPixmap request was sent
 *   IMAGE_FIRST_PIXEL_OUT  the vblank that showed the frame: the UST of
 *                          its CompleteNotify (0 for a frame replaced
 *                          before its vblank, or lost)
 * IMAGE_FIRST_PIXEL_VISIBLE is not observable through X11 and is not
 * offered.  Every time is CLOCK_MONOTONIC in nanoseconds (a local server's
 * UST): the swapchain's time domains are PRESENT_STAGE_LOCAL (id 0) and
 * CLOCK_MONOTONIC (id 1), both that clock, and calibrated timestamps of
 * the first are the second's.
 *
 * Target times go to the engine's present_at (never shown before the
 * target); a relative target in a FIFO mode becomes the swap interval of
 * that frame (so many refreshes after the previous frame's vblank).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "layer.h"

#define TIMING_STAGES \
    (VK_PRESENT_STAGE_QUEUE_OPERATIONS_END_BIT_EXT | VK_PRESENT_STAGE_REQUEST_DEQUEUED_BIT_EXT | \
     VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT)

uint64_t layer_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

VkPresentStageFlagsEXT layer_timing_stages(void)
{
    return TIMING_STAGES;
}

/* ---- completions ---------------------------------------------------------- */

static struct timing_record *find_record(struct layer_swapchain *s, uint64_t frame_id)
{
    for (uint32_t i = 0; i < s->timing.count; i++)
        if (s->timing.q[i].frame_id == frame_id)
            return &s->timing.q[i];
    return NULL;
}

static void complete(struct timing_record *r, uint64_t pixel_out_ns)
{
    r->pixel_out_ns = pixel_out_ns;
    r->done |= VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT;
}

/* The engine's frame callback (outside its lock): the vblank of a frame. */
void layer_timing_frame(void *data, const xcb_present_util_frame_t *f)
{
    struct layer_swapchain *s = data;
    bool shown = f->mode != XCB_PRESENT_COMPLETE_MODE_SKIP &&
                 f->mode != XCB_PRESENT_UTIL_COMPLETE_LOST && f->ust;
    uint64_t ns = shown ? f->ust * 1000 : 0;
    struct timing_record *r;

    pthread_mutex_lock(&s->lock);
    if (shown)
        s->timing.last_shown_ns = ns;
    /* completions come in present order: an earlier frame still waiting
     * for its vblank was lost or replaced, and its last stage never comes */
    for (uint32_t i = 0; i < s->timing.count; i++)
        if (s->timing.q[i].frame_id < f->frame &&
            !(s->timing.q[i].done & VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT))
            complete(&s->timing.q[i], 0);
    r = find_record(s, f->frame);
    if (r) {
        complete(r, ns);
    } else {
        /* a completion that came before its record was queued */
        struct early *e = &s->timing.early[s->timing.early_next++ % LAYER_EARLY];

        e->frame_id = f->frame;
        e->ns = ns;
    }
    pthread_mutex_unlock(&s->lock);
}

/* ---- presenting with timing ------------------------------------------------ */

const VkPresentTimingInfoEXT *layer_timing_info(const VkPresentInfoKHR *info, uint32_t i)
{
    for (const VkBaseInStructure *p = info->pNext; p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_PRESENT_TIMINGS_INFO_EXT) {
            const VkPresentTimingsInfoEXT *t = (const VkPresentTimingsInfoEXT *)p;

            return t->pTimingInfos && i < t->swapchainCount ? &t->pTimingInfos[i] : NULL;
        }
    return NULL;
}

VkResult layer_timing_check(struct layer_swapchain *s, const VkPresentTimingInfoEXT *t)
{
    VkResult r = VK_SUCCESS;

    if (!t || !t->presentStageQueries)
        return VK_SUCCESS;
    pthread_mutex_lock(&s->lock);
    if (s->timing.count >= s->timing.size)
        r = VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT;
    pthread_mutex_unlock(&s->lock);
    return r;
}

/* Where the engine aims a frame with a target time: *target_ust, or a
 * swap interval for a relative one in a FIFO mode (*interval, 0: none). */
void layer_timing_aim(struct layer_swapchain *s, const VkPresentTimingInfoEXT *t,
                      uint64_t refresh_ns, uint64_t *target_ust, uint32_t *interval)
{
    uint64_t target;

    *target_ust = 0;
    *interval = 0;
    if (!t || !t->targetTime)
        return;
    if (t->flags & VK_PRESENT_TIMING_INFO_PRESENT_AT_RELATIVE_TIME_BIT_EXT) {
        if (refresh_ns && (s->mode == VK_PRESENT_MODE_FIFO_KHR ||
                           s->mode == VK_PRESENT_MODE_FIFO_RELAXED_KHR)) {
            uint64_t n = (t->targetTime + refresh_ns - 1) / refresh_ns;

            if (t->flags & VK_PRESENT_TIMING_INFO_PRESENT_AT_NEAREST_REFRESH_CYCLE_BIT_EXT)
                n = (t->targetTime + refresh_ns / 2) / refresh_ns;
            *interval = n < 1 ? 1 : n > 1000 ? 1000 : (uint32_t)n;
            return;
        }
        pthread_mutex_lock(&s->lock);
        target = (s->timing.last_shown_ns ? s->timing.last_shown_ns : layer_now_ns()) +
                 t->targetTime;
        pthread_mutex_unlock(&s->lock);
    } else {
        target = t->targetTime;
    }
    /* the vblank nearest the target: as much as half a refresh before it */
    if ((t->flags & VK_PRESENT_TIMING_INFO_PRESENT_AT_NEAREST_REFRESH_CYCLE_BIT_EXT) &&
        target > refresh_ns / 2)
        target -= refresh_ns / 2;
    *target_ust = target / 1000;
}

void layer_timing_queued(struct layer_swapchain *s, const VkPresentTimingInfoEXT *t,
                         uint64_t frame_id, uint64_t present_id, uint64_t queue_end_ns,
                         uint64_t dequeued_ns)
{
    struct timing_record *r;

    if (!t || !t->presentStageQueries || !frame_id)
        return;
    pthread_mutex_lock(&s->lock);
    if (s->timing.count < s->timing.size) {
        r = &s->timing.q[s->timing.count++];
        *r = (struct timing_record){
            .frame_id = frame_id, .present_id = present_id, .target_time = t->targetTime,
            .queries = t->presentStageQueries & TIMING_STAGES,
            .done = VK_PRESENT_STAGE_QUEUE_OPERATIONS_END_BIT_EXT |
                    VK_PRESENT_STAGE_REQUEST_DEQUEUED_BIT_EXT,
            .queue_end_ns = queue_end_ns, .dequeued_ns = dequeued_ns,
            .domain_id = t->timeDomainId,
        };
        for (uint32_t i = 0; i < LAYER_EARLY; i++)
            if (s->timing.early[i].frame_id == frame_id)
                complete(r, s->timing.early[i].ns);
    }
    pthread_mutex_unlock(&s->lock);
}

/* ---- the queries ------------------------------------------------------------ */

static bool record_complete(const struct timing_record *r)
{
    return (r->done & r->queries) == r->queries;
}

static void fill_timing(const struct timing_record *r, VkPastPresentationTimingEXT *out)
{
    static const VkPresentStageFlagsEXT order[] = {
        VK_PRESENT_STAGE_QUEUE_OPERATIONS_END_BIT_EXT, VK_PRESENT_STAGE_REQUEST_DEQUEUED_BIT_EXT,
        VK_PRESENT_STAGE_IMAGE_FIRST_PIXEL_OUT_BIT_EXT,
    };
    uint64_t times[] = { r->queue_end_ns, r->dequeued_ns, r->pixel_out_ns };
    uint32_t n = 0;

    out->presentId = r->present_id;
    out->targetTime = r->target_time;
    out->timeDomain = r->domain_id == 1 ? VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT
                                        : VK_TIME_DOMAIN_PRESENT_STAGE_LOCAL_EXT;
    out->timeDomainId = r->domain_id == 1 ? 1 : 0;
    out->reportComplete = record_complete(r);
    for (uint32_t i = 0; i < 3; i++) {
        if (!(r->queries & order[i]) || !(r->done & order[i]))
            continue;
        if (out->pPresentStages && n < out->presentStageCount)
            out->pPresentStages[n] = (VkPresentStageTimeEXT){ order[i], times[i] };
        n++;
    }
    if (!out->pPresentStages || n < out->presentStageCount)
        out->presentStageCount = n;
}

/* Results in present order: a record is given once all its stages are in
 * (or at once, as it stands, with ALLOW_PARTIAL_RESULTS, and then kept
 * until complete); an unfinished one holds back those after it unless
 * ALLOW_OUT_OF_ORDER_RESULTS.  out NULL: only counts. */
static uint32_t take_results(struct layer_swapchain *s, VkPastPresentationTimingFlagsEXT flags,
                             VkPastPresentationTimingEXT *out, uint32_t room,
                             uint32_t *available)
{
    bool partial = flags & VK_PAST_PRESENTATION_TIMING_ALLOW_PARTIAL_RESULTS_BIT_EXT;
    bool any_order = flags & VK_PAST_PRESENTATION_TIMING_ALLOW_OUT_OF_ORDER_RESULTS_BIT_EXT;
    bool blocked = false;
    uint32_t given = 0, kept = 0;

    *available = 0;
    for (uint32_t i = 0; i < s->timing.count; i++) {
        struct timing_record r = s->timing.q[i];
        bool done = record_complete(&r), eligible = !blocked && (done || partial);

        if (!done && !partial && !any_order)
            blocked = true;
        if (eligible)
            (*available)++;
        if (eligible && out && given < room) {
            fill_timing(&r, &out[given++]);
            if (done)
                continue;       /* told complete: gone */
        }
        s->timing.q[kept++] = r;
    }
    if (out)
        s->timing.count = kept;
    return given;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetPastPresentationTimingEXT(VkDevice device, const VkPastPresentationTimingInfoEXT *info,
                                   VkPastPresentationTimingPropertiesEXT *props)
{
    struct layer_swapchain *s = layer_swapchain(info->swapchain);
    uint32_t available, given;

    (void)device;
    /* take in what the server sent: the completions' callbacks run now */
    xcb_present_util_dispatch(s->sc);
    pthread_mutex_lock(&s->lock);
    props->timingPropertiesCounter = s->timing.properties_counter;
    props->timeDomainsCounter = 1;
    given = take_results(s, info->flags, props->pPresentationTimings,
                         props->presentationTimingCount, &available);
    props->presentationTimingCount = props->pPresentationTimings ? given : available;
    pthread_mutex_unlock(&s->lock);
    return props->pPresentationTimings && given < available ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_SetSwapchainPresentTimingQueueSizeEXT(VkDevice device, VkSwapchainKHR swapchain,
                                            uint32_t size)
{
    struct layer_swapchain *s = layer_swapchain(swapchain);
    struct timing_record *q;
    VkResult r = VK_SUCCESS;

    (void)device;
    pthread_mutex_lock(&s->lock);
    if (size < s->timing.count) {
        r = VK_NOT_READY;       /* more results wait than would fit */
    } else if (size != s->timing.size) {
        q = realloc(s->timing.q, (size ? size : 1) * sizeof *q);
        if (q) {
            s->timing.q = q;
            s->timing.size = size;
        } else {
            r = VK_ERROR_OUT_OF_HOST_MEMORY;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetSwapchainTimingPropertiesEXT(VkDevice device, VkSwapchainKHR swapchain,
                                      VkSwapchainTimingPropertiesEXT *props, uint64_t *counter)
{
    struct layer_swapchain *s = layer_swapchain(swapchain);
    xcb_present_util_stats_t st;
    uint64_t refresh;

    (void)device;
    xcb_present_util_stats_init(&st);
    xcb_present_util_dispatch(s->sc);
    xcb_present_util_swapchain_stats(s->sc, &st);
    pthread_mutex_lock(&s->lock);
    /* the counter moves when the refresh does (by more than 2 %) */
    refresh = s->timing.reported_refresh_ns;
    if (st.refresh_ns && (!refresh || st.refresh_ns > refresh + refresh / 50 ||
                          st.refresh_ns + refresh / 50 < refresh)) {
        s->timing.reported_refresh_ns = refresh = st.refresh_ns;
        s->timing.properties_counter++;
    }
    props->refreshDuration = refresh;
    props->refreshInterval = refresh;   /* a fixed rate: every refresh the same */
    if (counter)
        *counter = s->timing.properties_counter;
    pthread_mutex_unlock(&s->lock);
    return refresh ? VK_SUCCESS : VK_NOT_READY;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetSwapchainTimeDomainPropertiesEXT(VkDevice device, VkSwapchainKHR swapchain,
                                          VkSwapchainTimeDomainPropertiesEXT *props,
                                          uint64_t *counter)
{
    static const VkTimeDomainKHR domains[] = {
        VK_TIME_DOMAIN_PRESENT_STAGE_LOCAL_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
    };
    uint32_t n;

    (void)device;
    (void)swapchain;
    if (counter)
        *counter = 1;
    if (!props->pTimeDomains && !props->pTimeDomainIds) {
        props->timeDomainCount = 2;
        return VK_SUCCESS;
    }
    n = props->timeDomainCount < 2 ? props->timeDomainCount : 2;
    for (uint32_t i = 0; i < n; i++) {
        if (props->pTimeDomains)
            props->pTimeDomains[i] = domains[i];
        if (props->pTimeDomainIds)
            props->pTimeDomainIds[i] = i;
    }
    props->timeDomainCount = n;
    return n < 2 ? VK_INCOMPLETE : VK_SUCCESS;
}

/* The swapchain's domains are CLOCK_MONOTONIC: the driver calibrates that
 * one for them, without the layer's structs in the chain. */
static VKAPI_ATTR VkResult VKAPI_CALL
layer_GetCalibratedTimestampsEXT(VkDevice device, uint32_t count,
                                 const VkCalibratedTimestampInfoKHR *infos, uint64_t *stamps,
                                 uint64_t *deviation)
{
    struct layer_device *d = layer_device_get(layer_key(device));
    VkCalibratedTimestampInfoKHR *copy;
    PFN_vkGetCalibratedTimestampsEXT next;
    VkResult r;

    if (!d)
        return VK_ERROR_DEVICE_LOST;
    next = (PFN_vkGetCalibratedTimestampsEXT)d->gdpa(device, "vkGetCalibratedTimestampsEXT");
    if (!next)
        return VK_ERROR_EXTENSION_NOT_PRESENT;
    copy = calloc(count ? count : 1, sizeof *copy);
    if (!copy)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < count; i++) {
        copy[i] = infos[i];
        copy[i].pNext = NULL;
        if (copy[i].timeDomain == VK_TIME_DOMAIN_PRESENT_STAGE_LOCAL_EXT ||
            copy[i].timeDomain == VK_TIME_DOMAIN_SWAPCHAIN_LOCAL_EXT)
            copy[i].timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
    }
    r = next(device, count, copy, stamps, deviation);
    free(copy);
    return r;
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_WaitForPresent2KHR(VkDevice device, VkSwapchainKHR swapchain,
                         const VkPresentWait2InfoKHR *info)
{
    return layer_wait_for_present(device, swapchain, info->presentId, info->timeout);
}

PFN_vkVoidFunction layer_timing_proc(const char *name)
{
#define F(n) LAYER_PROC(n)
    static const struct layer_proc table[] = {
        F(GetPastPresentationTimingEXT), F(SetSwapchainPresentTimingQueueSizeEXT),
        F(GetSwapchainTimingPropertiesEXT), F(GetSwapchainTimeDomainPropertiesEXT),
        F(GetCalibratedTimestampsEXT), F(WaitForPresent2KHR),
        { "vkGetCalibratedTimestampsKHR", (PFN_vkVoidFunction)layer_GetCalibratedTimestampsEXT },
    };
#undef F

    return layer_proc_find(table, sizeof table / sizeof table[0], name);
}
