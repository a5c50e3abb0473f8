/* What the sudolab subcommands share: the common options and the walk over
 * input files (or literal puzzles, or stdin) with `file:line: reason`
 * diagnostics (bench/input_walk.h). Each subcommand is one cmd_<name>.c file with
 * one entry in sudolab.c's command table. */
#ifndef SUDOLAB_CLI_CLI_H
#define SUDOLAB_CLI_CLI_H

#include <getopt.h>
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

enum {
    CLI_OPT_SOLVER = 1000,
    CLI_OPT_LIMIT,
    CLI_OPT_BUDGET_STEPS,
    CLI_OPT_BUDGET_MS,
    CLI_OPT_SIZE,
    CLI_OPT_VARIANT,
    CLI_OPT_FORMAT,
    CLI_OPT_EMPTY,
    CLI_OPT_PRETTY,
    CLI_OPT_CSV,
    CLI_OPT_FIRST_FREE, /* subcommands number their own options from here */
};

/* The long options every puzzle-reading subcommand accepts; put this macro in
 * the subcommand's own option table and hand unknown codes to cli_common_option. */
#define CLI_COMMON_LONGOPTS                                                              \
    { "solver", required_argument, NULL, CLI_OPT_SOLVER },                              \
        { "limit", required_argument, NULL, CLI_OPT_LIMIT },                            \
        { "budget-steps", required_argument, NULL, CLI_OPT_BUDGET_STEPS },              \
        { "budget-ms", required_argument, NULL, CLI_OPT_BUDGET_MS },                    \
        { "size", required_argument, NULL, CLI_OPT_SIZE },                              \
        { "variant", required_argument, NULL, CLI_OPT_VARIANT },                        \
        { "format", required_argument, NULL, CLI_OPT_FORMAT },                          \
        { "empty", required_argument, NULL, CLI_OPT_EMPTY },                            \
        { "pretty", no_argument, NULL, CLI_OPT_PRETTY },                                \
        { "csv", no_argument, NULL, CLI_OPT_CSV }

#define CLI_COMMON_HELP                                                                  \
    "  --solver NAME       back end (see `sudolab list`)\n"                           \
    "  --limit K           stop after K solutions: 1 first, 2 uniqueness, 0 all\n"     \
    "  --budget-steps N    give up (status limit) after N steps of the back end\n"     \
    "  --budget-ms N       give up (status limit) after N ms per puzzle (default\n"    \
    "                      60000, so that nothing runs unbounded; 0 = none)\n"         \
    "  --size RxC          box shape (2x3 = 6x6); default: from each puzzle's length\n" \
    "  --variant V         standard or diagonal; default: what a file's header\n"       \
    "                      comment says (variant=diagonal), else standard\n"            \
    "  --format F          auto, lines or grids (whitespace grids, seed 002)\n"        \
    "  --empty RxC         add the empty grid with RxC boxes as an input\n"            \
    "  --pretty            draw grids with boxes\n"                                    \
    "  --csv               comma-separated output with a header\n"

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
/* Handles one common option. Returns 1 when handled, 0 when opt is not a common
 * option, -1 on a bad value (after printing why). */
int cli_common_option(struct cli_common *c, int opt, const char *arg);
/* Picks the default back end when none was named and checks it can do what
 * was asked (counting). Prints why and returns -1 when it cannot. */
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
