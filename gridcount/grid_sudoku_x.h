/* Counting 9x9 Sudoku X grids (both main diagonals hold every digit) by
 * bands, with the diagonal digits each band places carried through the join.
 *
 * Relabelling keeps the diagonals, so box 1 is fixed to 1..9 (row-major) and
 * the total is 9! times the grids with that box. A first band (rows 1-3)
 * with that box puts 1, 5, 9 on the main diagonal and three digits a1 on
 * the anti-diagonal (its box 3); the rest of the grid meets it only through
 * its column sets and a1, so first bands with the same column sets and a1
 * share one key and one count of completions. The keys are the
 * independent sub-problems of a count (sharded and threaded by their number).
 *
 * Completions of a key: the middle band's column sets T take 3 of the 6
 * digits each column has left, 56 ways per stack; the third band's are then
 * the rest, U. A band's orders (its fillings from its column sets) are
 * counted stack by stack: a stack's column sets have 6^3 arrangements into
 * rows, and a band is one arrangement per stack whose rows are disjoint.
 * Each arrangement carries the digits it puts on the diagonals: the middle
 * band's box 5 holds both diagonals' middle cells, the third band's box 7
 * the anti-diagonal's last three cells and box 9 the main diagonal's. For
 * each pair of choices of stacks 1 and 3 the pairs of their arrangements
 * are tabled by the rows they fill (the middle band's by count, the third
 * band's by count and diagonal digits); each stack-2 choice then looks its
 * arrangements up there, and the middle band's (main, anti) digits join the
 * third band's that complete both diagonals. */
#ifndef SUDOLAB_GRIDCOUNT_GRID_SUDOKU_X_H
#define SUDOLAB_GRIDCOUNT_GRID_SUDOKU_X_H

#include <stddef.h>
#include <stdint.h>

#include "gridcount/grid_count.h"

enum {
    GRID_X_N = 9,
    GRID_X_BAND = 3 * GRID_X_N, /* cells of a band */
};

/* The plan: every first band with box 1 fixed, gathered by key, the keys
 * joined into classes by the maps of the grid that keep the first band and
 * both diagonals (rows 1-3 permuted, columns 1-3 alike and 7-9 in mirror,
 * columns 4 and 6 swapped, the columns reversed: 24 maps, each followed by
 * the relabelling that puts box 1 back). Such a map takes the grids over one
 * first band to those over its image one to one, and bands with one key
 * have the same completions, so every key a class joins (a band's, its
 * images', theirs and so on) shares one count of completions. */
struct grid_x;

/* Enumerates the first bands and builds the classes (a few seconds).
 * Returns NULL when memory runs out. */
struct grid_x *grid_x_new(void);
void grid_x_free(struct grid_x *gx);

uint64_t grid_x_first_bands(const struct grid_x *gx); /* 2,612,736 */
size_t grid_x_keys(const struct grid_x *gx);
size_t grid_x_classes(const struct grid_x *gx);
/* First bands in class k (0-based), and one of them (27 values 1..9,
 * row-major). */
uint64_t grid_x_class_bands(const struct grid_x *gx, size_t k);
void grid_x_class_band(const struct grid_x *gx, size_t k, uint8_t band[GRID_X_BAND]);

/* The class of a first band (values 1..9, row-major, box 1 any order of
 * 1..9: relabelled to 1..9 first), or SIZE_MAX when it breaks a rule of its
 * rows or boxes. */
size_t grid_x_class_of(const struct grid_x *gx, const uint8_t band[GRID_X_BAND]);

/* Working memory for grid_x_completions (some megabytes): one per thread. */
struct grid_x_scratch;
struct grid_x_scratch *grid_x_scratch_new(void); /* NULL: out of memory */
void grid_x_scratch_free(struct grid_x_scratch *s);

/* Sudoku X grids whose first three rows are band (values 1..9, row-major;
 * box 1 need not be 1..9): 0 when the band breaks a rule of its rows or
 * boxes. Threads may count at once, each with its own scratch. */
uint64_t grid_x_completions(struct grid_x_scratch *s, const uint8_t band[GRID_X_BAND]);

#endif /* SUDOLAB_GRIDCOUNT_GRID_SUDOKU_X_H */
