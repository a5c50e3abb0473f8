/* count's split path as data (scaleout/count_range.h). */
#include "scaleout/count_range.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/pool.h"
#include "solvers/registry.h"

enum {
    BATCH_ENTRIES = 1024,
    BATCH_BYTES = 16 << 20, /* subproblem values held before a batch is solved */
};

struct count_entry {
    struct count_row row;
    struct grid puzzle;
    struct shard_split split;
    uint64_t base; /* number of its subproblem 0 in the run */
};

struct count_item {
    uint32_t entry;
    uint32_t sub;
};

struct count_run {
    const struct count_options *o;
    const struct shard *shard;
    count_sink_fn *sink;
    void *ctx;
    struct pool *pool;
    struct solver_instance *inst[COUNT_MAX_THREADS];
    struct count_entry *entries;
    size_t nentries;
    size_t batch_bytes;
    uint64_t next_base; /* subproblems numbered so far */
    struct count_item *items;
    size_t nitems, items_cap;
    size_t next_item;
    unsigned batch_workers; /* the workers a batch uses: no more than its items */
    pthread_mutex_t lock;
    bool oom, stopped;
};

static void solve_item(struct count_run *run, unsigned t, const struct count_item *it)
{
    const struct count_options *o = run->o;
    struct count_entry *e = &run->entries[it->entry];
    struct grid sub;
    shard_split_apply(&e->split, &e->puzzle, it->sub, &sub);
    struct solve_request req = { .limit = o->limit, .budget_steps = o->budget_steps };
    if (o->budget_ms)
        req.deadline_ns = clock_now_ns() + o->budget_ms * 1000000u;
    struct solve_result res;
    solver_run(run->inst[t], &sub, &req, &res);
    pthread_mutex_lock(&run->lock);
    shard_tally_add(&e->row.tally, it->sub, &res);
    pthread_mutex_unlock(&run->lock);
}

/* Worker 0 is the calling thread and uses the instance opened once for the
 * run; the others open their own for one batch on their own thread, because
 * a back end may keep per-thread library state (GLPK's environment) that
 * must be created, used and freed by one thread. A worker whose back end
 * fails to open leaves the batch to the others. */
static void count_worker(void *ctx, unsigned t)
{
    struct count_run *run = ctx;
    if (t >= run->batch_workers)
        return;
    if (t > 0 && !(run->inst[t] = solver_open(run->o->solver)))
        return;
    for (;;) {
        pthread_mutex_lock(&run->lock);
        const size_t k = run->next_item++;
        pthread_mutex_unlock(&run->lock);
        if (k >= run->nitems)
            break;
        solve_item(run, t, &run->items[k]);
    }
    if (t > 0) {
        solver_close(run->inst[t]);
        run->inst[t] = NULL;
    }
}

