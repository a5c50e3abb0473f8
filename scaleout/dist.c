#include "scaleout/dist.h"

#include <stddef.h>

/* Written once by main before any thread; read-only afterwards. */
static const struct dist_runner *installed;

void dist_install(const struct dist_runner *runner)
{
    installed = runner;
}

int dist_bench(struct bench_plan *plan)
{
    if (installed && installed->bench)
        return installed->bench(installed->ctx, plan);
    return bench_plan_run(plan);
}

long dist_count(const struct count_options *o, const struct shard *shard, int argc,
    char **argv, count_sink_fn *sink, void *sink_ctx)
{
    if (installed && installed->count)
        return installed->count(installed->ctx, o, shard, argc, argv, sink, sink_ctx);
    return count_range(o, shard, argc, argv, sink, sink_ctx);
}

int dist_generate(struct gen_range *g, uint64_t first, uint64_t count, gen_sink_fn *sink,
    void *sink_ctx, struct gen_stats *stats)
{
    if (installed && installed->generate)
        return installed->generate(
            installed->ctx, g, first, count, sink, sink_ctx, stats);
    const int rc = gen_range_make(g, first, count, sink, sink_ctx);
    gen_range_stats(g, stats);
    return rc;
}

bool dist_output(void)
{
    return !installed || installed->output;
}

FILE *dist_messages(void)
{
    return installed && installed->messages ? installed->messages : stderr;
}
