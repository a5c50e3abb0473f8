/* Sudoku Explainer's techniques below chains: singles, the "direct" variants
 * (an intersection or hidden set that leaves a hidden single), intersections,
 * naked and hidden sets, fish. Each producer scans in SE's order and returns
 * its first useful hint, because SE keeps the first hint it is given. */
#include <string.h>

#include "puzzle/se_internal.h"

uint8_t se_region_cell[27][9];
uint8_t se_cell_region[SE_CELLS][3];
uint8_t se_peer[SE_CELLS][20];
uint64_t se_peer_set[SE_CELLS][2];
uint8_t se_unit_peer[SE_CELLS][20];
uint8_t se_unit_peer_type[SE_CELLS][20];
/* Positions (region order) of region a's cells that lie in region b. */
static uint16_t region_overlap[27][27];
/* The three regions of type t (0 box, 1 row, 2 column) that cross region a,
 * ascending, where a box meets rows or columns or a line meets boxes. */
static uint8_t crossing[27][3][3];

void se_tables_init(void)
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
    for (int a = 0; a < 27; a++)
        for (int i = 0; i < 9; i++)
            for (int t = 0; t < 3; t++)
                region_overlap[a][se_cell_region[se_region_cell[a][i]][t]]
                    |= (uint16_t) (1u << i);
    for (int a = 0; a < 27; a++)
        for (int t = 0; t < 3; t++) {
            int n = 0;
            for (int b = t * 9; b < t * 9 + 9; b++)
                if (b != a && region_overlap[a][b] && n < 3)
                    crossing[a][t][n++] = (uint8_t) b;
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

void se_step_clear(struct se_step *s, enum se_technique tech, int rating)
{
    memset(s, 0, sizeof(*s));
    s->tech = tech;
    s->rating = rating;
    s->place_cell = s->place_value = -1;
    s->region = -1;
}

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

bool se_step_useful(const struct se_grid *g, const struct se_step *s)
{
    for (int c = 0; c < SE_CELLS; c++)
        if (g->cand[c] & s->elim[c])
            return true;
    return false;
}

static int empty_cells(const struct se_grid *g, int r)
{
    int n = 0;
    for (int i = 0; i < 9; i++)
        n += g->value[se_region_cell[r][i]] == 0;
    return n;
}

static bool one_bit(unsigned m)
{
    return m && !(m & (m - 1));
}

/* SE looks in boxes, then columns, then rows. */
static const int region_order[27] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19, 20, 21, 22, 23,
    24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17 };

/* The values with exactly one place in r. */
static unsigned single_place_values(const struct se_grid *g, int r)
{
    unsigned once = 0, more = 0;
    for (int i = 0; i < 9; i++) {
        const unsigned m = g->cand[se_region_cell[r][i]];
        more |= once & m;
        once |= m;
    }
    return once & ~more;
}

/* The values of the grid the last search on this thread saw (a copy), and
 * as a mask over SE's order (bit k: region_order[k]) the regions with one
 * empty cell. Steps place a value in one cell at most, so the full-house
 * regions carry over but for that cell's three. Exact: whether a region has
 * one empty cell reads only the values of its nine cells, and every region
 * with a cell whose value differs from the copy is counted again; any other
 * grid (a hint's, the next rating's) is followed the same way, and the first
 * call on a thread counts all. */
static _Thread_local struct {
    bool valid;
    uint8_t value[SE_CELLS];
    uint32_t alone;
} last;

/* Region r's place in SE's order (region_order: boxes, columns, rows). */
static int order_of(int r)
{
    return r < 9 ? r : r >= 18 ? r - 9 : r + 9;
}

/* Bits (SE's order) of the regions of cell c when its value differs from
 * the copy. */
static uint32_t value_changed(const struct se_grid *g, int c)
{
    if (g->value[c] == last.value[c])
        return 0;
    uint32_t regions = 0;
    for (int t = 0; t < 3; t++)
        regions |= 1u << order_of(se_cell_region[c][t]);
    return regions;
}

/* Brings `last` to g's values: the changed cells are found eight at a time
 * (cells 0-79, then 80), then their regions counted again. */
