/* Counting every complete grid of a shape exactly, by band reduction.
 *
 * The grid is counted in the orientation whose boxes have at least as many
 * rows as columns (a 2x4 grid is counted as its transpose, 4x2: transposing
 * maps grids to grids one to one). Then a band (R rows of boxes R x C) has
 * R stacks of C columns, and the grid has C bands; 2 and 3 bands are handled
 * (shapes 2x2, 2x3, 2x4, 2x5 and 3x3).
 *
 * What a first band leaves to the rest of the grid is only its column sets:
 * the other bands meet it in columns alone. Up to relabelling the digits,
 * those column sets are a profile: for each digit, its column within each
 * stack (its "type"), and the profile X counts the digits of each type.
 * Permuting stacks and columns within stacks maps grids to grids, so the
 * profiles fall into classes that share every count. For a class:
 *
 *   orbit        profiles in the class
 *   labels       N! / prod X_t!: column-set configurations with profile X
 *   orders       ways to order each column's digits into the band's rows so
 *                that every row holds each digit once: bands per configuration
 *   bands        orbit * labels * orders: first bands in the class
 *   completions  grids that complete one such first band
 *
 * and the total is the sum over classes of bands * completions. With two
 * bands, the second band's column sets are the complements of the first's,
 * whose profile is in the same class: completions = orders. With three, the
 * middle band's column sets T avoid the first's; each stack leaves 56 choices
 * for them, so completions = sum over the 56^3 choices of
 * orders(T) * orders(third band's sets), each looked up by its class.
 *
 * All counts are exact (unsigned 128-bit). Standard grids, and the diagonal
 * variant of the small shapes by grid_count_diagonal below. */
#ifndef SUDOLAB_PUZZLE_GRID_COUNT_H
#define SUDOLAB_PUZZLE_GRID_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/grid.h"

typedef unsigned __int128 grid_count_u128;

enum {
    GRID_COUNT_MAX_N = 10, /* 2x5 boxes */
    GRID_COUNT_MAX_BAND = 5 * GRID_COUNT_MAX_N, /* cells of a band */
    GRID_COUNT_U128_DIGITS = 40, /* decimal digits of 2^128 - 1, and a NUL */
};

/* One class of first-band profiles and its factors (see above). */
struct grid_count_class {
    uint64_t orbit;
    uint64_t labels;
    uint64_t orders; /* valid once orders_known */
    bool orders_known;
    /* A first band of the class (R rows of N values 1..N, row-major, in the
     * counted orientation), found with its orders. */
    uint8_t band[GRID_COUNT_MAX_BAND];
};

/* The plan of a count: the shape, every profile and the classes. */
struct grid_count;

/* Builds the plan for boxes of box_rows x box_cols. Returns NULL with the
 * reason in why for a shape it does not handle, or when memory runs out. */
struct grid_count *grid_count_new(int box_rows, int box_cols, char *why, size_t whylen);
void grid_count_free(struct grid_count *gc);

/* The counted orientation: box rows and columns (R >= C), the number of
 * bands (C) and whether that is the transpose of the shape asked for. */
int grid_count_rows(const struct grid_count *gc);
int grid_count_cols(const struct grid_count *gc);
bool grid_count_transposed(const struct grid_count *gc);
size_t grid_count_profiles(const struct grid_count *gc);
size_t grid_count_classes(const struct grid_count *gc);
/* Class k (0-based) of the plan. */
const struct grid_count_class *grid_count_class_at(const struct grid_count *gc, size_t k);

/* Counts the orders of class k (a small search) and keeps them in the class.
 * Different classes may be counted on different threads at once. */
uint64_t grid_count_orders(struct grid_count *gc, size_t k);

/* True when completions need the orders of every class first (three bands). */
bool grid_count_needs_all_orders(const struct grid_count *gc);

/* The completions of one first band of class k. With three bands every
 * class's orders must be known (grid_count_orders); reads the plan only, so
 * threads may count different classes at once. */
grid_count_u128 grid_count_completions(const struct grid_count *gc, size_t k);

/* Orders of one band of the counted orientation whose digit d (0-based)
 * sits in column cols[s][d] (0..C-1) of stack s, looked up by its class: 0
 * when no band has those column sets. Every class's orders must be known
 * (grid_count_orders). */
uint64_t grid_count_orders_of(
    const struct grid_count *gc, const int8_t cols[][GRID_COUNT_MAX_N]);

/* Completions of a partly given grid of the plan's shape (as asked, before
 * any transposing; standard variant): its first band in the counted
 * orientation complete, and every other box either complete or blank. Boxes
 * given in later bands fix those bands' column sets and row orders there.
 * Every class's orders must be known (grid_count_orders): the search
 * looks them up. Returns 0 and the count in *out, or -1 with the reason in
 * why. */
int grid_count_completions_of(const struct grid_count *gc, const struct grid *g,
    grid_count_u128 *out, char *why, size_t whylen);

/* Knuth's estimate of the search nodes that counting the orders of class k
 * takes (the mean of `probes` random descents, seeded by seed), without
 * running the search: for planning shapes whose count is out of reach. */
double grid_count_orders_nodes_estimate(
    const struct grid_count *gc, size_t k, unsigned probes, uint64_t seed);

/* Diagonal grids (both main diagonals hold every digit too) of the two-band
 * shapes up to 6x6. Relabelling keeps the diagonals, so the first row is
 * 1..N and the total is N! times the grids with that row. Transposing keeps
 * them too, so the count runs on the orientation with two bands: every first
 * band is enumerated, and the second band is searched from the first's
 * column sets and diagonal digits. */
struct grid_count_diagonal {
    uint64_t relabellings; /* N! */
    uint64_t first_bands; /* first bands with the first row 1..N and distinct
                           * digits on each diagonal */
    uint64_t diagonal_bands; /* ... that at least one second band completes */
    grid_count_u128 completions; /* grids with the first row 1..N */
    grid_count_u128 total; /* relabellings * completions */
};

/* Counts them into *out. Returns 0, or -1 with why for another shape. */
int grid_count_diagonal(int box_rows, int box_cols, struct grid_count_diagonal *out,
    char *why, size_t whylen);

/* Writes v in decimal into out (GRID_COUNT_U128_DIGITS bytes). */
void grid_count_u128_format(grid_count_u128 v, char out[GRID_COUNT_U128_DIGITS]);

#endif /* SUDOLAB_PUZZLE_GRID_COUNT_H */
