#include "bench/bench_run.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench_se.h"
#include "common/clock.h"
#include "common/hash.h"
#include "common/io.h"
#include "common/pool.h"
#include "common/rng.h"
#include "common/symmetry.h"

enum {
    CHUNK = 8, /* puzzles per job: small, so threads end together */
    MAX_DISAGREEMENTS = 20, /* printed in full; the rest are counted */
};

int bench_plan_init(struct bench_plan *plan, const struct bench_options *opt,
    const struct solver **solvers, size_t nsolvers)
{
    memset(plan, 0, sizeof(*plan));
    plan->opt = *opt;
    if (plan->opt.repeat == 0)
        plan->opt.repeat = 1;
    if (plan->opt.threads == 0)
        plan->opt.threads = 1;
    plan->solvers = solvers;
    plan->nsolvers = nsolvers;
    plan->out_fd = -1;
    plan->csv_fd = -1;
    plan->se_columns = opt->se_rate;
    return 0;
}

void bench_plan_free(struct bench_plan *plan)
{
    const size_t ncells = plan->nsolvers * plan->ncorpora;
    for (size_t k = 0; plan->cells && k < ncells; k++)
        free(plan->cells[k]);
    free(plan->cells);
    for (size_t k = 0; plan->passes && k < ncells; k++)
        free(plan->passes[k].sample_ns);
    free(plan->passes);
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        free(plan->corpora[ci].puzzles);
        free(plan->corpora[ci].cells);
        free(plan->corpora[ci].names);
    }
    free(plan->corpora);
    plan->cells = NULL;
    plan->passes = NULL;
    plan->corpora = NULL;
}

static bool corpus_name_taken(const struct bench_plan *plan, const char *name)
{
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        if (strcmp(plan->corpora[ci].name, name) == 0)
            return true;
    }
    return false;
}

int bench_plan_add_corpus(struct bench_plan *plan, const char *path)
{
    struct bench_corpus *grown
        = realloc(plan->corpora, (plan->ncorpora + 1) * sizeof(*plan->corpora));
    if (!grown)
        return -1;
    plan->corpora = grown;
    struct bench_corpus *c = &plan->corpora[plan->ncorpora];
    memset(c, 0, sizeof(*c));
    const char *slash = strrchr(path, '/');
    const char *base = slash && slash[1] ? slash + 1 : path;
    /* A compressed copy keeps the name of its content, so rows of
     * datasets/public/x.xz compare with rows of the plain x. */
    int len = (int) strlen(base);
    if (len > 3
        && (strcmp(base + len - 3, ".xz") == 0 || strcmp(base + len - 3, ".gz") == 0))
        len -= 3;
    snprintf(c->name, sizeof(c->name), "%.*s", len, base);
    for (int k = 2; corpus_name_taken(plan, c->name); k++)
        snprintf(c->name, sizeof(c->name), "%.*s~%d", len < 200 ? len : 200, base, k);
    return (int) plan->ncorpora++;
}

bool bench_parse_expect(const char *text, uint8_t *kind, uint64_t *count)
{
    size_t len = strcspn(text, " \t,;:#\r\n");
    if (len == 7 && strncmp(text, "invalid", 7) == 0) {
        *kind = BENCH_EXPECT_INVALID;
        *count = 0;
        return true;
    }
    const bool at_least = len > 1 && text[len - 1] == '+';
    if (at_least)
        len--;
    if (len == 0 || len > 18)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (uint64_t) (text[i] - '0');
    }
    *kind = at_least ? BENCH_EXPECT_AT_LEAST : BENCH_EXPECT_EXACTLY;
    *count = v;
    return true;
}

/* Stores name in corpus c's pool; returns its bench_puzzle.name, 0 when
 * the pool cannot grow. */
static uint32_t keep_name(struct bench_corpus *c, const char *name)
{
    const size_t need = strlen(name) + 1;
    if (c->names_len + need >= UINT32_MAX)
        return 0;
    if (c->names_cap - c->names_len < need) {
        size_t cap = c->names_cap ? c->names_cap : 1024;
        while (cap - c->names_len < need)
            cap *= 2;
        char *grown = realloc(c->names, cap);
        if (!grown)
            return 0;
        c->names = grown;
        c->names_cap = cap;
    }
    memcpy(c->names + c->names_len, name, need);
    c->names_len += need;
    return (uint32_t) (c->names_len - need + 1);
}

const char *bench_puzzle_name(const struct bench_corpus *c, size_t pi)
{
    const uint32_t at = c->puzzles[pi].name;
    return at ? c->names + at - 1 : "";
}

int bench_plan_add_puzzle(
    struct bench_plan *plan, size_t ci, const struct corpus_item *item, bool ok)
{
    struct bench_corpus *c = &plan->corpora[ci];
    c->entries++;
    shard_fingerprint_add(&c->fingerprint, ok ? &item->puzzle : NULL);
    if ((plan->opt.head && c->entries > plan->opt.head)
        || !shard_owns_entry(&plan->opt.shard, ci, c->entries))
        return 0;
    if (c->n == c->cap) {
        const size_t cap = c->cap ? 2 * c->cap : 64;
        struct bench_puzzle *grown = realloc(c->puzzles, cap * sizeof(*grown));
        if (!grown)
            return -1;
        c->puzzles = grown;
        c->cap = cap;
    }
    const size_t ncells = ok ? item->puzzle.ncells : 0;
    if (c->cells_cap - c->cells_len < ncells) {
        size_t cap = c->cells_cap ? c->cells_cap : 4096;
        while (cap - c->cells_len < ncells)
            cap *= 2;
        uint8_t *grown = realloc(c->cells, cap);
        if (!grown)
            return -1;
        c->cells = grown;
        c->cells_cap = cap;
    }
    struct bench_puzzle *p = &c->puzzles[c->n++];
    memset(p, 0, sizeof(*p));
    p->index = c->entries;
    p->line = item->line;
    p->ok = ok;
    p->cells = c->cells_len;
    if (ok) {
        p->box_rows = item->puzzle.box_rows;
        p->box_cols = item->puzzle.box_cols;
        p->variant = item->puzzle.variant;
        memcpy(c->cells + c->cells_len, item->puzzle.cell, ncells);
        c->cells_len += ncells;
    }
    if (plan->opt.expect && !bench_parse_expect(item->extra, &p->expect_kind, &p->expect))
        p->expect_kind = BENCH_EXPECT_NONE;
    if (ok && bench_se_parse(item->extra, p->se))
        plan->se_columns = true;
    if (item->name[0] != '\0') {
        p->name = keep_name(c, item->name);
        if (!p->name)
            return -1;
        plan->name_column = true;
    }
    return 0;
}