static uint32_t alone_follow(const struct se_grid *g)
{
    uint32_t dirty = 0;
    if (!last.valid) {
        dirty = (1u << 27) - 1;
        last.valid = true;
    } else {
        for (int c0 = 0; c0 < 80; c0 += 8) {
            uint64_t x, y;
            memcpy(&x, &g->value[c0], sizeof(x));
            memcpy(&y, &last.value[c0], sizeof(y));
            if (x == y)
                continue;
            for (int c = c0; c < c0 + 8; c++)
                dirty |= value_changed(g, c);
        }
        dirty |= value_changed(g, 80);
    }
    if (dirty)
        memcpy(last.value, g->value, sizeof(last.value));
    for (; dirty; dirty &= dirty - 1) {
        const int k = __builtin_ctz(dirty);
        const bool alone = empty_cells(g, region_order[k]) == 1;
        last.alone = (last.alone & ~(1u << k)) | (alone ? 1u << k : 0);
    }
    return last.alone;
}

static void single_step(const struct se_grid *g, int r, unsigned vals, struct se_step *s)
{
    const bool is_alone = empty_cells(g, r) == 1;
    const int v = __builtin_ctz(vals);
    int i = 0;
    while (!(g->cand[se_region_cell[r][i]] & (1u << v)))
        i++;
    se_step_clear(s, is_alone ? SE_full_house : SE_hidden_single,
        is_alone ? 10 : (r < 9 ? 12 : 15));
    s->place_cell = se_region_cell[r][i];
    s->place_value = v;
    s->region = r;
}

/* A full house (the last empty cell of a region) in any region first, then
 * a hidden single, each in the first region of SE's order that has one;
 * before the places are made: most steps end here. The full-house regions
 * come from alone_follow, as counting each region's empty cells gave them. */
bool se_hidden_single(const struct se_grid *g, struct se_step *s)
{
    for (uint32_t alone = alone_follow(g); alone; alone &= alone - 1) {
        const int r = region_order[__builtin_ctz(alone)];
        const unsigned vals = single_place_values(g, r);
        if (vals) {
            single_step(g, r, vals, s);
            return true;
        }
    }
    for (int k = 0; k < 27; k++) {
        const int r = region_order[k];
        const unsigned vals = single_place_values(g, r);
        if (vals) {
            single_step(g, r, vals, s);
            return true;
        }
    }
    return false;
}

bool se_naked_single(const struct se_places *p, struct se_step *s)
{
    const struct se_grid *g = p->g;
    for (int c = 0; c < SE_CELLS; c++) {
        if (g->value[c] == 0 && se_popcount(g->cand[c]) == 1) {
            se_step_clear(s, SE_naked_single, 23);
            s->place_cell = c;
            s->place_value = __builtin_ctz(g->cand[c]);
            return true;
        }
    }
    return false;
}

static bool in_region(int cell, int r)
{
    return se_cell_region[cell][0] == r || se_cell_region[cell][1] == r
        || se_cell_region[cell][2] == r;
}

/* Value v of r1 lies only in r2: remove v from r2 outside r1. */
static void locking_elims(
    const struct se_grid *g, int r1, int r2, int v, struct se_step *s)
{
    for (int i = 0; i < 9; i++) {
        int c = se_region_cell[r2][i];
        if (!in_region(c, r1) && (g->cand[c] & (1u << v)))
            s->elim[c] |= (uint16_t) (1u << v);
        if (in_region(c, r1) && (g->cand[c] & (1u << v)) && s->ncells < 32)
            s->cells[s->ncells++] = (uint8_t) c;
    }
    s->digits = (uint16_t) (1u << v);
    s->region = r1;
}

/* v's positions m in r1 (at least two) all lie in r2. */
static bool locked_at(unsigned m, int r1, int r2)
{
    return se_popcount(m) >= 2 && !(m & ~(unsigned) region_overlap[r1][r2]);
}

/* A region of r1's type crossing r2 where v is left in one cell outside r2. */
static int following_single(const struct se_places *p, int r1, int r2, int v)
{
    for (int j = 0; j < 3; j++) {
        const int r3 = crossing[r2][r1 / 9][j];
        if (r3 == r1)
            continue;
        unsigned m = p->at[r3][v];
        if (se_popcount(m) <= 1)
            continue;
        unsigned outside = m & ~(unsigned) region_overlap[r3][r2];
        if (one_bit(outside))
            return se_region_cell[r3][__builtin_ctz(outside)];
    }
    return -1;
}

