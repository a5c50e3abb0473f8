/* Sudoku Explainer's chains, shared by the chain searches' files
 * (se_chain_runs.c, se_chain_forcing.c, se_chain_cycles.c, se_chains.c); not
 * part of the library's interface (see rater/se_rate.h).
 *
 * A potential is (cell, value, on/off); an implication run starts from assumed potentials
 * and adds, breadth first with "on" potentials before "off" ones, what they force: an
 * "on" value turns off the cell's other values and its peers' copies; an "off" value
 * turns on the cell's last value and the region's last place. Each potential keeps the
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
 * forcing chains (level 2), then cell and region chains (level 3), or, at
 * level 4, dynamic chains of a lower level (SE's "nesting limit": 0, 1, 2
 * then 3, whose level-2 and level-3 chains nest their own searches in turn),
 * but keep only those with rule parents in the run: most of the searches could not
 * give one. A filter from the core of the grid's link graph (struct reach:
 * the candidates in strong links, their strongly connected components and
 * reach through "dirty" links) skips them beforehand, a cycle search follows
 * only its start's component, and a level-3 search makes only the chains
 * whose starts reach a dirty link (nested_multiple); all are exact (the same
 * hints that count, in the same order). The nested hints of a stall grid
 * are kept for the later steps (struct memo_store), and each dynamic level goes on
 * from the runs of the level before (struct snap) instead of redoing them,
 * as levels 0 and 1 take from the step before the runs its removals left
 * alone.
 * The filters keep only the searches that could give a hint that counts,
 * and the memos and spares keep what a search would otherwise make again:
 * on the hardest puzzles the nested searches are most of the work. */
#ifndef SUDOLAB_RATER_SE_CHAINS_H
#define SUDOLAB_RATER_SE_CHAINS_H

#include <stdbool.h>
#include <stdint.h>

#include "rater/se_internal.h"

#define NODES (SE_CELLS * 9 * 2)
#define ARENA 24000
_Static_assert(ARENA <= 65535, "a run keeps arena offsets in 16 bits");

static inline int node_of(int cell, int v, int on)
{
    return ((cell * 9 + v - 1) << 1) | on;
}
/* A potential's cell and value by table: the runs ask them for every
 * potential, and a lookup is cheaper than the divisions by 9. */
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
     * touches as few pages as it can (a new run faults in each one) */
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
    uint8_t virt_cause; /* as ref[].cause, for an "on" virt */
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

/* The rules a stalled run tries (see stall_rules): the "+" rules, then the
 * nested searches of a stall grid: cycles and forcing chains, cell and
 * region chains, or (level 4) dynamic chains of level RULE_DYNAMIC - rule. */
enum { RULE_PLUS = 1, RULE_CYCLES = 2, RULE_MULTIPLE = 3, RULE_DYNAMIC = 4 };

/* The nested hints of one reduced grid (see nested_hints). */
struct nested_memo {
    uint16_t cand[SE_CELLS];
    int rule; /* which nested search made them */
    struct nested_list list;
};
#define MEMO_SLOTS 8192 /* to start with: the table doubles when half full */
/* The cap of one rater's memo (its table and lists, as allocated): a rater
 * serves one thread, so `rate -j N` holds at most N of them. Past it the
 * nested searches are made again instead of kept: slower, never wrong. */
#define MEMO_BYTES ((size_t) 64 << 20)

/* The nested hints of the grids that the runs of the nested searches
 * stalled on. A grid's list depends on the grid and on the start grid of
 * the search (`src`, the step's grid) only: nested_list_of reads nothing
 * else. Levels 2 and 3 of one step start from the same grid, and a level-3
 * run is the level-2 run until level 2's rules stall, so level 3 meets most
 * of level 2's grids again; a later step's grid lies within this one, and
 * its runs meet some of them again too (see se_memo_for). So the store
 * outlives a search (in the rater) and serves the next while the step's
 * grid lies within `src`. */
struct memo_store {
    uint16_t src[SE_CELLS];
    int level; /* of the search that started it */
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
    /* see se_ctx_take: by depth of nesting, and for se_chains */
    struct chain_ctx *spare_nested[2], *spare_top;
    /* level 0's and level 1's, which serve the next level and the next
     * step's search of their level, and level 2's */
    struct snap_store *snap_level0, *snap_level1, *snap_last;
    struct run *spare_runs[SPARE_RUNS];
    int nspare_runs;
    /* see cycle_ctx_take */
    struct cycle_ctx *spare_cycle;
    /* the nested cycle searches' pre-test of their start grid (see
     * step_rules_out), kept while that grid stays */
    struct step_pretest *step_pretest;
    struct x_memo x_memo;
    struct nishio_memo nishio_memo;
};

