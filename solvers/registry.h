/* The registry: the only place that lists the back ends. */
#ifndef SUDOLAB_SOLVERS_REGISTRY_H
#define SUDOLAB_SOLVERS_REGISTRY_H

#include <stddef.h>

#include "config.h"
#include "solvers/solver.h"

/* The back ends, one line each, in the order of `sudolab list`: their
 * declarations and solver_registry both come from this list (kissat's
 * X-macro), so a new back end is one file and one X(name) here. naive comes
 * first: the reference, the simplest and the easiest to trust. */
#define SOLVER_REGISTRY_BUILTIN(X)                                                       \
    X(naive)                                                                             \
    X(naive_stack)                                                                       \
    X(moler)                                                                             \
    X(moler_exm)                                                                         \
    X(mrv)                                                                               \
    X(mrv_plain)                                                                         \
    X(dlx)                                                                               \
    X(cp_fc)                                                                             \
    X(cp_gac)                                                                            \
    X(cp_sac)                                                                            \
    X(fast)                                                                              \
    X(fast_portable)                                                                     \
    X(fast_avx2)                                                                         \
    X(fast_avx512)                                                                       \
    X(wide)                                                                              \
    X(wide_portable)                                                                     \
    X(wide_avx2)                                                                         \
    X(wide_avx512)                                                                       \
    X(wide_restart)                                                                      \
    X(auto)                                                                              \
    X(anneal)                                                                            \
    X(acs)

/* Back ends that need a library the build may lack (meson sets HAVE_*). */
#if HAVE_SAT
#define SOLVER_REGISTRY_SAT(X) X(sat) X(sat_assume) X(sat_min) X(sat_eff)
#else
#define SOLVER_REGISTRY_SAT(X)
#endif
#if HAVE_MILP
#define SOLVER_REGISTRY_MILP(X) X(milp)
#else
#define SOLVER_REGISTRY_MILP(X)
#endif

#if HAVE_GECODE
#define SOLVER_REGISTRY_GECODE(X) X(gecode)
#else
#define SOLVER_REGISTRY_GECODE(X)
#endif

#define SOLVER_REGISTRY(X)                                                               \
    SOLVER_REGISTRY_BUILTIN(X)                                                           \
    SOLVER_REGISTRY_SAT(X) SOLVER_REGISTRY_MILP(X) SOLVER_REGISTRY_GECODE(X)

#define SOLVER_DECLARE(name) extern const struct solver solver_##name;
SOLVER_REGISTRY(SOLVER_DECLARE)
#undef SOLVER_DECLARE

/* NULL-terminated; entry 0 (naive) is the reference implementation. */
extern const struct solver *const solver_registry[];

size_t solver_count(void);
const struct solver *solver_find(const char *name);
/* The back end used when none is named: the fastest general one built. */
const struct solver *solver_default(void);
/* Shell-style wildcard match ('*', '?'), as used by --solver and --solvers. */
int solver_name_matches(const char *pattern, const char *name);

#endif /* SUDOLAB_SOLVERS_REGISTRY_H */
