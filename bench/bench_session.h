/* One bench run from its parsed options to its exit status, whatever
 * program asked for it (sudolab bench, sudolab-mpi bench):
 *
 *   the corpora read into a plan (bench_run.h), rated first with --se-rate;
 *   --out DIR made and locked for the whole run (out_lock.h), runs.csv fresh
 *   or continued (--resume, refused when the options that make rows
 *   comparable differ from those env.txt recorded), env.txt's facts before
 *   the run (bench_env.h);
 *   the run through the caller's runner, SIGINT and SIGTERM ending it
 *   between rows with the command that resumes it;
 *   the cross-check, the summary table, summary.csv and env.txt's outcome.
 *
 * The caller parses the options and picks the seed (cli/cmd_bench.c). */
#ifndef SUDOLAB_BENCH_BENCH_SESSION_H
#define SUDOLAB_BENCH_BENCH_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/bench_run.h"
#include "bench/input_walk.h"

struct bench_session_options {
    struct bench_options opt; /* the seed already chosen */
    const struct solver **solvers; /* kept by the plan for the whole run */
    size_t nsolvers;
    size_t baseline; /* the solver speed ratios are against */
    struct input_options input; /* how the corpora are read (its err: messages) */
    int nfiles;
    char **files; /* the corpora */
    const char *out_dir; /* NULL: no files, only what is printed */
    bool resume; /* continue out_dir's runs.csv */
    bool quiet; /* no summary table and no notes on the way */
    bool csv; /* the rows on stdout, the tables and notes on stderr */
    /* The command line from the command's name on ("bench", options,
     * files): env.txt's `command:` and the command that resumes an
     * interrupted run. */
    int argc;
    char **argv;
    /* Runs every pending cell of the plan, as bench_plan_run does; a
     * runner may spread them over processes. Returns 0 or -1. */
    int (*run)(struct bench_plan *plan);
    /* Where the diagnostics of the inputs and the run go: every process of a
     * run would say the same, so one of them holds the stream (stderr
     * otherwise). The output folder's own errors go to stderr. */
    FILE *messages;
};

/* Runs the session. Returns the exit status (common/exit_status.h): OK when
 * everything agreed; SKIPPED when an input could not be read, a run failed,
 * answers disagreed, the outputs could not be written or the run could not
 * start; USAGE when --resume meets a run with other options; SIGNAL_BASE +
 * the signal when SIGINT or SIGTERM ended it (the rows done are kept). */
int bench_session_run(const struct bench_session_options *o);

#endif /* SUDOLAB_BENCH_BENCH_SESSION_H */
