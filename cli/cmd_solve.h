/* What `sudolab solve` and `sudolab count` read from their command lines,
 * parsed apart from running them so that another program (sudolab-mpi) can
 * read the same options: sudolab-mpi parses count's command line with
 * count_parse and runs it with solve_run, its runner installed (scaleout/dist.h). */
#ifndef SUDOLAB_CLI_CMD_SOLVE_H
#define SUDOLAB_CLI_CMD_SOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "common/shard.h"

/* count's split path (scaleout/count_range.h): count --shard K/N and count -j N. */
struct solve_split {
    struct shard shard;
    size_t split; /* --split: subproblems per puzzle, at least */
    unsigned threads; /* -j, >= 1 */
    bool partial; /* --shard: the partial form that `sudolab merge` reads */
};

struct solve_cli {
    struct cli_common common;
    bool counting; /* `count`: the solution count leads the line */
    bool print_all; /* `count --print`: every solution, one per line */
    struct solve_split split; /* count --shard, -j, --split */
    bool use_split; /* count goes through the split path */
    bool grids; /* count --grids: every complete grid of each --empty shape */
    bool estimate; /* count --grids --estimate: the plan and its time */
    bool essential; /* count --grids --essential */
    bool orders; /* count --grids --orders: the walk's orders phase */
    const char *orders_table; /* count --grids --orders-table FILE: its completions */
    const char *ranks; /* count --grids --ranks A-B: the walk's places [A, B) */
    unsigned long head; /* solve --head: the first N entries of each input (0: all) */
    bool output_lewis; /* solve --output lewis: solutions in Lewis's format */
    int nfiles;
    char **files; /* the operands: files, "-" or literal puzzles */
};

extern const struct cli_table solve_table, count_table;

/* Fills *out from solve's (count's) argv, argv[0] being the command's name;
 * the solver is chosen and checked. CLI_PARSED_ERROR after saying why. */
enum cli_parsed solve_parse(int argc, char **argv, struct solve_cli *out);
enum cli_parsed count_parse(int argc, char **argv, struct solve_cli *out);

/* Runs a parsed solve or count. Returns the exit status. */
int solve_run(const struct solve_cli *cli);

#endif /* SUDOLAB_CLI_CMD_SOLVE_H */
