/*
 * Prints the layout of <X11/extensions/Xpresent.h>: every struct's size and
 * alignment, every member's offset and size, and the macros' values.  Built
 * once against our header and once against Debian's libXpresent header;
 * abi-compare.sh requires the same output.  Built with
 * PRESENT_FUTURE_VERSION=1 so that XPresentRedirectNotifyEvent is in.
 */
#include <X11/extensions/Xpresent.h>
#include <stddef.h>
#include <stdio.h>

#define STRUCT(T) printf("struct %s size=%zu align=%zu\n", #T, sizeof(T), _Alignof(T))
#define MEMBER(T, m)                                                        \
    printf("member %s.%s offset=%zu size=%zu\n", #T, #m, offsetof(T, m),  \
           sizeof(((T *)0)->m))
#define MACRO(M) printf("macro %s=%lld\n", #M, (long long)(M))

/* The header every event struct starts with. */
#define EVENT_HEAD(T)                                                       \
    MEMBER(T, type); MEMBER(T, serial); MEMBER(T, send_event);             \
    MEMBER(T, display); MEMBER(T, extension); MEMBER(T, evtype)

int main(void)
{
    STRUCT(XPresentNotify);
    MEMBER(XPresentNotify, window);
    MEMBER(XPresentNotify, serial);

    STRUCT(XPresentEvent);
    EVENT_HEAD(XPresentEvent);

    STRUCT(XPresentConfigureNotifyEvent);
    EVENT_HEAD(XPresentConfigureNotifyEvent);
    MEMBER(XPresentConfigureNotifyEvent, eid);
    MEMBER(XPresentConfigureNotifyEvent, window);
    MEMBER(XPresentConfigureNotifyEvent, x);
    MEMBER(XPresentConfigureNotifyEvent, y);
    MEMBER(XPresentConfigureNotifyEvent, width);
    MEMBER(XPresentConfigureNotifyEvent, height);
    MEMBER(XPresentConfigureNotifyEvent, off_x);
    MEMBER(XPresentConfigureNotifyEvent, off_y);
    MEMBER(XPresentConfigureNotifyEvent, pixmap_width);
    MEMBER(XPresentConfigureNotifyEvent, pixmap_height);
    MEMBER(XPresentConfigureNotifyEvent, pixmap_flags);

    STRUCT(XPresentCompleteNotifyEvent);
    EVENT_HEAD(XPresentCompleteNotifyEvent);
    MEMBER(XPresentCompleteNotifyEvent, eid);
    MEMBER(XPresentCompleteNotifyEvent, window);
    MEMBER(XPresentCompleteNotifyEvent, serial_number);
    MEMBER(XPresentCompleteNotifyEvent, ust);
    MEMBER(XPresentCompleteNotifyEvent, msc);
    MEMBER(XPresentCompleteNotifyEvent, kind);
    MEMBER(XPresentCompleteNotifyEvent, mode);

    STRUCT(XPresentIdleNotifyEvent);
    EVENT_HEAD(XPresentIdleNotifyEvent);
    MEMBER(XPresentIdleNotifyEvent, eid);
    MEMBER(XPresentIdleNotifyEvent, window);
    MEMBER(XPresentIdleNotifyEvent, serial_number);
    MEMBER(XPresentIdleNotifyEvent, pixmap);
    MEMBER(XPresentIdleNotifyEvent, idle_fence);

    STRUCT(XPresentRedirectNotifyEvent);
    EVENT_HEAD(XPresentRedirectNotifyEvent);
    MEMBER(XPresentRedirectNotifyEvent, eid);
    MEMBER(XPresentRedirectNotifyEvent, event_window);
    MEMBER(XPresentRedirectNotifyEvent, window);
    MEMBER(XPresentRedirectNotifyEvent, pixmap);
    MEMBER(XPresentRedirectNotifyEvent, serial_number);
    MEMBER(XPresentRedirectNotifyEvent, valid_region);
    MEMBER(XPresentRedirectNotifyEvent, update_region);
    MEMBER(XPresentRedirectNotifyEvent, valid_rect);
    MEMBER(XPresentRedirectNotifyEvent, update_rect);
    MEMBER(XPresentRedirectNotifyEvent, x_off);
    MEMBER(XPresentRedirectNotifyEvent, y_off);
    MEMBER(XPresentRedirectNotifyEvent, target_crtc);
    MEMBER(XPresentRedirectNotifyEvent, wait_fence);
    MEMBER(XPresentRedirectNotifyEvent, idle_fence);
    MEMBER(XPresentRedirectNotifyEvent, options);
    MEMBER(XPresentRedirectNotifyEvent, target_msc);
    MEMBER(XPresentRedirectNotifyEvent, divisor);
    MEMBER(XPresentRedirectNotifyEvent, remainder);
    MEMBER(XPresentRedirectNotifyEvent, notifies);
    MEMBER(XPresentRedirectNotifyEvent, nnotifies);

    MACRO(PRESENT_REVISION);
    MACRO(PRESENT_VERSION);
    MACRO(PRESENT_MAJOR);
    MACRO(PRESENT_MINOR);
    MACRO(PresentConfigureNotify);
    MACRO(PresentCompleteNotify);
    MACRO(PresentIdleNotify);
    MACRO(PresentRedirectNotify);
    MACRO(PresentAllEvents);
    MACRO(PresentAllOptions);
    MACRO(PresentAllCapabilities);
    return 0;
}
