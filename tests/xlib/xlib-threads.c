/*
 * libXpresent from several threads (XInitThreads), against the mock server:
 * a thread that holds XLockDisplay() and calls us while another thread
 * makes the Display's first call; a stalled server that must not hold up
 * the first call on another Display; first calls that race make one record.
 *
 * A hang is what these tests look for, so every wait is bounded (5 s, far
 * above what the calls take) and a test that runs past it fails instead of
 * leaving the runner's alarm to find it.  Nothing here measures speed.
 *
 * Built twice: against our library, and (xlib-threads-ref) against Debian's
 * libXpresent, which must pass the first two; XPRESENT_REF names the second.
 */
#include <X11/Xlibint.h>
#include <X11/extensions/Xpresent.h>
#include <X11/extensions/extutil.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mock-display.h"
#include "test-clock.h"
#include "test-runner.h"

/* libXpresent's list of per-Display records and its lookup, exported by
 * Debian's library and ours for compatibility, in no header. */
extern XExtensionInfo XPresentExtensionInfo;
XExtDisplayInfo *XPresentFindDisplay(Display *dpy);

enum { BOUND_MS = 5000 };

static bool flag_set(const void *flag)
{
    return atomic_load((const atomic_int *)flag) != 0;
}

static bool wait_flag(atomic_int *flag)
{
    return test_wait_until(flag_set, flag, BOUND_MS);
}

/* Whether the thread whose id *tid holds is asleep (blocked on a lock or in
 * poll): the state letter of /proc/self/task/TID/stat. */
static bool thread_asleep(const void *tid)
{
    char path[64], buf[512];
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", *(const int *)tid);
    FILE *f = fopen(path, "re");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *paren = strrchr(buf, ')');
    return paren && paren[1] == ' ' && paren[2] == 'S';
}

/* Waits until the thread has blocked, up to BOUND_MS.  Only a thread that
 * has announced it is about to make the call is watched, so the sleep seen
 * is the call's own. */
static bool wait_asleep(int tid)
{
    return test_wait_until(thread_asleep, &tid, BOUND_MS);
}

/* The mock answers a few core requests Xlib makes with BadRequest, and the
 * calls below name XIDs it does not know: errors are expected and ignored. */
static int ignore_errors(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    (void)e;
    return 0;
}

static void start_mock(struct mock_display *m)
{
    if (mock_display_start(m, NULL) < 0)
        test_fail(__FILE__, __LINE__, "the mock server did not start");
}

static Display *open_display(struct mock_display *m)
{
    Display *dpy = XOpenDisplay(m->display);
    if (!dpy) {
        mock_display_cleanup(m);
        test_fail(__FILE__, __LINE__, "XOpenDisplay(%s) failed", m->display);
    }
    return dpy;
}

/* Each public entry point, by number: every one of them can be a Display's
 * first call. */
enum { N_ENTRY_POINTS = 8 };
static const char *const entry_names[N_ENTRY_POINTS] = {
    "XPresentQueryExtension", "XPresentQueryVersion", "XPresentQueryCapabilities",
    "XPresentSelectInput", "XPresentFreeInput", "XPresentPixmap", "XPresentNotifyMSC",
    "XPresentFindDisplay",
};

static void call_entry_point(Display *dpy, int which)
{
    Window root = DefaultRootWindow(dpy);
    int a, b, c;
    switch (which) {
    case 0:
        XPresentQueryExtension(dpy, &a, &b, &c);
        break;
    case 1:
        XPresentQueryVersion(dpy, &a, &b);
        break;
    case 2:
        XPresentQueryCapabilities(dpy, root);
        break;
    case 3:
        XPresentFreeInput(dpy, root, XPresentSelectInput(dpy, root, PresentAllEvents));
        break;
    case 4:
        XPresentFreeInput(dpy, root, 0x3ffff0);
        break;
    case 5:
        XPresentPixmap(dpy, root, 0x3ffff1, 1, None, None, 0, 0, None, None, None, 0, 0, 0, 0,
                       NULL, 0);
        break;
    case 6:
        XPresentNotifyMSC(dpy, root, 1, 0, 0, 0);
        break;
    case 7:
        XPresentFindDisplay(dpy);
        break;
    }
}

/* ---- a thread holding XLockDisplay, another making the first call ------ */

struct locked_pair {
    Display *dpy;
    int first_call;         /* B's entry point */
    atomic_int a_locked;    /* A holds XLockDisplay */
    atomic_int b_tid;       /* B is about to make its first call */
    atomic_int a_done, b_done;
};

