/* First-band profiles counted, sampled and classed without listing them (see
 * grid_profiles.h).
 *
 * The walk's state is the digits placed so far in each (stack, column): a
 * 3-bit field each (at most R <= 6 digits), stack s's column c in field
 * s * C + c. A cycle of types (a single type for the plain count) adds v to
 * the field of each of its types per stack; after the last cycle touching a
 * field, that field must hold R. */
#include "gridcount/grid_profiles.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/perm.h"
#include "common/rng.h"

enum {
    GP_MAX_STACKS = 6,
    GP_MAX_COLS = 6,
    GP_MAX_FIELDS = 12,
    GP_MAX_TYPES = 128,
    GP_FIELD_BITS = 3,
    GP_INDEX_BITS = 8, /* cycle index in a memo key */
};

/* Memo of the walk: (cycle index, fields) -> profiles that complete them. */
struct memo {
    uint64_t *keys; /* 0: empty */
    uint64_t *values;
    size_t cap, used;
};

struct walk {
    int ncycles;
    uint64_t add[GP_MAX_TYPES]; /* per cycle: the fields' increments for v = 1 */
    uint64_t closes[GP_MAX_TYPES]; /* per cycle: mask of the fields it completes */
    struct memo memo;
    bool out_of_memory;
};

struct grid_profiles {
    int R, C, types;
    int weight[GP_MAX_STACKS]; /* C^s */
    uint64_t full; /* every field R */
    size_t ngroup;
    uint8_t (*group)[GP_MAX_TYPES]; /* type map of each element */
    uint8_t (*stack_perm)[GP_MAX_STACKS]; /* element's stack permutation */
    uint8_t (*col_perm)[GP_MAX_STACKS][GP_MAX_COLS]; /* and column permutations */
    int nstack_orders, ncol_orders; /* S_R and S_C, listed */
    uint8_t stack_orders[720][GP_MAX_STACKS];
    uint8_t col_orders[720][GP_MAX_COLS];
    uint8_t tcol[GP_MAX_TYPES][GP_MAX_STACKS]; /* type t's column in stack s */
    struct walk plain; /* every type its own cycle */
    bool plain_counted;
    uint64_t profiles;
};

static int type_col(const struct grid_profiles *gp, int t, int s)
{
    return t / gp->weight[s] % gp->C;
}

static unsigned field(uint64_t fields, int f)
{
    return (unsigned) (fields >> (GP_FIELD_BITS * f)) & 7u;
}

/* --- the memo: open addressing on 64-bit keys --- */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    x ^= x >> 29;
    return x;
}

static uint64_t *memo_slot(struct memo *m, uint64_t key, bool *found)
{
    size_t i = (size_t) mix(key) & (m->cap - 1);
    while (m->keys[i] != 0 && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    *found = m->keys[i] == key;
    return &m->keys[i];
}

static int memo_grow(struct memo *m)
{
    const size_t cap = m->cap ? 2 * m->cap : 1u << 12;
    uint64_t *keys = calloc(cap, sizeof(*keys));
    uint64_t *values = malloc(cap * sizeof(*values));
    if (!keys || !values) {
        free(keys);
        free(values);
        return -1;
    }
    struct memo grown = { keys, values, cap, m->used };
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i] != 0) {
            bool found;
            uint64_t *slot = memo_slot(&grown, m->keys[i], &found);
            *slot = m->keys[i];
            grown.values[slot - grown.keys] = m->values[i];
        }
    free(m->keys);
    free(m->values);
    *m = grown;
    return 0;
}

static void memo_clear(struct memo *m)
{
    free(m->keys);
    free(m->values);
    memset(m, 0, sizeof(*m));
}

/* --- the walk --- */

/* The largest v that keeps every field at most R. */
static unsigned most(const struct grid_profiles *gp, uint64_t fields, uint64_t add)
{
    unsigned v = (unsigned) gp->R;
    for (int f = 0; f < gp->R * gp->C; f++) {
        const unsigned per = field(add, f);
        if (per != 0) {
            const unsigned room = ((unsigned) gp->R - field(fields, f)) / per;
            v = room < v ? room : v;
        }
    }
    return v;
}

static uint64_t walk_count(
    const struct grid_profiles *gp, struct walk *w, int i, uint64_t fields)
{
    if (i == w->ncycles)
        return 1;
    const uint64_t key = (fields << GP_INDEX_BITS | (uint64_t) i) + 1;
    bool found = false;
    if (w->memo.cap != 0) {
        const uint64_t *slot = memo_slot(&w->memo, key, &found);
        if (found)
            return w->memo.values[slot - w->memo.keys];
    }
    uint64_t sum = 0;
    const unsigned vmax = most(gp, fields, w->add[i]);
    for (unsigned v = 0; v <= vmax; v++) {
        const uint64_t next = fields + v * w->add[i];
        if ((next & w->closes[i]) == (gp->full & w->closes[i]))
            sum += walk_count(gp, w, i + 1, next);
    }
    if (2 * (w->memo.used + 1) > w->memo.cap && memo_grow(&w->memo) != 0) {
        w->out_of_memory = true;
        return sum;
    }
    uint64_t *slot = memo_slot(&w->memo, key, &found);
    *slot = key;
    w->memo.values[slot - w->memo.keys] = sum;
    w->memo.used++;
    return sum;
}

