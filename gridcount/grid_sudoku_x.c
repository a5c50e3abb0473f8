/* Counting 9x9 Sudoku X grids by bands (see grid_sudoku_x.h).
 *
 * Digits are 0..8 inside, sets of them 9-bit masks. A stack's arrangement
 * packs its three row sets into one 27-bit word (row r in bits 9r..9r+8), so
 * two stacks fit together in a band when their words share no bit. */
#include "gridcount/grid_sudoku_x.h"

#include <stdlib.h>
#include <string.h>

enum {
    GX_ALL = 0x1FF,
    GX_FULL = (1 << 27) - 1, /* every row set full */
    GX_ARRANGEMENTS = 216, /* 3!^3 row orders of a stack's three columns */
    GX_CHOICES = 56, /* column sets a band may take in a stack after one band */
    GX_BAND_BITS = 15, /* > 56 * 216: a first band's tables */
};

static const uint8_t gx_perm[6][3]
    = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };

/* One stack of one band: its row sets, and the digits its box puts on the
 * cells of the main ((0,0), (1,1), (2,2)) and anti ((0,2), (1,1), (2,0))
 * diagonals of the box. */
struct gx_arrangement {
    uint32_t rows;
    uint16_t main, anti;
};

/* The three digits of a column's mask. */
static void gx_digits(unsigned mask, int out[3])
{
    int n = 0;
    for (int d = 0; d < GRID_X_N && n < 3; d++)
        if (mask >> d & 1u)
            out[n++] = d;
}

/* Every arrangement of a stack whose columns hold cols[0..2] (3 digits each). */
static void gx_arrange(const uint16_t cols[3], struct gx_arrangement out[GX_ARRANGEMENTS])
{
    int d[3][3];
    for (int j = 0; j < 3; j++)
        gx_digits(cols[j], d[j]);
    int n = 0;
    for (int p0 = 0; p0 < 6; p0++)
        for (int p1 = 0; p1 < 6; p1++)
            for (int p2 = 0; p2 < 6; p2++) {
                const int p[3] = { p0, p1, p2 };
                unsigned cell[3][3];
                uint32_t rows = 0;
                for (int r = 0; r < 3; r++) {
                    for (int j = 0; j < 3; j++) {
                        cell[r][j] = 1u << d[j][gx_perm[p[j]][r]];
                        rows |= (uint32_t) cell[r][j] << (9 * r);
                    }
                }
                out[n++] = (struct gx_arrangement) { rows,
                    (uint16_t) (cell[0][0] | cell[1][1] | cell[2][2]),
                    (uint16_t) (cell[0][2] | cell[1][1] | cell[2][0]) };
            }
}

/* The column sets a band may take in one stack after a band with column sets
 * taken[0..2]: three of each column's six other digits, every digit once.
 * Fills mid (that band's) and low (the third band's, the rest); returns how
 * many. */
static int gx_choices(const uint16_t taken[3], uint16_t mid[][3], uint16_t low[][3])
{
    int n = 0;
    for (unsigned a = 0; a <= GX_ALL; a++) {
        if (__builtin_popcount(a) != 3 || a & taken[0])
            continue;
        for (unsigned b = 0; b <= GX_ALL; b++) {
            if (__builtin_popcount(b) != 3 || b & (taken[1] | a))
                continue;
            const unsigned c = GX_ALL & ~(a | b);
            if (c & taken[2])
                continue;
            const uint16_t t[3] = { (uint16_t) a, (uint16_t) b, (uint16_t) c };
            for (int j = 0; j < 3; j++) {
                mid[n][j] = t[j];
                low[n][j] = (uint16_t) (GX_ALL & ~(taken[j] | t[j]));
            }
            n++;
        }
    }
    return n;
}

static uint32_t gx_hash(uint32_t key, int bits)
{
    return (key * 0x9E3779B1u) >> (32 - bits);
}

/* An open-addressed table of 32-bit keys, emptied by a new stamp. */
struct gx_slot {
    uint32_t key, stamp, value;
};

