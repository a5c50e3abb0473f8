/* count's split path: count -j N and count --shard K/N (dist/shard_count.h, puzzle/split.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bench/solve_row.h"
#include "bench/bench_env.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "common/shard.h"
#include "dist/shard_count.h"
#include "puzzle/split.h"
#include "solvers/registry.h"

/* ---- the count command's split path ---- */

enum {
    BATCH_ENTRIES = 1024,
    BATCH_BYTES = 16 << 20, /* subproblem values held before a batch is solved */
    MAX_THREADS = 256,
};

struct count_entry {
    unsigned long index, line;
    const char *source; /* "<arg>" etc., or a file name owned by the walk */
    char source_copy[128];
    bool ok, invalid, unsupported;
    char why[CORPUS_WHY_MAX];
    struct grid puzzle;
    struct shard_split split;
    uint64_t base; /* number of its subproblem 0 in the run */
    struct shard_tally tally;
};

struct count_item {
    uint32_t entry;
    uint32_t sub;
};

struct count_run {
    const struct cli_common *c;
    const struct shard_count_options *o;
    struct solver_instance *inst[MAX_THREADS];
    struct count_entry *entries;
    size_t nentries;
    size_t batch_bytes;
    uint64_t next_base; /* subproblems numbered so far */
    struct count_item *items;
    size_t nitems, items_cap;
    size_t next_item;
    pthread_mutex_t lock;
    unsigned long problems, failures;
    bool oom;
};

struct count_thread {
    struct count_run *run;
    unsigned t;
};

static void solve_item(struct count_run *run, unsigned t, const struct count_item *it)
{
    struct count_entry *e = &run->entries[it->entry];
    struct grid sub;
    shard_split_apply(&e->split, &e->puzzle, it->sub, &sub);
    struct solve_request req = cli_request(run->c);
    struct solve_result res;
    solver_run(run->inst[t], &sub, &req, &res);
    pthread_mutex_lock(&run->lock);
    shard_tally_add(&e->tally, it->sub, &res);
    pthread_mutex_unlock(&run->lock);
}

/* Thread 0 is the calling thread and uses the instance opened once for the
 * run; the others live for one batch and open their own, because a back end
 * may keep per-thread library state (GLPK's environment) that must be
 * created, used and freed by one thread. A thread whose back end fails to
 * open leaves the batch to the others. */
static void *count_worker(void *arg)
{
    struct count_thread *ct = arg;
    struct count_run *run = ct->run;
    if (ct->t > 0 && !(run->inst[ct->t] = solver_open(run->c->solver)))
        return NULL;
    for (;;) {
        pthread_mutex_lock(&run->lock);
        const size_t k = run->next_item++;
        pthread_mutex_unlock(&run->lock);
        if (k >= run->nitems)
            break;
        solve_item(run, ct->t, &run->items[k]);
    }
    if (ct->t > 0) {
        solver_close(run->inst[ct->t]);
        run->inst[ct->t] = NULL;
    }
    return NULL;
}

static void print_partial_header(void)
{
    fputs("index,puzzle,subproblems,solved,outcome,solutions", stdout);
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++)
        printf(",%s", solver_counter_names[i]);
    puts(",time_ns,first_sub,solution");
}

static void print_partial_row(const struct count_run *run, const struct count_entry *e)
{
    const struct solver *s = run->c->solver;
    char line[GRID_MAX_CELLS + 1] = "";
    if (e->ok)
        grid_format_line(&e->puzzle, line);
    const char *outcome = !e->ok || e->invalid ? "invalid"
        : e->unsupported || e->tally.error     ? "error"
        : e->tally.budget                      ? "limit"
                                               : "done";
    printf("%lu,%s,%zu,%llu,%s,%llu", e->index, line,
        e->ok && !e->invalid && !e->unsupported ? e->split.count : (size_t) 0,
        (unsigned long long) e->tally.solved, outcome,
        (unsigned long long) e->tally.solutions);
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        putchar(',');
        solve_row_counter(stdout, s, &e->tally.counters, i, true);
    }
    char first[GRID_MAX_CELLS + 1] = "";
    if (e->tally.have_first)
        grid_format_line(&e->tally.first, first);
    printf(",%llu,", (unsigned long long) e->tally.time_ns);
    if (e->tally.have_first)
        printf("%llu", (unsigned long long) e->tally.first_sub);
    printf(",%s\n", first);
}