/* The walk over the cycles of the type map `map` (in the order of their
 * smallest type). */
static void walk_of(const struct grid_profiles *gp, const uint8_t *map, struct walk *w)
{
    memo_clear(&w->memo);
    w->ncycles = 0;
    w->out_of_memory = false;
    bool seen[GP_MAX_TYPES] = { false };
    int last[GP_MAX_FIELDS];
    for (int t = 0; t < gp->types; t++) {
        if (seen[t])
            continue;
        uint64_t add = 0;
        for (int u = t; !seen[u]; u = map[u]) {
            seen[u] = true;
            for (int s = 0; s < gp->R; s++)
                add += 1ull << (GP_FIELD_BITS * (s * gp->C + type_col(gp, u, s)));
        }
        for (int f = 0; f < gp->R * gp->C; f++)
            if (field(add, f) != 0)
                last[f] = w->ncycles;
        w->add[w->ncycles++] = add;
    }
    for (int i = 0; i < w->ncycles; i++) {
        w->closes[i] = 0;
        for (int f = 0; f < gp->R * gp->C; f++)
            if (last[f] == i)
                w->closes[i] |= 7ull << (GP_FIELD_BITS * f);
    }
}

/* --- the group --- */

static int build_group(struct grid_profiles *gp)
{
    uint8_t stack_perms[720][GP_MAX_COLS];
    uint8_t col_perms[720][GP_MAX_COLS];
    const int nstack = perm_all(gp->R, &stack_perms[0][0], GP_MAX_COLS);
    const int ncol = perm_all(gp->C, &col_perms[0][0], GP_MAX_COLS);
    gp->nstack_orders = nstack;
    gp->ncol_orders = ncol;
    memcpy(gp->stack_orders, stack_perms, sizeof(gp->stack_orders));
    memcpy(gp->col_orders, col_perms, sizeof(gp->col_orders));
    size_t per_stack = 1;
    for (int s = 0; s < gp->R; s++)
        per_stack *= (size_t) ncol;
    gp->ngroup = (size_t) nstack * per_stack;
    gp->group = malloc(gp->ngroup * sizeof(*gp->group));
    gp->stack_perm = malloc(gp->ngroup * sizeof(*gp->stack_perm));
    gp->col_perm = malloc(gp->ngroup * sizeof(*gp->col_perm));
    if (!gp->group || !gp->stack_perm || !gp->col_perm)
        return -1;
    size_t e = 0;
    for (int a = 0; a < nstack; a++)
        for (size_t b = 0; b < per_stack; b++, e++) {
            size_t rest = b;
            for (int s = 0; s < gp->R; s++, rest /= (size_t) ncol) {
                memcpy(gp->col_perm[e][s], col_perms[rest % (size_t) ncol], GP_MAX_COLS);
                gp->stack_perm[e][s] = stack_perms[a][s];
            }
            for (int t = 0; t < gp->types; t++) {
                int image = 0;
                for (int s = 0; s < gp->R; s++)
                    image += gp->col_perm[e][s][type_col(gp, t, s)]
                        * gp->weight[gp->stack_perm[e][s]];
                gp->group[e][t] = (uint8_t) image;
            }
        }
    return 0;
}

/* Element e's conjugacy class in S_C wr S_R: per cycle of the stack
 * permutation, its length and the cycle type of the column permutations'
 * product along it, one code each, sorted. */
struct conjugacy {
    int n;
    unsigned code[GP_MAX_STACKS];
};

static int code_compare(const void *a, const void *b)
{
    const unsigned x = *(const unsigned *) a, y = *(const unsigned *) b;
    return (x > y) - (x < y);
}

static struct conjugacy conjugacy_of(const struct grid_profiles *gp, size_t e)
{
    struct conjugacy k = { 0, { 0 } };
    bool seen[GP_MAX_STACKS] = { false };
    for (int s0 = 0; s0 < gp->R; s0++) {
        if (seen[s0])
            continue;
        int length = 0;
        uint8_t product[GP_MAX_COLS];
        for (int c = 0; c < gp->C; c++)
            product[c] = (uint8_t) c;
        for (int s = s0; !seen[s]; s = gp->stack_perm[e][s], length++) {
            seen[s] = true;
            for (int c = 0; c < gp->C; c++)
                product[c] = gp->col_perm[e][s][product[c]];
        }
        unsigned parts[GP_MAX_COLS];
        int nparts = 0;
        bool done[GP_MAX_COLS] = { false };
        for (int c = 0; c < gp->C; c++) {
            unsigned len = 0;
            for (int d = c; !done[d]; d = product[d], len++)
                done[d] = true;
            if (len != 0)
                parts[nparts++] = len;
        }
        qsort(parts, (size_t) nparts, sizeof(*parts), code_compare);
        unsigned code = (unsigned) length;
        for (int p = 0; p < nparts; p++)
            code = code * 8 + parts[p];
        k.code[k.n++] = code;
    }
    qsort(k.code, (size_t) k.n, sizeof(*k.code), code_compare);
    return k;
}

