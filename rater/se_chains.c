/* Sudoku Explainer's chains. A potential is (cell, value, on/off); an
 * implication run starts from assumed potentials and adds, breadth first with
 * "on" potentials before "off" ones, what they force: an "on" value turns
 * off the cell's other values and its peers' copies; an "off" value turns on
 * the cell's last value and the region's last place. Each potential keeps the
 * parents it was first found from; a hint's complexity is the number of
 * distinct potentials behind its conclusions, and its rating is the base of
 * its kind plus 0.1 per length step (4, 6, 8, 12, 16, 24 ... implications).
 *
 * Dynamic runs take the "off" potentials out of the grid as they go, so a
 * value forced by several removals has all of them as parents; the "+" level
 * also lets intersections, pairs and X-wings of the reduced grid add "off"
 * potentials. Of all hints of one kind SE takes the easiest (then the
 * shortest, then the kind's order), and so does this.
 *
 * Nested levels search every grid a dynamic run stalls on for cycles and
 * forcing chains (level 2), then cell and region chains (level 3), but keep
 * only those with rule parents in the run: most of the searches could not
 * give one. A filter from the core of the grid's link graph (struct reach:
 * the candidates in strong links, their strongly connected components and
 * reach through "dirty" links) skips them beforehand, a cycle search follows
 * only its start's component, and a level-3 search makes only the chains
 * whose starts reach a dirty link (nested_multiple); all are exact (the same
 * hints that count, in the same order). The nested hints of a stall grid
 * are kept for the step (struct memo_store), and each dynamic level goes on
 * from the runs of the level before (struct snap) instead of redoing them.
 * Against the searches without the filter: the hardest list 1.70-1.78x
 * faster; with the core filter, the memo across levels and the runs kept
 * between levels, 40 puzzles spread over the hardest list 1.82x more (605
 * -> 332 ms a puzzle), top1465 1.03x (300 puzzles, 10.3 -> 10.0 ms); CPU
 * time on an AMD EPYC (Zen 5, 2 vCPUs) shared with other work, the same
 * ratings. Then cycle searches only in components whose cycles can remove
 * something, the filter asked once a grid, the core and its links from
 * its strong links, the multiple kind's reach made from the starts asked
 * for, and the nested rules looking only where a hint can be: those 40
 * puzzles 1.55x faster again (249 -> 160 ms), top1465 and se_dev's
 * generated puzzles 1.06x. Then cheaper filters and tables (the context
 * of se_chains kept per thread, a potential's cell and value by table, the
 * filter's answers asked once, two-bit tests without counting): ~1.05x on
 * those 40 puzzles (CPU time on the shared machine, 1.02-1.11x; 1.13x
 * fewer instructions on 4 of them), 1.08x fewer instructions on 60 of
 * top1465, 1.05x on se_dev's generated puzzles. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rater/se_internal.h"

#define NODES (SE_CELLS * 9 * 2)
#define ARENA 24000
_Static_assert(ARENA <= 65535, "a run keeps arena offsets in 16 bits");

static inline int node_of(int cell, int v, int on)
{
    return ((cell * 9 + v - 1) << 1) | on;
}
/* A potential's cell and value by table: the divisions by 9 were ~4% of
 * the instructions of a hardest-list rating. */
#define NC18(c) c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c
#define NC9(c)                                                                           \
    NC18(c), NC18(c + 1), NC18(c + 2), NC18(c + 3), NC18(c + 4), NC18(c + 5),            \
        NC18(c + 6), NC18(c + 7), NC18(c + 8)
#define NV18 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9
#define NV9 NV18, NV18, NV18, NV18, NV18, NV18, NV18, NV18, NV18
static const uint8_t cell_of_node[NODES]
    = { NC9(0), NC9(9), NC9(18), NC9(27), NC9(36), NC9(45), NC9(54), NC9(63), NC9(72) };
static const uint8_t value_of_node[NODES]
    = { NV9, NV9, NV9, NV9, NV9, NV9, NV9, NV9, NV9 };
static inline int node_cell(int n)
{
    return cell_of_node[n];
}
static inline int node_value(int n)
{
    return value_of_node[n];
}
static inline int node_on(int n)
{
    return n & 1;
}

/* One implication run: the potentials found, in order, with their parents. */
struct run {
    uint8_t has[NODES];
    uint16_t order[NODES];
    int norder;
    /* by potential: its parents, arena[poff .. poff + pn), and for "on"
     * ones the cause as in struct on_item. One small record per potential,
     * and no nested-chain fields written outside the nested levels: a run
     * touches about half the pages it did (faulting them in was ~5% of a
     * top1465 rating) */
    struct {
        uint16_t poff, pn;
        uint8_t cause;
    } ref[NODES];
    /* a nested chain behind an "off" potential (or 0) and its complexity,
     * valid for the run's potentials once `keyed` (see run_key) */
    bool keyed;
    uint32_t nkey[NODES];
    int32_t ncx[NODES];
    uint16_t arena[ARENA];
    int narena;
    /* a contradiction: an "on" and an "off" potential of one candidate; one
     * of them was never stored and has its parents in virt_* */
    bool absurd;
    int abs_on, abs_off, virt;
    uint16_t virt_poff;
    uint16_t virt_pn;
};

struct nested_hint {
    uint16_t elim[SE_CELLS];
    uint16_t parents[SE_CELLS];
    int rating, complexity, sort_key;
    int seq; /* its place in the list as found */
    uint32_t key;
};

struct nested_list {
    struct nested_hint *h;
    int n, cap;
};

/* The nested hints of one reduced grid (see nested_hints). */
struct nested_memo {
    uint16_t cand[SE_CELLS];
    bool multiple;
    struct nested_list list;
};
#define MEMO_SLOTS 8192 /* to start with: the table doubles when half full */
#define MEMO_BYTES ((size_t) 64 << 20)

/* The nested hints of the grids that the runs of one step's nested searches
 * stalled on. A grid's list depends on the grid and on the start grid of
 * the search (`src`, the step's grid) only: nested_list_of reads nothing
 * else. Levels 2 and 3 of one step start from the same grid, and a level-3
 * run is the level-2 run until level 2's rules stall, so level 3 meets most
 * of level 2's grids again: the store outlives level 2's search (in the rater)
 * and serves level 3's when `src` is equal. */
struct memo_store {
    uint16_t src[SE_CELLS];
    struct nested_memo **slot;
    size_t nslots, count, bytes;
};

/* Runs are large and a search takes hundreds: the spent ones wait in the
 * rater's memory (struct se_chains_memo) for the next search instead of going
 * back to malloc, whose trimming and refaulting of pages cost more than the
 * chaining. */
#define SPARE_RUNS 2048

/* Not nested: an X-only search (cycles and forcing chains of one digit)
 * reads that digit's cells alone, since every empty cell has two
 * candidates or more by then (the singles came first). Per rater, the
 * cells of each digit on which a whole call found nothing: the X pass skips
 * a digit whose cells are the same, as the nested searches skip a digit the
 * outer run left unchanged. A memo is never wrong, only overwritten. */
struct x_memo {
    uint64_t cells[10][2];
    bool empty[10];
};

/* Nishio's runs (no Y links) read one digit: an "on" potential turns off
 * the digit's copies in the peers, an "off" one turns on the digit's last
 * place in a region, and the removals are of that digit. So the runs of
 * digit v depend only on v's cells, and whether they are made on the cells
 * with two candidates or more. A Nishio hint is a run's contradiction. Per
 * rater, by digit: those two cell sets when a whole search made every run
 * of the digit with no contradiction; a search on the same sets skips the
 * digit (it would offer nothing). A memo is never wrong, only overwritten. */
struct nishio_memo {
    uint64_t cells[10][2], runs[10][2];
    bool empty[10];
};

/* What the chain searches keep between calls of one rater (struct
 * se_rater): the step's nested memo, the last dynamic level's runs, and the
 * spare contexts and runs (se_chains_release frees those after a rating). */
struct se_chains_memo {
    struct memo_store *step_memo;
    /* see ctx_take */
    struct chain_ctx *spare_nested, *spare_top;
    struct snap_store *snap_last; /* the last level's */
    struct run *spare_runs[SPARE_RUNS];
    int nspare_runs;
    /* see cycle_ctx_take */
    struct cycle_ctx *spare_cycle;
    struct x_memo x_memo;
    struct nishio_memo nishio_memo;
};

struct se_chains_memo *se_chains_memo_new(void)
{
    return calloc(1, sizeof(struct se_chains_memo));
}

struct chain_ctx {
    struct se_rater *rt; /* whose memory this search uses */
    const struct se_grid *grid;
    uint16_t pos0[27][10]; /* the places of grid (see region_places): every run starts
                              there, */
    bool have_pos0; /* made on first use */
    enum se_chain_kind kind;
    int level;
    bool dynamic, y_links, multiple;
    struct se_step best;
    bool have;
    int best_sort;
    struct run *off_run; /* the run of the "off" assumption being rated */
    /* the multiple kind at level 0: the reach of each potential (see
     * struct reach_all) and, by candidate number, its detailed run's set
     * where its reach has a contradiction */
    struct reach_all *reach_all;
    struct implied *implied; /* Nishio and dynamic at level 0 */
    /* Nishio at level 0: the digits it skips (see nishio_memo), those with
     * a run that ended in a contradiction, and whether a run was not made */
    unsigned nishio_skip, nishio_absurd;
    bool run_failed;
    uint64_t *run_sets;
    uint8_t *run_set_made;
    /* level 0: each "on" potential's "off" potentials on `grid` (on_to_off),
     * made on first use; on_n is one more than their number, 0 before */
    uint8_t on_n[SE_CELLS * 9];
    int nhint_keys; /* in hint_keys */
    /* collecting every hint (nested rules) instead of keeping the best */
    struct nested_list *collect;
    const struct se_grid *src; /* with collect: the outer run's start */
    /* nested: the places of grid (see region_places), which the outer run
     * keeps (NULL: made here) */
    const uint16_t (*places)[10];
    /* nested levels: the nested hints of the grids the runs stalled on */
    struct memo_store *memo;
    /* dynamic searches: the runs of the level before (resume) and this
     * level's, for the next (save); see struct snap */
    struct snap_store *resume, *save;
    int resume_rule; /* do_chaining: resume r at its stall, from this rule */
    int run_end; /* how do_chaining ended: 1 open, 0 final, -1 late */
    /* From here on, what a context taken again for a nested search keeps
     * (see nested_ctx_take): */
    /* the stamps of ancestors and chain_nodes: a walk's stamp is new, so
     * that seen[] needs no clearing */
    uint32_t stamp;
    uint32_t seen[NODES];
    int stack[NODES];
    /* on_n's lists, valid where on_n is set */
    uint16_t on_list[SE_CELLS * 9][28];
    /* the runs of "on" assumptions, by candidate (cell * 9 + v - 1), made
     * once per search: a candidate's run serves its cell's chains and the
     * region chains of its three regions; all NULL between searches (each
     * search frees its own) */
    struct run *on_runs[SE_CELLS * 9];
    /* the nested chains already counted for the hint being rated */
    uint32_t hint_keys[256];
};

/* A run's `has` is set only by run_add, which also lists the potential in
 * `order`: clearing the listed ones clears it (most runs hold a few dozen
 * of the 1458 potentials). run_alloc clears a new run's whole `has`. */
static void run_reset(struct run *r)
{
    for (int i = 0; i < r->norder; i++)
        r->has[r->order[i]] = 0;
    r->norder = 0;
    r->narena = 0;
    r->absurd = false;
    r->keyed = false;
}

static int32_t arena_put(struct run *r, const int *parents, int n)
{
    if (r->narena + n > ARENA)
        n = ARENA - r->narena; /* beyond any real chain: keep what fits */
    int32_t at = r->narena;
    for (int i = 0; i < n; i++)
        r->arena[r->narena++] = (uint16_t) parents[i];
    return at;
}

static void run_add(struct run *r, int node, const int *parents, int n)
{
    r->has[node] = 1;
    if (r->keyed)
        r->nkey[node] = 0;
    r->ref[node].cause = 0;
    r->order[r->norder++] = (uint16_t) node;
    r->ref[node].poff = (uint16_t) arena_put(r, parents, n);
    r->ref[node].pn = (uint16_t) (r->narena - r->ref[node].poff);
}

/* The nested chain behind `node` (of the run), or 0. */
static inline uint32_t run_nkey(const struct run *r, int node)
{
    return r->keyed ? r->nkey[node] : 0;
}

/* Sets the nested chain behind `node`; the first one of a run clears the
 * others' (from the run's earlier uses). */
static void run_key(struct run *r, int node, uint32_t key, int complexity)
{
    if (!r->keyed) {
        for (int i = 0; i < r->norder; i++)
            r->nkey[r->order[i]] = 0;
        r->keyed = true;
    }
    r->nkey[node] = key;
    r->ncx[node] = complexity;
}

/* A nested chain counts once per hint (SE: its FullChain). */
static int nested_once(struct chain_ctx *x, uint32_t key, int complexity)
{
    for (int i = 0; i < x->nhint_keys; i++)
        if (x->hint_keys[i] == key)
            return 0;
    if (x->nhint_keys < 256)
        x->hint_keys[x->nhint_keys++] = key;
    return complexity;
}

/* Distinct potentials behind `self` (itself included) whose parents are the
 * given list. */
static int ancestors(
    struct chain_ctx *x, const struct run *r, int self, const uint16_t *parents, int n)
{
    uint32_t st = ++x->stamp;
    int top = 0, count = 1;
    x->seen[self] = st;
    for (int i = 0; i < n; i++)
        x->stack[top++] = parents[i];
    while (top > 0) {
        int p = x->stack[--top];
        if (x->seen[p] == st)
            continue;
        x->seen[p] = st;
        count++;
        if (run_nkey(r, p))
            count += nested_once(x, r->nkey[p], r->ncx[p]);
        for (int i = 0; i < r->ref[p].pn; i++)
            if (x->seen[r->arena[r->ref[p].poff + i]] != st)
                x->stack[top++] = r->arena[r->ref[p].poff + i];
    }
    return count;
}

static int anc_stored(struct chain_ctx *x, const struct run *r, int node)
{
    int own = run_nkey(r, node) ? nested_once(x, r->nkey[node], r->ncx[node]) : 0;
    return own + ancestors(x, r, node, &r->arena[r->ref[node].poff], r->ref[node].pn);
}

static int anc_absurd(struct chain_ctx *x, const struct run *r)
{
    int stored = r->virt == r->abs_on ? r->abs_off : r->abs_on;
    return anc_stored(x, r, stored)
        + ancestors(x, r, r->virt, &r->arena[r->virt_poff], r->virt_pn);
}

