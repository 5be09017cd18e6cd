/* mock-x-server: the mock X server as a program, for scripts, tools and
 * people.  Prints "ready" once it listens; SIGTERM or SIGINT stop it. */
#include "mock-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define X11_SOCKET_DIR "/tmp/.X11-unix"

static void usage(FILE *out)
{
    fputs("usage: mock-x-server (--display :N | --socket PATH | --fd N) [options]\n"
          "\n"
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
          "  --dri3-open memfd|none|PATH      what DRI3 Open returns (default memfd)\n"
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

/* True when something accepts connections on path: a live server. */
static bool socket_in_use(const char *path)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    bool live;

    if (fd < 0)
        return false;
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
    live = connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
    close(fd);
    return live;
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
    /* The directory is everybody's, sticky, as X servers make it. */
    if (mkdir(X11_SOCKET_DIR, 01777) == 0)
        chmod(X11_SOCKET_DIR, 01777);
    else if (errno != EEXIST)
        return -1;
    snprintf(path, size, X11_SOCKET_DIR "/X%ld", n);
    return 0;
}

int main(int argc, char **argv)
{
    struct mock_config *cfg = mock_config_new();
    char path[sizeof ((struct sockaddr_un *)0)->sun_path] = "";
    int client_fd = -1, listen_fd = -1, rc = 1;

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
            char *end;
            long fd = strtol(value, &end, 10);

            if (*end || end == value || fd < 0 || fd > 65535) {
                fprintf(stderr, "mock-x-server: bad fd \"%s\"\n", value);
                goto out;
            }
            client_fd = (int)fd;
        } else if (strcmp(opt, "--config") == 0) {
            if (mock_config_load(cfg, value) < 0)
                goto out;
        } else if (mock_config_set(cfg, opt + 2, value) < 0) {
            goto out;
        }
    }
    if (!*path && client_fd < 0) {
        fputs("mock-x-server: one of --display, --socket or --fd is needed\n", stderr);
        usage(stderr);
        goto out;
    }
    if (*path) {
        if (socket_in_use(path)) {
            fprintf(stderr, "mock-x-server: %s is in use by a live server\n", path);
            goto out;
        }
        listen_fd = mock_listen_unix(path);
        if (listen_fd < 0) {
            fprintf(stderr, "mock-x-server: listen on %s: %s\n", path, strerror(errno));
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
    mock_config_free(cfg);
    return rc;
}
