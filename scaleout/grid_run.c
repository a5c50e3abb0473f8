/* count --grids over threads and shards (scaleout/grid_run.h). */
#include "scaleout/grid_run.h"

#include <math.h>
#include <stdlib.h>

#include "common/clock.h"
#include "common/exit_status.h"
#include "common/pool.h"
#include "gridcount/grid_count.h"
#include "gridcount/grid_essential.h"
#include "gridcount/grid_profiles.h"
#include "scaleout/grid_text.h"
#include "scaleout/grid_x_run.h"

enum {
    GRID_MAX_THREADS = 256,
    GRID_X_SAMPLE = 16, /* classes --estimate times on 9x9 Sudoku X */
    GRID_WALK_SAMPLE = 2000, /* profiles the 12x12 class estimate draws */
    GRID_WALK_CLASSES = 48, /* classes the 12x12 estimate times */
    GRID_WALK_PROBES = 200, /* Knuth's descents per timed class */
    GRID_WALK_SEED = 36,
    GRID_SHARD_CPU_S = 3600, /* CPU a shard of the printed plan should take */
};
#define GRID_WALK_BUDGET 100000000u /* band-search nodes run per timed class */
#define GRID_COMPLETION_BUDGET 2000u /* middle-band choices timed per class */

/* One phase over a list of classes: their orders, or their completions. */
struct grid_work {
    struct grid_count *gc;
    const size_t *items;
    grid_count_u128 *completions; /* NULL: the orders phase */
};

static bool grid_item(void *ctx, unsigned worker, size_t i)
{
    (void) worker;
    struct grid_work *w = ctx;
    const size_t k = w->items[i];
    if (w->completions)
        w->completions[k] = grid_count_completions(w->gc, k);
    else
        grid_count_orders(w->gc, k);
    return true;
}

/* Runs the phase on the pool's workers, this thread among them. */
static void run_phase(struct pool *pool, struct grid_count *gc, const size_t *items,
    size_t n, grid_count_u128 *completions)
{
    struct grid_work w = { gc, items, completions };
    pool_for_each(pool, n, grid_item, &w);
}

static double seconds_since(uint64_t t0)
{
    return (double) (clock_now_ns() - t0) / 1e9;
}

/* The classes this shard counts, and (three bands) every class, whose
 * orders it needs. */
struct grid_lists {
    size_t *owned, nowned;
    size_t *all, nall;
};

static int make_lists(
    const struct grid_count *gc, const struct shard *s, struct grid_lists *l)
{
    const size_t n = grid_count_classes(gc);
    l->owned = malloc((n + 1) * sizeof(size_t));
    l->all = malloc((n + 1) * sizeof(size_t));
    if (!l->owned || !l->all)
        return -1;
    l->nowned = l->nall = 0;
    for (size_t k = 0; k < n; k++) {
        l->all[l->nall++] = k;
        if (shard_owns(s, k))
            l->owned[l->nowned++] = k;
    }
    if (!grid_count_needs_all_orders(gc)) {
        l->nall = l->nowned;
        for (size_t i = 0; i < l->nowned; i++)
            l->all[i] = l->owned[i];
    }
    return 0;
}

/* Prints the shard's rows (and the totals of a whole count); returns the
 * grids. */
static grid_count_u128 print_rows(FILE *out, struct grid_count *gc,
    const struct grid_lists *l, const grid_count_u128 *completions, bool partial)
{
    grid_count_u128 bands = 0, grids = 0;
    for (size_t i = 0; i < l->nowned; i++) {
        struct grid_row r;
        grid_class_row(gc, l->owned[i], completions[l->owned[i]], &r);
        grid_text_row(out, &r);
        bands += grid_row_bands(&r);
        grids += grid_row_bands(&r) * r.completions;
    }
    if (!partial)
        grid_text_totals(out, bands, grids);
    return grids;
}

/* --- the essentially different grids --- */

/* Search nodes a class of Burnside's sum may take before it is given up:
 * about a second each; the classes it does not reach are named. */
enum { GRID_ESSENTIAL_NODES = 2000000 };

