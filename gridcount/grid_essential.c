/* Burnside's lemma class by class (grid_essential.h). */
#include "gridcount/grid_essential.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/perm.h"

enum {
    GE_N = GRID_ESSENTIAL_MAX_N,
    GE_CELLS = GE_N * GE_N,
    GE_MAX_LINE_PERMS = 1296, /* S3 wr S3 */
    GE_MAX_PEERS = 2 * (GE_N - 1) + 4,
};

typedef uint8_t line_perm[GE_N];

/* One line group (W): its elements in lexicographic order, the class of
 * each, and per class a representative and a size. */
struct line_group {
    int count, nclasses;
    line_perm *perm;
    int *class_of;
    int rep[GE_MAX_LINE_PERMS];
    uint64_t size[GE_MAX_LINE_PERMS];
};

struct grid_essential {
    int br, bc, n;
    /* The band-reduction plan of the shape with every class's orders, for
     * the maps that move bands (boxes with at least as many rows as columns:
     * then its bands are these); NULL for the other orientation. */
    struct grid_count *plan;
    struct line_group rows, cols;
    size_t nclasses;
    struct grid_essential_class *classes;
};

/* --- the line groups --- */

/* Permutations of n lines in blocks of `block` that map blocks to blocks, in
 * lexicographic order. */
static int block_perms(int n, int block, line_perm *out)
{
    int count = 0;
    line_perm p = { 0 };
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t) i;
    do {
        bool keeps = true;
        for (int i = 0; i < n; i++)
            keeps &= p[i] / block == p[i / block * block] / block;
        if (keeps)
            memcpy(out[count++], p, sizeof(line_perm));
    } while (perm_next(p, n));
    return count;
}

