#include "cli/cli.h"

#include <string.h>

#include "common/text.h"
#include "solvers/registry.h"

void cli_common_defaults(struct cli_common *c, uint64_t limit)
{
    memset(c, 0, sizeof(*c));
    c->limit = limit;
    c->budget_ms = CLI_DEFAULT_BUDGET_MS;
    c->corpus.variant_from_header = true;
}

static int bad_value(const char *option, const char *arg, const char *expected)
{
    fprintf(stderr, "sudolab: --%s %s: %s expected\n", option, arg, expected);
    return -1;
}

int cli_common_option(struct cli_common *c, int opt, const char *arg)
{
    int br, bc;
    switch (opt) {
    case CLI_OPT_SOLVER:
        c->solver = solver_find(arg);
        if (!c->solver) {
            fprintf(stderr, "sudolab: no solver named '%s' (see `sudolab list`)\n", arg);
            return -1;
        }
        return 1;
    case CLI_OPT_LIMIT:
        if (text_parse_u64(arg, &c->limit) != 0)
            return bad_value("limit", arg, "a count (0 = all)");
        c->limit_set = true;
        return 1;
    case CLI_OPT_BUDGET_STEPS:
        if (text_parse_u64(arg, &c->budget_steps) != 0)
            return bad_value("budget-steps", arg, "a step count");
        return 1;
    case CLI_OPT_BUDGET_MS:
        if (text_parse_u64(arg, &c->budget_ms) != 0)
            return bad_value("budget-ms", arg, "milliseconds");
        return 1;
    case CLI_OPT_SIZE:
        if (grid_parse_box(arg, &br, &bc) != 0)
            return bad_value("size", arg, "box rows x box columns, such as 3x3 or 2x3,");
        c->corpus.shape.box_rows = (uint8_t) br;
        c->corpus.shape.box_cols = (uint8_t) bc;
        return 1;
    case CLI_OPT_VARIANT:
        if (strcmp(arg, "standard") == 0)
            c->corpus.shape.variant = GRID_STANDARD;
        else if (strcmp(arg, "diagonal") == 0 || strcmp(arg, "x") == 0)
            c->corpus.shape.variant = GRID_DIAGONAL;
        else
            return bad_value("variant", arg, "standard or diagonal");
        c->corpus.variant_from_header = false; /* the user's word wins */
        for (int i = 0; i < c->nempty; i++)
            c->empty[i].variant = c->corpus.shape.variant;
        return 1;
    case CLI_OPT_FORMAT:
        if (strcmp(arg, "auto") == 0)
            c->corpus.format = CORPUS_AUTO;
        else if (strcmp(arg, "lines") == 0)
            c->corpus.format = CORPUS_LINES;
        else if (strcmp(arg, "grids") == 0)
            c->corpus.format = CORPUS_GRIDS;
        else
            return bad_value("format", arg, "auto, lines or grids");
        return 1;
    case CLI_OPT_EMPTY:
        if (grid_parse_box(arg, &br, &bc) != 0)
            return bad_value("empty", arg, "box rows x box columns, such as 2x2,");
        if (c->nempty == (int) (sizeof(c->empty) / sizeof(c->empty[0]))) {
            fprintf(stderr, "sudolab: too many --empty grids\n");
            return -1;
        }
        grid_init(
            &c->empty[c->nempty++], br, bc, (enum grid_variant) c->corpus.shape.variant);
        return 1;
    case CLI_OPT_PRETTY:
        c->pretty = true;
        return 1;
    case CLI_OPT_CSV:
        c->csv = true;
        return 1;
    default:
        return 0;
    }
}

int cli_common_finish(struct cli_common *c)
{
    if (!c->solver)
        c->solver = solver_default();
    if (c->limit != 1 && !(c->solver->caps & SOLVER_CAP_COUNT)) {
        fprintf(stderr, "sudolab: solver %s finds one solution only: use --limit 1\n",
            c->solver->name);
        return -1;
    }
    return 0;
}

struct solve_request cli_request(const struct cli_common *c)
{
    struct solve_request req = { .limit = c->limit, .budget_steps = c->budget_steps };
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