static struct gx_slot *gx_find(struct gx_slot *h, int bits, uint32_t stamp, uint32_t key)
{
    for (uint32_t i = gx_hash(key, bits);; i = (i + 1) & ((1u << bits) - 1))
        if (h[i].stamp != stamp || h[i].key == key)
            return &h[i];
}

/* The value at key, or 0 when absent. */
static uint32_t gx_get(const struct gx_slot *h, int bits, uint32_t stamp, uint32_t key)
{
    for (uint32_t i = gx_hash(key, bits);; i = (i + 1) & ((1u << bits) - 1)) {
        if (h[i].stamp != stamp)
            return 0;
        if (h[i].key == key)
            return h[i].value;
    }
}

/* A list node: a stack-2 choice of the third band (see fit_of below). */
struct gx_node {
    uint32_t choice, next; /* next: node + 1, 0 at the end */
};

/* The working state of one first band's count (large: one per thread). */
struct grid_x_scratch {
    uint8_t orders_avoiding[27]; /* gx_init_orders */
    int n[3]; /* choices per stack */
    uint16_t mid[3][GX_CHOICES][3], low[3][GX_CHOICES][3]; /* column sets */
    struct gx_arrangement amid[3][GX_CHOICES][GX_ARRANGEMENTS],
        alow[3][GX_CHOICES][GX_ARRANGEMENTS];
    /* the digits of each column of the middle band's stack-1 choices and of
     * the third band's stack-3 choices; where the third band's stack-1
     * arrangements put each digit (gx_row_of) */
    uint8_t dmid[GX_CHOICES][3][3], dlow[GX_CHOICES][3][3];
    uint32_t atlow[GX_CHOICES][GX_ARRANGEMENTS];
    /* the middle band's stack-2 arrangements whose box 5 fits the diagonals
     * (choice i, arrangement x: member i * 256 + x), in groups by (choice,
     * main, anti), each group a chain of members */
    uint32_t member_at[GX_CHOICES][GX_ARRANGEMENTS]; /* gx_row_of */
    uint32_t member_next[GX_CHOICES * 256]; /* member + 1, 0 at the end */
    uint32_t group_first[GX_CHOICES * GX_ARRANGEMENTS], ngroups;
    struct gx_slot group[1 << GX_BAND_BITS]; /* (choice, main, anti) -> group + 1 */
    /* the third band's stack-2 arrangements by rows: the choices that have it */
    struct gx_slot fit_of[1 << GX_BAND_BITS]; /* rows -> first node + 1 */
    struct gx_node nodes[GX_CHOICES * GX_ARRANGEMENTS];
    uint32_t band_stamp;
    /* per pair of stack-1 and stack-3 choices: the middle band's orders per
     * group, counted when first needed (stamp) */
    uint32_t stamp, orders_stamp[GX_CHOICES * GX_ARRANGEMENTS];
    uint64_t orders[GX_CHOICES * GX_ARRANGEMENTS];
};

/* Where each digit sits in a stack's rows: 2 bits per digit. */
static uint32_t gx_row_of(uint32_t rows)
{
    uint32_t at = 0;
    for (int d = 0; d < GRID_X_N; d++)
        at |= (uint32_t) (rows >> d & 1u ? 0 : rows >> (9 + d) & 1u ? 1 : 2) << (2 * d);
    return at;
}

/* The orders (as gx_perm numbers them) of a column whose digits k = 0..2 may
 * not take row f_k, by f_0 + 3 f_1 + 9 f_2: a bit per order. */
static void gx_init_orders(uint8_t gx_orders_avoiding[27])
{
    for (int f = 0; f < 27; f++) {
        const int forbidden[3] = { f % 3, f / 3 % 3, f / 9 };
        uint8_t bits = 0;
        for (int p = 0; p < 6; p++) {
            bool fits = true;
            for (int r = 0; r < 3; r++)
                fits &= forbidden[gx_perm[p][r]] != r;
            bits |= (uint8_t) (fits << p);
        }
        gx_orders_avoiding[f] = bits;
    }
}

