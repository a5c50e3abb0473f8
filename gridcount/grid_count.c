/* Counting every complete grid by band reduction (see grid_count.h).
 *
 * A profile is a key: the count of digits of type t in bits 3t..3t+2 (counts
 * are at most R <= 5, types at most 32). A digit's type is its column within
 * each stack, stack s weighing C^s. */
#include "gridcount/grid_count.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/perm.h"
#include "common/rng.h"

typedef grid_count_u128 gc_key;

enum {
    GC_MAX_STACKS = 5,
    GC_MAX_TYPES = 32,
    GC_NONE = -1,
};
#define GC_NO_CLASS UINT32_MAX

struct grid_count {
    int box_rows, box_cols; /* as asked */
    int R, C, N, types;
    bool transposed;
    int weight[GC_MAX_STACKS]; /* C^s */
    uint32_t last_of[GC_MAX_TYPES]; /* stacks s where t is the last type of its column */
    size_t nprofiles, cap;
    gc_key *keys; /* sorted */
    uint32_t *class_of;
    size_t nclasses;
    struct grid_count_class *classes;
    gc_key *reps;
    size_t ngroup;
    uint8_t (*group)[GC_MAX_TYPES]; /* type maps of stack and column permutations */
};

static int type_col(const struct grid_count *gc, int t, int s)
{
    return t / gc->weight[s] % gc->C;
}

static unsigned key_count(gc_key key, int t)
{
    return (unsigned) (key >> (3 * t)) & 7u;
}

/* --- the profiles --- */

static int push_profile(struct grid_count *gc, gc_key key)
{
    if (gc->nprofiles == gc->cap) {
        const size_t cap = gc->cap ? 2 * gc->cap : 1024;
        gc_key *k = realloc(gc->keys, cap * sizeof(*k));
        if (!k)
            return -1;
        gc->keys = k;
        gc->cap = cap;
    }
    gc->keys[gc->nprofiles++] = key;
    return 0;
}

/* Every profile: each (stack, column) holds R digits. The last type of a
 * column must leave it full, which prunes early. */
