/* sudolab solve and sudolab count: their command line as parsed, and their
 * run. sudolab-mpi parses count's command line with solve_parse and runs it
 * with solve_run, its runner installed (dist/dist.h). */
#ifndef SUDOLAB_CLI_CMD_SOLVE_H
#define SUDOLAB_CLI_CMD_SOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "common/shard.h"

struct solve_cli {
    struct cli_common common;
    bool counting; /* count: the solution count leads the line */
    bool print_all; /* count --print: every solution, one per line */
    bool use_split; /* count -j N or --shard: by subproblems (dist/count_range.h) */
    bool partial; /* count --shard: the partial form that `sudolab merge` reads */
    struct shard shard;
    size_t split; /* --split: subproblems per puzzle, at least */
    unsigned threads; /* -j */
    int nfiles;
    char **files; /* the operands: files, "-" or literal puzzles */
};

/* Parses solve's (count's) command line; argv[0] is the command's name.
 * Returns 0 to run it, 1 when --help was printed, -1 on a usage error (said
 * on stderr). */
int solve_parse(int argc, char **argv, struct solve_cli *out);
int count_parse(int argc, char **argv, struct solve_cli *out);

/* Runs the parsed command; returns its exit status. */
int solve_run(const struct solve_cli *cli);

#endif /* SUDOLAB_CLI_CMD_SOLVE_H */