static void print_entry(struct count_run *run, struct count_entry *e)
{
    struct solve_result res;
    if (!e->ok || e->invalid) {
        memset(&res, 0, sizeof(res));
        res.status = SOLVE_STATUS_INVALID;
        snprintf(
            res.error, sizeof(res.error), "%.*s", (int) sizeof(res.error) - 1, e->why);
    } else if (e->unsupported) {
        memset(&res, 0, sizeof(res));
        res.status = SOLVE_STATUS_ERROR;
        snprintf(
            res.error, sizeof(res.error), "%.*s", (int) sizeof(res.error) - 1, e->why);
    } else {
        shard_tally_result(&e->tally, run->c->limit, &res);
    }
    if (e->ok
        && (res.status == SOLVE_STATUS_INVALID || res.status == SOLVE_STATUS_ERROR)) {
        fprintf(stderr, "%s:%lu: %s\n", e->source, e->line, res.error);
        run->failures++;
    }
    if (run->o->partial)
        print_partial_row(run, e);
    else
        {
            const struct solve_row_style style = { run->c->solver, true, run->c->csv, false };
            solve_row_print(stdout, &style, e->index, &e->puzzle, &res);
        }
}

/* Solves the owned subproblems of the batch, prints its rows, empties it. */
static int flush_batch(struct count_run *run)
{
    run->nitems = 0;
    for (size_t ei = 0; ei < run->nentries; ei++) {
        const struct count_entry *e = &run->entries[ei];
        if (!e->ok || e->invalid || e->unsupported)
            continue;
        for (size_t i = 0; i < e->split.count; i++) {
            if (!shard_owns(&run->o->shard, e->base + i))
                continue;
            if (run->nitems == run->items_cap) {
                const size_t cap = run->items_cap ? 2 * run->items_cap : 1024;
                struct count_item *grown = realloc(run->items, cap * sizeof(*grown));
                if (!grown)
                    return -1;
                run->items = grown;
                run->items_cap = cap;
            }
            run->items[run->nitems++]
                = (struct count_item) { (uint32_t) ei, (uint32_t) i };
        }
    }
    run->next_item = 0;
    const unsigned nthreads
        = run->o->threads < run->nitems ? run->o->threads : (unsigned) run->nitems;
    struct count_thread ct[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < nthreads; t++) {
        ct[t] = (struct count_thread) { run, t };
        if (pthread_create(&th[t], NULL, count_worker, &ct[t]) != 0)
            break;
        started = t;
    }
    ct[0] = (struct count_thread) { run, 0 };
    count_worker(&ct[0]);
    for (unsigned t = 1; t <= started; t++)
        pthread_join(th[t], NULL);
    for (size_t ei = 0; ei < run->nentries; ei++)
        print_entry(run, &run->entries[ei]);
    fflush(stdout);
    run->nentries = 0;
    run->batch_bytes = 0;
    return 0;
}