/* The arrangements (numbered as gx_arrange numbers them) of a stack whose
 * column j holds the digits d[j][0..2] and whose rows avoid those of another
 * stack of the band (its digits' rows in `at`, gx_row_of): each column's
 * digits take rows the other stack left them, a handful of orders per column
 * instead of all 216. */
static int gx_fitting(const uint8_t gx_orders_avoiding[27], uint32_t at,
    const uint8_t d[3][3], int out[GX_ARRANGEMENTS])
{
    int ok[3][6], nok[3];
    for (int j = 0; j < 3; j++) {
        const unsigned f = (at >> (2 * d[j][0]) & 3u) + 3 * (at >> (2 * d[j][1]) & 3u)
            + 9 * (at >> (2 * d[j][2]) & 3u);
        nok[j] = 0;
        for (unsigned bits = gx_orders_avoiding[f]; bits; bits &= bits - 1)
            ok[j][nok[j]++] = __builtin_ctz(bits);
    }
    int n = 0;
    for (int a = 0; a < nok[0]; a++)
        for (int b = 0; b < nok[1]; b++)
            for (int c = 0; c < nok[2]; c++)
                out[n++] = ok[0][a] * 36 + ok[1][b] * 6 + ok[2][c];
    return n;
}

/* Whether a stack whose columns hold cols[0..2] has an arrangement with
 * these row sets: every column meets every row once. */
static bool gx_fits(const uint16_t cols[3], uint32_t rows)
{
    for (int r = 0; r < 3; r++) {
        const unsigned row = rows >> (9 * r) & GX_ALL;
        for (int j = 0; j < 3; j++) {
            const unsigned meet = cols[j] & row;
            if (!meet || meet & (meet - 1))
                return false;
        }
    }
    return true;
}

/* Checks the band's rows and boxes; fills its column sets. */
static bool gx_read_band(const uint8_t band[GRID_X_BAND], uint16_t cols[GRID_X_N])
{
    uint16_t rows[3] = { 0 }, boxes[3] = { 0 };
    memset(cols, 0, GRID_X_N * sizeof(cols[0]));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < GRID_X_N; c++) {
            const int v = band[r * GRID_X_N + c];
            if (v < 1 || v > GRID_X_N)
                return false;
            const uint16_t bit = (uint16_t) (1u << (v - 1));
            if ((rows[r] | boxes[c / 3]) & bit)
                return false;
            rows[r] |= bit;
            boxes[c / 3] |= bit;
            cols[c] |= bit;
        }
    return true;
}

static uint32_t gx_group_key(int choice, unsigned main, unsigned anti)
{
    return (uint32_t) choice << 18 | main << 9 | anti;
}

/* The digits of each column of a stack's column sets. */
static void gx_column_digits(const uint16_t cols[3], uint8_t out[3][3])
{
    for (int j = 0; j < 3; j++) {
        int d[3];
        gx_digits(cols[j], d);
        for (int k = 0; k < 3; k++)
            out[j][k] = (uint8_t) d[k];
    }
}

/* Everything of a first band that its pairs of stack-1 and stack-3 choices
 * share: the choices, their arrangements, the groups and fit_of. */
