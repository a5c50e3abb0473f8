/* Essentially different complete grids by Burnside's lemma, one conjugacy
 * class of the geometric group at a time, for shapes up to 9x9.
 *
 * The geometry G is the line group of the rows (bands permuted, rows within
 * each band permuted: a wreath product W_r) times that of the columns (W_c),
 * and, when the boxes are square, the transpose. With Burnside's lemma over
 * G x S_N (the relabellings),
 *
 *   essentially different grids = (1 / (|G| N!)) * sum over g in G of
 *                                 fix(g),
 *   fix(g) = #{grids X : g(X) is a relabelling of X},
 *
 * since g(X) determines the relabelling sigma with g(X) = sigma(X) when one
 * exists. fix is constant on conjugacy classes, so one representative per
 * class is searched:
 *
 *   - without transposing, the classes of G are pairs (row class, column
 *     class) of the two line groups; with square boxes the transpose makes
 *     (a, b) and (b, a) one class (the same fixed grids, transposed);
 *   - a transposing map (a, b, transpose) squares to (b a, a b), and its
 *     class is that of the product a b in W: the representative is (c, 1,
 *     transpose) for each class c of W, and the class has |W| |c| elements.
 *
 * fix(g) is invariant under relabelling X (g(tX) = t sigma t^-1 (tX)), which
 * acts freely, so fix(g) = N! * (the grids counted with the first row
 * 1..N). Those are found by a search over cells in which placing a digit
 * also forces digits along g's cycle of cells once sigma is known, and
 * learns sigma where the cycle meets a placed digit; every grid fixed by some
 * sigma is found once. The identity's term is the total (grid_count.h). */
#ifndef SUDOLAB_PUZZLE_GRID_ESSENTIAL_H
#define SUDOLAB_PUZZLE_GRID_ESSENTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gridcount/grid_count.h"

enum { GRID_ESSENTIAL_MAX_N = 9 };

/* One conjugacy class of G: a representative (rows: the row that row r of
 * g(X) reads, likewise cols; flip: g(X)[r][c] reads X[cols[c]][rows[r]]). */
struct grid_essential_class {
    uint8_t rows[GRID_ESSENTIAL_MAX_N], cols[GRID_ESSENTIAL_MAX_N];
    bool flip;
    uint64_t size; /* elements of G in the class */
    bool identity;
    bool counted; /* fixed is known (the identity: once the total is set) */
    grid_count_u128 fixed; /* fix(g) of each element */
    uint64_t nodes; /* search nodes spent on it */
};

struct grid_essential;

/* The classes of G for boxes of box_rows x box_cols (N at most 9). Returns
 * NULL with why for another shape or when memory runs out. */
struct grid_essential *grid_essential_new(
    int box_rows, int box_cols, char *why, size_t whylen);
void grid_essential_free(struct grid_essential *ge);

uint64_t grid_essential_group(const struct grid_essential *ge); /* |G| */
size_t grid_essential_classes(const struct grid_essential *ge);
const struct grid_essential_class *grid_essential_class_at(
    const struct grid_essential *ge, size_t k);

/* Counts class k's fixed grids, giving up after max_nodes search nodes (0:
 * no limit). The identity takes total, the number of all grids. Returns
 * whether the class is counted. Different classes may be counted on
 * different threads at once. */
bool grid_essential_count(
    struct grid_essential *ge, size_t k, grid_count_u128 total, uint64_t max_nodes);

/* Counts class k by the band join only (what grid_essential_count falls
 * back on): for a map that keeps every band, or with square boxes every
 * stack, sigma is fixed to each cycle type in turn, each band's solutions
 * are searched alone and counted by their column sets, and the bands are
 * joined where they take every column of every stack once per digit.
 * Returns false for a map that moves both bands and stacks (or transposes),
 * or when memory runs out. */
bool grid_essential_count_by_bands(struct grid_essential *ge, size_t k);

/* Counts class k by the band join as grid_essential_count_by_bands does,
 * but each band's solutions by their column sets instead of one by one:
 * every choice of column sets that the map sends to sigma of themselves,
 * weighted by the bands that order them into rows under the map, that
 * weight searched once per class of column sets under the relabellings
 * commuting with sigma. grid_essential_count turns to it for a band whose
 * listing grows long (g swapping the columns of every stack of 8x8 makes
 * tens of millions of bands). Returns false where the band join does not
 * apply, or when memory runs out. */
bool grid_essential_count_by_column_sets(struct grid_essential *ge, size_t k);

/* Counts class k by the column sets, as grid_essential_count falls back on
 * when its search gives up (after the band join, or before it when g keeps
 * the columns):
 *   - a map that moves bands, or keeps a band row by row and column by
 *     column (boxes with at least as many rows as columns):
 *     each orbit of bands is one representative band, the others its images
 *     under g; a representative that g^k (k: the orbit's length) maps
 *     onto itself row by row and column by column is any band, counted by
 *     the orders of its column sets (grid_count.h), and the others are
 *     searched alone under g^k; the orbits are joined where every column
 *     takes each digit once, sigma fixed to each cycle type in turn;
 *   - the transpose that keeps the rows (square boxes): sigma is an
 *     involution of one cycle type and the first box is fixed by its
 *     centraliser, so fix = N! * the grids on and above the diagonal, built
 *     box by box from the column sets above them.
 * Returns false for another map, or when memory runs out. */
bool grid_essential_count_by_orbits(struct grid_essential *ge, size_t k);

/* The lemma's sum: sum of size * fixed over the classes into *sum and the
 * quotient by |G| N! into *classes. Returns 0, or -1 with why when a class
 * is not counted (naming it) or |G| N! does not divide the sum. */
int grid_essential_sum(const struct grid_essential *ge, grid_count_u128 *sum,
    grid_count_u128 *classes, char *why, size_t whylen);

/* The representative in words, e.g. "rows (1 2 3) cols (4 7)(5 8)(6 9)" or
 * "transpose, rows (1 4 7)(2 5 8)(3 6 9)"; lines are counted from 1. */
void grid_essential_describe(
    const struct grid_essential_class *c, int n, char *out, size_t outlen);

#endif /* SUDOLAB_PUZZLE_GRID_ESSENTIAL_H */