/* SE's direct hints place their value and remove nothing: the candidates
 * the intersection or set would remove stay for later steps. */
static bool direct_only_places(struct se_step *s)
{
    if (s->place_cell >= 0)
        memset(s->elim, 0, sizeof(s->elim));
    return true;
}

/* Types: 0 box, 1 row, 2 column; SE's pairs box-column, box-row, column-box,
 * row-box. */
static const int lock_pairs[4][2] = { { 0, 2 }, { 0, 1 }, { 2, 0 }, { 1, 0 } };

static bool locking_scan(
    const struct se_places *p, bool direct, unsigned skip, struct se_step *s)
{
    for (int k = 0; k < 4; k++) {
        int t1 = lock_pairs[k][0] * 9, t2 = lock_pairs[k][1] * 9;
        for (int v = 1; v <= 9; v++) {
            for (int r1 = t1; !((skip >> v) & 1) && r1 < t1 + 9; r1++) {
                /* locked_at, with its count of places (two or more: more
                 * than one bit) tested once for the three crossings */
                const unsigned m = p->at[r1][v];
                if (!(m & (m - 1)))
                    continue;
                for (int j = 0; j < 3; j++) {
                    const int r2 = crossing[r1][t2 / 9][j];
                    if (m & ~(unsigned) region_overlap[r1][r2])
                        continue;
                    /* the step removes v from r2 outside r1: none there, no step */
                    if (!(p->at[r2][v] & ~(unsigned) region_overlap[r2][r1]))
                        continue;
                    bool box_first = t1 == 0;
                    int hcell = direct ? following_single(p, r1, r2, v) : -1;
                    if (direct && hcell < 0)
                        continue;
                    if (direct)
                        se_step_clear(s,
                            box_first ? SE_direct_pointing : SE_direct_claiming,
                            box_first ? 17 : 19);
                    else
                        se_step_clear(s, box_first ? SE_pointing : SE_claiming,
                            box_first ? 26 : 28);
                    locking_elims(p->g, r1, r2, v, s);
                    s->place_cell = hcell;
                    s->place_value = direct ? v : -1;
                    return direct_only_places(s);
                }
            }
        }
    }
    return false;
}

/* A value's intersections (and a direct one's following single) read only
 * its places. Per thread, direct or not, by value: its places in every
 * region when a call found none of it; the same places give none again. A
 * memo is never wrong, only overwritten. */
static _Thread_local struct {
    uint16_t at[10][27];
    bool empty[10];
} lock_memo[2];

static bool locking(const struct se_places *p, bool direct, struct se_step *s)
{
    unsigned skip = 0;
    for (int v = 1; v <= 9; v++) {
        bool same = lock_memo[direct].empty[v];
        for (int r = 0; same && r < 27; r++)
            same = lock_memo[direct].at[v][r] == p->at[r][v];
        skip |= same ? 1u << v : 0;
    }
    if (locking_scan(p, direct, skip, s))
        return true;
    for (int v = 1; v <= 9; v++) {
        for (int r = 0; r < 27; r++)
            lock_memo[direct].at[v][r] = p->at[r][v];
        lock_memo[direct].empty[v] = true;
    }
    return false;
}

bool se_direct_locking(const struct se_places *p, struct se_step *s)
{
    return locking(p, true, s);
}

bool se_locking(const struct se_places *p, struct se_step *s)
{
    return locking(p, false, s);
}

/* Next combination of k indexes of 0..n-1 in lexicographic order. */
static bool next_combination(int *idx, int k, int n)
{
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i)
        i--;
    if (i < 0)
        return false;
    idx[i]++;
    for (int j = i + 1; j < k; j++)
        idx[j] = idx[j - 1] + 1;
    return true;
}

static void first_combination(int *idx, int k)
{
    for (int i = 0; i < k; i++)
        idx[i] = i;
}

/* SE's common tuple: every member has at least two elements and together
 * they have exactly `degree`. */
