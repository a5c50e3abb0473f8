/* count --grids --variant diagonal on 9x9: the Sudoku X count of
 * gridcount/grid_sudoku_x.h over this process's threads, or its plan and a
 * time estimated from a sample (--estimate). The classes of first bands are
 * the unit of work: -j N counts them on N threads. */
#ifndef SUDOLAB_DIST_GRID_X_RUN_H
#define SUDOLAB_DIST_GRID_X_RUN_H

#include <stdbool.h>
#include <stdio.h>

/* Counts (or estimates, sampling `sample` classes spread over the plan) and
 * prints on out; messages go to err. Returns an exit status
 * (common/exit_status.h). */
int grid_x_run(unsigned threads, bool estimate, size_t sample, FILE *out, FILE *err);

#endif /* SUDOLAB_DIST_GRID_X_RUN_H */
