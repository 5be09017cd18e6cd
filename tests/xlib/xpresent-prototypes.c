/*
 * Our <X11/extensions/Xpresent.h> against libXpresent 1.0's API, checked by
 * the compiler: the header is included alone (self-contained, C99,
 * pedantic), then every function is declared again exactly as libXpresent's
 * header declares it; any difference in a type is a "conflicting types"
 * error, so this file building is the test.  Running it checks the 1.4
 * additions' values.
 */
#include <X11/extensions/Xpresent.h>

#include <stdio.h>

Bool XPresentQueryExtension(Display *dpy, int *major_opcode_return, int *event_base_return,
                            int *error_base_return);
Status XPresentQueryVersion(Display *dpy, int *major_version_return,
                            int *minor_version_return);
int XPresentVersion(void);
void XPresentPixmap(Display *dpy, Window window, Pixmap pixmap, uint32_t serial,
                    XserverRegion valid, XserverRegion update, int x_off, int y_off,
                    RRCrtc target_crtc, XSyncFence wait_fence, XSyncFence idle_fence,
                    uint32_t options, uint64_t target_msc, uint64_t divisor,
                    uint64_t remainder, XPresentNotify *notifies, int nnotifies);
void XPresentNotifyMSC(Display *dpy, Window window, uint32_t serial, uint64_t target_msc,
                       uint64_t divisor, uint64_t remainder);
XID XPresentSelectInput(Display *dpy, Window window, unsigned event_mask);
void XPresentFreeInput(Display *dpy, Window window, XID event_id);
uint32_t XPresentQueryCapabilities(Display *dpy, XID target);

/* Taking every function's address also proves they all link. */
typedef void (*function)(void);
static const function functions[] = {
    (function)XPresentQueryExtension, (function)XPresentQueryVersion,
    (function)XPresentVersion, (function)XPresentPixmap, (function)XPresentNotifyMSC,
    (function)XPresentSelectInput, (function)XPresentFreeInput,
    (function)XPresentQueryCapabilities, (function)XPresentPixmapSynced,
};

#if !defined(XPRESENT_HAS_PIXMAP_SYNCED) || XPRESENT_MAJOR_VERSION != 1 || \
    XPRESENT_MINOR_VERSION != 4 || XPRESENT_VERSION != 10400
#error "the Present 1.4 version macros are missing or wrong"
#endif

int main(void)
{
    int failed = 0;
    printf("1..2\n");
    for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
        failed |= functions[i] == NULL;
    printf("%s 1 - every libXpresent 1.0 prototype matches, and XPresentPixmapSynced\n",
           failed ? "not ok" : "ok");
    int bad = PresentOptionAsyncMayTear != 16 || PresentCapabilityAsyncMayTear != 8 ||
              PresentCapabilitySyncobj != 16 || X_PresentPixmapSynced != 5 ||
              XPresentVersion() != XPRESENT_VERSION;
    printf("%s 2 - the Present 1.3/1.4 tokens and XPresentVersion()\n", bad ? "not ok" : "ok");
    return failed || bad;
}
