/* See test-server.h. */
#include "test-server.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child-stop.h"
#include "displayfd-spawn.h"
#include "test-clock.h"

/* A loaded machine can take this long to start a server (weston and its
 * Xwayland, or Xorg loading its modules, take longest). */
enum { START_TIMEOUT_MS = 20000, STOP_TIMEOUT_MS = 5000 };

static const char *const names[] = {
    [TEST_SERVER_XVFB] = "xvfb",
    [TEST_SERVER_XWAYLAND] = "xwayland",
    [TEST_SERVER_XEPHYR] = "xephyr",
    [TEST_SERVER_XORG_DUMMY] = "xorg-dummy",
};

int test_server_kind(const char *name)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (name && strcmp(name, names[i]) == 0)
            return (int)i;
    return -1;
}

const char *test_server_name(enum test_server_kind kind)
{
    return (size_t)kind < sizeof names / sizeof names[0] ? names[kind] : "unknown";
}

bool test_server_manages_windows(enum test_server_kind kind)
{
    return kind == TEST_SERVER_XWAYLAND;
}

pid_t test_server_compositor_pid(const struct test_server *s)
{
    return s->kind == TEST_SERVER_XWAYLAND ? s->pid : -1;
}

/* Whether name runs from PATH (or is an absolute path that runs). */
static bool installed(const char *name)
{
    const char *path = getenv("PATH");
    char buf[512];

    if (strchr(name, '/'))
        return access(name, X_OK) == 0;
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");

        if (len > 0 && snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, name) <
                           (int)sizeof buf && access(buf, X_OK) == 0)
            return true;
        path += len + (path[len] == ':');
    }
    return false;
}

/* Copies the file to stderr: a server's log after it failed to start. */
static void show_log(const char *file)
{
    FILE *f = fopen(file, "r");
    char line[512];

    if (!f)
        return;
    fprintf(stderr, "--- %s\n", file);
    while (fgets(line, sizeof line, f))
        fputs(line, stderr);
    fclose(f);
}

static int make_private_dir(struct test_server *s)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/xcb-test-server.XXXXXX");
    if (!mkdtemp(s->dir)) {
        s->dir[0] = '\0';
        return -1;
    }
    return 0;
}

/* ---- Xwayland under weston ------------------------------------------ */

/* The display weston's log names for its Xwayland, or -1 while there is
 * none ("xserver listening on display :N"). */
static int display_in_log(const char *log)
{
    static const char key[] = "xserver listening on display :";
    FILE *f = fopen(log, "r");
    char line[512];
    int n = -1;

    if (!f)
        return -1;
    while (n < 0 && fgets(line, sizeof line, f)) {
        const char *at = strstr(line, key);

        if (at)
            n = atoi(at + sizeof key - 1);
    }
    fclose(f);
    return n;
}

/*
 * weston --backend=headless-backend.so --xwayland: a compositor without
 * outputs to a screen, with the Xwayland it starts when the first X
 * client connects.  Running as root: the headless back end needs no seat
 * and no launcher, which is what makes weston refuse root elsewhere (the
 * DRM back end); weston 10 starts here as root without a warning, and as
 * any user.  What it does want is an XDG_RUNTIME_DIR of its own, owned by
 * us with mode 0700, which mkdtemp() gives, and /tmp/.X11-unix, which
 * weston does not create (Xvfb and Xorg do).  kiosk-shell: no panel or
 * background client to start, every top-level window fills the output.
 */
static int start_xwayland(struct test_server *s, int width, int height, const char **why)
{
    char log[96], runtime[96], w[32], h[32], logarg[112];
    char *argv[] = { "weston", "--backend=headless-backend.so", "--xwayland",
                     "--shell=kiosk-shell.so", "--socket=wayland-xcb-test", "--idle-time=0",
                     w, h, logarg, NULL };
    char *env[] = { runtime, "WAYLAND_DISPLAY=", NULL };
    long long deadline = test_now_ms() + START_TIMEOUT_MS;
    int n = -1, status;

    if (!installed("weston") || !installed("Xwayland")) {
        *why = "weston or Xwayland is not installed";
        return 1;
    }
    if (make_private_dir(s) < 0) {
        *why = "cannot make a runtime directory for weston";
        return -1;
    }
    /* Sticky and writable by all, as X servers make it. */
    if (mkdir("/tmp/.X11-unix", 01777) == 0)
        chmod("/tmp/.X11-unix", 01777);
    snprintf(log, sizeof log, "%s/weston.log", s->dir);
    snprintf(runtime, sizeof runtime, "XDG_RUNTIME_DIR=%s", s->dir);
    snprintf(w, sizeof w, "--width=%d", width);
    snprintf(h, sizeof h, "--height=%d", height);
    snprintf(logarg, sizeof logarg, "--log=%s", log);
    if (server_spawn(argv, env, DISPLAYFD_NO_STDOUT | DISPLAYFD_NO_STDERR |
                     DISPLAYFD_SYSTEM_LIBS, -1, &s->pid) < 0) {
        *why = "cannot start weston";
        return -1;
    }
    while ((n = display_in_log(log)) < 0 && test_now_ms() < deadline &&
           waitpid(s->pid, &status, WNOHANG) == 0)
        usleep(20000);
    if (n < 0) {
        show_log(log);
        *why = "weston did not start Xwayland's listener within 20 s (its log is above)";
        return -1;
    }
    snprintf(s->display, sizeof s->display, ":%d", n);
    return 0;
}

/* ---- Xephyr in an Xvfb ---------------------------------------------- */