static unsigned common_tuple(const unsigned *sets, int degree)
{
    unsigned u = 0;
    for (int i = 0; i < degree; i++) {
        if (se_popcount(sets[i]) <= 1)
            return 0;
        u |= sets[i];
    }
    return se_popcount(u) == degree ? u : 0;
}

static const int hidden_ratings[5] = { 0, 0, 34, 40, 54 };
static const enum se_technique hidden_techs[5]
    = { 0, 0, SE_hidden_pair, SE_hidden_triplet, SE_hidden_quad };

/* The hidden set `values` (bits) at `pos` in r: the other candidates of those
 * cells go. */
static void hidden_elims(
    const struct se_grid *g, int r, unsigned values, unsigned pos, struct se_step *s)
{
    for (int i = 0; i < 9; i++) {
        if (!(pos & (1u << i)))
            continue;
        int c = se_region_cell[r][i];
        s->elim[c] = (uint16_t) (g->cand[c] & ~values);
        s->cells[s->ncells++] = (uint8_t) c;
    }
    s->digits = (uint16_t) values;
    s->region = r;
}

/* Direct hidden set: a value outside the set then has one place left in r. */
static bool direct_follow(
    const struct se_places *p, int r, unsigned values, unsigned pos, struct se_step *s)
{
    for (int v = 1; v <= 9; v++) {
        if (values & (1u << v))
            continue;
        unsigned m = p->at[r][v];
        if (se_popcount(m) > 1 && one_bit(m & ~pos)) {
            s->place_cell = se_region_cell[r][__builtin_ctz(m & ~pos)];
            s->place_value = v;
            return true;
        }
    }
    return false;
}

/* The members (values of a region, or its cells) that can join a set of
 * `degree`: those with two to `degree` elements, as common_tuple wants; the
 * combinations of these alone, in the same lexicographic order, are the ones
 * it can accept. */
static int set_members(const unsigned *sets, int n, int degree, int *member)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        const int size = se_popcount(sets[i]);
        if (size >= 2 && size <= degree)
            member[k++] = i;
    }
    return k;
}

/* A naked or hidden set of a region (and a direct one's following single)
 * reads only the candidates of the region's cells. Per thread, by kind
 * (0 naked, 1 hidden, 2 direct hidden) and degree, by region:
 * those candidates when a call found no set there; the same ones give none
 * again. A memo is never wrong, only overwritten. */
static _Thread_local struct {
    uint16_t cand[27][9];
    bool empty[27];
} set_memo[3][5];

static bool set_memo_same(const struct se_grid *g, int kind, int degree, int r)
{
    if (!set_memo[kind][degree].empty[r])
        return false;
    for (int i = 0; i < 9; i++)
        if (set_memo[kind][degree].cand[r][i] != g->cand[se_region_cell[r][i]])
            return false;
    return true;
}

static void set_memo_keep(const struct se_grid *g, int kind, int degree, int r)
{
    for (int i = 0; i < 9; i++)
        set_memo[kind][degree].cand[r][i] = g->cand[se_region_cell[r][i]];
    set_memo[kind][degree].empty[r] = true;
}

/* The first useful hidden set of `degree` values in region r. */
static bool hidden_set_region(
    const struct se_places *p, int degree, bool direct, int r, struct se_step *s)
{
    unsigned sets[9];
    int member[9], idx[4];
    for (int v = 1; v <= 9; v++)
        sets[v - 1] = p->at[r][v];
    const int n = set_members(sets, 9, degree, member);
    if (n < degree)
        return false;
    first_combination(idx, degree);
    do {
        unsigned pos[4], values = 0;
        for (int i = 0; i < degree; i++) {
            pos[i] = sets[member[idx[i]]];
            values |= 1u << (member[idx[i]] + 1);
        }
        unsigned common = common_tuple(pos, degree);
        if (!common)
            continue;
        if (direct)
            se_step_clear(s,
                degree == 2 ? SE_direct_hidden_pair : SE_direct_hidden_triplet,
                degree == 2 ? 20 : 25);
        else
            se_step_clear(s, hidden_techs[degree], hidden_ratings[degree]);
        hidden_elims(p->g, r, values, common, s);
        if (direct && !direct_follow(p, r, values, common, s))
            continue;
        if (se_step_useful(p->g, s))
            return direct ? direct_only_places(s) : true;
    } while (next_combination(idx, degree, n));
    return false;
}