/* --- the interface --- */

struct grid_profiles *grid_profiles_new(
    int box_rows, int box_cols, char *why, size_t whylen)
{
    const int R = box_rows > box_cols ? box_rows : box_cols;
    const int C = box_rows > box_cols ? box_cols : box_rows;
    int types = 1;
    for (int s = 0; s < R && types <= GP_MAX_TYPES; s++)
        types *= C;
    if (C < 2 || R > GP_MAX_STACKS || R * C > GP_MAX_FIELDS || types > GP_MAX_TYPES) {
        snprintf(why, whylen,
            "%dx%d boxes: the profile walk takes boxes of at most 12 cells, at most 6 "
            "rows and at most 128 types",
            box_rows, box_cols);
        return NULL;
    }
    struct grid_profiles *gp = calloc(1, sizeof(*gp));
    if (!gp) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    gp->R = R;
    gp->C = C;
    gp->types = types;
    for (int s = 0, w = 1; s < R; s++, w *= C)
        gp->weight[s] = w;
    for (int t = 0; t < types; t++)
        for (int s = 0; s < R; s++)
            gp->tcol[t][s] = (uint8_t) type_col(gp, t, s);
    for (int f = 0; f < R * C; f++)
        gp->full |= (uint64_t) R << (GP_FIELD_BITS * f);
    uint8_t identity[GP_MAX_TYPES];
    for (int t = 0; t < types; t++)
        identity[t] = (uint8_t) t;
    if (build_group(gp) != 0) {
        snprintf(why, whylen, "out of memory");
        grid_profiles_free(gp);
        return NULL;
    }
    walk_of(gp, identity, &gp->plain);
    return gp;
}

void grid_profiles_free(struct grid_profiles *gp)
{
    if (!gp)
        return;
    memo_clear(&gp->plain.memo);
    free(gp->group);
    free(gp->stack_perm);
    free(gp->col_perm);
    free(gp);
}

int grid_profiles_types(const struct grid_profiles *gp)
{
    return gp->types;
}

uint64_t grid_profiles_group_order(const struct grid_profiles *gp)
{
    return gp->ngroup;
}

uint64_t grid_profiles_count(struct grid_profiles *gp)
{
    if (!gp->plain_counted) {
        gp->profiles = walk_count(gp, &gp->plain, 0, 0);
        gp->plain_counted = !gp->plain.out_of_memory;
        if (gp->plain.out_of_memory)
            return 0;
    }
    return gp->profiles;
}

int grid_profiles_classes_exact(
    struct grid_profiles *gp, uint64_t *classes, size_t *conjugacy_classes)
{
    struct known {
        struct conjugacy k;
        uint64_t fixed;
    } *known = NULL;
    size_t nknown = 0, cap = 0;
    uint64_t sum = 0;
    struct walk *w = calloc(1, sizeof(*w));
    int rc = w ? 0 : -1;
    for (size_t e = 0; e < gp->ngroup && rc == 0; e++) {
        const struct conjugacy k = conjugacy_of(gp, e);
        size_t j = 0;
        while (j < nknown && memcmp(&known[j].k, &k, sizeof(k)) != 0)
            j++;
        if (j == nknown) {
            if (nknown == cap) {
                cap = cap ? 2 * cap : 64;
                struct known *grown = realloc(known, cap * sizeof(*known));
                if (!grown) {
                    rc = -1;
                    break;
                }
                known = grown;
            }
            walk_of(gp, gp->group[e], w);
            known[nknown].k = k;
            known[nknown].fixed = walk_count(gp, w, 0, 0);
            if (w->out_of_memory)
                rc = -1;
            nknown++;
        }
        sum += known[j].fixed;
    }
    if (w)
        memo_clear(&w->memo);
    free(w);
    free(known);
    if (rc != 0 || sum % gp->ngroup != 0)
        return -1;
    *classes = sum / gp->ngroup;
    *conjugacy_classes = nknown;
    return 0;
}

/* Draws one profile uniformly into x (digits per type). */
static int draw(struct grid_profiles *gp, struct rng *r, uint8_t *x)
{
    uint64_t fields = 0;
    for (int t = 0; t < gp->types; t++) {
        const uint64_t here = walk_count(gp, &gp->plain, t, fields);
        uint64_t pick = rng_below(r, here);
        const unsigned vmax = most(gp, fields, gp->plain.add[t]);
        unsigned chosen = vmax;
        for (unsigned v = 0; v <= vmax; v++) {
            const uint64_t next = fields + v * gp->plain.add[t];
            if ((next & gp->plain.closes[t]) != (gp->full & gp->plain.closes[t]))
                continue;
            const uint64_t below = walk_count(gp, &gp->plain, t + 1, next);
            if (pick < below) {
                chosen = v;
                break;
            }
            pick -= below;
        }
        x[t] = (uint8_t) chosen;
        const unsigned v = chosen;
        fields += v * gp->plain.add[t];
    }
    return gp->plain.out_of_memory ? -1 : 0;
}

