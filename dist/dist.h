/* Where a command's work runs: on this process's threads (sudolab), or spread
 * over the ranks of an MPI job (sudolab-mpi, which installs its hooks in main
 * before it runs the command). The hooks are process-wide and set once,
 * before any thread starts, like the MPI library's own state. */
#ifndef SUDOLAB_DIST_DIST_H
#define SUDOLAB_DIST_DIST_H

#include "bench/bench_run.h"

struct dist_hooks {
    /* Runs every pending cell of the plan (and its whole passes), as
     * bench_plan_run does; on MPI ranks other than 0 the plan ends up with
     * only the cells that rank ran. */
    int (*bench_run)(void *ctx, struct bench_plan *plan);
    void *ctx;
};

void dist_install(const struct dist_hooks *hooks);

/* bench_plan_run, or the installed hook. */
int dist_bench_run(struct bench_plan *plan);

#endif /* SUDOLAB_DIST_DIST_H */
