/* The mock X server on a display number; see mock-display.h. */
#include "mock-display.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child-stop.h"
#include "displayfd-spawn.h"

enum { MAX_ARGS = 32, START_TIMEOUT_MS = 20000, STOP_TIMEOUT_MS = 5000 };

static const char *server_path(void)
{
    static char path[4096];
    const char *top = getenv("TOP_BUILDDIR");
    snprintf(path, sizeof(path), "%s/mock/mock-x-server", top ? top : ".");
    return path;
}

int mock_display_start(struct mock_display *m, const char *const *args)
{
    memset(m, 0, sizeof(*m));
    m->pid = -1;
    m->number = -1;
    snprintf(m->dir, sizeof(m->dir), "/tmp/xlib-mock.XXXXXX");
    if (!mkdtemp(m->dir)) {
        perror("mock-display: mkdtemp");
        m->dir[0] = '\0';
        return -1;
    }
    snprintf(m->transcript, sizeof(m->transcript), "%s/transcript", m->dir);

    const char *argv[MAX_ARGS + 8];
    int a = 0;
    argv[a++] = server_path();
    argv[a++] = "--displayfd";
    argv[a++] = "3";
    argv[a++] = "--transcript";
    argv[a++] = m->transcript;
    for (int i = 0; args && args[i] && a < MAX_ARGS; i++)
        argv[a++] = args[i];
    argv[a] = NULL;

    /* Its stderr stays ours: a refused option shows in the test's log. */
    m->number = displayfd_start((char *const *)argv, DISPLAYFD_NO_STDOUT, START_TIMEOUT_MS,
                                &m->pid);
    if (m->number < 0) {
        mock_display_cleanup(m);
        return -1;
    }
    snprintf(m->display, sizeof(m->display), ":%d", m->number);
    return 0;
}

void mock_display_stop(struct mock_display *m)
{
    child_stop(m->pid, STOP_TIMEOUT_MS);
    m->pid = -1;
    m->number = -1;
}

void mock_display_cleanup(struct mock_display *m)
{
    mock_display_stop(m);
    if (m->dir[0]) {
        unlink(m->transcript);
        rmdir(m->dir);
        m->dir[0] = '\0';
    }
}
