/* Which instruction-set path a registration of `wide` runs on this CPU, for
 * reports that must say what a time was measured with. */
#ifndef SUDOLAB_SOLVERS_WIDE_H
#define SUDOLAB_SOLVERS_WIDE_H

#include "solvers/solver.h"

/* "avx512", "avx2" or "portable": the path `wide` (the best allowed here) or
 * a forced registration (`wide_avx2` ...) runs, or "unavailable" when this CPU
 * (or SUDOLAB_MAX_SIMD) rules out a forced one. NULL when s is not a
 * registration of wide. */
const char *wide_isa_path(const struct solver *s);

#endif /* SUDOLAB_SOLVERS_WIDE_H */