static bool hidden_set_scan(
    const struct se_places *p, int degree, bool direct, struct se_step *s)
{
    for (int k = 0; k < 27; k++) {
        int r = region_order[k], empty = p->empty[r];
        if (!(empty > degree * 2 || (direct && empty > degree)))
            continue;
        if (set_memo_same(p->g, direct ? 2 : 1, degree, r))
            continue;
        if (hidden_set_region(p, degree, direct, r, s))
            return true;
        set_memo_keep(p->g, direct ? 2 : 1, degree, r);
    }
    return false;
}

bool se_direct_hidden_set(const struct se_places *p, int degree, struct se_step *s)
{
    return hidden_set_scan(p, degree, true, s);
}

bool se_hidden_set(const struct se_places *p, int degree, struct se_step *s)
{
    return hidden_set_scan(p, degree, false, s);
}

static const int naked_ratings[5] = { 0, 0, 30, 36, 50 };
static const enum se_technique naked_techs[5]
    = { 0, 0, SE_naked_pair, SE_naked_triplet, SE_naked_quad };

/* The first useful naked set of `degree` cells in region r. */
static bool naked_set_region(
    const struct se_grid *g, int degree, int r, struct se_step *s)
{
    unsigned sets[9];
    int member[9], idx[4];
    for (int i = 0; i < 9; i++)
        sets[i] = g->cand[se_region_cell[r][i]];
    const int n = set_members(sets, 9, degree, member);
    if (n < degree)
        return false;
    first_combination(idx, degree);
    do {
        unsigned vals[4], cellmask = 0;
        for (int i = 0; i < degree; i++) {
            vals[i] = sets[member[idx[i]]];
            cellmask |= 1u << member[idx[i]];
        }
        unsigned common = common_tuple(vals, degree);
        if (!common)
            continue;
        se_step_clear(s, naked_techs[degree], naked_ratings[degree]);
        for (int i = 0; i < 9; i++) {
            int c = se_region_cell[r][i];
            if (cellmask & (1u << i))
                s->cells[s->ncells++] = (uint8_t) c;
            else
                s->elim[c] = (uint16_t) (g->cand[c] & common);
        }
        s->digits = (uint16_t) common;
        s->region = r;
        if (se_step_useful(g, s))
            return true;
    } while (next_combination(idx, degree, n));
    return false;
}

bool se_naked_set(const struct se_places *p, int degree, struct se_step *s)
{
    const struct se_grid *g = p->g;
    for (int k = 0; k < 27; k++) {
        int r = region_order[k];
        if (p->empty[r] < degree * 2 || set_memo_same(g, 0, degree, r))
            continue;
        if (naked_set_region(g, degree, r, s))
            return true;
        set_memo_keep(g, 0, degree, r);
    }
    return false;
}

static const int fish_ratings[5] = { 0, 0, 32, 38, 52 };
static const enum se_technique fish_techs[5]
    = { 0, 0, SE_x_wing, SE_swordfish, SE_jellyfish };

/* `at`: g's places of each value per region (se_places or se_reduced). */
static bool fish_one(const struct se_grid *g, const uint16_t (*at)[10], int degree,
    int base, int v, const int *idx, struct se_step *s)
{
    int cover = base == 9 ? 18 : 9;
    unsigned pos[4], lines = 0;
    for (int i = 0; i < degree; i++) {
        pos[i] = at[base + idx[i]][v];
        lines |= 1u << idx[i];
    }
    unsigned common = common_tuple(pos, degree);
    if (!common)
        return false;
    se_step_clear(s, fish_techs[degree], fish_ratings[degree]);
    for (int j = 0; j < 9; j++) {
        if (!(common & (1u << j)))
            continue;
        for (int i = 0; i < 9; i++) {
            int c = se_region_cell[cover + j][i];
            if (!(g->cand[c] & (1u << v)))
                continue;
            if (lines & (1u << i))
                s->cells[s->ncells++] = (uint8_t) c;
            else
                s->elim[c] |= (uint16_t) (1u << v);
        }
    }
    s->digits = (uint16_t) (1u << v);
    return se_step_useful(g, s);
}

