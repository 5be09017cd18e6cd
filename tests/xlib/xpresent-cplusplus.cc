// <X11/extensions/Xpresent.h> from C++ (pedantic C++11): it compiles, its
// functions have C linkage (this links against libXpresent), and the event
// structs can be used as C++ programs use them.
#include <X11/extensions/Xpresent.h>

#include <cstdio>

int main()
{
    XPresentCompleteNotifyEvent ev = XPresentCompleteNotifyEvent();
    ev.evtype = PresentCompleteNotify;
    void (*synced)(Display *, Window, Pixmap, uint32_t, XserverRegion, XserverRegion, int,
                   int, RRCrtc, XID, XID, uint64_t, uint64_t, uint32_t, uint64_t, uint64_t,
                   uint64_t, XPresentNotify *, int) = XPresentPixmapSynced;
    volatile bool linked = synced != nullptr;
    bool ok = XPresentVersion() == XPRESENT_VERSION && ev.msc == 0 && linked;
    std::printf("1..1\n%s 1 - Xpresent.h from C++\n", ok ? "ok" : "not ok");
    return ok ? 0 : 1;
}
