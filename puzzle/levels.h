/* The reasoning ladder (`sudolab levels`, issue 32): for each puzzle and
 * each family of reasoning, the weakest level that solves it with no search.
 *
 *   human  singles (naked and hidden), intersections (pointing, claiming),
 *          subsets (naked and hidden pairs and triples) and fish (X-wing,
 *          swordfish): the logic solver's techniques (puzzle/logic.h) in
 *          four classes. Its rules only remove candidates and it takes the
 *          easiest that progresses, so the hardest class it used is the
 *          weakest that solves the puzzle. Beyond them, Sudoku Explainer's
 *          ER (rater/se_rate.h) in its bands: se_patterns below 6.5 (wings,
 *          jellyfish, uniqueness, aligned pairs), se_chains below 8.5
 *          (cycles, forcing chains, Nishio, multiple chains), se_dynamic
 *          below 9.5, se_nested any rating; these count as solved when the
 *          logic solver solves or ER lies below the band's top, and need
 *          9x9 (other sizes: n/a).
 *   cp     constraint propagation on the alldifferent model (solvers/cp.h):
 *          fc (forward checking), gac (domain consistency), sac (singleton
 *          arc consistency, Simonis's shaving), in that order.
 *   sat    propagation on the CNF encodings (solvers/cnf.h) with
 *          solvers/cnf_prop.h: unit propagation, failed literals and
 *          hyper-binary resolution, each on the minimal, efficient and
 *          extended encoding, in the order LEVELS_SAT lists.
 *
 * A level solves a puzzle when its fixpoint places every cell: each cell has
 * exactly one value true (sat), or SE's path ends with a full grid. Every
 * level of every family is run on every puzzle, so the share of puzzles each
 * one solves on its own is known; the family's level is the first that
 * solves, unless a level before it ran out of budget (then "limit": that one
 * might have solved it). Free of I/O; one struct levels per thread. */
#ifndef SUDOLAB_PUZZLE_LEVELS_H
#define SUDOLAB_PUZZLE_LEVELS_H

#include <stdint.h>

#include "common/grid.h"
#include "puzzle/logic.h"
#include "rater/se_rate.h"

/* X(id, top): the human levels, weakest first; top is the ER (tenths) that
 * an SE band stays below, 0 for the logic solver's classes. */
#define LEVELS_HUMAN(X)                                                                  \
    X(singles, 0)                                                                        \
    X(intersections, 0)                                                                  \
    X(subsets, 0)                                                                        \
    X(fish, 0)                                                                           \
    X(se_patterns, 65)                                                                   \
    X(se_chains, 85)                                                                     \
    X(se_dynamic, 95)                                                                    \
    X(se_nested, 1000)

enum levels_human {
#define X(id, top) LEVELS_HUMAN_##id,
    LEVELS_HUMAN(X)
#undef X
        LEVELS_HUMAN_COUNT
};

/* X(id, method, encoding): the SAT levels in ladder order. */
#define LEVELS_SAT(X)                                                                    \
    X(up_min, CNF_PROP_UNIT, CNF_MINIMAL)                                                \
    X(up_eff, CNF_PROP_UNIT, CNF_EFFICIENT)                                              \
    X(up_ext, CNF_PROP_UNIT, CNF_EXTENDED)                                               \
    X(fl_min, CNF_PROP_FAILED, CNF_MINIMAL)                                              \
    X(fl_eff, CNF_PROP_FAILED, CNF_EFFICIENT)                                            \
    X(fl_ext, CNF_PROP_FAILED, CNF_EXTENDED)                                             \
    X(hbr_min, CNF_PROP_HBR, CNF_MINIMAL)                                                \
    X(hbr_eff, CNF_PROP_HBR, CNF_EFFICIENT)                                              \
    X(hbr_ext, CNF_PROP_HBR, CNF_EXTENDED)

enum levels_sat {
#define X(id, method, encoding) LEVELS_SAT_##id,
    LEVELS_SAT(X)
#undef X
        LEVELS_SAT_COUNT
};

/* The CP levels are solvers/cp.h's enum cp_level, weakest first. */
enum { LEVELS_CP_COUNT = 3 };

/* What one level made of a puzzle. */
enum levels_outcome {
    LEVELS_SOLVED, /* every cell placed */
    LEVELS_OPEN, /* the fixpoint leaves cells open: search needed */
    LEVELS_NO_SOLUTION, /* a contradiction: the puzzle has no solution */
    LEVELS_LIMIT, /* the budget ran out first */
    LEVELS_NOT_RUN, /* the level does not apply (SE off 9x9) */
    LEVELS_OUTCOME_COUNT
};

/* "yes", "no", "unsat", "limit", "n/a". */
const char *levels_outcome_name(enum levels_outcome o);

enum {
    /* A family's verdict besides a level index: */
    LEVELS_NONE = -1, /* no level solves it */
    LEVELS_FAMILY_LIMIT = -2, /* a level ran out before one solved it */
    LEVELS_FAMILY_UNSAT = -3, /* a level found that it has no solution */
    LEVELS_FAMILY_NOT_RUN = -4,
};

struct levels_result {
    enum levels_outcome human[LEVELS_HUMAN_COUNT];
    enum levels_outcome cp[LEVELS_CP_COUNT];
    enum levels_outcome sat[LEVELS_SAT_COUNT];
    /* the family's: a level index or LEVELS_ (< 0) */
    int human_level, cp_level, sat_level;
    struct se_rating se; /* SE's rating of the path */
    struct logic_result logic; /* the logic solver's grade (puzzle/logic.h) */
    uint64_t cp_steps[LEVELS_CP_COUNT]; /* propagator runs each level took */
    uint64_t sat_steps[LEVELS_SAT_COUNT]; /* propagations each level took */
};

/* Names: "singles"..., "fc"..., "up_min"...; for a family's verdict, the
 * level's name or "none", "limit", "unsat", "n/a". */
const char *levels_human_name(int level);
const char *levels_cp_name(int level);
const char *levels_sat_name(int level);

struct levels_budget {
    uint64_t sat_steps; /* per SAT level and puzzle; 0: none */
    uint64_t cp_steps; /* propagator runs per CP level and puzzle; 0: none */
    uint64_t se_ms; /* SE's path per puzzle, the thread's CPU time; 0: none */
};

struct levels;

/* NULL when out of memory. */
struct levels *levels_new(void);
void levels_free(struct levels *lv);
/* Runs every level on g (clues that clash are the caller's to reject).
 * Returns 0, or -1 when out of memory. */
int levels_run(struct levels *lv, const struct grid *g,
    const struct levels_budget *budget, struct levels_result *out);

#endif /* SUDOLAB_PUZZLE_LEVELS_H */
