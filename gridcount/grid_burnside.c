/* Essentially different grids by Burnside's lemma (grid_burnside.h). */
#include "gridcount/grid_burnside.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/perm.h"

enum { BS_MAX_N = 6, BS_MAX_CELLS = BS_MAX_N * BS_MAX_N, BS_MAX_PERMS = 720 };

/* The grids X with X[pi[p]] = sigma[X[p]] for every cell p: g maps X to
 * sigma(X), where g(X)[p] = X[pi[p]]. */
struct fixed_search {
    int n, br, bc;
    uint8_t pi[BS_MAX_CELLS];
    uint8_t sigma[BS_MAX_N + 1];
    uint8_t x[BS_MAX_CELLS];
    uint8_t order[BS_MAX_CELLS]; /* the cells in the order the search fills them */
    unsigned row[BS_MAX_N], col[BS_MAX_N], box[BS_MAX_N];
    uint64_t count;
};

static int box_of(const struct fixed_search *f, int p)
{
    return p / f->n / f->br * f->br + p % f->n / f->bc;
}

static void set_cell(struct fixed_search *f, int p, int v)
{
    const unsigned bit = 1u << v;
    f->x[p] = (uint8_t) v;
    f->row[p / f->n] ^= bit;
    f->col[p % f->n] ^= bit;
    f->box[box_of(f, p)] ^= bit;
}

static bool can_set(const struct fixed_search *f, int p, int v)
{
    const unsigned used = f->row[p / f->n] | f->col[p % f->n] | f->box[box_of(f, p)];
    return !(used >> v & 1u);
}

/* Places v at p and what g's cycle through p then holds. Returns the cells
 * placed (to undo), or -1 after undoing when that breaks a rule or the cycle
 * does not close on v. */
static int place_cycle(struct fixed_search *f, int p, int v, int *placed)
{
    int n = 0, q = p, val = v;
    do {
        if (!can_set(f, q, val)) {
            for (int i = 0; i < n; i++)
                set_cell(f, placed[i], f->x[placed[i]]);
            for (int i = 0; i < n; i++)
                f->x[placed[i]] = 0;
            return -1;
        }
        set_cell(f, q, val);
        placed[n++] = q;
        q = f->pi[q];
        val = f->sigma[val];
    } while (q != p);
    if (val != v) {
        for (int i = 0; i < n; i++) {
            set_cell(f, placed[i], f->x[placed[i]]);
            f->x[placed[i]] = 0;
        }
        return -1;
    }
    return n;
}

static void undo_cycle(struct fixed_search *f, const int *placed, int k)
{
    for (int i = 0; i < k; i++) {
        set_cell(f, placed[i], f->x[placed[i]]);
        f->x[placed[i]] = 0;
    }
}

static void fixed_search(struct fixed_search *f, int i)
{
    const int cells = f->n * f->n;
    while (i < cells && f->x[f->order[i]])
        i++;
    if (i == cells) {
        f->count++;
        return;
    }
    const int p = f->order[i];
    int placed[BS_MAX_CELLS];
    for (int v = 1; v <= f->n; v++) {
        const int k = place_cycle(f, p, v, placed);
        if (k < 0)
            continue;
        fixed_search(f, i + 1);
        undo_cycle(f, placed, k);
    }
}

/* Cells on longer cycles of pi first: each of their placements fixes more
 * cells, and a cycle that cannot be placed at all ends the search at once. */
static void order_cells(struct fixed_search *f)
{
    const int cells = f->n * f->n;
    int length[BS_MAX_CELLS], k = 0;
    for (int p = 0; p < cells; p++) {
        length[p] = 1;
        for (int q = f->pi[p]; q != p; q = f->pi[q])
            length[p]++;
    }
    for (int len = cells; len >= 1; len--)
        for (int p = 0; p < cells; p++)
            if (length[p] == len)
                f->order[k++] = (uint8_t) p;
}

