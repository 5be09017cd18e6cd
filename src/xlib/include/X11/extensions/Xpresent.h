/*
 * <X11/extensions/Xpresent.h>: the Xlib binding of the X Present extension.
 *
 * Present shows a pixmap in a window at a chosen vertical blank and reports
 * back, as events, when it was shown (CompleteNotify) and when the pixmap
 * may be drawn into again (IdleNotify).  This header is source and binary
 * compatible with libXpresent 1.0: every name, struct, field and offset is
 * the same, so programs built against either run on either.  It adds what
 * Present 1.2 to 1.4 brought (see "Present 1.4" below); a program can test
 * for those at compile time with XPRESENT_HAS_PIXMAP_SYNCED and
 * XPRESENT_MINOR_VERSION.
 *
 * Events arrive as GenericEvent cookies: after XNextEvent(), when
 * ev.xcookie.extension is Present's major opcode (XPresentQueryExtension),
 * XGetEventData() makes ev.xcookie.data point at one of the event structs
 * below, chosen by ev.xcookie.evtype (PresentConfigureNotify,
 * PresentCompleteNotify, PresentIdleNotify); XFreeEventData() frees it.
 */
#ifndef _XPRESENT_H_
#define _XPRESENT_H_

#include <stdint.h>
#include <X11/extensions/presenttokens.h>

#include <X11/Xfuncproto.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/sync.h>

/* PRESENT_MAJOR and PRESENT_MINOR come from the installed protocol headers
 * (presenttokens.h); PRESENT_VERSION is built from them as libXpresent
 * does, so it means the same thing in every program. */
#define PRESENT_REVISION 0
#define PRESENT_VERSION ((PRESENT_MAJOR * 10000) + (PRESENT_MINOR * 100) + (PRESENT_REVISION))

/* The protocol version this library speaks, whatever presenttokens.h says:
 * XPresentQueryVersion() asks the server for it, and XPresentVersion()
 * returns XPRESENT_VERSION. */
#define XPRESENT_MAJOR_VERSION 1
#define XPRESENT_MINOR_VERSION 4
#define XPRESENT_VERSION ((XPRESENT_MAJOR_VERSION * 10000) + (XPRESENT_MINOR_VERSION * 100))
/* Defined where XPresentPixmapSynced() exists (this library, Present 1.4). */
#define XPRESENT_HAS_PIXMAP_SYNCED 1

/* Present 1.3 and 1.4 tokens that older protocol headers lack. */
#ifndef X_PresentPixmapSynced
#define X_PresentPixmapSynced 5
#endif
#ifndef PresentOptionAsyncMayTear
#define PresentOptionAsyncMayTear (1 << 4)
#endif
#ifndef PresentCapabilityAsyncMayTear
#define PresentCapabilityAsyncMayTear 8
#endif
#ifndef PresentCapabilitySyncobj
#define PresentCapabilitySyncobj 16
#endif

/* One extra window to notify in XPresentPixmap(): it gets a CompleteNotify
 * with the given serial when the presentation completes. */
typedef struct {
    Window window;
    uint32_t serial;
} XPresentNotify;

/* The start that every Present event struct shares. */
typedef struct {
    int type;               /* GenericEvent */
    unsigned long serial;   /* Xlib's serial of the last request processed */
    Bool send_event;
    Display *display;
    int extension;          /* Present's major opcode */
    int evtype;             /* PresentConfigureNotify, ... */
} XPresentEvent;

/* The window changed size or position, or (bit 0 of pixmap_flags, as
 * Present 1.4 servers send it) was destroyed: no CompleteNotify will come
 * for its pending presentations then. */
typedef struct {
    int type;
    unsigned long serial;
    Bool send_event;
    Display *display;
    int extension;
    int evtype;

    uint32_t eid;           /* the event context, from XPresentSelectInput() */
    Window window;
    int x, y;
    unsigned width, height;
    int off_x, off_y;
    int pixmap_width, pixmap_height;
    long pixmap_flags;
} XPresentConfigureNotifyEvent;

/* A presentation (kind PresentCompleteKindPixmap) or an XPresentNotifyMSC()
 * (PresentCompleteKindNotifyMSC) completed at frame msc, time ust (µs). */
typedef struct {
    int type;
    unsigned long serial;
    Bool send_event;
    Display *display;
    int extension;
    int evtype;

    uint32_t eid;
    Window window;
    uint32_t serial_number; /* the serial the client gave the request */
    uint64_t ust;
    uint64_t msc;
    uint8_t kind;           /* PresentCompleteKind... */
    uint8_t mode;           /* PresentCompleteMode... */
} XPresentCompleteNotifyEvent;

