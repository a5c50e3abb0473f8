/* sudolab bench: its command line as parsed, and its run. sudolab-mpi parses
 * bench's command line with bench_parse and runs it with bench_run_cmd on
 * every rank, its runner installed (dist/dist.h). */
#ifndef SUDOLAB_CLI_CMD_BENCH_H
#define SUDOLAB_CLI_CMD_BENCH_H

#include <stdbool.h>

#include "bench/bench_run.h"
#include "cli/cli.h"

enum { BENCH_MAX_SELECTED = 128 };

struct bench_cli {
    struct cli_common common;
    struct bench_options opt;
    const char *patterns[BENCH_MAX_SELECTED];
    int npatterns;
    char *solver_lists[BENCH_MAX_SELECTED];
    int nlists;
    const char *baseline_name;
    const char *out_dir;
    bool resume, quiet, seed_set;
    int nfiles;
    char **files; /* the corpora */
    int argc;
    char **argv; /* the whole command line, recorded in env.txt */
};

/* Parses bench's command line; argv[0] is the command's name. Returns 0 to run it, 1 when
 * --help was printed, -1 on a usage error (said on stderr). Free with bench_cli_free,
 * whatever it returned. */
int bench_parse(int argc, char **argv, struct bench_cli *cli);

/* Runs the parsed command. Returns the exit status: 0 all agreed, 1
 * something was skipped, failed or disagreed, 2 usage, 130 interrupted. */
int bench_run(struct bench_cli *cli);

void bench_cli_free(struct bench_cli *cli);

#endif /* SUDOLAB_CLI_CMD_BENCH_H */