/* SE's length increment in tenths for a complexity. */
static int length_tenths(int complexity)
{
    int added = 0, ceil = 4, length = complexity - 2;
    bool odd = false;
    while (length > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

/* Offers a hint; keeps the easiest, then the shortest, then by kind order. */
static void offer(struct chain_ctx *x, const struct se_step *s, int sort_key)
{
    if (!se_step_useful(x->grid, s))
        return;
    if (x->have) {
        const struct se_step *b = &x->best;
        if (s->rating != b->rating) {
            if (s->rating > b->rating)
                return;
        } else if (s->complexity != b->complexity) {
            if (s->complexity > b->complexity)
                return;
        } else if (sort_key >= x->best_sort)
            return;
    }
    x->best = *s;
    x->best_sort = sort_key;
    x->have = true;
}

/* A conclusion on `target`: off = the value goes, on = the others go. */
static void conclude(const struct se_grid *g, int target, struct se_step *s)
{
    int c = node_cell(target), v = node_value(target);
    if (node_on(target))
        s->elim[c] = (uint16_t) (g->cand[c] & ~(1u << v));
    else
        s->elim[c] = (uint16_t) (1u << v);
}

/* ---- the implications of one potential ---- */

/* The places of each value in each region, as bits in region order: a
 * run's grid keeps them up to date, so that a region's last place is a
 * lookup instead of a scan of its nine cells. */
typedef uint16_t region_places[27][10];

/* A cell's place in its box, row and column (the regions' orders): a table,
 * as the divisions cost more than the lookup in the runs' inner loop. */
#define PLACE(c)                                                                         \
    {                                                                                    \
        (c) / 9 % 3 * 3 + (c) % 9 % 3, (c) % 9, (c) / 9                                  \
    }
#define PLACE9(r)                                                                        \
    PLACE(r * 9), PLACE(r * 9 + 1), PLACE(r * 9 + 2), PLACE(r * 9 + 3),                  \
        PLACE(r * 9 + 4), PLACE(r * 9 + 5), PLACE(r * 9 + 6), PLACE(r * 9 + 7),          \
        PLACE(r * 9 + 8)
static const uint8_t region_place[SE_CELLS][3] = { PLACE9(0), PLACE9(1), PLACE9(2),
    PLACE9(3), PLACE9(4), PLACE9(5), PLACE9(6), PLACE9(7), PLACE9(8) };

static inline int region_index(int cell, int t)
{
    return region_place[cell][t];
}

/* A cell's box, row and column as a set of regions (bit k: region k). */
#define REGIONS(c)                                                                       \
    ((1u << ((c) / 27 * 3 + (c) % 9 / 3)) | (1u << (9 + (c) / 9))                        \
        | (1u << (18 + (c) % 9)))
#define REGIONS9(r)                                                                      \
    REGIONS(r * 9), REGIONS(r * 9 + 1), REGIONS(r * 9 + 2), REGIONS(r * 9 + 3),          \
        REGIONS(r * 9 + 4), REGIONS(r * 9 + 5), REGIONS(r * 9 + 6), REGIONS(r * 9 + 7),  \
        REGIONS(r * 9 + 8)
static const uint32_t cell_regions[SE_CELLS] = { REGIONS9(0), REGIONS9(1), REGIONS9(2),
    REGIONS9(3), REGIONS9(4), REGIONS9(5), REGIONS9(6), REGIONS9(7), REGIONS9(8) };

/* By cell and region type: the places an "on" potential's weak links skip
 * in its box (its own), row and column (the box's, met in the box first). */
#define MET(c)                                                                           \
    {                                                                                    \
        1u << ((c) / 9 % 3 * 3 + (c) % 9 % 3), 7u << ((c) % 9 / 3 * 3),                  \
            7u << ((c) / 9 / 3 * 3)                                                      \
    }
#define MET9(r)                                                                          \
    MET(r * 9), MET(r * 9 + 1), MET(r * 9 + 2), MET(r * 9 + 3), MET(r * 9 + 4),          \
        MET(r * 9 + 5), MET(r * 9 + 6), MET(r * 9 + 7), MET(r * 9 + 8)
static const uint16_t met_places[SE_CELLS][3]
    = { MET9(0), MET9(1), MET9(2), MET9(3), MET9(4), MET9(5), MET9(6), MET9(7), MET9(8) };

static void places_of(const struct se_grid *g, region_places pos)
{
    memset(pos, 0, sizeof(region_places));
    for (int r = 0; r < 27; r++)
        for (int i = 0; i < 9; i++) {
            unsigned m = g->cand[se_region_cell[r][i]];
            for (int v = 1; v <= 9; v++)
                if (m & (1u << v))
                    pos[r][v] |= (uint16_t) (1u << i);
        }
}

/* "on" p: the cell's other values (with Y links), then v in box, row and
 * column (each in region order, less the cells of c's box met first); `pos`
 * are g's places. */
static int on_to_off(const struct se_grid *g, const region_places pos, int p, bool y,
    int *out, uint8_t *cause)
{
    int c = node_cell(p), v = node_value(p), n = 0;
    if (y) /* the cell's other values, in increasing order */
        for (unsigned m = g->cand[c] & SE_ALL & ~(1u << v); m; m &= m - 1) {
            cause[n] = 1;
            out[n++] = node_of(c, __builtin_ctz(m), 0);
        }
    const uint16_t *met = met_places[c];
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[c][t];
        for (unsigned m = pos[r][v] & ~met[t]; m; m &= m - 1) {
            cause[n] = (uint8_t) (2 + t);
            out[n++] = node_of(se_region_cell[r][__builtin_ctz(m)], v, 0);
        }
    }
    return n;
}

struct on_item {
    int node;
    uint8_t cause; /* 1 = the cell's last value, 2 + t = last place in region type t */
    int np;
    int parents[10];
};

/* "off" p: the cell's last value (Y), the last place of v in each region (X);
 * with the candidates gone since the run began as extra parents. `pos` and
 * `pos0` are the places of g and src. */
static inline int off_to_on(const struct se_grid *g, const struct se_grid *src,
    region_places pos, region_places pos0, int p, bool y, bool xl, struct on_item *out)
{
    int c = node_cell(p), v = node_value(p), n = 0;
    if (y && se_two_bits(g->cand[c])) {
        struct on_item *it = &out[n++];
        it->node = node_of(c, __builtin_ctz(g->cand[c] & ~(1u << v)), 1);
        it->cause = 1;
        it->np = 0;
        it->parents[it->np++] = p;
        for (int w = 1; src != g && w <= 9; w++)
            if ((src->cand[c] & ~g->cand[c]) & (1u << w))
                it->parents[it->np++] = node_of(c, w, 0);
    }
    for (int t = 0; xl && t < 3; t++) {
        int r = se_cell_region[c][t];
        unsigned m = pos[r][v] & ~(1u << region_index(c, t));
        if (!m || (m & (m - 1)))
            continue;
        int on = node_of(se_region_cell[r][__builtin_ctz(m)], v, 1);
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup = dup || out[k].node == on;
        if (dup)
            continue;
        struct on_item *it = &out[n++];
        it->node = on;
        it->cause = (uint8_t) (2 + t);
        it->np = 0;
        it->parents[it->np++] = p;
        unsigned gone = src != g ? (unsigned) (pos0[r][v] & ~pos[r][v]) : 0;
        for (; gone && it->np < 10; gone &= gone - 1)
            it->parents[it->np++] = node_of(se_region_cell[r][__builtin_ctz(gone)], v, 0);
    }
    return n;
}

/* ---- nested rules of the "+" level ---- */

struct adv {
    struct run *r;
    int *queue;
    int *tail;
    int found;
    bool any; /* a rule gave a hint with parents */
};

static bool adv_hint(void *ctx, const struct se_step *s, const uint16_t *parents)
{
    struct adv *a = ctx;
    int list[256], n = 0;
    /* by cell, then digit (set bits: most cells have none) */
    for (int c = 0; c < SE_CELLS; c++)
        for (unsigned m = parents[c]; m; m &= m - 1)
            if (n < 256 && a->r->has[node_of(c, __builtin_ctz(m), 0)])
                list[n++] = node_of(c, __builtin_ctz(m), 0);
    if (n == 0)
        return true;
    a->any = true;
    for (int c = 0; c < SE_CELLS; c++)
        for (unsigned m = s->elim[c]; m; m &= m - 1) {
            int off = node_of(c, __builtin_ctz(m), 0);
            if (!a->r->has[off]) {
                run_add(a->r, off, list, n);
                a->queue[(*a->tail)++] = off;
                a->found++;
            }
        }
    return true;
}

/* `pos` and `pos0`: the places of g and src, and `lost_in` the regions
 * where each value lost a place since src, which the run keeps (the reduced
 * grid made from them, not from a scan of the cells: that was ~4% of a
 * hardest-list rating). */
static int advanced(const struct se_grid *g, const struct se_grid *src,
    const region_places pos, const region_places pos0, const uint32_t *lost_in,
    struct run *r, int *queue, int *tail)
{
    struct adv a = { r, queue, tail, 0, false };
    struct se_reduced red;
    se_reduced_from_places(&red, g, src, pos, pos0, lost_in);
    se_each_locking(&red, adv_hint, &a);
    if (!a.any)
        se_each_hidden_pair(&red, adv_hint, &a);
    if (!a.any)
        se_each_naked_pair(&red, adv_hint, &a);
    if (!a.any)
        se_each_x_wing(&red, adv_hint, &a);
    return a.any ? a.found : -1;
}

static void cycles_producer(struct chain_ctx *x);
static void multiple_producer(struct chain_ctx *x);
struct reach_all;
struct implied;
static void filter_end(struct chain_ctx *x);
static void nested_multiple(struct chain_ctx *x);
static void collect_push(
    struct chain_ctx *x, const struct se_step *s, int sort_key, const uint16_t *parents);

static int nested_cmp(const void *a, const void *b)
{
    const struct nested_hint *p = a, *q = b;
    if (p->rating != q->rating)
        return p->rating - q->rating;
    if (p->complexity != q->complexity)
        return p->complexity - q->complexity;
    if (p->sort_key != q->sort_key)
        return p->sort_key - q->sort_key;
    /* SE's sort is stable: equal hints stay in the order found. An explicit
     * order makes the sorted list the same whatever qsort does, and the same
     * for the hints that count when others that cannot are left out */
    return p->seq - q->seq;
}

/* A search's context (~60 KB), kept by the rater between searches: thousands
 * of nested searches each cleared a new one, and so did each of the step's
 * searches (~1.4% of a hardest-list rating). Only the fields before `stamp`
 * start cleared; the rest need no clearing (see struct chain_ctx). Nested
 * searches do not nest, and se_chains does not call itself: one spare for
 * the nested searches and one for se_chains. */
static struct chain_ctx *ctx_take(struct se_rater *rt, struct chain_ctx **spare)
{
    struct chain_ctx *n = *spare;
    *spare = NULL;
    if (!n)
        n = calloc(1, sizeof(*n));
    else {
        memset(n, 0, offsetof(struct chain_ctx, stamp));
        if (n->stamp >= 1u << 31) { /* long before the stamps wrap */
            n->stamp = 0;
            memset(n->seen, 0, sizeof(n->seen));
        }
    }
    if (n)
        n->rt = rt;
    return n;
}

static void ctx_give_back(struct chain_ctx **spare, struct chain_ctx *n)
{
    if (*spare)
        free(n);
    else
        *spare = n;
}

static struct chain_ctx *nested_ctx_take(struct se_rater *rt)
{
    return ctx_take(rt, &rt->chains->spare_nested);
}

static void nested_ctx_give_back(struct se_rater *rt, struct chain_ctx *n)
{
    ctx_give_back(&rt->chains->spare_nested, n);
}

static void spare_ctx_drop(struct se_chains_memo *m)
{
    free(m->spare_nested);
    m->spare_nested = NULL;
    free(m->spare_top);
    m->spare_top = NULL;
}

/* Every forcing chain and cycle (nested level 2) or cell and region chain
 * (level 3) of g, sorted as SE sorts them (a stable sort: equal ones keep
 * their order). */
static struct nested_list nested_list_of(struct se_rater *rt, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*places)[10], bool multiple)
{
    struct nested_list list = { NULL, 0, 0 };
    struct chain_ctx *n = nested_ctx_take(rt);
    if (!n)
        return list;
    n->grid = g;
    n->kind = multiple ? SE_CH_MULTIPLE : SE_CH_CYCLES;
    n->y_links = true;
    n->multiple = multiple;
    n->collect = &list;
    n->src = src;
    n->places = places;
    memcpy(n->pos0, places, sizeof(n->pos0)); /* the runs' start is g */
    n->have_pos0 = true;
    if (multiple)
        nested_multiple(n);
    else
        cycles_producer(n);
    nested_ctx_give_back(rt, n);
    if (list.n > 1) /* an empty list has no array, and qsort wants one */
        qsort(list.h, (size_t) list.n, sizeof(*list.h), nested_cmp);
    return list;
}

static uint64_t memo_hash(const struct se_grid *g, bool multiple)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t) multiple;
    for (int c = 0; c < SE_CELLS; c++)
        h = (h ^ g->cand[c]) * 1099511628211ull;
    return h;
}

static struct nested_memo **memo_find(
    const struct memo_store *m, const struct se_grid *g, bool multiple)
{
    size_t i = memo_hash(g, multiple) & (m->nslots - 1);
    while (m->slot[i]
        && (m->slot[i]->multiple != multiple
            || memcmp(m->slot[i]->cand, g->cand, sizeof(g->cand))))
        i = (i + 1) & (m->nslots - 1);
    return &m->slot[i];
}

/* Doubles the table; false without memory (the memo then stops growing). */
static bool memo_grow(struct memo_store *m)
{
    struct memo_store bigger = *m;
    bigger.nslots = m->nslots * 2;
    bigger.slot = calloc(bigger.nslots, sizeof(*bigger.slot));
    if (!bigger.slot)
        return false;
    for (size_t i = 0; i < m->nslots; i++)
        if (m->slot[i]) {
            struct se_grid g;
            memcpy(g.cand, m->slot[i]->cand, sizeof(g.cand));
            *memo_find(&bigger, &g, m->slot[i]->multiple) = m->slot[i];
        }
    free(m->slot);
    *m = bigger;
    return true;
}

/* The nested hints of g: from the memo when a run of this step's nested
 * searches met the same grid before, else made and kept while the memo has
 * room. *owned: the caller frees the list. */
static struct nested_list nested_hints(struct chain_ctx *x, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*places)[10], bool multiple, bool *owned)
{
    struct memo_store *m = x->memo;
    struct nested_memo **at = m ? memo_find(m, g, multiple) : NULL;
    if (at && *at) {
        *owned = false;
        return (*at)->list;
    }
    struct nested_list list = nested_list_of(x->rt, g, src, places, multiple);
    *owned = true;
    size_t size = sizeof(struct nested_memo) + sizeof(*list.h) * (size_t) list.n;
    if (!m || m->bytes + size > MEMO_BYTES)
        return list;
    if (m->count + 1 > m->nslots / 2) {
        if (!memo_grow(m))
            return list;
        at = memo_find(m, g, multiple);
    }
    struct nested_memo *e = malloc(sizeof(*e));
    if (!e)
        return list;
    memcpy(e->cand, g->cand, sizeof(e->cand));
    e->multiple = multiple;
    e->list = list;
    *at = e;
    m->count++;
    m->bytes += size;
    *owned = false;
    return list;
}

static void memo_drop(struct se_chains_memo *mem)
{
    struct memo_store *m = mem->step_memo;
    if (!m)
        return;
    for (size_t i = 0; i < m->nslots; i++)
        if (m->slot[i]) {
            free(m->slot[i]->list.h);
            free(m->slot[i]);
        }
    free(m->slot);
    free(m);
    mem->step_memo = NULL;
}

/* The memo of the nested searches from g: level 2 starts a new one, level 3
 * takes level 2's when it was made from the same grid (NULL without
 * memory: no memo). */
static struct memo_store *memo_for(
    struct se_chains_memo *mem, const struct se_grid *g, int level)
{
    if (mem->step_memo && level > 2
        && !memcmp(mem->step_memo->src, g->cand, sizeof(g->cand)))
        return mem->step_memo;
    memo_drop(mem);
    struct memo_store *m = malloc(sizeof(*m));
    if (!m)
        return NULL;
    memcpy(m->src, g->cand, sizeof(m->src));
    m->nslots = MEMO_SLOTS;
    m->count = m->bytes = 0;
    m->slot = calloc(m->nslots, sizeof(*m->slot));
    if (!m->slot) {
        free(m);
        return NULL;
    }
    return mem->step_memo = m;
}

/* Adds the eliminations of the nested hints of g with their rule parents;
 * -1 when no hint has parents in the run. */
static int nested_chains(struct chain_ctx *x, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*places)[10], struct run *r, int *queue,
    int *tail, bool multiple)
{
    bool owned;
    struct nested_list list = nested_hints(x, g, src, places, multiple, &owned);
    int found = 0;
    bool any = false;
    for (int i = 0; i < list.n; i++) {
        const struct nested_hint *h = &list.h[i];
        int plist[256], np = 0;
        /* candidates by cell, then digit (set bits: most cells have none) */
        for (int c = 0; c < SE_CELLS; c++)
            for (unsigned m = h->parents[c]; m; m &= m - 1)
                if (np < 256 && r->has[node_of(c, __builtin_ctz(m), 0)])
                    plist[np++] = node_of(c, __builtin_ctz(m), 0);
        if (np == 0)
            continue;
        any = true;
        for (int c = 0; c < SE_CELLS; c++)
            for (unsigned m = h->elim[c]; m; m &= m - 1) {
                int off = node_of(c, __builtin_ctz(m), 0);
                if (r->has[off])
                    continue;
                run_add(r, off, plist, np);
                run_key(r, off, h->key, h->complexity);
                queue[(*tail)++] = off;
                found++;
            }
    }
    if (owned)
        free(list.h);
    return any ? found : -1;
}