/* A value's fish read only its places in the rows and columns and how many
 * times it is placed. Per thread and degree, by value: those when a whole
 * se_fish call found no fish of it; the same ones give none again (most
 * steps change the places of a few values). A memo is never wrong, only
 * overwritten. */
struct fish_key {
    uint16_t at[18];
    uint8_t placed;
};
static _Thread_local struct {
    struct fish_key key[10];
    bool empty[10];
} fish_memo[5];

static void fish_key_of(const struct se_places *p, int v, struct fish_key *k)
{
    memset(k, 0, sizeof(*k));
    for (int l = 0; l < 18; l++)
        k->at[l] = p->at[9 + l][v];
    k->placed = p->placed[v];
}

static bool fish_scan(
    const struct se_places *p, int degree, unsigned skip, struct se_step *s)
{
    for (int base = 9; base <= 18; base += 9) {
        /* by value: the lines where it has two to `degree` places; another
         * line is in no fish (common_tuple), so a combination with one is
         * passed over before its tuple is built */
        unsigned wide[10] = { 0 }, live = 0;
        for (int v = 1; v <= 9; v++) {
            if ((skip >> v) & 1 || p->placed[v] + degree * 2 > 9)
                continue;
            for (int l = 0; l < 9; l++) {
                const int n = se_popcount(p->at[base + l][v]);
                if (n >= 2 && n <= degree)
                    wide[v] |= 1u << l;
            }
            if (se_popcount(wide[v]) >= degree)
                live |= 1u << v;
        }
        if (!live)
            continue; /* no value has `degree` lines to make a fish of */
        int idx[4];
        first_combination(idx, degree);
        do {
            unsigned combo = 0;
            for (int i = 0; i < degree; i++)
                combo |= 1u << idx[i];
            for (int v = 1; v <= 9; v++) {
                if (!((live >> v) & 1) || (combo & ~wide[v]))
                    continue;
                unsigned lines[4];
                for (int i = 0; i < degree; i++)
                    lines[i] = p->at[base + idx[i]][v];
                if (common_tuple(lines, degree)
                    && fish_one(p->g, p->at, degree, base, v, idx, s))
                    return true;
            }
        } while (next_combination(idx, degree, 9));
    }
    return false;
}

bool se_fish(const struct se_places *p, int degree, struct se_step *s)
{
    struct fish_key keys[10];
    unsigned skip = 0;
    for (int v = 1; v <= 9; v++) {
        fish_key_of(p, v, &keys[v]);
        if (fish_memo[degree].empty[v]
            && !memcmp(&fish_memo[degree].key[v], &keys[v], sizeof(keys[v])))
            skip |= 1u << v;
    }
    if (fish_scan(p, degree, skip, s))
        return true;
    for (int v = 1; v <= 9; v++) {
        memcpy(&fish_memo[degree].key[v], &keys[v], sizeof(keys[v]));
        fish_memo[degree].empty[v] = true;
    }
    return false;
}

/* common_tuple(sets, 2) for two sets: both are one pair of elements. */
static unsigned same_pair(unsigned a, unsigned b)
{
    const unsigned rest = a & (a - 1);
    return a == b && rest && !(rest & (rest - 1)) ? a : 0;
}

/* ---- the rules nested in dynamic chains ("+"): every hint that the
 * removals since `src` made possible, with those removals as its parents.
 * A hint with no such parent holds in src already and the chains have no use
 * for it (they drop it), so it is skipped before its step is built: the
 * parents are known from the removed positions alone, and most patterns of a
 * reduced grid have none (these rules were ~16% of a hardest-list rating). ---- */

/* Whether m has exactly two bits (a popcount costs more in these loops). */
static inline bool two_bits(unsigned m)
{
    const unsigned rest = m & (m - 1);
    return rest && !(rest & (rest - 1));
}

