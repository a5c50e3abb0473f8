/* Unit and peer tables for one grid shape, for back ends that want them.
 *
 * Units are numbered rows 0..N-1, columns N..2N-1, boxes 2N..3N-1, then the
 * main diagonal (3N) and the anti-diagonal (3N+1) for the diagonal variant.
 * The tables are plain data owned by the caller (a back end keeps one in its
 * private state and rebuilds it when the shape changes), so there is no shared
 * global to guard between threads. */
#ifndef SUDOLAB_COMMON_UNITS_H
#define SUDOLAB_COMMON_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/grid.h"

enum {
    UNITS_MAX = 3 * GRID_MAX_N + 2,
    UNITS_PER_CELL_MAX = 5,
    /* row + column + rest of the box + two diagonals, for the largest N */
    UNITS_PEERS_MAX = 3 * (GRID_MAX_N - 1) + 2 * (GRID_MAX_N - 1),
};

struct units {
    uint8_t box_rows, box_cols, n, variant;
    uint16_t ncells;
    uint8_t nunits;
    uint16_t unit_cell[UNITS_MAX][GRID_MAX_N];
    uint8_t cell_nunits[GRID_MAX_CELLS];
    uint8_t cell_unit[GRID_MAX_CELLS][UNITS_PER_CELL_MAX];
    uint8_t npeers[GRID_MAX_CELLS];
    uint16_t peer[GRID_MAX_CELLS][UNITS_PEERS_MAX];
};

/* Fills u for the shape (and variant) of g. */
void units_build(struct units *u, const struct grid *g);

/* True when u was built for the shape and variant of g. */
static inline bool units_fit(const struct units *u, const struct grid *g)
{
    return u->n != 0 && u->box_rows == g->box_rows && u->box_cols == g->box_cols
        && u->variant == g->variant;
}

#endif /* SUDOLAB_COMMON_UNITS_H */
