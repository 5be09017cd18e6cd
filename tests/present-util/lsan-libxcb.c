/*
 * LeakSanitizer's view of the one leak the swapchain tests cannot avoid:
 * libxcb 1.15 cannot free a special event queue once its connection has
 * failed (xcb_unregister_for_special_event() returns early on a connection
 * error, and xcb_disconnect() does not free the queues).  The tests of a
 * killed or stopped server hit it.  valgrind reads the same rule from
 * libxcb.supp.  LeakSanitizer asks for this function when it starts; it
 * is unused in other builds.
 */
const char *__lsan_default_suppressions(void);

const char *__lsan_default_suppressions(void)
{
    return "leak:xcb_register_for_special_xge\n";
}
