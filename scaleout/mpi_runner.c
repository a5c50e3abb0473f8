/* sudolab-mpi's runner: count and generate over the ranks, and what the
 * ranks say (scaleout/mpi_runner.h). */
#include "scaleout/mpi_runner.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "common/exit_status.h"
#include "scaleout/count_merge.h"
#include "scaleout/mpi_engine.h"
#include "scaleout/wire.h"

/* ---- the ranks meet; what they held back ---- */

bool mpi_runner_agree(struct mpi_runner *m, bool ok)
{
    m->met = true;
    int mine = ok;
    int *all = malloc((size_t) m->size * sizeof(*all));
    if (!all) {
        fprintf(stderr, "sudolab-mpi: rank %d: out of memory\n", m->rank);
        MPI_Abort(MPI_COMM_WORLD, EXIT_STATUS_SKIPPED);
        return false;
    }
    MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    bool every = true;
    for (int r = 0; r < m->size; r++)
        every &= all[r] != 0;
    /* where rank 0 failed too, it said why, and this rank would say the same */
    if (!ok && m->rank != 0 && all[0]) {
        fflush(m->held);
        if (m->held_len == m->held_said)
            fprintf(stderr, "sudolab-mpi: rank %d: could not start\n", m->rank);
        mpi_runner_say_held(m);
    }
    free(all);
    return every;
}

void mpi_runner_say_held(struct mpi_runner *m)
{
    if (!m->held)
        return;
    fflush(m->held);
    while (m->held_said < m->held_len) {
        const char *line = m->held_text + m->held_said;
        const size_t left = m->held_len - m->held_said;
        const char *nl = memchr(line, '\n', left);
        const size_t len = nl ? (size_t) (nl - line) : left;
        fprintf(stderr, "sudolab-mpi: rank %d: %.*s\n", m->rank, (int) len, line);
        m->held_said += len + (nl != NULL);
    }
    fflush(stderr);
}

/* ---- messages of the jobs, each said once ---- */

enum { MAX_LINES = 200 };

/* What the jobs said, line by line, and which ranks said it: a line every
 * rank that ran jobs said is said plainly, one only some said names them. */
struct said {
    int size;
    struct said_line {
        char *text;
        unsigned char *ranks; /* bitmap */
        int nranks;
    } lines[MAX_LINES];
    size_t n;
    unsigned long dropped;
    unsigned char *workers; /* ranks that ran a job */
    int nworkers;
};

static bool bit_set(unsigned char *map, int rank)
{
    const bool was = map[rank / 8] & (1u << (rank % 8));
    map[rank / 8] |= (unsigned char) (1u << (rank % 8));
    return !was;
}

static void said_line(struct said *s, int rank, const char *text, size_t len)
{
    size_t i = 0;
    while (i < s->n
        && (strlen(s->lines[i].text) != len || memcmp(s->lines[i].text, text, len)))
        i++;
    if (i == s->n) {
        char *copy = strndup(text, len);
        unsigned char *ranks = calloc((size_t) s->size / 8 + 1, 1);
        if (s->n == MAX_LINES || !copy || !ranks) {
            free(copy);
            free(ranks);
            s->dropped++;
            return;
        }
        s->lines[s->n++] = (struct said_line) { copy, ranks, 0 };
    }
    if (bit_set(s->lines[i].ranks, rank))
        s->lines[i].nranks++;
}

/* A job of `rank` said text (whole lines). */
static void said_add(struct said *s, int rank, const char *text, size_t len)
{
    if (!s->workers)
        return;
    if (bit_set(s->workers, rank))
        s->nworkers++;
    while (len > 0) {
        const char *nl = memchr(text, '\n', len);
        const size_t n = nl ? (size_t) (nl - text) : len;
        said_line(s, rank, text, n);
        text += n + (nl != NULL);
        len -= n + (nl != NULL);
    }
}

static void said_print(const struct said *s)
{
    for (size_t i = 0; i < s->n; i++) {
        const struct said_line *l = &s->lines[i];
        if (l->nranks < s->nworkers) {
            fprintf(stderr, "sudolab-mpi: rank%s", l->nranks > 1 ? "s" : "");
            for (int r = 0, shown = 0; r < s->size; r++) {
                if (l->ranks[r / 8] & (1u << (r % 8)))
                    fprintf(stderr, "%s%d", shown++ ? "," : " ", r);
            }
            fputs(": ", stderr);
        }
        fprintf(stderr, "%s\n", l->text);
    }
    if (s->dropped)
        fprintf(stderr, "sudolab-mpi: %lu more messages not shown\n", s->dropped);
}

