/* Which instruction-set path a registration of `fast` runs on this CPU, for
 * reports that must say what a time was measured with. */
#ifndef SUDOLAB_SOLVERS_FAST_H
#define SUDOLAB_SOLVERS_FAST_H

#include "solvers/solver.h"

/* "avx512", "avx2" or "portable": the path fast_init chooses for s (the
 * best one allowed here for `fast`, the forced one for `fast_avx2` and the
 * like), or "unavailable" when this CPU (or SUDOLAB_MAX_SIMD) rules out a
 * forced one. NULL when s is not a registration of fast. */
const char *fast_isa_path(const struct solver *s);

#endif /* SUDOLAB_SOLVERS_FAST_H */
