/* What the sudolab subcommands share: the values of the common options
 * (declared in cli/options.h) and the walk over input files (or literal
 * puzzles, or stdin) with `file:line: reason` diagnostics (bench/input_walk.h).
 * Each subcommand is one cmd_<name>.c file (its option table, its parse and
 * its run; cmd_<name>.h declares them) with one entry in sudolab.c's command
 * table. */
#ifndef SUDOLAB_CLI_CLI_H
#define SUDOLAB_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/input_walk.h"
#include "common/corpus.h"
#include "common/exit_status.h"
#include "solvers/solver.h"

/* Exit statuses of every subcommand (common/exit_status.h). */
enum {
    CLI_OK = EXIT_STATUS_OK,
    CLI_SKIPPED = EXIT_STATUS_SKIPPED,
    CLI_USAGE = EXIT_STATUS_USAGE,
};

struct cli_common {
    const struct solver *solver; /* NULL until chosen */
    bool solver_defaulted; /* the user named none: cli_common_finish chose it */
    uint64_t limit;
    bool limit_set;
    uint64_t budget_steps;
    uint64_t budget_ms;
    uint64_t seed; /* solve_request.seed */
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
 * was asked (counting; an incomplete back end, SOLVER_CAP_INCOMPLETE, runs at
 * limit 1, which is its default when --limit is not given). Prints why and
 * returns -1 when it cannot. */
int cli_common_finish(struct cli_common *c);
/* The request for one puzzle (budget deadline counted from now). */
struct solve_request cli_request(const struct cli_common *c);

/* The walk over the inputs (bench/input_walk.h) with these options, its
 * diagnostics going to err. */
struct input_options cli_input(const struct cli_common *c, FILE *err);

/* input_walk with the common options, diagnostics on stderr. */
unsigned long cli_walk(
    const struct cli_common *c, int argc, char **argv, input_entry_fn *fn, void *ctx);

#endif /* SUDOLAB_CLI_CLI_H */