void bench_puzzle_grid(const struct bench_corpus *c, size_t pi, struct grid *g)
{
    const struct bench_puzzle *p = &c->puzzles[pi];
    if (!p->ok
        || grid_init(g, p->box_rows, p->box_cols, (enum grid_variant) p->variant) != 0) {
        memset(g, 0, sizeof(*g));
        return;
    }
    memcpy(g->cell, c->cells + p->cells, g->ncells);
}

/* FNV-1a: ties a puzzle's transformation to its corpus name and index, not to
 * the order of the command line, so a resumed or re-ordered run solves the
 * same isomorphs. */
static uint64_t hash_name(const char *s)
{
    return hash_string(HASH_FNV1A_START, s);
}

static struct bench_cell *cell_at(
    const struct bench_plan *plan, size_t si, size_t ci, size_t pi, unsigned r)
{
    return &plan->cells[si * plan->ncorpora + ci][pi * plan->opt.repeat + r];
}

int bench_plan_finish(struct bench_plan *plan)
{
    if (plan->opt.permute) {
        for (size_t ci = 0; ci < plan->ncorpora; ci++) {
            struct bench_corpus *c = &plan->corpora[ci];
            const uint64_t h = hash_name(c->name);
            for (size_t pi = 0; pi < c->n; pi++) {
                struct bench_puzzle *p = &c->puzzles[pi];
                if (!p->ok)
                    continue;
                struct rng rng;
                rng_seed(&rng, plan->opt.seed ^ h ^ (p->index * 0x9e3779b97f4a7c15u));
                struct grid g, out;
                bench_puzzle_grid(c, pi, &g);
                struct symmetry sym;
                symmetry_random(&sym, &g, &rng);
                symmetry_apply(&sym, &g, &out);
                memcpy(c->cells + p->cells, out.cell, out.ncells);
            }
        }
    }
    const size_t pairs = plan->nsolvers * plan->ncorpora;
    plan->cells = calloc(pairs ? pairs : 1, sizeof(*plan->cells));
    plan->passes = calloc(pairs ? pairs : 1, sizeof(*plan->passes));
    if (!plan->cells || !plan->passes)
        return -1;
    for (size_t si = 0; si < plan->nsolvers; si++) {
        for (size_t ci = 0; ci < plan->ncorpora; ci++) {
            const struct bench_corpus *c = &plan->corpora[ci];
            const size_t k = si * plan->ncorpora + ci;
            plan->cells[k]
                = calloc(c->n ? c->n * plan->opt.repeat : 1, sizeof(**plan->cells));
            if (!plan->cells[k])
                return -1;
            for (size_t pi = 0; pi < c->n; pi++) {
                char why[160];
                struct grid g;
                bench_puzzle_grid(c, pi, &g);
                const bool skip = c->puzzles[pi].ok
                    && !solver_supports(plan->solvers[si], &g, why, sizeof(why));
                /* --seeds: the runs past the first are for incomplete back ends */
                const bool once = plan->opt.seeds > 1
                    && !(plan->solvers[si]->caps & SOLVER_CAP_INCOMPLETE);
                const bool sampled = bench_plan_sampled(plan, si, c->puzzles[pi].index);
                for (unsigned r = 0; r < plan->opt.repeat; r++) {
                    if (skip)
                        cell_at(plan, si, ci, pi, r)->state = BENCH_CELL_UNSUPPORTED;
                    else if (!sampled)
                        cell_at(plan, si, ci, pi, r)->state = BENCH_CELL_UNSAMPLED;
                    else if (once && r > 0)
                        cell_at(plan, si, ci, pi, r)->state = BENCH_CELL_SKIPPED;
                }
            }
        }
    }
    return 0;
}

bool bench_plan_sampled(const struct bench_plan *plan, size_t si, unsigned long index)
{
    return plan->opt.sample == 0 || index <= plan->opt.sample
        || (plan->solvers[si]->caps & SOLVER_CAP_FAST);
}