static void gx_prepare(
    struct grid_x_scratch *t, const uint16_t cols[GRID_X_N], unsigned M, unsigned A)
{
    for (int s = 0; s < 3; s++) {
        t->n[s] = gx_choices(cols + 3 * s, t->mid[s], t->low[s]);
        for (int i = 0; i < t->n[s]; i++) {
            gx_arrange(t->mid[s][i], t->amid[s][i]);
            gx_arrange(t->low[s][i], t->alow[s][i]);
        }
    }
    for (int i = 0; i < t->n[0]; i++) {
        gx_column_digits(t->mid[0][i], t->dmid[i]);
        for (int x = 0; x < GX_ARRANGEMENTS; x++)
            t->atlow[i][x] = gx_row_of(t->alow[0][i][x].rows);
    }
    for (int i = 0; i < t->n[2]; i++)
        gx_column_digits(t->low[2][i], t->dlow[i]);
    t->band_stamp++;
    t->ngroups = 0;
    uint32_t nnodes = 0;
    for (int i = 0; i < t->n[1]; i++) {
        for (int x = 0; x < GX_ARRANGEMENTS; x++) {
            const struct gx_arrangement *a = &t->amid[1][i][x];
            if ((a->main & ~M) || (a->anti & ~A))
                continue;
            const uint32_t key = gx_group_key(i, a->main, a->anti);
            struct gx_slot *g = gx_find(t->group, GX_BAND_BITS, t->band_stamp, key);
            if (g->stamp != t->band_stamp) {
                *g = (struct gx_slot) { key, t->band_stamp, ++t->ngroups };
                t->group_first[g->value - 1] = 0;
            }
            const uint32_t member = (uint32_t) i * 256 + (uint32_t) x;
            t->member_at[i][x] = gx_row_of(a->rows);
            t->member_next[member] = t->group_first[g->value - 1];
            t->group_first[g->value - 1] = member + 1;
        }
        for (int y = 0; y < GX_ARRANGEMENTS; y++) {
            struct gx_slot *f
                = gx_find(t->fit_of, GX_BAND_BITS, t->band_stamp, t->alow[1][i][y].rows);
            if (f->stamp != t->band_stamp)
                *f = (struct gx_slot) { t->alow[1][i][y].rows, t->band_stamp, 0 };
            t->nodes[nnodes] = (struct gx_node) { (uint32_t) i, f->value };
            f->value = ++nnodes;
        }
    }
    memset(t->orders_stamp, 0, t->ngroups * sizeof(t->orders_stamp[0]));
    t->stamp = 0;
}

/* The middle band's orders in group g, its stacks 1 and 3 taking choices i1
 * and i3: for each member (box 5), the stack-1 arrangements whose rows avoid
 * it, and whether stack 3 fills the rest. */
static uint64_t gx_group_orders(struct grid_x_scratch *t, uint32_t g, int i1, int i3)
{
    if (t->orders_stamp[g] == t->stamp)
        return t->orders[g];
    uint64_t orders = 0;
    int fit[GX_ARRANGEMENTS];
    for (uint32_t m = t->group_first[g]; m; m = t->member_next[m - 1]) {
        const int i2 = (int) ((m - 1) / 256), x = (int) ((m - 1) % 256);
        const uint32_t rows = t->amid[1][i2][x].rows;
        const int nfit
            = gx_fitting(t->orders_avoiding, t->member_at[i2][x], t->dmid[i1], fit);
        for (int k = 0; k < nfit; k++)
            orders
                += gx_fits(t->mid[2][i3], GX_FULL ^ rows ^ t->amid[0][i1][fit[k]].rows);
    }
    t->orders_stamp[g] = t->stamp;
    t->orders[g] = orders;
    return orders;
}

/* Completions of a first band with column sets cols, digits m1 on the main
 * diagonal and a1 on the anti-diagonal: for each pair of stack-1 and stack-3
 * choices, each pair of the third band's arrangements there that fits the
 * diagonals, the stack-2 choices that complete its rows (fit_of), and the
 * middle band's orders with the diagonal digits it leaves. */
