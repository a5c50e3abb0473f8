/* Replays a fuzz target's inputs without libFuzzer: every file given, or
 * every file in a directory given, goes once through the target's
 * LLVMFuzzerTestOneInput, in name order. Linked with each target in the
 * builds that do not fuzz (gcc, the sanitizers), it makes the seed corpora
 * and the inputs that once found a bug (tests/fuzz/SEEDS/regression-*)
 * regression tests of every build: a crash, a sanitizer report or a
 * target's abort() fails it. Usage: replay-TARGET FILE|DIR... */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Feeds the file at path to the target; -1 when it cannot be read. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        perror(path);
        if (f)
            fclose(f);
        return -1;
    }
    const size_t size = (size_t) st.st_size;
    uint8_t *data = malloc(size ? size : 1);
    const bool read = data && fread(data, 1, size, f) == size;
    fclose(f);
    if (read)
        LLVMFuzzerTestOneInput(data, size);
    else
        fprintf(stderr, "%s: cannot read\n", path);
    free(data);
    return read ? 0 : -1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Replays every regular file of dir in name order; returns the count, or -1. */
static int replay_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int count = 0;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **more = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof(*names));
            if (!more) {
                count = -1;
                break;
            }
            names = more;
        }
        const size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            count = -1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (count >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            count = replay_file(names[i]) == 0 ? count + 1 : -1;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    int inputs = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        const int got = stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)
            ? replay_dir(argv[i])
            : (replay_file(argv[i]) == 0 ? 1 : -1);
        if (got < 0)
            return 1;
        inputs += got;
    }
    printf("%s: %d inputs replayed, no finding\n", argv[0], inputs);
    return inputs > 0 ? 0 : 1;
}
