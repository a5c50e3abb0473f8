/* generate's work loop (scaleout/gen_range.h): the pool's workers take the
 * puzzle numbers of a block in increasing order; the block is handed on in
 * order. */
#include "scaleout/gen_range.h"

#include <stdlib.h>
#include <string.h>

#include "common/pool.h"
#include "puzzle/rate.h"

enum { GEN_BLOCK = 256 };

struct gen_worker {
    struct gen_range *g;
    struct generator *gen;
    struct rater rater;
    bool rating;
};

struct gen_range {
    struct gen_range_options o;
    struct gen_worker *workers; /* one per worker of the pool */
    int opened;
    struct pool *pool;
    struct gen_result *slots; /* [GEN_BLOCK]: the block being made */
    uint64_t block_first, block_end; /* its puzzle numbers */
};

static void make_one(struct gen_worker *w, uint64_t number)
{
    struct gen_range *g = w->g;
    struct gen_result *slot = &g->slots[number - g->block_first];
    slot->number = number;
    slot->failed = false;
    slot->rating[0] = '\0';
    slot->why[0] = '\0';
    if (gen_make(w->gen, number, &slot->puzzle, NULL) != 0) {
        slot->failed = true;
        snprintf(slot->why, sizeof(slot->why), "%s", gen_error(w->gen));
        return;
    }
    if (w->rating) {
        struct rate_values v;
        rater_rate(&w->rater, &slot->puzzle, &v);
        rate_format(slot->rating, sizeof(slot->rating), &v, g->o.rate_methods, false);
    }
}

static bool make_item(void *ctx, unsigned worker, size_t item)
{
    struct gen_range *g = ctx;
    make_one(&g->workers[worker], g->block_first + item);
    return true;
}

static int open_worker(struct gen_worker *w, struct gen_range *g, char *why, size_t len)
{
    memset(w, 0, sizeof(*w));
    w->g = g;
    w->gen = gen_open(&g->o.gen, why, len);
    if (!w->gen)
        return -1;
    if (g->o.rate_methods) {
        char reason[200];
        if (rater_open(&w->rater, g->o.rate_methods, g->o.rate_solver, g->o.permutations,
                g->o.gen.seed, reason, sizeof(reason))
            != 0) {
            snprintf(why, len, "--rate: %s", reason);
            gen_close(w->gen);
            return -1;
        }
        w->rating = true;
    }
    return 0;
}

struct gen_range *gen_range_open(const struct gen_range_options *o, char *why, size_t len)
{
    struct gen_range *g = calloc(1, sizeof(*g));
    const int jobs = o->jobs < 1 ? 1 : o->jobs > GEN_MAX_JOBS ? GEN_MAX_JOBS : o->jobs;
    if (g) {
        g->o = *o;
        g->o.jobs = jobs;
        g->workers = calloc((size_t) jobs, sizeof(*g->workers));
        g->slots = calloc(GEN_BLOCK, sizeof(*g->slots));
    }
    if (!g || !g->workers || !g->slots) {
        snprintf(why, len, "out of memory");
        gen_range_close(g);
        return NULL;
    }
    g->pool = pool_create((unsigned) jobs);
    if (!g->pool) {
        snprintf(why, len, "out of memory");
        gen_range_close(g);
        return NULL;
    }
    while (g->opened < jobs && open_worker(&g->workers[g->opened], g, why, len) == 0)
        g->opened++;
    if (g->opened < jobs) {
        gen_range_close(g);
        return NULL;
    }
    /* the workers agree on the back ends: these are the options in force */
    g->o.gen = *gen_options(g->workers[0].gen);
    return g;
}

const struct gen_options *gen_range_options(const struct gen_range *g)
{
    return &g->o.gen;
}

int gen_range_make(
    struct gen_range *g, uint64_t first, uint64_t count, gen_sink_fn *sink, void *ctx)
{
    for (uint64_t b = first; b < first + count; b += GEN_BLOCK) {
        g->block_first = b;
        g->block_end = first + count - b < GEN_BLOCK ? first + count : b + GEN_BLOCK;
        pool_for_each(g->pool, g->block_end - b, make_item, g);
        for (uint64_t k = 0; k < g->block_end - b; k++) {
            if (!sink(ctx, &g->slots[k]))
                return -1;
        }
    }
    return 0;
}

void gen_range_stats(const struct gen_range *g, struct gen_stats *out)
{
    memset(out, 0, sizeof(*out));
    for (int t = 0; t < g->opened; t++) {
        const struct gen_stats *s = gen_stats(g->workers[t].gen);
        out->puzzles += s->puzzles;
        out->grids += s->grids;
        out->checks += s->checks;
        out->shortcuts += s->shortcuts;
        out->climbs += s->climbs;
        out->rejected += s->rejected;
        out->verify_ns += s->verify_ns;
    }
}

void gen_range_close(struct gen_range *g)
{
    if (!g)
        return;
    for (int t = 0; t < g->opened; t++) {
        if (g->workers[t].rating)
            rater_close(&g->workers[t].rater);
        gen_close(g->workers[t].gen);
    }
    pool_destroy(g->pool);
    free(g->workers);
    free(g->slots);
    free(g);
}
