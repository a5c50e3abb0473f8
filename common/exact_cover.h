/* Sudoku as exact cover, built once per shape and shared by the dlx, sat and
 * milp back ends.
 *
 * Rows (options) are placements "value v in cell c", numbered c*N + (v-1).
 * Columns (items) are constraints that each need exactly one placement:
 *
 *   [0, C)            cell c holds a value            (C = N*N cells)
 *   [C, 2C)           row r holds value v             (r*N + v-1)
 *   [2C, 3C)          column k holds value v          (k*N + v-1)
 *   [3C, 4C)          box b holds value v             (b*N + v-1)
 *   [4C, 4C+N)        main diagonal holds value v     (diagonal variant only)
 *   [4C+N, 4C+2N)     anti-diagonal holds value v     (diagonal variant only)
 *
 * Every row covers 4 columns, plus 1 or 2 on a diagonal of the variant. Every
 * column is covered by exactly N rows. */
#ifndef SUDOLAB_COMMON_EXACT_COVER_H
#define SUDOLAB_COMMON_EXACT_COVER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/grid.h"

enum { EXACT_COVER_MAX_ROW_COLS = 6 };

struct exact_cover {
    uint8_t box_rows, box_cols, n, variant;
    int ncells;
    int nrows; /* ncells * n */
    int ncols; /* 4 * ncells (+ 2n) */
    uint8_t *row_ncols; /* [nrows] */
    int32_t *row_col; /* [nrows][EXACT_COVER_MAX_ROW_COLS] */
    int32_t *col_row; /* [ncols][n]: the rows covering each column, ascending */
};

/* Builds the model for the shape and variant of g. Returns 0, or -1 when out
 * of memory. Free with exact_cover_free. */
int exact_cover_build(struct exact_cover *ec, const struct grid *g);
void exact_cover_free(struct exact_cover *ec);
bool exact_cover_fits(const struct exact_cover *ec, const struct grid *g);

static inline int exact_cover_row(const struct exact_cover *ec, int cell, int value)
{
    return cell * ec->n + value - 1;
}

static inline int exact_cover_row_cell(const struct exact_cover *ec, int row)
{
    return row / ec->n;
}

static inline int exact_cover_row_value(const struct exact_cover *ec, int row)
{
    return row % ec->n + 1;
}

#endif /* SUDOLAB_COMMON_EXACT_COVER_H */