struct essential_work {
    struct grid_essential *ge;
    grid_count_u128 total;
};

static bool essential_item(void *ctx, unsigned worker, size_t k)
{
    (void) worker;
    struct essential_work *w = ctx;
    grid_essential_count(w->ge, k, w->total, GRID_ESSENTIAL_NODES);
    return true;
}

/* One row per class with fixed grids (or not counted); returns the classes
 * not counted. */
static size_t print_essential_rows(FILE *out, const struct grid_essential *ge, int n)
{
    size_t missing = 0, zero = 0;
    fprintf(out,
        "# class size fixed representative (fixed: grids X that it maps to "
        "a relabelling of X)\n");
    for (size_t k = 0; k < grid_essential_classes(ge); k++) {
        const struct grid_essential_class *c = grid_essential_class_at(ge, k);
        char what[160], fixed[GRID_COUNT_U128_DIGITS];
        grid_essential_describe(c, n, what, sizeof(what));
        grid_count_u128_format(c->fixed, fixed);
        if (!c->counted) {
            missing++;
            fprintf(out, "class %zu %llu not-counted %s (gave up after %llu nodes)\n",
                k + 1, (unsigned long long) c->size, what, (unsigned long long) c->nodes);
        } else if (c->fixed != 0) {
            fprintf(out, "class %zu %llu %s %s\n", k + 1, (unsigned long long) c->size,
                fixed, what);
        } else {
            zero++;
        }
    }
    fprintf(out, "# %zu classes fix no grid\n", zero);
    return missing;
}

/* Burnside's lemma over the geometry and the relabellings, the identity's
 * term being the total just counted. Returns 0, 1 after saying why it
 * failed, 2 after naming the classes it did not reach. */
static int print_essential(FILE *out, FILE *err, const struct grid_run_options *o,
    struct pool *pool, grid_count_u128 total)
{
    char why[200], fixed[GRID_COUNT_U128_DIGITS], classes[GRID_COUNT_U128_DIGITS];
    const uint64_t t0 = clock_now_ns();
    /* in the counted orientation, whose bands the orbit join reads */
    const bool flip = o->box_rows < o->box_cols;
    const int rows = flip ? o->box_cols : o->box_rows,
              cols = flip ? o->box_rows : o->box_cols;
    struct grid_essential *ge = grid_essential_new(rows, cols, why, sizeof(why));
    if (!ge) {
        fprintf(err, "sudolab count: --essential: %s\n", why);
        return 1;
    }
    const int n = o->box_rows * o->box_cols;
    fprintf(out,
        "# Burnside: |G| = %llu maps (bands, rows, stacks, columns%s) in %zu conjugacy "
        "classes, x %d! relabellings%s\n",
        (unsigned long long) grid_essential_group(ge),
        o->box_rows == o->box_cols ? ", transpose" : "", grid_essential_classes(ge), n,
        flip ? "; the maps act on the transpose" : "");
    const unsigned threads
        = o->threads > GRID_MAX_THREADS ? GRID_MAX_THREADS : o->threads;
    struct essential_work w = { ge, total };
    pool_for_each(pool, grid_essential_classes(ge), essential_item, &w);
    const size_t missing = print_essential_rows(out, ge, n);
    grid_count_u128 sum = 0, quotient = 0;
    const int rc = grid_essential_sum(ge, &sum, &quotient, why, sizeof(why));
    grid_essential_free(ge);
    fprintf(out, "# time %.3f s (Burnside) on %u thread%s\n", seconds_since(t0), threads,
        threads == 1 ? "" : "s");
    if (missing) {
        fprintf(err,
            "sudolab count: --essential: %zu classes not counted within %d nodes "
            "each (the rows marked not-counted): no total\n",
            missing, GRID_ESSENTIAL_NODES);
        return 2;
    }
    if (rc != 0) {
        fprintf(err, "sudolab count: --essential: %s\n", why);
        return 1;
    }
    grid_count_u128_format(sum, fixed);
    grid_count_u128_format(quotient, classes);
    fprintf(out, "fixed %s\nessentially-different %s\n", fixed, classes);
    return 0;
}

