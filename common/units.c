#include "common/units.h"

#include <string.h>

void units_build(struct units *u, const struct grid *g)
{
    const int n = g->n, br = g->box_rows, bc = g->box_cols;
    memset(u, 0, sizeof(*u));
    u->box_rows = g->box_rows;
    u->box_cols = g->box_cols;
    u->n = g->n;
    u->variant = g->variant;
    u->ncells = g->ncells;
    u->nunits = (uint8_t) (3 * n + (g->variant == GRID_DIAGONAL ? 2 : 0));

    for (int k = 0; k < n; k++) {
        for (int a = 0; a < n; a++) {
            u->unit_cell[a][k] = (uint16_t) (a * n + k);
            u->unit_cell[n + a][k] = (uint16_t) (k * n + a);
            const int top = (a / br) * br, left = (a % br) * bc;
            u->unit_cell[2 * n + a][k] = (uint16_t) ((top + k / bc) * n + left + k % bc);
        }
        if (g->variant == GRID_DIAGONAL) {
            u->unit_cell[3 * n][k] = (uint16_t) (k * n + k);
            u->unit_cell[3 * n + 1][k] = (uint16_t) (k * n + n - 1 - k);
        }
    }
    for (int unit = 0; unit < u->nunits; unit++) {
        for (int k = 0; k < n; k++) {
            const int cell = u->unit_cell[unit][k];
            u->cell_unit[cell][u->cell_nunits[cell]++] = (uint8_t) unit;
        }
    }
    for (int cell = 0; cell < g->ncells; cell++) {
        bool is_peer[GRID_MAX_CELLS] = { false };
        for (int i = 0; i < u->cell_nunits[cell]; i++) {
            const int unit = u->cell_unit[cell][i];
            for (int k = 0; k < n; k++) {
                const int other = u->unit_cell[unit][k];
                if (other != cell && !is_peer[other]) {
                    is_peer[other] = true;
                    u->peer[cell][u->npeers[cell]++] = (uint16_t) other;
                }
            }
        }
    }
}
