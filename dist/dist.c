#include "dist/dist.h"

#include <stddef.h>

/* Written once by main before any thread; read-only afterwards. */
static const struct dist_hooks *installed;

void dist_install(const struct dist_hooks *hooks)
{
    installed = hooks;
}

int dist_bench_run(struct bench_plan *plan)
{
    if (installed && installed->bench_run)
        return installed->bench_run(installed->ctx, plan);
    return bench_plan_run(plan);
}
