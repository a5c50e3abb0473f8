/* What the sudolab subcommands share: the values of the common options
 * (declared in cli/options.h), the walk over input files (or literal puzzles,
 * or stdin) with `file:line: reason` diagnostics, and the printing of
 * counters. Each subcommand is one cmd_<name>.c file (its option table, its
 * parse and its run; cmd_<name>.h declares them) with one entry in
 * sudolab.c's command table. */
#ifndef SUDOLAB_CLI_CLI_H
#define SUDOLAB_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/corpus.h"
#include "solvers/solver.h"

/* Exit statuses of every subcommand. */
enum {
    CLI_OK = 0,
    CLI_SKIPPED = 1, /* ran, but something was invalid, unreadable or wrong */
    CLI_USAGE = 2,
};

struct cli_common {
    const struct solver *solver; /* NULL until chosen */
    uint64_t limit;
    bool limit_set;
    uint64_t budget_steps;
    uint64_t budget_ms;
    struct corpus_options corpus;
    int nempty;
    struct grid empty[8]; /* --empty grids */
    bool pretty, csv;
};

/* Per-puzzle time budget of solve, count, trace and rate unless --budget-ms
 * says otherwise: a guard against a run that never ends (the empty 9x9 grid
 * counted with --limit 0), far above any single puzzle's solve. */
enum { CLI_DEFAULT_BUDGET_MS = 60000 };

void cli_common_defaults(struct cli_common *c, uint64_t limit);
/* Picks the default back end when none was named and checks it can do what
 * was asked (counting). Prints why and returns -1 when it cannot. */
int cli_common_finish(struct cli_common *c);
/* The request for one puzzle (budget deadline counted from now). */
struct solve_request cli_request(const struct cli_common *c);

/* One input entry as seen by a subcommand. */
struct cli_entry {
    const char *source; /* file name, "<stdin>", "<arg>" or "<empty>" */
    unsigned long line;
    unsigned long index; /* 1-based over all inputs, bad entries included */
    bool ok; /* false: unparsable; `why` says why */
    const struct corpus_item *item;
};

/* Called for each entry; return false to stop the walk. */
typedef bool cli_entry_fn(void *ctx, const struct cli_entry *e);

/* Walks the --empty grids, then every argument (a file, "-" for stdin, or a
 * literal puzzle), or stdin when there is none. Prints `file:line: reason`
 * for bad entries (at most 20 per input, then a count) and for unreadable
 * files. Returns the number of problems reported. */
unsigned long cli_walk(
    const struct cli_common *c, int argc, char **argv, cli_entry_fn *fn, void *ctx);

/* Writes counter i of a result, or "n/a" (empty in CSV) when s does not report it. */
void cli_print_counter(
    FILE *out, const struct solver *s, const struct solver_counters *c, int i, bool csv);

#endif /* SUDOLAB_CLI_CLI_H */