/* ---- a whole run ---- */

/* The rules of x's level that a stalled run tries, from rule `first` on (1
 * the "+" rules, 2 nested cycles and forcing chains, 3 nested multiple
 * chains), each only when those before gave no hint with parents (-1);
 * returns what the last one tried gave. */
static int stall_rules(struct chain_ctx *x, int first, const struct se_grid *g,
    const struct se_grid *start, const region_places pos, const uint32_t *lost_in,
    struct run *r, int *qoff, int *toff)
{
    int found = -1;
    for (int rule = first; found < 0 && rule <= x->level; rule++)
        found = rule == 1 ? advanced(g, start, pos, x->pos0, lost_in, r, qoff, toff)
                          : nested_chains(x, g, start, pos, r, qoff, toff, rule == 3);
    return found;
}

static bool absurd_off(struct run *r, int on_stored, int p, int off)
{
    r->absurd = true;
    r->abs_on = on_stored;
    r->abs_off = r->virt = off;
    int par = p;
    r->virt_poff = (uint16_t) arena_put(r, &par, 1);
    r->virt_pn = 1;
    return true;
}

static bool absurd_on(struct run *r, const struct on_item *it, int off_stored)
{
    r->absurd = true;
    r->abs_off = off_stored;
    r->abs_on = r->virt = it->node;
    r->virt_poff = (uint16_t) arena_put(r, it->parents, it->np);
    r->virt_pn = (uint16_t) (r->narena - r->virt_poff);
    return true;
}

/* Takes p's candidate out of a run's grid g, its places pos and lost_in
 * (by value, the regions where it lost a place). */
static void remove_candidate(
    struct se_grid *g, region_places pos, uint32_t *lost_in, int p)
{
    int c = node_cell(p), v = node_value(p);
    g->cand[c] &= (uint16_t) ~(1u << v);
    for (int t = 0; t < 3; t++)
        pos[se_cell_region[c][t]][v] &= (uint16_t) ~(1u << region_index(c, t));
    lost_in[v] |= cell_regions[c];
}

/* The "off" potentials that "on" p forces on g, a run's grid (on_to_off).
 * At level 0 they are those of the search's grid, made once per potential:
 * the run's grid differs from it (dynamic kinds) only by candidates whose
 * "off" potential the run holds, with no "on" one (a run that gets both
 * stops), and for those the run's loop does nothing (no contradiction, no
 * new potential); the others come in the same order. The "+" and nested
 * levels add "off" potentials from rules without that test: they ask g. */
static const uint16_t *on_offs(struct chain_ctx *x, const struct se_grid *g,
    const region_places pos, int p, uint16_t *buf, int *n)
{
    int list[32];
    uint8_t causes[32];
    if (x->level == 0) {
        int slot = p >> 1;
        if (!x->on_n[slot]) {
            int k = on_to_off(x->grid, x->pos0, p, x->y_links, list, causes);
            for (int i = 0; i < k; i++)
                x->on_list[slot][i] = (uint16_t) list[i];
            x->on_n[slot] = (uint8_t) (k + 1);
        }
        *n = x->on_n[slot] - 1;
        return x->on_list[slot];
    }
    *n = on_to_off(g, pos, p, x->y_links, list, causes);
    for (int i = 0; i < *n; i++)
        buf[i] = (uint16_t) list[i];
    return buf;
}

/* ---- runs kept from one dynamic level for the next ----
 *
 * se_next_step tries the dynamic levels 0 to 3 in turn on the same grid,
 * and a level-k run from an assumption is the level-(k-1) run from it until
 * a stall where the rules of level k-1 all give no hint with parents (-1):
 * the rules before k give -1 again there (the same run and grid), and
 * level k goes on with its own rule. A run that ended otherwise (a
 * contradiction, or a rule that gave hints with parents but nothing new)
 * ends the same at level k. So each level keeps its runs' final states,
 * and the next restores them: an open one goes on from its stall with the
 * level's own rule, a final one is final. Kept compactly (a run is ~70 KB,
 * its used part a few KB), in the rater for one step. */
struct snap {
    bool open, absurd, keyed;
    int norder, narena, abs_on, abs_off, virt;
    uint16_t virt_poff, virt_pn;
    /* nkey and ncx (when keyed), then poff, pn, order and arena, then
     * cause: norder entries each, arena narena */
    _Alignas(uint32_t) unsigned char data[];
};

#define SNAP_BYTES ((size_t) 32 << 20)

struct snap_store {
    uint16_t grid[SE_CELLS]; /* the grid of the step */
    int level;
    size_t bytes;
    struct snap *root[NODES]; /* by starting potential */
};

static void snap_store_free(struct snap_store *st)
{
    for (int i = 0; st && i < NODES; i++)
        free(st->root[i]);
    free(st);
}

static void snap_save(struct snap_store *st, int node, const struct run *r, bool open)
{
    const size_t n = (size_t) r->norder;
    size_t size
        = sizeof(struct snap) + n * (r->keyed ? 8 : 0) + n * 7 + (size_t) r->narena * 2;
    if (st->root[node] || st->bytes + size > SNAP_BYTES)
        return; /* started twice, or no room: the next level makes it again */
    struct snap *s = malloc(size);
    if (!s)
        return;
    *s = (struct snap) { open, r->absurd, r->keyed, r->norder, r->narena, r->abs_on,
        r->abs_off, r->virt, r->virt_poff, r->virt_pn };
    uint32_t *nkey = (uint32_t *) (void *) s->data;
    int32_t *ncx = (int32_t *) (void *) (nkey + (r->keyed ? n : 0));
    uint16_t *poff = (uint16_t *) (void *) (ncx + (r->keyed ? n : 0));
    uint16_t *pn = poff + n, *order = pn + n, *arena = order + n;
    uint8_t *cause = (uint8_t *) (arena + r->narena);
    for (size_t i = 0; i < n; i++) {
        int p = r->order[i];
        order[i] = (uint16_t) p;
        poff[i] = r->ref[p].poff;
        pn[i] = r->ref[p].pn;
        cause[i] = r->ref[p].cause;
        if (r->keyed)
            nkey[i] = r->nkey[p], ncx[i] = r->ncx[p];
    }
    memcpy(arena, r->arena, (size_t) r->narena * sizeof(*arena));
    st->root[node] = s;
    st->bytes += size;
}

static void snap_restore(struct run *r, const struct snap *s)
{
    const size_t n = (size_t) s->norder;
    const uint32_t *nkey = (const uint32_t *) (const void *) s->data;
    const int32_t *ncx = (const int32_t *) (const void *) (nkey + (s->keyed ? n : 0));
    const uint16_t *poff = (const uint16_t *) (const void *) (ncx + (s->keyed ? n : 0));
    const uint16_t *pn = poff + n, *order = pn + n, *arena = order + n;
    const uint8_t *cause = (const uint8_t *) (arena + s->narena);
    memset(r->has, 0, sizeof(r->has));
    for (size_t i = 0; i < n; i++) {
        int p = order[i];
        r->has[p] = 1;
        r->order[i] = (uint16_t) p;
        r->ref[p].poff = poff[i];
        r->ref[p].pn = pn[i];
        r->ref[p].cause = cause[i];
        if (s->keyed)
            r->nkey[p] = nkey[i], r->ncx[p] = ncx[i];
    }
    memcpy(r->arena, arena, (size_t) s->narena * sizeof(*arena));
    r->norder = s->norder;
    r->narena = s->narena;
    r->keyed = s->keyed;
    r->absurd = s->absurd;
    r->abs_on = s->abs_on;
    r->abs_off = s->abs_off;
    r->virt = s->virt;
    r->virt_poff = s->virt_poff;
    r->virt_pn = s->virt_pn;
}

/* The grid where the dynamic run r stalled: the start less the run's "off"
 * potentials (each is taken out when its turn comes, and at a stall every
 * one has had its turn). */
static void stall_grid(
    const struct run *r, struct se_grid *g, region_places pos, uint32_t *lost_in)
{
    for (int i = 0; i < r->norder; i++)
        if (!node_on(r->order[i]))
            remove_candidate(g, pos, lost_in, r->order[i]);
}

/* A dynamic search of `level` on g: the runs of level - 1 on g to go on
 * from, and a store for this level's (none for level 3, the last). */
static void snaps_begin(struct chain_ctx *x, const struct se_grid *g, int level)
{
    struct se_chains_memo *const mem = x->rt->chains;
    if (mem->snap_last && mem->snap_last->level == level - 1
        && !memcmp(mem->snap_last->grid, g->cand, sizeof(g->cand)))
        x->resume = mem->snap_last;
    else
        snap_store_free(mem->snap_last);
    mem->snap_last = NULL;
    if (level < 3 && (x->save = calloc(1, sizeof(*x->save)))) {
        memcpy(x->save->grid, g->cand, sizeof(x->save->grid));
        x->save->level = level;
    }
}

static void snaps_end(struct chain_ctx *x)
{
    snap_store_free(x->resume);
    x->resume = NULL;
    x->rt->chains->snap_last = x->save;
    x->save = NULL;
}

/* Completes run r (its starting potentials already added) on g; stops at a
 * contradiction. */
static void do_chaining(struct chain_ctx *x, const struct se_grid *start, struct run *r)
{
    struct se_grid g = *start;
    region_places pos;
    if (!x->have_pos0) {
        places_of(start, x->pos0);
        x->have_pos0 = true;
    }
    memcpy(pos, x->pos0, sizeof(pos));
    uint32_t lost_in[10] = { 0 };
    int qon[NODES], qoff[NODES]; /* not static: nested rules run chains too */
    int hon = 0, ton = 0, hoff = 0, toff = 0;
    int first_rule = x->resume_rule ? x->resume_rule : 1;
    x->run_end = -1;
    if (x->resume_rule) /* r stalled there: its queues are empty */
        stall_grid(r, &g, pos, lost_in);
    for (int i = 0; !x->resume_rule && i < r->norder; i++) {
        int n = r->order[i];
        if (node_on(n))
            qon[ton++] = n;
        else
            qoff[toff++] = n;
    }
    x->resume_rule = 0;
    uint16_t buf[32];
    struct on_item items[4];
    /* the clock once a run and before each nested round, not once a
     * potential (that was ~1.5% of a top1465 rating): a run without rules
     * takes microseconds, and the nested searches check for themselves */
    if (se_out_of_time(x->rt))
        return;
    for (;;) {
        if (hon < ton) {
            int p = qon[hon++], n;
            const uint16_t *list = on_offs(x, &g, pos, p, buf, &n);
            for (int i = 0; i < n; i++) {
                if (r->has[list[i] | 1] && absurd_off(r, list[i] | 1, p, list[i]))
                    return;
                if (!r->has[list[i]]) {
                    run_add(r, list[i], &p, 1);
                    qoff[toff++] = list[i];
                }
            }
            continue;
        }
        if (hoff < toff) {
            int p = qoff[hoff++];
            int n = off_to_on(&g, start, pos, x->pos0, p, x->y_links, true, items);
            if (x->dynamic)
                remove_candidate(&g, pos, lost_in, p);
            for (int i = 0; i < n; i++) {
                int off = items[i].node & ~1;
                if (r->has[off] && absurd_on(r, &items[i], off))
                    return;
                if (!r->has[items[i].node]) {
                    run_add(r, items[i].node, items[i].parents, items[i].np);
                    r->ref[items[i].node].cause = items[i].cause;
                    qon[ton++] = items[i].node;
                }
            }
            continue;
        }
        int found = -1; /* level 0 has no rules: the next level's first applies */
        if (x->level > 0) {
            if (se_out_of_time(x->rt))
                return;
            found = stall_rules(x, first_rule, &g, start, pos, lost_in, r, qoff, &toff);
            first_rule = 1;
            if (found > 0)
                continue;
        }
        x->run_end = found < 0;
        break;
    }
}

static void start_run(struct chain_ctx *x, struct run *r, int node)
{
    const struct snap *was = x->resume ? x->resume->root[node] : NULL;
    if (was) {
        snap_restore(r, was);
        if (was->open) {
            x->resume_rule = x->level;
            do_chaining(x, x->grid, r);
        } else
            x->run_end = 0;
    } else {
        run_reset(r);
        run_add(r, node, NULL, 0);
        do_chaining(x, x->grid, r);
    }
    if (x->save && (x->run_end >= 0 || r->absurd))
        snap_save(x->save, node, r, x->run_end > 0 && !r->absurd);
}

/* A run from the rater's spares (see SPARE_RUNS), else a new one. */
static struct run *run_alloc(struct se_chains_memo *m)
{
    if (m->nspare_runs)
        return m->spare_runs[--m->nspare_runs];
    struct run *r = malloc(sizeof(struct run));
    if (r) {
        memset(r->has, 0, sizeof(r->has));
        r->norder = 0;
    }
    return r;
}

static void run_free(struct se_chains_memo *m, struct run *r)
{
    if (r && m->nspare_runs < SPARE_RUNS)
        m->spare_runs[m->nspare_runs++] = r;
    else
        free(r);
}

static void spare_cycle_drop(struct se_chains_memo *m);

void se_chains_release(struct se_chains_memo *m)
{
    memo_drop(m);
    snap_store_free(m->snap_last);
    m->snap_last = NULL;
    spare_cycle_drop(m);
    spare_ctx_drop(m);
    while (m->nspare_runs)
        free(m->spare_runs[--m->nspare_runs]);
}

void se_chains_memo_free(struct se_chains_memo *m)
{
    if (!m)
        return;
    se_chains_release(m);
    free(m);
}

/* The run of "v is in cell", made on first use (NULL without memory). */
static struct run *on_run(struct chain_ctx *x, int cell, int v)
{
    struct run **slot = &x->on_runs[cell * 9 + v - 1];
    if (!*slot) {
        *slot = run_alloc(x->rt->chains);
        if (*slot)
            start_run(x, *slot, node_of(cell, v, 1));
    }
    return *slot;
}

/* ---- hints of the multiple and dynamic kinds ---- */

static void base_step(struct chain_ctx *x, struct se_step *s, int complexity, int cell)
{
    static const int base[] = { 0, 75, 80, 85 };
    enum se_technique t = x->kind == SE_CH_NISHIO ? SE_nishio
        : x->kind == SE_CH_MULTIPLE               ? SE_multiple_chains
        : x->level == 0                           ? SE_dynamic_chains
        : x->level == 1                           ? SE_dynamic_plus
                                                  : SE_nested_chains;
    int rating = x->level > 0 ? 85 + 5 * x->level : base[x->kind];
    se_step_clear(s, t, rating + length_tenths(complexity));
    s->complexity = complexity;
    s->cells[s->ncells++] = (uint8_t) cell;
}

/* Whether a hint of this complexity (or more) would not be kept: within a
 * search the rating grows with the complexity, and offer keeps the lowest
 * rating, then the lowest complexity. Collecting keeps every hint. */
static bool past_best(const struct chain_ctx *x, int complexity)
{
    return x->have && !x->collect && complexity > x->best.complexity;
}

/* The hints of a candidate's "on" and "off" runs; off NULL: an "off" run
 * known to end with no contradiction, which gives nothing without doubles. */
static void binary_hints(struct chain_ctx *x, int cell, int v, struct run *on,
    struct run *off, bool contradiction, bool doubles)
{
    struct se_step s;
    if (contradiction && on->absurd) {
        x->nhint_keys = 0;
        base_step(x, &s, anc_absurd(x, on), cell);
        conclude(x->grid, node_of(cell, v, 0), &s);
        offer(x, &s, 7);
    }
    if (contradiction && off && off->absurd) {
        x->nhint_keys = 0;
        base_step(x, &s, anc_absurd(x, off), cell);
        conclude(x->grid, node_of(cell, v, 1), &s);
        offer(x, &s, 7);
    }
    for (int i = 0; doubles && i < on->norder; i++) {
        int p = on->order[i];
        if (!off->has[p])
            continue;
        x->nhint_keys = 0;
        int cx = anc_stored(x, on, p);
        if (past_best(x, cx))
            continue;
        base_step(x, &s, cx + anc_stored(x, off, p), cell);
        conclude(x->grid, p, &s);
        offer(x, &s, 1);
    }
}

