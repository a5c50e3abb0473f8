/* sudolab-mpi's bench (scaleout/mpi_runner.h): every rank parses the same command
 * line and loads the same corpora (files on a shared file system); the chunks
 * of the single run (a back end, a corpus, 8 consecutive puzzles) are handed
 * out in the single run's order, and the other ranks send each result back as
 * its cell and runs.csv line. Rank 0 then times the whole passes alone,
 * cross-checks and summarises as bench does. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_csv.h"
#include "common/hash.h"
#include "common/io.h"
#include "scaleout/mpi_engine.h"
#include "scaleout/mpi_runner.h"

enum { BENCH_CHUNK = 8 }; /* puzzles per bench job, as in bench_run.c */

struct bench_mpi {
    struct engine *e;
    struct bench_plan *plan;
    struct bench_job *table; /* every chunk of the plan, in the single run's order */
    size_t ntable;
    struct wire_buf lines; /* rank 0: the rows of the message being taken */
    unsigned long errors, write_errors, stray_rows;
};

/* What every rank must agree on before rows go between them. */
static uint64_t plan_fingerprint(const struct bench_plan *plan)
{
    uint64_t h = HASH_FNV1A_START;
    for (size_t si = 0; si < plan->nsolvers; si++)
        h = hash_bytes(h, plan->solvers[si]->name, strlen(plan->solvers[si]->name) + 1);
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        const struct bench_corpus *c = &plan->corpora[ci];
        h = hash_bytes(h, c->name, strlen(c->name) + 1);
        for (size_t pi = 0; pi < c->n; pi++) {
            const struct bench_puzzle *p = &c->puzzles[pi];
            h = hash_bytes(h, &p->index, sizeof(p->index));
            h = hash_bytes(h, &p->ok, sizeof(p->ok));
            const size_t n = (size_t) p->box_rows * p->box_cols;
            if (p->ok)
                h = hash_bytes(h, c->cells + p->cells, n * n);
        }
    }
    const struct bench_options *o = &plan->opt;
    const uint64_t v[] = { o->limit, o->budget_steps, o->budget_ms, o->repeat, o->seed,
        o->permute, o->head };
    return hash_bytes(h, v, sizeof(v));
}

static int build_table(struct bench_mpi *m)
{
    const struct bench_plan *plan = m->plan;
    size_t n = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        n += plan->nsolvers * ((plan->corpora[ci].n + BENCH_CHUNK - 1) / BENCH_CHUNK);
    m->table = malloc((n ? n : 1) * sizeof(*m->table));
    if (!m->table)
        return -1;
    m->ntable = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        const size_t np = plan->corpora[ci].n;
        for (size_t si = 0; si < plan->nsolvers; si++) {
            for (size_t start = 0; start < np; start += BENCH_CHUNK) {
                const size_t end = start + BENCH_CHUNK < np ? start + BENCH_CHUNK : np;
                m->table[m->ntable++] = (struct bench_job) { (uint32_t) si, (uint32_t) ci,
                    (uint32_t) start, (uint32_t) end };
            }
        }
    }
    return 0;
}

static bool job_pending(const struct bench_plan *plan, const struct bench_job *j)
{
    for (uint32_t pi = j->start; pi < j->end; pi++) {
        for (unsigned r = 0; r < plan->opt.repeat; r++) {
            if (bench_cell_pending(plan, j->si, j->ci, pi, r))
                return true;
        }
    }
    return false;
}

static bool bench_next_job(void *arg, struct bench_job *job)
{
    struct bench_mpi *m = arg;
    uint32_t k;
    if (!engine_next(m->e, &k))
        return false;
    if (k >= m->ntable) {
        m->e->failed = 1;
        return false;
    }
    *job = m->table[k];
    return true;
}

/* A result as it travels to rank 0: its place in the plan (the ranks' plans
 * are proven equal), the cell, then its runs.csv line. */
struct bench_wire_row {
    uint32_t si, ci, pi, r;
    struct bench_cell cell;
};

static void bench_on_row(void *arg, size_t si, size_t ci, size_t pi, unsigned r,
    const struct bench_cell *cell, const char *line, size_t len)
{
    struct bench_mpi *m = arg;
    char buf[sizeof(struct bench_wire_row) + BENCH_CSV_LINE_MAX];
    const struct bench_wire_row w
        = { (uint32_t) si, (uint32_t) ci, (uint32_t) pi, r, *cell };
    if (len > BENCH_CSV_LINE_MAX)
        len = 0;
    memcpy(buf, &w, sizeof(w));
    memcpy(buf + sizeof(w), line, len);
    engine_result(m->e, 0, 0, buf, sizeof(w) + len);
}

/* Rank 0: a result from another rank, into the plan; its line is written
 * with the rest of its message (bench_flush). */