struct chain_ctx;
/* The searches of a nested grid (se_chains.c: cycles and forcing chains,
 * cell and region chains, or dynamic chains, by `rule`), which the runs'
 * nested rules call back through the context, as the runs sit below the
 * producers. */
typedef void se_nested_search_fn(struct chain_ctx *n, int rule);

struct chain_ctx {
    struct se_rater *rt; /* whose memory this search uses */
    se_nested_search_fn *nested_search;
    const struct se_grid *grid;
    uint16_t pos0[27][10]; /* the places of grid (see region_places): every run starts
                              there, */
    bool have_pos0; /* made on first use */
    enum se_chain_kind kind;
    int level;
    /* level 4: the level of the dynamic chains nested in its runs (SE's
     * "nesting limit") */
    int nest_limit;
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
    /* levels 0 and 1: the runs of an earlier step's search of the level */
    struct snap_store *earlier;
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

/* SE's length increment in tenths for a complexity. */
static inline int length_tenths(int complexity)
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

static inline void places_of(const struct se_grid *g, region_places pos)
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
static inline int on_to_off(const struct se_grid *g, const region_places pos, int p,
    bool y, int *out, uint8_t *cause)
{
    int c = node_cell(p), v = node_value(p), n = 0;
    /* the loops run for a count read from se_size_of: ended by m alone, GCC
     * works out n's final value with a popcount, a library call without
     * -mpopcnt */
    if (y) { /* the cell's other values, in increasing order */
        unsigned m = g->cand[c] & SE_ALL & ~(1u << v);
        for (int k = se_size_of[m]; k > 0; k--, m &= m - 1) {
            cause[n] = 1;
            out[n++] = node_of(c, __builtin_ctz(m), 0);
        }
    }
    const uint16_t *met = met_places[c];
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[c][t];
        unsigned m = pos[r][v] & ~met[t];
        for (int k = se_size_of[m]; k > 0; k--, m &= m - 1) {
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

/* ---- se_chain_runs.c: runs, their parents and hints ---- */

/* The number of distinct potentials behind a potential of run r (its
 * ancestors, counted with x's stamps), and behind r's contradiction. */
int se_anc_stored(struct chain_ctx *x, const struct run *r, int node);
int se_anc_absurd(struct chain_ctx *x, const struct run *r);
/* A conclusion on `target`: off = the value goes, on = the others go. */
void se_conclude(const struct se_grid *g, int target, struct se_step *s);
/* Offers a hint; keeps the easiest, then the shortest, then by kind order. */
void se_offer(struct chain_ctx *x, const struct se_step *s, int sort_key);
/* A nested chain counts once in a hint that holds it more than once (SE's
 * FullChain): two chains are the same when they have the same targets, in
 * order, and behind each target the same potentials. The key folds each
 * target with the sum of chain_mix over the potentials behind it (the
 * target included): a sum, as the walks that find them go in other orders
 * than SE's lists (which it compares in order: two chains of the same
 * potentials found in another order are one here, two for SE; no such pair
 * has been met). Start from CHAIN_KEY_START. */
#define CHAIN_KEY_START 2166136261u
static inline uint32_t chain_mix(int node)
{
    uint32_t h = (uint32_t) (node + 1) * 0x9e3779b1u;
    h ^= h >> 15;
    h *= 0x85ebca77u;
    return h ^ (h >> 13);
}
static inline uint32_t chain_key_target(uint32_t key, int target, uint32_t behind)
{
    key = (key ^ chain_mix(target)) * 16777619u;
    return (key ^ behind ^ (behind >> 16)) * 16777619u;
}
/* Adds a useful hint to the list x collects (nested searches), with its rule
 * parents, its sort key and its chain's key (chain_key_target). */
void se_collect_push(struct chain_ctx *x, const struct se_step *s, int sort_key,
    const uint16_t *parents, uint32_t chain);
/* A context from the rater's spare (cleared up to `stamp`), or a new one;
 * given back to the spare, or freed when the spare is taken. */
struct chain_ctx *se_ctx_take(struct se_rater *rt, struct chain_ctx **spare);
void se_ctx_give_back(struct chain_ctx **spare, struct chain_ctx *n);
void se_spare_ctx_drop(struct se_chains_memo *m);
/* The memo of the nested searches from g: level 2 starts a new one, level 3
 * takes level 2's when it was made from the same grid (NULL without
 * memory: no memo); se_memo_drop frees it. */
struct memo_store *se_memo_for(
    struct se_chains_memo *mem, const struct se_grid *g, int level);
void se_memo_drop(struct se_chains_memo *mem);
/* The "off" potentials that "on" p forces on g, a run's grid (on_to_off);
 * at level 0 made once per potential of the search's grid. */
const uint16_t *se_on_offs(struct chain_ctx *x, const struct se_grid *g,
    const region_places pos, int p, uint16_t *buf, int *n);
/* Run r from `node` on the search's grid: restored from the level before
 * (and gone on with from its stall) when it kept it, else made whole; kept
 * for the next level when the search saves its runs. */
void se_start_run(struct chain_ctx *x, struct run *r, int node);
/* The run of "v is in cell", made on first use (NULL without memory). */
struct run *se_on_run(struct chain_ctx *x, int cell, int v);
/* A run from the rater's spares (see SPARE_RUNS), else a new one; back to
 * the spares, or freed when they are full. */
struct run *se_run_alloc(struct se_chains_memo *m);
void se_run_free(struct se_chains_memo *m, struct run *r);
/* A dynamic search of `level` on g: the runs of level - 1 on g to go on
 * from, and a store for this level's (none for level 3, the last);
 * se_snaps_end keeps this level's for the next. */
void se_snaps_begin(struct chain_ctx *x, const struct se_grid *g, int level);
void se_snaps_end(struct chain_ctx *x);
void se_snap_store_free(struct snap_store *st);
/* Tarjan's depth-first search from `root` (not visited yet), without
 * recursion: every component it reaches is completed and popped, so the
 * stack is empty again at its end. `counter`: the visiting order so far. */
void se_tarjan_root(
    const struct tarjan *T, int root, int *counter, tarjan_pop_fn *pop, void *ctx);
/* Tarjan's strongly connected components of the whole graph. */
void se_tarjan(const struct tarjan *T, tarjan_pop_fn *pop, void *ctx);

/* ---- se_chain_forcing.c: cell and region chains, Nishio, dynamic ---- */

/* The hints of the runs from each value of `cell`: binary ones (a
 * contradiction, or both ways of a value agreeing; dynamic kinds), region
 * chains (not Nishio) and cell chains; with the filter of the multiple kind
 * (filter_begin) or of Nishio and dynamic chains at level 0 (implied_begin), only the
 * detailed runs that can give a hint: the same hints, in the same order. */
void se_cell_chains(struct chain_ctx *x, int cell);
void se_cell_chains_filtered(struct chain_ctx *x, int cell);
void se_cell_chains_implied(struct chain_ctx *x, int cell);
/* The reach of every potential for se_cell_chains_filtered, or false (then
 * the search runs without); se_filter_end frees it. */
bool se_filter_begin(struct chain_ctx *x);
void se_filter_end(struct chain_ctx *x);
/* The tables of se_cell_chains_implied, or false (then the search runs
 * without); se_implied_end frees them. */
bool se_implied_begin(struct chain_ctx *x);
void se_implied_end(struct chain_ctx *x);
/* Hints from what all of `runs` (one per value of a cell, or per place of a
 * value in a region) have in common. */
void se_common_hints(struct chain_ctx *x, struct run **runs, int nruns, int cell,
    int sort_key, int root_cause);
/* se_common_hints of the runs of "digits[i] in cells[i]" when their reach
 * sets can share a potential; false without memory. */
bool se_common_filtered(struct chain_ctx *x, const uint8_t *cells, const uint8_t *digits,
    int n, int cell, int sort_key, int root_cause);
/* Which groups of a nested grid can give a hint that counts: by cell, its
 * candidates' (cell chains); by region, the digits whose places' (region
 * chains). */
struct chains_wanted {
    bool cell[SE_CELLS];
    uint16_t region[27];
};
/* With the filter of a nested search (se_filter_begin, x->collect), the
 * groups whose chains can have rule parents: their assumptions' cause has
 * them (the outer run took a candidate of the cell, or a place of the digit
 * in the region, out of x->src), or the "on" potential of one of them (in
 * a cell with two candidates or more) reaches a dirty "on" link, one with
 * such a cause. */
void se_chains_wanted(struct chain_ctx *x, struct chains_wanted *want);
/* The region chains of v from `cell` (own: the run of v in cell). */
void se_region_hints(struct chain_ctx *x, int cell, int v, struct run *own);
/* Rule parents of a nested cell or region forcing chain: along every chain
 * to `target`; the assumptions count as `root_cause`. Returns the sum of
 * chain_mix over the potentials behind `target` (itself included). */
uint32_t se_run_parents(struct chain_ctx *x, const struct run *r, int target,
    int root_cause, uint16_t *parents);
/* The places of v in region r of the search's grid (pos0, made on first
 * use). */
unsigned se_grid_places(struct chain_ctx *x, int r, int v);

/* ---- se_chain_cycles.c: cycles and X/Y forcing chains ---- */

/* SE's first chaining producer (cycles, then X and Y forcing chains) on
 * x's grid; nested (x->collect), only the searches that can give a hint
 * that counts. */
void se_cycles_producer(struct chain_ctx *x);
void se_spare_cycle_drop(struct se_chains_memo *m);

#endif /* SUDOLAB_RATER_SE_CHAINS_H */
