/* Running the mock server in a forked child, for tests: a private
 * directory holds its socket and its transcript. */
#include "mock-internal.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct mock_server {
    pid_t pid;
    bool stopped;
    int status;                 /* mock_server_stop's answer, once stopped */
    /* short enough for a sockaddr_un, whatever TMPDIR says */
    char dir[80];
    char socket_path[96];
    char transcript_path[96];
    char stats_path[96];
};

/* The child closes what it inherited from the test (other servers'
 * client sockets, the test runner's pipes), so that a client the test
 * closes is seen to go, and nobody waits on a pipe we hold.  Fds at or
 * above the soft limit are valgrind's own when it runs us; they stay. */
static void close_inherited_fds(int keep)
{
    struct rlimit lim;
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *e;

    if (!dir || getrlimit(RLIMIT_NOFILE, &lim) < 0) {
        if (dir)
            closedir(dir);
        return;
    }
    while ((e = readdir(dir))) {
        int fd = atoi(e->d_name);

        if (fd > 2 && fd != keep && fd != dirfd(dir) && (rlim_t)fd < lim.rlim_cur)
            close(fd);
    }
    closedir(dir);
}

struct mock_server *mock_server_start(const struct mock_config *cfg)
{
    struct mock_server *s = calloc(1, sizeof *s);
    const char *tmp = getenv("TMPDIR");
    struct mock_config child_cfg;
    sigset_t stop_sigs, old_mask;
    int listen_fd;
    pid_t parent;
    char transcript[sizeof s->transcript_path];
    char stats[sizeof s->stats_path];

    if (!s) {
        fprintf(stderr, "mock server: out of memory\n");
        return NULL;
    }
    if (!tmp || !*tmp || strlen(tmp) > 60)
        tmp = "/tmp";
    snprintf(s->dir, sizeof s->dir, "%s/mock-x-XXXXXX", tmp);
    if (!mkdtemp(s->dir)) {
        fprintf(stderr, "mock server: mkdtemp %s: %s\n", s->dir, strerror(errno));
        free(s);
        return NULL;
    }
    snprintf(s->socket_path, sizeof s->socket_path, "%s/X0", s->dir);
    snprintf(s->transcript_path, sizeof s->transcript_path, "%s/transcript", s->dir);
    snprintf(s->stats_path, sizeof s->stats_path, "%s/stats", s->dir);
    listen_fd = mock_listen_unix(s->socket_path);
    if (listen_fd < 0) {
        fprintf(stderr, "mock server: listen on %s: %s\n", s->socket_path, strerror(errno));
        rmdir(s->dir);
        free(s);
        return NULL;
    }

    if (cfg)
        child_cfg = *cfg;
    else
        mock_config_defaults(&child_cfg);

    /* Blocked across fork, so that a SIGTERM sent before the child has
     * installed its handlers waits for them instead of killing it. */
    sigemptyset(&stop_sigs);
    sigaddset(&stop_sigs, SIGTERM);
    sigaddset(&stop_sigs, SIGINT);
    sigprocmask(SIG_BLOCK, &stop_sigs, &old_mask);
    parent = getpid();
    s->pid = fork();
    if (s->pid == 0) {
        /* A test that fails ends without stopping us: go with it. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(1);
        close_inherited_fds(listen_fd);
        /* The parent's handle is not the child's to keep. */
        strcpy(transcript, s->transcript_path);
        strcpy(stats, s->stats_path);
        /* "transcript off": a long run (tests/soak) would write gigabytes */
        child_cfg.transcript_path = child_cfg.transcript_off ? NULL : transcript;
        child_cfg.stats_path = stats;
        free(s);
        /* _exit: the parent's atexit handlers and stdio buffers (the
         * test runner's among them) are not the child's to run. */
        _exit(mock_server_run(&child_cfg, listen_fd, -1) == 0 ? 0 : 1);
    }
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    close(listen_fd);
    if (s->pid < 0) {
        fprintf(stderr, "mock server: fork: %s\n", strerror(errno));
        unlink(s->socket_path);
        rmdir(s->dir);
        free(s);
        return NULL;
    }
    return s;
}

const char *mock_server_socket_path(const struct mock_server *s)
{
    return s->socket_path;
}

pid_t mock_server_pid(const struct mock_server *s)
{
    return s->pid;
}

int mock_server_connect_raw(struct mock_server *s)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

    if (fd < 0)
        return -1;
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", s->socket_path);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

xcb_connection_t *mock_server_connect(struct mock_server *s)
{
    /* xcb_connect_to_fd owns the fd from here, and answers -1 with an
     * error connection. */
    return xcb_connect_to_fd(mock_server_connect_raw(s), NULL);
}

int mock_server_stop(struct mock_server *s)
{
    struct timespec tick = { 0, 5 * 1000 * 1000 };
    int status;
    pid_t r = 0;

    if (s->stopped)
        return s->status;
    kill(s->pid, SIGTERM);
    for (int i = 0; i < 1000 && (r = waitpid(s->pid, &status, WNOHANG)) == 0; i++)
        nanosleep(&tick, NULL);
    if (r == 0) {
        fprintf(stderr, "mock server: pid %d did not stop within 5 s; killing it\n",
                (int)s->pid);
        kill(s->pid, SIGKILL);
        r = waitpid(s->pid, &status, 0);
        s->status = -1;
    } else {
        s->status = r > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    s->stopped = true;
    return s->status;
}

void mock_server_free(struct mock_server *s)
{
    if (!s)
        return;
    mock_server_stop(s);
    unlink(s->socket_path);
    unlink(s->transcript_path);
    unlink(s->stats_path);
    rmdir(s->dir);
    free(s);
}

struct mock_transcript *mock_server_transcript(struct mock_server *s)
{
    return mock_transcript_read(s->transcript_path);
}

int mock_server_stats(struct mock_server *s, xcb_connection_t *c, struct mock_stats *out)
{
    xcb_get_input_focus_reply_t *sync;
    FILE *f;
    int n;

    /* NoOperation makes the server write its counts; the round trip
     * after it says they are written. */
    xcb_no_operation(c);
    sync = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    if (!sync)
        return -1;
    free(sync);
    f = fopen(s->stats_path, "re");
    if (!f)
        return -1;
    n = fscanf(f, "clients %u resources %u windows %u pixmaps %u fences %u syncobjs %u "
                  "gcs %u shm-segments %u event-selections %u",
               &out->clients, &out->resources, &out->windows, &out->pixmaps, &out->fences,
               &out->syncobjs, &out->gcs, &out->shm_segments, &out->event_selections);
    fclose(f);
    return n == 9 ? 0 : -1;
}