static void bench_take(
    struct engine *e, int rank, uint32_t job, int rc, const char *data, size_t len)
{
    struct bench_mpi *m = e->ctx;
    struct bench_plan *plan = m->plan;
    (void) job;
    (void) rc;
    struct bench_wire_row w;
    if (len <= sizeof(w) || data[len - 1] != '\n') {
        e->failed = 1;
        return;
    }
    memcpy(&w, data, sizeof(w));
    if (w.si >= plan->nsolvers || w.ci >= plan->ncorpora || w.pi >= plan->corpora[w.ci].n
        || w.r >= plan->opt.repeat) {
        m->stray_rows++;
        return;
    }
    struct bench_cell *cell
        = &plan->cells[w.si * plan->ncorpora + w.ci][w.pi * plan->opt.repeat + w.r];
    if (cell->state != BENCH_CELL_PENDING)
        return; /* resumed here already: a chunk was only partly done */
    *cell = w.cell;
    cell->state = BENCH_CELL_DONE;
    cell->resumed = false;
    if (cell->status == SOLVE_STATUS_ERROR) {
        m->errors++;
        fprintf(stderr, "%s:%lu: %s: error (on rank %d)\n", plan->corpora[w.ci].name,
            plan->corpora[w.ci].puzzles[w.pi].line, plan->solvers[w.si]->name, rank);
    }
    wire_put(&m->lines, data + sizeof(w), len - sizeof(w));
    if (m->lines.failed)
        m->write_errors++;
}

/* Rank 0, after each message: its rows in one write (whole lines, so a
 * killed run still leaves whole rows). */
static void bench_flush(struct engine *e)
{
    struct bench_mpi *m = e->ctx;
    const struct bench_plan *plan = m->plan;
    if (m->lines.len == 0)
        return;
    if (plan->out_fd >= 0 && !io_write_all(plan->out_fd, m->lines.data, m->lines.len))
        m->write_errors++;
    if (plan->csv_fd >= 0 && !io_write_all(plan->csv_fd, m->lines.data, m->lines.len))
        m->write_errors++;
    m->lines.len = 0;
}

static int bench_compute(void *arg)
{
    return bench_plan_run(((struct bench_mpi *) arg)->plan);
}

/* The ranks built their plans alone: prove they are the same plan. A rank
 * whose plan differs says so, with what it held back (why it read other
 * puzzles, when it said). */
static bool plans_agree(struct mpi_runner *r, const struct bench_plan *plan)
{
    uint64_t mine = plan_fingerprint(plan), root = mine;
    MPI_Bcast(&root, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int bad = mine != root, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (bad) {
        mpi_runner_say_held(r);
        fprintf(stderr,
            "sudolab-mpi: rank %d read other puzzles or options than rank 0 (are the "
            "files the same on every node?)\n",
            r->rank);
    }
    return !any_bad;
}

/* Rank 0: the chunks still pending, in the single run's order. */
static int pending_jobs(struct engine *e, const struct bench_mpi *m)
{
    if (e->rank != 0)
        return 0;
    e->jobs = malloc((m->ntable ? m->ntable : 1) * sizeof(*e->jobs));
    if (!e->jobs)
        return -1;
    for (size_t k = 0; k < m->ntable; k++) {
        if (job_pending(m->plan, &m->table[k]))
            e->jobs[e->njobs++] = (uint32_t) k;
    }
    return 0;
}

/* The rows first, everywhere; then rank 0 alone times the whole passes,
 * which check their answers against every row. */
static int run_rows(struct bench_mpi *m, struct engine *e)
{
    struct bench_plan *plan = m->plan;
    const uint64_t pass_ms = plan->opt.pass_ms;
    const bool progress = plan->opt.progress;
    plan->opt.pass_ms = 0;
    plan->opt.progress = false;
    plan->next_job = bench_next_job;
    plan->on_row = e->rank == 0 ? NULL : bench_on_row;
    plan->hook_ctx = m;
    int rc = engine_run(e, bench_compute, m);
    size_t cells = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        cells += plan->corpora[ci].n * plan->nsolvers * plan->opt.repeat;
    engine_report(e, "row", cells);
    plan->next_job = NULL;
    plan->on_row = NULL;
    plan->opt.pass_ms = pass_ms;
    plan->opt.progress = progress;
    if (e->rank == 0) {
        plan->errors += m->errors;
        plan->write_errors += m->write_errors;
        if (m->stray_rows)
            fprintf(stderr, "sudolab-mpi: %lu rows matched no puzzle of rank 0's plan\n",
                m->stray_rows);
        if (rc == 0 && pass_ms > 0 && !(plan->stop && atomic_load(plan->stop)))
            rc = bench_plan_run(plan);
    }
    return rc;
}

int mpi_bench_run(void *ctx, struct bench_plan *plan)
{
    struct mpi_runner *r = ctx;
    if (!mpi_runner_agree(r, true) || !plans_agree(r, plan))
        return -1;
    struct bench_mpi m;
    memset(&m, 0, sizeof(m));
    m.plan = plan;
    if (build_table(&m) != 0)
        return -1;
    struct engine e;
    engine_init(&e, plan->opt.threads ? plan->opt.threads : 1, bench_take, &m);
    e.flush = bench_flush;
    e.stop = plan->stop;
    m.e = &e;
    int rc = -1;
    if (pending_jobs(&e, &m) == 0)
        rc = run_rows(&m, &e);
    engine_free(&e);
    free(m.table);
    wire_free(&m.lines);
    return rc;
}
