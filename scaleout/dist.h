/* Where a command's work runs: on this process's threads (sudolab), or spread
 * over the ranks of an MPI job (sudolab-mpi installs its runner in main,
 * before it runs the command). The commands hand their work to dist_bench,
 * dist_count and dist_generate and print what comes back; the runner decides
 * where it is done. A runner is process-wide and set once, before any thread
 * starts, like the MPI library's own state. */
#ifndef SUDOLAB_DIST_DIST_H
#define SUDOLAB_DIST_DIST_H

#include <stdbool.h>
#include <stdio.h>

#include "bench/bench_run.h"
#include "scaleout/count_range.h"
#include "scaleout/gen_range.h"

struct dist_runner {
    /* Runs every pending cell of the plan (and its whole passes), as
     * bench_plan_run does; on MPI ranks other than 0 the plan ends up with
     * only the cells that rank ran. Returns 0 or -1. */
    int (*bench)(void *ctx, struct bench_plan *plan);
    /* count_range over the whole run: the sink gets every entry's row with
     * all the shard's subproblems tallied, in input order (on MPI, on rank 0
     * only). Returns what count_range returns. */
    long (*count)(void *ctx, const struct count_options *o, const struct shard *shard,
        int argc, char **argv, count_sink_fn *sink, void *sink_ctx);
    /* gen_range_make of puzzles first .. first + count - 1: the sink gets
     * them in puzzle order (on MPI, on rank 0 only); stats gets the work
     * done by every thread (and rank). Returns 0, or -1 when the sink
     * stopped the run or it failed. */
    int (*generate)(void *ctx, struct gen_range *g, uint64_t first, uint64_t count,
        gen_sink_fn *sink, void *sink_ctx, struct gen_stats *stats);
    /* False where the command's output goes nowhere (MPI ranks other than
     * 0): the command prints no headers, rows or summaries there. */
    bool output;
    /* Where the command's diagnostics of its inputs and options go: every
     * process would say the same (NULL: stderr). */
    FILE *messages;
    void *ctx;
};

/* Installs a runner (NULL: the default, this process's threads). Entries
 * left NULL run on this process's threads too. */
void dist_install(const struct dist_runner *runner);

/* bench_plan_run, or the runner's. */
int dist_bench(struct bench_plan *plan);

/* count_range, or the runner's. */
long dist_count(const struct count_options *o, const struct shard *shard, int argc,
    char **argv, count_sink_fn *sink, void *sink_ctx);

/* gen_range_make and gen_range_stats, or the runner's. */
int dist_generate(struct gen_range *g, uint64_t first, uint64_t count, gen_sink_fn *sink,
    void *sink_ctx, struct gen_stats *stats);

/* Whether this process writes the command's output. */
bool dist_output(void);

/* Where the command's diagnostics go. */
FILE *dist_messages(void);

#endif /* SUDOLAB_DIST_DIST_H */