static uint64_t stabiliser(const struct grid_profiles *gp, const uint8_t *x)
{
    uint64_t fixing = 0;
    for (size_t e = 0; e < gp->ngroup; e++) {
        int t = 0;
        while (t < gp->types && x[gp->group[e][t]] == x[t])
            t++;
        fixing += t == gp->types;
    }
    return fixing;
}

int grid_profiles_classes_sampled(struct grid_profiles *gp, size_t samples, uint64_t seed,
    struct grid_profiles_estimate *out)
{
    const uint64_t profiles = grid_profiles_count(gp);
    if (profiles == 0 || samples < 2)
        return -1;
    struct rng r;
    rng_seed(&r, seed);
    double sum = 0, squares = 0, orbits = 0;
    for (size_t i = 0; i < samples; i++) {
        uint8_t x[GP_MAX_TYPES];
        if (draw(gp, &r, x) != 0)
            return -1;
        const uint64_t stab = stabiliser(gp, x);
        const double y = (double) stab / (double) gp->ngroup;
        sum += y;
        squares += y * y;
        orbits += (double) gp->ngroup / (double) stab;
    }
    const double n = (double) samples, mean = sum / n;
    const double variance = (squares - n * mean * mean) / (n - 1);
    out->samples = samples;
    out->classes = (double) profiles * mean;
    out->half_width = 1.96 * (double) profiles * sqrt(variance > 0 ? variance / n : 0);
    out->mean_orbit = orbits / n;
    return 0;
}

/* --- one drawn class: its band search --- */

int grid_profiles_draw(
    struct grid_profiles *gp, struct rng *r, struct grid_profiles_drawn *out)
{
    if (grid_profiles_count(gp) == 0 || draw(gp, r, out->digits) != 0)
        return -1;
    out->orbit = gp->ngroup / stabiliser(gp, out->digits);
    return 0;
}

/* The band of a profile: col[s][d] is digit d's column in stack s (digits in
 * type order). Each digit takes a different row in every stack, and each
 * column's digits take different rows; the first column's digits take rows
 * 0, 1, ... in order (permuting rows is a symmetry: R! times the rest). */
struct band {
    int R, N;
    int8_t col[GP_MAX_STACKS][GP_MAX_FIELDS];
    int8_t preset[GP_MAX_FIELDS];
    uint8_t used[GP_MAX_FIELDS];
    uint8_t taken[GP_MAX_STACKS][GP_MAX_COLS];
    uint64_t count, nodes, budget;
};

static uint64_t band_of(
    const struct grid_profiles *gp, const struct grid_profiles_drawn *x, struct band *b)
{
    memset(b, 0, sizeof(*b));
    b->R = gp->R;
    b->N = gp->R * gp->C;
    uint64_t factor = 1;
    int d = 0, next = 0;
    for (int t = 0; t < gp->types; t++)
        for (unsigned i = 0; i < x->digits[t]; i++, d++) {
            for (int s = 0; s < gp->R; s++)
                b->col[s][d] = (int8_t) type_col(gp, t, s);
            b->preset[d] = -1;
            if (b->col[0][d] == 0) {
                b->preset[d] = (int8_t) next++;
                factor *= (uint64_t) next;
            }
        }
    return factor;
}

static unsigned band_choices(const struct band *b, int s, int d)
{
    unsigned free = ((1u << b->R) - 1) & ~(unsigned) b->used[d]
        & ~(unsigned) b->taken[s][b->col[s][d]];
    if (s == 0 && b->preset[d] >= 0)
        free &= 1u << b->preset[d];
    return free;
}

static void band_search(struct band *b, int p)
{
    if (b->nodes >= b->budget)
        return;
    b->nodes++;
    if (p == b->R * b->N) {
        b->count++;
        return;
    }
    const int s = p / b->N, d = p % b->N, c = b->col[s][d];
    for (unsigned free = band_choices(b, s, d); free; free &= free - 1) {
        const unsigned bit = free & -free;
        b->used[d] |= (uint8_t) bit;
        b->taken[s][c] |= (uint8_t) bit;
        band_search(b, p + 1);
        b->used[d] &= (uint8_t) ~bit;
        b->taken[s][c] &= (uint8_t) ~bit;
    }
}

uint64_t grid_profiles_orders_search(const struct grid_profiles *gp,
    const struct grid_profiles_drawn *x, uint64_t budget, uint64_t *orders,
    bool *finished)
{
    struct band b;
    const uint64_t factor = band_of(gp, x, &b);
    b.budget = budget;
    band_search(&b, 0);
    *finished = b.nodes < budget;
    *orders = b.count * factor;
    return b.nodes;
}

double grid_profiles_orders_nodes_estimate(const struct grid_profiles *gp,
    const struct grid_profiles_drawn *x, unsigned probes, struct rng *r)
{
    struct band b;
    double sum = 0;
    for (unsigned i = 0; i < probes; i++) {
        band_of(gp, x, &b);
        double weight = 1, nodes = 1;
        for (int p = 0; p < b.R * b.N; p++) {
            const int s = p / b.N, d = p % b.N;
            unsigned free = band_choices(&b, s, d);
            const int n = __builtin_popcount(free);
            if (n == 0)
                break;
            weight *= n;
            nodes += weight;
            for (uint64_t skip = rng_below(r, (uint64_t) n); skip; skip--)
                free &= free - 1;
            const unsigned bit = free & -free;
            b.used[d] |= (uint8_t) bit;
            b.taken[s][b.col[s][d]] |= (uint8_t) bit;
        }
        sum += nodes;
    }
    return probes ? sum / probes : 0;
}

