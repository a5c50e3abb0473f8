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
            "%dx%d boxes: the classes of Burnside's sum are searched for 4x4, 6x6 and "
            "9x9",
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
        if (propagate(m, &s))
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

static void sig_add(struct sig_counts *h, uint64_t sig)
{
    uint64_t *slot = sig_slot(h, sig);
    if (slot) {
        (*slot)++;
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
    h->count[j] = 1;
    h->used++;
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

/* The map on band b's cells (rows b br .. b br + br - 1, local numbering). */
static void band_map(struct fix_map *m, const struct band_shape *sh,
    const struct grid_essential_class *c, int b)
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
        m->pi[p] = (uint8_t) ((c->rows[b * br + p / n] - b * br) * n + c->cols[p % n]);
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

/* Every band b of the grid with sigma fixed, into h[b]. Returns false when
 * memory ran out. */
static bool count_bands(const struct band_shape *sh, const struct grid_essential_class *c,
    const uint8_t *sigma, struct sig_counts *h, uint64_t *nodes)
{
    for (int b = 0; b < sh->n / sh->br; b++) {
        struct fix_map m;
        memset(&m, 0, sizeof(m));
        band_map(&m, sh, c, b);
        m.found = record_band;
        m.sigs = &h[b];
        struct fix_state st;
        fresh_state(&m, &st);
        for (int a = 1; a <= sh->n; a++) {
            st.sig[a] = sigma[a];
            st.inv[sigma[a]] = (uint8_t) a;
        }
        if (propagate(&m, &st))
            fix_search(&m, &st);
        *nodes += m.nodes;
        if (h[b].failed)
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
    const struct grid_essential_class *c, grid_count_u128 *fixed, uint64_t *nodes)
{
    struct grid_essential_class t = *c;
    if (c->flip)
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
        ok = count_bands(&sh, &t, types.sigma[k], h, nodes);
        if (ok)
            *fixed += join_bands(h, ge->n / ge->br, ge->n) * types.size[k];
        for (int b = 0; b < 3; b++)
            sig_free(&h[b]);
    }
    return ok;
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
    if (!c->counted && fixed_by_bands(ge, c, &c->fixed, &c->nodes))
        c->counted = true;
    return c->counted;
}

bool grid_essential_count_by_bands(struct grid_essential *ge, size_t k)
{
    struct grid_essential_class *c = &ge->classes[k];
    c->nodes = 0;
    c->counted = fixed_by_bands(ge, c, &c->fixed, &c->nodes);
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
