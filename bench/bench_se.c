#include "bench/bench_se.h"

#include <stdatomic.h>
#include <string.h>

#include "common/pool.h"
#include "rater/se_rate.h"

/* One rating with one decimal ("7.1", "11.9") at text; returns the characters
 * read, 0 when there is none. */
static size_t read_tenths(const char *text, uint8_t *out)
{
    size_t i = 0;
    int v = 0;
    while (text[i] >= '0' && text[i] <= '9' && i < 2)
        v = v * 10 + (text[i++] - '0');
    if (i == 0 || text[i] != '.' || text[i + 1] < '0' || text[i + 1] > '9')
        return 0;
    v = v * 10 + (text[i + 1] - '0');
    i += 2;
    if ((text[i] >= '0' && text[i] <= '9') || v == 0 || v > 255)
        return 0; /* two decimals, or off the scale: not SE's notation */
    *out = (uint8_t) v;
    return i;
}

/* The ER serate gives a puzzle past all of its techniques. */
enum { SERATE_BEYOND_TENTHS = 200 };

static bool ends_field(char c)
{
    return c == '\0' || c == ' ' || c == '\t' || c == ',' || c == ';' || c == ':'
        || c == '\r' || c == '\n';
}

/* "ER" or "ER/EP/ED" filling a whole field at text. */
static bool read_rating(const char *text, uint8_t se[3])
{
    uint8_t v[3] = { 0, 0, 0 };
    size_t at = read_tenths(text, &v[0]);
    if (at == 0)
        return false;
    if (text[at] == '/') {
        for (int k = 1; k < 3; k++) {
            const size_t n = read_tenths(text + at + 1, &v[k]);
            if (n == 0 || (k == 1 && text[at + 1 + n] != '/'))
                return false;
            at += 1 + n;
        }
    }
    /* serate prints 20.0 when its techniques give out: a verdict, not a
     * rating, so the puzzle stays unrated as when we rate it beyond */
    if (!ends_field(text[at]) || v[0] == SERATE_BEYOND_TENTHS)
        return false;
    memcpy(se, v, sizeof(v));
    return true;
}

bool bench_se_parse(const char *extra, uint8_t se[3])
{
    /* ED= anywhere, at the start of a field */
    for (const char *p = strstr(extra, "ED="); p; p = strstr(p + 1, "ED=")) {
        if ((p == extra || ends_field(p[-1])) && read_rating(p + 3, se))
            return true;
    }
    /* else the first field */
    const char *first = extra + strspn(extra, " \t");
    return read_rating(first, se);
}

void bench_plan_take_se(struct bench_plan *plan, size_t ci, const struct bench_row *row)
{
    if (!row->se_columns)
        return;
    plan->se_columns = true;
    const size_t pi = bench_plan_find_puzzle(plan, ci, row->index);
    if (pi == SIZE_MAX || !row->se[0])
        return;
    uint8_t *se = plan->corpora[ci].puzzles[pi].se;
    if (!se[0])
        memcpy(se, row->se, 3);
}

/* ---- computing them ---- */

struct rate_work {
    struct bench_plan *plan;
    size_t first; /* the puzzle number of the pool's item 0 */
    struct se_rater **raters; /* one per pool worker, NULL until it rates */
    atomic_ulong rated;
    atomic_ulong out_of_time, beyond;
};

/* The k-th puzzle of the plan, counting through the corpora; false past the end. */
static bool nth_puzzle(const struct bench_plan *plan, size_t k, size_t *ci, size_t *pi)
{
    for (size_t c = 0; c < plan->ncorpora; c++) {
        if (k < plan->corpora[c].n) {
            *ci = c;
            *pi = k;
            return true;
        }
        k -= plan->corpora[c].n;
    }
    return false;
}

/* Returns whether it ran the rater. */
static bool rate_one(struct se_rater *rt, struct rate_work *w, size_t ci, size_t pi)
{
    struct bench_plan *plan = w->plan;
    struct bench_puzzle *p = &plan->corpora[ci].puzzles[pi];
    if (!p->ok || p->se[0] || p->box_rows != 3 || p->box_cols != 3 || p->variant != 0
        || (plan->opt.sample && p->index > plan->opt.sample))
        return false;
    struct grid g;
    bench_puzzle_grid(&plan->corpora[ci], pi, &g);
    const uint64_t ms = plan->opt.se_rate_ms;
    struct se_rating r;
    se_rate_within(rt, &g, ms ? se_rater_now(rt) + ms * 1000000u : 0, &r);
    if (r.verdict == SE_OUT_OF_TIME)
        atomic_fetch_add(&w->out_of_time, 1);
    /* beyond the techniques is a verdict, not serate's 20.0: a plot of time
     * against ER would draw it as the hardest rating */
    if (r.verdict == SE_BEYOND)
        atomic_fetch_add(&w->beyond, 1);
    if (r.verdict != SE_RATED)
        return true;
    p->se[0] = (uint8_t) r.er;
    p->se[1] = (uint8_t) (r.ep ? r.ep : r.er);
    p->se[2] = (uint8_t) (r.ed ? r.ed : r.er);
    atomic_fetch_add(&w->rated, 1);
    return true;
}

/* Puzzles first + item, in order over the corpora; false on an interrupt. */
static bool rate_item(void *ctx, unsigned worker, size_t item)
{
    struct rate_work *w = ctx;
    if (w->plan->stop && atomic_load(w->plan->stop))
        return false;
    /* each worker its own rater, made on its first puzzle; without memory
     * for one, that worker's puzzles stay unrated */
    if (!w->raters[worker])
        w->raters[worker] = se_rater_new();
    size_t ci, pi;
    if (w->raters[worker] && nth_puzzle(w->plan, w->first + item, &ci, &pi))
        rate_one(w->raters[worker], w, ci, pi);
    return true;
}

unsigned long bench_plan_rate_se(
    struct bench_plan *plan, unsigned long *out_of_time, unsigned long *beyond)
{
    enum { MAX_THREADS = 256 };
    struct se_rater *raters[MAX_THREADS] = { 0 };
    struct rate_work w = { .plan = plan, .raters = raters };
    atomic_init(&w.rated, 0);
    atomic_init(&w.out_of_time, 0);
    atomic_init(&w.beyond, 0);
    /* up to the first puzzle rated, on this thread alone: the rater builds
     * its constant tables on first use, and only one thread may */
    size_t ci, pi;
    w.raters[0] = se_rater_new();
    while (w.raters[0] && nth_puzzle(plan, w.first++, &ci, &pi)
        && !rate_one(w.raters[0], &w, ci, pi))
        ;
    size_t puzzles = 0;
    for (size_t c = 0; c < plan->ncorpora; c++)
        puzzles += plan->corpora[c].n;
    const unsigned want
        = plan->opt.threads < MAX_THREADS ? plan->opt.threads : MAX_THREADS;
    struct pool *pool = w.first < puzzles ? pool_create(want) : NULL;
    if (pool) {
        pool_for_each(pool, puzzles - w.first, rate_item, &w);
        pool_destroy(pool);
    } else {
        /* out of memory for the pool: this thread rates the rest alone */
        for (size_t item = 0; w.first + item < puzzles; item++)
            if (!rate_item(&w, 0, item))
                break;
    }
    for (unsigned t = 0; t < MAX_THREADS; t++)
        se_rater_free(raters[t]);
    *out_of_time = atomic_load(&w.out_of_time);
    *beyond = atomic_load(&w.beyond);
    return atomic_load(&w.rated);
}