bool se_each_locking(const struct se_reduced *red, se_hint_fn fn, void *ctx)
{
    const struct se_grid *g = red->g;
    for (int k = 0; k < 4; k++) {
        int t1 = lock_pairs[k][0] * 9, t2 = lock_pairs[k][1];
        for (int v = 1; v <= 9; v++)
            for (unsigned m = (red->lost_in[v] >> t1) & 0x1FFu; m; m &= m - 1) {
                const int r1 = t1 + __builtin_ctz(m); /* lost a place of v */
                /* v's places in r1 (two or more) all lie in one region of
                 * type t2 crossing r1 (locked_at): the one of the first, as
                 * those of the three are disjoint in r1 */
                const unsigned at = red->at[r1][v];
                if (!at || !(at & (at - 1)))
                    continue;
                const int r2 = se_cell_region[se_region_cell[r1][__builtin_ctz(at)]][t2];
                const unsigned why
                    = se_lost_at(red, r1, v) & ~(unsigned) region_overlap[r1][r2];
                if (!why || !locked_at(at, r1, r2))
                    continue;
                /* locking_elims removes v from r2's cells outside r1 that
                 * have it: none, and the hint is not useful */
                if (!(red->at[r2][v] & ~(unsigned) region_overlap[r2][r1]))
                    continue;
                struct se_step s;
                se_step_clear(&s, SE_pointing, 26);
                locking_elims(g, r1, r2, v, &s);
                uint16_t parents[SE_CELLS] = { 0 };
                for (int i = 0; i < 9; i++)
                    if (why & (1u << i))
                        parents[se_region_cell[r1][i]] |= (uint16_t) (1u << v);
                if (!fn(ctx, &s, parents))
                    return false;
            }
    }
    return true;
}

/* The values of r (bits) that have two places: the pairs of them, in the
 * order of the combinations of 1..9, are the candidates of a hidden pair
 * (both values in the same two places). */
static unsigned two_place_values(const struct se_reduced *red, int r)
{
    unsigned m = 0;
    for (int v = 1; v <= 9; v++)
        if (two_bits(red->at[r][v]))
            m |= 1u << v;
    return m;
}

bool se_each_hidden_pair(const struct se_reduced *red, se_hint_fn fn, void *ctx)
{
    const struct se_grid *g = red->g, *src = red->src;
    for (int k = 0; k < 27; k++) {
        int r = region_order[k];
        if (!((red->lost >> r) & 1))
            continue;
        const unsigned pairable = two_place_values(red, r);
        if ((pairable & (pairable - 1)) == 0 || empty_cells(g, r) <= 4)
            continue;
        /* v1 < v2 as in the combinations of the nine values; a value with
         * other than two places is in no pair (same_pair) */
        for (unsigned m1 = pairable; m1; m1 &= m1 - 1)
            for (unsigned m2 = m1 & (m1 - 1); m2; m2 &= m2 - 1) {
                const int v1 = __builtin_ctz(m1), v2 = __builtin_ctz(m2);
                unsigned values = (1u << v1) | (1u << v2);
                unsigned common = same_pair(red->at[r][v1], red->at[r][v2]);
                /* outside the pair's cells the values are gone: their removals */
                if (!common
                    || !((se_lost_at(red, r, v1) | se_lost_at(red, r, v2)) & ~common))
                    continue;
                struct se_step s;
                se_step_clear(&s, SE_hidden_pair, 34);
                hidden_elims(g, r, values, common, &s);
                if (!se_step_useful(g, &s))
                    continue;
                uint16_t parents[SE_CELLS] = { 0 };
                for (int i = 0; i < 9; i++)
                    if (!(common & (1u << i)))
                        parents[se_region_cell[r][i]]
                            = (uint16_t) (src->cand[se_region_cell[r][i]] & values);
                if (!fn(ctx, &s, parents))
                    return false;
            }
    }
    return true;
}

/* The positions of r's cells with two candidates (`pair`) and of those
 * among them that lost a candidate since src (`lost`). */
static void two_value_cells(
    const struct se_reduced *red, int r, unsigned *pair, unsigned *lost)
{
    *pair = *lost = 0;
    for (int i = 0; i < 9; i++) {
        const int c = se_region_cell[r][i];
        if (!two_bits(red->g->cand[c]))
            continue;
        *pair |= 1u << i;
        if (red->src->cand[c] != red->g->cand[c])
            *lost |= 1u << i;
    }
}

