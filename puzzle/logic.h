/* A solver that uses only the techniques people use, for grading puzzles the
 * way puzzle books do and for hints.
 *
 * It keeps a candidate set per empty cell and applies, always the easiest one
 * that makes progress first: naked single, hidden single, locked candidates
 * (pointing: a box confines a value to one line; claiming: a line confines it
 * to one box), naked pair, hidden pair, naked triple, hidden triple, X-wing,
 * swordfish. Every rule works on any grid size; for the diagonal variant the
 * two diagonals are units like the others (locked candidates then also pair
 * a diagonal with the boxes it crosses). A puzzle is graded by the hardest
 * technique this greedy order needed; when none applies before the grid is
 * full it "needs guessing" (also the verdict for puzzles with several
 * solutions).
 *
 * Free of I/O and of global state: the caller owns the struct logic (it is
 * large, ~170 KB, because of the unit tables) and may keep it across puzzles
 * and across hints. */
#ifndef SUDOLAB_PUZZLE_LOGIC_H
#define SUDOLAB_PUZZLE_LOGIC_H

#include <stdbool.h>
#include <stdint.h>

#include "common/grid.h"
#include "common/units.h"

/* The techniques, easiest first: X(name, label). */
#define LOGIC_TECHNIQUES(X)                                                              \
    X(naked_single, "naked single")                                                      \
    X(hidden_single, "hidden single")                                                    \
    X(pointing, "locked candidates (pointing)")                                          \
    X(claiming, "locked candidates (claiming)")                                          \
    X(naked_pair, "naked pair")                                                          \
    X(hidden_pair, "hidden pair")                                                        \
    X(naked_triple, "naked triple")                                                      \
    X(hidden_triple, "hidden triple")                                                    \
    X(x_wing, "X-wing")                                                                  \
    X(swordfish, "swordfish")

enum logic_technique {
#define X(name, label) LOGIC_##name,
    LOGIC_TECHNIQUES(X)
#undef X
        LOGIC_TECHNIQUE_COUNT,
    LOGIC_NONE = -1,
};

/* "naked_single", ...; "guessing" for LOGIC_TECHNIQUE_COUNT, "none" for LOGIC_NONE. */
const char *logic_technique_name(int technique);
/* "naked single", ... for people. */
const char *logic_technique_label(int technique);
/* The technique named by logic_technique_name (also "guessing", "none");
 * -2 when unknown. */
int logic_parse_technique(const char *name);

enum {
    /* The most candidates one step can remove: a triple or a size-3 fish
     * removes at most 3 * (N - 3). */
    LOGIC_MAX_ELIMS = 3 * GRID_MAX_N,
    LOGIC_MAX_PATTERN = 9, /* cells that make up the pattern (swordfish: 9) */
};

/* One deduction. Singles place `value` at `cell`; the other techniques
 * remove candidates (elim) and place nothing (cell = -1). `unit` is the unit
 * the pattern lives in (units.h numbering; for locked candidates the unit
 * that confines the value, for fish the first base line), `values` the bit
 * set (bit v-1) of the values involved, `pattern` the cells forming it. */
struct logic_step {
    int technique; /* enum logic_technique */
    int cell, value;
    int unit;
    uint32_t values;
    int npattern;
    uint16_t pattern[LOGIC_MAX_PATTERN];
    int nelim;
    struct {
        uint16_t cell;
        uint8_t value;
    } elim[LOGIC_MAX_ELIMS];
};

enum logic_status {
    LOGIC_SOLVED, /* the grid is full: logic alone solves the puzzle */
    LOGIC_STUCK, /* no technique applies: guessing needed (or several solutions) */
    LOGIC_CONTRADICTION, /* some cell or some value has no place left: no solution */
};

struct logic_result {
    enum logic_status status;
    int hardest; /* hardest technique used; LOGIC_TECHNIQUE_COUNT when stuck, LOGIC_NONE
                    when nothing was needed (a full grid) */
    int placed; /* cells filled by logic */
    int empty; /* cells still empty at the end */
    uint32_t used[LOGIC_TECHNIQUE_COUNT]; /* steps taken with each technique */
};

struct logic {
    struct units units;
    struct grid g; /* values placed so far */
    uint32_t
        cand[GRID_MAX_CELLS]; /* candidates of empty cells (bit v-1); 0 when filled */
    uint32_t unit_placed[UNITS_MAX]; /* values placed in each unit */
    uint32_t full; /* bits 0..N-1 */
    int nempty;
    bool contradiction;
    /* locked candidates: unit pairs (a, b) whose intersection has two or
     * more cells, a a box (pointing) or not (claiming) */
    int npairs;
    uint8_t pair[UNITS_MAX * UNITS_MAX][2];
};

/* Loads a grid (clues, or a position in play): candidates from the placed
 * values. Returns false when placed values clash (contradiction set). */
bool logic_load(struct logic *lg, const struct grid *g);
/* Finds the easiest applicable step, not applying it. Returns false when none
 * applies (the grid is full, stuck, or in contradiction). */
bool logic_find(struct logic *lg, struct logic_step *step);
/* Applies a step found by logic_find. */
void logic_apply(struct logic *lg, const struct logic_step *step);
/* Runs find/apply until the grid is full or nothing applies. */
void logic_solve(struct logic *lg, struct logic_result *res);
/* Grades g: logic_load + logic_solve. The final position stays in lg->g. */
void logic_rate(struct logic *lg, const struct grid *g, struct logic_result *res);
/* The hint for a position: the first step logic_find gives from the placed
 * values alone. Returns false when there is none. */
bool logic_hint(struct logic *lg, const struct grid *g, struct logic_step *step);

#endif /* SUDOLAB_PUZZLE_LOGIC_H */