static void said_free(struct said *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->lines[i].text);
        free(s->lines[i].ranks);
    }
    free(s->workers);
}

/* ---- runs of jobs 0 .. chunks-1 ---- */

static uint32_t chunks_of(const struct mpi_runner *m)
{
    return m->chunks ? m->chunks : MPI_CHUNKS_PER_RANK * (uint32_t) m->size;
}

/* Rank 0 hands out jobs 0 .. n-1, in order. Returns 0 or -1. */
static int hand_out(struct engine *e, uint32_t n)
{
    if (e->rank != 0)
        return 0;
    e->jobs = malloc((n ? n : 1) * sizeof(*e->jobs));
    if (!e->jobs)
        return -1;
    for (uint32_t k = 0; k < n; k++)
        e->jobs[k] = k;
    e->njobs = n;
    return 0;
}

/* ---- count: shards of the run ---- */

struct mpi_count {
    struct engine e;
    const struct count_options *o;
    int argc;
    char **argv;
    uint32_t chunks;
    atomic_int stop;
    /* rank 0 */
    struct said said;
    struct count_merge merge;
    bool failed; /* a shard failed: its messages say why */
    char why[300]; /* the shards did not add up */
    long worst;
};

struct row_packer {
    struct wire_buf rows;
    uint64_t n;
};

static bool pack_row(void *ctx, const struct count_row *row)
{
    struct row_packer *p = ctx;
    wire_put_count_row(&p->rows, row);
    p->n++;
    return !p->rows.failed;
}

/* One shard: its messages, then its rows. Returns 0, or -1 out of memory. */
static int count_job(struct mpi_count *c, uint32_t job)
{
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    if (!err)
        return -1;
    struct count_options o = *c->o;
    o.input.err = err;
    struct row_packer p = { { 0 }, 0 };
    const struct shard shard = { job + 1, c->chunks };
    const long rc = count_range(&o, &shard, c->argc, c->argv, pack_row, &p);
    if (p.rows.failed)
        fprintf(err, "sudolab-mpi: out of memory\n");
    fclose(err);
    struct wire_buf msg = { 0 };
    wire_put_text(&msg, text, len);
    wire_put_u64(&msg, p.n);
    wire_put(&msg, p.rows.data, p.rows.len);
    free(text);
    wire_free(&p.rows);
    if (msg.failed) {
        wire_free(&msg);
        return -1;
    }
    engine_result(&c->e, job,
        rc < 0               ? -1
            : rc > INT32_MAX ? INT32_MAX
                             : (int) rc,
        msg.data, msg.len);
    wire_free(&msg);
    return 0;
}

static int count_compute(void *arg)
{
    struct mpi_count *c = arg;
    uint32_t job;
    while (engine_next(&c->e, &job)) {
        if (count_job(c, job) != 0)
            return -1;
    }
    return 0;
}

/* Rank 0: a shard's rows (from rank) into the sums. */
static void take_rows(struct mpi_count *c, int rank, uint32_t job, struct wire_reader *r)
{
    const uint64_t n = wire_get_u64(r);
    char why[200];
    int bad = 0;
    for (uint64_t i = 0; i < n && !bad && !r->bad; i++) {
        struct count_row row;
        if (wire_get_count_row(r, &row))
            bad = count_merge_add(&c->merge, (size_t) i, &row, why, sizeof(why));
    }
    if (r->bad) {
        c->e.failed = 1;
        return;
    }
    if (!bad)
        bad = count_merge_shard_done(&c->merge, (size_t) n, why, sizeof(why));
    if (bad && !c->why[0])
        snprintf(c->why, sizeof(c->why), "rank %d, shard %u/%u: %s", rank, job + 1,
            c->chunks, why);
}

