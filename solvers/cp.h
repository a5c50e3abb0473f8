/* Constraint propagation without search, for the reasoning ladder (`sudolab
 * levels`) and the tests of solvers/cp.c.
 *
 * The model is the one of the cp_* back ends: a domain (bit set of values)
 * per cell and an alldifferent constraint per unit (rows, columns, boxes and,
 * in the diagonal variant, the two diagonals), propagated with a queue to the
 * fixpoint of all constraints at one of three strengths. */
#ifndef SUDOLAB_SOLVERS_CP_H
#define SUDOLAB_SOLVERS_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "common/grid.h"

/* How strongly each alldifferent is propagated, weakest first. */
enum cp_level {
    CP_LEVEL_FC, /* forward checking: a value fixed in a cell leaves its peers */
    CP_LEVEL_GAC, /* domain consistency (Régin's matching algorithm) */
    CP_LEVEL_SAC, /* GAC plus singleton arc consistency: a value whose trial
                     leads GAC to a contradiction is removed, until none does */
    CP_LEVEL_COUNT
};

/* What propagation alone made of a puzzle. */
enum cp_verdict {
    CP_SOLVED, /* every cell has one value left: the puzzle's only solution */
    CP_CONTRADICTION, /* a cell or a unit ran out of values: no solution */
    CP_OPEN, /* the fixpoint leaves cells with two or more values */
    CP_LIMIT, /* the step budget ran out first: nothing is known */
};

struct cp_propagation {
    enum cp_verdict verdict;
    int open_cells; /* cells with two or more values at the fixpoint (CP_OPEN) */
    uint64_t steps; /* propagator runs, as the cp_* back ends count them */
};

/* Propagates puzzle's clues at `level` to the fixpoint, with no search and at
 * most budget_steps propagator runs (0: no limit), into *out. Clues that
 * break a rule give CP_CONTRADICTION. Returns 0, or -1 when memory ran out. */
int cp_propagate(const struct grid *puzzle, enum cp_level level, uint64_t budget_steps,
    struct cp_propagation *out);

/* The name of a level ("fc", "gac", "sac"), or NULL out of range. */
const char *cp_level_name(enum cp_level level);

enum { CP_ALLDIFF_MAX = 32 };

/* Domain consistency for one alldifferent over nvars variables (at most
 * CP_ALLDIFF_MAX) whose domains are bit sets of up to 32 values: removes from
 * domains[] every value that no assignment of distinct values supports.
 * Returns false when there is no such assignment (the domains are then
 * unspecified). matching[] carries a matching from call to call (value index
 * per variable, -1 for none; any content is accepted and repaired), so that
 * a caller that filters the same constraint again starts from the last one. */
bool cp_alldifferent_gac(int nvars, uint32_t domains[], int8_t matching[]);

#endif /* SUDOLAB_SOLVERS_CP_H */