/* Thread A: takes the Display's lock, waits until B is blocked inside its
 * first call, then calls every entry point and lets go. */
static void *holder(void *arg)
{
    struct locked_pair *p = arg;
    XLockDisplay(p->dpy);
    atomic_store(&p->a_locked, 1);
    /* B blocked with A holding the lock is the case that deadlocked. */
    if (wait_flag(&p->b_tid))
        wait_asleep(atomic_load(&p->b_tid));
    for (int i = 0; i < N_ENTRY_POINTS; i++)
        call_entry_point(p->dpy, i);
    XUnlockDisplay(p->dpy);
    atomic_store(&p->a_done, 1);
    return NULL;
}

static void *first_caller(void *arg)
{
    struct locked_pair *p = arg;
    if (!wait_flag(&p->a_locked))
        return NULL;
    atomic_store(&p->b_tid, (int)gettid());
    call_entry_point(p->dpy, p->first_call);
    atomic_store(&p->b_done, 1);
    return NULL;
}

TEST(first_call_while_another_thread_holds_the_display_lock)
{
    XInitThreads();
    XSetErrorHandler(ignore_errors);
    struct mock_display m;
    start_mock(&m);
    for (int which = 0; which < N_ENTRY_POINTS; which++) {
        struct locked_pair p = { .dpy = open_display(&m), .first_call = which };
        pthread_t a, b;
        CHECK_EQ(pthread_create(&b, NULL, first_caller, &p), 0);
        CHECK_EQ(pthread_create(&a, NULL, holder, &p), 0);
        bool done = wait_flag(&p.a_done) && wait_flag(&p.b_done);
        if (!done) {
            /* Both threads are stuck for good: end the process without
             * waiting for them, and take the server down first. */
            mock_display_cleanup(&m);
            test_fail(__FILE__, __LINE__,
                      "first call %s with XLockDisplay held by another thread: "
                      "A %s, B %s after %d ms",
                      entry_names[which], p.a_done ? "finished" : "hung",
                      p.b_done ? "finished" : "hung", BOUND_MS);
        }
        pthread_join(a, NULL);
        pthread_join(b, NULL);
        XSync(p.dpy, False);
        XCloseDisplay(p.dpy);
    }
    mock_display_cleanup(&m);
}

/* ---- a stalled server and a working one -------------------------------- */

struct stalled_call {
    Display *dpy;
    bool more;              /* after QueryVersion, the other queries too */
    atomic_int tid;
    atomic_int done;
};

static void *first_queries(void *arg)
{
    struct stalled_call *s = arg;
    atomic_store(&s->tid, (int)gettid());
    int major, minor;
    XPresentQueryVersion(s->dpy, &major, &minor);
    if (s->more) {
        XPresentQueryCapabilities(s->dpy, DefaultRootWindow(s->dpy));
        XPresentFindDisplay(s->dpy);
    }
    atomic_store(&s->done, 1);
    return NULL;
}

TEST(stalled_server_does_not_block_other_displays)
{
    XInitThreads();
    XSetErrorHandler(ignore_errors);
    struct mock_display stalled, working;
    start_mock(&stalled);
    if (mock_display_start(&working, NULL) < 0) {
        mock_display_cleanup(&stalled);
        test_fail(__FILE__, __LINE__, "the second mock server did not start");
    }
    Display *d1 = open_display(&stalled);
    Display *d2 = open_display(&working);
    XSync(d1, False);
    XSync(d2, False);

    /* Stop the first server (ours, by its PID) and wait until it has. */
    int status;
    CHECK_EQ(kill(stalled.pid, SIGSTOP), 0);
    CHECK_EQ(waitpid(stalled.pid, &status, WUNTRACED), stalled.pid);
    CHECK(WIFSTOPPED(status));

    /* Display 1's first call: it waits for an answer that does not come. */
    struct stalled_call s1 = { .dpy = d1 }, s2 = { .dpy = d2, .more = true };
    pthread_t t1, t2;
    CHECK_EQ(pthread_create(&t1, NULL, first_queries, &s1), 0);
    bool t1_blocked = wait_flag(&s1.tid) && wait_asleep(atomic_load(&s1.tid));

    /* Display 2's first calls must not wait for display 1. */
    CHECK_EQ(pthread_create(&t2, NULL, first_queries, &s2), 0);
    bool d2_done = wait_flag(&s2.done);
    bool d1_early = atomic_load(&s1.done);

    /* Let the first server go before any check can end the test. */
    kill(stalled.pid, SIGCONT);
    bool d1_done = wait_flag(&s1.done);
    bool d2_late = wait_flag(&s2.done);
    if (!d1_done || !d2_late) {
        mock_display_cleanup(&stalled);
        mock_display_cleanup(&working);
        test_fail(__FILE__, __LINE__, "calls still blocked after the server resumed");
    }
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    XCloseDisplay(d1);
    XCloseDisplay(d2);
    mock_display_cleanup(&stalled);
    mock_display_cleanup(&working);

    CHECK(t1_blocked);
    CHECK(!d1_early);
    if (!d2_done)
        test_fail(__FILE__, __LINE__,
                  "first calls on a working display waited %d ms for a stalled one",
                  BOUND_MS);
}

