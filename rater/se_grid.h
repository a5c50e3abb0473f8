/* Sudoku Explainer's grid model, shared by the rater's files (rater/se_*.c);
 * not part of the library's interface (see rater/se_rate.h).
 *
 * The candidate grid is SE's: a placed cell has no candidates, and placing a
 * value removes it from the 20 peers. Regions are numbered 0-8 boxes, 9-17
 * rows, 18-26 columns, and each lists its cells in SE's order (boxes row by
 * row, rows left to right, columns top to bottom). Ratings are in tenths so
 * that comparisons are exact. */
#ifndef SUDOLAB_RATER_SE_GRID_H
#define SUDOLAB_RATER_SE_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "common/grid.h"
#include "rater/se_rate.h"

#define SE_CELLS 81
#define SE_ALL 0x3FEu /* candidates 1..9 as bits 1..9 */

struct se_grid {
    uint8_t value[SE_CELLS]; /* 0 = empty */
    uint16_t cand[SE_CELLS]; /* bit v set: v is still possible */
};

/* One step: what it removes, what it places, and what to show. */
struct se_step {
    enum se_technique tech;
    int rating; /* tenths */
    int place_cell, place_value; /* -1 when the step places nothing */
    uint16_t elim[SE_CELLS];
    int ncells;
    uint8_t cells[32]; /* the pattern's cells, for the hint text */
    uint16_t digits; /* the pattern's digits */
    int region; /* the region it works in, or -1 */
    int complexity; /* chains: the number of implications */
};

extern uint8_t se_region_cell[27][9];
extern uint8_t se_cell_region[SE_CELLS][3]; /* box, row, column */
extern uint8_t se_peer[SE_CELLS][20];
/* The same peers as a cell set: cells 0-63 in word 0, 64-80 in word 1. */
extern uint64_t se_peer_set[SE_CELLS][2];
/* Each value's cells as a cell set, in the same words, in one pass. */
void se_value_cells(const struct se_grid *g, uint64_t cells[10][2]);
/* The peers region by region (box, then row, then column, each in region
 * order, each peer once) and the type (0 box, 1 row, 2 column) of the
 * region it is first met in: the order of SE's "on" implications. */
extern uint8_t se_unit_peer[SE_CELLS][20];
extern uint8_t se_unit_peer_type[SE_CELLS][20];

/* Builds the tables above (once, before any other call here). */
void se_grid_tables_init(void);
/* The candidate grid of a puzzle's filled cells, or of a pencil-mark
 * puzzle's candidates as SukakuExplainer loads them; false when two clash. */
bool se_load(const struct grid *in, struct se_grid *g);

/* A step with nothing in it: copying it clears a step in plain vector moves,
 * where a memset of this size compiles to `rep stos`, whose start-up is a
 * share of an easy puzzle's rating (most steps are singles). */
extern const struct se_step se_blank_step;

/* Inline, as the producers call these for every step they try. */
static inline void se_step_clear(struct se_step *s, enum se_technique tech, int rating)
{
    *s = se_blank_step;
    s->tech = tech;
    s->rating = rating;
    s->place_cell = s->place_value = -1;
    s->region = -1;
}
/* Removes the step's eliminations, then places its value (if any). */
void se_apply(struct se_grid *g, const struct se_step *s);
static inline bool se_step_useful(const struct se_grid *g, const struct se_step *s)
{
    for (int c = 0; c < SE_CELLS; c++)
        if (g->cand[c] & s->elim[c])
            return true;
    return false;
}
void se_place(struct se_grid *g, int cell, int value);

static inline int se_popcount(unsigned m)
{
    /* without -mpopcnt the builtin is a library call: this is faster */
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (int) ((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}

/* The number of elements of a set of positions (0..8) or values (1..9), by
 * table: the subset, fish and wing searches count at every member they add. */
extern const uint8_t se_size_of[1024];

/* Whether m has exactly two bits (se_popcount(m) == 2, without counting). */
static inline bool se_two_bits(unsigned m)
{
    const unsigned rest = m & (m - 1);
    return rest && !(rest & (rest - 1));
}

/* Positions (0..8 in region order) of v in region r. */
static inline unsigned se_positions(const struct se_grid *g, int r, int v)
{
    unsigned m = 0;
    for (int i = 0; i < 9; i++)
        if (g->cand[se_region_cell[r][i]] & (1u << v))
            m |= 1u << i;
    return m;
}

static inline bool se_sees(int a, int b)
{
    return a != b
        && (se_cell_region[a][0] == se_cell_region[b][0]
            || se_cell_region[a][1] == se_cell_region[b][1]
            || se_cell_region[a][2] == se_cell_region[b][2]);
}

/* A grid with, per region, the places of each value (`at`, positions in
 * region order) and the number of empty cells, and how many times each value
 * is placed: made once per step for the producers that read regions,
 * instead of each scanning the cells for itself. */
struct se_places {
    const struct se_grid *g;
    uint16_t at[27][10];
    uint8_t empty[27];
    uint8_t placed[10];
};
void se_places_init(struct se_places *p, const struct se_grid *g);

/* A grid g reduced from src by a chain's run, as the rules nested in chains
 * read it: per region and value, the places of the value in g (`at`) and in
 * src (`src_at`), and what it lost since src (se_lost_at); by value, the
 * regions where it lost a place (`lost_in`); the regions that lost a
 * candidate (`lost`, bit k: region k). The run keeps all of them up to
 * date as it takes candidates out: nothing is scanned or copied per stall.
 * The rules look for patterns only in lost_in's regions; a run hands them
 * fewer (those that lost a place since an earlier stall) where it knows
 * the others hold no hint it lacks (se_chain_runs.c, struct plus_seen). */
struct se_reduced {
    const struct se_grid *g, *src;
    const uint16_t (*at)[10], (*src_at)[10];
    uint32_t lost_in[10];
    uint32_t lost;
};
void se_reduced_from_places(struct se_reduced *r, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*at)[10], const uint16_t (*src_at)[10],
    const uint32_t *lost_in);

/* The places of v in region k that g lost since src. */
static inline unsigned se_lost_at(const struct se_reduced *r, int k, int v)
{
    return (unsigned) (r->src_at[k][v] & ~r->at[k][v]);
}

#endif /* SUDOLAB_RATER_SE_GRID_H */