/* The batch's subproblems that the shard owns, as work items. */
static int collect_items(struct count_run *run)
{
    run->nitems = 0;
    for (size_t ei = 0; ei < run->nentries; ei++) {
        const struct count_entry *e = &run->entries[ei];
        if (e->row.state != COUNT_SOLVED)
            continue;
        for (size_t i = 0; i < e->split.count; i++) {
            if (!shard_owns(run->shard, e->base + i))
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
    return 0;
}

static void solve_items(struct count_run *run)
{
    run->next_item = 0;
    run->batch_workers
        = run->o->threads < run->nitems ? run->o->threads : (unsigned) run->nitems;
    pool_run(run->pool, count_worker, run);
}

/* Solves the owned subproblems of the batch, hands its rows on, empties it. */
static int flush_batch(struct count_run *run)
{
    if (collect_items(run) != 0) {
        run->oom = true;
        return -1;
    }
    solve_items(run);
    for (size_t ei = 0; ei < run->nentries; ei++) {
        if (!run->sink(run->ctx, &run->entries[ei].row)) {
            run->stopped = true;
            return -1;
        }
    }
    run->nentries = 0;
    run->batch_bytes = 0;
    return 0;
}

/* Fills in a fresh row for an entry; splits a puzzle that can be counted. */
static int take_entry(
    struct count_run *run, struct count_entry *e, const struct input_entry *ie)
{
    struct count_row *row = &e->row;
    const struct shard_split keep = e->split; /* the buffer is reused */
    memset(e, 0, sizeof(*e));
    e->split = keep;
    e->split.count = 0;
    row->index = ie->index;
    row->line = ie->line;
    snprintf(row->source, sizeof(row->source), "%s", ie->source);
    snprintf(row->name, sizeof(row->name), "%s", ie->item->name);
    if (!ie->ok) {
        row->state = COUNT_UNPARSABLE;
        snprintf(row->why, sizeof(row->why), "%s", ie->item->why);
        return 0;
    }
    e->puzzle = ie->item->puzzle;
    grid_format_line(&e->puzzle, row->puzzle);
    if (!solver_supports(run->o->solver, &e->puzzle, row->why, sizeof(row->why))) {
        row->state = COUNT_UNSUPPORTED;
    } else if (grid_find_conflict(&e->puzzle, row->why, sizeof(row->why))) {
        row->state = COUNT_INVALID;
    } else {
        if (shard_split_make(&e->split, &e->puzzle, run->o->split) != 0)
            return -1;
        row->subproblems = e->split.count;
        e->base = run->next_base;
        run->next_base += e->split.count;
        run->batch_bytes += e->split.count * (size_t) e->split.depth;
    }
    return 0;
}

static bool count_entry_cb(void *ctx, const struct input_entry *ie)
{
    struct count_run *run = ctx;
    if (take_entry(run, &run->entries[run->nentries], ie) != 0) {
        run->oom = true;
        return false;
    }
    run->nentries++;
    if (run->nentries == BATCH_ENTRIES || run->batch_bytes >= BATCH_BYTES)
        return flush_batch(run) == 0;
    return true;
}

static long walk_and_count(struct count_run *run, int argc, char **argv)
{
    pthread_mutex_init(&run->lock, NULL);
    const unsigned long problems
        = input_walk(&run->o->input, argc, argv, count_entry_cb, run);
    if (!run->oom && !run->stopped && run->nentries > 0)
        flush_batch(run);
    pthread_mutex_destroy(&run->lock);
    if (run->oom)
        fprintf(run->o->input.err, "sudolab count: out of memory\n");
    return run->oom || run->stopped ? -1 : (long) problems;
}

long count_range(const struct count_options *o, const struct shard *shard, int argc,
    char **argv, count_sink_fn *sink, void *ctx)
{
    FILE *err = o->input.err;
    if (o->threads < 1 || o->threads > COUNT_MAX_THREADS || o->split < 1) {
        fprintf(err, "sudolab count: -j 1..%d and --split 1 or more expected\n",
            COUNT_MAX_THREADS);
        return -1;
    }
    struct count_run run;
    memset(&run, 0, sizeof(run));
    run.o = o;
    run.shard = shard;
    run.sink = sink;
    run.ctx = ctx;
    run.entries = calloc(BATCH_ENTRIES, sizeof(*run.entries));
    if (!run.entries) {
        fprintf(err, "sudolab count: out of memory\n");
        return -1;
    }
    long rc = -1;
    run.inst[0] = solver_open(o->solver);
    run.pool = run.inst[0] ? pool_create(o->threads) : NULL;
    if (!run.inst[0])
        fprintf(err, "sudolab: solver %s failed to start\n", o->solver->name);
    else if (!run.pool)
        fprintf(err, "sudolab count: out of memory\n");
    else
        rc = walk_and_count(&run, argc, argv);
    pool_destroy(run.pool);
    solver_close(run.inst[0]);
    for (size_t i = 0; i < BATCH_ENTRIES; i++)
        shard_split_free(&run.entries[i].split);
    free(run.entries);
    free(run.items);
    return rc;
}

void count_row_result(
    const struct count_row *row, uint64_t limit, struct solve_result *out)
{
    if (row->state == COUNT_SOLVED) {
        shard_tally_result(&row->tally, limit, out);
        return;
    }
    memset(out, 0, sizeof(*out));
    out->status
        = row->state == COUNT_UNSUPPORTED ? SOLVE_STATUS_ERROR : SOLVE_STATUS_INVALID;
    snprintf(
        out->error, sizeof(out->error), "%.*s", (int) sizeof(out->error) - 1, row->why);
}
