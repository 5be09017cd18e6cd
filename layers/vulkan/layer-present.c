/*
 * Acquire, present, present-wait and release (VK_KHR_swapchain,
 * VK_KHR_present_id, VK_KHR_present_wait, VK_EXT_swapchain_maintenance1)
 * on the engine.
 *
 * Synchronisation without a sync-fd: an image the engine hands out is
 * already idle (the server's IdleNotify came), so the acquire semaphore
 * and fence are signalled at once by an empty submission on the device's
 * queue.  vkQueuePresentKHR makes one empty submission that waits for the
 * application's semaphores and signals a fence, waits for that fence on
 * the calling thread (the rendering of this frame, never a refresh), then
 * hands the frames to the engine, which does not block for the screen.
 */
#include <errno.h>
#include <string.h>

#include "layer.h"

VkResult layer_signal(struct layer_device *d, VkSemaphore sem, VkFence fence)
{
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .signalSemaphoreCount = sem ? 1 : 0,
        .pSignalSemaphores = &sem,
    };
    VkResult r;

    if (!sem && !fence)
        return VK_SUCCESS;
    pthread_mutex_lock(&d->queue_lock);
    r = d->QueueSubmit(d->queue, sem ? 1 : 0, &submit, fence);
    pthread_mutex_unlock(&d->queue_lock);
    return r;
}

/* A window-system failure, in Vulkan's terms: never DEVICE_LOST. */
static VkResult wsi_error(int r)
{
    switch (r) {
    case -ENOMEM:
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    case -ECANCELED:
    case -EINVAL:
        return VK_ERROR_OUT_OF_DATE_KHR;
    default:
        return VK_ERROR_SURFACE_LOST_KHR;
    }
}

/* The engine says SUBOPTIMAL while the images' size is not the window's.
 * A program may have chosen another size at create (any extent is
 * allowed, the server clips or pads), and that stays optimal: only a
 * window resized since the swapchain was made is SUBOPTIMAL, and then
 * OUT_OF_DATE. */
static bool resized(struct layer_swapchain *s, int status)
{
    uint16_t w, h;

    if (status != XCB_PRESENT_UTIL_SUBOPTIMAL)
        return false;
    if (xcb_present_util_swapchain_window_size(s->sc, &w, &h) < 0)
        return true;
    return w != s->window_at_create.width || h != s->window_at_create.height;
}

/* Vulkan's timeouts: UINT64_MAX (and anything past INT64_MAX) waits for
 * ever; the engine's negative timeouts are bounded, so the wait goes on
 * in slices. */
static int engine_acquire(struct layer_swapchain *s, uint64_t timeout,
                          xcb_present_util_image_t *img)
{
    int r;

    if (timeout <= INT64_MAX)
        return xcb_present_util_acquire(s->sc, (int64_t)timeout, img);
    do
        r = xcb_present_util_acquire(s->sc, -1, img);
    while (r == -ETIMEDOUT);
    return r;
}