static uint64_t gx_complete(
    struct grid_x_scratch *t, const uint16_t cols[GRID_X_N], unsigned m1, unsigned a1)
{
    const unsigned M = GX_ALL & ~m1, A = GX_ALL & ~a1; /* left for bands 2 and 3 */
    gx_prepare(t, cols, M, A);
    uint64_t total = 0;
    int fit[GX_ARRANGEMENTS];
    for (int i1 = 0; i1 < t->n[0]; i1++)
        for (int i3 = 0; i3 < t->n[2]; i3++) {
            t->stamp++;
            const struct gx_arrangement *l1s = t->alow[0][i1], *l3s = t->alow[2][i3];
            for (int x = 0; x < GX_ARRANGEMENTS; x++) {
                if (l1s[x].anti & ~A)
                    continue;
                const int nfit
                    = gx_fitting(t->orders_avoiding, t->atlow[i1][x], t->dlow[i3], fit);
                for (int k = 0; k < nfit; k++) {
                    const struct gx_arrangement *y = &l3s[fit[k]];
                    if (y->main & ~M)
                        continue;
                    const uint32_t rest = GX_FULL ^ (l1s[x].rows | y->rows);
                    for (uint32_t e
                         = gx_get(t->fit_of, GX_BAND_BITS, t->band_stamp, rest);
                         e; e = t->nodes[e - 1].next) {
                        const uint32_t g = gx_get(t->group, GX_BAND_BITS, t->band_stamp,
                            gx_group_key((int) t->nodes[e - 1].choice, M ^ y->main,
                                A ^ l1s[x].anti));
                        if (g)
                            total += gx_group_orders(t, g - 1, i1, i3);
                    }
                }
            }
        }
    return total;
}

struct grid_x_scratch *grid_x_scratch_new(void)
{
    struct grid_x_scratch *t = calloc(1, sizeof(*t));
    if (t)
        gx_init_orders(t->orders_avoiding);
    return t;
}

void grid_x_scratch_free(struct grid_x_scratch *t)
{
    free(t);
}

uint64_t grid_x_completions(struct grid_x_scratch *t, const uint8_t band[GRID_X_BAND])
{
    uint16_t cols[GRID_X_N];
    if (!gx_read_band(band, cols))
        return 0;
    const uint8_t *b = band;
    const unsigned m1 = 1u << (b[0] - 1) | 1u << (b[10] - 1) | 1u << (b[20] - 1);
    const unsigned a1 = 1u << (b[8] - 1) | 1u << (b[16] - 1) | 1u << (b[24] - 1);
    return gx_complete(t, cols, m1, a1);
}

/* --- the plan: first bands with box 1 fixed, by key and class --- */

/* A first band's key: the column sets of columns 4-9 (columns 1-3 are box
 * 1's) in bits 9(c-3).., and its anti-diagonal digits in bits 54-62. */
static uint64_t gx_key(const uint8_t b[GRID_X_BAND])
{
    uint64_t key = 0;
    for (int c = 3; c < GRID_X_N; c++) {
        unsigned col = 0;
        for (int r = 0; r < 3; r++)
            col |= 1u << b[r * GRID_X_N + c];
        key |= (uint64_t) col << (9 * (c - 3));
    }
    const unsigned a1 = 1u << b[8] | 1u << b[16] | 1u << b[24];
    return key | (uint64_t) a1 << 54;
}

/* Maps of the grid that keep the first band and both diagonals, each
 * permuting rows r -> row[r] and columns c -> col[c] of the first band (the
 * rest of the grid follows as the map says). They generate the 24: rows 1
 * and 2 swapped with columns 1, 2 and 8, 9 (the mirror), likewise rows 2
 * and 3, columns 4 and 6 swapped with rows 4 and 6, and the columns
 * reversed, which swaps the diagonals. */
enum { GX_GENERATORS = 4 };
static const uint8_t gx_gen_row[GX_GENERATORS][3]
    = { { 1, 0, 2 }, { 0, 2, 1 }, { 0, 1, 2 }, { 0, 1, 2 } };
static const uint8_t gx_gen_col[GX_GENERATORS][GRID_X_N] = {
    { 1, 0, 2, 3, 4, 5, 6, 8, 7 },
    { 0, 2, 1, 3, 4, 5, 7, 6, 8 },
    { 0, 1, 2, 5, 4, 3, 6, 7, 8 },
    { 8, 7, 6, 5, 4, 3, 2, 1, 0 },
};

/* The image of band b (digits 0..8) under generator g, relabelled so that
 * box 1 is 0..8 again. */