static int perm_index(const struct line_group *lg, const uint8_t *p, int n)
{
    int lo = 0, hi = lg->count;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (memcmp(lg->perm[mid], p, (size_t) n) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Conjugacy classes by conjugating each new representative by the whole
 * group. */
static void line_classes(struct line_group *lg, int n)
{
    for (int i = 0; i < lg->count; i++)
        lg->class_of[i] = -1;
    lg->nclasses = 0;
    for (int i = 0; i < lg->count; i++) {
        if (lg->class_of[i] >= 0)
            continue;
        const int k = lg->nclasses++;
        lg->rep[k] = i;
        lg->size[k] = 0;
        for (int h = 0; h < lg->count; h++) {
            uint8_t inv[GE_N], conj[GE_N];
            for (int x = 0; x < n; x++)
                inv[lg->perm[h][x]] = (uint8_t) x;
            for (int x = 0; x < n; x++)
                conj[x] = lg->perm[h][lg->perm[i][inv[x]]];
            const int j = perm_index(lg, conj, n);
            if (lg->class_of[j] < 0) {
                lg->class_of[j] = k;
                lg->size[k]++;
            }
        }
    }
}

static int line_group_init(struct line_group *lg, int n, int block)
{
    lg->perm = malloc(GE_MAX_LINE_PERMS * sizeof(line_perm));
    lg->class_of = malloc(GE_MAX_LINE_PERMS * sizeof(int));
    if (!lg->perm || !lg->class_of)
        return -1;
    lg->count = block_perms(n, block, lg->perm);
    line_classes(lg, n);
    return 0;
}

/* --- the classes of G --- */

static void set_rep(struct grid_essential_class *c, const uint8_t *rows,
    const uint8_t *cols, bool flip, uint64_t size, int n)
{
    memset(c, 0, sizeof(*c));
    memcpy(c->rows, rows, (size_t) n);
    memcpy(c->cols, cols, (size_t) n);
    c->flip = flip;
    c->size = size;
    c->identity = !flip;
    for (int i = 0; i < n; i++)
        c->identity &= rows[i] == i && cols[i] == i;
}

static int build_classes(struct grid_essential *ge)
{
    const struct line_group *r = &ge->rows, *c = &ge->cols;
    const bool square = ge->br == ge->bc;
    const size_t cap = (size_t) r->nclasses * (size_t) c->nclasses + (size_t) r->nclasses;
    ge->classes = calloc(cap, sizeof(*ge->classes));
    if (!ge->classes)
        return -1;
    size_t k = 0;
    for (int i = 0; i < r->nclasses; i++)
        for (int j = square ? i : 0; j < c->nclasses; j++) {
            const uint64_t size = r->size[i] * c->size[j] * (square && i != j ? 2 : 1);
            set_rep(&ge->classes[k++], r->perm[r->rep[i]], c->perm[c->rep[j]], false,
                size, ge->n);
        }
    for (int i = 0; square && i < r->nclasses; i++)
        set_rep(&ge->classes[k++], r->perm[r->rep[i]], r->perm[0], true,
            (uint64_t) r->count * r->size[i], ge->n);
    ge->nclasses = k;
    return 0;
}

struct grid_essential *grid_essential_new(
    int box_rows, int box_cols, char *why, size_t whylen)
{
    const int n = box_rows * box_cols;
    if (box_rows < 2 || box_cols < 2 || n > GE_N) {
        snprintf(why, whylen,
            "%dx%d boxes: the classes of Burnside's sum are counted for 4x4, 6x6, 8x8 "
            "and 9x9",
            box_rows, box_cols);
        return NULL;
    }
    struct grid_essential *ge = calloc(1, sizeof(*ge));
    if (!ge || line_group_init(&ge->rows, n, box_rows) != 0
        || line_group_init(&ge->cols, n, box_cols) != 0) {
        grid_essential_free(ge);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    ge->br = box_rows;
    ge->bc = box_cols;
    ge->n = n;
    if (build_classes(ge) != 0) {
        grid_essential_free(ge);
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    if (box_rows >= box_cols) {
        char plan_why[160];
        ge->plan = grid_count_new(box_rows, box_cols, plan_why, sizeof(plan_why));
        for (size_t k = 0; ge->plan && k < grid_count_classes(ge->plan); k++)
            grid_count_orders(ge->plan, k);
    }
    return ge;
}

void grid_essential_free(struct grid_essential *ge)
{
    if (!ge)
        return;
    free(ge->rows.perm);
    free(ge->rows.class_of);
    free(ge->cols.perm);
    free(ge->cols.class_of);
    free(ge->classes);
    grid_count_free(ge->plan);
    free(ge);
}

uint64_t grid_essential_group(const struct grid_essential *ge)
{
    return (uint64_t) ge->rows.count * (uint64_t) ge->cols.count
        * (ge->br == ge->bc ? 2u : 1u);
}

size_t grid_essential_classes(const struct grid_essential *ge)
{
    return ge->nclasses;
}

const struct grid_essential_class *grid_essential_class_at(
    const struct grid_essential *ge, size_t k)
{
    return &ge->classes[k];
}

/* --- the fixed grids of one map --- */

struct fix_state;
struct sig_counts;

/* The cells, their peers, g's cell map pi (g(X)[p] = X[pi[p]], so a fixed
 * grid has X[pi[p]] = sigma(X[p])) and its inverse. */
struct fix_map {
    int n, cells;
    uint8_t pi[GE_CELLS], pinv[GE_CELLS];
    uint8_t npeers;
    uint8_t peers[GE_CELLS][GE_MAX_PEERS];
    int nunits;
    uint8_t units[3 * GE_N][GE_N];
    uint64_t grids, nodes, max_nodes;
    bool gave_up;
    /* when set, called on each grid found instead of counting it */
    void (*found)(struct fix_map *m, const struct fix_state *s);
    struct sig_counts *sigs;
    int box_cols; /* for the signatures */
};

/* A partial grid and the relabelling learnt so far (0: unknown). */
struct fix_state {
    uint16_t cand[GE_CELLS];
    uint8_t val[GE_CELLS];
    uint8_t sig[GE_N + 1], inv[GE_N + 1];
    uint8_t queue[GE_CELLS];
    int head, tail, placed;
};

static bool place(const struct fix_map *m, struct fix_state *s, int p, int v)
{
    if (s->val[p])
        return s->val[p] == v;
    if (!(s->cand[p] >> v & 1u))
        return false;
    s->val[p] = (uint8_t) v;
    s->cand[p] = (uint16_t) (1u << v);
    s->queue[s->tail++] = (uint8_t) p;
    s->placed++;
    (void) m;
    return true;
}

/* sigma(a) = b: every placed a forces b where g reads it, and back. */
static bool bind(const struct fix_map *m, struct fix_state *s, int a, int b)
{
    if (s->sig[a])
        return s->sig[a] == b;
    if (s->inv[b])
        return false;
    s->sig[a] = (uint8_t) b;
    s->inv[b] = (uint8_t) a;
    for (int r = 0; r < m->cells; r++) {
        if (s->val[r] == a && !place(m, s, m->pi[r], b))
            return false;
        if (s->val[r] == b && !place(m, s, m->pinv[r], a))
            return false;
    }
    return true;
}

static bool propagate_cell(const struct fix_map *m, struct fix_state *s, int p)
{
    const int v = s->val[p];
    const uint16_t bit = (uint16_t) (1u << v);
    for (int i = 0; i < m->npeers; i++) {
        const int q = m->peers[p][i];
        if (s->val[q]) {
            if (s->val[q] == v)
                return false;
            continue;
        }
        s->cand[q] &= (uint16_t) ~bit;
        const uint16_t left = s->cand[q];
        if (!left || (!(left & (left - 1)) && !place(m, s, q, __builtin_ctz(left))))
            return false;
    }
    const int fwd = m->pi[p], back = m->pinv[p];
    if (s->sig[v] ? !place(m, s, fwd, s->sig[v])
                  : s->val[fwd] && !bind(m, s, v, s->val[fwd]))
        return false;
    if (s->inv[v] ? !place(m, s, back, s->inv[v])
                  : s->val[back] && !bind(m, s, s->val[back], v))
        return false;
    return true;
}

static bool drain(const struct fix_map *m, struct fix_state *s)
{
    while (s->head < s->tail)
        if (!propagate_cell(m, s, s->queue[s->head++]))
            return false;
    s->head = s->tail = 0;
    return true;
}

/* Digits with one place left in a unit go there. Returns -1 on a
 * contradiction, else whether a digit was placed. */
static int hidden_singles(const struct fix_map *m, struct fix_state *s)
{
    const uint16_t all = (uint16_t) (((1u << m->n) - 1) << 1);
    int changed = 0;
    for (int u = 0; u < m->nunits; u++) {
        uint16_t once = 0, twice = 0;
        for (int i = 0; i < m->n; i++) {
            const uint16_t c = s->cand[m->units[u][i]];
            twice |= once & c;
            once |= c;
        }
        if (once != all)
            return -1;
        const uint16_t single = once & (uint16_t) ~twice;
        for (int i = 0; i < m->n && single; i++) {
            const int p = m->units[u][i];
            const uint16_t c = s->cand[p] & single;
            if (!s->val[p] && c) {
                if (c & (c - 1) || !place(m, s, p, __builtin_ctz(c)))
                    return -1;
                changed = 1;
            }
        }
    }
    return changed;
}

static bool propagate(const struct fix_map *m, struct fix_state *s)
{
    for (;;) {
        if (!drain(m, s))
            return false;
        const int r = hidden_singles(m, s);
        if (r < 0)
            return false;
        if (r == 0)
            return true;
    }
}

static void fix_search(struct fix_map *m, const struct fix_state *s)
{
    if (m->gave_up || (++m->nodes > m->max_nodes && m->max_nodes)) {
        m->gave_up = true;
        return;
    }
    if (s->placed == m->cells) {
        if (m->found)
            m->found(m, s);
        else
            m->grids++;
        return;
    }
    int best = -1, fewest = GE_N + 1;
    for (int p = 0; p < m->cells; p++)
        if (!s->val[p]) {
            const int k = __builtin_popcount(s->cand[p]);
            if (k < fewest) {
                fewest = k;
                best = p;
            }
        }
    for (uint16_t c = s->cand[best]; c; c &= (uint16_t) (c - 1)) {
        struct fix_state t = *s;
        if (place(m, &t, best, __builtin_ctz(c)) && propagate(m, &t))
            fix_search(m, &t);
    }
}

static void map_peers(struct fix_map *m, int br, int bc)
{
    const int n = m->n;
    for (int p = 0; p < m->cells; p++) {
        int k = 0;
        const int r = p / n, c = p % n;
        for (int q = 0; q < m->cells; q++) {
            const int qr = q / n, qc = q % n;
            const bool box = qr / br == r / br && qc / bc == c / bc;
            if (q != p && (qr == r || qc == c || box))
                m->peers[p][k++] = (uint8_t) q;
        }
        m->npeers = (uint8_t) k;
    }
    m->nunits = 3 * n;
    for (int u = 0; u < n; u++)
        for (int i = 0; i < n; i++) {
            m->units[u][i] = (uint8_t) (u * n + i);
            m->units[n + u][i] = (uint8_t) (i * n + u);
            m->units[2 * n + u][i] = (uint8_t) ((u / (n / bc) * br + i / bc) * n
                + u % (n / bc) * bc + i % bc);
        }
}

/* A unit that pi maps onto itself, or -1: labelling it 1..N (the
 * relabelling's normal form) then tells sigma at once. */
static int stable_unit(const struct fix_map *m)
{
    for (int u = 0; u < m->nunits; u++) {
        uint8_t in[GE_CELLS] = { 0 };
        for (int i = 0; i < m->n; i++)
            in[m->units[u][i]] = 1;
        bool stable = true;
        for (int i = 0; i < m->n; i++)
            stable &= in[m->pi[m->units[u][i]]] == 1;
        if (stable)
            return u;
    }
    return -1;
}

static void map_of(struct fix_map *m, const struct grid_essential_class *c)
{
    const int n = m->n;
    for (int r = 0; r < n; r++)
        for (int col = 0; col < n; col++) {
            const int p = r * n + col;
            m->pi[p] = (uint8_t) (c->flip ? c->cols[col] * n + c->rows[r]
                                          : c->rows[r] * n + c->cols[col]);
        }
    for (int p = 0; p < m->cells; p++)
        m->pinv[m->pi[p]] = (uint8_t) p;
}

static uint64_t factorial(int n)
{
    uint64_t f = 1;
    for (int i = 2; i <= n; i++)
        f *= (uint64_t) i;
    return f;
}

static void fresh_state(const struct fix_map *m, struct fix_state *s)
{
    memset(s, 0, sizeof(*s));
    const uint16_t all = (uint16_t) (((1u << m->n) - 1) << 1);
    for (int p = 0; p < m->cells; p++)
        s->cand[p] = all;
}

static bool is_peer(const struct fix_map *m, int p, int q)
{
    for (int i = 0; i < m->npeers; i++)
        if (m->peers[p][i] == q)
            return true;
    return false;
}

/* With sigma known, digit v at p puts sigma^j(v) at pi^j(p) round p's cycle
 * of cells: v is no candidate of p where that cycle does not close or puts
 * a digit twice in a unit (which the search would otherwise find only
 * where it reaches the cycle, after filling the cells it tries first).
 * Returns false when a cell is left without candidates. */
static bool prune_cycles(const struct fix_map *m, struct fix_state *s)
{
    for (int p = 0; p < m->cells; p++) {
        for (int v = 1; v <= m->n; v++) {
            if (!(s->cand[p] >> v & 1u))
                continue;
            uint8_t cells[GE_CELLS], vals[GE_CELLS];
            int len = 0, q = p, w = v;
            bool ok = true;
            do {
                for (int i = 0; i < len && ok; i++)
                    ok = vals[i] != w || !is_peer(m, cells[i], q);
                cells[len] = (uint8_t) q;
                vals[len++] = (uint8_t) w;
                q = m->pi[q];
                w = s->sig[w];
            } while (ok && q != p);
            if (!ok || w != v)
                s->cand[p] &= (uint16_t) ~(1u << v);
        }
        if (!s->cand[p])
            return false;
    }
    return true;
}

/* The grids with unit u labelled 1..N (each relabelling class once); fix =
 * N! times them. When pi maps u onto itself sigma is learnt from u at once,
 * else as the search meets g's cycles of cells. */
static grid_count_u128 fixed_by_unit(struct fix_map *m, int u)
{
    struct fix_state s;
    fresh_state(m, &s);
    bool ok = true;
    for (int i = 0; i < m->n && ok; i++)
        ok = place(m, &s, m->units[u][i], i + 1) && drain(m, &s);
    if (ok && propagate(m, &s))
        fix_search(m, &s);
    return (grid_count_u128) m->grids * factorial(m->n);
}

/* The cycle types of S_N (partitions of N), each as a sigma whose cycles
 * run over consecutive digits, and the size of its conjugacy class. */
struct cycle_types {
    int count;
    uint8_t sigma[32][GE_N + 1];
    uint64_t size[32];
};

static void cycle_types(
    int n, int left, int largest, int *parts, int nparts, struct cycle_types *c)
{
    if (left == 0) {
        uint64_t size = factorial(n);
        uint8_t *sig = c->sigma[c->count];
        for (int i = 0, start = 1; i < nparts; start += parts[i++]) {
            int same = 1;
            for (int j = 0; j < i; j++)
                same += parts[j] == parts[i];
            size /= (uint64_t) parts[i] * (uint64_t) same;
            for (int d = 0; d < parts[i]; d++)
                sig[start + d] = (uint8_t) (start + (d + 1) % parts[i]);
        }
        c->size[c->count++] = size;
        return;
    }
    for (int k = left < largest ? left : largest; k >= 1; k--) {
        parts[nparts] = k;
        cycle_types(n, left - k, k, parts, nparts + 1, c);
    }
}

/* Without such a unit: sigma fixed to each cycle type in turn, so every
 * digit placed fills its whole cycle of cells at once; fix = the sum of
 * class size * grids over the types. */
static grid_count_u128 fixed_by_types(struct fix_map *m)
{
    struct cycle_types types = { 0 };
    int parts[GE_N];
    cycle_types(m->n, m->n, m->n, parts, 0, &types);
    grid_count_u128 fixed = 0;
    for (int t = 0; t < types.count && !m->gave_up; t++) {
        struct fix_state s;
        fresh_state(m, &s);
        for (int a = 1; a <= m->n; a++) {
            s.sig[a] = types.sigma[t][a];
            s.inv[types.sigma[t][a]] = (uint8_t) a;
        }
        m->grids = 0;
        if (prune_cycles(m, &s) && propagate(m, &s))
            fix_search(m, &s);
        fixed += (grid_count_u128) m->grids * types.size[t];
    }
    return fixed;
}

/* --- the band join: maps that keep every band --- */

/* Bands counted by their column signature: for each stack s and digit d, the
 * column within the stack, in bits 2 (s N + d - 1). Open addressing. */
struct sig_counts {
    size_t cap, used;
    uint64_t *key; /* signature + 1; 0: empty */
    uint64_t *count;
    bool failed;
};

static bool sig_grow(struct sig_counts *h)
{
    const size_t cap = h->cap ? 2 * h->cap : 1024;
    uint64_t *key = calloc(cap, sizeof(*key)), *count = calloc(cap, sizeof(*count));
    if (!key || !count) {
        free(key);
        free(count);
        return false;
    }
    for (size_t i = 0; i < h->cap; i++)
        for (size_t j = h->key[i] * 0x9e3779b97f4a7c15u >> 20 & (cap - 1); h->key[i];
             j = (j + 1) & (cap - 1))
            if (!key[j]) {
                key[j] = h->key[i];
                count[j] = h->count[i];
                break;
            }
    free(h->key);
    free(h->count);
    h->key = key;
    h->count = count;
    h->cap = cap;
    return true;
}

static uint64_t *sig_slot(const struct sig_counts *h, uint64_t sig)
{
    if (!h->cap)
        return NULL;
    for (size_t j = (sig + 1) * 0x9e3779b97f4a7c15u >> 20 & (h->cap - 1);;
         j = (j + 1) & (h->cap - 1)) {
        if (h->key[j] == sig + 1)
            return &h->count[j];
        if (!h->key[j])
            return NULL;
    }
}

/* Adds count to sig's entry, creating it (even with count 0). */
static void sig_add_count(struct sig_counts *h, uint64_t sig, uint64_t count)
{
    uint64_t *slot = sig_slot(h, sig);
    if (slot) {
        *slot += count;
        return;
    }
    if ((h->used + 1) * 2 > h->cap && !sig_grow(h)) {
        h->failed = true;
        return;
    }
    size_t j = (sig + 1) * 0x9e3779b97f4a7c15u >> 20 & (h->cap - 1);
    while (h->key[j])
        j = (j + 1) & (h->cap - 1);
    h->key[j] = sig + 1;
    h->count[j] = count;
    h->used++;
}

static void sig_add(struct sig_counts *h, uint64_t sig)
{
    sig_add_count(h, sig, 1);
}

static void sig_free(struct sig_counts *h)
{
    free(h->key);
    free(h->count);
    memset(h, 0, sizeof(*h));
}

struct band_shape {
    int n, br, bc;
};

static void record_band(struct fix_map *m, const struct fix_state *s)
{
    const int bc = m->box_cols;
    uint64_t sig = 0;
    for (int c = 0; c < m->n; c++)
        for (int r = 0; r < m->cells / m->n; r++) {
            const int d = s->val[r * m->n + c];
            sig |= (uint64_t) (c % bc) << (2 * ((c / bc) * m->n + d - 1));
        }
    sig_add(m->sigs, sig);
}

/* The map (rows, cols) on band b's cells (rows b br .. b br + br - 1, local
 * numbering); rows must keep the band. */
static void band_map(struct fix_map *m, const struct band_shape *sh, const uint8_t *rows,
    const uint8_t *cols, int b)
{
    const int n = sh->n, br = sh->br, bc = sh->bc;
    m->n = n;
    m->cells = br * n;
    m->npeers = 0;
    for (int p = 0; p < m->cells; p++) {
        int k = 0;
        for (int q = 0; q < m->cells; q++)
            if (q != p && (q / n == p / n || q % n / bc == p % n / bc))
                m->peers[p][k++] = (uint8_t) q;
        m->npeers = (uint8_t) k;
        m->pi[p] = (uint8_t) ((rows[b * br + p / n] - b * br) * n + cols[p % n]);
    }
    for (int p = 0; p < m->cells; p++)
        m->pinv[m->pi[p]] = (uint8_t) p;
    m->nunits = br + n / bc;
    for (int u = 0; u < m->nunits; u++)
        for (int i = 0; i < n; i++)
            m->units[u][i]
                = (uint8_t) (u < br ? u * n + i : i / bc * n + (u - br) * bc + i % bc);
    m->box_cols = bc;
}
/* Joins the bands' signatures: per stack and digit the bands take every
 * column once. Two bands: the second's signature is the complement; three:
 * the third's follows from the first two. */
static grid_count_u128 join_bands(struct sig_counts *h, int bands, int n)
{
    if (bands == 3) { /* any two bands fix the third: look up the largest */
        const int big = h[0].used > h[1].used ? (h[0].used > h[2].used ? 0 : 2)
                                              : (h[1].used > h[2].used ? 1 : 2);
        const struct sig_counts t = h[2];
        h[2] = h[big];
        h[big] = t;
    }
    uint64_t low = 0;
    for (int i = 0; i < n / (bands == 2 ? 2 : 3) * n; i++)
        low |= (uint64_t) 1 << (2 * i);
    grid_count_u128 sum = 0;
    for (size_t i = 0; i < h[0].cap; i++) {
        if (!h[0].key[i])
            continue;
        const uint64_t k0 = h[0].key[i] - 1;
        if (bands == 2) {
            const uint64_t *c = sig_slot(&h[1], low - k0);
            sum += c ? (grid_count_u128) h[0].count[i] * *c : 0;
            continue;
        }
        for (size_t j = 0; j < h[1].cap; j++) {
            const uint64_t k1 = h[1].key[j] - 1, x = k0 ^ k1;
            if (!h[1].key[j] || ((x | x >> 1) & low) != low)
                continue;
            const uint64_t *c = sig_slot(&h[2], 3 * low - k0 - k1);
            if (c)
                sum += (grid_count_u128) h[0].count[i] * h[1].count[j] * *c;
        }
    }
    return sum;
}

/* A band search that passes this many nodes is redone by its column sets:
 * bands that are free but for pairs of columns that g ties together (g
 * swapping the columns of every stack makes each band a Latin square of
 * digit pairs with every orientation: tens of millions of them) are then
 * counted a few hundred at a time instead of one by one. */
enum { GE_BAND_LIST_NODES = 1000000 };

/* How a band's solutions are counted: listed cell by cell, by their column
 * sets, or listed until GE_BAND_LIST_NODES and then by their sets. */
enum band_method { BANDS_LISTED, BANDS_BY_SETS, BANDS_LISTED_OR_SETS };

/* The band's fixed solutions by their column sets: every choice of column
 * sets that g maps to sigma of themselves (digit d in column c puts sigma(d)
 * in column g(c)), each weighted by the bands that order its columns into
 * rows under g. That weight is searched once per class of column sets under
 * the relabellings that commute with sigma (they keep g's fixed bands
 * fixed): the class's key lists each digit's columns, one word per digit,
 * along sigma's cycles from the rotation that reads least, the cycles
 * sorted. */
struct set_walk {
    struct fix_map m; /* the band under g */
    const uint8_t *cols, *sigma;
    int n, br, bc, stacks, wbits;
    int ncycles, cycle_start[GE_N], cycle_len[GE_N];
    struct sig_counts *h, memo;
    uint64_t nodes;
};

/* Digit d in column c, and sigma^j(d) in g^j(c) round their cycle; false
 * when a column overfills or a stack gets a digit twice. */
static bool sets_put(const struct set_walk *w, uint16_t *set, int c, int d)
{
    int cc = c, dd = d;
    do {
        const int first = cc / w->bc * w->bc;
        for (int x = first; x < first + w->bc; x++)
            if (set[x] >> dd & 1u)
                return false;
        if (__builtin_popcount(set[cc]) == w->br)
            return false;
        set[cc] |= (uint16_t) (1u << dd);
        cc = w->cols[cc];
        dd = w->sigma[dd];
    } while (cc != c || dd != d);
    return true;
}

static uint64_t sets_key(const struct set_walk *w, uint64_t sig)
{
    uint64_t word[GE_N + 1];
    for (int d = 1; d <= w->n; d++) {
        word[d] = 0;
        for (int s = 0; s < w->stacks; s++)
            word[d] |= (sig >> (2 * (s * w->n + d - 1)) & 3u) << (2 * s);
    }
    uint64_t least[GE_N];
    for (int i = 0; i < w->ncycles; i++) {
        least[i] = UINT64_MAX;
        for (int r = 0, start = w->cycle_start[i]; r < w->cycle_len[i];
             r++, start = w->sigma[start]) {
            uint64_t v = 0;
            for (int j = 0, d = start; j < w->cycle_len[i]; j++, d = w->sigma[d])
                v = v << w->wbits | word[d];
            if (v < least[i])
                least[i] = v;
        }
    }
    /* cycles of one length (sigma's cycles come longest first) sorted */
    for (int i = 1; i < w->ncycles; i++)
        for (int j = i;
             j > 0 && w->cycle_len[j - 1] == w->cycle_len[j] && least[j - 1] > least[j];
             j--) {
            const uint64_t t = least[j];
            least[j] = least[j - 1];
            least[j - 1] = t;
        }
    /* n words of wbits fill at most 64 bits (a shift by 64 is undefined) */
    uint64_t key = 0;
    for (int i = 0; i < w->ncycles; i++)
        key = (key << (w->wbits * w->cycle_len[i] / 2))
                << (w->wbits * w->cycle_len[i] - w->wbits * w->cycle_len[i] / 2)
            | least[i];
    return key;
}

/* The bands under g with these column sets, each counted once. */
static uint64_t sets_orders(struct set_walk *w, const uint16_t *set)
{
    struct fix_map *m = &w->m;
    m->grids = 0;
    m->nodes = 0;
    struct fix_state st;
    fresh_state(m, &st);
    for (int p = 0; p < m->cells; p++)
        st.cand[p] &= set[p % w->n];
    for (int a = 1; a <= w->n; a++) {
        st.sig[a] = w->sigma[a];
        st.inv[w->sigma[a]] = (uint8_t) a;
    }
    if (prune_cycles(m, &st) && propagate(m, &st))
        fix_search(m, &st);
    w->nodes += m->nodes;
    return m->grids;
}

static void sets_walk(struct set_walk *w, int pos, const uint16_t *set)
{
    if (w->h->failed || w->memo.failed)
        return;
    w->nodes++;
    if (pos == w->stacks * w->n) {
        uint64_t sig = 0;
        for (int c = 0; c < w->n; c++)
            for (int d = 1; d <= w->n; d++)
                if (set[c] >> d & 1u)
                    sig |= (uint64_t) (c % w->bc) << (2 * (c / w->bc * w->n + d - 1));
        const uint64_t key = sets_key(w, sig);
        const uint64_t *known = sig_slot(&w->memo, key);
        const uint64_t orders = known ? *known : sets_orders(w, set);
        if (!known)
            sig_add_count(&w->memo, key, orders);
        if (orders)
            sig_add_count(w->h, sig, orders);
        return;
    }
    const int s = pos / w->n, d = pos % w->n + 1;
    uint16_t in_stack = 0;
    for (int x = s * w->bc; x < s * w->bc + w->bc; x++)
        in_stack |= set[x];
    if (in_stack >> d & 1u) {
        sets_walk(w, pos + 1, set);
        return;
    }
    for (int x = s * w->bc; x < s * w->bc + w->bc; x++) {
        uint16_t next[GE_N];
        memcpy(next, set, sizeof(next));
        if (sets_put(w, next, x, d))
            sets_walk(w, pos + 1, next);
    }
}

static bool search_band_by_sets(const struct band_shape *sh, const uint8_t *rows,
    const uint8_t *cols, int b, const uint8_t *sigma, struct sig_counts *h,
    uint64_t *nodes)
{
    struct set_walk *w = calloc(1, sizeof(*w));
    if (!w)
        return false;
    band_map(&w->m, sh, rows, cols, b);
    w->cols = cols;
    w->sigma = sigma;
    w->n = sh->n;
    w->br = sh->br;
    w->bc = sh->bc;
    w->stacks = sh->n / sh->bc;
    w->wbits = 2 * w->stacks;
    w->h = h;
    /* sigma's cycles, longest first */
    bool seen[GE_N + 1] = { false };
    for (int len = w->n; len >= 1; len--)
        for (int d = 1; d <= w->n; d++) {
            if (seen[d])
                continue;
            int k = 0;
            for (int x = d; k == 0 || x != d; x = sigma[x])
                k++;
            if (k != len)
                continue;
            for (int x = d, j = 0; j < k; x = sigma[x], j++)
                seen[x] = true;
            w->cycle_start[w->ncycles] = d;
            w->cycle_len[w->ncycles++] = k;
        }
    const uint16_t none[GE_N] = { 0 };
    sets_walk(w, 0, none);
    const bool ok = !h->failed && !w->memo.failed;
    *nodes += w->nodes;
    sig_free(&w->memo);
    free(w);
    return ok;
}

/* The solutions of band b alone that the map (rows, cols), keeping the band,
 * sends to their relabelling by sigma, counted by signature into h: searched
 * cell by cell, or by their column sets when that lists too many. Returns
 * false when memory ran out. */
static bool search_band(const struct band_shape *sh, const uint8_t *rows,
    const uint8_t *cols, int b, const uint8_t *sigma, struct sig_counts *h,
    uint64_t *nodes, enum band_method method)
{
    if (method == BANDS_BY_SETS)
        return search_band_by_sets(sh, rows, cols, b, sigma, h, nodes);
    struct fix_map m;
    memset(&m, 0, sizeof(m));
    band_map(&m, sh, rows, cols, b);
    m.found = record_band;
    m.sigs = h;
    m.max_nodes = method == BANDS_LISTED ? 0 : GE_BAND_LIST_NODES;
    struct fix_state st;
    fresh_state(&m, &st);
    for (int a = 1; a <= sh->n; a++) {
        st.sig[a] = sigma[a];
        st.inv[sigma[a]] = (uint8_t) a;
    }
    if (prune_cycles(&m, &st) && propagate(&m, &st))
        fix_search(&m, &st);
    *nodes += m.nodes;
    if (h->failed || !m.gave_up)
        return !h->failed;
    sig_free(h);
    return search_band_by_sets(sh, rows, cols, b, sigma, h, nodes);
}

/* Every band b of the grid with sigma fixed, into h[b]. Returns false when
 * memory ran out. */
static bool count_bands(const struct band_shape *sh, const struct grid_essential_class *c,
    const uint8_t *sigma, struct sig_counts *h, uint64_t *nodes, enum band_method method)
{
    for (int b = 0; b < sh->n / sh->br; b++) {
        if (!search_band(sh, c->rows, c->cols, b, sigma, &h[b], nodes, method))
            return false;
        if (!h[b].used)
            break;
    }
    return true;
}

static bool keeps_blocks(const uint8_t *p, int n, int block)
{
    for (int i = 0; i < n; i++)
        if (p[i] / block != i / block)
            return false;
    return true;
}

/* For a map that keeps every band (or, with square boxes, every stack: its
 * transpose is conjugate), fix = sum over sigma's cycle types of class size
 * times the join of the bands each searched alone. Returns false when the
 * map moves bands and stacks, or memory ran out. */
static bool fixed_by_bands(const struct grid_essential *ge,
    const struct grid_essential_class *c, grid_count_u128 *fixed, uint64_t *nodes,
    enum band_method method)
{
    struct grid_essential_class t = *c;
    if (c->flip || ge->n / ge->br > 3)
        return false;
    if (!keeps_blocks(c->rows, ge->n, ge->br)) {
        if (ge->br != ge->bc || !keeps_blocks(c->cols, ge->n, ge->bc))
            return false;
        memcpy(t.rows, c->cols, sizeof(t.rows));
        memcpy(t.cols, c->rows, sizeof(t.cols));
    }
    const struct band_shape sh = { ge->n, ge->br, ge->bc };
    struct cycle_types types = { 0 };
    int parts[GE_N];
    cycle_types(ge->n, ge->n, ge->n, parts, 0, &types);
    *fixed = 0;
    bool ok = true;
    for (int k = 0; k < types.count && ok; k++) {
        struct sig_counts h[3];
        memset(h, 0, sizeof(h));
        ok = count_bands(&sh, &t, types.sigma[k], h, nodes, method);
        if (ok)
            *fixed += join_bands(h, ge->n / ge->br, ge->n) * types.size[k];
        for (int b = 0; b < 3; b++)
            sig_free(&h[b]);
    }
    return ok;
}

/* --- the orbit join: maps that move bands --- */

enum { GE_MAX_BANDS = 3, GE_MAX_STACKS = 5 };

/* A map g = (a, b) that moves bands, with sigma fixed. Each orbit of bands
 * under a has a representative B, of orbit length k; the other bands of the
 * orbit are B's images, band a^j(B) holding sigma^j(X[r][c]) at column
 * b^j(c), so a fixed grid is its representatives. B is "free" when a^k keeps
 * its rows and b^k every column (then sigma^k must be 1 and B is any band:
 * its column sets are enumerated and weighted by their orders, looked up by
 * class in the band-reduction plan); else B is searched alone under
 * (a^k, b^k) with sigma^k, as in the band join. The orbits are joined where
 * every column takes each digit once. */
struct orbit_join {
    const struct grid_count *plan;
    int n, br, bc, stacks, norbits;
    int rep[GE_MAX_BANDS], len[GE_MAX_BANDS];
    bool free[GE_MAX_BANDS];
    struct sig_counts h[GE_MAX_BANDS];
    uint8_t colpow[GE_MAX_BANDS + 1][GE_N]; /* b^j */
    uint8_t sigpow[GE_MAX_BANDS + 1][GE_N + 1]; /* sigma^j */
    uint16_t used[GE_N]; /* the digits each column has */
    uint8_t fill[GE_N]; /* the digits a free representative has in each column */
    int8_t cols[GE_MAX_STACKS][GRID_COUNT_MAX_N]; /* ... and their columns */
};

/* Digit d at column col of orbit o's representative, and its images. */
static bool orbit_put(struct orbit_join *oj, int o, int col, int d)
{
    for (int j = 0; j < oj->len[o]; j++) {
        const int c = oj->colpow[j][col];
        const uint16_t bit = (uint16_t) (1u << oj->sigpow[j][d]);
        if (oj->used[c] & bit) {
            while (j-- > 0)
                oj->used[oj->colpow[j][col]] &= (uint16_t) ~(1u << oj->sigpow[j][d]);
            return false;
        }
        oj->used[c] |= bit;
    }
    return true;
}

static void orbit_take(struct orbit_join *oj, int o, int col, int d)
{
    for (int j = 0; j < oj->len[o]; j++)
        oj->used[oj->colpow[j][col]] &= (uint16_t) ~(1u << oj->sigpow[j][d]);
}

static grid_count_u128 orbit_join_from(struct orbit_join *oj, int o);

/* A free representative's digits in turn, position pos = s N + d - 1. */
static grid_count_u128 orbit_free_walk(struct orbit_join *oj, int o, int pos)
{
    if (pos == oj->stacks * oj->n) {
        const uint64_t orders = grid_count_orders_of(oj->plan, oj->cols);
        return orders ? orders * orbit_join_from(oj, o + 1) : 0;
    }
    const int s = pos / oj->n, d = pos % oj->n + 1;
    grid_count_u128 sum = 0;
    for (int w = 0; w < oj->bc; w++) {
        const int col = s * oj->bc + w;
        if (oj->fill[col] == oj->br || !orbit_put(oj, o, col, d))
            continue;
        oj->fill[col]++;
        oj->cols[s][d - 1] = (int8_t) w;
        sum += orbit_free_walk(oj, o, pos + 1);
        oj->fill[col]--;
        orbit_take(oj, o, col, d);
    }
    return sum;
}

/* Places a searched representative's signature and its images, or nothing. */
static bool orbit_put_sig(struct orbit_join *oj, int o, uint64_t sig)
{
    for (int s = 0; s < oj->stacks; s++)
        for (int d = 1; d <= oj->n; d++) {
            const int col = s * oj->bc + (int) (sig >> (2 * (s * oj->n + d - 1)) & 3u);
            if (!orbit_put(oj, o, col, d)) {
                for (int t = s * oj->n + d - 2; t >= 0; t--) {
                    const int ts = t / oj->n, td = t % oj->n + 1;
                    orbit_take(oj, o, ts * oj->bc + (int) (sig >> (2 * t) & 3u), td);
                }
                return false;
            }
        }
    return true;
}

static void orbit_take_sig(struct orbit_join *oj, int o, uint64_t sig)
{
    for (int t = 0; t < oj->stacks * oj->n; t++)
        orbit_take(
            oj, o, t / oj->n * oj->bc + (int) (sig >> (2 * t) & 3u), t % oj->n + 1);
}

static grid_count_u128 orbit_join_from(struct orbit_join *oj, int o)
{
    if (o == oj->norbits)
        return 1;
    if (oj->free[o])
        return orbit_free_walk(oj, o, 0);
    const struct sig_counts *h = &oj->h[o];
    if (o == oj->norbits - 1 && oj->len[o] == 1) {
        /* the last band: every other band is placed, so each digit has one
         * column left in each stack */
        uint64_t sig = 0;
        for (int s = 0; s < oj->stacks; s++)
            for (int d = 1; d <= oj->n; d++) {
                int left = -1;
                for (int w = 0; w < oj->bc; w++)
                    if (!(oj->used[s * oj->bc + w] >> d & 1u))
                        left = left < 0 ? w : oj->bc;
                if (left < 0 || left == oj->bc)
                    return 0;
                sig |= (uint64_t) left << (2 * (s * oj->n + d - 1));
            }
        const uint64_t *count = sig_slot(h, sig);
        return count ? *count : 0;
    }
    grid_count_u128 sum = 0;
    for (size_t i = 0; i < h->cap; i++) {
        if (!h->key[i] || !orbit_put_sig(oj, o, h->key[i] - 1))
            continue;
        sum += h->count[i] * orbit_join_from(oj, o + 1);
        orbit_take_sig(oj, o, h->key[i] - 1);
    }
    return sum;
}

static void compose(uint8_t *out, const uint8_t *p, const uint8_t *q, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = p[q[i]];
}

/* For a map (no transpose) that moves bands or leaves one free, fix = sum
 * over sigma's cycle types of class size times the orbit join: a free band
 * is counted by its column sets' orders instead of band by band. Returns
 * false for another map, a shape without the plan, or when memory ran out. */
static bool fixed_by_orbits(const struct grid_essential *ge,
    const struct grid_essential_class *c, grid_count_u128 *fixed, uint64_t *nodes)
{
    const int n = ge->n, br = ge->br, bands = n / br;
    if (c->flip || !ge->plan || bands > GE_MAX_BANDS)
        return false;
    struct orbit_join oj
        = { .plan = ge->plan, .n = n, .br = br, .bc = ge->bc, .stacks = n / ge->bc };
    uint8_t rowpow[GE_MAX_BANDS + 1][GE_N];
    for (int i = 0; i < n; i++)
        rowpow[0][i] = oj.colpow[0][i] = (uint8_t) i;
    for (int j = 1; j <= bands; j++) {
        compose(rowpow[j], c->rows, rowpow[j - 1], n);
        compose(oj.colpow[j], c->cols, oj.colpow[j - 1], n);
    }
    /* the orbits, searched ones first: they narrow the free ones' walks */
    bool seen[GE_MAX_BANDS] = { false };
    int reps[GE_MAX_BANDS], lens[GE_MAX_BANDS], nreps = 0;
    for (int b = 0; b < bands; b++) {
        if (seen[b])
            continue;
        int len = 0;
        for (int x = b; !seen[x]; x = c->rows[x * br] / br, len++)
            seen[x] = true;
        reps[nreps] = b;
        lens[nreps++] = len;
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nreps; i++) {
            const int b = reps[i], k = lens[i];
            bool is_free = true;
            for (int r = b * br; r < b * br + br; r++)
                is_free &= rowpow[k][r] == r;
            for (int col = 0; col < n; col++)
                is_free &= oj.colpow[k][col] == col;
            if (is_free != (pass == 1))
                continue;
            oj.rep[oj.norbits] = b;
            oj.len[oj.norbits] = k;
            oj.free[oj.norbits++] = is_free;
        }
    /* a map that keeps every band and has no free one is the band join's */
    if (keeps_blocks(c->rows, n, br) && !oj.free[oj.norbits - 1])
        return false;
    const struct band_shape sh = { n, br, ge->bc };
    struct cycle_types types = { 0 };
    int parts[GE_N];
    cycle_types(n, n, n, parts, 0, &types);
    *fixed = 0;
    bool ok = true;
    for (int t = 0; t < types.count && ok; t++) {
        for (int d = 0; d <= n; d++)
            oj.sigpow[0][d] = (uint8_t) d;
        for (int j = 1; j <= bands; j++)
            for (int d = 0; d <= n; d++)
                oj.sigpow[j][d] = types.sigma[t][oj.sigpow[j - 1][d]];
        bool possible = true;
        for (int o = 0; o < oj.norbits; o++)
            for (int d = 1; d <= n && oj.free[o]; d++)
                possible &= oj.sigpow[oj.len[o]][d] == d;
        memset(oj.h, 0, sizeof(oj.h));
        for (int o = 0; o < oj.norbits && possible && ok; o++) {
            if (oj.free[o])
                continue;
            const int k = oj.len[o];
            ok = search_band(&sh, rowpow[k], oj.colpow[k], oj.rep[o], oj.sigpow[k],
                &oj.h[o], nodes, BANDS_LISTED_OR_SETS);
            possible = oj.h[o].used > 0;
        }
        if (possible && ok) {
            memset(oj.used, 0, sizeof(oj.used));
            memset(oj.fill, 0, sizeof(oj.fill));
            *fixed += orbit_join_from(&oj, 0) * types.size[t];
        }
        for (int o = 0; o < oj.norbits; o++)
            sig_free(&oj.h[o]);
    }
    return ok;
}

/* --- transposing maps that keep the rows --- */

/* g(X)[r][c] = X[c][r], with square boxes of side R (4x4 and 9x9). A fixed
 * grid has X[c][r] = sigma(X[r][c]), so sigma is an involution and the
 * first box, which maps onto itself, holds R fixed digits of sigma on its
 * diagonal and R(R-1)/2 of its 2-cycles off it: sigma has exactly that
 * cycle type. sigma's centraliser relabels fixed grids into fixed grids and
 * acts simply transitively on the first boxes that fit, so with sigma and
 * the first box fixed, fix = N! * the grids left. Those are the boxes on and
 * above the diagonal (B_ji = sigma(B_ij transposed), and each column is
 * sigma of a row, so only rows and boxes need checking): the first band's
 * column sets P (box 2) and Q (box 3), then box 2,2 (symmetric like the
 * first), box 2,3 and box 3,3, whose rows the sets above them force. */
struct transpose_count {
    int R, n;
    uint16_t all;
    uint8_t sigma[GE_N + 1];
    uint16_t sigma_set[1u << GE_N]; /* sigma of a set of digits (bit d - 1) */
    uint8_t *boxes; /* symmetric boxes by their rows' sets: m0 | m1 << n */
    uint16_t rows[512][3]; /* the row sets of every symmetric box */
    int nboxes;
    uint8_t first[3][3];
};

static void symmetric_boxes(
    struct transpose_count *t, int i, int j, uint8_t b[3][3], uint16_t used)
{
    const int R = t->R;
    if (i == R) {
        uint16_t m[3] = { 0, 0, 0 };
        for (int r = 0; r < R; r++)
            for (int c = 0; c < R; c++)
                m[r] |= (uint16_t) (1u << (b[r][c] - 1));
        if (t->nboxes == 0)
            memcpy(t->first, b, sizeof(t->first));
        memcpy(t->rows[t->nboxes++], m, sizeof(m));
        t->boxes[m[0] | (uint32_t) m[1] << t->n]++;
        return;
    }
    const int ni = j + 1 == R ? i + 1 : i, nj = j + 1 == R ? i + 1 : j + 1;
    for (int x = 1; x <= t->n; x++) {
        const int y = t->sigma[x];
        if (used >> x & 1u || used >> y & 1u || (i == j) != (x == y))
            continue;
        b[i][j] = (uint8_t) x;
        b[j][i] = (uint8_t) y;
        symmetric_boxes(t, ni, nj, b, (uint16_t) (used | 1u << x | 1u << y));
    }
}

static uint16_t row_set(const uint8_t b[3][3], int r, int R)
{
    uint16_t m = 0;
    for (int c = 0; c < R; c++)
        m |= (uint16_t) (1u << (b[r][c] - 1));
    return m;
}

/* The column sets of every box whose row r holds the digits of rows[r]:
 * (R!)^R of them, or with first_row_sorted the (R!)^(R-1) whose first row is
 * in increasing order (one per order of the columns), into out; returns how
 * many. */
static int arrangements(
    const uint16_t *rows, int R, bool first_row_sorted, uint16_t (*out)[3])
{
    uint8_t digits[3][3];
    for (int r = 0; r < R; r++)
        for (int d = 0, k = 0; d < GE_N; d++)
            if (rows[r] >> d & 1u)
                digits[r][k++] = (uint8_t) d;
    static const uint8_t perm2[2][3] = { { 0, 1, 0 }, { 1, 0, 0 } };
    static const uint8_t perm3[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
        { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
    const int np = R == 2 ? 2 : 6, total = R == 2 ? 4 : 216;
    int count = 0;
    for (int i = 0; i < total; i++) {
        if (first_row_sorted && i % np != 0)
            continue;
        uint16_t cols[3] = { 0, 0, 0 };
        for (int r = 0, rest = i; r < R; r++, rest /= np) {
            const uint8_t *p = R == 2 ? perm2[rest % np] : perm3[rest % np];
            for (int c = 0; c < R; c++)
                cols[c] |= (uint16_t) (1u << digits[r][p[c]]);
        }
        memcpy(out[count++], cols, sizeof(cols));
    }
    return count;
}

static uint8_t boxes_with_rows(const struct transpose_count *t, uint16_t m0, uint16_t m1)
{
    return t->boxes[m0 | (uint32_t) m1 << t->n];
}

/* The grids with box 2 of the first band's columns P and box 3's Q (R = 3). */
static grid_count_u128 transpose_rest(const struct transpose_count *t, const uint16_t *P,
    const uint16_t (*Q)[3], int nq, uint16_t (*T)[3])
{
    const uint16_t all = t->all;
    uint16_t A[3];
    for (int r = 0; r < 3; r++)
        A[r] = all & (uint16_t) ~t->sigma_set[P[r]];
    int nt = 0;
    for (int i = 0; i < t->nboxes; i++) {
        const uint16_t *m = t->rows[i];
        if ((m[0] & ~A[0]) || (m[1] & ~A[1]) || (m[2] & ~A[2]))
            continue;
        const uint16_t rest[3] = { (uint16_t) (A[0] & ~m[0]), (uint16_t) (A[1] & ~m[1]),
            (uint16_t) (A[2] & ~m[2]) };
        nt += arrangements(rest, 3, false, T + nt);
    }
    grid_count_u128 sum = 0;
    for (int q = 0; q < nq; q++)
        for (int i = 0; i < nt; i++) {
            if ((Q[q][0] & T[i][0]) | (Q[q][1] & T[i][1]) | (Q[q][2] & T[i][2]))
                continue;
            sum += boxes_with_rows(t, t->sigma_set[all & ~(Q[q][0] | T[i][0])],
                t->sigma_set[all & ~(Q[q][1] | T[i][1])]);
        }
    return sum;
}

static bool fixed_by_transpose(const struct grid_essential *ge,
    const struct grid_essential_class *c, grid_count_u128 *fixed)
{
    const int R = ge->br, n = ge->n;
    bool rows_kept = c->flip && ge->br == ge->bc && (R == 2 || R == 3);
    for (int i = 0; i < n && rows_kept; i++)
        rows_kept = c->rows[i] == i && c->cols[i] == i;
    if (!rows_kept)
        return false;
    struct transpose_count *t = calloc(1, sizeof(*t));
    uint8_t *boxes = calloc((size_t) 1 << (2 * n), 1);
    uint16_t(*T)[3] = malloc(512 * 216 * sizeof(*T));
    uint16_t(*P)[3] = malloc(216 * sizeof(*P));
    uint16_t(*Q)[3] = malloc(216 * sizeof(*Q));
    if (!t || !boxes || !T || !P || !Q) {
        free(t);
        free(boxes);
        free(T);
        free(P);
        free(Q);
        return false;
    }
    t->R = R;
    t->n = n;
    t->all = (uint16_t) ((1u << n) - 1);
    t->boxes = boxes;
    for (int d = 1; d <= n; d++) /* R fixed digits, then 2-cycles */
        t->sigma[d] = (uint8_t) (d <= R ? d : (d - R) % 2 ? d + 1 : d - 1);
    for (unsigned m = 0; m < 1u << n; m++)
        for (int d = 1; d <= n; d++)
            if (m >> (d - 1) & 1u)
                t->sigma_set[m] |= (uint16_t) (1u << (t->sigma[d] - 1));
    uint8_t b[3][3] = { { 0 } };
    symmetric_boxes(t, 0, 0, b, 0);
    uint16_t U[3];
    for (int r = 0; r < R; r++)
        U[r] = t->all & (uint16_t) ~row_set((const uint8_t(*)[3]) t->first, r, R);
    /* Permuting the columns of box 1,j together with the rows of band j
     * (and so the columns of stack j) keeps the transpose, the first box and
     * the other boxes above the diagonal: only one order of the columns of
     * boxes 1,2 and 1,3 is counted, R! times each. */
    grid_count_u128 sum = 0;
    if (R == 2) {
        /* box 2 of the first band: row r holds U[r]; box 2,2's rows follow */
        const int np = arrangements(U, 2, true, P);
        for (int i = 0; i < np; i++)
            sum += boxes_with_rows(
                t, t->all & ~t->sigma_set[P[i][0]], t->all & ~t->sigma_set[P[i][1]]);
    } else {
        /* box 2's rows: three sets of three, row r within U[r] */
        for (uint16_t m0 = 0; m0 <= t->all; m0++) {
            if (__builtin_popcount(m0) != 3 || (m0 & ~U[0]))
                continue;
            for (uint16_t m1 = 0; m1 <= t->all; m1++) {
                const uint16_t m2 = t->all & (uint16_t) ~(m0 | m1);
                if (__builtin_popcount(m1) != 3 || (m1 & (m0 | ~U[1])) || (m2 & ~U[2]))
                    continue;
                const uint16_t rows2[3] = { m0, m1, m2 };
                const uint16_t rows3[3] = { (uint16_t) (U[0] & ~m0),
                    (uint16_t) (U[1] & ~m1), (uint16_t) (U[2] & ~m2) };
                const int np = arrangements(rows2, 3, true, P);
                const int nq = arrangements(rows3, 3, true, Q);
                for (int i = 0; i < np; i++)
                    sum += transpose_rest(t, P[i], (const uint16_t(*)[3]) Q, nq, T);
            }
        }
    }
    const uint64_t orders = R == 2 ? 2 : 36;
    *fixed = sum * orders * factorial(n);
    free(t);
    free(boxes);
    free(T);
    free(P);
    free(Q);
    return true;
}

bool grid_essential_count(
    struct grid_essential *ge, size_t k, grid_count_u128 total, uint64_t max_nodes)
{
    struct grid_essential_class *c = &ge->classes[k];
    if (c->identity) {
        c->fixed = total;
        c->counted = true;
        return true;
    }
    struct fix_map m = { .n = ge->n, .cells = ge->n * ge->n, .max_nodes = max_nodes };
    map_peers(&m, ge->br, ge->bc);
    map_of(&m, c);
    const int u = stable_unit(&m);
    if (u >= 0) {
        c->fixed = fixed_by_unit(&m, u);
    } else {
        /* Long cycles of cells favour a known sigma, short ones learning it:
         * the types first on a quarter of the nodes, then the first row. */
        m.max_nodes = max_nodes / 4;
        c->fixed = fixed_by_types(&m);
        if (m.gave_up) {
            const uint64_t spent = m.nodes;
            m = (struct fix_map) { .n = ge->n,
                .cells = ge->n * ge->n,
                .max_nodes = max_nodes ? max_nodes - spent : 0,
                .nodes = 0 };
            map_peers(&m, ge->br, ge->bc);
            map_of(&m, c);
            c->fixed = fixed_by_unit(&m, 0);
            m.nodes += spent;
        }
    }
    c->nodes = m.nodes;
    c->counted = !m.gave_up;
    /* With the columns kept, a band that the rows keep too is any band: the
     * orbit join counts it by its orders, where the band join would list
     * every one; otherwise the band join first (it takes stacks for bands). */
    bool cols_kept = !c->flip;
    for (int i = 0; i < ge->n; i++)
        cols_kept &= c->cols[i] == i;
    if (!c->counted)
        c->counted = (cols_kept && fixed_by_orbits(ge, c, &c->fixed, &c->nodes))
            || fixed_by_bands(ge, c, &c->fixed, &c->nodes, BANDS_LISTED_OR_SETS)
            || fixed_by_orbits(ge, c, &c->fixed, &c->nodes)
            || fixed_by_transpose(ge, c, &c->fixed);
    return c->counted;
}

bool grid_essential_count_by_bands(struct grid_essential *ge, size_t k)
{
    struct grid_essential_class *c = &ge->classes[k];
    c->nodes = 0;
    c->counted = fixed_by_bands(ge, c, &c->fixed, &c->nodes, BANDS_LISTED);
    return c->counted;
}

bool grid_essential_count_by_column_sets(struct grid_essential *ge, size_t k)
{
    struct grid_essential_class *c = &ge->classes[k];
    c->nodes = 0;
    c->counted = fixed_by_bands(ge, c, &c->fixed, &c->nodes, BANDS_BY_SETS);
    return c->counted;
}

bool grid_essential_count_by_orbits(struct grid_essential *ge, size_t k)
{
    struct grid_essential_class *c = &ge->classes[k];
    c->nodes = 0;
    c->counted = fixed_by_orbits(ge, c, &c->fixed, &c->nodes)
        || fixed_by_transpose(ge, c, &c->fixed);
    return c->counted;
}

int grid_essential_sum(const struct grid_essential *ge, grid_count_u128 *sum,
    grid_count_u128 *classes, char *why, size_t whylen)
{
    grid_count_u128 s = 0;
    for (size_t k = 0; k < ge->nclasses; k++) {
        const struct grid_essential_class *c = &ge->classes[k];
        if (!c->counted) {
            char what[160];
            grid_essential_describe(c, ge->n, what, sizeof(what));
            snprintf(why, whylen, "class %zu (%s) is not counted", k + 1, what);
            return -1;
        }
        s += c->fixed * c->size;
    }
    const grid_count_u128 order
        = (grid_count_u128) grid_essential_group(ge) * factorial(ge->n);
    *sum = s;
    if (s % order != 0) {
        snprintf(why, whylen, "the fixed grids do not divide by |G| * N! = %llu",
            (unsigned long long) order);
        return -1;
    }
    *classes = s / order;
    return 0;
}

/* Cycle notation of a line permutation, lines from 1; "1" for none. */
static void describe_perm(const uint8_t *p, int n, char *out, size_t outlen)
{
    size_t len = 0;
    bool seen[GE_N] = { false };
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (seen[i] || p[i] == i)
            continue;
        for (int j = i; !seen[j]; j = p[j]) {
            seen[j] = true;
            len += (size_t) snprintf(out + len, len < outlen ? outlen - len : 0, "%s%d",
                j == i ? "(" : " ", j + 1);
        }
        len += (size_t) snprintf(out + len, len < outlen ? outlen - len : 0, ")");
    }
    if (len == 0)
        snprintf(out, outlen, "1");
}

void grid_essential_describe(
    const struct grid_essential_class *c, int n, char *out, size_t outlen)
{
    char rows[64], cols[64];
    describe_perm(c->rows, n, rows, sizeof(rows));
    describe_perm(c->cols, n, cols, sizeof(cols));
    if (c->flip)
        snprintf(out, outlen, "transpose, rows %s", rows);
    else
        snprintf(out, outlen, "rows %s, cols %s", rows, cols);
}