static VkResult acquire(struct layer_device *d, struct layer_swapchain *s, uint64_t timeout,
                        VkSemaphore sem, VkFence fence, uint32_t *index)
{
    xcb_present_util_image_t img;
    VkResult res = VK_SUCCESS;
    int r;

    if (s->retired || s->out_of_date)
        return VK_ERROR_OUT_OF_DATE_KHR;
    xcb_present_util_image_init(&img);
    r = engine_acquire(s, timeout, &img);
    if (r == -ETIMEDOUT)
        return timeout ? VK_TIMEOUT : VK_NOT_READY;
    if (r < 0) {
        layer_log("acquire: %s", strerror(-r));
        return wsi_error(r);
    }
    if (resized(s, r)) {
        /* the window was resized: this image still goes (the server
         * clips or pads it); the next acquire says OUT_OF_DATE */
        pthread_mutex_lock(&s->lock);
        s->out_of_date = true;
        pthread_mutex_unlock(&s->lock);
        res = VK_SUBOPTIMAL_KHR;
    }
    pthread_mutex_lock(&s->lock);
    s->acquired[img.index] = img;
    s->is_acquired[img.index] = true;
    pthread_mutex_unlock(&s->lock);
    *index = img.index;
    r = layer_signal(d, sem, fence);
    return r == VK_SUCCESS ? res : (VkResult)r;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_AcquireNextImageKHR(VkDevice device,
                                                                VkSwapchainKHR swapchain,
                                                                uint64_t timeout,
                                                                VkSemaphore sem, VkFence fence,
                                                                uint32_t *index)
{
    struct layer_device *d = layer_device_get(layer_key(device));

    return acquire(d, layer_swapchain(swapchain), timeout, sem, fence, index);
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_AcquireNextImage2KHR(
    VkDevice device, const VkAcquireNextImageInfoKHR *info, uint32_t *index)
{
    struct layer_device *d = layer_device_get(layer_key(device));

    return acquire(d, layer_swapchain(info->swapchain), info->timeout, info->semaphore,
                   info->fence, index);
}

/* ---- present ------------------------------------------------------------ */

/* The application's semaphores, waited for on the CPU through a fence:
 * the server reads the pages once the engine presents them. */
static VkResult wait_semaphores(struct layer_device *d, VkQueue queue,
                                const VkPresentInfoKHR *info)
{
    VkPipelineStageFlags stages[16];
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = info->waitSemaphoreCount,
        .pWaitSemaphores = info->pWaitSemaphores,
        .pWaitDstStageMask = stages,
    };
    VkResult r;

    if (!info->waitSemaphoreCount)
        return VK_SUCCESS;
    if (info->waitSemaphoreCount > 16 || !d->present_fence)
        return VK_ERROR_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < info->waitSemaphoreCount; i++)
        stages[i] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    pthread_mutex_lock(&d->queue_lock);
    r = d->QueueSubmit(queue, 1, &submit, d->present_fence);
    if (r == VK_SUCCESS)
        r = d->WaitForFences(d->device, 1, &d->present_fence, VK_TRUE, UINT64_MAX);
    if (r == VK_SUCCESS)
        r = d->ResetFences(d->device, 1, &d->present_fence);
    pthread_mutex_unlock(&d->queue_lock);
    return r;
}

/* What vkQueuePresentKHR's pNext chain says per swapchain. */
struct present_extras {
    const VkPresentIdKHR *ids;
    const VkPresentRegionsKHR *regions;
    const VkSwapchainPresentModeInfoEXT *modes;
    const VkSwapchainPresentFenceInfoEXT *fences;
};

static void read_extras(const VkPresentInfoKHR *info, struct present_extras *x)
{
    memset(x, 0, sizeof *x);
    for (const VkBaseInStructure *p = info->pNext; p; p = p->pNext) {
        switch ((int)p->sType) {
        case VK_STRUCTURE_TYPE_PRESENT_ID_KHR:
        case VK_STRUCTURE_TYPE_PRESENT_ID_2_KHR:    /* the same layout */
            x->ids = (const VkPresentIdKHR *)p;
            break;
        case VK_STRUCTURE_TYPE_PRESENT_REGIONS_KHR:
            x->regions = (const VkPresentRegionsKHR *)p;
            break;
        case VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_MODE_INFO_EXT:
            x->modes = (const VkSwapchainPresentModeInfoEXT *)p;
            break;
        case VK_STRUCTURE_TYPE_SWAPCHAIN_PRESENT_FENCE_INFO_EXT:
            x->fences = (const VkSwapchainPresentFenceInfoEXT *)p;
            break;
        default:
            break;
        }
    }
}

#define MAX_DAMAGE 64

/* VK_KHR_incremental_present's rectangles as damage, clipped to the
 * image (the engine refuses a rectangle outside it); none, or too many:
 * the whole image. */