/* The permutations of 0..n-1 that map blocks of `block` to blocks. */
static int block_perms(int n, int block, uint8_t out[][BS_MAX_N])
{
    int count = 0;
    uint8_t p[BS_MAX_N];
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t) i;
    for (;;) {
        bool keeps = true;
        for (int i = 0; i < n; i++)
            keeps &= p[i] / block == p[i / block * block] / block;
        if (keeps)
            memcpy(out[count++], p, sizeof(p));
        if (!perm_next(p, n))
            return count;
    }
}

/* The cycle types of S_n: partitions of n, each as a representative sigma
 * (cycles of consecutive digits) and the size of its class. */
struct cycle_types {
    int count;
    uint8_t sigma[16][BS_MAX_N + 1];
    uint64_t size[16];
};

static void partitions(
    int n, int left, int largest, int *parts, int nparts, struct cycle_types *c)
{
    if (left == 0) {
        uint64_t size = 1;
        for (int i = 2; i <= n; i++)
            size *= (uint64_t) i;
        uint8_t *s = c->sigma[c->count];
        int start = 1;
        for (int i = 0; i < nparts; i++) {
            int same = 0;
            for (int j = 0; j < nparts; j++)
                same += parts[j] == parts[i] && j <= i;
            size /= (uint64_t) parts[i] * (uint64_t) same;
            for (int d = 0; d < parts[i]; d++)
                s[start + d] = (uint8_t) (start + (d + 1) % parts[i]);
            start += parts[i];
        }
        c->size[c->count++] = size;
        return;
    }
    /* parts are at least 1 and sum to n <= BS_MAX_N, so this never holds;
     * it tells gcc -O3, which cannot see that through the recursion. */
    if (nparts >= BS_MAX_N)
        return;
    for (int k = left < largest ? left : largest; k >= 1; k--) {
        parts[nparts] = k;
        partitions(n, left - k, k, parts, nparts + 1, c);
    }
}

/* Whether map[i] = i + offset for i < n. */
static bool is_identity(const uint8_t *map, int n, int offset)
{
    for (int i = 0; i < n; i++)
        if (map[i] != i + offset)
            return false;
    return true;
}

/* Adds every cycle type's fixed grids of the cell map pi to out. */
static void add_fixed(struct fixed_search *f, const struct cycle_types *types,
    grid_count_u128 total, struct grid_burnside *out)
{
    const int cells = f->n * f->n;
    order_cells(f);
    for (int t = 0; t < types->count; t++) {
        memcpy(f->sigma, types->sigma[t], sizeof(f->sigma));
        if (is_identity(f->sigma + 1, f->n, 1) && is_identity(f->pi, cells, 0)) {
            out->fixed += total; /* the identity's grids: all of them */
            out->fixing++;
            continue;
        }
        memset(f->x, 0, sizeof(f->x));
        memset(f->row, 0, sizeof(f->row));
        memset(f->col, 0, sizeof(f->col));
        memset(f->box, 0, sizeof(f->box));
        f->count = 0;
        fixed_search(f, 0);
        out->fixed += (grid_count_u128) types->size[t] * f->count;
        out->fixing += f->count != 0;
    }
}

/* Conjugacy classes of a group of permutations (perms[0..count)): a
 * representative and a size per class. Conjugate maps have as many fixed
 * grids, so one search per class stands for the class. Returns the classes. */
static int perm_classes(
    const uint8_t perms[][BS_MAX_N], int n, int count, int *rep, uint64_t *size)
{
    int nclasses = 0;
    int class_of[BS_MAX_PERMS];
    for (int i = 0; i < count; i++)
        class_of[i] = -1;
    for (int i = 0; i < count; i++) {
        if (class_of[i] >= 0)
            continue;
        rep[nclasses] = i;
        size[nclasses] = 0;
        for (int h = 0; h < count; h++) {
            uint8_t inv[BS_MAX_N], conj[BS_MAX_N];
            for (int k = 0; k < n; k++)
                inv[perms[h][k]] = (uint8_t) k;
            for (int k = 0; k < n; k++)
                conj[k] = perms[h][perms[i][inv[k]]];
            for (int j = 0; j < count; j++)
                if (memcmp(perms[j], conj, (size_t) n) == 0 && class_of[j] < 0) {
                    class_of[j] = nclasses;
                    size[nclasses]++;
                }
        }
        nclasses++;
    }
    return nclasses;
}

