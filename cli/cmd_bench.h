/* What `sudolab bench` reads from its command line, parsed apart from
 * running it so that another program (sudolab-mpi) can read the same
 * options: sudolab-mpi parses bench's command line with bench_parse and runs
 * it with bench_run on every rank, its runner installed (scaleout/dist.h). */
#ifndef SUDOLAB_CLI_CMD_BENCH_H
#define SUDOLAB_CLI_CMD_BENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/bench_run.h"
#include "cli/cli.h"
#include "cli/options.h"

enum { BENCH_MAX_SELECTED = 128 };

struct bench_cli {
    struct cli_common common;
    struct bench_options opt; /* limit and budgets copied from common */
    /* --solvers and --solver: name patterns, and the copies of the lists
     * they point into (freed by bench_cli_free) */
    const char *patterns[BENCH_MAX_SELECTED];
    int npatterns;
    char *solver_lists[BENCH_MAX_SELECTED];
    int nlists;
    const char *baseline_name;
    const char *out_dir;
    bool resume, quiet, seed_set;
    /* the back ends the patterns chose, in registry order, that can do what
     * was asked, and the one speed ratios are against */
    const struct solver *solvers[BENCH_MAX_SELECTED];
    size_t nsolvers;
    size_t baseline;
    int nfiles;
    char **files; /* the corpora */
    int argc;
    char **argv; /* the whole command line, recorded in env.txt */
};

extern const struct cli_table bench_table;

/* Fills *out from bench's argv (argv[0] is "bench"): the options, checked,
 * and the back ends chosen. Free with bench_cli_free whatever it returns. */
enum cli_parsed bench_parse(int argc, char **argv, struct bench_cli *out);
void bench_cli_free(struct bench_cli *cli);

/* Runs a parsed benchmark as a bench session (bench/bench_session.h) through
 * this process's runner, with a seed from the clock unless one was given.
 * Returns the exit status: 0 all agreed, 1 something was skipped, failed or
 * disagreed, 2 usage, 130 (SIGINT) or 143 (SIGTERM) interrupted. */
int bench_run(struct bench_cli *cli);

#endif /* SUDOLAB_CLI_CMD_BENCH_H */