bool se_each_naked_pair(const struct se_reduced *red, se_hint_fn fn, void *ctx)
{
    const struct se_grid *g = red->g, *src = red->src;
    for (int k = 0; k < 27; k++) {
        int r = region_order[k];
        /* a pair is two cells with the same two candidates, and its parents
         * are what they lost (src's candidates are g's and more): one of
         * them lost some. Regions that lost nothing hold no such cell */
        if (!((red->lost >> r) & 1))
            continue;
        unsigned pair, lost;
        two_value_cells(red, r, &pair, &lost);
        if (!lost || empty_cells(g, r) < 4)
            continue;
        /* a < b as in the combinations of the nine positions */
        for (unsigned ma = pair; ma; ma &= ma - 1)
            for (unsigned mb = ma & (ma - 1); mb; mb &= mb - 1) {
                int a = se_region_cell[r][__builtin_ctz(ma)];
                int b = se_region_cell[r][__builtin_ctz(mb)];
                unsigned common = same_pair(g->cand[a], g->cand[b]);
                if (!common || !((src->cand[a] | src->cand[b]) & ~common))
                    continue;
                struct se_step s;
                se_step_clear(&s, SE_naked_pair, 30);
                for (int i = 0; i < 9; i++) {
                    int c = se_region_cell[r][i];
                    if (c != a && c != b)
                        s.elim[c] = (uint16_t) (g->cand[c] & common);
                }
                if (!se_step_useful(g, &s))
                    continue;
                uint16_t parents[SE_CELLS] = { 0 };
                parents[a] = (uint16_t) (src->cand[a] & ~common);
                parents[b] = (uint16_t) (src->cand[b] & ~common);
                if (!fn(ctx, &s, parents))
                    return false;
            }
    }
    return true;
}

bool se_each_x_wing(const struct se_reduced *red, se_hint_fn fn, void *ctx)
{
    const struct se_grid *g = red->g;
    int placed[10] = { 0 }; /* how many times each value is placed */
    for (int c = 0; c < SE_CELLS; c++)
        placed[g->value[c]]++;
    unsigned live = 0;
    for (int v = 1; v <= 9; v++)
        if (placed[v] + 4 <= 9)
            live |= 1u << v;
    for (int base = 9; base <= 18; base += 9) {
        /* the values that lost a place in a base line: the others have no
         * parents */
        unsigned values = 0;
        for (unsigned m = live; m; m &= m - 1)
            if ((red->lost_in[__builtin_ctz(m)] >> base) & 0x1FFu)
                values |= 1u << __builtin_ctz(m);
        /* by line: the values with two places there, the only ones that can
         * make a pair of lines (same_pair), and whether it lost a place */
        unsigned two[9] = { 0 }, lost = 0;
        for (int l = 0; l < 9; l++) {
            for (unsigned m = values; m; m &= m - 1)
                if (two_bits(red->at[base + l][__builtin_ctz(m)]))
                    two[l] |= 1u << __builtin_ctz(m);
            lost |= ((red->lost >> (base + l)) & 1u) << l;
        }
        /* the pairs of lines in the order of the combinations, each with a
         * line that lost a place (else there are no parents) */
        for (int i0 = 0; i0 < 9; i0++)
            for (int i1 = i0 + 1; i1 < 9; i1++) {
                const int idx[2] = { i0, i1 }, l0 = base + i0, l1 = base + i1;
                if (!((lost >> i0 | lost >> i1) & 1))
                    continue;
                for (unsigned m = two[i0] & two[i1]; m; m &= m - 1) {
                    const int v = __builtin_ctz(m);
                    struct se_step s;
                    /* the positions of v in the two lines, i.e. the cover
                     * lines; the parents are v's removals from the base
                     * lines off them */
                    const unsigned common = same_pair(red->at[l0][v], red->at[l1][v]);
                    const unsigned why[2] = { se_lost_at(red, l0, v) & ~common,
                        se_lost_at(red, l1, v) & ~common };
                    if (!common || !(why[0] | why[1])
                        || !fish_one(g, red->at, 2, base, v, idx, &s))
                        continue;
                    uint16_t parents[SE_CELLS] = { 0 };
                    for (int i = 0; i < 2; i++)
                        for (int j = 0; j < 9; j++)
                            if (why[i] & (1u << j))
                                parents[se_region_cell[base + idx[i]][j]]
                                    |= (uint16_t) (1u << v);
                    if (!fn(ctx, &s, parents))
                        return false;
                }
            }
    }
    return true;
}