/* The pixmap of a presentation may be used again (once idle_fence, if any,
 * has triggered).  May come before or after the CompleteNotify. */
typedef struct {
    int type;
    unsigned long serial;
    Bool send_event;
    Display *display;
    int extension;
    int evtype;

    uint32_t eid;
    Window window;
    uint32_t serial_number;
    Pixmap pixmap;
    XSyncFence idle_fence;
} XPresentIdleNotifyEvent;

#if PRESENT_FUTURE_VERSION

/* A presentation redirected to a compositor (PresentRedirectNotifyMask).
 * notifies points into the same allocation as the event itself. */
typedef struct {
    int type;
    unsigned long serial;
    Bool send_event;
    Display *display;
    int extension;
    int evtype;

    uint32_t eid;
    Window event_window;

    Window window;
    Pixmap pixmap;
    uint32_t serial_number;

    XserverRegion valid_region;
    XserverRegion update_region;

    XRectangle valid_rect;
    XRectangle update_rect;

    int x_off, y_off;

    RRCrtc target_crtc;

    XSyncFence wait_fence;
    XSyncFence idle_fence;

    uint32_t options;

    uint64_t target_msc;
    uint64_t divisor;
    uint64_t remainder;
    XPresentNotify *notifies;
    int nnotifies;
} XPresentRedirectNotifyEvent;

#endif

_XFUNCPROTOBEGIN

/* True when the server has Present; then stores its major opcode and its
 * first event and error codes where the pointers are not NULL.  False
 * otherwise, storing nothing. */
Bool XPresentQueryExtension(Display *dpy, int *major_opcode_return, int *event_base_return,
                            int *error_base_return);

/* Asks the server for XPRESENT_MAJOR_VERSION.XPRESENT_MINOR_VERSION and
 * stores the version it answers (the lower of the two).  Returns nonzero
 * on success, 0 without Present or on an X error (which goes to the
 * display's error handler first). */
Status XPresentQueryVersion(Display *dpy, int *major_version_return, int *minor_version_return);

/* XPRESENT_VERSION of the library (major * 10000 + minor * 100). */
int XPresentVersion(void);

/* Presents pixmap in window at the first frame >= target_msc that also
 * satisfies msc % divisor == remainder (when divisor is not 0).  Nothing is
 * sent when the server lacks Present; errors go to the error handler. */
void XPresentPixmap(Display *dpy, Window window, Pixmap pixmap, uint32_t serial,
                    XserverRegion valid, XserverRegion update, int x_off, int y_off,
                    RRCrtc target_crtc, XSyncFence wait_fence, XSyncFence idle_fence,
                    uint32_t options, uint64_t target_msc, uint64_t divisor,
                    uint64_t remainder, XPresentNotify *notifies, int nnotifies);

/* Asks for a CompleteNotify of kind PresentCompleteKindNotifyMSC at the
 * frame chosen as in XPresentPixmap(). */
void XPresentNotifyMSC(Display *dpy, Window window, uint32_t serial, uint64_t target_msc,
                       uint64_t divisor, uint64_t remainder);

/* Selects the Present events of event_mask (Present...Mask) for window in
 * a new event context and returns its XID (None without Present). */
XID XPresentSelectInput(Display *dpy, Window window, unsigned event_mask);

/* Deletes the event context event_id of window. */
void XPresentFreeInput(Display *dpy, Window window, XID event_id);

/* The Present capabilities (PresentCapability... bits) of target, a window
 * or a CRTC; 0 without Present or on an X error (which goes to the error
 * handler first). */
uint32_t XPresentQueryCapabilities(Display *dpy, XID target);

/* Present 1.4: like XPresentPixmap(), but the GPU work is ordered by DRI3
 * timeline syncobjs (imported with DRI3 ImportSyncobj): the server waits for
 * acquire_point on acquire_syncobj before it reads the pixmap and signals
 * release_point on release_syncobj when the pixmap is free.  No IdleNotify
 * comes for such a presentation.  Needs PresentCapabilitySyncobj; points
 * must not be 0. */
void XPresentPixmapSynced(Display *dpy, Window window, Pixmap pixmap, uint32_t serial,
                          XserverRegion valid, XserverRegion update, int x_off, int y_off,
                          RRCrtc target_crtc, XID acquire_syncobj, XID release_syncobj,
                          uint64_t acquire_point, uint64_t release_point, uint32_t options,
                          uint64_t target_msc, uint64_t divisor, uint64_t remainder,
                          XPresentNotify *notifies, int nnotifies);

_XFUNCPROTOEND

#endif /* _XPRESENT_H_ */
