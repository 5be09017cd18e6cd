/* mock-x-server: the mock X server as a program, for scripts, tools and
 * people.  Prints "ready" once it listens; SIGTERM or SIGINT stop it. */
#include "mock-internal.h"
#include "mock-display-claim.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define X11_SOCKET_DIR "/tmp/.X11-unix"

static void usage(FILE *out)
{
    fputs("usage: mock-x-server (--displayfd FD | --display :N | --socket PATH | --fd N)\n"
          "                     [options]\n"
          "\n"
          "  --displayfd FD        pick a free display (from :100 up, claimed with\n"
          "                        /tmp/.XN-lock and the abstract socket name, as X\n"
          "                        servers do), listen on " X11_SOCKET_DIR "/XN and,\n"
          "                        once it accepts clients, write N and a newline to\n"
          "                        FD and close it (Xvfb's -displayfd)\n"
          "  --display :N          listen on " X11_SOCKET_DIR "/XN\n"
          "  --socket PATH         listen on the Unix socket PATH\n"
          "  --fd N                serve the one client already connected on fd N\n"
          "  --config FILE         read \"KEY VALUE\" lines (# comments)\n"
          "  --help                this text\n"
          "\n"
          "Every configuration key is also an option, --KEY VALUE:\n"
          "  --dri3-version MAJ.MIN|none      (default 1.4)\n"
          "  --present-version MAJ.MIN|none   (default 1.4)\n"
          "  --present-caps LIST|none         async,fence,ust,async-may-tear,syncobj\n"
          "  --present-window-caps LIST|none  the same, for windows other than the root\n"
          "  --dri3-open memfd|none|PATH      what DRI3 Open returns (default memfd)\n"
          "  --dri3-pixmap-fds any|dmabuf     dmabuf: refuse memfd pixmaps, as GPU servers do\n"
          "  --modifiers-window LIST          64-bit modifiers, comma separated\n"
          "                                   (default 0, linear; \"\" for none)\n"
          "  --modifiers-screen LIST\n"
          "  --msc-rate HZ                    fake vblank rate (default 60)\n"
          "  --screen-size WxH                (default 1024x768)\n"
          "  --transcript PATH                log every request there\n"
          "  --fault KIND:TARGET[:ARG]        repeatable; see mock-server.h\n"
          "\n"
          "Prints \"ready\" on stdout once it listens; stops on SIGTERM or SIGINT.\n",
          out);
}

static int display_path(const char *display, char *path, size_t size)
{
    char *end;
    long n;

    if (display[0] != ':' || !display[1])
        return -1;
    errno = 0;
    n = strtol(display + 1, &end, 10);
    if (errno || *end || n < 0 || n > 65535)
        return -1;
    if (mock_socket_dir() < 0)
        return -1;
    snprintf(path, size, X11_SOCKET_DIR "/X%ld", n);
    return 0;
}

/* An fd number given on the command line; -1 when it is not one. */
static int parse_fd(const char *value)
{
    char *end;
    long fd = strtol(value, &end, 10);

    return *end || end == value || fd < 0 || fd > 65535 ? -1 : (int)fd;
}

/* --displayfd: the number and a newline in one write, as Xvfb does, then
 * the fd is closed so that a reader waiting for the end sees it. */
static int report_display(int fd, int number)
{
    char line[16];
    int len = snprintf(line, sizeof line, "%d\n", number);
    ssize_t n;

    do
        n = write(fd, line, (size_t)len);
    while (n < 0 && errno == EINTR);
    close(fd);
    return n == len ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct mock_config *cfg = mock_config_new();
    struct mock_display_claim claim = { .number = -1, .abstract_fd = -1 };
    char path[sizeof ((struct sockaddr_un *)0)->sun_path] = "";
    int client_fd = -1, listen_fd = -1, display_fd = -1, rc = 1;
    sigset_t stop_signals;

    /* A stop that comes before the server runs (right after the caller
     * read our number, say) waits until mock_server_run() handles it, so
     * that the socket and the lock file still go. */
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    sigprocmask(SIG_BLOCK, &stop_signals, NULL);
    /* A --displayfd reader that gave up must not kill us mid-write. */
    signal(SIGPIPE, SIG_IGN);
    if (!cfg) {
        fputs("mock-x-server: out of memory\n", stderr);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;

        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            usage(stdout);
            mock_config_free(cfg);
            return 0;
        }
        if (strncmp(opt, "--", 2) != 0 || !value) {
            fprintf(stderr, "mock-x-server: %s: %s\n", opt,
                    strncmp(opt, "--", 2) ? "unknown argument" : "needs a value");
            usage(stderr);
            goto out;
        }
        i++;
        if (strcmp(opt, "--display") == 0) {
            if (display_path(value, path, sizeof path) < 0) {
                fprintf(stderr, "mock-x-server: bad display \"%s\" (want :N)\n", value);
                goto out;
            }
        } else if (strcmp(opt, "--socket") == 0) {
            if (strlen(value) >= sizeof path) {
                fprintf(stderr, "mock-x-server: socket path too long\n");
                goto out;
            }
            strcpy(path, value);
        } else if (strcmp(opt, "--fd") == 0) {
            client_fd = parse_fd(value);
            if (client_fd < 0) {
                fprintf(stderr, "mock-x-server: bad fd \"%s\"\n", value);
                goto out;
            }
        } else if (strcmp(opt, "--displayfd") == 0) {
            display_fd = parse_fd(value);
            if (display_fd < 0 || fcntl(display_fd, F_GETFD) < 0) {
                fprintf(stderr, "mock-x-server: --displayfd \"%s\" is not an open fd\n", value);
                display_fd = -1;
                goto out;
            }
        } else if (strcmp(opt, "--config") == 0) {
            if (mock_config_load(cfg, value) < 0)
                goto out;
        } else if (mock_config_set(cfg, opt + 2, value) < 0) {
            goto out;
        }
    }
    if ((*path != 0) + (client_fd >= 0) + (display_fd >= 0) != 1) {
        fputs("mock-x-server: one of --displayfd, --display, --socket or --fd is needed\n",
              stderr);
        usage(stderr);
        goto out;
    }
    if (display_fd >= 0 && mock_display_claim(&claim, path, sizeof path) < 0)
        goto out;
    if (*path) {
        if (claim.number < 0 && mock_socket_in_use(path)) {
            fprintf(stderr, "mock-x-server: %s is in use by a live server\n", path);
            goto out;
        }
        listen_fd = mock_listen_unix(path);
        if (listen_fd < 0) {
            fprintf(stderr, "mock-x-server: listen on %s: %s\n", path, strerror(errno));
            goto out;
        }
    }
    /* Listening is enough: a client that connects now waits in the
     * backlog until the loop accepts it. */
    if (display_fd >= 0) {
        int fd = display_fd;

        display_fd = -1;
        if (report_display(fd, claim.number) < 0) {
            fprintf(stderr, "mock-x-server: --displayfd: %s\n", strerror(errno));
            unlink(path);
            goto out;
        }
    }
    printf("ready%s%s\n", *path ? " " : "", path);
    fflush(stdout);
    rc = mock_server_run(cfg, listen_fd, client_fd) == 0 ? 0 : 1;
    if (*path)
        unlink(path);
out:
    if (listen_fd >= 0)
        close(listen_fd);
    if (display_fd >= 0)
        close(display_fd);
    mock_display_release(&claim);
    mock_config_free(cfg);
    return rc;
}