/* The same potential follows from every member of a set of runs. */
/* Rule parents of a nested cell or region forcing chain (see path_parents):
 * along every chain to `target`; the assumptions count as `root_cause`. */
static void run_parents(struct chain_ctx *x, const struct run *r, int target,
    int root_cause, uint16_t *parents)
{
    const struct se_grid *g = x->grid, *src = x->src;
    uint32_t st = ++x->stamp;
    int top = 0;
    x->stack[top++] = target;
    while (top > 0) {
        int p = x->stack[--top];
        if (x->seen[p] == st)
            continue;
        x->seen[p] = st;
        for (int i = 0; i < r->ref[p].pn; i++)
            x->stack[top++] = r->arena[r->ref[p].poff + i];
        int cause = r->ref[p].pn ? r->ref[p].cause : root_cause;
        if (!node_on(p) || !cause)
            continue;
        int cell = node_cell(p), v = node_value(p);
        if (cause == 1) {
            parents[cell] |= (uint16_t) (src->cand[cell] & ~g->cand[cell]);
            continue;
        }
        int reg = se_cell_region[cell][cause - 2];
        for (int i = 0; i < 9; i++) {
            int o = se_region_cell[reg][i];
            if (src->cand[o] & ~g->cand[o] & (1u << v))
                parents[o] |= (uint16_t) (1u << v);
        }
    }
}

static void common_hints(struct chain_ctx *x, struct run **runs, int nruns, int cell,
    int sort_key, int root_cause)
{
    struct run *first = runs[0];
    for (int i = 0; i < first->norder; i++) {
        int p = first->order[i], complexity = 0;
        bool all = true;
        for (int k = 1; k < nruns && all; k++)
            all = runs[k]->has[p];
        if (!all)
            continue;
        x->nhint_keys = 0;
        for (int k = 0; k < nruns && !past_best(x, complexity); k++)
            complexity += anc_stored(x, runs[k], p);
        if (past_best(x, complexity))
            continue;
        struct se_step s;
        base_step(x, &s, complexity, cell);
        conclude(x->grid, p, &s);
        if (x->collect) {
            uint16_t parents[SE_CELLS] = { 0 };
            for (int k = 0; k < nruns; k++)
                run_parents(x, runs[k], p, root_cause, parents);
            collect_push(x, &s, sort_key, parents);
            continue;
        }
        offer(x, &s, sort_key);
    }
}

/* The places of v in region r of the search's grid: pos0, made on first
 * use (a lookup instead of a scan of the region's cells). */
static unsigned grid_places(struct chain_ctx *x, int r, int v)
{
    if (!x->have_pos0) {
        places_of(x->grid, x->pos0);
        x->have_pos0 = true;
    }
    return x->pos0[r][v];
}

static void region_hints(struct chain_ctx *x, int cell, int v, struct run *own)
{
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[cell][t];
        unsigned m = grid_places(x, r, v);
        int n = se_popcount(m);
        if (!(n == 2 || (x->multiple && n > 2)))
            continue;
        if (se_region_cell[r][__builtin_ctz(m)] != cell)
            continue;
        struct run *set[9];
        int k = 0;
        for (int i = 0; i < 9; i++) {
            if (!(m & (1u << i)))
                continue;
            int o = se_region_cell[r][i];
            if (o == cell) {
                set[k++] = own;
                continue;
            }
            if (!(set[k++] = on_run(x, o, v)))
                return;
        }
        common_hints(x, set, k, cell, 6, 2 + t);
    }
}

/* Whether binary_hints needs the "off" run of v in cell (else *off is set
 * to NULL). Dynamic chains at level 0, v in a cell whose one other value
 * is w: the run's potentials are all that follow from "off v" by the rules
 * (it makes them all unless it meets a contradiction; the rules only add),
 * and "off v" gives "on w" (the cell's last value) as "on w" gives "off v"
 * (the cell's other value): the same as from "on w". So the "off v" run
 * ends in a contradiction exactly when the "on w" run does, and with two
 * values there are no doubles: it is made only then. Not with Nishio's
 * links (no cell links) nor the "+" and nested levels' rules. */
static bool off_run_needed(
    struct chain_ctx *x, int cell, int v, bool doubles, struct run **off)
{
    const unsigned rest = x->grid->cand[cell] & ~(1u << v);
    if (doubles || x->level != 0 || x->kind != SE_CH_DYNAMIC || (rest & (rest - 1)))
        return true;
    const struct run *w = on_run(x, cell, __builtin_ctz(rest));
    if (!w || w->absurd)
        return true;
    *off = NULL;
    return false;
}

static void cell_chains(struct chain_ctx *x, int cell)
{
    int card = se_popcount(x->grid->cand[cell]);
    bool nishio = x->kind == SE_CH_NISHIO;
    bool doubles = card >= 3 && !nishio && x->dynamic;
    bool contradiction = x->dynamic;
    struct run *set[9];
    int k = 0;
    for (int v = 1; v <= 9; v++) {
        if (!(x->grid->cand[cell] & (1u << v)))
            continue;
        if ((x->nishio_skip >> v) & 1)
            continue;
        struct run *on = on_run(x, cell, v), *off = x->off_run;
        if (!on) {
            x->run_failed = true;
            return;
        }
        /* the "off" run serves only binary_hints: the multiple kind (neither
         * contradictions nor doubles) has no use for it */
        if (contradiction || doubles) {
            if (off_run_needed(x, cell, v, doubles, &off))
                start_run(x, off, node_of(cell, v, 0));
            binary_hints(x, cell, v, on, off, contradiction, doubles);
            if (on->absurd || (off && off->absurd))
                x->nishio_absurd |= 1u << v;
        }
        if (!nishio)
            region_hints(x, cell, v, on);
        set[k++] = on;
    }
    if (!nishio && (card == 2 || (x->multiple && card > 2)))
        common_hints(x, set, k, cell, 5, 1);
}

/* ---- which runs of the multiple kind can give a hint ----
 *
 * Most groups of runs give no hint (on top1465, 98% of the multiple kind's:
 * a cell's candidates, a region's places of a value). A hint needs a
 * potential common to the runs of a group. Without removals (the multiple
 * kind) the links from a potential do not depend on the run: a run is a
 * breadth-first walk of one fixed graph from its start, which stops at the
 * first contradiction (an "on" and an "off" potential of one candidate). So
 * the potentials a run can hold are those its start reaches in that graph,
 * found for all starts at once from the graph's strongly connected
 * components (Tarjan's order is sinks first: a component's reach is its
 * members and the reach of the components it links to). When the reach of
 * every run of a group holds no common potential, the group gives no hint
 * and its detailed runs are not made; otherwise binary, cell and region
 * hints are made from the detailed runs as before, in the same order: the
 * same hints, offered in the same order. A reach with a contradiction is
 * also the detailed run's set up to it, or more: the test stays exact. */

/* The graph of the search grid's potentials, numbered 2i ("off") and 2i+1
 * ("on") for its i-th candidate, and each component's reach. */
struct reach_all {
    int n, words;
    int16_t id[SE_CELLS * 9]; /* by candidate: its number i, or -1 */
    uint16_t node[NODES];
    /* links of potential number i, made on first visit (ra_links):
     * to[first[i] .. end[i]) those to potentials with links of their own,
     * to[end[i] .. sinks_end[i]) those to "off" potentials without (most
     * of an "on" potential's): Tarjan need not visit those, whose reach is
     * themselves */
    struct chain_ctx *x;
    int nedges;
    int32_t first[NODES + 1], end[NODES], sinks_end[NODES];
    bool linked[SE_CELLS * 9]; /* by candidate: its "off" potential has links */
    uint16_t to[NODES / 2 * 32];
    int16_t index[NODES], low[NODES], comp[NODES];
    uint16_t stack[NODES], frame[NODES];
    int32_t frame_edge[NODES];
    int ncomp, counter; /* Tarjan's: components made, potentials visited */
    uint64_t *set; /* by component, `words` words */
    /* by component: its set holds both potentials of a candidate (see
     * on_reach), found once as ra_pop completes the set */
    bool clash[NODES];
};

static int ra_num(const struct reach_all *R, int node)
{
    return R->id[node >> 1] * 2 + node_on(node);
}

/* The links of every potential, as the detailed run follows them. */
static void ra_graph(struct chain_ctx *x, struct reach_all *R)
{
    R->n = R->nedges = 0;
    R->x = x;
    memset(R->id, -1, sizeof(R->id));
    /* by cell, the candidates whose "off" potential has links: off_to_on
     * gives a potential when the cell has two candidates (with Y links) or
     * the value one other place in one of its regions, i.e. two places
     * there (its own is one): each region's two-place values mark both
     * their cells */
    uint16_t linked[SE_CELLS];
    for (int cell = 0; cell < SE_CELLS; cell++) {
        const unsigned m = x->grid->cand[cell];
        linked[cell] = (uint16_t) (x->y_links && se_two_bits(m) ? m : 0);
    }
    for (int r = 0; r < 27; r++)
        for (int v = 1; v <= 9; v++) {
            const unsigned m = x->pos0[r][v];
            if (!se_two_bits(m))
                continue;
            linked[se_region_cell[r][__builtin_ctz(m)]] |= (uint16_t) (1u << v);
            linked[se_region_cell[r][31 - __builtin_clz(m)]] |= (uint16_t) (1u << v);
        }
    /* by candidate number (slot), as a loop over every slot numbered them */
    for (int cell = 0; cell < SE_CELLS; cell++)
        for (unsigned m = x->grid->cand[cell] & SE_ALL; m; m &= m - 1) {
            const int slot = cell * 9 + __builtin_ctz(m) - 1;
            R->id[slot] = (int16_t) (R->n / 2);
            R->linked[slot] = (linked[cell] >> __builtin_ctz(m)) & 1;
            R->node[R->n++] = (uint16_t) (slot << 1);
            R->node[R->n++] = (uint16_t) (slot << 1 | 1);
        }
}

/* The links of potential number i, made as Tarjan first visits it (see
 * ra_comp): most potentials are never visited. */
static void ra_links(void *ctx, int i)
{
    struct reach_all *R = ctx;
    struct chain_ctx *x = R->x;
    int p = R->node[i], n, ne = R->nedges;
    R->first[i] = ne;
    if (node_on(p)) {
        uint16_t buf[32], sinks[32];
        int ns = 0;
        const uint16_t *list = on_offs(x, x->grid, x->pos0, p, buf, &n);
        for (int k = 0; k < n; k++) {
            if (R->linked[list[k] >> 1])
                R->to[ne++] = (uint16_t) ra_num(R, list[k]);
            else
                sinks[ns++] = (uint16_t) ra_num(R, list[k]);
        }
        R->end[i] = ne;
        for (int k = 0; k < ns; k++)
            R->to[ne++] = sinks[k];
    } else {
        struct on_item items[4];
        n = off_to_on(x->grid, x->grid, x->pos0, x->pos0, p, x->y_links, true, items);
        for (int k = 0; k < n; k++)
            R->to[ne++] = (uint16_t) ra_num(R, items[k].node);
        R->end[i] = ne;
    }
    R->sinks_end[i] = R->nedges = ne;
}

/* A graph's vertices and links, and Tarjan's state over them. */
struct tarjan {
    int n;
    const int32_t *first, *end; /* links of vertex u: to[first[u] .. end[u]) */
    const uint16_t *to;
    /* when set, called as a vertex is first visited, before its links are
     * read (they may be made then) */
    void (*visit)(void *ctx, int u);
    void *visit_ctx;
    int16_t *index, *low, *comp; /* comp: -1 while on the stack */
    uint16_t *stack, *frame;
    int32_t *frame_edge;
};

/* Called as each component completes (sinks first: a link between two goes
 * to one popped before): its members are stack[bottom .. top). */
typedef void tarjan_pop_fn(void *ctx, int bottom, int top);

/* Tarjan's depth-first search from `root` (not visited yet), without
 * recursion: every component it reaches is completed and popped, so the
 * stack is empty again at its end. `counter`: the visiting order so far. */
static void tarjan_root(
    const struct tarjan *T, int root, int *counter, tarjan_pop_fn *pop, void *ctx)
{
    int depth = 0, top = 0;
    if (T->visit)
        T->visit(T->visit_ctx, root);
    T->frame[0] = (uint16_t) root;
    T->frame_edge[0] = T->first[root];
    T->index[root] = T->low[root] = (int16_t) (*counter)++;
    T->stack[top++] = (uint16_t) root;
    T->comp[root] = -1;
    while (depth >= 0) {
        int u = T->frame[depth];
        if (T->frame_edge[depth] < T->end[u]) {
            int w = T->to[T->frame_edge[depth]++];
            if (T->index[w] < 0) {
                if (T->visit)
                    T->visit(T->visit_ctx, w);
                T->index[w] = T->low[w] = (int16_t) (*counter)++;
                T->stack[top++] = (uint16_t) w;
                T->comp[w] = -1;
                T->frame[++depth] = (uint16_t) w;
                T->frame_edge[depth] = T->first[w];
            } else if (T->comp[w] < 0 && T->index[w] < T->low[u])
                T->low[u] = T->index[w];
            continue;
        }
        if (T->low[u] == T->index[u]) {
            int bottom = top;
            while (T->stack[--bottom] != u)
                ;
            pop(ctx, bottom, top);
            top = bottom;
        }
        if (--depth >= 0 && T->low[u] < T->low[T->frame[depth]])
            T->low[T->frame[depth]] = T->low[u];
    }
}

/* Tarjan's strongly connected components of the whole graph. */
static void tarjan(const struct tarjan *T, tarjan_pop_fn *pop, void *ctx)
{
    int counter = 0;
    for (int i = 0; i < T->n; i++)
        T->index[i] = -1;
    for (int root = 0; root < T->n; root++)
        if (T->index[root] < 0)
            tarjan_root(T, root, &counter, pop, ctx);
}

/* Component u done: its members leave the stack, and its reach is theirs
 * and their links' components' (all done before it). */
static void ra_pop(void *ctx, int bottom, int top)
{
    struct reach_all *R = ctx;
    const int k = R->ncomp++, W = R->words;
    uint64_t *set = R->set + (size_t) k * W;
    for (int j = 0; j < W; j++)
        set[j] = 0;
    for (int i = bottom; i < top; i++)
        R->comp[R->stack[i]] = (int16_t) k;
    for (int i = bottom; i < top; i++) {
        int m = R->stack[i];
        set[m >> 6] |= 1ull << (m & 63);
        for (int e = R->first[m]; e < R->end[m]; e++) {
            int y = R->comp[R->to[e]];
            const uint64_t *ys = R->set + (size_t) y * W;
            for (int j = 0; y != k && j < W; j++)
                set[j] |= ys[j];
        }
        for (int e = R->end[m]; e < R->sinks_end[m]; e++)
            set[R->to[e] >> 6] |= 1ull << (R->to[e] & 63);
    }
    uint64_t clash = 0;
    for (int j = 0; j < W; j++)
        clash |= set[j] & (set[j] >> 1) & 0x5555555555555555ull;
    R->clash[k] = clash != 0;
}

/* The component of potential number i, with its reach: made on first use
 * from i (Tarjan from i completes every component i reaches, and a
 * component's members and reach do not depend on where the search began).
 * Most potentials are never asked for: an "on" potential outside the core
 * is reached from none but itself. */
static int ra_comp(struct reach_all *R, int i)
{
    if (R->index[i] < 0) {
        const struct tarjan T = { R->n, R->first, R->end, R->to, ra_links, R, R->index,
            R->low, R->comp, R->stack, R->frame, R->frame_edge };
        tarjan_root(&T, i, &R->counter, ra_pop, R);
    }
    return R->comp[i];
}

