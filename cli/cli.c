#include "cli/cli.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

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
    if (grid_parse_token(
            &item.puzzle, arg, len, &w->common->corpus.shape, item.why, sizeof(item.why))
        != 0)
        return false;
    unsigned long messages = 0;
    item.line = 1;
    deliver(w, "<arg>", &item, true, &messages);
    return true;
}

unsigned long cli_walk(
    const struct cli_common *c, int argc, char **argv, cli_entry_fn *fn, void *ctx)
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

void cli_print_counter(
    FILE *out, const struct solver *s, const struct solver_counters *c, int i, bool csv)
{
    if (s->counters & (1u << i))
        fprintf(out, "%llu", (unsigned long long) solver_counter_get(c, i));
    else if (!csv)
        fputs("n/a", out);
}