/* --- canonical forms --- */

/* Each (stack, column)'s histogram of digit counts over its types: 8 bits
 * per count 0..R, since C^(R-1) <= 32 types share a column. */
static void slice_signatures(
    const struct grid_profiles *gp, const uint8_t *x, uint64_t sig[][GP_MAX_COLS])
{
    memset(sig, 0, sizeof(uint64_t) * GP_MAX_STACKS * GP_MAX_COLS);
    for (int t = 0; t < gp->types; t++)
        for (int s = 0; s < gp->R; s++)
            sig[s][gp->tcol[t][s]] += 1ull << (8 * x[t]);
}

static int u64_compare(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return (x > y) - (x < y);
}

/* The search for the least image over the elements that sort the
 * invariants: new stack i takes old stack so[i], and in it new column j the
 * old column co[i][j]. */
struct canon {
    const struct grid_profiles *gp;
    const uint8_t *x;
    int so[GP_MAX_STACKS];
    int nvalid[GP_MAX_STACKS]; /* per old stack: its sorting column orders */
    uint16_t valid[GP_MAX_STACKS][720];
    int contrib[GP_MAX_STACKS][GP_MAX_COLS]; /* old type's share, per new (i, j) */
    uint8_t best[GP_MAX_TYPES];
    bool have_best;
    uint64_t stab;
    bool test_only; /* best is x: stop at the first image below it */
    bool below; /* ... one was found */
};

static void canon_leaf(struct canon *k)
{
    const struct grid_profiles *gp = k->gp;
    int state = k->have_best ? 0 : -1; /* 0: equal so far; -1: below best */
    for (int t = 0; t < gp->types; t++) {
        int old = 0;
        for (int i = 0; i < gp->R; i++)
            old += k->contrib[i][gp->tcol[t][i]];
        const uint8_t v = k->x[old];
        if (state == 0) {
            if (v > k->best[t])
                return;
            if (v < k->best[t])
                state = -1;
        }
        if (state == -1 && k->test_only) {
            k->below = true;
            return;
        }
        if (state == -1)
            k->best[t] = v;
    }
    k->stab = state == 0 ? k->stab + 1 : 1;
    k->have_best = true;
}

static void canon_stack(struct canon *k, int i)
{
    const struct grid_profiles *gp = k->gp;
    if (i == gp->R) {
        canon_leaf(k);
        return;
    }
    if (i >= GP_MAX_STACKS)
        return;
    const int old = k->so[i];
    for (int v = 0; v < k->nvalid[old]; v++) {
        const uint8_t *co = gp->col_orders[k->valid[old][v]];
        for (int j = 0; j < gp->C; j++)
            k->contrib[i][j] = co[j] * gp->weight[old];
        canon_stack(k, i + 1);
        if (k->below)
            return;
    }
}

/* The search over the elements that sort the invariants; with test_only,
 * against x itself, stopping at the first image below it. */
static void canon_search(
    const struct grid_profiles *gp, const uint8_t *x, bool test_only, struct canon *k)
{
    uint64_t sig[GP_MAX_STACKS][GP_MAX_COLS], sorted[GP_MAX_STACKS][GP_MAX_COLS];
    slice_signatures(gp, x, sig);
    memcpy(sorted, sig, sizeof(sig));
    for (int s = 0; s < gp->R; s++)
        qsort(sorted[s], (size_t) gp->C, sizeof(uint64_t), u64_compare);
    k->gp = gp;
    k->x = x;
    k->have_best = test_only;
    k->stab = 0;
    k->test_only = test_only;
    k->below = false;
    if (test_only)
        memcpy(k->best, x, (size_t) gp->types);
    for (int s = 0; s < gp->R; s++) {
        k->nvalid[s] = 0;
        for (int p = 0; p < gp->ncol_orders; p++) {
            const uint8_t *co = gp->col_orders[p];
            bool ok = true;
            for (int j = 0; j + 1 < gp->C && ok; j++)
                ok = sig[s][co[j]] <= sig[s][co[j + 1]];
            if (ok)
                k->valid[s][k->nvalid[s]++] = (uint16_t) p;
        }
    }
    for (int p = 0; p < gp->nstack_orders; p++) {
        const uint8_t *so = gp->stack_orders[p];
        bool ok = true;
        for (int i = 0; i + 1 < gp->R && ok; i++)
            ok = memcmp(sorted[so[i]], sorted[so[i + 1]], sizeof(sorted[0])) <= 0;
        if (!ok)
            continue;
        for (int i = 0; i < gp->R; i++)
            k->so[i] = so[i];
        canon_stack(k, 0);
        if (k->below)
            return;
    }
}