size_t bench_plan_find_puzzle(
    const struct bench_plan *plan, size_t ci, unsigned long index)
{
    /* entries are kept in input order: bisect on their numbers */
    const struct bench_corpus *c = &plan->corpora[ci];
    size_t lo = 0, hi = c->n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (c->puzzles[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n && c->puzzles[lo].index == index ? lo : SIZE_MAX;
}

struct bench_cell *bench_plan_row_cell(
    struct bench_plan *plan, const struct bench_row *row, size_t *ci_out)
{
    size_t si = 0, ci = 0;
    while (si < plan->nsolvers && strcmp(plan->solvers[si]->name, row->solver) != 0)
        si++;
    while (ci < plan->ncorpora && strcmp(plan->corpora[ci].name, row->corpus) != 0)
        ci++;
    if (si == plan->nsolvers || ci == plan->ncorpora)
        return NULL;
    const size_t pi = bench_plan_find_puzzle(plan, ci, row->index);
    if (pi == SIZE_MAX || row->repeat == 0 || row->repeat > plan->opt.repeat)
        return NULL;
    if (ci_out)
        *ci_out = ci;
    return cell_at(plan, si, ci, pi, row->repeat - 1);
}

int bench_plan_take_name(struct bench_plan *plan, size_t ci, const struct bench_row *row)
{
    if (!row->name_column)
        return 0;
    plan->name_column = true;
    struct bench_corpus *c = &plan->corpora[ci];
    const size_t pi = bench_plan_find_puzzle(plan, ci, row->index);
    if (pi == SIZE_MAX || row->name[0] == '\0' || c->puzzles[pi].name)
        return 0;
    c->puzzles[pi].name = keep_name(c, row->name);
    return c->puzzles[pi].name ? 0 : -1;
}

size_t bench_plan_csv_header(const struct bench_plan *plan, char *buf, size_t len)
{
    return bench_csv_header_seeded(
        buf, len, plan->se_columns, plan->opt.seeds > 1, plan->name_column);
}

struct resume_ctx {
    struct bench_plan *plan;
    long taken;
    bool out_of_memory;
};

void bench_cell_take_row(struct bench_cell *cell, const struct bench_row *row)
{
    cell->state = BENCH_CELL_DONE;
    cell->status = (uint8_t) row->status;
    cell->solutions = row->solutions;
    cell->counters = row->counters;
    cell->no_answer = row->known == 0; /* as the row was written: empty stays empty */
    cell->timed = row->timed;
    cell->time_ns = row->time_ns;
}

static bool resume_row(void *ctx, const struct bench_row *row)
{
    struct resume_ctx *rc = ctx;
    size_t ci = 0;
    struct bench_cell *cell = bench_plan_row_cell(rc->plan, row, &ci);
    if (!cell || cell->state != BENCH_CELL_PENDING)
        return true;
    bench_cell_take_row(cell, row);
    bench_plan_take_se(rc->plan, ci, row);
    if (bench_plan_take_name(rc->plan, ci, row) != 0) {
        rc->out_of_memory = true;
        return false;
    }
    cell->resumed = true;
    rc->taken++;
    return true;
}

long bench_plan_resume(
    struct bench_plan *plan, FILE *f, long *valid_bytes, char *why, size_t whylen)
{
    struct resume_ctx rc = { plan, 0, false };
    if (bench_csv_read(f, resume_row, &rc, valid_bytes, why, whylen) < 0)
        return -1;
    if (rc.out_of_memory) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    return rc.taken;
}

size_t bench_plan_pending(const struct bench_plan *plan)
{
    size_t pending = 0;
    for (size_t si = 0; si < plan->nsolvers; si++) {
        for (size_t ci = 0; ci < plan->ncorpora; ci++) {
            for (size_t pi = 0; pi < plan->corpora[ci].n; pi++) {
                for (unsigned r = 0; r < plan->opt.repeat; r++)
                    pending += bench_cell_pending(plan, si, ci, pi, r);
            }
        }
    }
    return pending;
}

/* ---- execution ---- */

/* Jobs are struct bench_job (bench_run.h): puzzles [start, end), or the
 * whole passes of a back end on a corpus when start == end. */

struct shared {
    struct bench_plan *plan;
    const struct bench_job *jobs;
    struct worker *workers; /* one per worker of the pool */
    pthread_mutex_t lock;
    /* Per (back end, corpus): chunks not finished yet. Its pass job comes
     * right after its chunks in the list and waits on chunks_done for them:
     * the passes check their answers against those cells, and are timed in
     * the same minutes as the per-puzzle runs they are compared with (on a
     * shared machine the load changes within a run). NULL: no passes. */
    size_t *remaining;
    pthread_cond_t chunks_done;
};

struct worker {
    struct shared *sh;
    struct solver_instance **inst; /* one per back end, opened on first use */
    bool *failed; /* solver_open failed */
    size_t warm_si, warm_ci; /* the last (back end, corpus) warmed up */
    bool warm;
    /* a back end that learns from clues: the shape its fresh instance was
     * warmed up on (learner_ready), or -1 */
    long learner_shape;
};

static bool stopping(const struct bench_plan *plan)
{
    return plan->stop && atomic_load(plan->stop);
}

/* The seed of run r of back end si: under --seeds an incomplete back end's
 * run r takes seed + r. */
static uint64_t run_seed(const struct bench_plan *plan, size_t si, unsigned r)
{
    const bool incomplete = plan->solvers[si]->caps & SOLVER_CAP_INCOMPLETE;
    return plan->opt.seed + (incomplete && plan->opt.seeds > 1 ? r : 0);
}

/* The request of run r of back end si: an incomplete back end runs at limit
 * 1. */
static struct solve_request make_request(
    const struct bench_plan *plan, size_t si, unsigned r)
{
    const bool incomplete = plan->solvers[si]->caps & SOLVER_CAP_INCOMPLETE;
    struct solve_request req = { .limit = incomplete ? 1 : plan->opt.limit,
        .budget_steps = plan->opt.budget_steps,
        .seed = run_seed(plan, si, r) };
    if (plan->opt.budget_ms)
        req.deadline_ns = clock_now_ns() + plan->opt.budget_ms * 1000000u;
    return req;
}

/* With the lock held: wipes the progress bar so a message starts on a clean
 * line (the bar is redrawn by the next update). */
static void clear_progress(struct bench_plan *plan)
{
    if (plan->progress_drawn) {
        fputs("\r\033[K", stderr);
        plan->progress_drawn = false;
    }
}

static void say(struct bench_plan *plan, const char *fmt, ...)
{
    clear_progress(plan);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static void draw_progress(struct bench_plan *plan, const char *solver, const char *corpus)
{
    if (!plan->opt.progress || plan->cells_total == 0)
        return;
    const uint64_t now = clock_now_ns();
    if (now - plan->progress_at_ns < 100000000u && plan->cells_done != plan->cells_total)
        return;
    plan->progress_at_ns = now;
    const int width = 30;
    const int filled
        = (int) ((double) width * (double) plan->cells_done / (double) plan->cells_total);
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r\033[K[%s] %zu/%zu  %.20s on %.30s", bar, plan->cells_done,
        plan->cells_total, solver, corpus);
    plan->progress_drawn = true;
}

static struct solver_instance *instance(struct worker *w, size_t si)
{
    if (!w->inst[si] && !w->failed[si]) {
        w->inst[si] = solver_open(w->sh->plan->solvers[si]);
        w->failed[si] = w->inst[si] == NULL;
    }
    return w->inst[si];
}

static bool learns(const struct bench_plan *plan, size_t si)
{
    return plan->solvers[si]->caps & SOLVER_CAP_LEARNS;
}

/* A new instance of back end si, for a back end that learns from clues
 * (SOLVER_CAP_LEARNS): it re-solves a puzzle it has met faster, which a user
 * solving each puzzle once never sees, so none of its timed solves may follow
 * a solve of the same puzzle on the same instance (repeats, warm-up, passes). */
static struct solver_instance *fresh_instance(struct worker *w, size_t si)
{
    solver_close(w->inst[si]);
    w->inst[si] = NULL;
    w->learner_shape = -1;
    return instance(w, si);
}

/* Before a learner's timed solve of g: an untimed solve of the empty grid of
 * g's shape, so that what the back end makes once per shape (sat_assume's
 * CNF) is not timed, while it learns nothing of any puzzle's clues. */
static void learner_ready(
    struct worker *w, struct solver_instance *inst, const struct grid *g)
{
    const long shape = (long) g->box_rows << 16 | (long) g->box_cols << 8 | g->variant;
    struct grid empty;
    if (!inst || shape == w->learner_shape
        || grid_init(&empty, g->box_rows, g->box_cols, g->variant) != 0)
        return;
    struct solve_request req = make_request(w->sh->plan, 0, 0);
    req.limit = 1;
    struct solve_result res;
    solver_run(inst, &empty, &req, &res);
    w->learner_shape = shape;
}

/* Untimed solves of the corpus from puzzle `from` on, for warmup_ms: caches,
 * branch predictors and lazily sized back-end state settle before timing. */
static void warm_up(struct worker *w, size_t si, size_t ci, size_t from)
{
    struct bench_plan *plan = w->sh->plan;
    const struct bench_corpus *c = &plan->corpora[ci];
    struct solver_instance *inst = instance(w, si);
    if (!inst || plan->opt.warmup_ms == 0 || c->n == 0)
        return;
    const uint64_t end = clock_now_ns() + plan->opt.warmup_ms * 1000000u;
    struct solve_result res;
    for (size_t k = 0; k < c->n && !stopping(plan); k++) {
        const size_t pi = (from + k) % c->n;
        const uint8_t state = cell_at(plan, si, ci, pi, 0)->state;
        if (!c->puzzles[pi].ok || state == BENCH_CELL_UNSUPPORTED
            || state == BENCH_CELL_UNSAMPLED)
            continue;
        struct solve_request req = make_request(plan, si, 0);
        if (!req.deadline_ns || req.deadline_ns > end)
            req.deadline_ns = end;
        struct grid g;
        bench_puzzle_grid(c, pi, &g);
        solver_run(inst, &g, &req, &res);
        if (clock_now_ns() >= end)
            break;
    }
}

size_t bench_plan_format_row(const struct bench_plan *plan, size_t si, size_t ci,
    size_t pi, unsigned r, char *line, size_t len)
{
    const struct solver *s = plan->solvers[si];
    const struct bench_cell *cell = cell_at(plan, si, ci, pi, r);
    struct bench_row row;
    memset(&row, 0, sizeof(row));
    snprintf(row.corpus, sizeof(row.corpus), "%s", plan->corpora[ci].name);
    snprintf(row.solver, sizeof(row.solver), "%s", s->name);
    row.index = plan->corpora[ci].puzzles[pi].index;
    row.repeat = r + 1;
    row.status = cell->status;
    row.solutions = cell->solutions;
    row.known = cell->timed && !cell->no_answer ? s->counters : 0;
    row.counters = cell->counters;
    row.timed = cell->timed;
    row.time_ns = cell->time_ns;
    row.se_columns = plan->se_columns;
    memcpy(row.se, plan->corpora[ci].puzzles[pi].se, sizeof(row.se));
    row.seed_column = plan->opt.seeds > 1;
    row.seeded = (s->caps & SOLVER_CAP_INCOMPLETE) != 0;
    row.seed = run_seed(plan, si, r);
    row.name_column = plan->name_column;
    snprintf(row.name, sizeof(row.name), "%s", bench_puzzle_name(&plan->corpora[ci], pi));
    return bench_csv_format_row(&row, line, len);
}

static void record(struct worker *w, size_t si, size_t ci, size_t pi, unsigned r,
    const struct solve_result *res)
{
    struct bench_plan *plan = w->sh->plan;
    const struct solver *s = plan->solvers[si];
    const struct bench_corpus *c = &plan->corpora[ci];
    const struct bench_puzzle *p = &c->puzzles[pi];
    struct bench_cell *cell = cell_at(plan, si, ci, pi, r);
    cell->status = (uint8_t) res->status;
    cell->solutions = res->solutions;
    cell->counters = res->counters;
    cell->no_answer = res->no_answer;
    cell->timed = res->status != SOLVE_STATUS_INVALID && p->ok && !w->failed[si];
    cell->time_ns = cell->timed ? res->time_ns : 0;

    char line[BENCH_CSV_LINE_MAX];
    const size_t len = bench_plan_format_row(plan, si, ci, pi, r, line, sizeof(line));

    pthread_mutex_lock(&w->sh->lock);
    if (res->status == SOLVE_STATUS_ERROR) {
        plan->errors++;
        say(plan, "%s:%lu: %s: %s\n", c->name, p->line, s->name,
            res->error[0] ? res->error : "error");
    } else if (res->status == SOLVE_STATUS_LIMIT && res->error[0]) {
        /* a budget the back end could not keep itself (a process killed) */
        say(plan, "%s:%lu: %s: %s\n", c->name, p->line, s->name, res->error);
    }
    /* one write() per row: a kill leaves whole rows behind */
    if (plan->out_fd >= 0 && (len == 0 || !io_write_all(plan->out_fd, line, len))) {
        plan->write_errors++;
        if (!plan->out_errno)
            plan->out_errno = len == 0 ? EOVERFLOW : errno;
    }
    if (plan->csv_fd >= 0 && len > 0 && !io_write_all(plan->csv_fd, line, len)) {
        plan->write_errors++;
        if (!plan->csv_errno)
            plan->csv_errno = errno;
    }
    if (plan->on_row && len > 0)
        plan->on_row(plan->hook_ctx, si, ci, pi, r, cell, line, len);
    cell->state = BENCH_CELL_DONE;
    plan->cells_done++;
    draw_progress(plan, s->name, c->name);
    pthread_mutex_unlock(&w->sh->lock);
}

/* Repeat r of puzzle pi of the job, if it is still to run. */
static void solve_cell(struct worker *w, const struct bench_job *job,
    struct solver_instance *inst, size_t pi, unsigned r)
{
    struct bench_plan *plan = w->sh->plan;
    const struct bench_corpus *c = &plan->corpora[job->ci];
    if (!bench_cell_pending(plan, job->si, job->ci, pi, r))
        return;
    struct solve_result res;
    memset(&res, 0, sizeof(res));
    if (!c->puzzles[pi].ok) {
        res.status = SOLVE_STATUS_INVALID;
    } else if (!inst) {
        res.status = SOLVE_STATUS_ERROR;
        res.no_answer = true;
        snprintf(res.error, sizeof(res.error), "the back end failed to start");
    } else {
        struct grid g;
        bench_puzzle_grid(c, pi, &g);
        if (learns(plan, job->si))
            learner_ready(w, inst, &g);
        const struct solve_request req = make_request(plan, job->si, r);
        solver_run(inst, &g, &req, &res);
    }
    record(w, job->si, job->ci, pi, r, &res);
}

static void run_chunk(struct worker *w, const struct bench_job *job)
{
    struct bench_plan *plan = w->sh->plan;
    if (learns(plan, job->si)) {
        /* repeats as passes over the chunk, each on a new instance: every
         * puzzle is met once per instance, after the chunk's earlier ones, as
         * when a corpus is solved once */
        for (unsigned r = 0; r < plan->opt.repeat; r++) {
            struct solver_instance *inst = fresh_instance(w, job->si);
            for (size_t pi = job->start; pi < job->end; pi++) {
                if (stopping(plan))
                    return;
                solve_cell(w, job, inst, pi, r);
            }
        }
        return;
    }
    if (!w->warm || w->warm_si != job->si || w->warm_ci != job->ci) {
        warm_up(w, job->si, job->ci, job->start);
        w->warm = true;
        w->warm_si = job->si;
        w->warm_ci = job->ci;
    }
    struct solver_instance *inst = instance(w, job->si);
    for (size_t pi = job->start; pi < job->end; pi++) {
        for (unsigned r = 0; r < plan->opt.repeat; r++) {
            if (stopping(plan))
                return;
            solve_cell(w, job, inst, pi, r);
        }
    }
}

/* The puzzles a pass runs over, or NULL with pass->note saying why not. */
static size_t *pass_puzzles(struct bench_plan *plan, size_t si, size_t ci, size_t *count,
    uint64_t *solutions, struct bench_pass *pass)
{
    const struct bench_corpus *c = &plan->corpora[ci];
    size_t *idx = malloc((c->n ? c->n : 1) * sizeof(*idx));
    if (!idx) {
        snprintf(pass->note, sizeof(pass->note), "out of memory");
        return NULL;
    }
    size_t n = 0;
    *solutions = 0;
    for (size_t pi = 0; pi < c->n; pi++) {
        const struct bench_cell *cell = cell_at(plan, si, ci, pi, 0);
        if (cell->state == BENCH_CELL_UNSUPPORTED || cell->state == BENCH_CELL_UNSAMPLED
            || !c->puzzles[pi].ok || cell->status == SOLVE_STATUS_INVALID)
            continue;
        if (cell->state == BENCH_CELL_PENDING) {
            snprintf(pass->note, sizeof(pass->note), "run incomplete");
            free(idx);
            return NULL;
        }
        if (cell->status == SOLVE_STATUS_LIMIT || cell->status == SOLVE_STATUS_ERROR) {
            snprintf(
                pass->note, sizeof(pass->note), "some puzzles hit the budget or failed");
            free(idx);
            return NULL;
        }
        idx[n++] = pi;
        *solutions += cell->solutions;
    }
    if (n == 0) {
        snprintf(pass->note, sizeof(pass->note), "no puzzles");
        free(idx);
        return NULL;
    }
    *count = n;
    return idx;
}

/* One pass over the puzzles: each made a grid from the corpus's cells (a
 * copy of its ncells cells: a pass of 100,000 puzzles keeps them as 81 bytes
 * each, not a grid of GRID_MAX_CELLS), or under tdoku's protocol the k-th
 * line of text, parsed inside the pass. Returns false when a solve did not
 * finish (budget or error). */
static bool one_pass(struct solver_instance *inst, const struct bench_corpus *c,
    const size_t *idx, size_t n, const char *text, size_t stride,
    const struct solve_request *req, uint64_t *solutions)
{
    struct solve_result res;
    struct grid parsed;
    bool finished = true;
    uint64_t found = 0;
    for (size_t k = 0; k < n; k++) {
        if (text) {
            const struct bench_puzzle *p = &c->puzzles[idx[k]];
            const struct grid_shape shape = { p->box_rows, p->box_cols, p->variant };
            const size_t side = (size_t) p->box_rows * p->box_cols;
            if (grid_parse_token(&parsed, text + k * stride, side * side, &shape, NULL, 0)
                != 0)
                return false;
        } else {
            bench_puzzle_grid(c, idx[k], &parsed);
        }
        solver_solve_unchecked(inst, &parsed, req, &res);
        finished &= res.outcome == SOLVE_DONE;
        found += res.solutions;
    }
    *solutions = found;
    return finished;
}

/* A pass's input, laid out before any timing: text lines under tdoku's
 * protocol (parsing is then part of the timed work); else the corpus's cells
 * are the input. */
struct pass_input {
    const struct bench_corpus *c;
    const size_t *idx; /* the corpus's puzzles that the pass runs over */
    size_t n;
    char *text;
    size_t stride; /* of a line in text */
};

/* Returns false when out of memory. */
static bool lay_out_input(const struct bench_plan *plan, struct pass_input *in)
{
    const struct bench_corpus *c = in->c;
    if (!plan->opt.tdoku_protocol)
        return true;
    for (size_t k = 0; k < in->n; k++) {
        const struct bench_puzzle *p = &c->puzzles[in->idx[k]];
        const size_t side = (size_t) p->box_rows * p->box_cols;
        if (side * side + 1 > in->stride)
            in->stride = side * side + 1;
    }
    in->text = malloc(in->n * in->stride);
    if (!in->text)
        return false;
    for (size_t k = 0; k < in->n; k++) {
        struct grid g;
        bench_puzzle_grid(c, in->idx[k], &g);
        grid_format_line(&g, in->text + k * in->stride);
    }
    return true;
}

static bool input_pass(struct solver_instance *inst, const struct pass_input *in,
    const struct solve_request *req, uint64_t *solutions)
{
    return one_pass(inst, in->c, in->idx, in->n, in->text, in->stride, req, solutions);
}

/* Warm-up pass: untimed, except that a back end not marked fast must
 * finish it within fast_us per puzzle to be timed in passes at all. Returns
 * whether the timed passes are to follow (if not, pass->note says why);
 * *warm_ns is the time it took. */
static bool warm_up_pass(struct worker *w, size_t si, struct solver_instance *inst,
    const struct pass_input *in, uint64_t want, struct solve_request *req,
    uint64_t *warm_ns, struct bench_pass *pass)
{
    struct bench_plan *plan = w->sh->plan;
    const struct solver *s = plan->solvers[si];
    uint64_t got = 0;
    const uint64_t t0 = clock_now_ns();
    if (!(s->caps & SOLVER_CAP_FAST))
        req->deadline_ns = t0 + (uint64_t) (plan->opt.fast_us * 1e3 * (double) in->n);
    else if (plan->opt.budget_ms)
        req->deadline_ns = t0 + plan->opt.budget_ms * 1000000u * in->n;
    const bool finished = input_pass(inst, in, req, &got);
    *warm_ns = clock_now_ns() - t0;
    if (!finished || (req->deadline_ns && t0 + *warm_ns > req->deadline_ns)) {
        snprintf(pass->note, sizeof(pass->note), "not fast: over %.0fus per puzzle",
            plan->opt.fast_us);
        return false;
    }
    if (got != want) {
        pthread_mutex_lock(&w->sh->lock);
        plan->errors++;
        say(plan, "%s: %s: a whole pass found %llu solutions, the per-puzzle runs %llu\n",
            in->c->name, s->name, (unsigned long long) got, (unsigned long long) want);
        pthread_mutex_unlock(&w->sh->lock);
        snprintf(
            pass->note, sizeof(pass->note), "answers differ from the per-puzzle runs");
        return false;
    }
    return true;
}

/* A learner's new instance for a whole pass, ready for the shape of its
 * first puzzle (learner_ready). */
static struct solver_instance *fresh_pass_instance(
    struct worker *w, size_t si, const struct pass_input *in)
{
    struct solver_instance *inst = fresh_instance(w, si);
    struct grid g;
    bench_puzzle_grid(in->c, in->idx[0], &g);
    learner_ready(w, inst, &g);
    return inst;
}

/* Keeps the time of pass number `seen` (counted from 0) in pass->sample_ns:
 * all of them up to BENCH_PASS_SAMPLES, then each with the chance that keeps
 * the sample uniform (reservoir sampling). Called between timed passes. */
static void keep_pass_time(
    struct bench_pass *pass, unsigned seen, uint64_t ns, struct rng *rng)
{
    if (seen == 0) {
        free(pass->sample_ns);
        pass->nsamples = 0;
        pass->sample_ns = malloc(BENCH_PASS_SAMPLES * sizeof(*pass->sample_ns));
    }
    if (!pass->sample_ns)
        return; /* out of memory: throughput without its spread */
    if (seen < BENCH_PASS_SAMPLES) {
        pass->sample_ns[pass->nsamples++] = ns;
        return;
    }
    const uint64_t slot = rng_below(rng, (uint64_t) seen + 1);
    if (slot < BENCH_PASS_SAMPLES)
        pass->sample_ns[slot] = ns;
}

/* Timed passes for at least pass_ms and `repeat` passes: one clock read per
 * pass; a generous deadline only guards against a back end that suddenly
 * stalls. */
static void timed_passes(struct worker *w, size_t si, struct solver_instance *inst,
    const struct pass_input *in, uint64_t want, uint64_t warm_ns,
    struct solve_request *req, struct bench_pass *pass)
{
    struct bench_plan *plan = w->sh->plan;
    uint64_t total = 0, best = UINT64_MAX, got = 0;
    unsigned passes = 0;
    bool ok = true;
    struct rng rng;
    rng_seed(&rng, plan->opt.seed ^ (uint64_t) in->n);
    while (ok && !stopping(plan)
        && (passes < plan->opt.repeat || total < plan->opt.pass_ms * 1000000u)) {
        if (learns(plan, si) && !(inst = fresh_pass_instance(w, si, in))) {
            ok = false;
            break;
        }
        const uint64_t start = clock_now_ns();
        req->deadline_ns = start + 10 * warm_ns + 1000000000u;
        ok = input_pass(inst, in, req, &got);
        const uint64_t ns = clock_now_ns() - start;
        ok &= got == want;
        total += ns;
        best = ns < best ? ns : best;
        keep_pass_time(pass, passes, ns, &rng);
        passes++;
    }
    if (ok && passes > 0) {
        pass->measured = true;
        pass->passes = passes;
        pass->puzzles = in->n;
        pass->total_ns = total;
        pass->best_ns = best;
    } else {
        snprintf(pass->note, sizeof(pass->note),
            ok ? "interrupted" : "a timed pass did not finish or differed");
    }
}

/* Whole-pass throughput of back end si on corpus ci, after its per-puzzle
 * runs: the same answers, timed a pass at a time. */
static void run_passes(struct worker *w, size_t si, size_t ci)
{
    struct bench_plan *plan = w->sh->plan;
    struct bench_pass *pass = &plan->passes[si * plan->ncorpora + ci];
    if (plan->solvers[si]->caps & SOLVER_CAP_INCOMPLETE) {
        snprintf(pass->note, sizeof(pass->note), "incomplete: its runs are the measure");
        return;
    }
    struct pass_input in = { .c = &plan->corpora[ci] };
    uint64_t want = 0;
    size_t *idx = pass_puzzles(plan, si, ci, &in.n, &want, pass);
    in.idx = idx;
    struct solver_instance *inst
        = idx && learns(plan, si) ? fresh_pass_instance(w, si, &in) : instance(w, si);
    if (!idx || !inst) {
        if (!inst)
            snprintf(pass->note, sizeof(pass->note), "the back end failed to start");
        free(idx);
        return;
    }
    if (!lay_out_input(plan, &in)) {
        snprintf(pass->note, sizeof(pass->note), "out of memory");
        free(idx);
        return;
    }
    struct solve_request req
        = { .limit = plan->opt.limit, .budget_steps = plan->opt.budget_steps };
    uint64_t warm_ns = 0;
    if (warm_up_pass(w, si, inst, &in, want, &req, &warm_ns, pass))
        timed_passes(w, si, inst, &in, want, warm_ns, &req, pass);
    free(in.text);
    free(idx);
}

/* Job k of the list on worker `t`; false once the run is interrupted. */
static bool run_listed_job(void *ctx, unsigned t, size_t k)
{
    struct shared *sh = ctx;
    if (stopping(sh->plan))
        return false;
    struct worker *w = &sh->workers[t];
    const struct bench_job *job = &sh->jobs[k];
    const size_t pair = (size_t) job->si * sh->plan->ncorpora + job->ci;
    if (job->start == job->end) {
        pthread_mutex_lock(&sh->lock);
        while (sh->remaining && sh->remaining[pair] > 0)
            pthread_cond_wait(&sh->chunks_done, &sh->lock);
        pthread_mutex_unlock(&sh->lock);
        run_passes(w, job->si, job->ci);
    } else {
        run_chunk(w, job);
        if (sh->remaining) {
            pthread_mutex_lock(&sh->lock);
            if (--sh->remaining[pair] == 0)
                pthread_cond_broadcast(&sh->chunks_done);
            pthread_mutex_unlock(&sh->lock);
        }
    }
    return true;
}

/* Jobs from the plan's next_job hook (the MPI runner's) until it has none. */
static void run_hooked_jobs(void *ctx, unsigned t)
{
    struct shared *sh = ctx;
    struct bench_job job;
    while (!stopping(sh->plan) && sh->plan->next_job(sh->plan->hook_ctx, &job))
        run_chunk(&sh->workers[t], &job);
}

/* Closed by the thread that opened them: libraries such as GLPK keep
 * per-thread state that another thread must not free. */
static void close_instances(void *ctx, unsigned t)
{
    struct shared *sh = ctx;
    struct worker *w = &sh->workers[t];
    for (size_t si = 0; si < sh->plan->nsolvers; si++) {
        solver_close(w->inst[si]);
        w->inst[si] = NULL;
    }
}

/* Runs jobs on the plan's threads (the calling thread is one of them). */
static int run_jobs(struct bench_plan *plan, const struct bench_job *jobs, size_t njobs,
    size_t *remaining)
{
    struct shared sh = { .plan = plan, .jobs = jobs, .remaining = remaining };
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.chunks_done, NULL);
    const unsigned nthreads = plan->opt.threads;
    struct worker *workers = calloc(nthreads, sizeof(*workers));
    sh.workers = workers;
    int rc = workers ? 0 : -1;
    for (unsigned t = 0; rc == 0 && t < nthreads; t++) {
        workers[t].sh = &sh;
        workers[t].inst = calloc(plan->nsolvers ? plan->nsolvers : 1, sizeof(void *));
        workers[t].failed = calloc(plan->nsolvers ? plan->nsolvers : 1, sizeof(bool));
        if (!workers[t].inst || !workers[t].failed)
            rc = -1;
    }
    /* fewer threads than asked: the ones running do the work */
    struct pool *pool = rc == 0 ? pool_create(nthreads) : NULL;
    if (pool) {
        if (plan->next_job)
            pool_run(pool, run_hooked_jobs, &sh);
        else
            pool_for_each(pool, njobs, run_listed_job, &sh);
        pool_run(pool, close_instances, &sh);
        pool_destroy(pool);
    } else {
        rc = -1;
    }
    for (unsigned t = 0; workers && t < nthreads; t++) {
        free(workers[t].inst);
        free(workers[t].failed);
    }
    pthread_mutex_lock(&sh.lock);
    clear_progress(plan);
    pthread_mutex_unlock(&sh.lock);
    pthread_mutex_destroy(&sh.lock);
    pthread_cond_destroy(&sh.chunks_done);
    free(workers);
    return rc;
}

static bool push_job(
    struct bench_job **jobs, size_t *njobs, size_t *cap, struct bench_job job)
{
    if (*njobs == *cap) {
        struct bench_job *grown = realloc(*jobs, 2 * *cap * sizeof(**jobs));
        if (!grown)
            return false;
        *jobs = grown;
        *cap *= 2;
    }
    (*jobs)[(*njobs)++] = job;
    return true;
}

int bench_plan_run(struct bench_plan *plan)
{
    size_t njobs = 0, cap = 64;
    struct bench_job *jobs = malloc(cap * sizeof(*jobs));
    if (!jobs)
        return -1;
    plan->cells_total = bench_plan_pending(plan);
    plan->cells_done = 0;
    if (plan->next_job) {
        /* the chunks come from elsewhere, and so do the passes */
        free(jobs);
        return run_jobs(plan, NULL, 0, NULL);
    }
    /* corpus-major, then back end: the two threads share a warm corpus; each
     * back end's pass job follows its chunks of the corpus */
    const size_t pairs = plan->nsolvers * plan->ncorpora;
    size_t *remaining = calloc(pairs ? pairs : 1, sizeof(*remaining));
    if (!remaining) {
        free(jobs);
        return -1;
    }
    bool ok = true;
    for (size_t ci = 0; ci < plan->ncorpora && ok; ci++) {
        for (size_t si = 0; si < plan->nsolvers && ok; si++) {
            const size_t n = plan->corpora[ci].n;
            for (size_t start = 0; start < n && ok; start += CHUNK) {
                const size_t end = start + CHUNK < n ? start + CHUNK : n;
                bool pending = false;
                for (size_t pi = start; pi < end && !pending; pi++) {
                    for (unsigned r = 0; r < plan->opt.repeat && !pending; r++)
                        pending = bench_cell_pending(plan, si, ci, pi, r);
                }
                if (!pending)
                    continue;
                ok = push_job(&jobs, &njobs, &cap,
                    (struct bench_job) {
                        (uint32_t) si, (uint32_t) ci, (uint32_t) start, (uint32_t) end });
                remaining[si * plan->ncorpora + ci]++;
            }
            /* a pass job is an empty range */
            if (ok && plan->opt.pass_ms > 0)
                ok = push_job(&jobs, &njobs, &cap,
                    (struct bench_job) { (uint32_t) si, (uint32_t) ci, 0, 0 });
        }
    }
    if (!ok) {
        free(jobs);
        free(remaining);
        return -1;
    }
    const int rc = run_jobs(plan, jobs, njobs, remaining);
    free(jobs);
    free(remaining);
    return rc;
}

/* ---- cross-check ---- */

static bool comparable(const struct bench_cell *cell)
{
    return cell->state == BENCH_CELL_DONE && cell->status != SOLVE_STATUS_LIMIT
        && cell->status != SOLVE_STATUS_ERROR;
}

static bool meets_expectation(const struct bench_plan *plan, const struct bench_puzzle *p,
    const struct bench_cell *cell)
{
    const uint64_t limit = plan->opt.limit;
    const uint64_t want = limit && p->expect > limit ? limit : p->expect;
    switch (p->expect_kind) {
    case BENCH_EXPECT_EXACTLY:
        return cell->status != SOLVE_STATUS_INVALID && cell->solutions == want;
    case BENCH_EXPECT_AT_LEAST:
        return cell->status != SOLVE_STATUS_INVALID && cell->solutions >= want;
    case BENCH_EXPECT_INVALID:
        return cell->status == SOLVE_STATUS_INVALID;
    default:
        return true;
    }
}

static void print_disagreement(
    const struct bench_plan *plan, size_t ci, size_t pi, FILE *out)
{
    const struct bench_corpus *c = &plan->corpora[ci];
    const struct bench_puzzle *p = &c->puzzles[pi];
    char line[GRID_MAX_CELLS + 1] = "(did not parse)";
    if (p->ok) {
        struct grid g;
        bench_puzzle_grid(c, pi, &g);
        grid_format_line(&g, line);
    }
    fprintf(out, "DISAGREEMENT %s:%lu (entry %lu)%s: %s\n", c->name, p->line, p->index,
        plan->opt.permute ? " permuted" : "", line);
    if (p->expect_kind != BENCH_EXPECT_NONE) {
        if (p->expect_kind == BENCH_EXPECT_INVALID)
            fprintf(out, "  expected: invalid\n");
        else
            fprintf(out, "  expected: %llu%s solutions\n", (unsigned long long) p->expect,
                p->expect_kind == BENCH_EXPECT_AT_LEAST ? "+" : "");
    }
    for (size_t si = 0; si < plan->nsolvers; si++) {
        for (unsigned r = 0; r < plan->opt.repeat; r++) {
            const struct bench_cell *cell = cell_at(plan, si, ci, pi, r);
            if (cell->state != BENCH_CELL_DONE)
                continue;
            fprintf(out, "  %s", plan->solvers[si]->name);
            if (plan->opt.repeat > 1)
                fprintf(out, " (repeat %u)", r + 1);
            fprintf(out, ": %llu solutions, %s\n", (unsigned long long) cell->solutions,
                solve_status_name((enum solve_status) cell->status));
        }
    }
}

unsigned long bench_plan_crosscheck(const struct bench_plan *plan, FILE *out)
{
    unsigned long bad = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        const struct bench_corpus *c = &plan->corpora[ci];
        for (size_t pi = 0; pi < c->n; pi++) {
            const struct bench_cell *ref = NULL;
            bool differ = false;
            for (size_t si = 0; si < plan->nsolvers; si++) {
                /* an incomplete back end counts nothing; its solutions are
                   verified by solver_run */
                if (plan->solvers[si]->caps & SOLVER_CAP_INCOMPLETE)
                    continue;
                for (unsigned r = 0; r < plan->opt.repeat; r++) {
                    const struct bench_cell *cell = cell_at(plan, si, ci, pi, r);
                    if (!comparable(cell))
                        continue;
                    if (!meets_expectation(plan, &c->puzzles[pi], cell))
                        differ = true;
                    if (!ref)
                        ref = cell;
                    else if (cell->solutions != ref->solutions
                        || (cell->status == SOLVE_STATUS_INVALID)
                            != (ref->status == SOLVE_STATUS_INVALID))
                        differ = true;
                }
            }
            if (!differ)
                continue;
            if (++bad <= MAX_DISAGREEMENTS)
                print_disagreement(plan, ci, pi, out);
        }
    }
    if (bad > MAX_DISAGREEMENTS)
        fprintf(out, "... and %lu more disagreements\n", bad - MAX_DISAGREEMENTS);
    return bad;
}
