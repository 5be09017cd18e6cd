/*
 * PRIME: which fds are one device, and the render node a DRI_PRIME-style
 * selection opens.  Memfds and files stand for devices (the mock server
 * hands out either), so two devices need no second GPU; with no /dev/dri
 * every well-formed selection finds nothing.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "buffer-test-util.h"

static int new_memfd(void)
{
    int fd = memfd_create("device-prime", MFD_CLOEXEC);

    CHECK(fd >= 0);
    return fd;
}

/* A fresh file in a fresh private directory; *path names it. */
static void make_file(char *dir, size_t dir_size, char *path, size_t path_size)
{
    int fd;

    snprintf(dir, dir_size, "%s/device-prime-XXXXXX", P_tmpdir);
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, path_size, "%s/gpu", dir);
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    CHECK(fd >= 0);
    close(fd);
}

static void remove_file(const char *dir, const char *path)
{
    CHECK_EQ(unlink(path), 0);
    CHECK_EQ(rmdir(dir), 0);
}

TEST(needs_prime_memfds)
{
    int a = new_memfd(), b = new_memfd(), a2 = fcntl(a, F_DUPFD_CLOEXEC, 0);

    CHECK_EQ(xcb_dri3_util_device_needs_prime(a, b), 1);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(b, a), 1);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(a, a), 0);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(a, a2), 0);
    errno = 0;
    CHECK_EQ(xcb_dri3_util_device_needs_prime(a, -1), -EBADF);
    CHECK_EQ(errno, EBADF);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(-1, a), -EBADF);
    close(a2);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(a2, b), -EBADF);
    close(a);
    close(b);
}

/* Two opens of one file are one device; another file is another. */
TEST(needs_prime_files)
{
    char dir[128], path[160], dir2[128], path2[160];
    int a, b, c;

    make_file(dir, sizeof dir, path, sizeof path);
    make_file(dir2, sizeof dir2, path2, sizeof path2);
    a = open(path, O_RDWR | O_CLOEXEC);
    b = open(path, O_RDONLY | O_CLOEXEC);
    c = open(path2, O_RDWR | O_CLOEXEC);
    CHECK(a >= 0 && b >= 0 && c >= 0);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(a, b), 0);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(a, c), 1);
    close(a);
    close(b);
    close(c);
    remove_file(dir, path);
    remove_file(dir2, path2);
}

/* The mock hands out the file of its dri3-open key: the client that opens
 * the same file renders on the server's device, one that opens another
 * file (or the default memfd's server) needs PRIME. */
TEST(needs_prime_against_the_mock)
{
    char dir[128], path[160], dir2[128], path2[160];
    xcb_dri3_util_device_t *d;
    struct e2e t;
    int same, other;

    make_file(dir, sizeof dir, path, sizeof path);
    make_file(dir2, sizeof dir2, path2, sizeof path2);
    e2e_start(&t, "dri3-open", path, NULL);
    d = xcb_dri3_util_device_open(t.c, t.root, 0, NULL);
    CHECK(d != NULL);
    same = open(path, O_RDWR | O_CLOEXEC);
    other = open(path2, O_RDWR | O_CLOEXEC);
    CHECK(same >= 0 && other >= 0);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(d->fd, same), 0);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(d->fd, other), 1);
    xcb_dri3_util_device_close(d);
    bt_stop(&t);
    e2e_end(&t);

    e2e_start(&t, NULL);
    d = xcb_dri3_util_device_open(t.c, t.root, 0, NULL);
    CHECK(d != NULL);
    CHECK_EQ(xcb_dri3_util_device_needs_prime(d->fd, same), 1);
    xcb_dri3_util_device_close(d);
    bt_stop(&t);
    e2e_end(&t);
    close(same);
    close(other);
    remove_file(dir, path);
    remove_file(dir2, path2);
}

TEST(open_selected_malformed)
{
    static const char *const bad[] = {
        "", "0", "2", "11", "1 ", " 1", "yes",
        "pci-0000_01_00", "pci-0000_01_00_0_", "pci-0000:01:00.0", "pci-000g_01_00_0",
        "pci_0000_01_00_0", "PCI-0000_01_00_0", "pci-0000_01_20_0", "pci-0000_01_00_8",
        "pci-0000_01_00_0-render",
        "10de", "10de:", "10de:1b8", "10de:1b80x", "10de-1b80", "10dex1b80", ":10de1b80",
    };

    errno = 0;
    CHECK_EQ(xcb_dri3_util_device_open_selected(NULL, -1), -EINVAL);
    CHECK_EQ(errno, EINVAL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        test_note("\"%s\"", bad[i]);
        CHECK_EQ(xcb_dri3_util_device_open_selected(bad[i], -1), -EINVAL);
    }
}

TEST(open_selected_bad_server_fd)
{
    errno = 0;
    CHECK_EQ(xcb_dri3_util_device_open_selected("1", 1000000), -EBADF);
    CHECK_EQ(errno, EBADF);
}

/* The number of render nodes under /dev/dri. */
static int render_nodes(void)
{
    DIR *d = opendir("/dev/dri");
    struct dirent *e;
    int n = 0;

    if (!d)
        return 0;
    while ((e = readdir(d)))
        n += strncmp(e->d_name, "renderD", 7) == 0;
    closedir(d);
    return n;
}

/* Well-formed selections of no GPU here: PCI addresses and ids no machine
 * has, and, where there is no GPU at all, every shape. */
TEST(open_selected_finds_nothing)
{
    int memfd = new_memfd();

    errno = 0;
    CHECK_EQ(xcb_dri3_util_device_open_selected("pci-ffff_FF_1f_7", -1), -ENOENT);
    CHECK_EQ(errno, ENOENT);
    CHECK_EQ(xcb_dri3_util_device_open_selected("ffff:ffff", -1), -ENOENT);
    if (render_nodes() == 0) {
        CHECK_EQ(xcb_dri3_util_device_open_selected("pci-0000_01_00_0", -1), -ENOENT);
        CHECK_EQ(xcb_dri3_util_device_open_selected("pci-0000_00_02_0", memfd), -ENOENT);
        CHECK_EQ(xcb_dri3_util_device_open_selected("10de:1B80", -1), -ENOENT);
        CHECK_EQ(xcb_dri3_util_device_open_selected("1", -1), -ENOENT);
        CHECK_EQ(xcb_dri3_util_device_open_selected("1", memfd), -ENOENT);
    }
    close(memfd);
}

/* "1" with a render node as the server's device: another GPU, which a
 * single-GPU machine does not have. */
TEST(open_selected_other_gpu)
{
    int n = render_nodes(), server = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC), fd;

    if (server < 0)
        SKIP("no /dev/dri/renderD128 to stand for the server's GPU");
    fd = xcb_dri3_util_device_open_selected("1", server);
    test_note("%d render node(s): %d", n, fd);
    if (n == 1) {
        CHECK_EQ(fd, -ENOENT);
    } else {
        CHECK(fd >= 0);
        CHECK_CLOEXEC(fd);
        CHECK_EQ(xcb_dri3_util_device_needs_prime(server, fd), 1);
        close(fd);
    }
    close(server);
}
