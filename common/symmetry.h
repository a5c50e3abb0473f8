/* Validity-preserving transformations of a puzzle: relabel values, permute
 * rows within bands, bands, columns within stacks, stacks, and transpose
 * (square boxes only). A transformed puzzle has as many solutions as the
 * original, which the tests use as a metamorphic check and the bench driver
 * and the raters use to take cell order out of a measurement (tdoku's
 * protocol). For the diagonal variant only value relabelling and the
 * transformations that map both diagonals onto themselves are used. */
#ifndef SUDOLAB_COMMON_SYMMETRY_H
#define SUDOLAB_COMMON_SYMMETRY_H

#include "common/grid.h"
#include "common/rng.h"

/* A transformation: out cell (r, c) = value_map[in cell (row_map[r], col_map[c])],
 * transposed first when transpose is set. */
struct symmetry {
    uint8_t n;
    uint8_t transpose;
    uint8_t row_map[GRID_MAX_N];
    uint8_t col_map[GRID_MAX_N];
    uint8_t value_map[GRID_MAX_N + 1]; /* value_map[0] = 0 */
};

/* Draws a random transformation for the shape of g. */
void symmetry_random(struct symmetry *s, const struct grid *g, struct rng *rng);
void symmetry_identity(struct symmetry *s, const struct grid *g);
/* out = s applied to in (out may not alias in). */
void symmetry_apply(const struct symmetry *s, const struct grid *in, struct grid *out);
/* Maps a solution of the transformed puzzle back onto the original puzzle. */
void symmetry_invert(const struct symmetry *s, const struct grid *in, struct grid *out);

#endif /* SUDOLAB_COMMON_SYMMETRY_H */
