/* Sudoku Explainer's grid model (rater/se_grid.h): the tables of regions and
 * peers, the places of values by region, and what a step does to a grid. */
#include <string.h>

#include "rater/se_grid.h"

uint8_t se_region_cell[27][9];
uint8_t se_cell_region[SE_CELLS][3];
uint8_t se_peer[SE_CELLS][20];
uint64_t se_peer_set[SE_CELLS][2];
uint8_t se_unit_peer[SE_CELLS][20];
uint8_t se_unit_peer_type[SE_CELLS][20];
#define POP2(n) n, n + 1, n + 1, n + 2
#define POP4(n) POP2(n), POP2(n + 1), POP2(n + 1), POP2(n + 2)
#define POP6(n) POP4(n), POP4(n + 1), POP4(n + 1), POP4(n + 2)
#define POP8(n) POP6(n), POP6(n + 1), POP6(n + 1), POP6(n + 2)
const uint8_t se_size_of[1024] = { POP8(0), POP8(1), POP8(1), POP8(2) };

void se_grid_tables_init(void)
{
    for (int c = 0; c < SE_CELLS; c++) {
        int r = c / 9, col = c % 9, b = (r / 3) * 3 + col / 3;
        se_cell_region[c][0] = (uint8_t) b;
        se_cell_region[c][1] = (uint8_t) (9 + r);
        se_cell_region[c][2] = (uint8_t) (18 + col);
        se_region_cell[9 + r][col] = (uint8_t) c;
        se_region_cell[18 + col][r] = (uint8_t) c;
        se_region_cell[b][(r % 3) * 3 + col % 3] = (uint8_t) c;
    }
    for (int c = 0; c < SE_CELLS; c++) {
        int n = 0;
        for (int o = 0; o < SE_CELLS; o++)
            if (se_sees(c, o)) {
                se_peer[c][n++] = (uint8_t) o;
                se_peer_set[c][o >> 6] |= 1ull << (o & 63);
            }
    }
    for (int c = 0; c < SE_CELLS; c++) {
        int n = 0;
        for (int t = 0; t < 3; t++)
            for (int i = 0; i < 9; i++) {
                int o = se_region_cell[se_cell_region[c][t]][i];
                bool earlier = o == c;
                for (int k = 0; k < n; k++)
                    earlier = earlier || se_unit_peer[c][k] == o;
                if (earlier)
                    continue;
                se_unit_peer[c][n] = (uint8_t) o;
                se_unit_peer_type[c][n++] = (uint8_t) t;
            }
    }
}

void se_value_cells(const struct se_grid *g, uint64_t cells[10][2])
{
    memset(cells, 0, sizeof(uint64_t) * 10 * 2);
    for (int c = 0; c < SE_CELLS; c++)
        for (unsigned m = g->cand[c]; m; m &= m - 1)
            cells[__builtin_ctz(m)][c >> 6] |= 1ull << (c & 63);
}

void se_places_init(struct se_places *p, const struct se_grid *g)
{
    memset(p, 0, sizeof(*p));
    p->g = g;
    /* cell by cell, each candidate into its three regions at once */
    for (int c = 0; c < SE_CELLS; c++) {
        const int box = se_cell_region[c][0], row = se_cell_region[c][1];
        const int col = se_cell_region[c][2];
        const uint16_t in_box = (uint16_t) (1u << ((row - 9) % 3 * 3 + (col - 18) % 3));
        const uint16_t in_row = (uint16_t) (1u << (col - 18));
        const uint16_t in_col = (uint16_t) (1u << (row - 9));
        if (g->value[c]) {
            p->placed[g->value[c]]++;
            continue;
        }
        p->empty[box]++;
        p->empty[row]++;
        p->empty[col]++;
        for (unsigned m = g->cand[c]; m; m &= m - 1) {
            const int v = __builtin_ctz(m);
            p->at[box][v] |= in_box;
            p->at[row][v] |= in_row;
            p->at[col][v] |= in_col;
        }
    }
}

void se_reduced_from_places(struct se_reduced *r, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*at)[10], const uint16_t (*src_at)[10],
    const uint32_t *lost_in)
{
    r->g = g;
    r->src = src;
    r->at = at;
    r->src_at = src_at;
    r->lost = 0;
    for (int v = 0; v < 10; v++) {
        r->lost_in[v] = lost_in[v];
        r->lost |= lost_in[v];
    }
}

const struct se_step se_blank_step;

void se_place(struct se_grid *g, int cell, int value)
{
    g->value[cell] = (uint8_t) value;
    g->cand[cell] = 0;
    for (int i = 0; i < 20; i++)
        g->cand[se_peer[cell][i]] &= (uint16_t) ~(1u << value);
}

void se_apply(struct se_grid *g, const struct se_step *s)
{
    for (int c = 0; c < SE_CELLS; c++)
        g->cand[c] &= (uint16_t) ~s->elim[c];
    if (s->place_cell >= 0)
        se_place(g, s->place_cell, s->place_value);
}

/* A pencil-mark puzzle as SukakuExplainer loads one: each cell keeps the
 * candidates it is given (nothing is removed for it), and a cell left with one
 * candidate that none of its peers still has is filled before the path starts,
 * as a given: placing it could not remove anything, so SE counts no step for
 * it. A single that a peer still has stays a candidate for the path's naked or
 * hidden single to place. The test is against the given candidates: filling
 * one such cell never changes another's (their values differ). */
static void load_candidates(const struct grid *in, struct se_grid *g)
{
    for (int c = 0; c < SE_CELLS; c++)
        g->cand[c] = (uint16_t) ((in->candidates[c] << 1) & SE_ALL);
    uint8_t fill[SE_CELLS] = { 0 };
    for (int c = 0; c < SE_CELLS; c++) {
        const unsigned m = g->cand[c];
        if (!m || (m & (m - 1)))
            continue;
        bool seen = false;
        for (int i = 0; i < 20 && !seen; i++)
            seen = (g->cand[se_peer[c][i]] & m) != 0;
        if (!seen)
            fill[c] = (uint8_t) __builtin_ctz(m);
    }
    for (int c = 0; c < SE_CELLS; c++)
        if (fill[c]) {
            g->value[c] = fill[c];
            g->cand[c] = 0;
        }
}

/* Candidates from the filled cells (or a pencil-mark puzzle's own); false
 * when two givens clash. */
bool se_load(const struct grid *in, struct se_grid *g)
{
    memset(g, 0, sizeof(*g));
    if (in->has_candidates) {
        load_candidates(in, g);
        return true;
    }
    for (int c = 0; c < SE_CELLS; c++)
        g->cand[c] = SE_ALL;
    for (int c = 0; c < SE_CELLS; c++) {
        int v = in->cell[c];
        if (v == 0)
            continue;
        if (!(g->cand[c] & (1u << v)))
            return false;
        se_place(g, c, v);
    }
    return true;
}
