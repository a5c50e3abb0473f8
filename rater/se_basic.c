/* Sudoku Explainer's techniques below chains: singles, the "direct" variants
 * (an intersection or hidden set that leaves a hidden single), intersections,
 * naked and hidden sets, fish. Each producer scans in SE's order and returns
 * its first useful hint, because SE keeps the first hint it is given. */
#include <stdlib.h>
#include <string.h>

#include "rater/se_internal.h"

/* Positions (region order) of region a's cells that lie in region b. */
static uint16_t region_overlap[27][27];
/* The three regions of type t (0 box, 1 row, 2 column) that cross region a,
 * ascending, where a box meets rows or columns or a line meets boxes. */
static uint8_t crossing[27][3][3];
/* The places in SE's order (boxes, columns, rows) of a cell's box, row and
 * column. */
static uint8_t cell_order[SE_CELLS][3];
/* For a region of type t1 (0 box, 1 row, 2 column) and a crossing type t2,
 * and positions m (region order) of two or more cells: 1 + the index j of
 * the crossing region crossing[.][t2][j] whose overlap holds all of m, or 0.
 * The overlaps are the same for every region of a type (a box's rows are its
 * position triples 0-2, 3-5, 6-8, its columns 0/3/6, 1/4/7, 2/5/8; a line's
 * boxes its triples), so one region of each type gives the table. */
static uint8_t crossing_holding[3][3][512];
/* crossing[a][t][j - 1] at j = 1..3, and a itself at j = 0 (a region to read
 * that the caller ignores). */
static uint8_t crossing_at[27][3][4];

/* The values of the grid the last search with this rater saw (a copy), the
 * number of empty cells of each region in it, and as a mask over SE's order
 * (bit k: region_order[k]) the regions with one empty cell. Steps place a
 * value in one cell at most, so the counts carry over but for that cell's
 * three regions. Exact: a region's count reads only the values of its nine
 * cells, and every cell whose value differs from the copy moves the counts of
 * its three regions by its change (empty or not) before the copy takes its
 * value; any other grid (a hint's, the next rating's) is followed the same
 * way, and the first call with a rater counts all. */
struct alone_count {
    bool valid;
    uint8_t value[SE_CELLS];
    uint8_t empty[27]; /* by place in SE's order */
    uint32_t alone;
};

/* A value's intersections (and a direct one's following single) read only
 * its places. Per rater, direct or not, by value: its places in the nine
 * rows when a call found none of it. Those list every empty cell where the
 * value is a candidate, so they give its places in every region: the same
 * rows give none again. A memo is never wrong, only overwritten. */
struct lock_memo {
    uint16_t rows[10][9];
    bool empty[10];
};

/* A naked set of a region reads only the candidates of the region's cells.
 * Per rater, by degree, by region:
 * those candidates when a call found no set there; the same ones give none
 * again. A memo is never wrong, only overwritten. */
struct set_memo {
    uint16_t cand[27][9];
    bool empty[27];
};

/* A hidden set (and a direct one's following single, and whether its step
 * removes anything) reads only the places of the region's values. Per
 * rater, direct or not, by degree, by region: those places when a call
 * found no set there; the same ones give none again. A memo is never wrong,
 * only overwritten. */
struct hidden_memo {
    uint16_t at[27][9];
    bool empty[27];
};

/* A value's fish read only its places in the rows and columns and how many
 * times it is placed. Per rater and degree, by value: those when a whole
 * se_fish call found no fish of it; the same ones give none again (most
 * steps change the places of a few values). A memo is never wrong, only
 * overwritten. */
struct fish_key {
    uint16_t at[18];
    uint8_t placed;
};
struct fish_memo {
    struct fish_key key[10];
    bool empty[10];
};

/* What this file keeps between calls of one rater (struct se_rater). */
struct se_basic_memo {
    struct alone_count last;
    struct lock_memo lock_memo[2];
    struct set_memo set_memo[5];
    struct hidden_memo hidden_memo[2][5];
    struct fish_memo fish_memo[5];
};

struct se_basic_memo *se_basic_memo_new(void)
{
    return calloc(1, sizeof(struct se_basic_memo));
}

void se_basic_memo_free(struct se_basic_memo *m)
{
    free(m);
}