static bool count_entry_cb(void *ctx, const struct input_entry *ce)
{
    struct count_run *run = ctx;
    struct count_entry *e = &run->entries[run->nentries];
    struct shard_split keep = e->split; /* the buffer is reused */
    memset(e, 0, sizeof(*e));
    e->split = keep;
    e->split.count = 0;
    e->index = ce->index;
    e->line = ce->line;
    snprintf(e->source_copy, sizeof(e->source_copy), "%s", ce->source);
    e->source = e->source_copy;
    e->ok = ce->ok;
    if (!ce->ok) {
        snprintf(e->why, sizeof(e->why), "%s", ce->item->why);
    } else {
        e->puzzle = ce->item->puzzle;
        if (!solver_supports(run->c->solver, &e->puzzle, e->why, sizeof(e->why))) {
            e->unsupported = true;
        } else if (grid_find_conflict(&e->puzzle, e->why, sizeof(e->why))) {
            e->invalid = true;
        } else {
            if (shard_split_make(&e->split, &e->puzzle, run->o->split) != 0) {
                run->oom = true;
                return false;
            }
            e->base = run->next_base;
            run->next_base += e->split.count;
            run->batch_bytes += e->split.count * (size_t) e->split.depth;
        }
    }
    run->nentries++;
    if (run->nentries == BATCH_ENTRIES || run->batch_bytes >= BATCH_BYTES) {
        if (flush_batch(run) != 0) {
            run->oom = true;
            return false;
        }
    }
    return true;
}

void shard_count_options_text(const struct cli_common *c,
    const struct shard_count_options *o, char *out, size_t len)
{
    char size[16] = "auto";
    if (c->corpus.shape.box_rows)
        snprintf(size, sizeof(size), "%dx%d", c->corpus.shape.box_rows,
            c->corpus.shape.box_cols);
    static const char *const formats[] = { "auto", "lines", "grids" };
    snprintf(out, len,
        "solver=%s limit=%llu budget_steps=%llu budget_ms=%llu split=%zu size=%s "
        "variant=%s format=%s revision=%s",
        c->solver->name, (unsigned long long) c->limit,
        (unsigned long long) c->budget_steps, (unsigned long long) c->budget_ms, o->split,
        size, c->corpus.shape.variant == GRID_DIAGONAL ? "diagonal" : "standard",
        formats[c->corpus.format], bench_env_revision());
}

int shard_count_run(const struct cli_common *c, const struct shard_count_options *o,
    int argc, char **argv)
{
    struct count_run run;
    memset(&run, 0, sizeof(run));
    run.c = c;
    run.o = o;
    if (o->threads < 1 || o->threads > MAX_THREADS || o->split < 1) {
        fprintf(stderr, "sudolab count: -j 1..%d and --split 1 or more expected\n",
            MAX_THREADS);
        return CLI_USAGE;
    }
    run.entries = calloc(BATCH_ENTRIES, sizeof(*run.entries));
    if (!run.entries) {
        fprintf(stderr, "sudolab count: out of memory\n");
        return CLI_SKIPPED;
    }
    int status = CLI_OK;
    run.inst[0] = solver_open(c->solver);
    if (!run.inst[0]) {
        fprintf(stderr, "sudolab: solver %s failed to start\n", c->solver->name);
        status = CLI_SKIPPED;
    }
    if (status == CLI_OK) {
        pthread_mutex_init(&run.lock, NULL);
        if (o->partial) {
            char opts[512];
            shard_count_options_text(c, o, opts, sizeof(opts));
            printf(
                "%s shard=%u/%u %s\n", SHARD_COUNT_MAGIC, o->shard.k, o->shard.n, opts);
            print_partial_header();
        } else if (c->csv) {
            solve_row_header(stdout);
        }
        run.problems = cli_walk(c, argc, argv, count_entry_cb, &run);
        if (!run.oom && run.nentries > 0 && flush_batch(&run) != 0)
            run.oom = true;
        pthread_mutex_destroy(&run.lock);
        if (run.oom) {
            fprintf(stderr, "sudolab count: out of memory\n");
            status = CLI_SKIPPED;
        } else if (run.problems || run.failures) {
            status = CLI_SKIPPED;
        }
    }
    solver_close(run.inst[0]);
    for (size_t i = 0; i < BATCH_ENTRIES; i++)
        shard_split_free(&run.entries[i].split);
    free(run.entries);
    free(run.items);
    return status;
}