/* ---- first calls that race --------------------------------------------- */

/* Not in the build against Debian's libXpresent: libXext's lookup there
 * makes one record per racing thread (8 of 8 racers here), each with its
 * own Xlib extension slot, and leaves them all in the list. */
#ifndef XPRESENT_REF

enum { RACERS = 8, ROUNDS = 3 };

struct race {
    Display *dpy;
    pthread_barrier_t start;
    XExtDisplayInfo *seen[RACERS];
    atomic_int done;
};

struct racer {
    struct race *race;
    int index;
};

static bool all_raced(const void *done)
{
    return atomic_load((const atomic_int *)done) == RACERS;
}

static void *racer(void *arg)
{
    struct racer *r = arg;
    pthread_barrier_wait(&r->race->start);
    r->race->seen[r->index] = XPresentFindDisplay(r->race->dpy);
    atomic_fetch_add(&r->race->done, 1);
    return NULL;
}

/* Records for dpy in the registry, and whether ndisplays matches the list. */
static int records_for(Display *dpy, bool *count_ok)
{
    int n = 0, all = 0;
    for (XExtDisplayInfo *i = XPresentExtensionInfo.head; i; i = i->next) {
        all++;
        n += i->display == dpy;
    }
    *count_ok = all == XPresentExtensionInfo.ndisplays;
    return n;
}

/* One round: RACERS threads make a fresh Display's first call at once.
 * NULL when it made one record and the close hook took it out, else what
 * went wrong. */
static const char *race_round(struct mock_display *m)
{
    struct race race = { .dpy = open_display(m) };
    struct racer racers[RACERS];
    pthread_t t[RACERS];
    pthread_barrier_init(&race.start, NULL, RACERS);
    for (int i = 0; i < RACERS; i++) {
        racers[i] = (struct racer){ &race, i };
        if (pthread_create(&t[i], NULL, racer, &racers[i]) != 0)
            return "pthread_create failed";
    }
    if (!test_wait_until(all_raced, &race.done, BOUND_MS))
        return "racing first calls hung";
    for (int i = 0; i < RACERS; i++)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&race.start);

    bool count_ok;
    int n = records_for(race.dpy, &count_ok);
    for (int i = 0; i < RACERS; i++) {
        if (!race.seen[i] || race.seen[i] != race.seen[0])
            n = -1;
    }
    XCloseDisplay(race.dpy);
    if (n != 1)
        return n < 0 ? "the racers got different records" : "not one record for the Display";
    if (!count_ok)
        return "ndisplays does not count the list";
    if (records_for(race.dpy, &count_ok) != 0 || !count_ok)
        return "XCloseDisplay left the record";
    return NULL;
}

TEST(racing_first_calls_make_one_record)
{
    XInitThreads();
    XSetErrorHandler(ignore_errors);
    struct mock_display m;
    start_mock(&m);
    const char *why = NULL;
    for (int round = 0; round < ROUNDS && !why; round++)
        why = race_round(&m);
    mock_display_cleanup(&m);
    if (why)
        test_fail(__FILE__, __LINE__, "%s", why);
}

#endif

/* Which libXpresent these tests ran on, for whoever reads the log. */
TEST(library_in_use)
{
    Dl_info info;
    CHECK(dladdr((void *)XPresentQueryVersion, &info) != 0);
    test_note("libXpresent: %s", info.dli_fname);
#ifdef XPRESENT_REF
    CHECK(strstr(info.dli_fname, "src/xlib/.libs") == NULL);
#endif
}
