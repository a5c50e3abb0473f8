#include "cli/cli.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "solvers/registry.h"
#include "common/text.h"

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
        grid_init(&c->empty[c->nempty++], br, bc,
                  (enum grid_variant) c->corpus.shape.variant);
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

enum { CLI_MAX_MESSAGES = 20 };

struct walk {
    const struct cli_common *common;
    cli_entry_fn *fn;
    void *ctx;
    unsigned long index;
    unsigned long problems;
    bool stopped;
};

static bool deliver(struct walk *w, const char *source, const struct corpus_item *item,
                    bool ok, unsigned long *messages)
{
    struct cli_entry e = { source, item->line, ++w->index, ok, item };
    if (!ok) {
        w->problems++;
        if (++*messages <= CLI_MAX_MESSAGES)
            fprintf(stderr, "%s:%lu: %s\n", source, item->line, item->why);
    }
    if (!w->fn(w->ctx, &e)) {
        w->stopped = true;
        return false;
    }
    return true;
}

static void walk_corpus(struct walk *w, struct corpus *c)
{
    struct corpus_item item;
    unsigned long messages = 0, entries = 0;
    bool failed = false;
    for (;;) {
        const enum corpus_status st = corpus_next(c, &item);
        if (st == CORPUS_END)
            break;
        if (st == CORPUS_FAIL) {
            fprintf(stderr, "%s:%lu: %s\n", corpus_name(c), item.line, item.why);
            w->problems++;
            failed = true;
            break;
        }
        entries++;
        if (!deliver(w, corpus_name(c), &item, st == CORPUS_PUZZLE, &messages))
            return;
    }
    if (messages > CLI_MAX_MESSAGES)
        fprintf(stderr, "%s: %lu more bad entries not shown\n", corpus_name(c),
                messages - CLI_MAX_MESSAGES);
    if (entries == 0 && !failed) { /* a failed input has said why already */
        fprintf(stderr, "%s:%lu: no puzzles in this input%s\n", corpus_name(c),
                corpus_lines(c), corpus_lines(c) == 0 ? " (empty)" : "");
        w->problems++;
    }
}

/* An argument that is no file but reads as one puzzle. */
static bool walk_literal(struct walk *w, const char *arg)
{
    struct corpus_item item;
    memset(&item, 0, sizeof(item));
    size_t len = 0;
    while (arg[len] && !grid_is_separator((unsigned char) arg[len]))
        len++;
    if (len < 16)
        return false;
    if (grid_parse_token(&item.puzzle, arg, len, &w->common->corpus.shape, item.why,
                         sizeof(item.why))
        != 0)
        return false;
    unsigned long messages = 0;
    item.line = 1;
    deliver(w, "<arg>", &item, true, &messages);
    return true;
}

unsigned long cli_walk(const struct cli_common *c, int argc, char **argv, cli_entry_fn *fn,
                       void *ctx)
{
    struct walk w = { c, fn, ctx, 0, 0, false };
    for (int i = 0; i < c->nempty && !w.stopped; i++) {
        struct corpus_item item;
        memset(&item, 0, sizeof(item));
        item.puzzle = c->empty[i];
        item.line = 1;
        unsigned long messages = 0;
        deliver(&w, "<empty>", &item, true, &messages);
    }
    const bool use_stdin = argc == 0 && c->nempty == 0;
    for (int i = 0; (i < argc || use_stdin) && !w.stopped; i++) {
        const char *path = use_stdin ? "-" : argv[i];
        struct stat sb;
        if (strcmp(path, "-") != 0 && stat(path, &sb) != 0 && walk_literal(&w, path))
            continue;
        if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "%s: is a directory, not a corpus file\n", path);
            w.problems++;
            continue;
        }
        char why[200];
        struct corpus *corpus = corpus_open(path, &c->corpus, why, sizeof(why));
        if (!corpus) {
            fprintf(stderr, "%s: %s\n", path, why);
            w.problems++;
            continue;
        }
        walk_corpus(&w, corpus);
        corpus_close(corpus);
        if (use_stdin)
            break;
    }
    return w.problems;
}

void cli_print_counter(FILE *out, const struct solver *s, const struct solver_counters *c,
                       int i, bool csv)
{
    if (s->counters & (1u << i))
        fprintf(out, "%llu", (unsigned long long) solver_counter_get(c, i));
    else if (!csv)
        fputs("n/a", out);
}
