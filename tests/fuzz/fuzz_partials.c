/* libFuzzer target: the shard outputs `sudolab merge` reads as text: the
 * count --grids partials, the band reduction's (scaleout/grid_text.h) and
 * the profile walk's (scaleout/grid_walk.h), and rate --shard outputs
 * (scaleout/merge.h), told apart by their first line as merge does.
 * Whatever the bytes, a merge ends in a total or a refusal with an exit
 * status: no crash, no read past the text, no hang (the sanitizers and
 * libFuzzer's limits watch those). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scaleout/grid_text.h"
#include "scaleout/grid_walk.h"
#include "scaleout/merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* grid_walk_merge reads partials by name: the input goes to this file */
static char walk_path[4096];
static FILE *sink;

static void remove_walk_file(void)
{
    unlink(walk_path);
}

static int setup(void)
{
    if (sink)
        return 0;
    const char *dir = getenv("TMPDIR");
    snprintf(walk_path, sizeof(walk_path), "%s/sudolab-fuzz-partials-XXXXXX",
        dir && *dir ? dir : P_tmpdir);
    const int fd = mkstemp(walk_path);
    if (fd < 0)
        return -1;
    close(fd);
    atexit(remove_walk_file);
    sink = fopen("/dev/null", "w");
    return sink ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || setup() != 0)
        return 0;
    const char *const names[] = { walk_path };
    const size_t magic = strlen(GRID_WALK_MAGIC);
    if (size >= magic && memcmp(data, GRID_WALK_MAGIC, magic) == 0) {
        FILE *f = fopen(walk_path, "wb");
        if (!f)
            return 0;
        const bool written = fwrite(data, 1, size, f) == size;
        if (fclose(f) == 0 && written)
            grid_walk_merge(names, 1, sink, sink);
        return 0;
    }
    FILE *in = fmemopen((void *) data, size, "rb");
    if (!in)
        return 0;
    FILE *const ins[] = { in };
    if (size >= 15 && memcmp(data, "# sudolab rate ", 15) == 0)
        merge_rate(ins, names, 1, sink);
    else
        grid_merge(ins, names, 1, sink);
    fclose(in);
    return 0;
}