static void gx_image(const uint8_t b[GRID_X_BAND], int g, uint8_t out[GRID_X_BAND])
{
    uint8_t moved[GRID_X_BAND], label[GRID_X_N];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < GRID_X_N; c++)
            moved[gx_gen_row[g][r] * GRID_X_N + gx_gen_col[g][c]] = b[r * GRID_X_N + c];
    for (int i = 0; i < GRID_X_N; i++)
        label[moved[i / 3 * GRID_X_N + i % 3]] = (uint8_t) i;
    for (int i = 0; i < GRID_X_BAND; i++)
        out[i] = label[moved[i]];
}

struct grid_x {
    uint64_t bands;
    size_t nkeys;
    uint64_t *keys; /* sorted */
    uint32_t *key_bands; /* first bands per key */
    uint32_t *parent; /* union-find over keys: the classes */
    uint8_t (*rep)[GRID_X_BAND]; /* a first band of each key, digits 0..8 */
    size_t nclasses;
    uint32_t *class_of_root; /* by key: the class of a root */
    uint32_t *class_key; /* a key of each class */
    uint64_t *class_bands;
};

/* Every first band with box 1 fixed, cell by cell (columns 4-9), handed to
 * visit. */
struct gx_walk {
    uint8_t b[GRID_X_BAND];
    uint16_t rows[3], boxes[3];
    void (*visit)(struct grid_x *gx, const uint8_t b[GRID_X_BAND]);
    struct grid_x *gx;
};

static void gx_walk(struct gx_walk *w, int p)
{
    if (p == GRID_X_BAND) {
        w->visit(w->gx, w->b);
        return;
    }
    const int r = p / GRID_X_N, c = p % GRID_X_N;
    if (c < 3) {
        gx_walk(w, p + 1);
        return;
    }
    for (int v = 0; v < GRID_X_N; v++) {
        const uint16_t bit = (uint16_t) (1u << v);
        if ((w->rows[r] | w->boxes[c / 3]) & bit)
            continue;
        w->rows[r] ^= bit;
        w->boxes[c / 3] ^= bit;
        w->b[p] = (uint8_t) v;
        gx_walk(w, p + 1);
        w->rows[r] ^= bit;
        w->boxes[c / 3] ^= bit;
    }
}

static void gx_walk_all(
    struct grid_x *gx, void (*visit)(struct grid_x *, const uint8_t *))
{
    struct gx_walk w = { .visit = visit, .gx = gx };
    for (int i = 0; i < GRID_X_N; i++) {
        w.b[i / 3 * GRID_X_N + i % 3] = (uint8_t) i;
        w.rows[i / 3] |= (uint16_t) (1u << i);
    }
    w.boxes[0] = GX_ALL;
    gx_walk(&w, 0);
}

static void gx_collect(struct grid_x *gx, const uint8_t b[GRID_X_BAND])
{
    gx->keys[gx->bands++] = gx_key(b);
}

static int gx_key_compare(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return (x > y) - (x < y);
}

