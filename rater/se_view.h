/* The candidate grid as the rater's wing and link searches read it
 * (se_wings.c, se_links.c): cell sets, and a view of a grid by value and
 * region kept in the rater for the grid it was made for. Private to the
 * rater (see rater/se_rate.h). */
#ifndef SUDOLAB_RATER_SE_VIEW_H
#define SUDOLAB_RATER_SE_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "rater/se_internal.h"

/* Cells as bits: 0-63 in w[0], 64-80 in w[1] (as se_peer_set). */
struct cellset {
    uint64_t w[2];
};

static inline void set_add(struct cellset *x, int c)
{
    x->w[c >> 6] |= 1ull << (c & 63);
}

static inline bool sets_meet(const struct cellset *x, const struct cellset *y)
{
    return (x->w[0] & y->w[0]) || (x->w[1] & y->w[1]);
}

static inline bool set_within(const struct cellset *x, const struct cellset *y)
{
    return !(x->w[0] & ~y->w[0]) && !(x->w[1] & ~y->w[1]);
}

static inline int set_count(const struct cellset *x)
{
    return se_popcount((unsigned) x->w[0]) + se_popcount((unsigned) (x->w[0] >> 32))
        + se_popcount((unsigned) x->w[1]);
}

static inline bool set_has(const struct cellset *x, int c)
{
    return (x->w[c >> 6] >> (c & 63)) & 1;
}

/* The regions (as bits) of the cells in `before` and not in `now`. */
static inline uint32_t lost_regions(const uint64_t *before, const struct cellset *now)
{
    uint32_t lost = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t b = before[w] & ~now->w[w]; b; b &= b - 1) {
            const int x = w * 64 + __builtin_ctzll(b);
            for (int t = 0; t < 3; t++)
                lost |= 1u << se_cell_region[x][t];
        }
    return lost;
}

/* What the searches read of a grid, made once per grid and kept per rater:
 * at a step of the path that gets past the fish, the turbots, strong-link
 * chains, BUG and ALS wings (k = 3, 4, 5) all run on the same grid, and
 * each would otherwise make these again (and read the places of each value
 * region by region, nine cells at a time, for every link). */
struct grid_view {
    bool valid;
    uint16_t cand[SE_CELLS]; /* the grid they were made from */
    struct cellset vcells[10]; /* by value: the cells with it */
    uint16_t at[27][10]; /* by region and value: its places (region order) */
    struct cellset bivalue;
    /* for the ALS wings only (made on their first call: houses) */
    bool houses;
    uint8_t open[27][9], nopen[27]; /* by house: its cells of 2 values or more */
    struct cellset near[27]; /* by house: the peers of those cells */
};

/* This file's memory of a rater (struct se_wings_memo, at the end). */
/* The view of g, from the rater's memory when it was made for the same
 * candidates (every producer of a step reads the same grid). */
const struct grid_view *se_grid_view_of(struct se_rater *rt, const struct se_grid *g);

/* The two cells of a value in region r when its places m there are two. */
static inline bool strong_link(int r, unsigned m, int *a, int *b)
{
    if (se_size_of[m] != 2)
        return false;
    *a = se_region_cell[r][__builtin_ctz(m)];
    *b = se_region_cell[r][31 - __builtin_clz(m)];
    return true;
}

#endif /* SUDOLAB_RATER_SE_VIEW_H */
