/* count --grids: the band-reduction count of every complete grid of a shape
 * (gridcount/grid_count.h) spread over this process's threads and over shards.
 *
 * The classes of first bands are the unit of work: -j N counts classes on N
 * threads; --shard K/N counts the classes whose number is K-1 mod N and
 * prints a partial (scaleout/grid_text.h) that `sudolab merge` adds up. With
 * three bands every shard first counts the orders of every class (cheap: the
 * completions look them up). --estimate prints the plan and a time estimated
 * from a sample instead of counting; --essential adds Burnside's
 * count of the grids up to symmetry and relabelling (4x4, 6x6, 8x8 and
 * 9x9; gridcount/grid_essential.h). */
#ifndef SUDOLAB_DIST_GRID_RUN_H
#define SUDOLAB_DIST_GRID_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "common/shard.h"

struct grid_run_options {
    int box_rows, box_cols;
    unsigned threads; /* >= 1 */
    struct shard shard; /* 1/1: every class */
    bool partial; /* --shard given: print the partial form */
    bool estimate;
    bool diagonal; /* the diagonal variant: 4x4 and 6x6 on one thread; 9x9 by
                    * scaleout/grid_x_run.h (threads, --estimate) */
    bool essential; /* then the essentially different grids (grid_burnside.h) */
};

/* Counts (or estimates) the grids of one shape and prints them on out;
 * messages go to err. Returns an exit status (common/exit_status.h). */
int grid_run(const struct grid_run_options *o, FILE *out, FILE *err);

#endif /* SUDOLAB_DIST_GRID_RUN_H */
