#include "cli/cli.h"

#include <string.h>

#include "solvers/registry.h"

void cli_common_defaults(struct cli_common *c, uint64_t limit)
{
    memset(c, 0, sizeof(*c));
    c->limit = limit;
    c->budget_ms = CLI_DEFAULT_BUDGET_MS;
    c->corpus.variant_from_header = true;
}

int cli_common_finish(struct cli_common *c)
{
    if (!c->solver) {
        c->solver = solver_default();
        c->solver_defaulted = true;
    }
    if (c->solver->caps & SOLVER_CAP_INCOMPLETE) {
        if (!c->limit_set)
            c->limit = 1;
        if (c->limit != 1) {
            fprintf(stderr,
                "sudolab: %s is incomplete (stochastic search): it can find a solution "
                "but not prove uniqueness; use --limit 1\n",
                c->solver->name);
            return -1;
        }
    }
    if (c->limit != 1 && !(c->solver->caps & SOLVER_CAP_COUNT)) {
        fprintf(stderr, "sudolab: solver %s finds one solution only: use --limit 1\n",
            c->solver->name);
        return -1;
    }
    return 0;
}

struct solve_request cli_request(const struct cli_common *c)
{
    struct solve_request req
        = { .limit = c->limit, .budget_steps = c->budget_steps, .seed = c->seed };
    if (c->budget_ms)
        req.deadline_ns = clock_now_ns() + c->budget_ms * 1000000u;
    return req;
}

struct input_options cli_input(const struct cli_common *c, FILE *err)
{
    const struct input_options in = { &c->corpus, c->empty, c->nempty, err };
    return in;
}

unsigned long cli_walk(
    const struct cli_common *c, int argc, char **argv, input_entry_fn *fn, void *ctx)
{
    const struct input_options in = cli_input(c, stderr);
    return input_walk(&in, argc, argv, fn, ctx);
}
