#include "common/exact_cover.h"

#include <stdlib.h>
#include <string.h>

void exact_cover_free(struct exact_cover *ec)
{
    free(ec->row_ncols);
    free(ec->row_col);
    free(ec->col_row);
    memset(ec, 0, sizeof(*ec));
}

bool exact_cover_fits(const struct exact_cover *ec, const struct grid *g)
{
    return ec->n != 0 && ec->box_rows == g->box_rows && ec->box_cols == g->box_cols
        && ec->variant == g->variant;
}

int exact_cover_build(struct exact_cover *ec, const struct grid *g)
{
    const int n = g->n, cells = g->ncells;
    memset(ec, 0, sizeof(*ec));
    ec->box_rows = g->box_rows;
    ec->box_cols = g->box_cols;
    ec->n = g->n;
    ec->variant = g->variant;
    ec->ncells = cells;
    ec->nrows = cells * n;
    ec->ncols = 4 * cells + (g->variant == GRID_DIAGONAL ? 2 * n : 0);
    ec->row_ncols = calloc((size_t) ec->nrows, sizeof(*ec->row_ncols));
    ec->row_col = calloc((size_t) ec->nrows * EXACT_COVER_MAX_ROW_COLS, sizeof(int32_t));
    ec->col_row = calloc((size_t) ec->ncols * (size_t) n, sizeof(int32_t));
    int *fill = calloc((size_t) ec->ncols, sizeof(int));
    if (!ec->row_ncols || !ec->row_col || !ec->col_row || !fill) {
        free(fill);
        exact_cover_free(ec);
        return -1;
    }
    for (int row = 0; row < ec->nrows; row++) {
        const int cell = row / n, v = row % n, r = cell / n, c = cell % n;
        const int box = (r / g->box_rows) * g->box_rows + c / g->box_cols;
        int32_t *cols = &ec->row_col[(size_t) row * EXACT_COVER_MAX_ROW_COLS];
        int k = 0;
        cols[k++] = cell;
        cols[k++] = cells + r * n + v;
        cols[k++] = 2 * cells + c * n + v;
        cols[k++] = 3 * cells + box * n + v;
        if (g->variant == GRID_DIAGONAL) {
            if (r == c)
                cols[k++] = 4 * cells + v;
            if (r == n - 1 - c)
                cols[k++] = 4 * cells + n + v;
        }
        ec->row_ncols[row] = (uint8_t) k;
        for (int i = 0; i < k; i++)
            ec->col_row[(size_t) cols[i] * (size_t) n + (size_t) fill[cols[i]]++] = row;
    }
    free(fill);
    return 0;
}
