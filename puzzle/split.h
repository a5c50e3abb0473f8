/* Counting split into subproblems, for count --shard, count -j and the work
 * units of sudolab-mpi.
 *
 * A puzzle is split by filling its first empty cells (row-major) in every way
 * the clues allow: the subproblems at depth d are the consistent fillings of
 * the first d empty cells, in lexicographic order, and d is the smallest depth
 * giving at least `min` of them. Their solution counts add up to the puzzle's.
 * The depth depends on the puzzle and `min` only, not on the number of shards,
 * so a run split four ways and one split forty ways solve the very same
 * subproblems. Subproblems are numbered over all puzzles of the run in input
 * order; number g belongs to shard (g mod N) + 1. */
#ifndef SUDOLAB_PUZZLE_SPLIT_H
#define SUDOLAB_PUZZLE_SPLIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/grid.h"
#include "solvers/solver.h"

enum {
    SHARD_SPLIT_DEFAULT = 256, /* subproblems per puzzle, at least (when there are) */
};

struct shard_split {
    int depth; /* cells filled per subproblem */
    uint16_t cell[GRID_MAX_CELLS]; /* those cells: the first `depth` blanks */
    size_t count; /* subproblems (0: the clues admit none) */
    uint8_t *values; /* count x depth values, subproblem-major */
    size_t cap; /* bytes allocated in values */
};

/* Splits a puzzle with consistent clues into at least min subproblems where
 * it can (fewer when even filling every blank gives fewer). The split keeps
 * its buffer between calls: zero it once, free it with shard_split_free.
 * Returns 0, or -1 when out of memory. */
int shard_split_make(struct shard_split *sp, const struct grid *puzzle, size_t min);
/* Subproblem i of puzzle: a copy with the first depth blanks filled. */
void shard_split_apply(
    const struct shard_split *sp, const struct grid *puzzle, size_t i, struct grid *out);
void shard_split_free(struct shard_split *sp);

/* What solving some subproblems of one puzzle gave, in a form that adds up. */
struct shard_tally {
    uint64_t solved; /* subproblems solved */
    uint64_t solutions; /* each subproblem's count (up to the limit), summed */
    struct solver_counters counters;
    uint64_t time_ns;
    bool budget; /* a subproblem hit a budget: solutions is a lower bound */
    bool error; /* a subproblem failed; error says how */
    bool have_first; /* first: the first solution of subproblem first_sub, the */
    uint64_t first_sub; /* lowest-numbered one with a solution */
    struct grid first;
    char error_text[160];
};

/* Adds the result of subproblem number sub (numbered within its puzzle). */
void shard_tally_add(struct shard_tally *t, uint64_t sub, const struct solve_result *res);
/* Adds another tally of the same puzzle. */
void shard_tally_merge(struct shard_tally *into, const struct shard_tally *from);
/* The puzzle's result from a complete tally, as solver_run would state it:
 * solutions capped at limit, status from the count. */
void shard_tally_result(
    const struct shard_tally *t, uint64_t limit, struct solve_result *out);

#endif /* SUDOLAB_PUZZLE_SPLIT_H */
