/* The Sudoku X count over threads (scaleout/grid_x_run.h). */
#include "scaleout/grid_x_run.h"

#include <stdlib.h>

#include "common/clock.h"
#include "common/exit_status.h"
#include "common/pool.h"
#include "gridcount/grid_sudoku_x.h"

enum { GRID_X_MAX_THREADS = 256 };

struct grid_x_work {
    const struct grid_x *gx;
    struct grid_x_scratch **scratch; /* one per worker */
    const size_t *items;
    uint64_t *completions; /* per item */
    uint64_t *cpu_ns; /* per item */
};

static bool grid_x_item(void *ctx, unsigned worker, size_t i)
{
    struct grid_x_work *w = ctx;
    uint8_t band[GRID_X_BAND];
    grid_x_class_band(w->gx, w->items[i], band);
    const uint64_t t0 = clock_thread_cpu_ns();
    w->completions[i] = grid_x_completions(w->scratch[worker], band);
    w->cpu_ns[i] = clock_thread_cpu_ns() - t0;
    return true;
}

static double seconds_since(uint64_t t0)
{
    return (double) (clock_now_ns() - t0) / 1e9;
}

static void print_plan(FILE *out, const struct grid_x *gx)
{
    fprintf(out,
        "# Sudoku X grids of 9x9 (3x3 boxes, both diagonals): box 1 fixed to 1..9; "
        "first\n"
        "# bands by column sets and anti-diagonal digits (keys), the keys in classes by\n"
        "# the 24 maps that keep the first band and both diagonals; each class's\n"
        "# completions joined through the middle band's column sets (grid_sudoku_x.h)\n");
    fprintf(out, "first-bands %llu\nkeys %zu\nclasses %zu\n",
        (unsigned long long) grid_x_first_bands(gx), grid_x_keys(gx), grid_x_classes(gx));
}

/* Counts the items on the pool; returns 0, or -1 when memory ran out. */
static int count_items(struct pool *pool, const struct grid_x *gx, const size_t *items,
    size_t n, uint64_t *completions, double *cpu_s)
{
    const unsigned workers = pool_workers(pool);
    struct grid_x_scratch *scratch[GRID_X_MAX_THREADS] = { NULL };
    int rc = 0;
    for (unsigned w = 0; w < workers && rc == 0; w++)
        if (!(scratch[w] = grid_x_scratch_new()))
            rc = -1;
    uint64_t *cpu_ns = rc == 0 ? calloc(n + 1, sizeof(*cpu_ns)) : NULL;
    if (!cpu_ns)
        rc = -1;
    if (rc == 0) {
        struct grid_x_work work = { gx, scratch, items, completions, cpu_ns };
        pool_for_each(pool, n, grid_x_item, &work);
        uint64_t sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += cpu_ns[i];
        *cpu_s = (double) sum / 1e9;
    }
    free(cpu_ns);
    for (unsigned w = 0; w < workers; w++)
        grid_x_scratch_free(scratch[w]);
    return rc;
}

static int estimate(FILE *out, struct pool *pool, const struct grid_x *gx, size_t sample,
    unsigned threads)
{
    const size_t n = grid_x_classes(gx);
    if (sample > n)
        sample = n;
    size_t *items = malloc((sample + 1) * sizeof(*items));
    uint64_t *completions = malloc((sample + 1) * sizeof(*completions));
    int rc = items && completions ? 0 : -1;
    for (size_t i = 0; i < sample; i++)
        items[i] = i * n / sample;
    double cpu = 0;
    if (rc == 0)
        rc = count_items(pool, gx, items, sample, completions, &cpu);
    if (rc == 0) {
        const double per_class = sample ? cpu / (double) sample : 0;
        fprintf(out, "plan: the completions of %zu classes\n", n);
        fprintf(out, "sample: completions %.3f s of CPU per class (%zu timed)\n",
            per_class, sample);
        fprintf(out, "estimate: %.3g s of CPU; %.3g s on %u thread%s with a core each\n",
            per_class * (double) n, per_class * (double) n / threads, threads,
            threads == 1 ? "" : "s");
    }
    free(items);
    free(completions);
    return rc;
}

static int count_all(
    FILE *out, struct pool *pool, const struct grid_x *gx, unsigned threads)
{
    const size_t n = grid_x_classes(gx);
    size_t *items = malloc((n + 1) * sizeof(*items));
    uint64_t *completions = malloc((n + 1) * sizeof(*completions));
    int rc = items && completions ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        items[i] = i;
    const uint64_t t0 = clock_now_ns();
    double cpu = 0;
    if (rc == 0)
        rc = count_items(pool, gx, items, n, completions, &cpu);
    const double took = seconds_since(t0);
    if (rc == 0) {
        grid_count_u128 sum = 0;
        for (size_t k = 0; k < n; k++)
            sum += (grid_count_u128) grid_x_class_bands(gx, k) * completions[k];
        uint64_t relabellings = 1;
        for (int v = 2; v <= GRID_X_N; v++)
            relabellings *= (uint64_t) v;
        char text[GRID_COUNT_U128_DIGITS], total[GRID_COUNT_U128_DIGITS];
        grid_count_u128_format(sum, text);
        grid_count_u128_format(sum * relabellings, total);
        fprintf(out, "completions %s\nrelabellings %llu\ngrids %s\n", text,
            (unsigned long long) relabellings, total);
        fprintf(out, "# time %.3f s on %u thread%s, %.3f s of CPU\n", took, threads,
            threads == 1 ? "" : "s", cpu);
    }
    free(items);
    free(completions);
    return rc;
}

int grid_x_run(unsigned threads, bool estimate_only, size_t sample, FILE *out, FILE *err)
{
    if (threads > GRID_X_MAX_THREADS)
        threads = GRID_X_MAX_THREADS;
    struct grid_x *gx = grid_x_new();
    struct pool *pool = gx ? pool_create(threads) : NULL;
    int rc = pool ? 0 : -1;
    if (rc == 0) {
        print_plan(out, gx);
        rc = estimate_only ? estimate(out, pool, gx, sample, threads)
                           : count_all(out, pool, gx, threads);
    }
    if (rc != 0)
        fprintf(err, "sudolab count: --grids --variant diagonal: out of memory\n");
    pool_destroy(pool);
    grid_x_free(gx);
    return rc == 0 ? EXIT_STATUS_OK : EXIT_STATUS_SKIPPED;
}
