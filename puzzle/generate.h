/* Puzzle generation (SPEC section 5): complete grids by randomised
 * backtracking, then clues removed (seed 000, "dig") or seed 003's method, with
 * uniqueness proved through registered back ends and every puzzle verified by
 * a second, different back end before it is handed out.
 *
 * Reproducible: puzzle number i of a run depends only on the options, the seed
 * and i (its random stream is seeded from both), so runs split over threads
 * or shards give the same puzzles. The back ends take part (the second
 * solutions they find steer the search), so the same seed gives the same
 * puzzles with the same back ends; the CLI prints them in its header. No
 * I/O; one struct generator per thread.
 *
 * Levels. dig: easy, medium, hard = 40, 50, 60 holes for 9x9 (the thesis's web
 * appendix). seed003: clue ranges easy 36-45, medium 27-36, hard 17-27 for
 * 9x9. Other sizes keep 9x9's ratio to what one pass of random digging
 * typically leaves (56.5 holes of 81): holes = round(H9 * T(N) / 56.5) and
 * clues = round(C9 * (N*N - T(N)) / 24.5), T measured per size (4x4 11.7,
 * 6x6 25.8, 8x8 44.7, 12x12 96.3, 16x16 162) or fitted. The same share of
 * the cells would do for up to 9x9 (the numbers nearly agree), but asks
 * 16x16 for 190 holes where digging stalls near 162. So 4x4 gets 8/10/12
 * holes, 6x6 18/23/27, 16x16 115/143/172; gen_target gives them. */
#ifndef SUDOLAB_PUZZLE_GENERATE_H
#define SUDOLAB_PUZZLE_GENERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/grid.h"
#include "solvers/solver.h"

enum gen_method {
    GEN_DIG, /* seed 000: remove clues in random order while unique */
    GEN_SEED003, /* seed 003: random clues, fix to unique, move into the level's range */
};

enum gen_level { GEN_EASY, GEN_MEDIUM, GEN_HARD, GEN_LEVEL_COUNT };

struct gen_options {
    int box_rows, box_cols;
    int variant; /* enum grid_variant */
    enum gen_method method;
    enum gen_level level;
    int holes; /* dig: holes wanted (0: from level); with minimal, the least wanted */
    bool symmetric; /* clue pattern keeps 180-degree rotational symmetry */
    bool minimal; /* no clue can be removed (with symmetric: no single clue either) */
    uint64_t seed;
    const struct solver *solver; /* uniqueness while generating (NULL: default) */
    const struct solver
        *verifier; /* the final check; a different back end (NULL: default) */
    uint32_t max_attempts; /* fresh starts per puzzle before giving up (0: default) */
    uint32_t climbs; /* dig: perturbation rounds per grid when short of holes */
    /* With technique_filter, keep only puzzles whose hardest technique
     * (bench/logic.h: LOGIC_NONE .. LOGIC_TECHNIQUE_COUNT = guessing) lies in
     * [min_technique, max_technique], as puzzle books grade. */
    bool technique_filter;
    int min_technique, max_technique;
    /* With se_filter (9x9 classic only), keep only puzzles whose Sudoku
     * Explainer ER (rater/se_rate.h, tenths) lies in [min_se, max_se]. A
     * rating that takes longer than se_budget_ms (0: 60 s) counts as outside
     * the band: only then can the output depend on the machine. */
    bool se_filter;
    int min_se, max_se;
    uint64_t se_budget_ms;
};

/* Work done, summed over the puzzles of one generator. */
struct gen_stats {
    uint64_t puzzles;
    uint64_t rejected; /* puzzles made but outside the technique or SE range */
    uint64_t grids; /* complete grids (dig) or clue sets (seed003) started */
    uint64_t checks; /* uniqueness solves by the generating back end */
    uint64_t shortcuts; /* removals proved safe without a solve (the value was forced) */
    uint64_t climbs; /* dig: perturbation rounds */
    uint64_t verify_ns; /* time in the verifying back end */
};

const char *gen_method_name(enum gen_method m);
const char *gen_level_name(enum gen_level level);
int gen_parse_method(const char *text, enum gen_method *m);
int gen_parse_level(const char *text, enum gen_level *level);

/* What the options ask for on their grid size: dig, the holes (lo == hi, or
 * hi = cells when minimal); seed003, the clue range. */
void gen_target(const struct gen_options *o, int *lo, int *hi);

/* Default back ends for a shape: the generating one is the fastest general
 * one that counts to 2 and handles the shape (mrv, dlx, naive...); the
 * verifier the first other one of dlx, mrv, naive_stack, naive. NULL when
 * none fits. */
const struct solver *gen_default_solver(const struct grid *shape);
const struct solver *gen_default_verifier(
    const struct grid *shape, const struct solver *not_this);

struct generator;

/* Checks the options and opens the back ends. NULL with a reason on failure. */
struct generator *gen_open(const struct gen_options *o, char *why, size_t whylen);
/* Makes puzzle number `index` (and its solution). Returns 0, or -1 when no
 * puzzle was found within max_attempts or a back end failed: gen_error says
 * why. */
int gen_make(
    struct generator *g, uint64_t index, struct grid *puzzle, struct grid *solution);
/* Whether the filters of g's options (the technique range, the SE band) keep
 * puzzle: the decision gen_make takes on each puzzle it makes, open to
 * puzzles rated elsewhere so the filters can be checked against them. A
 * shape g does not make is the caller's mistake. */
bool gen_filters_keep(struct generator *g, const struct grid *puzzle);
const char *gen_error(const struct generator *g);
const struct gen_stats *gen_stats(const struct generator *g);
/* The options in force (defaults filled in). */
const struct gen_options *gen_options(const struct generator *g);
void gen_close(struct generator *g);

#endif /* SUDOLAB_PUZZLE_GENERATE_H */
