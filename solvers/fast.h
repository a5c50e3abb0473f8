/* Which instruction-set path a registration of `fast` runs on this CPU, for
 * reports that must say what a time was measured with. */
#ifndef SUDOLAB_SOLVERS_FAST_H
#define SUDOLAB_SOLVERS_FAST_H

#include "solvers/solver.h"

/* "avx512", "avx2" or "portable": the path fast_init chooses for s (the
 * best one the CPU has for `fast`, the forced one for `fast_avx2` and the
 * like, or the best below it when the CPU lacks it). NULL when s is not a
 * registration of fast. */
const char *fast_isa_path(const struct solver *s);

#endif /* SUDOLAB_SOLVERS_FAST_H */