void grid_profiles_canonical(
    const struct grid_profiles *gp, const uint8_t *x, uint8_t *canon, uint64_t *stab)
{
    struct canon k;
    canon_search(gp, x, false, &k);
    memcpy(canon, k.best, (size_t) gp->types);
    *stab = k.stab;
}

bool grid_profiles_is_class(
    const struct grid_profiles *gp, const uint8_t *x, uint64_t *stab)
{
    struct canon k;
    canon_search(gp, x, true, &k);
    /* no image below x, and x among them: x is the least, its own form */
    *stab = k.stab;
    return !k.below && k.stab > 0;
}

/* --- the classes in a slice of the walk --- */

struct each_class {
    struct grid_profiles *gp;
    uint64_t first, last, visited;
    int (*visit)(void *ctx, const struct grid_profiles_drawn *rep);
    void *ctx;
    struct grid_profiles_drawn x;
};

/* Profiles of ranks [base, base + walk_count(t, fields)) below this node. */
static int each_class_walk(struct each_class *e, int t, uint64_t fields, uint64_t base)
{
    struct grid_profiles *gp = e->gp;
    if (t == gp->types) {
        e->visited++;
        uint64_t stab;
        if (!grid_profiles_is_class(gp, e->x.digits, &stab))
            return 0;
        e->x.orbit = gp->ngroup / stab;
        e->x.rank = base;
        return e->visit(e->ctx, &e->x);
    }
    const unsigned vmax = most(gp, fields, gp->plain.add[t]);
    for (unsigned v = 0; v <= vmax && base < e->last; v++) {
        const uint64_t next = fields + v * gp->plain.add[t];
        if ((next & gp->plain.closes[t]) != (gp->full & gp->plain.closes[t]))
            continue;
        const uint64_t below = walk_count(gp, &gp->plain, t + 1, next);
        if (gp->plain.out_of_memory)
            return -1;
        if (base + below > e->first) {
            e->x.digits[t] = (uint8_t) v;
            const int rc = each_class_walk(e, t + 1, next, base);
            if (rc != 0)
                return rc;
        }
        base += below;
    }
    return 0;
}

int grid_profiles_each_class(struct grid_profiles *gp, uint64_t first, uint64_t last,
    int (*visit)(void *ctx, const struct grid_profiles_drawn *rep), void *ctx,
    uint64_t *visited)
{
    if (grid_profiles_count(gp) == 0)
        return -1;
    struct each_class e = { gp, first, last, 0, visit, ctx, { { 0 }, 0, 0 } };
    const int rc = each_class_walk(&e, 0, 0, 0);
    *visited = e.visited;
    return rc;
}

int grid_profiles_unrank(struct grid_profiles *gp, uint64_t rank, uint8_t *x)
{
    const uint64_t profiles = grid_profiles_count(gp);
    if (profiles == 0 || rank >= profiles)
        return -1;
    uint64_t fields = 0;
    for (int t = 0; t < gp->types; t++) {
        const unsigned vmax = most(gp, fields, gp->plain.add[t]);
        for (unsigned v = 0; v <= vmax; v++) {
            const uint64_t next = fields + v * gp->plain.add[t];
            if ((next & gp->plain.closes[t]) != (gp->full & gp->plain.closes[t]))
                continue;
            const uint64_t below = walk_count(gp, &gp->plain, t + 1, next);
            if (rank < below) {
                x[t] = (uint8_t) v;
                fields = next;
                break;
            }
            rank -= below;
        }
    }
    return gp->plain.out_of_memory ? -1 : 0;
}

uint64_t grid_profiles_labels(const struct grid_profiles *gp, const uint8_t *x)
{
    const int N = gp->R * gp->C;
    uint64_t labels = 1;
    int placed = 0;
    /* N! / prod x_t! as a product of binomials, exact at every step */
    for (int t = 0; t < gp->types; t++)
        for (unsigned i = 1; i <= x[t]; i++) {
            placed++;
            labels = labels * (uint64_t) placed / i;
        }
    return placed == N ? labels : 0;
}

/* --- orders by class --- */

/* A profile packed 3 bits a type (counts are at most R <= 6). */
struct packed {
    uint64_t w[6];
};

static uint64_t packed_hash(const struct packed *p)
{
    uint64_t h = 0;
    for (int i = 0; i < 6; i++)
        h = mix(h ^ p->w[i]);
    return h;
}

static void pack(const struct grid_profiles *gp, const uint8_t *x, struct packed *p)
{
    memset(p, 0, sizeof(*p));
    for (int t = 0; t < gp->types; t++)
        p->w[t / 21] |= (uint64_t) x[t] << (3 * (t % 21));
}

static void unpack(const struct grid_profiles *gp, const struct packed *p, uint8_t *x)
{
    for (int t = 0; t < gp->types; t++)
        x[t] = (uint8_t) (p->w[t / 21] >> (3 * (t % 21)) & 7u);
}

enum { GP_CACHE_BITS = 16 };

struct table_entry {
    struct packed key;
    uint64_t orders;
    bool used;
};

struct grid_profiles_table {
    const struct grid_profiles *gp;
    enum grid_profiles_table_mode mode;
    struct table_entry *classes; /* open addressing on canonical forms */
    size_t cap, nclasses;
    struct table_entry *cache; /* direct-mapped on any profile */
    uint64_t canonicalised;
};