static uint32_t damage_of(const VkPresentRegionKHR *region, VkExtent2D extent,
                          xcb_rectangle_t *out)
{
    uint32_t n = 0;

    if (!region || !region->rectangleCount || region->rectangleCount > MAX_DAMAGE)
        return 0;
    for (uint32_t i = 0; i < region->rectangleCount; i++) {
        const VkRectLayerKHR *r = &region->pRectangles[i];
        int64_t x0 = r->offset.x < 0 ? 0 : r->offset.x, y0 = r->offset.y < 0 ? 0 : r->offset.y;
        int64_t x1 = (int64_t)r->offset.x + r->extent.width;
        int64_t y1 = (int64_t)r->offset.y + r->extent.height;

        if (x1 > extent.width)
            x1 = extent.width;
        if (y1 > extent.height)
            y1 = extent.height;
        if (x1 <= x0 || y1 <= y0)
            continue;
        out[n++] = (xcb_rectangle_t){ (int16_t)x0, (int16_t)y0, (uint16_t)(x1 - x0),
                                      (uint16_t)(y1 - y0) };
    }
    return n;   /* 0 after clipping: nothing changed, the whole image is sent */
}

static VkResult present_one(struct layer_device *d, const VkPresentInfoKHR *info,
                            const struct present_extras *x, uint32_t i, uint64_t queue_end_ns)
{
    const VkPresentTimingInfoEXT *timing = layer_timing_info(info, i);
    uint32_t interval = 0;
    struct layer_swapchain *s = layer_swapchain(info->pSwapchains[i]);
    uint32_t index = info->pImageIndices[i];
    xcb_present_util_present_info_t pi;
    xcb_present_util_image_t img;
    xcb_rectangle_t damage[MAX_DAMAGE];
    uint64_t id = x->ids && x->ids->pPresentIds && i < x->ids->swapchainCount
                      ? x->ids->pPresentIds[i] : 0;
    int r;

    pthread_mutex_lock(&s->lock);
    if (index >= s->n || !s->is_acquired[index]) {
        pthread_mutex_unlock(&s->lock);
        layer_log("present: image %u was not acquired", index);
        return VK_ERROR_OUT_OF_DATE_KHR;
    }
    img = s->acquired[index];
    s->is_acquired[index] = false;
    pthread_mutex_unlock(&s->lock);
    /* no room for the timing asked for: the frame does not go */
    if (layer_timing_check(s, timing) != VK_SUCCESS) {
        xcb_present_util_release(s->sc, &img);
        return VK_ERROR_PRESENT_TIMING_QUEUE_FULL_EXT;
    }
    pthread_mutex_lock(&s->lock);
    /* an id not above the last one breaks the extension's rule: the frame
     * still goes, without an id */
    if (id && id <= s->last_present_id) {
        layer_log("present: presentId %llu after %llu ignored", (unsigned long long)id,
                  (unsigned long long)s->last_present_id);
        id = 0;
    }
    if (id)
        s->last_present_id = id;
    pthread_mutex_unlock(&s->lock);
    if (x->modes && i < x->modes->swapchainCount && x->modes->pPresentModes[i] != s->mode) {
        s->mode = x->modes->pPresentModes[i];
        xcb_present_util_swapchain_set_mode(s->sc, layer_engine_mode(s->mode));
    }
    xcb_present_util_present_info_init(&pi);
    pi.present_id = id;
    pi.damage = damage;
    pi.n_damage = damage_of(x->regions && i < x->regions->swapchainCount && x->regions->pRegions
                                ? &x->regions->pRegions[i] : NULL,
                            s->extent, damage);
    layer_timing_aim(s, timing, img.refresh_ns, &pi.target_ust, &interval);
    if (interval)
        xcb_present_util_swapchain_set_swap_interval(s->sc, interval);
    r = xcb_present_util_present_with(s->sc, &img, &pi);
    if (interval)
        xcb_present_util_swapchain_set_swap_interval(s->sc, 1);
    if (r == -EAGAIN) {
        /* the display's timing did not become known: shown as soon as the
         * mode allows rather than not at all */
        pi.target_ust = 0;
        r = xcb_present_util_present_with(s->sc, &img, &pi);
    }
    if (r == 0)
        layer_timing_queued(s, timing, pi.frame_id, id, queue_end_ns, layer_now_ns());
    if (x->fences && i < x->fences->swapchainCount && x->fences->pFences[i])
        layer_signal(d, VK_NULL_HANDLE, x->fences->pFences[i]);
    if (r < 0) {
        layer_log("present: %s", strerror(-r));
        return wsi_error(r);
    }
    if (s->out_of_date || resized(s, xcb_present_util_swapchain_status(s->sc)))
        return VK_SUBOPTIMAL_KHR;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_QueuePresentKHR(VkQueue queue,
                                                            const VkPresentInfoKHR *info)
{
    struct layer_device *d = layer_device_get(layer_key(queue));
    struct present_extras x;
    VkResult all, r;

    if (!d)
        return VK_ERROR_DEVICE_LOST;
    read_extras(info, &x);
    uint64_t queue_end_ns;

    all = wait_semaphores(d, queue, info);
    if (all != VK_SUCCESS)
        return all;
    queue_end_ns = layer_now_ns();
    for (uint32_t i = 0; i < info->swapchainCount; i++) {
        r = present_one(d, info, &x, i, queue_end_ns);
        if (info->pResults)
            info->pResults[i] = r;
        /* the first error wins; SUBOPTIMAL over SUCCESS */
        if (r < 0 && all >= 0)
            all = r;
        else if (r == VK_SUBOPTIMAL_KHR && all == VK_SUCCESS)
            all = r;
    }
    return all;
}

/* ---- present-wait and release -------------------------------------------- */

VkResult layer_wait_for_present(VkDevice device, VkSwapchainKHR swapchain, uint64_t present_id,
                                uint64_t timeout)
{
    struct layer_swapchain *s = layer_swapchain(swapchain);
    int r;

    (void)device;
    if (!present_id)
        return VK_SUCCESS;      /* every id is at least 0 */
    r = xcb_present_util_wait_present(s->sc, present_id,
                                      timeout > INT64_MAX ? -1 : (int64_t)timeout, NULL);
    if (r == -ETIMEDOUT)
        return VK_TIMEOUT;
    if (r < 0)
        return r == -ECANCELED ? VK_ERROR_OUT_OF_DATE_KHR : VK_ERROR_SURFACE_LOST_KHR;
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_WaitForPresentKHR(VkDevice device,
                                                              VkSwapchainKHR swapchain,
                                                              uint64_t present_id,
                                                              uint64_t timeout)
{
    return layer_wait_for_present(device, swapchain, present_id, timeout);
}

static VKAPI_ATTR VkResult VKAPI_CALL
layer_ReleaseSwapchainImagesEXT(VkDevice device, const VkReleaseSwapchainImagesInfoEXT *info)
{
    struct layer_swapchain *s = layer_swapchain(info->swapchain);

    (void)device;
    for (uint32_t i = 0; i < info->imageIndexCount; i++) {
        uint32_t index = info->pImageIndices[i];
        xcb_present_util_image_t img;

        pthread_mutex_lock(&s->lock);
        if (index >= s->n || !s->is_acquired[index]) {
            pthread_mutex_unlock(&s->lock);
            continue;
        }
        img = s->acquired[index];
        s->is_acquired[index] = false;
        pthread_mutex_unlock(&s->lock);
        xcb_present_util_release(s->sc, &img);
    }
    return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL layer_GetSwapchainStatusKHR(VkDevice device,
                                                                  VkSwapchainKHR swapchain)
{
    struct layer_swapchain *s = layer_swapchain(swapchain);
    int r = xcb_present_util_swapchain_status(s->sc);

    (void)device;
    if (r < 0)
        return VK_ERROR_SURFACE_LOST_KHR;
    if (s->retired || s->out_of_date)
        return VK_ERROR_OUT_OF_DATE_KHR;
    return resized(s, r) ? VK_SUBOPTIMAL_KHR : VK_SUCCESS;
}

PFN_vkVoidFunction layer_present_proc(const char *name)
{
#define F(n) LAYER_PROC(n)
    static const struct layer_proc table[] = {
        F(AcquireNextImageKHR), F(AcquireNextImage2KHR), F(QueuePresentKHR),
        F(WaitForPresentKHR), F(ReleaseSwapchainImagesEXT), F(GetSwapchainStatusKHR),
    };
#undef F

    return layer_proc_find(table, sizeof table / sizeof table[0], name);
}