static size_t gx_key_index(const struct grid_x *gx, uint64_t key)
{
    size_t lo = 0, hi = gx->nkeys;
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (gx->keys[mid] <= key)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static uint32_t gx_root(uint32_t *parent, uint32_t k)
{
    while (parent[k] != k)
        k = parent[k] = parent[parent[k]];
    return k;
}

static void gx_join(struct grid_x *gx, const uint8_t b[GRID_X_BAND])
{
    const size_t k = gx_key_index(gx, gx_key(b));
    if (!gx->key_bands[k]++)
        memcpy(gx->rep[k], b, GRID_X_BAND);
    for (int g = 0; g < GX_GENERATORS; g++) {
        uint8_t image[GRID_X_BAND];
        gx_image(b, g, image);
        const uint32_t x = gx_root(gx->parent, (uint32_t) k);
        const uint32_t y
            = gx_root(gx->parent, (uint32_t) gx_key_index(gx, gx_key(image)));
        if (x != y)
            gx->parent[x > y ? x : y] = x < y ? x : y;
    }
}

enum { GX_FIRST_BANDS = 2612736 }; /* 56 * 6^6: box 1 fixed */

struct grid_x *grid_x_new(void)
{
    struct grid_x *gx = calloc(1, sizeof(*gx));
    if (!gx)
        return NULL;
    gx->keys = malloc(GX_FIRST_BANDS * sizeof(*gx->keys));
    if (!gx->keys) {
        grid_x_free(gx);
        return NULL;
    }
    gx_walk_all(gx, gx_collect);
    qsort(gx->keys, gx->bands, sizeof(*gx->keys), gx_key_compare);
    for (size_t i = 0; i < gx->bands; i++)
        if (!gx->nkeys || gx->keys[gx->nkeys - 1] != gx->keys[i])
            gx->keys[gx->nkeys++] = gx->keys[i];
    gx->key_bands = calloc(gx->nkeys, sizeof(*gx->key_bands));
    gx->parent = malloc(gx->nkeys * sizeof(*gx->parent));
    gx->rep = malloc(gx->nkeys * sizeof(*gx->rep));
    gx->class_key = malloc(gx->nkeys * sizeof(*gx->class_key));
    gx->class_bands = calloc(gx->nkeys, sizeof(*gx->class_bands));
    if (!gx->key_bands || !gx->parent || !gx->rep || !gx->class_key || !gx->class_bands) {
        grid_x_free(gx);
        return NULL;
    }
    for (size_t k = 0; k < gx->nkeys; k++)
        gx->parent[k] = (uint32_t) k;
    gx_walk_all(gx, gx_join);
    for (size_t k = 0; k < gx->nkeys; k++) /* each key straight to its root */
        gx->parent[k] = gx_root(gx->parent, (uint32_t) k);
    /* a class per root, numbered in key order; its bands */
    uint32_t *class_of_root = gx->class_of_root = malloc(gx->nkeys * sizeof(uint32_t));
    if (!class_of_root) {
        grid_x_free(gx);
        return NULL;
    }
    for (size_t k = 0; k < gx->nkeys; k++)
        if (gx->parent[k] == k) {
            class_of_root[k] = (uint32_t) gx->nclasses;
            gx->class_key[gx->nclasses++] = (uint32_t) k;
        }
    for (size_t k = 0; k < gx->nkeys; k++)
        gx->class_bands[class_of_root[gx->parent[k]]] += gx->key_bands[k];
    return gx;
}

void grid_x_free(struct grid_x *gx)
{
    if (!gx)
        return;
    free(gx->keys);
    free(gx->key_bands);
    free(gx->parent);
    free(gx->rep);
    free(gx->class_of_root);
    free(gx->class_key);
    free(gx->class_bands);
    free(gx);
}

uint64_t grid_x_first_bands(const struct grid_x *gx)
{
    return gx->bands;
}

size_t grid_x_keys(const struct grid_x *gx)
{
    return gx->nkeys;
}

size_t grid_x_classes(const struct grid_x *gx)
{
    return gx->nclasses;
}

uint64_t grid_x_class_bands(const struct grid_x *gx, size_t k)
{
    return gx->class_bands[k];
}

void grid_x_class_band(const struct grid_x *gx, size_t k, uint8_t band[GRID_X_BAND])
{
    for (int i = 0; i < GRID_X_BAND; i++)
        band[i] = (uint8_t) (gx->rep[gx->class_key[k]][i] + 1);
}

size_t grid_x_class_of(const struct grid_x *gx, const uint8_t band[GRID_X_BAND])
{
    uint16_t cols[GRID_X_N];
    if (!gx_read_band(band, cols))
        return SIZE_MAX;
    uint8_t label[GRID_X_N + 1], b[GRID_X_BAND];
    for (int i = 0; i < GRID_X_N; i++)
        label[band[i / 3 * GRID_X_N + i % 3]] = (uint8_t) i;
    for (int i = 0; i < GRID_X_BAND; i++)
        b[i] = label[band[i]];
    const uint64_t key = gx_key(b);
    const size_t k = gx_key_index(gx, key);
    if (gx->keys[k] != key)
        return SIZE_MAX;
    return gx->class_of_root[gx->parent[k]];
}