/* The cell map of (row permutation, column permutation, transposed). */
static void cell_map(
    struct fixed_search *f, const uint8_t *rp, const uint8_t *cp, int flip)
{
    const int n = f->n;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            f->pi[r * n + c] = (uint8_t) (flip ? cp[c] * n + rp[r] : rp[r] * n + cp[c]);
}

/* The sum over G: without transposing, G is rows x columns and its classes
 * are pairs of classes; with it (4x4), every element. */
static void sum_group(struct fixed_search *f, const uint8_t rows[][BS_MAX_N], int nr,
    const uint8_t cols[][BS_MAX_N], int nc, int flips, const struct cycle_types *types,
    grid_count_u128 total, struct grid_burnside *out)
{
    static const uint64_t one = 1;
    int rrep[BS_MAX_PERMS], crep[BS_MAX_PERMS];
    uint64_t rsize[BS_MAX_PERMS], csize[BS_MAX_PERMS];
    int ncr = nr, ncc = nc;
    for (int i = 0; i < BS_MAX_PERMS; i++) {
        rrep[i] = crep[i] = i;
        rsize[i] = csize[i] = one;
    }
    if (flips == 1) {
        ncr = perm_classes(rows, f->n, nr, rrep, rsize);
        ncc = perm_classes(cols, f->n, nc, crep, csize);
    }
    for (int flip = 0; flip < flips; flip++)
        for (int a = 0; a < ncr; a++)
            for (int b = 0; b < ncc; b++) {
                cell_map(f, rows[rrep[a]], cols[crep[b]], flip);
                struct grid_burnside one_map = { 0 };
                add_fixed(f, types, total, &one_map);
                out->fixed += one_map.fixed * rsize[a] * csize[b];
                out->fixing += one_map.fixing * rsize[a] * csize[b];
            }
}

int grid_burnside_count(int box_rows, int box_cols, grid_count_u128 total,
    struct grid_burnside *out, char *why, size_t whylen)
{
    const int n = box_rows * box_cols;
    if (box_rows < 1 || box_cols < 1 || n > BS_MAX_N) {
        snprintf(why, whylen,
            "%dx%d boxes: Burnside's sum is searched for 4x4 and 6x6 only", box_rows,
            box_cols);
        return -1;
    }
    uint8_t rows[BS_MAX_PERMS][BS_MAX_N], cols[BS_MAX_PERMS][BS_MAX_N];
    const int nr = block_perms(n, box_rows, rows), nc = block_perms(n, box_cols, cols);
    struct cycle_types types = { 0 };
    int parts[BS_MAX_N];
    partitions(n, n, n, parts, 0, &types);
    memset(out, 0, sizeof(*out));
    const int flips = box_rows == box_cols ? 2 : 1;
    out->group = (uint64_t) nr * (uint64_t) nc * (uint64_t) flips;
    struct fixed_search f = { .n = n, .br = box_rows, .bc = box_cols };
    sum_group(&f, rows, nr, cols, nc, flips, &types, total, out);
    uint64_t relabellings = 1;
    for (int i = 2; i <= n; i++)
        relabellings *= (uint64_t) i;
    const grid_count_u128 order = (grid_count_u128) out->group * relabellings;
    if (out->fixed % order != 0) {
        snprintf(why, whylen, "the fixed grids do not divide by |G| * N! = %llu",
            (unsigned long long) order);
        return -1;
    }
    out->classes = out->fixed / order;
    return 0;
}