struct grid_profiles_table *grid_profiles_table_new(
    const struct grid_profiles *gp, enum grid_profiles_table_mode mode)
{
    struct grid_profiles_table *tab = calloc(1, sizeof(*tab));
    if (!tab)
        return NULL;
    tab->gp = gp;
    tab->mode = mode;
    tab->cap = 1u << 10;
    tab->classes = calloc(tab->cap, sizeof(*tab->classes));
    tab->cache = calloc((size_t) 1 << GP_CACHE_BITS, sizeof(*tab->cache));
    if (!tab->classes || !tab->cache) {
        grid_profiles_table_free(tab);
        return NULL;
    }
    return tab;
}

void grid_profiles_table_free(struct grid_profiles_table *tab)
{
    if (!tab)
        return;
    free(tab->classes);
    free(tab->cache);
    free(tab);
}

size_t grid_profiles_table_classes(const struct grid_profiles_table *tab)
{
    return tab->nclasses;
}

uint64_t grid_profiles_table_canonicalised(const struct grid_profiles_table *tab)
{
    return tab->canonicalised;
}

static struct table_entry *class_slot(
    struct table_entry *classes, size_t cap, const struct packed *key)
{
    size_t i = (size_t) packed_hash(key) & (cap - 1);
    while (classes[i].used && memcmp(&classes[i].key, key, sizeof(*key)) != 0)
        i = (i + 1) & (cap - 1);
    return &classes[i];
}

static int classes_grow(struct grid_profiles_table *tab)
{
    const size_t cap = 2 * tab->cap;
    struct table_entry *grown = calloc(cap, sizeof(*grown));
    if (!grown)
        return -1;
    for (size_t i = 0; i < tab->cap; i++)
        if (tab->classes[i].used)
            *class_slot(grown, cap, &tab->classes[i].key) = tab->classes[i];
    free(tab->classes);
    tab->classes = grown;
    tab->cap = cap;
    return 0;
}

static uint64_t class_orders(struct grid_profiles_table *tab, const struct packed *key)
{
    const struct grid_profiles *gp = tab->gp;
    struct grid_profiles_drawn x;
    unpack(gp, key, x.digits);
    uint8_t canon[GP_MAX_TYPES];
    uint64_t stab;
    grid_profiles_canonical(gp, x.digits, canon, &stab);
    tab->canonicalised++;
    struct packed ckey;
    pack(gp, canon, &ckey);
    struct table_entry *e = class_slot(tab->classes, tab->cap, &ckey);
    if (e->used)
        return e->orders;
    if (tab->mode == GRID_PROFILES_GIVEN)
        return GRID_PROFILES_NO_CLASS;
    if (2 * (tab->nclasses + 1) > tab->cap) {
        if (classes_grow(tab) != 0)
            return UINT64_MAX;
        e = class_slot(tab->classes, tab->cap, &ckey);
    }
    uint64_t orders = 0;
    if (tab->mode == GRID_PROFILES_COUNT) {
        bool finished;
        memcpy(x.digits, canon, (size_t) gp->types);
        x.orbit = gp->ngroup / stab;
        grid_profiles_orders_search(gp, &x, UINT64_MAX, &orders, &finished);
    }
    *e = (struct table_entry) { ckey, orders, true };
    tab->nclasses++;
    return orders;
}

int grid_profiles_table_insert(
    struct grid_profiles_table *tab, const uint8_t *canon, uint64_t orders)
{
    struct packed key;
    pack(tab->gp, canon, &key);
    struct table_entry *e = class_slot(tab->classes, tab->cap, &key);
    if (!e->used && 2 * (tab->nclasses + 1) > tab->cap) {
        if (classes_grow(tab) != 0)
            return -1;
        e = class_slot(tab->classes, tab->cap, &key);
    }
    tab->nclasses += !e->used;
    *e = (struct table_entry) { key, orders, true };
    return 0;
}

static uint64_t packed_orders(struct grid_profiles_table *tab, const struct packed *key)
{
    struct table_entry *c
        = &tab->cache[packed_hash(key) & (((size_t) 1 << GP_CACHE_BITS) - 1)];
    if (c->used && memcmp(&c->key, key, sizeof(*key)) == 0)
        return c->orders;
    const uint64_t orders = class_orders(tab, key);
    if (orders != UINT64_MAX && orders != GRID_PROFILES_NO_CLASS)
        *c = (struct table_entry) { *key, orders, true };
    return orders;
}

uint64_t grid_profiles_table_orders(struct grid_profiles_table *tab, const uint8_t *x)
{
    struct packed key;
    pack(tab->gp, x, &key);
    return packed_orders(tab, &key);
}

/* --- the three-band completions --- */

enum { GP_MAX_CHOICES = 346 }; /* sum over k of C(4,k)^3: R = 4, C = 3 */

