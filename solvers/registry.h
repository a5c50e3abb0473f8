/* The registry: the only place that lists the back ends. */
#ifndef SUDOLAB_SOLVERS_REGISTRY_H
#define SUDOLAB_SOLVERS_REGISTRY_H

#include <stddef.h>

#include "config.h"
#include "solvers/solver.h"

extern const struct solver solver_naive;
extern const struct solver solver_naive_stack;
extern const struct solver solver_moler;
extern const struct solver solver_moler_exm;
extern const struct solver solver_mrv;
extern const struct solver solver_mrv_plain;
extern const struct solver solver_dlx;
extern const struct solver solver_fast;
extern const struct solver solver_fast_portable;
extern const struct solver solver_fast_avx2;
extern const struct solver solver_fast_avx512;
#if HAVE_SAT
extern const struct solver solver_sat;
extern const struct solver solver_sat_assume;
#endif
#if HAVE_MILP
extern const struct solver solver_milp;
#endif

/* NULL-terminated; entry 0 (naive) is the reference implementation. */
extern const struct solver *const solver_registry[];

size_t solver_count(void);
const struct solver *solver_find(const char *name);
/* The back end used when none is named: the fastest general one built. */
const struct solver *solver_default(void);
/* Shell-style wildcard match ('*', '?'), as used by --solver and --solvers. */
int solver_name_matches(const char *pattern, const char *name);

#endif /* SUDOLAB_SOLVERS_REGISTRY_H */