/* The reach of every potential of the search grid, or NULL (no memory). */
static struct reach_all *reach_all_of(struct chain_ctx *x)
{
    struct reach_all *R = malloc(sizeof(*R));
    if (!R)
        return NULL;
    if (!x->have_pos0) {
        places_of(x->grid, x->pos0);
        x->have_pos0 = true;
    }
    ra_graph(x, R);
    R->words = (R->n + 63) / 64;
    R->set = malloc(sizeof(*R->set) * (size_t) (R->n ? R->n : 1) * (size_t) R->words);
    if (!R->set) {
        free(R);
        return NULL;
    }
    R->ncomp = R->counter = 0;
    for (int i = 0; i < R->n; i++)
        R->index[i] = -1; /* no component made yet (see ra_comp) */
    return R;
}

static void reach_all_free(struct reach_all *R)
{
    if (R)
        free(R->set);
    free(R);
}

/* What the "on" run of a candidate can hold, by number (NULL: no memory).
 * A reach with a contradiction is replaced by its detailed run's set. */
static const uint64_t *on_reach(struct chain_ctx *x, int cell, int v)
{
    struct reach_all *R = x->reach_all;
    int slot = cell * 9 + v - 1, i = R->id[slot];
    const int comp = ra_comp(R, 2 * i + 1);
    if (!R->clash[comp]) /* a component's set is final once made (ra_pop) */
        return R->set + (size_t) comp * R->words;
    uint64_t *own = x->run_sets + (size_t) i * R->words;
    if (!x->run_set_made[i]) {
        const struct run *r = on_run(x, cell, v);
        if (!r)
            return NULL;
        memset(own, 0, sizeof(*own) * (size_t) R->words);
        for (int k = 0; k < r->norder; k++) {
            int m = ra_num(R, r->order[k]);
            own[m >> 6] |= 1ull << (m & 63);
        }
        x->run_set_made[i] = 1;
    }
    return own;
}

/* A group of runs that may give a hint: the cells and digits of its
 * assumptions (see common_filtered, common_implied). */
typedef bool group_fn(struct chain_ctx *x, const uint8_t *cells, const uint8_t *digits,
    int n, int cell, int sort_key, int root_cause);

/* The region chains of v that start at `cell` (its first place in the
 * region), each handed to `group`; false when one could not be made. */
static bool region_groups(struct chain_ctx *x, int cell, int v, group_fn *group)
{
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[cell][t];
        unsigned m = grid_places(x, r, v);
        int n = se_popcount(m);
        if (!(n == 2 || (x->multiple && n > 2)))
            continue;
        if (se_region_cell[r][__builtin_ctz(m)] != cell)
            continue;
        uint8_t cells[9], digits[9];
        int k = 0;
        for (int i = 0; i < 9; i++)
            if (m & (1u << i)) {
                cells[k] = se_region_cell[r][i];
                digits[k++] = (uint8_t) v;
            }
        if (!group(x, cells, digits, k, cell, 6, 2 + t))
            return false;
    }
    return true;
}

/* Whether the sets, `words` words each, share a bit. */
static bool words_meet(const uint64_t *const *sets, int n, int words)
{
    for (int w = 0; w < words; w++) {
        uint64_t m = sets[0][w];
        for (int i = 1; i < n && m; i++)
            m &= sets[i][w];
        if (m)
            return true;
    }
    return false;
}

/* common_hints of the runs of "v in cells[i]" when their sets can share a
 * potential; false without memory. */
static bool common_filtered(struct chain_ctx *x, const uint8_t *cells,
    const uint8_t *digits, int n, int cell, int sort_key, int root_cause)
{
    const uint64_t *sets[9];
    if (n < 1)
        return true; /* no runs: no group (never met: groups have two or more) */
    for (int i = 0; i < n; i++)
        if (!(sets[i] = on_reach(x, cells[i], digits[i])))
            return false;
    if (!words_meet(sets, n, x->reach_all->words))
        return true;
    struct run *runs[9];
    for (int i = 0; i < n; i++)
        if (!(runs[i] = on_run(x, cells[i], digits[i])))
            return false;
    common_hints(x, runs, n, cell, sort_key, root_cause);
    return true;
}

/* cell_chains of the multiple kind (it has no binary hints), the detailed
 * runs only where a hint can be. */
static void cell_chains_filtered(struct chain_ctx *x, int cell)
{
    int card = se_popcount(x->grid->cand[cell]);
    uint8_t cells[9], digits[9];
    int k = 0;
    for (int v = 1; v <= 9; v++) {
        if (!(x->grid->cand[cell] & (1u << v)))
            continue;
        if (!region_groups(x, cell, v, common_filtered))
            return;
        cells[k] = (uint8_t) cell;
        digits[k++] = (uint8_t) v;
    }
    if (card == 2 || (x->multiple && card > 2))
        common_filtered(x, cells, digits, k, cell, 5, 1);
}

/* The reach of every potential for cell_chains_filtered, or false (then
 * the search runs as before). */
static bool filter_begin(struct chain_ctx *x)
{
    if (x->dynamic || x->level != 0 || x->kind != SE_CH_MULTIPLE)
        return false;
    x->reach_all = reach_all_of(x);
    if (!x->reach_all)
        return false;
    size_t n = (size_t) x->reach_all->n / 2;
    x->run_sets
        = malloc(sizeof(*x->run_sets) * (n ? n : 1) * (size_t) x->reach_all->words);
    x->run_set_made = calloc(n ? n : 1, 1);
    if (x->run_sets && x->run_set_made)
        return true;
    filter_end(x);
    return false;
}

static void filter_end(struct chain_ctx *x)
{
    reach_all_free(x->reach_all);
    free(x->run_sets);
    free(x->run_set_made);
    x->reach_all = NULL;
    x->run_sets = NULL;
    x->run_set_made = NULL;
}

/* ---- which runs of Nishio and dynamic chains can give a hint ----
 *
 * With removals, a run's links depend on the run, so there is no one graph
 * to walk; but the rules only add (a removal only makes more values last
 * ones), so what follows from a set of potentials is a fixed set, and a
 * level-0 run makes all of it unless it meets a contradiction (an "on" and
 * an "off" potential of one candidate), which it then reports: checking the
 * rules one by one, a run that ends without one holds every potential that
 * follows from its start, and only those. Hence for a potential P in the
 * set of a run A that ended without a contradiction, all that follows from
 * P follows from A: P's run ends without a contradiction too, and holds
 * only potentials of A's set. So each run made teaches, for every potential
 * in it, a set its run stays within (the intersection of all such sets).
 * A candidate's "on" and "off" runs are made only when a hint can come of
 * them: a contradiction not ruled out, doubles whose sets meet, or a cell
 * or region group whose sets share a potential; binary_hints and
 * common_hints then run on the detailed runs as before, in the same order:
 * the same hints, offered in the same order. */

struct implied {
    int words;
    int16_t id[SE_CELLS * 9]; /* by candidate: its number i, or -1 */
    uint8_t state[NODES]; /* by potential: 0 unknown, 1 bounded, 2 run made */
    uint8_t absurd[NODES]; /* run made: it met a contradiction */
    uint64_t *sup; /* by number (2i, 2i+1 for "off", "on"): what its run holds,
                      exactly once made, else a superset */
};

static uint64_t *imp_sup(struct implied *I, int node)
{
    return I->sup + (size_t) (2 * I->id[node >> 1] + node_on(node)) * (size_t) I->words;
}

/* Learns from the run r of `start`, just made. */
static void imp_learn(struct implied *I, const struct run *r, int start)
{
    uint64_t set[(NODES + 63) / 64];
    const int W = I->words;
    memset(set, 0, sizeof(set));
    for (int i = 0; i < r->norder; i++) {
        int n = 2 * I->id[r->order[i] >> 1] + node_on(r->order[i]);
        set[n >> 6] |= 1ull << (n & 63);
    }
    memcpy(imp_sup(I, start), set, sizeof(*set) * (size_t) W);
    I->state[start] = 2;
    I->absurd[start] = r->absurd;
    for (int i = 0; !r->absurd && i < r->norder; i++) {
        int p = r->order[i];
        uint64_t *sup = imp_sup(I, p);
        if (I->state[p] == 0)
            memcpy(sup, set, sizeof(*set) * (size_t) W);
        for (int w = 0; I->state[p] == 1 && w < W; w++)
            sup[w] &= set[w];
        if (I->state[p] == 0)
            I->state[p] = 1;
    }
}

/* The "on" run of v in cell, made and learnt from (NULL: no memory). */
static struct run *imp_run(struct chain_ctx *x, int cell, int v)
{
    struct run *r = on_run(x, cell, v);
    if (r && x->implied->state[node_of(cell, v, 1)] != 2)
        imp_learn(x->implied, r, node_of(cell, v, 1));
    if (!r)
        x->run_failed = true;
    return r;
}

/* Makes the "on" run of v in cell unless it is bounded already. */
static bool imp_know(struct chain_ctx *x, int cell, int v)
{
    return x->implied->state[node_of(cell, v, 1)] || imp_run(x, cell, v);
}

static bool imp_clean(const struct implied *I, int node)
{
    return I->state[node] == 1 || (I->state[node] == 2 && !I->absurd[node]);
}

/* The "off" run of v in cell into x->off_run, learnt from. */
static void imp_off_run(struct chain_ctx *x, int cell, int v)
{
    start_run(x, x->off_run, node_of(cell, v, 0));
    imp_learn(x->implied, x->off_run, node_of(cell, v, 0));
}

/* binary_hints of v in cell when its runs can give one; false: no memory. */
static bool binary_implied(struct chain_ctx *x, int cell, int v, bool doubles)
{
    struct implied *I = x->implied;
    const int on = node_of(cell, v, 1), off = node_of(cell, v, 0);
    if (!imp_know(x, cell, v))
        return false;
    const unsigned rest = x->grid->cand[cell] & ~(1u << v);
    /* "off v" with one other value w: what follows from it is what follows
     * from "on w" (see off_run_needed) */
    if (!I->state[off] && x->y_links && !(rest & (rest - 1))) {
        const int w = __builtin_ctz(rest);
        if (!imp_know(x, cell, w))
            return false;
        if (imp_clean(I, node_of(cell, w, 1))) {
            memcpy(imp_sup(I, off), imp_sup(I, node_of(cell, w, 1)),
                sizeof(*I->sup) * (size_t) I->words);
            I->state[off] = 1;
        }
    }
    bool made = !I->state[off];
    if (made)
        imp_off_run(x, cell, v);
    bool need = !imp_clean(I, on) || !imp_clean(I, off);
    if (!need && doubles) {
        const uint64_t *pair[2] = { imp_sup(I, on), imp_sup(I, off) };
        need = words_meet(pair, 2, I->words);
    }
    if (!need)
        return true;
    struct run *r = imp_run(x, cell, v);
    if (!r)
        return false;
    if (!made)
        imp_off_run(x, cell, v);
    binary_hints(x, cell, v, r, x->off_run, true, doubles);
    if (r->absurd || x->off_run->absurd)
        x->nishio_absurd |= 1u << v;
    return true;
}

/* common_hints of the "on" runs of v in cells[i] when their sets can
 * share a potential; false: no memory. */
static bool common_implied(struct chain_ctx *x, const uint8_t *cells,
    const uint8_t *digits, int n, int cell, int sort_key, int root_cause)
{
    const uint64_t *sets[9];
    if (n < 1)
        return true; /* no runs: no group (never met: groups have two or more) */
    for (int i = 0; i < n; i++) {
        if (!imp_know(x, cells[i], digits[i]))
            return false;
        sets[i] = imp_sup(x->implied, node_of(cells[i], digits[i], 1));
    }
    if (!words_meet(sets, n, x->implied->words))
        return true;
    struct run *runs[9];
    for (int i = 0; i < n; i++)
        if (!(runs[i] = imp_run(x, cells[i], digits[i])))
            return false;
    common_hints(x, runs, n, cell, sort_key, root_cause);
    return true;
}

/* cell_chains of Nishio and dynamic chains at level 0, the detailed runs
 * only where a hint can be. */
static void cell_chains_implied(struct chain_ctx *x, int cell)
{
    int card = se_popcount(x->grid->cand[cell]);
    bool nishio = x->kind == SE_CH_NISHIO;
    uint8_t cells[9], digits[9];
    int k = 0;
    for (int v = 1; v <= 9; v++) {
        if (!(x->grid->cand[cell] & (1u << v)) || ((x->nishio_skip >> v) & 1))
            continue;
        if (!binary_implied(x, cell, v, card >= 3 && !nishio))
            return;
        if (!nishio && !region_groups(x, cell, v, common_implied))
            return;
        cells[k] = (uint8_t) cell;
        digits[k++] = (uint8_t) v;
    }
    if (!nishio && (card == 2 || (x->multiple && card > 2)))
        common_implied(x, cells, digits, k, cell, 5, 1);
}

/* The tables of cell_chains_implied, or false (then the search runs as
 * before). */
static bool implied_begin(struct chain_ctx *x)
{
    if (!x->dynamic || x->level != 0 || x->collect)
        return false;
    struct implied *I = x->implied = malloc(sizeof(*I));
    if (!I)
        return false;
    int n = 0;
    for (int slot = 0; slot < SE_CELLS * 9; slot++)
        I->id[slot]
            = (int16_t) ((x->grid->cand[slot / 9] & (1u << (slot % 9 + 1))) ? n++ : -1);
    I->words = (2 * n + 63) / 64;
    memset(I->state, 0, sizeof(I->state));
    I->sup = malloc(sizeof(*I->sup) * (size_t) (n ? 2 * n : 1) * (size_t) I->words);
    if (I->sup)
        return true;
    free(I);
    x->implied = NULL;
    return false;
}

static void implied_end(struct chain_ctx *x)
{
    if (x->implied)
        free(x->implied->sup);
    free(x->implied);
    x->implied = NULL;
}

/* ---- cycles and X/Y forcing chains (SE's first chaining producer) ---- */

struct path {
    int node, parent; /* parent: index in the pool, -1 for the start */
    bool live; /* still to be followed */
    uint8_t cause; /* as in struct on_item; 0 for the start */
};

/* An "on" potential an "off" one forces, and why (as in struct on_item). */
struct fixed_item {
    int node;
    uint8_t cause;
};

/* A nested hint counts only with rule parents (path_parents), and a link of
 * its chain gives parents only when the outer run removed a candidate of the
 * link's cell (cell links) or of its digit in its region (region links): a
 * "dirty" link. A cycle through `start` lies in start's strongly connected
 * component of the link graph, so it needs a dirty link inside it; a forcing
 * chain from `start` to its opposite needs a dirty link into an "on"
 * potential (path_parents skips "off" ones there) on a path between the two.
 *
 * Only the core of the graph can hold such links and cycles: the candidates
 * in a strong link (a bivalue cell, or a digit with two places in a region),
 * ~15% of a nested grid's potentials and ~5% of its links. An "off"
 * potential leads somewhere only when its candidate is in the core, and an
 * "on" one is led to only then (strong links go both ways), so outside the
 * core an "on" potential is a source and an "off" one a sink: a walk between
 * two potentials passes through the core, a cycle lies in it, and the first
 * and last links of a forcing chain from outside it are weak ones (into
 * "off" potentials; weak links go both ways too). The core's components are
 * found once (Tarjan), then for each one the core "on" potentials it reaches
 * and those it reaches through a dirty "on" link (bit sets over the core's
 * candidates); reach_may reads them. */