static int enum_profiles(struct grid_count *gc, int t, int margin[][3], gc_key key)
{
    if (t == gc->types)
        return push_profile(gc, key);
    int room = gc->R;
    for (int s = 0; s < gc->R; s++) {
        const int left = gc->R - margin[s][type_col(gc, t, s)];
        room = left < room ? left : room;
    }
    for (int v = 0; v <= room; v++) {
        bool full = true;
        for (int s = 0; s < gc->R; s++) {
            margin[s][type_col(gc, t, s)] += v;
            if ((gc->last_of[t] >> s & 1u) && margin[s][type_col(gc, t, s)] != gc->R)
                full = false;
        }
        const int rc
            = full ? enum_profiles(gc, t + 1, margin, key + ((gc_key) v << (3 * t))) : 0;
        for (int s = 0; s < gc->R; s++)
            margin[s][type_col(gc, t, s)] -= v;
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int key_compare(const void *a, const void *b)
{
    const gc_key x = *(const gc_key *) a, y = *(const gc_key *) b;
    return (x > y) - (x < y);
}

static size_t find_profile(const struct grid_count *gc, gc_key key)
{
    size_t lo = 0, hi = gc->nprofiles;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (gc->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < gc->nprofiles && gc->keys[lo] == key ? lo : SIZE_MAX;
}

/* --- the symmetry group: stack permutations, column permutations --- */

static int build_group(struct grid_count *gc)
{
    uint8_t stack_perm[120][GC_MAX_STACKS], col_perm[6][GC_MAX_STACKS];
    const int nstack = perm_all(gc->R, &stack_perm[0][0], GC_MAX_STACKS);
    const int ncol = perm_all(gc->C, &col_perm[0][0], GC_MAX_STACKS);
    size_t per_stack = 1;
    for (int s = 0; s < gc->R; s++)
        per_stack *= (size_t) ncol;
    gc->ngroup = (size_t) nstack * per_stack;
    gc->group = malloc(gc->ngroup * sizeof(*gc->group));
    if (!gc->group)
        return -1;
    size_t e = 0;
    for (int a = 0; a < nstack; a++)
        for (size_t b = 0; b < per_stack; b++, e++) {
            size_t rest = b;
            int which[GC_MAX_STACKS];
            for (int s = 0; s < gc->R; s++, rest /= (size_t) ncol)
                which[s] = (int) (rest % (size_t) ncol);
            for (int t = 0; t < gc->types; t++) {
                int image = 0;
                for (int s = 0; s < gc->R; s++)
                    image += col_perm[which[s]][type_col(gc, t, s)]
                        * gc->weight[stack_perm[a][s]];
                gc->group[e][t] = (uint8_t) image;
            }
        }
    return 0;
}

static gc_key key_image(const struct grid_count *gc, gc_key key, const uint8_t *map)
{
    gc_key image = 0;
    for (int t = 0; t < gc->types; t++)
        image += (gc_key) key_count(key, t) << (3 * map[t]);
    return image;
}

static uint64_t labels_of(const struct grid_count *gc, gc_key key)
{
    uint64_t v = 1;
    for (int i = 2; i <= gc->N; i++)
        v *= (uint64_t) i;
    for (int t = 0; t < gc->types; t++)
        for (unsigned i = 2; i <= key_count(key, t); i++)
            v /= i;
    return v;
}

/* Classes in the order of their smallest profile, which represents them. */
static int build_classes(struct grid_count *gc)
{
    gc->class_of = malloc(gc->nprofiles * sizeof(*gc->class_of));
    if (!gc->class_of)
        return -1;
    for (size_t i = 0; i < gc->nprofiles; i++)
        gc->class_of[i] = GC_NO_CLASS;
    size_t cap = 0;
    for (size_t i = 0; i < gc->nprofiles; i++) {
        if (gc->class_of[i] != GC_NO_CLASS)
            continue;
        if (gc->nclasses == cap) {
            cap = cap ? 2 * cap : 64;
            struct grid_count_class *c = realloc(gc->classes, cap * sizeof(*c));
            gc_key *r = c ? realloc(gc->reps, cap * sizeof(*r)) : NULL;
            if (c)
                gc->classes = c;
            if (!r)
                return -1;
            gc->reps = r;
        }
        const size_t k = gc->nclasses++;
        struct grid_count_class *cl = &gc->classes[k];
        memset(cl, 0, sizeof(*cl));
        gc->reps[k] = gc->keys[i];
        cl->labels = labels_of(gc, gc->keys[i]);
        for (size_t e = 0; e < gc->ngroup; e++) {
            const size_t j = find_profile(gc, key_image(gc, gc->keys[i], gc->group[e]));
            if (j != SIZE_MAX && gc->class_of[j] == GC_NO_CLASS) {
                gc->class_of[j] = (uint32_t) k;
                cl->orbit++;
            }
        }
    }
    return 0;
}

static void plan_shape(struct grid_count *gc, int box_rows, int box_cols)
{
    gc->box_rows = box_rows;
    gc->box_cols = box_cols;
    gc->transposed = box_rows < box_cols;
    gc->R = gc->transposed ? box_cols : box_rows;
    gc->C = gc->transposed ? box_rows : box_cols;
    gc->N = gc->R * gc->C;
    gc->types = 1;
    for (int s = 0; s < gc->R; s++) {
        gc->weight[s] = gc->types;
        gc->types *= gc->C;
    }
    for (int t = 0; t < gc->types; t++)
        for (int s = 0; s < gc->R; s++) {
            bool last = true;
            for (int o = 0; o < gc->R; o++)
                last &= o == s || type_col(gc, t, o) == gc->C - 1;
            gc->last_of[t] |= (uint32_t) last << s;
        }
}

struct grid_count *grid_count_new(int box_rows, int box_cols, char *why, size_t whylen)
{
    const int lo = box_rows < box_cols ? box_rows : box_cols;
    const int hi = box_rows < box_cols ? box_cols : box_rows;
    if (!((lo == 2 && hi >= 2 && hi <= 5) || (lo == 3 && hi == 3))) {
        snprintf(why, whylen,
            "%dx%d boxes: band reduction handles 2x2, 2x3, 2x4, 2x5 and 3x3 "
            "(two or three bands)",
            box_rows, box_cols);
        return NULL;
    }
    struct grid_count *gc = calloc(1, sizeof(*gc));
    if (!gc) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    plan_shape(gc, box_rows, box_cols);
    int margin[GC_MAX_STACKS][3] = { { 0 } };
    if (enum_profiles(gc, 0, margin, 0) != 0 || build_group(gc) != 0) {
        snprintf(why, whylen, "out of memory");
        grid_count_free(gc);
        return NULL;
    }
    qsort(gc->keys, gc->nprofiles, sizeof(*gc->keys), key_compare);
    if (build_classes(gc) != 0) {
        snprintf(why, whylen, "out of memory");
        grid_count_free(gc);
        return NULL;
    }
    return gc;
}

void grid_count_free(struct grid_count *gc)
{
    if (!gc)
        return;
    free(gc->keys);
    free(gc->class_of);
    free(gc->classes);
    free(gc->reps);
    free(gc->group);
    free(gc);
}

int grid_count_rows(const struct grid_count *gc)
{
    return gc->R;
}

int grid_count_cols(const struct grid_count *gc)
{
    return gc->C;
}

bool grid_count_transposed(const struct grid_count *gc)
{
    return gc->transposed;
}

size_t grid_count_profiles(const struct grid_count *gc)
{
    return gc->nprofiles;
}

size_t grid_count_classes(const struct grid_count *gc)
{
    return gc->nclasses;
}

const struct grid_count_class *grid_count_class_at(const struct grid_count *gc, size_t k)
{
    return &gc->classes[k];
}

bool grid_count_needs_all_orders(const struct grid_count *gc)
{
    return gc->C == 3;
}

/* --- orders: one band's rows from its column sets --- */

/* A band to order: col[s][d] is digit d's column in stack s, preset[s][d] a
 * row it must take there (GC_NONE: free). Each digit takes a different row
 * in every stack, and each column's digits take different rows. */
struct band_fill {
    int R, N;
    int8_t col[GC_MAX_STACKS][GRID_COUNT_MAX_N];
    int8_t preset[GC_MAX_STACKS][GRID_COUNT_MAX_N];
    uint8_t used[GRID_COUNT_MAX_N];
    uint8_t taken[GC_MAX_STACKS][3];
    int8_t row[GC_MAX_STACKS][GRID_COUNT_MAX_N];
    uint64_t count;
    bool have_witness;
    int8_t witness[GC_MAX_STACKS][GRID_COUNT_MAX_N];
};

static unsigned fill_choices(const struct band_fill *f, int s, int d)
{
    unsigned free = ((1u << f->R) - 1) & ~(unsigned) f->used[d]
        & ~(unsigned) f->taken[s][f->col[s][d]];
    if (f->preset[s][d] != GC_NONE)
        free &= 1u << f->preset[s][d];
    return free;
}

static void fill_search(struct band_fill *f, int p)
{
    if (p == f->R * f->N) {
        if (!f->have_witness) {
            memcpy(f->witness, f->row, sizeof(f->row));
            f->have_witness = true;
        }
        f->count++;
        return;
    }
    const int s = p / f->N, d = p % f->N, c = f->col[s][d];
    for (unsigned free = fill_choices(f, s, d); free; free &= free - 1) {
        const unsigned bit = free & -free;
        f->used[d] |= (uint8_t) bit;
        f->taken[s][c] |= (uint8_t) bit;
        f->row[s][d] = (int8_t) __builtin_ctz(bit);
        fill_search(f, p + 1);
        f->used[d] &= (uint8_t) ~bit;
        f->taken[s][c] &= (uint8_t) ~bit;
    }
}

/* Without presets, permuting the band's rows is a symmetry: the digits of
 * the first column take rows 0, 1, ... in order, and the count is R! times
 * the rest. Returns that factor. */
static uint64_t fill_prepare(struct band_fill *f)
{
    memset(f->used, 0, sizeof(f->used));
    memset(f->taken, 0, sizeof(f->taken));
    f->count = 0;
    f->have_witness = false;
    for (int s = 0; s < f->R; s++)
        for (int d = 0; d < f->N; d++)
            if (f->preset[s][d] != GC_NONE)
                return 1;
    uint64_t factor = 1;
    int next = 0;
    for (int d = 0; d < f->N; d++)
        if (f->col[0][d] == 0) {
            f->preset[0][d] = (int8_t) next++;
            factor *= (uint64_t) next;
        }
    return factor;
}

static uint64_t fill_count(struct band_fill *f)
{
    const uint64_t factor = fill_prepare(f);
    fill_search(f, 0);
    return f->count * factor;
}

/* The band of class k's representative profile: digits in type order. */
static void rep_fill(const struct grid_count *gc, size_t k, struct band_fill *f)
{
    f->R = gc->R;
    f->N = gc->N;
    int d = 0;
    for (int t = 0; t < gc->types; t++)
        for (unsigned i = 0; i < key_count(gc->reps[k], t); i++, d++)
            for (int s = 0; s < gc->R; s++) {
                f->col[s][d] = (int8_t) type_col(gc, t, s);
                f->preset[s][d] = GC_NONE;
            }
}

uint64_t grid_count_orders(struct grid_count *gc, size_t k)
{
    struct band_fill f;
    rep_fill(gc, k, &f);
    struct grid_count_class *cl = &gc->classes[k];
    cl->orders = fill_count(&f);
    cl->orders_known = true;
    memset(cl->band, 0, sizeof(cl->band));
    for (int s = 0; f.have_witness && s < gc->R; s++)
        for (int d = 0; d < gc->N; d++)
            cl->band[f.witness[s][d] * gc->N + s * gc->C + f.col[s][d]]
                = (uint8_t) (d + 1);
    return cl->orders;
}

double grid_count_orders_nodes_estimate(
    const struct grid_count *gc, size_t k, unsigned probes, uint64_t seed)
{
    struct band_fill f;
    rep_fill(gc, k, &f);
    struct rng rng;
    rng_seed(&rng, seed);
    double sum = 0;
    for (unsigned i = 0; i < probes; i++) {
        fill_prepare(&f);
        double weight = 1, nodes = 1;
        for (int p = 0; p < gc->R * gc->N; p++) {
            const int s = p / gc->N, d = p % gc->N;
            unsigned free = fill_choices(&f, s, d);
            const int n = __builtin_popcount(free);
            if (n == 0)
                break;
            weight *= n;
            nodes += weight;
            for (uint64_t skip = rng_below(&rng, (uint64_t) n); skip; skip--)
                free &= free - 1;
            const unsigned bit = free & -free;
            f.used[d] |= (uint8_t) bit;
            f.taken[s][f.col[s][d]] |= (uint8_t) bit;
        }
        sum += nodes;
    }
    return probes ? sum / probes : 0;
}

/* --- completions --- */

/* What a partly given grid fixes in the bands after the first: for band
 * b = 1..C-1 (index b-1), digit d's column and row in stack s, or GC_NONE. */
struct later_bands {
    int8_t col[2][GC_MAX_STACKS][GRID_COUNT_MAX_N];
    int8_t row[2][GC_MAX_STACKS][GRID_COUNT_MAX_N];
    bool any[2];
};

static void no_later_bands(struct later_bands *lb)
{
    memset(lb->col, GC_NONE, sizeof(lb->col));
    memset(lb->row, GC_NONE, sizeof(lb->row));
    lb->any[0] = lb->any[1] = false;
}

static uint64_t orders_of_key(const struct grid_count *gc, gc_key key)
{
    const size_t i = find_profile(gc, key);
    return i == SIZE_MAX ? 0 : gc->classes[gc->class_of[i]].orders;
}

/* Orders of a later band whose columns are cols: by its class, or by a
 * search when given boxes fix some of its rows. */
static uint64_t later_orders(const struct grid_count *gc,
    const int8_t cols[][GRID_COUNT_MAX_N], const struct later_bands *lb, int band)
{
    if (!lb->any[band]) {
        gc_key key = 0;
        for (int d = 0; d < gc->N; d++) {
            int t = 0;
            for (int s = 0; s < gc->R; s++)
                t += cols[s][d] * gc->weight[s];
            key += (gc_key) 1 << (3 * t);
        }
        return orders_of_key(gc, key);
    }
    struct band_fill f;
    f.R = gc->R;
    f.N = gc->N;
    memcpy(f.col, cols, sizeof(f.col));
    memcpy(f.preset, lb->row[band], sizeof(f.preset));
    return fill_count(&f);
}

uint64_t grid_count_orders_of(
    const struct grid_count *gc, const int8_t cols[][GRID_COUNT_MAX_N])
{
    struct later_bands lb;
    no_later_bands(&lb);
    return later_orders(gc, cols, &lb, 0);
}

/* Three bands: the middle band's column choices in each stack. */
enum { GC_MIDDLE_CHOICES = 56 }; /* sum over k of C(3,k)^3, for R = C = 3 */

struct middle_choices {
    int n[GC_MAX_STACKS];
    int8_t col[GC_MIDDLE_CHOICES][GC_MAX_STACKS][GRID_COUNT_MAX_N]; /* [choice][s][d] */
};

static void choose_middle(const struct grid_count *gc,
    const int8_t first[][GRID_COUNT_MAX_N], const struct later_bands *lb, int s, int d,
    int8_t *cur, int *per_col, struct middle_choices *mc)
{
    if (d == gc->N) {
        memcpy(mc->col[mc->n[s]++][s], cur, (size_t) gc->N);
        return;
    }
    const int c = first[s][d];
    for (int t = 0; t < 3; t++) {
        const int u = 3 - c - t;
        if (t == c || per_col[t] == gc->R
            || (lb->col[0][s][d] != GC_NONE && lb->col[0][s][d] != t)
            || (lb->col[1][s][d] != GC_NONE && lb->col[1][s][d] != u))
            continue;
        per_col[t]++;
        cur[d] = (int8_t) t;
        choose_middle(gc, first, lb, s, d + 1, cur, per_col, mc);
        per_col[t]--;
    }
}

struct middle_walk {
    const struct grid_count *gc;
    const struct later_bands *lb;
    const struct middle_choices *mc;
    int8_t first[GC_MAX_STACKS][GRID_COUNT_MAX_N];
    int8_t mid[GC_MAX_STACKS][GRID_COUNT_MAX_N];
    int8_t last[GC_MAX_STACKS][GRID_COUNT_MAX_N];
};

static grid_count_u128 walk_middle(struct middle_walk *w, int s)
{
    const struct grid_count *gc = w->gc;
    if (s == gc->R)
        return (grid_count_u128) later_orders(gc, w->mid, w->lb, 0)
            * later_orders(gc, w->last, w->lb, 1);
    /* R <= GC_MAX_STACKS, so this never holds; it tells gcc -O3, which
     * cannot see that through the recursion. */
    if (s >= GC_MAX_STACKS)
        return 0;
    grid_count_u128 sum = 0;
    for (int i = 0; i < w->mc->n[s]; i++) {
        for (int d = 0; d < gc->N; d++) {
            w->mid[s][d] = w->mc->col[i][s][d];
            w->last[s][d] = (int8_t) (3 - w->first[s][d] - w->mid[s][d]);
        }
        sum += walk_middle(w, s + 1);
    }
    return sum;
}

static grid_count_u128 complete(const struct grid_count *gc,
    const int8_t first[][GRID_COUNT_MAX_N], const struct later_bands *lb)
{
    if (gc->C == 2) {
        int8_t last[GC_MAX_STACKS][GRID_COUNT_MAX_N];
        for (int s = 0; s < gc->R; s++)
            for (int d = 0; d < gc->N; d++)
                last[s][d] = (int8_t) (1 - first[s][d]);
        return later_orders(gc, last, lb, 0);
    }
    /* 3 stacks of 56 choices at most (R = 3) */
    struct middle_choices mc;
    memset(mc.n, 0, sizeof(mc.n));
    for (int s = 0; s < gc->R; s++) {
        int8_t cur[GRID_COUNT_MAX_N];
        int per_col[3] = { 0, 0, 0 };
        choose_middle(gc, first, lb, s, 0, cur, per_col, &mc);
    }
    struct middle_walk w = { gc, lb, &mc, { { 0 } }, { { 0 } }, { { 0 } } };
    memcpy(w.first, first, sizeof(w.first));
    const grid_count_u128 sum = walk_middle(&w, 0);
    return sum;
}

grid_count_u128 grid_count_completions(const struct grid_count *gc, size_t k)
{
    struct band_fill f;
    rep_fill(gc, k, &f);
    struct later_bands lb;
    no_later_bands(&lb);
    return complete(gc, f.col, &lb);
}

/* --- a partly given grid --- */

static void transpose_into(const struct grid *g, struct grid *t)
{
    grid_init(t, g->box_cols, g->box_rows, GRID_STANDARD);
    for (int r = 0; r < g->n; r++)
        for (int c = 0; c < g->n; c++)
            t->cell[c * g->n + r] = g->cell[r * g->n + c];
}

/* Reads the first band's columns and the given later boxes. Returns 0, or
 * -1 with why. */
static int read_bands(const struct grid_count *gc, const struct grid *h,
    int8_t first[][GRID_COUNT_MAX_N], struct later_bands *lb, char *why, size_t whylen)
{
    const int N = gc->N, R = gc->R, C = gc->C;
    no_later_bands(lb);
    for (int b = 0; b < C; b++)
        for (int s = 0; s < R; s++) {
            int filled = 0;
            for (int i = 0; i < N; i++)
                filled += h->cell[(b * R + i / C) * N + s * C + i % C] != 0;
            if ((b == 0 && filled != N) || (filled != 0 && filled != N)) {
                snprintf(why, whylen, "box %d of band %d%s is %s", s + 1, b + 1,
                    gc->transposed ? " (of the transpose)" : "",
                    b == 0 ? "not complete" : "neither complete nor blank");
                return -1;
            }
            for (int i = 0; filled && i < N; i++) {
                const int d = h->cell[(b * R + i / C) * N + s * C + i % C] - 1;
                if (b == 0) {
                    first[s][d] = (int8_t) (i % C);
                } else {
                    lb->col[b - 1][s][d] = (int8_t) (i % C);
                    lb->row[b - 1][s][d] = (int8_t) (i / C);
                    lb->any[b - 1] = true;
                }
            }
        }
    return 0;
}

int grid_count_completions_of(const struct grid_count *gc, const struct grid *g,
    grid_count_u128 *out, char *why, size_t whylen)
{
    if (g->box_rows != gc->box_rows || g->box_cols != gc->box_cols
        || g->variant != GRID_STANDARD) {
        snprintf(why, whylen, "the grid is not a standard grid of %dx%d boxes",
            gc->box_rows, gc->box_cols);
        return -1;
    }
    if (grid_find_conflict(g, why, whylen))
        return -1;
    struct grid h;
    if (gc->transposed)
        transpose_into(g, &h);
    else
        h = *g;
    for (size_t k = 0; k < gc->nclasses; k++)
        if (!gc->classes[k].orders_known) {
            snprintf(why, whylen, "the orders of class %zu are not counted yet", k + 1);
            return -1;
        }
    int8_t first[GC_MAX_STACKS][GRID_COUNT_MAX_N];
    struct later_bands lb;
    if (read_bands(gc, &h, first, &lb, why, whylen) != 0)
        return -1;
    if (gc->C == 2 && lb.any[0]) {
        /* the last band's columns are forced: a given box must agree */
        for (int s = 0; s < gc->R; s++)
            for (int d = 0; d < gc->N; d++)
                if (lb.col[0][s][d] != GC_NONE && lb.col[0][s][d] != 1 - first[s][d]) {
                    *out = 0;
                    return 0;
                }
    }
    *out = complete(gc, first, &lb);
    return 0;
}

void grid_count_u128_format(grid_count_u128 v, char out[GRID_COUNT_U128_DIGITS])
{
    char tmp[GRID_COUNT_U128_DIGITS];
    int n = 0;
    do {
        tmp[n++] = (char) ('0' + (int) (v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
}