/* crossing_holding's entry, from the first region of type t1. */
static int holding_crossing(int t1, int t2, unsigned m)
{
    const int a = t1 * 9;
    for (int j = 0; t1 != t2 && se_popcount(m) >= 2 && j < 3; j++)
        if (!(m & ~(unsigned) region_overlap[a][crossing[a][t2][j]]))
            return j + 1;
    return 0;
}

void se_basic_tables_init(void)
{
    for (int c = 0; c < SE_CELLS; c++) {
        const int r = c / 9, col = c % 9;
        cell_order[c][0] = se_cell_region[c][0];
        cell_order[c][1] = (uint8_t) (18 + r);
        cell_order[c][2] = (uint8_t) (9 + col);
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
    for (int t1 = 0; t1 < 3; t1++)
        for (int t2 = 0; t2 < 3; t2++)
            for (unsigned m = 0; m < 512; m++)
                crossing_holding[t1][t2][m] = (uint8_t) holding_crossing(t1, t2, m);
    for (int a = 0; a < 27; a++)
        for (int t = 0; t < 3; t++) {
            crossing_at[a][t][0] = (uint8_t) a;
            for (int j = 0; j < 3; j++)
                crossing_at[a][t][j + 1] = crossing[a][t][j];
        }
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

/* The values with one place among nine cells at c: three triples c[3k*s3 ..]
 * of cells s1 apart, s3 apart from each other (box 1, 9; row 1, 3; column
 * 9, 27). Each triple is folded first: `once` has the values seen, `more`
 * those seen twice or more. */
static inline unsigned singles_at(const uint16_t *c, int s1, int s3)
{
    unsigned once[3], more[3];
    for (int k = 0; k < 3; k++) {
        const unsigned a = c[k * s3], b = c[k * s3 + s1], d = c[k * s3 + 2 * s1];
        once[k] = a | b | d;
        more[k] = (a & b) | (d & (a | b));
    }
    const unsigned all_more = more[0] | more[1] | more[2] | (once[0] & once[1])
        | (once[2] & (once[0] | once[1]));
    return (once[0] | once[1] | once[2]) & ~all_more;
}

/* The values with exactly one place in r. */
static unsigned single_place_values(const struct se_grid *g, int r)
{
    if (r < 9)
        return singles_at(&g->cand[r / 3 * 27 + r % 3 * 3], 1, 9);
    if (r < 18)
        return singles_at(&g->cand[(r - 9) * 9], 1, 3);
    return singles_at(&g->cand[r - 18], 9, 27);
}

/* Region r's place in SE's order (region_order: boxes, columns, rows). */
static int order_of(int r)
{
    return r < 9 ? r : r >= 18 ? r - 9 : r + 9;
}

/* Follows cell c's value into the copy and its regions' counts. */
static void value_follow(struct alone_count *last, const struct se_grid *g, int c)
{
    const int was_empty = last->value[c] == 0, is_empty = g->value[c] == 0;
    last->value[c] = g->value[c];
    if (was_empty == is_empty)
        return;
    for (int t = 0; t < 3; t++) {
        const int k = cell_order[c][t];
        last->empty[k] = (uint8_t) (last->empty[k] + is_empty - was_empty);
        last->alone ^= (last->alone ^ (last->empty[k] == 1 ? ~0u : 0u)) & (1u << k);
    }
}

/* Brings `last` to g's values: the chunks of eight cells (cells 0-79, then
 * 80 alone) that differ are marked in one pass, then their cells followed. */
static uint32_t alone_follow(struct alone_count *last, const struct se_grid *g)
{
    if (!last->valid) {
        memset(last->value, 0, sizeof(last->value));
        for (int r = 0; r < 27; r++)
            last->empty[r] = 9;
        last->alone = 0;
        last->valid = true;
    }
    unsigned changed = (unsigned) (g->value[80] != last->value[80]) << 10;
    for (int i = 0; i < 10; i++) {
        uint64_t x, y;
        memcpy(&x, &g->value[i * 8], sizeof(x));
        memcpy(&y, &last->value[i * 8], sizeof(y));
        changed |= (unsigned) (x != y) << i;
    }
    for (; changed; changed &= changed - 1) {
        const int c0 = __builtin_ctz(changed) * 8;
        if (c0 == 80) {
            value_follow(last, g, 80);
            continue;
        }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* the differing bytes of the chunk, the first (cell c0) lowest: no
         * test per cell to mispredict */
        uint64_t x, y;
        memcpy(&x, &g->value[c0], sizeof(x));
        memcpy(&y, &last->value[c0], sizeof(y));
        for (uint64_t d = x ^ y; d;) {
            const int i = __builtin_ctzll(d) / 8;
            value_follow(last, g, c0 + i);
            d &= ~(0xFFull << (i * 8));
        }
#else
        for (int c = c0; c < c0 + 8; c++)
            if (g->value[c] != last->value[c])
                value_follow(last, g, c);
#endif
    }
    return last->alone;
}

/* The step of v, the first value of vals, in region r (k: r's place in SE's
 * order); a full house when r has one empty cell (bit k of alone). */
static void single_step(const struct se_grid *g, int r, int k, uint32_t alone,
    unsigned vals, struct se_step *s)
{
    const bool is_alone = (alone >> k) & 1;
    const int v = __builtin_ctz(vals);
    /* v's places in r (one): a mask, without a loop exit to mispredict */
    unsigned at = 0;
    for (int j = 0; j < 9; j++)
        at |= ((g->cand[se_region_cell[r][j]] >> v) & 1u) << j;
    const int i = __builtin_ctz(at);
    se_step_clear(s, is_alone ? SE_full_house : SE_hidden_single,
        is_alone ? 10 : (r < 9 ? 12 : 15));
    s->place_cell = se_region_cell[r][i];
    s->place_value = v;
    s->region = r;
}

/* Per column, the values a band's three rows (cells at c) hold once or more
 * (`once`), and twice or more (`more`): nine lanes, which compilers fold as
 * vectors. */
static void band_fold(const uint16_t *c, uint16_t once[9], uint16_t more[9])
{
    for (int i = 0; i < 9; i++) {
        const unsigned a = c[i], b = c[9 + i], d = c[18 + i];
        once[i] = (uint16_t) (a | b | d);
        more[i] = (uint16_t) ((a & b) | (d & (a | b)));
    }
}

/* The values held once among three lanes' once/more pairs. */
static unsigned fold3_singles(const uint16_t *once, const uint16_t *more, int step)
{
    const unsigned a = once[0], b = once[step], d = once[2 * step];
    const unsigned twice
        = more[0] | more[step] | more[2 * step] | (a & b) | (d & (a | b));
    return (a | b | d) & ~twice;
}

/* The first region of SE's order with a value of one place (or -1), and its
 * values in *vals. Boxes and columns are folded band by band (each box from
 * its band's columns, each column from the three bands): the values with
 * one place in a region are those its nine cells hold exactly once, however
 * the cells are grouped; rows, last in SE's order, region by region. */
static int first_single(const struct se_grid *g, unsigned *vals)
{
    uint16_t once[3][9], more[3][9];
    for (int band = 0; band < 3; band++) {
        band_fold(&g->cand[band * 27], once[band], more[band]);
        for (int stack = 0; stack < 3; stack++) {
            *vals = fold3_singles(&once[band][stack * 3], &more[band][stack * 3], 1);
            if (*vals)
                return band * 3 + stack;
        }
    }
    for (int col = 0; col < 9; col++) {
        *vals = fold3_singles(&once[0][col], &more[0][col], 9);
        if (*vals)
            return 18 + col;
    }
    for (int r = 9; r < 18; r++) {
        *vals = single_place_values(g, r);
        if (*vals)
            return r;
    }
    return -1;
}

/* A full house (the last empty cell of a region) in any region first, then
 * a hidden single, each in the first region of SE's order that has one;
 * before the places are made: most steps end here. The full-house regions
 * come from alone_follow, as counting each region's empty cells gave them. */
bool se_hidden_single(struct se_rater *rt, const struct se_grid *g, struct se_step *s)
{
    const uint32_t alone = alone_follow(&rt->basic->last, g);
    for (uint32_t left = alone; left; left &= left - 1) {
        const int k = __builtin_ctz(left), r = region_order[k];
        const unsigned vals = single_place_values(g, r);
        if (vals) {
            single_step(g, r, k, alone, vals, s);
            return true;
        }
    }
    unsigned vals;
    const int r = first_single(g, &vals);
    if (r < 0)
        return false;
    single_step(g, r, order_of(r), alone, vals, s);
    return true;
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

/* The regions r1 of type t1 (bits r1 - t1) where v's places, two or more,
 * all lie in one crossing region r2 of type t2 that has v outside r1: where
 * a step can be; without branches, as most regions have none. */
static unsigned lockings_of(const struct se_places *p, int t1, int t2, int v)
{
    unsigned found = 0;
    for (int i = 0; i < 9; i++) {
        const int r1 = t1 + i;
        /* at most one crossing holds two or more places (j: 1 + its index) */
        const int j = crossing_holding[t1 / 9][t2 / 9][p->at[r1][v]];
        const int r2 = crossing_at[r1][t2 / 9][j];
        const unsigned outside = p->at[r2][v] & ~(unsigned) region_overlap[r2][r1];
        found |= (unsigned) (j != 0 && outside != 0) << i;
    }
    return found;
}

/* The crossing region of type t2 that holds v's places in r1 (of type t1),
 * where lockings_of found one. */
static int holding_region(const struct se_places *p, int r1, int t1, int t2, int v)
{
    return crossing_at[r1][t2 / 9][crossing_holding[t1 / 9][t2 / 9][p->at[r1][v]]];
}

static bool locking_scan(
    const struct se_places *p, bool direct, unsigned skip, struct se_step *s)
{
    for (int k = 0; k < 4; k++) {
        int t1 = lock_pairs[k][0] * 9, t2 = lock_pairs[k][1] * 9;
        for (int v = 1; v <= 9; v++) {
            if ((skip >> v) & 1)
                continue;
            for (unsigned at = lockings_of(p, t1, t2, v); at; at &= at - 1) {
                const int r1 = t1 + __builtin_ctz(at);
                const int r2 = holding_region(p, r1, t1, t2, v);
                bool box_first = t1 == 0;
                int hcell = direct ? following_single(p, r1, r2, v) : -1;
                if (direct && hcell < 0)
                    continue;
                if (direct)
                    se_step_clear(s, box_first ? SE_direct_pointing : SE_direct_claiming,
                        box_first ? 17 : 19);
                else
                    se_step_clear(
                        s, box_first ? SE_pointing : SE_claiming, box_first ? 26 : 28);
                locking_elims(p->g, r1, r2, v, s);
                s->place_cell = hcell;
                s->place_value = direct ? v : -1;
                return direct_only_places(s);
            }
        }
    }
    return false;
}

static bool locking(struct lock_memo *lock_memo, const struct se_places *p, bool direct,
    struct se_step *s)
{
    unsigned skip = 0;
    for (int v = 1; v <= 9; v++) {
        unsigned diff = !lock_memo[direct].empty[v];
        for (int r = 0; r < 9; r++)
            diff |= lock_memo[direct].rows[v][r] ^ p->at[9 + r][v];
        skip |= diff ? 0 : 1u << v;
    }
    if (locking_scan(p, direct, skip, s))
        return true;
    for (int v = 1; v <= 9; v++) {
        for (int r = 0; r < 9; r++)
            lock_memo[direct].rows[v][r] = p->at[9 + r][v];
        lock_memo[direct].empty[v] = true;
    }
    return false;
}

bool se_direct_locking(struct se_rater *rt, const struct se_places *p, struct se_step *s)
{
    return locking(rt->basic->lock_memo, p, true, s);
}

bool se_locking(struct se_rater *rt, const struct se_places *p, struct se_step *s)
{
    return locking(rt->basic->lock_memo, p, false, s);
}

/* SE's common tuple: every member has at least two elements and together
 * they have exactly `degree`. */
static unsigned common_tuple(const unsigned *sets, int degree)
{
    unsigned u = 0;
    for (int i = 0; i < degree; i++) {
        if (se_size_of[sets[i]] <= 1)
            return 0;
        u |= sets[i];
    }
    return se_size_of[u] == degree ? u : 0;
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

/* Direct hidden set: a value outside the set then has one place left in r
 * (its cell and value in *cell, *value). */
static bool direct_follow(const struct se_places *p, int r, unsigned values, unsigned pos,
    int *cell, int *value)
{
    for (int v = 1; v <= 9; v++) {
        if (values & (1u << v))
            continue;
        unsigned m = p->at[r][v];
        if (se_popcount(m) > 1 && one_bit(m & ~pos)) {
            *cell = se_region_cell[r][__builtin_ctz(m & ~pos)];
            *value = v;
            return true;
        }
    }
    return false;
}

/* A set found by first_set: the indexes of its members (in the array given)
 * and the union of their elements. */
typedef bool (*set_fn)(void *ctx, const int *pick, unsigned common);

/* fn on the combinations of `degree` of the n sets whose union has exactly
 * `degree` elements, in the order of SE's combinations (by the last member,
 * then the one before: see fish_lines), until fn takes one (true). The
 * callers pass only the sets of two to `degree` elements (no other is in a
 * set common_tuple accepts), so these are the combinations common_tuple
 * accepts, in the order of a plain walk over all combinations. A combination
 * is left as soon as the union of its members so far has more than `degree`
 * elements (more members cannot shrink it): that drops only combinations
 * common_tuple rejects. pick[0] is the last member, pick[d] before
 * pick[d - 1]. */
static bool first_set(const unsigned *sets, int n, int degree, set_fn fn, void *ctx)
{
    int pick[4], depth = 0;
    unsigned u[5] = { 0 };
    pick[0] = degree - 2;
    while (depth >= 0) {
        const int top = depth ? pick[depth - 1] - 1 : n - 1;
        if (++pick[depth] > top) {
            depth--;
            continue;
        }
        u[depth + 1] = u[depth] | sets[pick[depth]];
        const int size = se_size_of[u[depth + 1]];
        if (size > degree)
            continue;
        if (depth + 1 < degree) {
            depth++;
            pick[depth] = degree - depth - 2; /* the lowest it can be, less one */
        } else if (size == degree && fn(ctx, pick, u[degree]))
            return true;
    }
    return false;
}

static bool set_memo_same(
    const struct set_memo *set_memo, const struct se_grid *g, int degree, int r)
{
    if (!set_memo[degree].empty[r])
        return false;
    for (int i = 0; i < 9; i++)
        if (set_memo[degree].cand[r][i] != g->cand[se_region_cell[r][i]])
            return false;
    return true;
}

static void set_memo_keep(
    struct set_memo *set_memo, const struct se_grid *g, int degree, int r)
{
    for (int i = 0; i < 9; i++)
        set_memo[degree].cand[r][i] = g->cand[se_region_cell[r][i]];
    set_memo[degree].empty[r] = true;
}

/* A hidden set's search in one region: its members (values with two to
 * `degree` places, as bits 1..9) and where the step goes. */
struct hidden_search {
    const struct se_places *p;
    int degree, r;
    bool direct;
    int member[9];
    struct se_step *s;
};

/* Takes the set when its step would remove a candidate (as se_step_useful
 * tests): a value outside the set has a place among the set's cells (common);
 * the step's removals are just those. A direct set also needs a following
 * single. The step is built only then, as hidden_elims and direct_follow
 * built it before the tests. */
static bool hidden_take(void *ctx, const int *pick, unsigned common)
{
    const struct hidden_search *h = ctx;
    const uint16_t *at = h->p->at[h->r];
    unsigned values = 0, others = 0;
    for (int i = 0; i < h->degree; i++)
        values |= 1u << h->member[pick[i]];
    for (int v = 1; v <= 9; v++)
        others |= values & (1u << v) ? 0 : at[v];
    if (!(others & common))
        return false;
    int cell = -1, value = -1;
    if (h->direct && !direct_follow(h->p, h->r, values, common, &cell, &value))
        return false;
    if (h->direct)
        se_step_clear(h->s,
            h->degree == 2 ? SE_direct_hidden_pair : SE_direct_hidden_triplet,
            h->degree == 2 ? 20 : 25);
    else
        se_step_clear(h->s, hidden_techs[h->degree], hidden_ratings[h->degree]);
    hidden_elims(h->p->g, h->r, values, common, h->s);
    h->s->place_cell = cell;
    h->s->place_value = value;
    if (h->direct)
        direct_only_places(h->s);
    return true;
}

/* The first useful hidden set of `degree` values in region r. */
static bool hidden_set_region(
    const struct se_places *p, int degree, bool direct, int r, struct se_step *s)
{
    struct hidden_search h
        = { .p = p, .degree = degree, .r = r, .direct = direct, .s = s };
    unsigned sets[9];
    int n = 0;
    for (int v = 1; v <= 9; v++) {
        /* written always, kept when its size fits: no branch to mispredict */
        const int size = se_size_of[p->at[r][v]];
        h.member[n] = v;
        sets[n] = p->at[r][v];
        n += size >= 2 && size <= degree;
    }
    return n >= degree && first_set(sets, n, degree, hidden_take, &h);
}

static bool hidden_set_scan(struct hidden_memo (*hidden_memo)[5],
    const struct se_places *p, int degree, bool direct, struct se_step *s)
{
    for (int k = 0; k < 27; k++) {
        int r = region_order[k], empty = p->empty[r];
        if (!(empty > degree * 2 || (direct && empty > degree)))
            continue;
        uint16_t *memo = hidden_memo[direct][degree].at[r];
        const size_t key = sizeof(hidden_memo[0][0].at[0]); /* values 1..9 */
        if (hidden_memo[direct][degree].empty[r] && !memcmp(memo, &p->at[r][1], key))
            continue;
        if (hidden_set_region(p, degree, direct, r, s))
            return true;
        memcpy(memo, &p->at[r][1], key);
        hidden_memo[direct][degree].empty[r] = true;
    }
    return false;
}

bool se_direct_hidden_set(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s)
{
    return hidden_set_scan(rt->basic->hidden_memo, p, degree, true, s);
}

bool se_hidden_set(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s)
{
    return hidden_set_scan(rt->basic->hidden_memo, p, degree, false, s);
}

static const int naked_ratings[5] = { 0, 0, 30, 36, 50 };
static const enum se_technique naked_techs[5]
    = { 0, 0, SE_naked_pair, SE_naked_triplet, SE_naked_quad };

/* A naked set's search in one region: its members (cells with two to
 * `degree` candidates, by position) and where the step goes. */
struct naked_search {
    const struct se_grid *g;
    int degree, r;
    int member[9];
    struct se_step *s;
};

/* Takes the set when its step would remove a candidate (as se_step_useful
 * tests): another cell of the region has one of the set's values (common);
 * the step's removals are just those. */
static bool naked_take(void *ctx, const int *pick, unsigned common)
{
    const struct naked_search *h = ctx;
    const struct se_grid *g = h->g;
    unsigned cellmask = 0, others = 0;
    for (int i = 0; i < h->degree; i++)
        cellmask |= 1u << h->member[pick[i]];
    for (int i = 0; i < 9; i++)
        others |= cellmask & (1u << i) ? 0 : g->cand[se_region_cell[h->r][i]];
    if (!(others & common))
        return false;
    struct se_step *s = h->s;
    se_step_clear(s, naked_techs[h->degree], naked_ratings[h->degree]);
    for (int i = 0; i < 9; i++) {
        int c = se_region_cell[h->r][i];
        if (cellmask & (1u << i))
            s->cells[s->ncells++] = (uint8_t) c;
        else
            s->elim[c] = (uint16_t) (g->cand[c] & common);
    }
    s->digits = (uint16_t) common;
    s->region = h->r;
    return true;
}

/* The first useful naked set of `degree` cells in region r. */
static bool naked_set_region(
    const struct se_grid *g, int degree, int r, struct se_step *s)
{
    struct naked_search h = { .g = g, .degree = degree, .r = r, .s = s };
    unsigned sets[9];
    int n = 0;
    for (int i = 0; i < 9; i++) {
        /* written always, kept when its size fits: no branch to mispredict */
        const unsigned cand = g->cand[se_region_cell[r][i]];
        const int size = se_size_of[cand];
        h.member[n] = i;
        sets[n] = cand;
        n += size >= 2 && size <= degree;
    }
    return n >= degree && first_set(sets, n, degree, naked_take, &h);
}

bool se_naked_set(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s)
{
    struct set_memo *const set_memo = rt->basic->set_memo;
    const struct se_grid *g = p->g;
    for (int k = 0; k < 27; k++) {
        int r = region_order[k];
        if (p->empty[r] < degree * 2 || set_memo_same(set_memo, g, degree, r))
            continue;
        if (naked_set_region(g, degree, r, s))
            return true;
        set_memo_keep(set_memo, g, degree, r);
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

static void fish_key_of(const struct se_places *p, int v, struct fish_key *k)
{
    memset(k, 0, sizeof(*k));
    for (int l = 0; l < 18; l++)
        k->at[l] = p->at[9 + l][v];
    k->placed = p->placed[v];
}

/* The combinations of `degree` lines (from base) in SE's order and, for
 * each, the live values in ascending order for which all its lines are
 * wide, as a plain walk over all combinations with each value tested gave
 * them. SE walks the combinations as bit sets in increasing value (its
 * Permutations): by the highest line first, then the next highest, so
 * lines 3 and 4 come before lines 0 and 5. Depth first from the highest
 * line down, a combination is left as soon as no value has all its lines
 * chosen so far wide (no value can have all of it then). */
static bool fish_lines(const struct se_places *p, int degree, int base,
    const unsigned *wide, unsigned live, struct se_step *s)
{
    unsigned by_line[9]; /* the live values for which a line is wide */
    for (int l = 0; l < 9; l++) {
        by_line[l] = 0;
        for (int v = 1; v <= 9; v++)
            by_line[l] |= (live >> v) & (wide[v] >> l) & 1u ? 1u << v : 0;
    }
    /* idx[0] the highest line, idx[depth] below idx[depth - 1] */
    int idx[4], depth = 0;
    unsigned vals[5] = { live };
    idx[0] = degree - 2;
    while (depth >= 0) {
        const int top = depth ? idx[depth - 1] - 1 : 8;
        if (++idx[depth] > top) {
            depth--;
            continue;
        }
        vals[depth + 1] = vals[depth] & by_line[idx[depth]];
        if (!vals[depth + 1])
            continue;
        if (depth + 1 < degree) {
            depth++;
            idx[depth] = degree - depth - 2; /* the lowest it can be, less one */
            continue;
        }
        for (unsigned left = vals[degree]; left; left &= left - 1) {
            const int v = __builtin_ctz(left);
            unsigned lines[4];
            for (int i = 0; i < degree; i++)
                lines[i] = p->at[base + idx[i]][v];
            if (common_tuple(lines, degree)
                && fish_one(p->g, p->at, degree, base, v, idx, s))
                return true;
        }
    }
    return false;
}

static bool fish_scan(
    const struct se_places *p, int degree, unsigned skip, struct se_step *s)
{
    /* base columns (18) before base rows (9), as SE's Fisherman: the first
     * fish found is the step taken */
    for (int base = 18; base >= 9; base -= 9) {
        /* by value: the lines where it has two to `degree` places; another
         * line is in no fish (common_tuple), so a combination with one is
         * passed over before its tuple is built */
        unsigned wide[10] = { 0 }, live = 0;
        for (int v = 1; v <= 9; v++) {
            if ((skip >> v) & 1 || p->placed[v] + degree * 2 > 9)
                continue;
            for (int l = 0; l < 9; l++) {
                /* a mask, not a branch: which lines fit is hard to predict */
                const int n = se_size_of[p->at[base + l][v]];
                wide[v] |= (unsigned) (n >= 2 && n <= degree) << l;
            }
            if (se_size_of[wide[v]] >= degree)
                live |= 1u << v;
        }
        if (!live)
            continue; /* no value has `degree` lines to make a fish of */
        if (fish_lines(p, degree, base, wide, live, s))
            return true;
    }
    return false;
}

bool se_fish(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s)
{
    struct fish_memo *const fish_memo = rt->basic->fish_memo;
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
 * reduced grid have none (and the nested levels ask these rules at every
 * stall). ---- */

bool se_each_locking(const struct se_reduced *red, se_hint_fn fn, void *ctx)
{
    const struct se_grid *g = red->g;
    for (int k = 0; k < 4; k++) {
        const int type1 = lock_pairs[k][0], t1 = type1 * 9, t2 = lock_pairs[k][1];
        for (int v = 1; v <= 9; v++)
            for (unsigned m = (red->lost_in[v] >> t1) & 0x1FFu; m; m &= m - 1) {
                const int r1 = t1 + __builtin_ctz(m); /* lost a place of v */
                /* v's places in r1 (two or more) all lie in one region r2
                 * of type t2 crossing r1 (crossing_holding: which one, the
                 * overlaps being disjoint in r1), or there is no lock */
                const unsigned j = crossing_holding[type1][t2][red->at[r1][v]];
                if (!j)
                    continue;
                const int r2 = crossing[r1][t2][j - 1];
                const unsigned why
                    = se_lost_at(red, r1, v) & ~(unsigned) region_overlap[r1][r2];
                if (!why)
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
        m |= (unsigned) (se_size_of[red->at[r][v]] == 2) << v;
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
        /* v1 < v2 in the order of SE's combinations of the nine values (by
         * v2, then v1: see fish_lines), which decides whose parents a
         * removal two pairs share keeps; a value with other than two places
         * is in no pair (same_pair) */
        for (unsigned m2 = pairable & (pairable - 1); m2; m2 &= m2 - 1)
            for (unsigned m1 = pairable & ((1u << __builtin_ctz(m2)) - 1); m1;
                 m1 &= m1 - 1) {
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
        if (!se_two_bits(red->g->cand[c]))
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
        /* a < b in the order of SE's combinations of the nine positions
         * (by b, then a: see fish_lines) */
        for (unsigned mb = pair & (pair - 1); mb; mb &= mb - 1)
            for (unsigned ma = pair & ((1u << __builtin_ctz(mb)) - 1); ma; ma &= ma - 1) {
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

/* The values of `want` placed in at most five cells of g: the only ones an
 * X-wing can have (se_fish's rule, placed + 2 * 2 <= 9). Counted a value at
 * a time (a loop the compiler can vectorise), for the few values wanted. */
static unsigned x_wing_values(const struct se_grid *g, unsigned want)
{
    unsigned live = 0;
    for (unsigned m = want; m; m &= m - 1) {
        const int v = __builtin_ctz(m);
        int placed = 0;
        for (int c = 0; c < SE_CELLS; c++)
            placed += g->value[c] == v;
        if (placed + 4 <= 9)
            live |= 1u << v;
    }
    return live;
}

bool se_each_x_wing(const struct se_reduced *red, se_hint_fn fn, void *ctx)
{
    const struct se_grid *g = red->g;
    /* the values that lost a place in a line (a base line of rows or of
     * columns): the others have no parents */
    unsigned want = 0;
    for (int v = 1; v <= 9; v++)
        if ((red->lost_in[v] >> 9) & 0x3FFFFu)
            want |= 1u << v;
    const unsigned live = x_wing_values(g, want);
    /* base columns first, then base rows, as SE's Fisherman: when two
     * X-wings remove the same candidate, the removal keeps the parents of
     * the one found first */
    for (int base = 18; base >= 9; base -= 9) {
        /* the values that lost a place in a base line with two places of
         * theirs, and those lines (`lost`): a hint's parents are removals
         * of its value from one of its two base lines, each with two places
         * of it (same_pair); other values and pairs of lines have none */
        unsigned values = 0, lost = 0;
        for (unsigned m = live; m; m &= m - 1) {
            const int v = __builtin_ctz(m);
            unsigned hit = 0;
            for (unsigned o = (red->lost_in[v] >> base) & 0x1FFu; o; o &= o - 1)
                hit |= (unsigned) (se_size_of[red->at[base + __builtin_ctz(o)][v]] == 2)
                    << __builtin_ctz(o);
            values |= (unsigned) (hit != 0) << v;
            lost |= hit;
        }
        /* by line: the values with two places there, the only ones that can
         * make a pair of lines (same_pair) */
        unsigned two[9] = { 0 };
        for (int l = 0; l < 9; l++)
            for (unsigned m = values; m; m &= m - 1)
                two[l]
                    |= (unsigned) (se_size_of[red->at[base + l][__builtin_ctz(m)]] == 2)
                    << __builtin_ctz(m);
        /* the pairs of lines in the order of SE's combinations (by the
         * higher line, then the lower: see fish_lines), each with a line of
         * `lost` (else there are no parents) */
        unsigned paired = 0; /* the lines with a value of two places */
        for (int l = 0; l < 9; l++)
            paired |= (unsigned) (two[l] != 0) << l;
        for (unsigned m1 = paired; m1; m1 &= m1 - 1) {
            const int i1 = __builtin_ctz(m1);
            /* i0 < i1, and one of the two lost a place */
            const unsigned first
                = paired & ((1u << i1) - 1) & ((lost >> i1) & 1u ? ~0u : lost);
            for (unsigned m0 = first; m0; m0 &= m0 - 1) {
                const int i0 = __builtin_ctz(m0);
                const int idx[2] = { i0, i1 }, l0 = base + i0, l1 = base + i1;
                if (!(two[i0] & two[i1]))
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
    }
    return true;
}
