/* sudolab-mpi's runner (scaleout/dist.h): the commands' work spread over the
 * ranks of an MPI job through the work exchange (scaleout/mpi_engine.h).
 *
 * Every rank runs the same command, parsed from the same command line; the
 * command hands its work to the runner, which returns the results on rank 0
 * only, where the command prints them with its own code, so the output is the
 * plain command's. The other ranks print nothing of the output
 * (dist_output() is false there), and hold back what the command says
 * (dist_messages()): every rank would say the same. Held messages are said,
 * with the rank, when that rank fails where rank 0 does not.
 *
 *  - bench: chunks of the plan (a back end, a corpus, 8 puzzles) in the
 *    single run's order; each row comes back as its cell and runs.csv line;
 *    rank 0 then times the whole passes alone (scaleout/mpi_bench.c).
 *  - count: shards of the run (every M-th subproblem), M = 16 per rank unless
 *    --chunks says otherwise; each shard's rows come back as data and rank 0
 *    adds them up (scaleout/count_merge.h), its messages too, each said once.
 *  - generate: M consecutive runs of puzzle numbers, handed to the command's
 *    sink in puzzle order as they complete. */
#ifndef SUDOLAB_DIST_MPI_RUNNER_H
#define SUDOLAB_DIST_MPI_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scaleout/dist.h"

enum { MPI_CHUNKS_PER_RANK = 16 };

struct mpi_runner {
    struct dist_runner runner; /* what mpi_runner_init installs */
    int rank, size;
    uint32_t chunks; /* count and generate: work units (0: 16 per rank) */
    bool met; /* the ranks met (mpi_runner_agree) */
    /* ranks other than 0: what the command said, held back */
    FILE *held;
    char *held_text;
    size_t held_len, held_said;
};

/* Sets up the runner of this rank and installs it. Returns 0 or -1. */
int mpi_runner_init(struct mpi_runner *m, uint32_t chunks);

/* After the command, on every rank: meets the others if the command never
 * reached its runner (it failed before), so that no rank waits for it;
 * uninstalls the runner. */
void mpi_runner_finish(struct mpi_runner *m);

/* Every rank, once per command, before any other exchange: says whether this
 * rank is ready. Returns true when every rank is. */
bool mpi_runner_agree(struct mpi_runner *m, bool ok);

/* Says what this rank held back, each line prefixed with its rank. */
void mpi_runner_say_held(struct mpi_runner *m);

/* The runner's bench entry (scaleout/mpi_bench.c). */
int mpi_bench_run(void *ctx, struct bench_plan *plan);

#endif /* SUDOLAB_DIST_MPI_RUNNER_H */