#define REACH_EDGES (NODES / 2 * 32)
struct reach {
    uint16_t core_at[27][10]; /* the core's places, by region and digit */
    uint16_t core_cell[SE_CELLS]; /* the core's digits, by cell */
    int n; /* the core's potentials, numbered compactly */
    uint16_t node[NODES];
    int16_t id[NODES]; /* by potential: its number, -1 outside the core */
    int16_t bit[SE_CELLS * 9]; /* by core candidate: its bit in the sets */
    int nbits;
    int32_t first[NODES + 1]; /* links, by number: to[first[i] .. first[i + 1]) */
    uint16_t to[REACH_EDGES];
    uint8_t dirty[REACH_EDGES]; /* bit 0: parents in a cycle, bit 1: in a forcing chain */
    /* Tarjan's state, then the components (numbered sinks first: a link
     * between two goes to a lower number) and their members in that order */
    int16_t index[NODES], low[NODES], comp[NODES];
    uint16_t stack[NODES], frame[NODES], order[NODES];
    int32_t frame_edge[NODES];
    int ncomp;
    int16_t comp_end[NODES]; /* comp k's members: order[comp_end[k-1] .. comp_end[k]) */
    bool cycle_dirty[NODES]; /* by component */
    /* by component: whether a cycle in it can remove a candidate (see
     * comp_eliminates); -1: not asked yet */
    int8_t comp_elim[NODES];
    bool dirty_any[NODES]; /* by component: it reaches a dirty "on" link */
    /* by cell: the candidates weakly linked to a core candidate whose "off"
     * potential reaches a dirty "on" link (see reach_hot) */
    uint16_t near_hot[SE_CELLS];
    int words;
    bool any_dirty; /* a component reaches a dirty "on" link */
    bool any_cycle; /* a component has a dirty link inside it */
    /* by component: the core "on" potentials it reaches, then those it
     * reaches through a dirty "on" link */
    uint64_t *set;
    size_t set_cap;
    uint16_t gone_cell[SE_CELLS], gone_region[27]; /* removed by the outer run */
    /* not nested: every hint counts, so every link is taken as dirty and the
     * filter keeps the cycle searches whose start lies on a cycle (each
     * confined to its component) and the forcing searches whose target is
     * reachable */
    bool all_dirty;
};

struct cycle_ctx {
    struct chain_ctx *x;
    struct path *pool;
    int npool, cap;
    int on_at[NODES]; /* pool index of the stored "on" potential, valid when */
    uint32_t on_stamp[NODES]; /* on_stamp is the search's number */
    uint32_t off_stamp[NODES]; /* an "off" potential met in this search */
    uint32_t search;
    bool y, xl;
    /* the grid does not change here: each candidate's last other place in
     * its box, row and column (-1: none or several), found once */
    int8_t conj[SE_CELLS][10][3];
    region_places pos;
    bool bivalue[SE_CELLS];
    /* by cell: the candidates whose "off" potential has a link with X and Y
     * links (the cell has two candidates, or the value two places in one of
     * its regions): the core (see struct reach) */
    uint16_t linked[SE_CELLS];
    /* nested (collecting) in a dynamic search: the digits none of whose
     * candidates the outer run has removed. X links stay within a digit, so
     * an X-only search of such a digit is the one the search for cycles and
     * forcing chains made on the outer grid just before, which found no
     * useful hint (else the dynamic search would not run): it is skipped */
    unsigned unchanged;
    /* each "on" potential's implications with Y links, made on first use:
     * thousands of searches expand the same potentials. The cell's other
     * values come first (on_ny of them): a pass without Y links skips them */
    int8_t on_n[NODES / 2]; /* -1: not made yet */
    int8_t on_ny[NODES / 2];
    uint16_t on_list[NODES / 2][28];
    uint8_t on_cause[NODES / 2][28];
    /* and each "off" potential's (with X links when xl: forcing searches run
     * only in the passes with them) */
    int8_t off_n[NODES / 2];
    struct fixed_item off_items[NODES / 2][4];
    struct reach *reach; /* nested: which searches can matter (see struct reach) */
    bool reach_ready;
    int scope; /* a cycle search with reach_ready: start's component */
    /* the candidates whose searches may give a hint (see may_starts), by
     * cell, then digit, each with what may: 1 cycle, 2 forcing from "on",
     * 4 forcing from "off" */
    int nstarts;
    uint16_t start_slot[SE_CELLS * 9];
    uint8_t start_may[SE_CELLS * 9];
};

static void conj_init(struct cycle_ctx *c)
{
    const struct se_grid *g = c->x->grid;
    memset(c->conj, -1, sizeof(c->conj));
    for (int cell = 0; cell < SE_CELLS; cell++) {
        c->bivalue[cell] = se_two_bits(g->cand[cell]);
        c->linked[cell] = c->bivalue[cell] ? g->cand[cell] : 0;
    }
    if (c->x->places)
        memcpy(c->pos, c->x->places, sizeof(c->pos));
    else
        for (int r = 0; r < 27; r++)
            for (int v = 1; v <= 9; v++)
                c->pos[r][v] = (uint16_t) se_positions(g, r, v);
    for (int r = 0; r < 27; r++) {
        int t = r / 9;
        for (int v = 1; v <= 9; v++) {
            const unsigned m = c->pos[r][v];
            /* a candidate's one other place of v: its partner when v has
             * two places (only candidates' "off" potentials are followed,
             * so a cell without v needs none) */
            const unsigned rest = m & (m - 1);
            if (!rest || (rest & (rest - 1)))
                continue;
            int a = se_region_cell[r][__builtin_ctz(m)];
            int b = se_region_cell[r][31 - __builtin_clz(m)];
            c->conj[a][v][t] = (int8_t) b;
            c->conj[b][v][t] = (int8_t) a;
            c->linked[a] |= (uint16_t) (1u << v);
            c->linked[b] |= (uint16_t) (1u << v);
        }
    }
}

/* off_to_on on the fixed grid, from the tables. */
static int fixed_off_to_on(
    const struct cycle_ctx *c, int p, bool xl, struct fixed_item *out)
{
    const struct se_grid *g = c->x->grid;
    int cell = node_cell(p), v = node_value(p), n = 0;
    if (c->y && c->bivalue[cell])
        out[n++] = (struct fixed_item) {
            node_of(cell, __builtin_ctz(g->cand[cell] & ~(1u << v)), 1), 1
        };
    for (int t = 0; xl && t < 3; t++) {
        int other = c->conj[cell][v][t];
        if (other < 0)
            continue;
        int on = node_of(other, v, 1);
        bool dup = false;
        for (int k = 0; k < n; k++)
            dup = dup || out[k].node == on;
        if (!dup)
            out[n++] = (struct fixed_item) { on, (uint8_t) (2 + t) };
    }
    return n;
}

static bool is_ancestor(const struct cycle_ctx *c, int at, int node)
{
    for (int p = c->pool[at].parent; p >= 0; p = c->pool[p].parent)
        if (c->pool[p].node == node)
            return true;
    return false;
}

static int pool_add(struct cycle_ctx *c, int node, int parent, bool live, int cause)
{
    if (c->npool >= c->cap)
        return -1;
    c->pool[c->npool] = (struct path) { node, parent, live, (uint8_t) cause };
    return c->npool++;
}

static int chain_nodes(struct chain_ctx *x, const struct cycle_ctx *c, int at)
{
    uint32_t st = ++x->stamp;
    int n = 0;
    for (int p = at; p >= 0; p = c->pool[p].parent)
        if (x->seen[c->pool[p].node] != st) {
            x->seen[c->pool[p].node] = st;
            n++;
        }
    return n;
}

/* SE's rule parents of a nested chain: the candidates present at the outer
 * run's start but gone in the chain's grid that made its links forced (cycles
 * count their "off" links too, as their reversed chain is also a target). */
static void path_parents(const struct cycle_ctx *c, int at, bool all, uint16_t *parents)
{
    const struct se_grid *g = c->x->grid, *src = c->x->src;
    for (int p = at; p >= 0; p = c->pool[p].parent) {
        const struct path *e = &c->pool[p];
        if (!e->cause || (!all && !node_on(e->node)))
            continue;
        int cell = node_cell(e->node), v = node_value(e->node);
        if (e->cause == 1) {
            parents[cell] |= (uint16_t) (src->cand[cell] & ~g->cand[cell]);
            continue;
        }
        int r = se_cell_region[cell][e->cause - 2];
        for (int i = 0; i < 9; i++) {
            int o = se_region_cell[r][i];
            if (src->cand[o] & ~g->cand[o] & (1u << v))
                parents[o] |= (uint16_t) (1u << v);
        }
    }
}

static void collect_push(
    struct chain_ctx *x, const struct se_step *s, int sort_key, const uint16_t *parents)
{
    struct nested_list *l = x->collect;
    if (!se_step_useful(x->grid, s))
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        struct nested_hint *h = realloc(l->h, sizeof(*h) * (size_t) cap);
        if (!h)
            return;
        l->h = h;
        l->cap = cap;
    }
    struct nested_hint *h = &l->h[l->n++];
    memcpy(h->elim, s->elim, sizeof(h->elim));
    memcpy(h->parents, parents, sizeof(h->parents));
    h->rating = s->rating;
    h->complexity = s->complexity;
    h->sort_key = sort_key;
    uint32_t key = 2166136261u ^ (uint32_t) s->complexity;
    for (int c = 0; c < SE_CELLS; c++)
        key = (key ^ s->elim[c]) * 16777619u;
    h->key = key | 1u;
    h->seq = l->n - 1;
}

static void cycle_hint(struct cycle_ctx *c, int at)
{
    struct chain_ctx *x = c->x;
    const struct se_grid *g = x->grid;
    uint8_t in_chain[SE_CELLS] = { 0 };
    uint16_t fw[SE_CELLS] = { 0 }, bw[SE_CELLS] = { 0 };
    for (int p = at; c->pool[p].parent >= 0; p = c->pool[p].parent)
        in_chain[node_cell(c->pool[p].node)] = 1;
    for (int p = at; c->pool[p].parent >= 0; p = c->pool[p].parent) {
        int n = c->pool[p].node, cell = node_cell(n), v = node_value(n);
        for (int i = 0; i < 20; i++) {
            int o = se_peer[cell][i];
            if (!in_chain[o] && (g->cand[o] & (1u << v))) {
                if (node_on(n))
                    fw[o] |= (uint16_t) (1u << v);
                else
                    bw[o] |= (uint16_t) (1u << v);
            }
        }
    }
    unsigned elims = 0;
    for (int o = 0; o < SE_CELLS; o++)
        elims |= fw[o] & bw[o];
    if (!elims)
        return; /* removes nothing (fw and bw are g's candidates): not useful */
    struct se_step s;
    int complexity = chain_nodes(x, c, at);
    se_step_clear(&s, SE_cycle, (c->y && c->xl ? 70 : 65) + length_tenths(complexity));
    s.complexity = complexity;
    s.cells[s.ncells++] = (uint8_t) node_cell(c->pool[at].node);
    for (int o = 0; o < SE_CELLS; o++)
        s.elim[o] = fw[o] & bw[o];
    int sort_key = c->y && c->xl ? 4 : (c->y ? 3 : 2);
    if (x->collect) {
        uint16_t parents[SE_CELLS] = { 0 };
        path_parents(c, at, true, parents);
        collect_push(x, &s, sort_key, parents);
        return;
    }
    offer(x, &s, sort_key);
}

static void forcing_hint(struct cycle_ctx *c, int at)
{
    struct chain_ctx *x = c->x;
    struct se_step s;
    int complexity = chain_nodes(x, c, at);
    se_step_clear(&s, SE_forcing_chain, (c->y ? 70 : 66) + length_tenths(complexity));
    s.complexity = complexity;
    s.cells[s.ncells++] = (uint8_t) node_cell(c->pool[at].node);
    conclude(x->grid, c->pool[at].node, &s);
    if (x->collect) {
        uint16_t parents[SE_CELLS] = { 0 };
        path_parents(c, at, false, parents);
        collect_push(x, &s, c->y ? 4 : 2, parents);
        return;
    }
    offer(x, &s, c->y ? 4 : 2);
}

/* The links of the "on" potential of candidate `slot` (all passes), or of
 * its "off" one (this pass), made on first use. */
static void on_links(struct cycle_ctx *c, int slot)
{
    if (c->on_n[slot] >= 0)
        return;
    int list[32], ny = 0;
    uint8_t causes[32];
    int k = on_to_off(c->x->grid, c->pos, slot << 1 | 1, true, list, causes);
    for (int i = 0; i < k; i++) {
        c->on_list[slot][i] = (uint16_t) list[i];
        c->on_cause[slot][i] = causes[i];
        ny += causes[i] == 1;
    }
    c->on_n[slot] = (int8_t) k;
    c->on_ny[slot] = (int8_t) ny;
}

static void off_links(struct cycle_ctx *c, int slot)
{
    if (c->off_n[slot] < 0)
        c->off_n[slot]
            = (int8_t) fixed_off_to_on(c, slot << 1, c->xl, c->off_items[slot]);
}

/* Whether a cycle search follows `node`: a path from the start that leaves
 * its strongly connected component never comes back, and a path to a node
 * inside stays inside, so following only these finds the same cycles in the
 * same order (the pool, at most ~42000 entries a search, never fills). */
static inline bool in_scope(const struct cycle_ctx *c, int node)
{
    if (c->scope < 0)
        return true;
    int id = c->reach->id[node]; /* outside the core: a component of its own */
    return id >= 0 && c->reach->comp[id] == c->scope;
}

static void on_step(struct cycle_ctx *c, int head, int start, bool cycles, bool *done)
{
    int slot = c->pool[head].node >> 1;
    on_links(c, slot);
    int skip = c->y ? 0 : c->on_ny[slot];
    const uint16_t *list = c->on_list[slot] + skip;
    const uint8_t *causes = c->on_cause[slot] + skip;
    int k = c->on_n[slot] - skip;
    for (int i = 0; i < k; i++) {
        bool fresh = cycles ? in_scope(c, list[i]) && !is_ancestor(c, head, list[i])
                            : c->off_stamp[list[i]] != c->search;
        if (!cycles && (list[i] | 1) == start && !*done) {
            *done = true;
            int at = pool_add(c, list[i], head, fresh, causes[i]);
            if (at >= 0)
                forcing_hint(c, at);
            fresh = false;
        }
        if (fresh) {
            c->off_stamp[list[i]] = c->search;
            /* a forcing search needs an "off" potential without links (off
             * the core: most of them) only as its target, just tested: it
             * leads nowhere, and following it would add nothing */
            if (!cycles && !((c->linked[node_cell(list[i])] >> node_value(list[i])) & 1))
                continue;
            pool_add(c, list[i], head, true, causes[i]);
        }
    }
}

static void off_step(
    struct cycle_ctx *c, int head, int start, bool cycles, bool *done, int length)
{
    int slot = c->pool[head].node >> 1;
    off_links(c, slot);
    const struct fixed_item *items = c->off_items[slot];
    int k = c->off_n[slot];
    for (int i = 0; i < k; i++) {
        int on = items[i].node;
        bool fresh = c->on_stamp[on] != c->search && on != start && in_scope(c, on);
        if (cycles && length >= 4 && on == start) {
            int at = pool_add(c, on, head, false, items[i].cause);
            if (at >= 0)
                cycle_hint(c, at);
        }
        if (!cycles && (on & ~1) == start && !*done) {
            *done = true;
            int at = pool_add(c, on, head, fresh, items[i].cause);
            if (at >= 0)
                forcing_hint(c, at);
            if (fresh)
                c->on_at[on] = at, c->on_stamp[on] = c->search;
            fresh = false;
        }
        if (fresh)
            c->on_at[on] = pool_add(c, on, head, true, items[i].cause);
        c->on_stamp[on] = c->search;
    }
}

/* Whether every hint a search can still find is worse than the best one
 * kept: a hint found at breadth-first level `length` has at least `length`
 * distinct potentials (a cycle's path ends on its start, a forcing chain's
 * has one more), and the rating grows with them. Collecting (nested rules)
 * wants every hint. */
static bool beyond_best(const struct cycle_ctx *c, bool cycles, int length)
{
    const struct chain_ctx *x = c->x;
    if (!x->have || x->collect)
        return false;
    int base = cycles ? (c->y && c->xl ? 70 : 65) : (c->y ? 70 : 66);
    int rating = base + length_tenths(length);
    return rating > x->best.rating
        || (rating == x->best.rating && length > x->best.complexity);
}

/* Breadth first from `start`; cycles: every path to an "off" potential is
 * kept (so that loops show up), "on" potentials once. Forcing chains: each
 * potential once, and the first path to the start's opposite is the hint. */