/* The middle band's columns in each stack, per choice: mid[s][i][d]. */
struct completion {
    const struct grid_profiles *gp;
    struct grid_profiles_table *tab;
    int N;
    int nchoices[GP_MAX_STACKS];
    int8_t (*mid)[GP_MAX_CHOICES][GP_MAX_FIELDS];
    int8_t first[GP_MAX_STACKS][GP_MAX_FIELDS];
    int mid_type[GP_MAX_STACKS + 1][GP_MAX_FIELDS]; /* types so far, per stack */
    int last_type[GP_MAX_STACKS + 1][GP_MAX_FIELDS];
    uint64_t below[GP_MAX_STACKS + 1]; /* choices under one of stack s's */
    uint64_t from, to; /* the numbers to visit */
    struct grid_profiles_completions *out;
    bool out_of_memory;
};

static void choose_stack(struct completion *c, int s, int d, int8_t *cur, int *per_col)
{
    const int R = c->gp->R;
    if (d == c->N) {
        if (c->nchoices[s] < GP_MAX_CHOICES)
            memcpy(c->mid[s][c->nchoices[s]], cur, (size_t) c->N);
        c->nchoices[s]++;
        return;
    }
    for (int col = 0; col < 3; col++) {
        if (col == c->first[s][d] || per_col[col] == R)
            continue;
        per_col[col]++;
        cur[d] = (int8_t) col;
        choose_stack(c, s, d + 1, cur, per_col);
        per_col[col]--;
    }
}

/* The choices numbered [base, base + below[s]) from stack s on. */
static void complete_stack(struct completion *c, int s, uint64_t base)
{
    const struct grid_profiles *gp = c->gp;
    struct grid_profiles_completions *out = c->out;
    if (base >= c->to || c->out_of_memory)
        return;
    if (s == gp->R) {
        struct packed mid, last;
        memset(&mid, 0, sizeof(mid));
        memset(&last, 0, sizeof(last));
        for (int d = 0; d < c->N; d++) {
            const int m = c->mid_type[s][d], l = c->last_type[s][d];
            mid.w[m / 21] += 1ull << (3 * (m % 21));
            last.w[l / 21] += 1ull << (3 * (l % 21));
        }
        const uint64_t a = packed_orders(c->tab, &mid);
        const uint64_t b = packed_orders(c->tab, &last);
        out->missing |= a == GRID_PROFILES_NO_CLASS || b == GRID_PROFILES_NO_CLASS;
        if (a == UINT64_MAX || b == UINT64_MAX || out->missing)
            c->out_of_memory = true;
        else
            out->sum += (unsigned __int128) a * b;
        out->visited++;
        return;
    }
    if (s >= GP_MAX_STACKS)
        return;
    for (int i = 0; i < c->nchoices[s]; i++, base += c->below[s + 1]) {
        if (base + c->below[s + 1] <= c->from)
            continue;
        for (int d = 0; d < c->N; d++) {
            const int m = c->mid[s][i][d];
            c->mid_type[s + 1][d] = c->mid_type[s][d] + m * gp->weight[s];
            c->last_type[s + 1][d]
                = c->last_type[s][d] + (3 - m - c->first[s][d]) * gp->weight[s];
        }
        complete_stack(c, s + 1, base);
    }
}

int grid_profiles_complete(const struct grid_profiles *gp,
    struct grid_profiles_table *tab, const uint8_t *x, uint64_t budget,
    struct grid_profiles_completions *out)
{
    return grid_profiles_complete_range(gp, tab, x, 0, budget, out);
}

int grid_profiles_complete_range(const struct grid_profiles *gp,
    struct grid_profiles_table *tab, const uint8_t *x, uint64_t from, uint64_t to,
    struct grid_profiles_completions *out)
{
    memset(out, 0, sizeof(*out));
    if (gp->C != 3 || gp->R > 4)
        return -1;
    struct completion c
        = { .gp = gp, .tab = tab, .N = gp->R * gp->C, .from = from, .to = to };
    c.out = out;
    c.mid = malloc(GP_MAX_STACKS * sizeof(*c.mid));
    if (!c.mid)
        return -1;
    int d = 0;
    for (int t = 0; t < gp->types; t++)
        for (unsigned i = 0; i < x[t]; i++, d++)
            for (int s = 0; s < gp->R; s++)
                c.first[s][d] = (int8_t) gp->tcol[t][s];
    out->choices = 1;
    for (int s = 0; s < gp->R; s++) {
        int8_t cur[GP_MAX_FIELDS];
        int per_col[3] = { 0, 0, 0 };
        choose_stack(&c, s, 0, cur, per_col);
        out->per_stack = (uint64_t) c.nchoices[s];
        out->choices *= out->per_stack;
    }
    memset(c.mid_type[0], 0, sizeof(c.mid_type[0]));
    memset(c.last_type[0], 0, sizeof(c.last_type[0]));
    c.below[gp->R] = 1;
    for (int s = gp->R - 1; s >= 0; s--)
        c.below[s] = c.below[s + 1] * (uint64_t) c.nchoices[s];
    if (d == c.N)
        complete_stack(&c, 0, 0);
    out->finished = d == c.N && to >= out->choices
        && (from >= out->choices || out->visited == out->choices - from);
    free(c.mid);
    return c.out_of_memory || out->missing || d != c.N ? -1 : 0;
}
