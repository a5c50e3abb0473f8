/* Difficulty raters (SPEC section 6): seed 004's blank count and degree of
 * freedom with their levels, search effort (tdoku's mean log(guesses + 1) over
 * random validity-preserving permutations) and the hardest human technique
 * (bench/logic.h). No I/O: the CLI and the future web page format the values.
 *
 * Seed 004 defines its two measures and levels for 9x9; they are computed the
 * same way for every size (box = the cell's box; the diagonals of the
 * diagonal variant are not counted), and the level tables are applied
 * unchanged, so other sizes mostly fall outside them (level 0). */
#ifndef SUDOLAB_PUZZLE_RATE_H
#define SUDOLAB_PUZZLE_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/grid.h"
#include "puzzle/logic.h"
#include "rater/hodoku.h"
#include "rater/se_rate.h"
#include "solvers/solver.h"

/* Blank cells. */
int rate_blanks(const struct grid *g);
/* Seed 004: 40-45 -> 1, 46-50 -> 2, 51-55 -> 3, 56-60 -> 4, 61-65 -> 5, else 0. */
int rate_blanks_level(int blanks);
/* Seed 004: the sum over blank cells of the blanks in its row and in its
 * column (each counting the cell itself) and in its box (not counting it). */
int rate_freedom(const struct grid *g);
/* Seed 004: 1-720 -> 1, 721-840 -> 2, 841-960 -> 3, 961-1080 -> 4,
 * 1081-2105 -> 5, else 0. */
int rate_freedom_level(int freedom);

enum rate_method {
    RATE_BLANKS = 1u << 0,
    RATE_FREEDOM = 1u << 1,
    RATE_GUESSES = 1u << 2,
    RATE_TECHNIQUES = 1u << 3,
    RATE_ALL = RATE_BLANKS | RATE_FREEDOM | RATE_GUESSES | RATE_TECHNIQUES,
    RATE_SE = 1u << 4, /* Sudoku Explainer's ER/EP/ED (rater/se_rate.h); not in all */
    RATE_HODOKU = 1u << 5, /* HoDoKu's score and level (rater/hodoku.h); not in all */
};

/* Parses "blanks", "freedom,techniques", "all"... into RATE_ bits; -1 when a
 * name is unknown. */
int rate_parse_methods(const char *text, unsigned *methods);
/* "blanks,guesses": the names of the methods in `methods`. */
void rate_method_names(char *out, size_t len, unsigned methods);

struct rate_values {
    int blanks, blanks_level;
    int freedom, freedom_level;
    double guesses; /* mean of ln(guesses + 1) over the permutations */
    double guesses_raw; /* mean guesses */
    uint64_t time_ns; /* mean time of those solves */
    int guesses_status; /* enum solve_status of the solves: unique, multiple, limit... */
    struct logic_result logic;
    struct se_rating se;
    struct hodoku_rating hodoku;
};

struct rater {
    unsigned methods;
    int permutations; /* for RATE_GUESSES */
    uint64_t seed; /* permutations come from seed and the puzzle's cells */
    uint64_t budget_steps; /* per solve; 0 = none */
    uint64_t budget_ms; /* per solve (wall time) and per SE rating (the rating
                         * thread's CPU time: rater/se_rate.h); 0 = none */
    const struct solver *solver;
    struct solver_instance *inst;
    struct logic *logic;
    struct se_rater *se; /* for RATE_SE and RATE_HODOKU */
};

/* The back end for search effort: `mrv` when registered, else the default,
 * provided it reports guesses and can count to 2. NULL when none fits. */
const struct solver *rate_guess_solver(void);

/* Opens a rater (solver may be NULL: rate_guess_solver()). Returns 0, or -1
 * with a reason. */
int rater_open(struct rater *r, unsigned methods, const struct solver *solver,
    int permutations, uint64_t seed, char *why, size_t whylen);
/* Rates g with the rater's methods; the others are left zero. */
void rater_rate(struct rater *r, const struct grid *g, struct rate_values *v);
void rater_close(struct rater *r);

/* Formats the values of `methods` as " key=value" fields (csv: ",value" cells
 * in rate_csv_header's order); the same puzzle and seed give the same text
 * (time_ns is left out). Returns the length written (truncated like
 * snprintf). */
int rate_format(
    char *out, size_t len, const struct rate_values *v, unsigned methods, bool csv);
/* The CSV column names of `methods`, each led by a comma. */
int rate_csv_header(char *out, size_t len, unsigned methods);

#endif /* SUDOLAB_PUZZLE_RATE_H */