/* --- the estimate --- */

enum { GRID_PROBES = 200 };

/* The estimated search nodes of classes (list[0..n), or 0..n when list is
 * NULL), and those of the classes small enough to count here, timed. */
struct node_sample {
    double nodes, timed_nodes, timed_s;
};

static void sample_nodes(
    struct grid_count *gc, const size_t *list, size_t n, struct node_sample *s)
{
    enum { SMALL = 20000000 };
    for (size_t i = 0; i < n; i++) {
        const size_t k = list ? list[i] : i;
        const double e = grid_count_orders_nodes_estimate(gc, k, GRID_PROBES, k + 1);
        s->nodes += e;
        if (e <= SMALL && s->timed_s < 2.0) {
            const uint64_t t0 = clock_now_ns();
            grid_count_orders(gc, k);
            s->timed_s += seconds_since(t0);
            s->timed_nodes += e;
        }
    }
}

/* Two bands: each class is one search; Knuth's estimate of its nodes, at a
 * rate timed on the classes small enough to count here, else on the 8x8
 * shape's. */
static void estimate_two_bands(
    FILE *out, struct grid_count *gc, const struct grid_lists *l, unsigned threads)
{
    struct node_sample s = { 0, 0, 0 };
    sample_nodes(gc, l->owned, l->nowned, &s);
    struct node_sample rate_on = s;
    const char *where = "this shape's small classes";
    char why[160];
    struct grid_count *small
        = s.timed_nodes > 0 ? NULL : grid_count_new(2, 4, why, sizeof(why));
    if (small) {
        rate_on = (struct node_sample) { 0, 0, 0 };
        sample_nodes(small, NULL, grid_count_classes(small), &rate_on);
        grid_count_free(small);
        where = "the 8x8 shape's classes";
    }
    fprintf(out, "plan: %zu classes in this shard, one search each for its orders\n",
        l->nowned);
    fprintf(out, "sample: %.3g search nodes (Knuth's estimate, %d probes per class)\n",
        s.nodes, GRID_PROBES);
    if (rate_on.timed_nodes == 0) {
        fputs("estimate: no class small enough to time a rate on\n", out);
        return;
    }
    const double rate
        = rate_on.timed_nodes / (rate_on.timed_s > 1e-6 ? rate_on.timed_s : 1e-6);
    fprintf(out, "rate: %.3g nodes/s, timed on %.3g nodes of %s\n", rate,
        rate_on.timed_nodes, where);
    fprintf(out, "estimate: %.3g s on %u thread%s of this machine\n",
        s.nodes / rate / threads, threads, threads == 1 ? "" : "s");
}

/* Three bands: the orders of every class, timed, then the completions of a
 * sample of the shard's classes, all of which cost about the same. */
static void estimate_three_bands(FILE *out, struct grid_count *gc,
    const struct grid_lists *l, struct pool *pool, unsigned threads)
{
    uint64_t t0 = clock_now_ns();
    run_phase(pool, gc, l->all, l->nall, NULL);
    const double orders_s = seconds_since(t0);
    const size_t sample = l->nowned < 3 ? l->nowned : 3;
    t0 = clock_now_ns();
    for (size_t i = 0; i < sample; i++)
        grid_count_completions(gc, l->owned[i * l->nowned / sample]);
    const double per_class = sample ? seconds_since(t0) / (double) sample : 0;
    fprintf(out,
        "plan: the orders of all %zu classes, then the completions of %zu classes in "
        "this shard\n",
        l->nall, l->nowned);
    fprintf(out, "sample: orders %.3f s; completions %.3f s per class (%zu timed)\n",
        orders_s, per_class, sample);
    fprintf(out, "estimate: %.3g s on %u thread%s of this machine\n",
        orders_s + per_class * (double) l->nowned / threads, threads,
        threads == 1 ? "" : "s");
}

/* --- 12x12: the plan from the profile walk --- */

