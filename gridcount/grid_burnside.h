/* Essentially different complete grids by Burnside's lemma, for the shapes
 * whose fixed grids a plain search reaches (4x4 and 6x6).
 *
 * Two grids are the same in essence when one becomes the other by the
 * validity-preserving geometry (permuting bands, rows within a band, stacks,
 * columns within a stack, and transposing when the boxes are square) and a
 * relabelling of the digits. Burnside's lemma: the number of classes is the
 * mean over the geometric group G of the grids that g maps to a relabelling
 * of themselves. A grid fixed that way by g fixes one relabelling sigma, and
 * which grids are fixed by (g, sigma) depends on sigma only through its cycle
 * type, so
 *
 *   classes = (1 / |G|) * sum over g in G, over cycle types c of S_N,
 *             of |c| * #{grids X : g(X) = sigma_c(X)}.
 *
 * Each term is a search over grids whose cells follow g's cycles; the term of
 * the identity with the identity is the total of grid_count.h. */
#ifndef SUDOLAB_PUZZLE_GRID_BURNSIDE_H
#define SUDOLAB_PUZZLE_GRID_BURNSIDE_H

#include <stdint.h>

#include "gridcount/grid_count.h"

struct grid_burnside {
    uint64_t group; /* |G| */
    uint64_t fixing; /* pairs (g, cycle type) with at least one fixed grid */
    grid_count_u128 fixed; /* the sum of |c| * fixed grids over g and c */
    grid_count_u128 classes; /* fixed / group */
};

/* Counts the essentially different grids of box_rows x box_cols boxes (N at
 * most 6); total is the number of all grids (grid_count.h), the identity's
 * term. Returns 0, or -1 with why for a shape out of its reach or a sum
 * that |G| does not divide (which would be a bug). */
int grid_burnside_count(int box_rows, int box_cols, grid_count_u128 total,
    struct grid_burnside *out, char *why, size_t whylen);

#endif /* SUDOLAB_PUZZLE_GRID_BURNSIDE_H */