static void count_take(
    struct engine *e, int rank, uint32_t job, int rc, const char *data, size_t len)
{
    struct mpi_count *c = e->ctx;
    struct wire_reader r = { data, len, false };
    const uint64_t tlen = wire_get_u64(&r);
    const char *text = wire_get(&r, (size_t) tlen);
    if (!text || job >= c->chunks) {
        e->failed = 1;
        return;
    }
    said_add(&c->said, rank, text, (size_t) tlen);
    if (rc < 0 && !c->failed && !c->why[0]) {
        /* its own words are among the messages said (said_print); which rank
         * and shard they belong to, here */
        const char *nl = memchr(text, '\n', (size_t) tlen);
        const int first = (int) (nl ? (size_t) (nl - text) : (size_t) tlen);
        snprintf(c->why, sizeof(c->why), "rank %d, shard %u/%u failed: %.*s", rank,
            job + 1, c->chunks, first > 0 ? first : 9, first > 0 ? text : "no reason");
    }
    if (rc < 0)
        c->failed = true;
    else if (!c->failed && !c->why[0])
        take_rows(c, rank, job, &r);
    if (rc > c->worst)
        c->worst = rc;
    if (c->failed || c->why[0])
        atomic_store(&c->stop, 1);
}

/* Rank 0, after every shard: the rows added up, to the sink. */
static long count_deliver(struct mpi_count *c, count_sink_fn *sink, void *sink_ctx)
{
    said_print(&c->said);
    if (!c->failed && !c->why[0])
        count_merge_check(&c->merge, c->why, sizeof(c->why));
    if (c->why[0])
        fprintf(stderr, "sudolab-mpi: %s\n", c->why);
    if (c->failed || c->why[0])
        return -1;
    for (size_t r = 0; r < c->merge.nrows; r++) {
        if (!sink(sink_ctx, &c->merge.rows[r]))
            return -1;
    }
    return c->worst;
}

static long mpi_count_run(void *ctx, const struct count_options *o,
    const struct shard *shard, int argc, char **argv, count_sink_fn *sink, void *sink_ctx)
{
    struct mpi_runner *m = ctx;
    (void) shard; /* 1/1: sudolab-mpi refuses --shard */
    if (!mpi_runner_agree(m, true))
        return -1;
    struct mpi_count *c = calloc(1, sizeof(*c));
    if (!c)
        return -1;
    c->o = o;
    c->argc = argc;
    c->argv = argv;
    c->chunks = chunks_of(m);
    c->said.size = m->size;
    c->said.workers = m->rank == 0 ? calloc((size_t) m->size / 8 + 1, 1) : NULL;
    count_merge_init(&c->merge);
    engine_init(&c->e, 1, count_take, c);
    c->e.prefetch = false; /* shards are big: none held back from an idle rank */
    c->e.stop = &c->stop;
    if (hand_out(&c->e, c->chunks) != 0 || (m->rank == 0 && !c->said.workers))
        c->e.failed = 1;
    long rc = engine_run(&c->e, count_compute, c) != 0 ? -1 : 0;
    engine_report(&c->e, "shard", c->chunks);
    if (m->rank == 0) {
        const long delivered = count_deliver(c, sink, sink_ctx);
        rc = rc < 0 ? -1 : delivered;
    }
    engine_free(&c->e);
    count_merge_free(&c->merge);
    said_free(&c->said);
    free(c);
    return rc;
}

/* ---- generate: runs of puzzle numbers ---- */

struct mpi_generate {
    struct engine e;
    struct gen_range *g;
    uint64_t first, count;
    uint32_t chunks;
    atomic_int stop;
    /* rank 0: each job's results until their turn comes */
    struct wire_buf *results;
    bool *have;
    uint32_t next; /* the next job whose results go to the sink */
    bool stopped; /* the sink stopped the run */
    gen_sink_fn *sink;
    void *sink_ctx;
};

struct result_packer {
    struct wire_buf out;
};

static bool pack_result(void *ctx, const struct gen_result *r)
{
    struct result_packer *p = ctx;
    wire_put_gen_result(&p->out, r);
    return !p->out.failed && !r->failed; /* after a failure nothing is printed */
}

static int generate_compute(void *arg)
{
    struct mpi_generate *c = arg;
    uint32_t job;
    while (engine_next(&c->e, &job)) {
        /* job k: the k-th of `chunks` consecutive near-equal runs */
        const uint64_t per = c->count / c->chunks, rest = c->count % c->chunks;
        const uint64_t start = c->first + per * job + (job < rest ? job : rest);
        struct result_packer p = { { 0 } };
        gen_range_make(c->g, start, per + (job < rest), pack_result, &p);
        if (p.out.failed) {
            wire_free(&p.out);
            return -1;
        }
        engine_result(&c->e, job, 0, p.out.data, p.out.len);
        wire_free(&p.out);
    }
    return 0;
}