/* The classes (exact and sampled), then classes drawn with probability
 * orbit / profiles: Knuth's estimate of each one's band search for its
 * orders, and the search itself run for GRID_WALK_BUDGET nodes, timed in CPU,
 * for the rate; the total is profiles * the mean of nodes / orbit. */
static int estimate_profile_walk(
    const struct grid_run_options *o, struct grid_profiles *gp, FILE *out, FILE *err)
{
    const int R = o->box_rows > o->box_cols ? o->box_rows : o->box_cols;
    const int C = o->box_rows > o->box_cols ? o->box_cols : o->box_rows;
    uint64_t t0 = clock_thread_cpu_ns();
    const uint64_t profiles = grid_profiles_count(gp);
    uint64_t classes = 0;
    size_t conjugacy = 0;
    struct grid_profiles_estimate est;
    if (profiles == 0 || grid_profiles_classes_exact(gp, &classes, &conjugacy) != 0
        || grid_profiles_classes_sampled(gp, GRID_WALK_SAMPLE, GRID_WALK_SEED, &est)
            != 0) {
        fprintf(err, "sudolab count: --grids: out of memory\n");
        return EXIT_STATUS_SKIPPED;
    }
    const double plan_s = (double) (clock_thread_cpu_ns() - t0) / 1e9;
    fprintf(out,
        "# %dx%d grids, %dx%d boxes, counted as %dx%d: %d bands; profiles counted and "
        "drawn by a walk, not listed\n",
        R * C, R * C, o->box_rows, o->box_cols, R, C, C);
    fprintf(out, "profiles %llu\ngroup %llu\n", (unsigned long long) profiles,
        (unsigned long long) grid_profiles_group_order(gp));
    fprintf(out, "classes %llu (Burnside, %zu conjugacy classes walked; %.2f s of CPU)\n",
        (unsigned long long) classes, conjugacy, plan_s);
    fprintf(out, "classes-sampled %.0f +- %.0f (95%%, %zu profiles, seed %d)\n",
        est.classes, est.half_width, est.samples, GRID_WALK_SEED);
    fprintf(out,
        "# per class: the band search for its orders (one leaf per order); %d classes "
        "drawn with probability orbit/profiles, each searched for %u nodes\n",
        GRID_WALK_CLASSES, GRID_WALK_BUDGET);
    if (C == 3)
        fprintf(out,
            "# and its three-band completions: %u middle-band choices run, each "
            "middle and third band's orders looked up by canonical form (lookups "
            "only: the orders table is the orders phase's), timed in CPU\n",
            GRID_COMPLETION_BUDGET);
    fprintf(out, "sample orbit nodes-estimate nodes-run finished%s\n",
        C == 3 ? " completion-s-per-choice" : "");
    struct grid_profiles_table *tab
        = C == 3 ? grid_profiles_table_new(gp, GRID_PROFILES_ZERO) : NULL;
    if (C == 3 && !tab) {
        fprintf(err, "sudolab count: --grids: out of memory\n");
        return EXIT_STATUS_SKIPPED;
    }
    struct rng r;
    rng_seed(&r, GRID_WALK_SEED);
    double sum = 0, squares = 0, lo = 0, hi = 0, run_s = 0, run_nodes = 0;
    double csum = 0, csquares = 0, clo = 0, chi = 0, choices = 0;
    int unfinished = 0;
    for (int i = 0; i < GRID_WALK_CLASSES; i++) {
        struct grid_profiles_drawn x;
        if (grid_profiles_draw(gp, &r, &x) != 0) {
            grid_profiles_table_free(tab);
            return EXIT_STATUS_SKIPPED;
        }
        const double nodes
            = grid_profiles_orders_nodes_estimate(gp, &x, GRID_WALK_PROBES, &r);
        uint64_t orders = 0;
        bool finished = false;
        t0 = clock_thread_cpu_ns();
        const uint64_t ran
            = grid_profiles_orders_search(gp, &x, GRID_WALK_BUDGET, &orders, &finished);
        run_s += (double) (clock_thread_cpu_ns() - t0) / 1e9;
        run_nodes += (double) ran;
        unfinished += !finished;
        const double y = (finished ? (double) ran : nodes) / (double) x.orbit;
        sum += y;
        squares += y * y;
        const double per = finished ? (double) ran : nodes;
        lo = i == 0 || per < lo ? per : lo;
        hi = i == 0 || per > hi ? per : hi;
        fprintf(out, "%d %llu %.3g %llu %s", i + 1, (unsigned long long) x.orbit, nodes,
            (unsigned long long) ran, finished ? "yes" : "no");
        if (C == 3) {
            struct grid_profiles_completions done;
            t0 = clock_thread_cpu_ns();
            const int rc = grid_profiles_complete(
                gp, tab, x.digits, GRID_COMPLETION_BUDGET, &done);
            const double took = (double) (clock_thread_cpu_ns() - t0) / 1e9;
            if (rc != 0 || done.visited == 0) {
                fprintf(err, "sudolab count: --grids: out of memory\n");
                grid_profiles_table_free(tab);
                return EXIT_STATUS_SKIPPED;
            }
            const double per_choice = took / (double) done.visited;
            choices = (double) done.choices;
            const double class_s = per_choice * choices;
            csum += class_s / (double) x.orbit;
            csquares += class_s / (double) x.orbit * class_s / (double) x.orbit;
            clo = i == 0 || class_s < clo ? class_s : clo;
            chi = i == 0 || class_s > chi ? class_s : chi;
            fprintf(out, " %.3g", per_choice);
        }
        fputc('\n', out);
    }
    const size_t table_classes = tab ? grid_profiles_table_classes(tab) : 0;
    grid_profiles_table_free(tab);
    const double n = GRID_WALK_CLASSES, mean = sum / n;
    const double var = (squares - n * mean * mean) / (n - 1);
    const double total = (double) profiles * mean;
    const double half = 1.96 * (double) profiles * sqrt(var > 0 ? var / n : 0);
    const double rate = run_nodes / (run_s > 1e-6 ? run_s : 1e-6);
    fprintf(out, "rate %.3g nodes per CPU s (%.3g nodes in %.2f s of CPU)\n", rate,
        run_nodes, run_s);
    fprintf(out,
        "nodes-per-class %.3g to %.3g (%.3g to %.3g s of CPU); unfinished %d of %d "
        "within %u nodes (Knuth's estimate stands for those)\n",
        lo, hi, lo / rate, hi / rate, unfinished, GRID_WALK_CLASSES, GRID_WALK_BUDGET);
    fprintf(out, "nodes-total %.3g +- %.3g (95%%)\n", total, half);
    const double orders_cpu = total / rate, orders_half = half / rate;
    fprintf(out, "cpu-orders %.3g s +- %.3g (%.3g CPU years)\n", orders_cpu, orders_half,
        orders_cpu / (365.25 * 86400));
    double cpu = orders_cpu, cpu_half = orders_half;
    if (C == 3) {
        const double cmean = csum / n;
        const double cvar = (csquares - n * cmean * cmean) / (n - 1);
        const double ctotal = (double) profiles * cmean;
        const double chalf = 1.96 * (double) profiles * sqrt(cvar > 0 ? cvar / n : 0);
        fprintf(out,
            "completions: %.3g middle-band choices per class, %.3g to %.3g s of CPU "
            "per class extrapolated from %u each (%zu classes met in the lookups)\n",
            choices, clo, chi, GRID_COMPLETION_BUDGET, table_classes);
        fprintf(out, "cpu-completions %.3g s +- %.3g (%.3g CPU years)\n", ctotal, chalf,
            ctotal / (365.25 * 86400));
        cpu += ctotal;
        cpu_half = sqrt(cpu_half * cpu_half + chalf * chalf);
    }
    fprintf(out, "cpu %.3g s +- %.3g (%.3g CPU years)\n", cpu, cpu_half,
        cpu / (365.25 * 86400));
    /* The orders' shards are slices of ranks, and the classes cluster at low
     * ranks (a representative is the least profile of its orbit), so they
     * average a CPU minute for the heaviest to stay near an hour; the
     * completions' shards are equal shares of every class's middle-band
     * choices: an hour each. */
    const double phase_cpu[2] = { orders_cpu, cpu - orders_cpu };
    const double share[2] = { GRID_SHARD_CPU_S / 60.0, GRID_SHARD_CPU_S };
    unsigned long long shards[2];
    for (int p = 0; p < 2; p++) {
        const double want = ceil(phase_cpu[p] / share[p]);
        shards[p] = want < 1   ? 1
            : want > SHARD_MAX ? SHARD_MAX
                               : (unsigned long long) want;
    }
    fprintf(out,
        "# plan: the orders in %llu shards of %.3g CPU s each on average%s (a slice of "
        "ranks each; the classes cluster at low ranks)\n",
        shards[0], orders_cpu / (double) shards[0],
        C == 3 ? "" : ", the total with them");
    if (C == 3)
        fprintf(out,
            "# then the completions in %llu shards of %.3g CPU s each (equal shares of "
            "the classes' choices)\n",
            shards[1], phase_cpu[1] / (double) shards[1]);
    const unsigned long long N = shards[0], M = shards[1];
    fprintf(out,
        "shard: sudolab count --empty %dx%d --grids --orders --shard K/%llu > "
        "orders-K.txt"
        "   # K = 1 .. %llu\n",
        o->box_rows, o->box_cols, N, N);
    fprintf(out, "merge: sudolab merge orders-*.txt > orders.txt%s\n",
        C == 3 ? "   # the orders table" : "   # the total");
    if (C == 3) {
        fprintf(out,
            "shard: sudolab count --empty %dx%d --grids --orders-table orders.txt "
            "--shard "
            "K/%llu > completions-K.txt   # K = 1 .. %llu\n",
            o->box_rows, o->box_cols, M, M);
        fputs("merge: sudolab merge completions-*.txt > total.txt\n", out);
    }
    if (C == 3)
        fprintf(out,
            "slurm: scripts/slurm/grids-walk.sh %dx%d %llu %llu "
            "results/grids-%dx%d-%dx%d\n",
            o->box_rows, o->box_cols, N, M, R * C, R * C, o->box_rows, o->box_cols);
    else
        fprintf(out,
            "slurm: scripts/slurm/grids-walk.sh %dx%d %llu results/grids-%dx%d-%dx%d\n",
            o->box_rows, o->box_cols, N, R * C, R * C, o->box_rows, o->box_cols);
    fputs("# the walk's shards run on one thread each: more shards, not -j; a shard "
          "cut short (--budget-steps, or killed) is resumed by --ranks as its end "
          "line says\n",
        out);
    return EXIT_STATUS_OK;
}

