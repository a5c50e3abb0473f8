/* Difficulty on HoDoKu's scale: a score and a level (easy, medium, hard,
 * unfair, extreme), computed HoDoKu's way from its published defaults
 * (its Options.DEFAULT_SOLVER_STEPS and DEFAULT_DIFFICULTY_LEVELS):
 * every step of the solving path adds its technique's base score; the
 * puzzle's level is the highest level among its steps' techniques, raised
 * while the score exceeds that level's maximum (easy 800, medium 1000, hard
 * 1600, unfair 1800, extreme no maximum).
 *
 * What differs from HoDoKu itself: the path is Sudoku Explainer's
 * (rater/se_rate.h), in SE's order of techniques and with SE's set, each
 * step scored as the HoDoKu technique nearest to it (hodoku_technique_of).
 * HoDoKu tries full house, naked single, then hidden single, and has
 * techniques SE lacks (skyscraper, empty rectangle, coloring, ALS chains,
 * finned and Franken fish...) that would make some paths shorter and cheaper;
 * SE's aligned exclusions and wings past XYZ have no HoDoKu twin and are
 * scored as the ALS steps closest to them. A puzzle rated from singles alone
 * gets HoDoKu's scores of those singles, but in SE's order.
 *
 * Only 9x9 classic grids; free of I/O and global state. */
#ifndef SUDOLAB_RATER_HODOKU_H
#define SUDOLAB_RATER_HODOKU_H

#include <stdint.h>

#include "common/grid.h"
#include "rater/se_rate.h"

enum hodoku_level {
    HODOKU_EASY = 1,
    HODOKU_MEDIUM,
    HODOKU_HARD,
    HODOKU_UNFAIR,
    HODOKU_EXTREME,
};

/* "easy", "medium", "hard", "unfair", "extreme". */
const char *hodoku_level_name(enum hodoku_level level);

/* The HoDoKu technique an SE step is scored as. */
struct hodoku_technique {
    const char *name; /* HoDoKu's name */
    int score; /* its base score */
    enum hodoku_level level;
    /* SE's direct techniques place the digit their pattern leaves alone in a
     * unit: HoDoKu takes that as a second step, a hidden single */
    int hidden_single_too;
};

const struct hodoku_technique *hodoku_technique_of(enum se_technique t);

/* HoDoKu's level of a path whose steps score `score` in all: `highest`, the
 * highest level among the steps' techniques, raised while the score exceeds
 * that level's maximum. */
enum hodoku_level hodoku_level_for(enum hodoku_level highest, int score);

struct hodoku_rating {
    enum se_verdict verdict; /* SE_RATED: score and level hold the rating;
                                SE_BEYOND: the path stopped, HoDoKu's "give
                                up" (20000, extreme) ends it */
    int score;
    enum hodoku_level level;
    const char *hardest; /* HoDoKu's name of the technique that set the level
                            (the highest level, then the highest score) */
    int hardest_score; /* its base score */
    int steps; /* HoDoKu's count: SE's direct steps count twice */
};

/* Rates g (givens only) with rater rt (rater/se_rate.h) within deadline_ns
 * (clock_now_ns's clock; 0: none). se, when not NULL, gets SE's rating of
 * the same path. */
void hodoku_rate_within(struct se_rater *rt, const struct grid *g, uint64_t deadline_ns,
    struct hodoku_rating *out, struct se_rating *se);

#endif /* SUDOLAB_RATER_HODOKU_H */