static void unary_search(struct cycle_ctx *c, int start, bool cycles)
{
    c->search++;
    c->npool = 0;
    int head = 0, length = 0;
    bool done = false;
    int root = pool_add(c, start, -1, true, 0);
    c->scope = -1;
    if (cycles && c->reach_ready) /* only core starts pass reach_may */
        c->scope = c->reach->comp[c->reach->id[start]];
    if (node_on(start))
        c->on_at[start] = root, c->on_stamp[start] = c->search;
    else
        c->off_stamp[start] = c->search;
    /* a forcing search has one hint, the first path to the start's
     * opposite: it ends there */
    while (head < c->npool && !done) {
        int level_end = c->npool;
        length++;
        if (beyond_best(c, cycles, length))
            break;
        for (; head < level_end && !done; head++) {
            if (!c->pool[head].live)
                continue;
            if (node_on(c->pool[head].node))
                on_step(c, head, start, cycles, &done);
            else
                off_step(c, head, start, cycles, &done, length);
        }
    }
}

/* ---- which searches of a nested grid can give a hint that counts (see
 * struct reach) ---- */

/* Whether the link into `node` by `cause` has rule parents. */
static bool link_dirty(const struct reach *R, int node, int cause)
{
    if (R->all_dirty)
        return true;
    int cell = node_cell(node);
    if (cause == 1)
        return R->gone_cell[cell] != 0;
    return (R->gone_region[se_cell_region[cell][cause - 2]] >> node_value(node)) & 1;
}

/* The candidates the outer run removed. */
static void reach_init(
    struct reach *R, const struct se_grid *g, const struct se_grid *src)
{
    memset(R->gone_region, 0, sizeof(R->gone_region));
    for (int cell = 0; cell < SE_CELLS; cell++) {
        R->gone_cell[cell] = (uint16_t) (src->cand[cell] & ~g->cand[cell]);
        for (int t = 0; t < 3; t++)
            R->gone_region[se_cell_region[cell][t]] |= R->gone_cell[cell];
    }
}

/* The core: the candidates whose "off" potential has a link (X and Y). */
static void reach_core(struct cycle_ctx *c)
{
    struct reach *R = c->reach;
    memset(R->core_at, 0, sizeof(R->core_at));
    memset(R->core_cell, 0, sizeof(R->core_cell));
    memset(R->id, -1, sizeof(R->id));
    R->n = R->nbits = 0;
    for (int cell = 0; cell < SE_CELLS; cell++)
        for (unsigned m = c->linked[cell]; m; m &= m - 1) {
            int v = __builtin_ctz(m), slot = cell * 9 + v - 1;
            off_links(c, slot); /* reach_graph's */
            R->bit[slot] = (int16_t) R->nbits++;
            R->core_cell[cell] |= (uint16_t) (1u << v);
            for (int t = 0; t < 3; t++) {
                unsigned at = 1u << region_index(cell, t);
                R->core_at[se_cell_region[cell][t]][v] |= (uint16_t) at;
            }
            for (int on = 0; on < 2; on++) {
                R->id[slot << 1 | on] = (int16_t) R->n;
                R->node[R->n++] = (uint16_t) (slot << 1 | on);
            }
        }
}

/* The links of core "on" potential `node` to core potentials, into
 * R->to from `ne` on; returns the new end. They are on_to_off's (with Y
 * links) less the sinks outside the core, in the same order, found from
 * the core's places: most of on_to_off's lead out of the core. */
static int core_on_links(struct reach *R, int node, int ne)
{
    const int cell = node_cell(node), v = node_value(node);
    for (unsigned m = R->core_cell[cell] & ~(1u << v); m; m &= m - 1) {
        const int to = node_of(cell, __builtin_ctz(m), 0);
        R->to[ne] = (uint16_t) R->id[to];
        R->dirty[ne++] = link_dirty(R, to, 1) ? 1 : 0;
    }
    const uint16_t *met = met_places[cell];
    for (int t = 0; t < 3; t++) {
        const int r = se_cell_region[cell][t];
        for (unsigned m = R->core_at[r][v] & ~met[t]; m; m &= m - 1) {
            const int to = node_of(se_region_cell[r][__builtin_ctz(m)], v, 0);
            R->to[ne] = (uint16_t) R->id[to];
            R->dirty[ne++] = link_dirty(R, to, 2 + t) ? 1 : 0;
        }
    }
    return ne;
}

/* The core's links in compressed rows, with each link's dirtiness. */
static void reach_graph(struct cycle_ctx *c)
{
    struct reach *R = c->reach;
    int ne = 0;
    for (int i = 0; i < R->n; i++) {
        int node = R->node[i], slot = node >> 1;
        R->first[i] = ne;
        if (node_on(node)) {
            ne = core_on_links(R, node, ne);
        } else {
            for (int k = 0; k < c->off_n[slot]; k++) {
                const struct fixed_item *it = &c->off_items[slot][k];
                if (R->id[it->node] < 0)
                    continue; /* never: strong links go both ways */
                R->to[ne] = (uint16_t) R->id[it->node];
                R->dirty[ne++] = link_dirty(R, it->node, it->cause) ? 3 : 0;
            }
        }
    }
    R->first[R->n] = ne;
}

/* Pops u's component off Tarjan's stack. */
static void scc_pop(void *ctx, int bottom, int top)
{
    struct reach *R = ctx;
    int done = R->ncomp ? R->comp_end[R->ncomp - 1] : 0;
    for (int i = top - 1; i >= bottom; i--) { /* the order of popping */
        int w = R->stack[i];
        R->comp[w] = (int16_t) R->ncomp;
        R->order[done++] = (uint16_t) w;
    }
    R->comp_end[R->ncomp++] = (int16_t) done;
}

/* The core graph's components and their members (see struct reach). */
static void reach_scc(struct reach *R)
{
    R->ncomp = 0;
    const struct tarjan T = { R->n, R->first, R->first + 1, R->to, NULL, NULL, R->index,
        R->low, R->comp, R->stack, R->frame, R->frame_edge };
    tarjan(&T, scc_pop, R);
}

/* near_hot: from each core candidate whose "off" potential reaches a
 * dirty "on" link (a few), its weak neighbours (the cell's other
 * candidates, the value's other places in its box, row and column) are
 * marked, once a grid, instead of each candidate looking for such a
 * neighbour. */
static void reach_hot(struct cycle_ctx *c)
{
    struct reach *R = c->reach;
    const struct se_grid *g = c->x->grid;
    memset(R->near_hot, 0, sizeof(R->near_hot));
    for (int u = 0; R->any_dirty && u < R->n; u++) {
        int node = R->node[u], cell = node_cell(node), v = node_value(node);
        if (node_on(node) || !R->dirty_any[R->comp[u]])
            continue;
        R->near_hot[cell] |= (uint16_t) (g->cand[cell] & ~(1u << v));
        for (int t = 0; t < 3; t++) {
            const int r = se_cell_region[cell][t];
            for (unsigned m = c->pos[r][v] & ~(1u << region_index(cell, t)); m;
                 m &= m - 1)
                R->near_hot[se_region_cell[r][__builtin_ctz(m)]] |= (uint16_t) (1u << v);
        }
    }
}

/* By component (sinks first, so that a link out leads to one done
 * already): a dirty link inside it (cycles), the core "on" potentials it
 * reaches, and those it reaches through a dirty "on" link: through one
 * inside it, through the link out, or beyond. */
static bool reach_sets(struct reach *R)
{
    int W = R->words = (R->nbits + 63) / 64;
    size_t need = (size_t) R->ncomp * (size_t) W * 2;
    if (need > R->set_cap) {
        uint64_t *set = realloc(R->set, need * sizeof(*set));
        if (!set)
            return false;
        R->set = set;
        R->set_cap = need;
    }
    if (need)
        memset(R->set, 0, need * sizeof(*R->set));
    R->any_dirty = R->any_cycle = false;
    for (int i = 0, k = 0; k < R->ncomp; k++) {
        uint64_t *reach = R->set + (size_t) k * 2 * W, *dirty = reach + W;
        unsigned inside = 0; /* the dirty bits of the links inside it */
        for (; i < R->comp_end[k]; i++) {
            int u = R->order[i], node = R->node[u];
            if (node_on(node)) {
                int b = R->bit[node >> 1];
                reach[b / 64] |= 1ull << (b % 64);
            }
            for (int e = R->first[u]; e < R->first[u + 1]; e++) {
                int y = R->comp[R->to[e]];
                if (y == k) {
                    inside |= R->dirty[e];
                    continue;
                }
                const uint64_t *ry = R->set + (size_t) y * 2 * W;
                for (int w = 0; w < W; w++) {
                    reach[w] |= ry[w];
                    dirty[w] |= ry[W + w] | ((R->dirty[e] & 2) ? ry[w] : 0);
                }
            }
        }
        const bool inner = inside & 2, cycle = inside & 1;
        for (int w = 0; inner && w < W; w++)
            dirty[w] |= reach[w];
        R->cycle_dirty[k] = cycle;
        uint64_t any = 0;
        for (int w = 0; w < W; w++)
            any |= dirty[w];
        R->dirty_any[k] = any != 0;
        R->any_dirty = R->any_dirty || R->dirty_any[k];
        R->any_cycle = R->any_cycle || cycle;
    }
    memset(R->comp_elim, -1, sizeof(*R->comp_elim) * (size_t) R->ncomp);
    return true;
}

/* The digits whose candidates in `cell` start searches in this pass. */
static unsigned search_starts(const struct cycle_ctx *c, int cell)
{
    const struct se_grid *g = c->x->grid;
    int card = se_popcount(g->cand[cell]);
    if (g->value[cell] || card < 2 || (!c->xl && card > 2))
        return 0;
    return g->cand[cell] & (c->y ? SE_ALL : ~c->unchanged);
}

/* Whether a cycle within component k can remove a candidate. A cycle
 * search stays in its start's component (in_scope), and cycle_hint removes
 * v from a cell o only when o has v and sees the cell of an "on" potential
 * of v and that of an "off" potential of v of the cycle: so some cell with
 * v must see one of each among the component's potentials. Most
 * components with a dirty link have none (their cycles remove nothing: on
 * the hardest list, 97% of the nested cycle searches), and their searches,
 * which would offer or collect nothing, are skipped. */
static bool comp_eliminates(const struct cycle_ctx *c, int k)
{
    const struct reach *R = c->reach;
    const struct se_grid *g = c->x->grid;
    uint64_t on[10][2] = { { 0 } }, off[10][2] = { { 0 } };
    unsigned values = 0;
    for (int i = k ? R->comp_end[k - 1] : 0; i < R->comp_end[k]; i++) {
        int node = R->node[R->order[i]], cell = node_cell(node), v = node_value(node);
        uint64_t *seen = node_on(node) ? on[v] : off[v];
        seen[0] |= se_peer_set[cell][0];
        seen[1] |= se_peer_set[cell][1];
        values |= 1u << v;
    }
    for (unsigned m = values; m; m &= m - 1) {
        int v = __builtin_ctz(m);
        for (int w = 0; w < 2; w++)
            for (uint64_t both = on[v][w] & off[v][w]; both; both &= both - 1)
                if (g->cand[w * 64 + __builtin_ctzll(both)] & (1u << v))
                    return true;
    }
    return false;
}

/* Whether the cycle search from "on" (cell, v) can give a hint that
 * counts: its start lies in the core, in a component with a dirty link
 * whose cycles can remove a candidate. This and the other *_may ask the
 * filter (reach_ready): may_starts' */
static bool cycle_may(const struct cycle_ctx *c, int cell, int v)
{
    struct reach *R = c->reach;
    int id = R->id[node_of(cell, v, 1)];
    if (id < 0 || !R->cycle_dirty[R->comp[id]])
        return false;
    int k = R->comp[id];
    if (R->comp_elim[k] < 0)
        R->comp_elim[k] = (int8_t) comp_eliminates(c, k);
    return R->comp_elim[k];
}

/* Component `comp`'s core "on" potentials reached through a dirty "on"
 * link. */
static inline const uint64_t *dirty_reach(const struct reach *R, int comp)
{
    return R->set + ((size_t) comp * 2 + 1) * (size_t) R->words;
}

/* Whether the forcing search from "off" (cell, v) can give a hint that
 * counts: it reaches "on" (cell, v) through a dirty "on" link (outside the
 * core, "off" (cell, v) leads nowhere). */
static bool forcing_off_may(const struct cycle_ctx *c, int cell, int v)
{
    const struct reach *R = c->reach;
    int slot = cell * 9 + v - 1, id = R->id[slot << 1];
    if (id < 0)
        return false;
    return (dirty_reach(R, R->comp[id])[R->bit[slot] / 64] >> (R->bit[slot] % 64)) & 1;
}

/* The core candidates weakly linked to (cell, v): the cell's other values,
 * then v's other places in its box, row and column; their number. */
static int weak_neighbours(const struct reach *R, int cell, int v, int *out)
{
    int n = 0;
    for (unsigned m = R->core_cell[cell] & ~(1u << v); m; m &= m - 1)
        out[n++] = cell * 9 + __builtin_ctz(m) - 1;
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[cell][t];
        unsigned m = R->core_at[r][v] & ~(1u << region_index(cell, t));
        for (; m; m &= m - 1)
            out[n++] = se_region_cell[r][__builtin_ctz(m)] * 9 + v - 1;
    }
    return n;
}

/* Whether `set` holds the bit of one of the n candidates `slots`. */
static inline bool any_bit(
    const uint64_t *set, const int16_t *bit, const int *slots, int n)
{
    for (int i = 0; i < n; i++)
        if ((set[bit[slots[i]] / 64] >> (bit[slots[i]] % 64)) & 1)
            return true;
    return false;
}

/* Whether `set` holds the bit of a core candidate weakly linked to (cell,
 * v): weak_neighbours' candidates, in its order, without listing them. */
static bool neighbour_in(const struct reach *R, int cell, int v, const uint64_t *set)
{
    for (unsigned m = R->core_cell[cell] & ~(1u << v); m; m &= m - 1) {
        const int b = R->bit[cell * 9 + __builtin_ctz(m) - 1];
        if ((set[b / 64] >> (b % 64)) & 1)
            return true;
    }
    for (int t = 0; t < 3; t++) {
        const int r = se_cell_region[cell][t];
        unsigned m = R->core_at[r][v] & ~(1u << region_index(cell, t));
        for (; m; m &= m - 1) {
            const int b = R->bit[se_region_cell[r][__builtin_ctz(m)] * 9 + v - 1];
            if ((set[b / 64] >> (b % 64)) & 1)
                return true;
        }
    }
    return false;
}

/* Whether "on" (cell, v) reaches a dirty "on" link (see struct reach). */
static bool on_reaches_dirty(const struct reach *R, int cell, int v)
{
    int self = R->id[node_of(cell, v, 1)];
    if (self >= 0)
        return R->dirty_any[R->comp[self]];
    /* outside the core: one of its weak neighbours' "off" potentials */
    return (R->near_hot[cell] >> v) & 1;
}

/* Whether the forcing search from "on" (cell, v) can give a hint that
 * counts: it reaches, through a dirty "on" link, the "on" potential of a
 * core candidate weakly linked to (cell, v), whose link then leads to "off"
 * (cell, v) (a chain's last link into "off" is a weak one, and "on"
 * potentials outside the core are led to by none). Outside the core, "on"
 * (cell, v) leads only to the "off" potentials of the candidates weakly
 * linked to it: what it reaches is what theirs reach. */
static bool forcing_on_reaches(const struct reach *R, int cell, int v)
{
    if (!on_reaches_dirty(R, cell, v))
        return false; /* most starts: no set to make */
    const int self = R->id[node_of(cell, v, 1)];
    if (self >= 0) /* no list: the first neighbour found ends it */
        return neighbour_in(R, cell, v, dirty_reach(R, R->comp[self]));
    /* what the neighbours' "off" potentials reach: a set is empty where its
     * component reaches no dirty "on" link (dirty_any is false), so only the
     * few hot neighbours' sets are read */
    int near[32];
    const int n = weak_neighbours(R, cell, v, near);
    uint64_t through[SE_CELLS * 9 / 64 + 1];
    memset(through, 0, sizeof(*through) * (size_t) R->words);
    for (int i = 0; i < n; i++) {
        const int k = R->comp[R->id[near[i] << 1]];
        if (!R->dirty_any[k])
            continue;
        const uint64_t *dirty = dirty_reach(R, k);
        for (int w = 0; w < R->words; w++)
            through[w] |= dirty[w];
    }
    return any_bit(through, R->bit, near, n);
}