static int start_xephyr(struct test_server *s, int width, int height, const char **why)
{
    char screen[32], display[32];
    char *argv[] = { "Xephyr", "-displayfd", "3", "-nolisten", "tcp", "-noreset", "-screen",
                     screen, NULL };
    char *env[] = { display, NULL };
    int n;

    if (!installed("Xephyr") || !installed("Xvfb")) {
        *why = "Xephyr or Xvfb is not installed";
        return 1;
    }
    /* The host is a little larger: Xephyr's window and nothing else. */
    snprintf(screen, sizeof screen, "%dx%dx24", width + 64, height + 64);
    if (xvfb_start(&s->host, screen) < 0) {
        *why = "the Xvfb that Xephyr would show on did not start";
        return -1;
    }
    snprintf(screen, sizeof screen, "%dx%d", width, height);
    snprintf(display, sizeof display, "DISPLAY=%s", s->host.display);
    n = displayfd_start_env(argv, env, DISPLAYFD_NO_STDOUT | DISPLAYFD_NO_STDERR |
                            DISPLAYFD_SYSTEM_LIBS, START_TIMEOUT_MS, &s->pid);
    if (n < 0) {
        *why = "Xephyr did not start";
        return -1;
    }
    snprintf(s->display, sizeof s->display, ":%d", n);
    return 0;
}

/* ---- Xorg with the dummy driver ------------------------------------- */

/* No input devices (there are none to find, and the hotplug back end
 * would look for udev), one dummy device whose virtual screen has the
 * size asked for, and a monitor whose ranges take the standard modes. */
static int write_xorg_config(const char *file, int width, int height)
{
    FILE *f = fopen(file, "w");

    if (!f)
        return -1;
    fprintf(f,
            "Section \"ServerFlags\"\n"
            "    Option \"AutoAddDevices\" \"false\"\n"
            "    Option \"AutoAddGPU\" \"false\"\n"
            "EndSection\n"
            "Section \"Device\"\n"
            "    Identifier \"dummy\"\n"
            "    Driver \"dummy\"\n"
            "    VideoRam 64000\n"
            "EndSection\n"
            "Section \"Monitor\"\n"
            "    Identifier \"monitor\"\n"
            "    HorizSync 28.0-80.0\n"
            "    VertRefresh 48.0-75.0\n"
            "EndSection\n"
            "Section \"Screen\"\n"
            "    Identifier \"screen\"\n"
            "    Device \"dummy\"\n"
            "    Monitor \"monitor\"\n"
            "    DefaultDepth 24\n"
            "    SubSection \"Display\"\n"
            "        Depth 24\n"
            "        Virtual %d %d\n"
            "    EndSubSection\n"
            "EndSection\n", width, height);
    return fclose(f) == 0 ? 0 : -1;
}

static int start_xorg_dummy(struct test_server *s, int width, int height, const char **why)
{
    char config[96], log[96];
    char *argv[] = { "Xorg", "-displayfd", "3", "-nolisten", "tcp", "-noreset",
                     "-config", config, "-logfile", log, NULL };
    int n;

    if (!installed("Xorg") ||
        access("/usr/lib/xorg/modules/drivers/dummy_drv.so", R_OK) != 0) {
        *why = "Xorg or its dummy video driver is not installed";
        return 1;
    }
    if (make_private_dir(s) < 0) {
        *why = "cannot make a directory for Xorg's config file";
        return -1;
    }
    snprintf(config, sizeof config, "%s/xorg.conf", s->dir);
    snprintf(log, sizeof log, "%s/Xorg.log", s->dir);
    if (write_xorg_config(config, width, height) < 0) {
        *why = "cannot write Xorg's config file";
        return -1;
    }
    n = displayfd_start(argv, DISPLAYFD_NO_STDOUT | DISPLAYFD_NO_STDERR | DISPLAYFD_SYSTEM_LIBS,
                        START_TIMEOUT_MS, &s->pid);
    if (n < 0) {
        show_log(log);
        *why = "Xorg did not start (its log is above)";
        return -1;
    }
    snprintf(s->display, sizeof s->display, ":%d", n);
    return 0;
}

int test_server_start(struct test_server *s, enum test_server_kind kind, int width,
                      int height, const char **why)
{
    char screen[32];
    int r;

    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->pid = -1;
    s->host.pid = -1;
    *why = NULL;
    switch (kind) {
    case TEST_SERVER_XVFB:
        if (!installed("Xvfb")) {
            *why = "Xvfb is not installed";
            return 1;
        }
        snprintf(screen, sizeof screen, "%dx%dx24", width, height);
        if (xvfb_start(&s->host, screen) < 0) {
            *why = "Xvfb did not start";
            return -1;
        }
        /* The server itself, not a host: s->pid, as on the others. */
        s->pid = s->host.pid;
        s->host.pid = -1;
        snprintf(s->display, sizeof s->display, "%s", s->host.display);
        return 0;
    case TEST_SERVER_XWAYLAND:
        r = start_xwayland(s, width, height, why);
        break;
    case TEST_SERVER_XEPHYR:
        r = start_xephyr(s, width, height, why);
        break;
    case TEST_SERVER_XORG_DUMMY:
        r = start_xorg_dummy(s, width, height, why);
        break;
    default:
        *why = "no such server kind";
        return -1;
    }
    if (r != 0)
        test_server_stop(s);
    return r;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

int test_server_stop(struct test_server *s)
{
    int r = 0;

    /* weston stops its Xwayland as it exits (and an Xwayland whose
     * compositor is gone exits by itself); Xephyr before its host. */
    if (child_stop(s->pid, STOP_TIMEOUT_MS) < 0)
        r = -1;
    s->pid = -1;
    if (s->host.pid > 0 && xvfb_stop(&s->host) < 0)
        r = -1;
    s->host.pid = -1;
    if (s->dir[0]) {
        nftw(s->dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
        s->dir[0] = '\0';
    }
    return r;
}
