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