/* Rank 0: the results of the jobs whose turn it is, to the sink. */
static void deliver_ready(struct mpi_generate *c)
{
    while (c->next < c->chunks && c->have[c->next] && !c->stopped) {
        struct wire_buf *b = &c->results[c->next];
        struct wire_reader r = { b->data, b->len, false };
        struct gen_result res;
        while (r.left > 0 && !c->stopped && wire_get_gen_result(&r, &res))
            c->stopped = !c->sink(c->sink_ctx, &res);
        if (r.bad)
            c->e.failed = 1;
        wire_free(b);
        c->next++;
    }
    if (c->stopped || c->e.failed)
        atomic_store(&c->stop, 1);
}

static void generate_take(
    struct engine *e, int rank, uint32_t job, int rc, const char *data, size_t len)
{
    struct mpi_generate *c = e->ctx;
    (void) rank;
    (void) rc;
    if (job >= c->chunks || c->have[job]) {
        e->failed = 1;
        return;
    }
    wire_put(&c->results[job], data, len);
    c->have[job] = true;
    if (c->results[job].failed)
        e->failed = 1;
    deliver_ready(c);
}

/* The work of every rank, summed on rank 0. */
static void sum_stats(const struct gen_range *g, int rank, struct gen_stats *stats)
{
    struct gen_stats mine;
    gen_range_stats(g, &mine);
    uint64_t v[7] = { mine.puzzles, mine.rejected, mine.grids, mine.checks,
        mine.shortcuts, mine.climbs, mine.verify_ns },
             sum[7] = { 0 };
    MPI_Reduce(v, sum, 7, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    *stats = mine;
    if (rank == 0)
        *stats = (struct gen_stats) { sum[0], sum[1], sum[2], sum[3], sum[4], sum[5],
            sum[6] };
}

static int mpi_generate_run(void *ctx, struct gen_range *g, uint64_t first,
    uint64_t count, gen_sink_fn *sink, void *sink_ctx, struct gen_stats *stats)
{
    struct mpi_runner *m = ctx;
    if (!mpi_runner_agree(m, true))
        return -1;
    struct mpi_generate *c = calloc(1, sizeof(*c));
    if (!c)
        return -1;
    *c = (struct mpi_generate) { .g = g,
        .first = first,
        .count = count,
        .chunks = chunks_of(m),
        .sink = sink,
        .sink_ctx = sink_ctx };
    engine_init(&c->e, 1, generate_take, c);
    c->e.prefetch = false;
    c->e.stop = &c->stop;
    if (m->rank == 0) {
        c->results = calloc(c->chunks, sizeof(*c->results));
        c->have = calloc(c->chunks, sizeof(*c->have));
        if (!c->results || !c->have)
            c->e.failed = 1;
    }
    if (hand_out(&c->e, c->chunks) != 0)
        c->e.failed = 1;
    int rc = engine_run(&c->e, generate_compute, c) != 0 ? -1 : 0;
    engine_report(&c->e, "puzzle", count);
    if (m->rank == 0 && (c->stopped || c->next < c->chunks))
        rc = -1;
    sum_stats(g, m->rank, stats);
    for (uint32_t k = 0; c->results && k < c->chunks; k++)
        wire_free(&c->results[k]);
    free(c->results);
    free(c->have);
    engine_free(&c->e);
    free(c);
    return rc;
}

/* ---- setting up ---- */

int mpi_runner_init(struct mpi_runner *m, uint32_t chunks)
{
    memset(m, 0, sizeof(*m));
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    m->chunks = chunks;
    if (m->rank != 0) {
        m->held = open_memstream(&m->held_text, &m->held_len);
        if (!m->held)
            return -1;
    }
    m->runner = (struct dist_runner) { .bench = mpi_bench_run,
        .count = mpi_count_run,
        .generate = mpi_generate_run,
        .output = m->rank == 0,
        .messages = m->held,
        .ctx = m };
    dist_install(&m->runner);
    return 0;
}

void mpi_runner_finish(struct mpi_runner *m)
{
    if (!m->met)
        mpi_runner_agree(m, false);
    dist_install(NULL);
    if (m->held)
        fclose(m->held);
    free(m->held_text);
    m->held = NULL;
    m->held_text = NULL;
}