/* forcing_on_reaches (none reaches a dirty "on" link: false); may_starts
 * asks it once a grid for each start, so its answer is not kept. */
static bool forcing_on_may(const struct cycle_ctx *c, int cell, int v)
{
    const struct reach *R = c->reach;
    return R->any_dirty && forcing_on_reaches(R, cell, v);
}

/* The filter of all three passes, from the graph with X and Y links: those
 * of the X-only and Y-only passes are part of it, and so are their cycles
 * and chains. Once per grid, it costs less than a filter per pass. */
static void reach_build(struct cycle_ctx *c)
{
    c->y = c->xl = true;
    memset(c->off_n, -1, sizeof(c->off_n));
    reach_core(c);
    reach_graph(c);
    reach_scc(c->reach);
    c->reach_ready = reach_sets(c->reach);
    if (c->reach_ready)
        reach_hot(c);
}

/* The candidates of the cells the passes start from (two candidates or
 * more) whose searches may give a hint, each asked once a grid instead of
 * once a pass: cycle_may, forcing_on_may and forcing_off_may do not depend
 * on the pass, and most starts have none. */
static void may_starts(struct cycle_ctx *c)
{
    const struct se_grid *g = c->x->grid;
    c->nstarts = 0;
    /* no dirty link inside a component: no cycle_may; none reached: no
     * forcing_on_may, and forcing_off_may's set is empty (dirty_any) */
    if (c->reach_ready && !c->reach->any_cycle && !c->reach->any_dirty)
        return;
    const struct reach *R = c->reach;
    for (int cell = 0; cell < SE_CELLS; cell++) {
        if (g->value[cell] || !(g->cand[cell] & (g->cand[cell] - 1)))
            continue;
        /* outside the core (id -1) no cycle_may nor forcing_off_may, and
         * forcing_on_may only with a hot neighbour (near_hot): the other
         * candidates are not asked */
        unsigned asked = g->cand[cell];
        if (c->reach_ready)
            asked &= R->core_cell[cell] | (R->any_dirty ? R->near_hot[cell] : 0);
        for (unsigned m = asked; m; m &= m - 1) {
            const int v = __builtin_ctz(m);
            /* without the filter (no memory) every search may */
            const int may = !c->reach_ready
                ? 7
                : (cycle_may(c, cell, v) | forcing_on_may(c, cell, v) << 1
                    | forcing_off_may(c, cell, v) << 2);
            if (!may)
                continue;
            c->start_slot[c->nstarts] = (uint16_t) (cell * 9 + v - 1);
            c->start_may[c->nstarts++] = (uint8_t) may;
        }
    }
}

static void loops(struct cycle_ctx *c, bool y, bool xl)
{
    if (!c->nstarts)
        return;
    c->y = y;
    c->xl = xl;
    memset(c->off_n, -1, sizeof(c->off_n));
    for (int i = 0; i < c->nstarts; i++) {
        const int cell = c->start_slot[i] / 9, v = c->start_slot[i] % 9 + 1;
        if (!(search_starts(c, cell) & (1u << v)))
            continue;
        const int on = node_of(cell, v, 1), off = node_of(cell, v, 0);
        if (c->start_may[i] & 1)
            unary_search(c, on, true);
        if (xl && (c->start_may[i] & 2))
            unary_search(c, on, false);
        if (xl && (c->start_may[i] & 4))
            unary_search(c, off, false);
    }
}

/* A cycle search's memory (~1 MB), kept by the rater between calls
 * (spare_cycle): a nested search makes thousands, and allocating and
 * clearing it each time was ~4% of a hardest-list rating. Its stamps stay
 * valid across calls, as the search numbers go on growing. */
static void cycle_ctx_free(struct cycle_ctx *c)
{
    if (!c)
        return;
    free(c->pool);
    if (c->reach)
        free(c->reach->set);
    free(c->reach);
    free(c);
}

static struct cycle_ctx *cycle_ctx_take(struct se_chains_memo *m)
{
    struct cycle_ctx *c = m->spare_cycle;
    m->spare_cycle = NULL;
    if (!c) {
        c = malloc(sizeof(*c));
        if (!c)
            return NULL;
        c->cap = 1 << 16;
        c->pool = malloc(sizeof(struct path) * (size_t) c->cap);
        c->reach = malloc(sizeof(*c->reach));
        if (!c->pool || !c->reach) {
            free(c->pool);
            free(c->reach);
            free(c);
            return NULL;
        }
        c->reach->set = NULL;
        c->reach->set_cap = 0;
        c->search = 1u << 31; /* the stamps are cleared below */
    }
    if (c->search >= 1u << 31) { /* a call makes < 10,000 searches */
        c->search = 0;
        memset(c->on_stamp, 0, sizeof(c->on_stamp));
        memset(c->off_stamp, 0, sizeof(c->off_stamp));
    }
    return c;
}

static void spare_cycle_drop(struct se_chains_memo *m)
{
    cycle_ctx_free(m->spare_cycle);
    m->spare_cycle = NULL;
}

static void cycle_ctx_give_back(struct se_chains_memo *m, struct cycle_ctx *c)
{
    if (m->spare_cycle)
        cycle_ctx_free(c);
    else
        m->spare_cycle = c;
}

static void cycles_producer(struct chain_ctx *x)
{
    struct x_memo *const x_memo = &x->rt->chains->x_memo;
    struct cycle_ctx *c = cycle_ctx_take(x->rt->chains);
    if (!c)
        return;
    c->x = x;
    memset(c->on_n, -1, sizeof(c->on_n));
    conj_init(c);
    c->unchanged = 0;
    const bool nested = x->collect && x->src;
    reach_init(c->reach, x->grid, nested ? x->src : x->grid);
    c->reach->all_dirty = !nested;
    if (x->collect && x->src) {
        unsigned gone = 0;
        for (int cell = 0; cell < SE_CELLS; cell++)
            gone |= x->src->cand[cell] & ~x->grid->cand[cell];
        c->unchanged = SE_ALL & ~gone;
    }
    reach_build(c);
    uint64_t cells[10][2];
    if (!x->collect) {
        se_value_cells(x->grid, cells);
        for (int v = 1; v <= 9; v++)
            if (x_memo->empty[v] && x_memo->cells[v][0] == cells[v][0]
                && x_memo->cells[v][1] == cells[v][1])
                c->unchanged |= 1u << v;
    }
    may_starts(c);
    loops(c, false, true);
    loops(c, true, false);
    loops(c, true, true);
    if (!x->collect && !x->have)
        for (int v = 1; v <= 9; v++) {
            memcpy(x_memo->cells[v], cells[v], sizeof(cells[v]));
            x_memo->empty[v] = true;
        }
    cycle_ctx_give_back(x->rt->chains, c);
}

/* The cells of each value and those that start runs (two candidates or
 * more) in Nishio's search of g. */
static void nishio_sets(
    const struct se_grid *g, uint64_t cells[10][2], uint64_t runs[10][2])
{
    uint64_t multi[2] = { 0, 0 };
    for (int c = 0; c < SE_CELLS; c++)
        if (!g->value[c] && se_popcount(g->cand[c]) > 1)
            multi[c >> 6] |= 1ull << (c & 63);
    se_value_cells(g, cells);
    for (int v = 1; v <= 9; v++)
        for (int w = 0; w < 2; w++)
            runs[v][w] = cells[v][w] & multi[w];
}

static bool nishio_same(const struct nishio_memo *nishio_memo,
    const uint64_t cells[10][2], const uint64_t runs[10][2], int v)
{
    return nishio_memo->empty[v]
        && !memcmp(nishio_memo->cells[v], cells[v], sizeof(cells[v]))
        && !memcmp(nishio_memo->runs[v], runs[v], sizeof(runs[v]));
}

static void cells_producer(struct chain_ctx *x);

/* Cell and region forcing chains, Nishio and dynamic chains. */
static void multiple_producer(struct chain_ctx *x)
{
    if (x->kind != SE_CH_NISHIO || x->level != 0 || x->collect) {
        cells_producer(x);
        return;
    }
    struct nishio_memo *const nishio_memo = &x->rt->chains->nishio_memo;
    uint64_t cells[10][2], runs[10][2];
    nishio_sets(x->grid, cells, runs);
    for (int v = 1; v <= 9; v++)
        if (nishio_same(nishio_memo, cells, runs, v))
            x->nishio_skip |= 1u << v;
    cells_producer(x);
    /* a search cut short by the clock or memory proves nothing */
    if (x->run_failed || se_deadline_passed(x->rt))
        return;
    for (int v = 1; v <= 9; v++) {
        if ((x->nishio_skip >> v) & 1)
            continue;
        memcpy(nishio_memo->cells[v], cells[v], sizeof(cells[v]));
        memcpy(nishio_memo->runs[v], runs[v], sizeof(runs[v]));
        nishio_memo->empty[v] = !((x->nishio_absurd >> v) & 1);
    }
}

static void cells_producer(struct chain_ctx *x)
{
    x->off_run = run_alloc(x->rt->chains);
    const bool filtered = filter_begin(x), implied = !filtered && implied_begin(x);
    x->run_failed = !x->off_run;
    for (int cell = 0; x->off_run && cell < SE_CELLS; cell++) {
        int card = se_popcount(x->grid->cand[cell]);
        if (x->grid->value[cell] || !(card > 2 || (card > 1 && x->dynamic)))
            continue;
        if (filtered)
            cell_chains_filtered(x, cell);
        else if (implied)
            cell_chains_implied(x, cell);
        else
            cell_chains(x, cell);
    }
    if (filtered)
        filter_end(x);
    implied_end(x);
    run_free(x->rt->chains, x->off_run);
    x->off_run = NULL;
    for (int i = 0; i < SE_CELLS * 9; i++) {
        run_free(x->rt->chains, x->on_runs[i]);
        x->on_runs[i] = NULL;
    }
}

/* ---- nested multiple chains (level 3) ----
 *
 * A cell or region chain's hints count only with rule parents (run_parents):
 * its assumptions' cause (the cell lost a candidate, or the region a place
 * of the digit) or an "on" potential of its runs reached by a dirty link.
 * A non-dynamic run on a grid holds only potentials its start reaches in
 * the grid's link graph (X and Y links, as the core filter's), and each
 * "on" potential was reached by a link of the graph with the cause it
 * keeps; so a chain none of whose starts reaches a dirty "on" link, and
 * whose cause is clean, has no hint that counts. Those chains are skipped
 * and their runs not made (most cells of a stall grid lost nothing); the
 * others give their hints in cell_chains' order. Hints without parents
 * change nothing in nested_chains, and the list's order is a total one
 * (nested_cmp), so the same hints count in the same order. */

/* Which chains of the grid can give a hint that counts. */
struct chains_wanted {
    bool cell[SE_CELLS];
    uint16_t region[27]; /* by region: the digits */
};

static bool chains_wanted_of(struct chain_ctx *x, struct chains_wanted *want)
{
    struct cycle_ctx *c = cycle_ctx_take(x->rt->chains);
    if (!c)
        return false;
    const struct se_grid *g = x->grid;
    c->x = x;
    memset(c->on_n, -1, sizeof(c->on_n));
    conj_init(c);
    struct reach *R = c->reach;
    reach_init(R, g, x->src);
    R->all_dirty = false;
    reach_build(c);
    bool ready = c->reach_ready;
    for (int cell = 0; ready && cell < SE_CELLS; cell++)
        want->cell[cell] = R->gone_cell[cell] != 0;
    for (int r = 0; ready && r < 27; r++)
        want->region[r] = R->gone_region[r];
    for (int cell = 0; ready && cell < SE_CELLS; cell++)
        for (unsigned m = se_popcount(g->cand[cell]) > 1 ? g->cand[cell] : 0; m;
             m &= m - 1) {
            int v = __builtin_ctz(m);
            if (!on_reaches_dirty(R, cell, v))
                continue;
            want->cell[cell] = true;
            for (int t = 0; t < 3; t++)
                want->region[se_cell_region[cell][t]] |= (uint16_t) (1u << v);
        }
    cycle_ctx_give_back(x->rt->chains, c);
    return ready;
}

/* common_hints of the runs of "digits[i] in cells[i]"; with the reach of
 * every potential (filter_begin), only when their sets can share a
 * potential (common_filtered). The nested grid's runs are non-dynamic and
 * of level 0 (no rules), so they follow the one link graph ra_graph walks,
 * as cells_producer's at level 0: a group whose reaches share nothing has
 * no potential in all its runs, and common_hints would push no hint. The
 * groups that remain give theirs in the same order. False: a run could
 * not be made. */
static bool wanted_group(struct chain_ctx *x, const uint8_t *cells, const uint8_t *digits,
    int n, int cell, int sort_key, int root_cause)
{
    if (x->reach_all)
        return common_filtered(x, cells, digits, n, cell, sort_key, root_cause);
    struct run *runs[9];
    for (int i = 0; i < n; i++)
        if (!(runs[i] = on_run(x, cells[i], digits[i])))
            return false;
    common_hints(x, runs, n, cell, sort_key, root_cause);
    return true;
}

/* cell_chains and region_hints of a non-dynamic collecting search, for the
 * chains `want` keeps. */
static void wanted_cell_chains(
    struct chain_ctx *x, int cell, const struct chains_wanted *want)
{
    const struct se_grid *g = x->grid;
    uint8_t cells[9], digits[9];
    int k = 0;
    for (unsigned vm = g->cand[cell]; vm; vm &= vm - 1) {
        int v = __builtin_ctz(vm);
        for (int t = 0; t < 3; t++) {
            int r = se_cell_region[cell][t];
            unsigned m = grid_places(x, r, v);
            if (!(m & (m - 1)) || se_region_cell[r][__builtin_ctz(m)] != cell
                || !(want->region[r] >> v & 1))
                continue;
            uint8_t places[9], same[9];
            int n = 0;
            for (; m; m &= m - 1) {
                places[n] = (uint8_t) se_region_cell[r][__builtin_ctz(m)];
                same[n++] = (uint8_t) v;
            }
            if (!wanted_group(x, places, same, n, cell, 6, 2 + t))
                return;
        }
        cells[k] = (uint8_t) cell;
        digits[k++] = (uint8_t) v;
    }
    if (want->cell[cell])
        wanted_group(x, cells, digits, k, cell, 5, 1);
}

/* The multiple chains of a nested grid (see above). */
static void nested_multiple(struct chain_ctx *x)
{
    struct chains_wanted want;
    if (!chains_wanted_of(x, &want)) {
        multiple_producer(x);
        return;
    }
    const bool filtered = filter_begin(x);
    for (int cell = 0; cell < SE_CELLS; cell++)
        if (!x->grid->value[cell] && se_popcount(x->grid->cand[cell]) > 2)
            wanted_cell_chains(x, cell, &want);
    if (filtered)
        filter_end(x);
    for (int i = 0; i < SE_CELLS * 9; i++) {
        run_free(x->rt->chains, x->on_runs[i]);
        x->on_runs[i] = NULL;
    }
}

bool se_chains(struct se_rater *rt, const struct se_grid *g, enum se_chain_kind kind,
    int level, struct se_step *s)
{
    if (level >= 4)
        return false;
    struct chain_ctx *x = ctx_take(rt, &rt->chains->spare_top);
    if (!x)
        return false;
    x->grid = g;
    x->kind = kind;
    x->level = level;
    x->dynamic = kind == SE_CH_NISHIO || kind == SE_CH_DYNAMIC;
    x->y_links = kind != SE_CH_NISHIO;
    x->multiple = kind == SE_CH_MULTIPLE || kind == SE_CH_DYNAMIC;
    if (level >= 2)
        x->memo = memo_for(rt->chains, g, level);
    if (kind == SE_CH_DYNAMIC)
        snaps_begin(x, g, level);
    if (kind == SE_CH_CYCLES)
        cycles_producer(x);
    else
        multiple_producer(x);
    if (kind == SE_CH_DYNAMIC)
        snaps_end(x);
    bool found = x->have;
    if (found)
        *s = x->best;
    if (level >= 3)
        memo_drop(rt->chains); /* the last nested level of the step */
    ctx_give_back(&rt->chains->spare_top, x);
    return found;
}
