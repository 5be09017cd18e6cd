/*
 * Runs a fuzz target's LLVMFuzzerTestOneInput over saved inputs, without
 * libFuzzer: the regression test `make check` runs (built with the
 * project's compiler), over the seed corpus and every input that once
 * crashed or leaked (tests/fuzz/regress/).
 *
 *     replay-TARGET [DIR]...
 *
 * Without arguments, the directories are $TOP_SRCDIR/tests/fuzz/corpus/TARGET
 * and $TOP_SRCDIR/tests/fuzz/regress/TARGET, TARGET being what follows
 * "replay-" in the program's name. Each input runs in a child process, so a
 * crash fails that input only; the output is TAP.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Optional, as libFuzzer has it: only the harnesses that set something up
 * define it. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUTS 4096
#define MAX_INPUT_SIZE (1024 * 1024)
/* Far more than any input needs, even under valgrind. */
#define CHILD_TIMEOUT_S 60

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect(const char *dir, char **paths, int *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (d == NULL)
        return;     /* a target may have no regressions yet */
    while ((e = readdir(d)) != NULL && *n < MAX_INPUTS) {
        size_t len;

        if (e->d_name[0] == '.')
            continue;
        len = strlen(dir) + strlen(e->d_name) + 2;
        paths[*n] = malloc(len);
        if (paths[*n] == NULL)
            abort();
        snprintf(paths[*n], len, "%s/%s", dir, e->d_name);
        (*n)++;
    }
    closedir(d);
}

static int run_one(const char *path)
{
    static uint8_t buf[MAX_INPUT_SIZE];
    FILE *f = fopen(path, "rb");
    size_t n;

    if (f == NULL) {
        printf("# %s: %s\n", path, strerror(errno));
        return 1;
    }
    n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    return 0;
}

int main(int argc, char **argv)
{
    static char *paths[MAX_INPUTS];
    const char *name = strrchr(argv[0], '/');
    const char *top = getenv("TOP_SRCDIR");
    int n = 0, failed = 0;

    name = name ? name + 1 : argv[0];
    if (strncmp(name, "replay-", 7) == 0)
        name += 7;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            collect(argv[i], paths, &n);
    } else {
        char dir[4096];

        snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", top ? top : ".", name);
        collect(dir, paths, &n);
        snprintf(dir, sizeof(dir), "%s/tests/fuzz/regress/%s", top ? top : ".", name);
        collect(dir, paths, &n);
    }
    if (n == 0) {
        printf("1..0 # SKIP no inputs found for %s\n", name);
        return 0;
    }
    qsort(paths, (size_t)n, sizeof(paths[0]), cmp_str);
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    printf("1..%d\n", n);
    fflush(stdout);
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        int status = 0;

        if (pid == 0) {
            alarm(CHILD_TIMEOUT_S);
            _exit(run_one(paths[i]));
        }
        if (pid < 0 || waitpid(pid, &status, 0) < 0) {
            printf("not ok %d - %s # cannot run it: %s\n", i + 1, paths[i], strerror(errno));
            failed++;
        } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            printf("ok %d - %s\n", i + 1, paths[i]);
        } else {
            printf("not ok %d - %s # %s %d\n", i + 1, paths[i],
                   WIFSIGNALED(status) ? "signal" : "exit status",
                   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
            failed++;
        }
        fflush(stdout);
        free(paths[i]);
    }
    return failed > 0;
}