/* --- the count --- */

/* Returns 0, -1 when memory ran out, 1 after saying why it failed, 2 when
 * Burnside's sum missed classes (named). */
static int count_classes(const struct grid_run_options *o, FILE *out, FILE *err,
    struct pool *pool, struct grid_count *gc, struct grid_lists *l)
{
    grid_count_u128 *completions
        = calloc(grid_count_classes(gc) + 1, sizeof(*completions));
    if (!completions)
        return -1;
    const uint64_t t0 = clock_now_ns();
    run_phase(pool, gc, l->all, l->nall, NULL);
    run_phase(pool, gc, l->owned, l->nowned, completions);
    const double took = seconds_since(t0);
    const grid_count_u128 total = print_rows(out, gc, l, completions, o->partial);
    fprintf(out, "# time %.3f s on %u thread%s\n", took, o->threads,
        o->threads == 1 ? "" : "s");
    free(completions);
    return o->essential ? print_essential(out, err, o, pool, total) : 0;
}

/* The diagonal variant: every first band, no classes (grid_count.h). */
static int run_diagonal(const struct grid_run_options *o, FILE *out, FILE *err)
{
    struct grid_count_diagonal d;
    char why[160], completions[GRID_COUNT_U128_DIGITS], total[GRID_COUNT_U128_DIGITS];
    const uint64_t t0 = clock_now_ns();
    if (grid_count_diagonal(o->box_rows, o->box_cols, &d, why, sizeof(why)) != 0) {
        fprintf(err, "sudolab count: --grids --variant diagonal: %s\n", why);
        return EXIT_STATUS_USAGE;
    }
    const int n = o->box_rows * o->box_cols;
    grid_count_u128_format(d.completions, completions);
    grid_count_u128_format(d.total, total);
    fprintf(out,
        "# complete diagonal grids of %dx%d (%dx%d boxes): the first row 1..%d, every "
        "first\n"
        "# band enumerated, the second band searched from its column sets and "
        "diagonals\n",
        n, n, o->box_rows, o->box_cols, n);
    fprintf(out, "first-bands %llu\ncompleted %llu\ncompletions %s\nrelabellings %llu\n",
        (unsigned long long) d.first_bands, (unsigned long long) d.diagonal_bands,
        completions, (unsigned long long) d.relabellings);
    fprintf(out, "grids %s\n# time %.3f s on 1 thread\n", total, seconds_since(t0));
    return EXIT_STATUS_OK;
}

int grid_run(const struct grid_run_options *o, FILE *out, FILE *err)
{
    if (o->diagonal && o->box_rows == 3 && o->box_cols == 3)
        return grid_x_run(o->threads, o->estimate, GRID_X_SAMPLE, out, err);
    if (o->diagonal)
        return run_diagonal(o, out, err);
    char why[160];
    if (o->essential && o->box_rows * o->box_cols > 9) {
        fprintf(err,
            "sudolab count: --essential: Burnside's sum is counted for 4x4, 6x6, 8x8 "
            "and 9x9\n");
        return EXIT_STATUS_USAGE;
    }
    struct grid_count *gc = grid_count_new(o->box_rows, o->box_cols, why, sizeof(why));
    if (!gc && o->estimate && o->box_rows * o->box_cols == 12) {
        struct grid_profiles *gp
            = grid_profiles_new(o->box_rows, o->box_cols, why, sizeof(why));
        const int rc = gp ? estimate_profile_walk(o, gp, out, err) : EXIT_STATUS_USAGE;
        grid_profiles_free(gp);
        if (gp)
            return rc;
    }
    if (!gc) {
        fprintf(err, "sudolab count: --grids: %s\n", why);
        return EXIT_STATUS_USAGE;
    }
    struct grid_plan_text plan;
    grid_plan_text_of(gc, &plan);
    struct grid_lists l = { NULL, 0, NULL, 0 };
    int rc = make_lists(gc, &o->shard, &l) == 0 ? EXIT_STATUS_OK : EXIT_STATUS_SKIPPED;
    if (rc == EXIT_STATUS_OK && o->partial && !o->estimate)
        grid_partial_header(out, &plan, &o->shard);
    else if (rc == EXIT_STATUS_OK)
        grid_text_header(out, &plan);
    if (rc == EXIT_STATUS_OK && !o->partial && !o->estimate)
        grid_text_columns(out);
    const unsigned threads
        = o->threads > GRID_MAX_THREADS ? GRID_MAX_THREADS : o->threads;
    struct pool *pool = rc == EXIT_STATUS_OK ? pool_create(threads) : NULL;
    if (!pool)
        rc = EXIT_STATUS_SKIPPED;
    if (rc == EXIT_STATUS_OK && o->estimate) {
        if (grid_count_needs_all_orders(gc))
            estimate_three_bands(out, gc, &l, pool, threads);
        else
            estimate_two_bands(out, gc, &l, threads);
    } else if (rc == EXIT_STATUS_OK) {
        const int failed = count_classes(o, out, err, pool, gc, &l);
        rc = failed == 1 ? EXIT_STATUS_USAGE : failed != 0 ? EXIT_STATUS_SKIPPED : rc;
        if (failed < 0)
            fprintf(err, "sudolab count: --grids: out of memory\n");
    } else {
        fprintf(err, "sudolab count: --grids: out of memory\n");
    }
    pool_destroy(pool);
    free(l.owned);
    free(l.all);
    grid_count_free(gc);
    return rc;
}
