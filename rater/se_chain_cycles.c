/* Sudoku Explainer's first chaining producer (rater/se_chains.h): cycles
 * and X/Y forcing chains, and the filter that keeps a nested grid's
 * searches to those that can give a hint that counts. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rater/se_chains.h"

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
    /* when the core's candidates fit one word (most grids; see
     * forcing_on_reaches), by cell and by region and digit: the bits of the
     * core candidates there (near_*), and what their "off" potentials reach
     * through a dirty "on" link (through_*), made once a grid */
    uint64_t near_cell[SE_CELLS], through_cell[SE_CELLS];
    uint64_t near_at[27][10], through_at[27][10];
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

/* The distinct potentials of the path to `at`, and (each when set) the
 * sums of chain_mix over them (behind) and over their opposites (flipped). */
static int chain_nodes(struct chain_ctx *x, const struct cycle_ctx *c, int at,
    uint32_t *behind, uint32_t *flipped)
{
    uint32_t st = ++x->stamp;
    int n = 0;
    for (int p = at; p >= 0; p = c->pool[p].parent)
        if (x->seen[c->pool[p].node] != st) {
            x->seen[c->pool[p].node] = st;
            n++;
            if (behind)
                *behind += chain_mix(c->pool[p].node);
            if (flipped)
                *flipped += chain_mix(c->pool[p].node ^ 1);
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
    uint32_t behind = 0, flipped = 0;
    int complexity = chain_nodes(
        x, c, at, x->collect ? &behind : NULL, x->collect ? &flipped : NULL);
    se_step_clear(&s, SE_cycle, (c->y && c->xl ? 70 : 65) + length_tenths(complexity));
    s.complexity = complexity;
    s.cells[s.ncells++] = (uint8_t) node_cell(c->pool[at].node);
    for (int o = 0; o < SE_CELLS; o++)
        s.elim[o] = fw[o] & bw[o];
    int sort_key = c->y && c->xl ? 4 : (c->y ? 3 : 2);
    if (x->collect) {
        uint16_t parents[SE_CELLS] = { 0 };
        path_parents(c, at, true, parents);
        /* SE's targets: the loop's end (its start, "on"), then the start
         * "off", the end of the same loop the other way round */
        int start = c->pool[at].node;
        uint32_t key = chain_key_target(CHAIN_KEY_START, start, behind);
        se_collect_push(
            x, &s, sort_key, parents, chain_key_target(key, start ^ 1, flipped));
        return;
    }
    se_offer(x, &s, sort_key);
}

static void forcing_hint(struct cycle_ctx *c, int at)
{
    struct chain_ctx *x = c->x;
    struct se_step s;
    uint32_t behind = 0;
    int complexity = chain_nodes(x, c, at, x->collect ? &behind : NULL, NULL);
    se_step_clear(&s, SE_forcing_chain, (c->y ? 70 : 66) + length_tenths(complexity));
    s.complexity = complexity;
    s.cells[s.ncells++] = (uint8_t) node_cell(c->pool[at].node);
    se_conclude(x->grid, c->pool[at].node, &s);
    if (x->collect) {
        uint16_t parents[SE_CELLS] = { 0 };
        path_parents(c, at, false, parents);
        uint32_t key = chain_key_target(CHAIN_KEY_START, c->pool[at].node, behind);
        se_collect_push(x, &s, c->y ? 4 : 2, parents, key);
        return;
    }
    se_offer(x, &s, c->y ? 4 : 2);
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
    se_tarjan(&T, scc_pop, R);
}

/* Component `comp`'s core "on" potentials reached through a dirty "on"
 * link. */
static inline const uint64_t *dirty_reach(const struct reach *R, int comp)
{
    return R->set + ((size_t) comp * 2 + 1) * (size_t) R->words;
}

/* near_* and through_* of a one-word grid (see struct reach). */
static void reach_near_one_word(struct reach *R)
{
    memset(R->near_cell, 0, sizeof(R->near_cell));
    memset(R->through_cell, 0, sizeof(R->through_cell));
    memset(R->near_at, 0, sizeof(R->near_at));
    memset(R->through_at, 0, sizeof(R->through_at));
    for (int cell = 0; cell < SE_CELLS; cell++)
        for (unsigned m = R->core_cell[cell]; m; m &= m - 1) {
            const int v = __builtin_ctz(m), slot = cell * 9 + v - 1;
            const int k = R->comp[R->id[slot << 1]];
            const uint64_t bit = 1ull << R->bit[slot];
            const uint64_t through = R->dirty_any[k] ? dirty_reach(R, k)[0] : 0;
            R->near_cell[cell] |= bit;
            R->through_cell[cell] |= through;
            for (int t = 0; t < 3; t++) {
                const int r = se_cell_region[cell][t];
                R->near_at[r][v] |= bit;
                R->through_at[r][v] |= through;
            }
        }
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
    if (R->words == 1 && R->any_dirty)
        reach_near_one_word(R);
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

/* Makes *set hold at least `need` words (its capacity in *cap); false
 * without memory (the set is left as it was). */
static bool words_reserve(uint64_t **set, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    uint64_t *bigger = realloc(*set, need * sizeof(*bigger));
    if (!bigger)
        return false;
    *set = bigger;
    *cap = need;
    return true;
}

/* By component (sinks first, so that a link out leads to one done
 * already): a dirty link inside it (cycles), the core "on" potentials it
 * reaches, and those it reaches through a dirty "on" link: through one
 * inside it, through the link out, or beyond. */
static bool reach_sets(struct reach *R)
{
    int W = R->words = (R->nbits + 63) / 64;
    size_t need = (size_t) R->ncomp * (size_t) W * 2;
    if (!words_reserve(&R->set, &R->set_cap, need))
        return false;
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
 * components with a dirty link have none (their cycles remove nothing),
 * and their searches, which would offer or collect nothing, are skipped. */
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

/* The bits of the core candidates weakly linked to (cell, v) in a
 * one-word grid, and (through) what their "off" potentials reach through a
 * dirty "on" link: the cell's and the three regions' sets (see struct
 * reach), less (cell, v) itself when it is in the core. */
static uint64_t neighbours_one_word(
    const struct reach *R, int cell, int v, uint64_t *through)
{
    const int r0 = se_cell_region[cell][0], r1 = se_cell_region[cell][1],
              r2 = se_cell_region[cell][2];
    uint64_t near
        = R->near_cell[cell] | R->near_at[r0][v] | R->near_at[r1][v] | R->near_at[r2][v];
    if (through)
        *through = R->through_cell[cell] | R->through_at[r0][v] | R->through_at[r1][v]
            | R->through_at[r2][v];
    return near;
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
    if (self >= 0 && R->words == 1) {
        const uint64_t near
            = neighbours_one_word(R, cell, v, NULL) & ~(1ull << R->bit[cell * 9 + v - 1]);
        return (near & dirty_reach(R, R->comp[self])[0]) != 0;
    }
    if (self >= 0) /* no list: the first neighbour found ends it */
        return neighbour_in(R, cell, v, dirty_reach(R, R->comp[self]));
    /* what the neighbours' "off" potentials reach: a set is empty where its
     * component reaches no dirty "on" link (dirty_any is false), so only the
     * few hot neighbours' sets are read */
    if (R->words == 1) {
        uint64_t through;
        return (neighbours_one_word(R, cell, v, &through) & through) != 0;
    }
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

/* Whether the core can hold a dirty link (see link_dirty): both ends of a
 * link are core candidates, of one cell (dirty when the cell lost a
 * candidate) or of one digit in a region (when the region lost a place of
 * it). Without one no component has a dirty link inside and none reaches a
 * dirty "on" link, so no search may give a hint that counts (may_starts
 * would list none) and the filter is not built. */
static bool dirty_possible(const struct cycle_ctx *c)
{
    const struct reach *R = c->reach;
    for (int cell = 0; cell < SE_CELLS; cell++)
        if (R->gone_cell[cell] && (c->linked[cell] & (c->linked[cell] - 1)))
            return true;
    for (int r = 0; r < 27; r++)
        for (unsigned m = R->gone_region[r]; m; m &= m - 1) {
            const int v = __builtin_ctz(m);
            int n = 0;
            for (int i = 0; i < 9 && n < 2; i++)
                n += (c->linked[se_region_cell[r][i]] >> v) & 1;
            if (n == 2)
                return true;
        }
    return false;
}

/* ---- a pre-test of the filter from the search's start grid (struct
 * step_pretest) ---- */

/* A nested grid S lies within the outer run's start grid G (`src`): S's
 * candidates are G's less some, so S's weak links are among G's, and a
 * strong link of S is one of G's or a dirty one (a cell that became bivalue,
 * or a digit that became bilocal in a region, by the removals; struct reach
 * calls these dirty "on" links). So the graph H of G's links and S's dirty
 * strong links holds S's graph: what S reaches H reaches, and S's
 * components lie within H's. A search of S counts only through a dirty
 * link (struct reach): a forcing chain from a start p to its opposite
 * through a dirty strong link, or a cycle in a component with a dirty link
 * that can remove a candidate of S (comp_eliminates). A component of H
 * with no dirty strong link inside is one of G's (its links are G's), so
 * when no component of G with a cycle can remove a candidate of G (most
 * start grids: a search of G would have rated that cycle), only the
 * components of H through S's dirty strong links are left. A walk of H
 * goes on from dirty link j to dirty link k when G leads j's head to k's
 * tail (which tails each head reaches, closed: the links' own graph, its
 * components taken in an order where each comes after those that lead to
 * it). A forcing chain through the links needs a start one of whose
 * potentials G leads to the tail of a link j and whose other G reaches
 * from the head of a link k that j leads to (or j itself): each link
 * component pairs the "shadows" (struct shadow) of the tails of every
 * link that leads to it, gathered along the links' graph, with those of
 * its own heads, each end's shadow made once per G (end_shadow). A cycle
 * through a link needs the potentials of its component of H both ways to
 * remove a candidate of S. When none passes, no search of S can give a
 * hint that counts, and the search (the filter, reach_build, and the
 * passes' set-up) is not made: it would collect nothing. Which tail each
 * head reaches still costs the links' number squared: a grid with more
 * than PRE_LINKS of them goes to the filter untested, which costs less
 * than testing it.
 *
 * As in struct reach, only G's core holds links both ways: outside it an
 * "on" potential only leads (to the "off" potentials of the candidates it
 * is weakly linked to: its "shadow") and an "off" one is only led to,
 * except the ends of S's dirty strong links, which are taken apart. The
 * sets are over G's core potentials, numbered 2k ("off") and 2k + 1
 * ("on") for its k-th core candidate. */
#define PRE_EDGES (NODES / 2 * 32)
#define PRE_LINKS 24
/* the sets of a candidate (see cand_sets) */
enum { ON_REACH, OFF_REACHED, CAND_SETS };
/* a candidate as a link's end (see end_shadow), and a shadow's words (see
 * shadow_pack) */
enum { HEAD, TAIL };
enum { SHADOW_MEMBERS = 0, SHADOW_LINKED = 20, SHADOW_WORDS = 40 };
struct step_pretest {
    uint16_t key[SE_CELLS]; /* G's candidates */
    bool valid;
    bool cycles; /* a component of G with a cycle can remove a candidate */
    uint16_t core[SE_CELLS]; /* G's core candidates, by cell */
    int16_t id[SE_CELLS * 9]; /* by candidate: its core number, -1 outside */
    uint16_t slot[SE_CELLS * 9]; /* by core number: the candidate */
    int n; /* core potentials: twice the core candidates */
    int32_t first[NODES + 1];
    uint16_t to[PRE_EDGES];
    int16_t index[NODES], low[NODES], comp[NODES];
    uint16_t stack[NODES], frame[NODES], order[NODES];
    int32_t frame_edge[NODES];
    int ncomp;
    int16_t comp_end[NODES];
    int words;
    /* by component: the core potentials it reaches, then those that reach
     * it (words each) */
    uint64_t *set;
    size_t set_cap;
    /* by candidate: its sets (see cand_sets), valid where cand_made is gen,
     * the number of G's build */
    uint64_t *cand_set;
    size_t cand_cap;
    uint32_t gen, cand_made[SE_CELLS * 9];
    /* by candidate: its shadows as a head and as a tail (see end_shadow),
     * valid where shadow_made is gen */
    uint64_t end_shadow[2][SE_CELLS * 9][SHADOW_WORDS];
    uint32_t shadow_made[2][SE_CELLS * 9];
    /* by component of H through the links (step_rules_out): the shadow of
     * the tails of the links that reach it */
    uint64_t tails[PRE_LINKS][SHADOW_WORDS];
    /* by component of G: the links whose tail it reaches (see pre_col),
     * valid where col_made is call, the number of step_rules_out's call */
    uint64_t col[NODES];
    uint32_t call, col_made[NODES];
};

static inline const uint64_t *pre_fwd(const struct step_pretest *P, int u)
{
    return P->set + (size_t) P->comp[u] * 2 * (size_t) P->words;
}

static inline const uint64_t *pre_bwd(const struct step_pretest *P, int u)
{
    return pre_fwd(P, u) + P->words;
}

static void pre_pop(void *ctx, int bottom, int top)
{
    struct step_pretest *P = ctx;
    int done = P->ncomp ? P->comp_end[P->ncomp - 1] : 0;
    for (int i = top - 1; i >= bottom; i--) {
        P->comp[P->stack[i]] = (int16_t) P->ncomp;
        P->order[done++] = P->stack[i];
    }
    P->comp_end[P->ncomp++] = (int16_t) done;
}

/* The peers of the members of a set of candidates that hold each digit,
 * and their cells: whose "off" potentials the members' "on" potentials
 * lead to (their weak links), or whose "on" potentials lead to the
 * members' "off" ones. */
struct shadow {
    uint64_t peers[10][2], cells[10][2], one[2], two[2];
};

static inline void shadow_add(struct shadow *s, int slot)
{
    const int cell = slot / 9, v = slot % 9 + 1, w = cell >> 6;
    const uint64_t b = 1ull << (cell & 63);
    if (s->cells[v][w] & b)
        return; /* a link's end met again */
    s->peers[v][0] |= se_peer_set[cell][0];
    s->peers[v][1] |= se_peer_set[cell][1];
    s->cells[v][w] |= b;
    s->two[w] |= s->one[w] & b;
    s->one[w] |= b;
}

/* The cells where candidate v is weakly linked to a member: a peer with v,
 * or a cell with a member of another digit. */
static inline uint64_t shadow_of(const struct shadow *s, int v, int w)
{
    return s->peers[v][w] | s->two[w] | (s->one[w] & ~s->cells[v][w]);
}

/* Whether some cell with v in S sees an "on" and an "off" potential of v
 * among the candidates (of S) `on` and `off`: a cycle through them can
 * remove a candidate only then (comp_eliminates). */
static bool shadows_eliminate(
    const struct se_grid *S, const struct shadow *on, const struct shadow *off)
{
    for (int v = 1; v <= 9; v++)
        for (int w = 0; w < 2; w++)
            for (uint64_t both = on->peers[v][w] & off->peers[v][w]; both;
                 both &= both - 1)
                if (S->cand[w * 64 + __builtin_ctzll(both)] & (1u << v))
                    return true;
    return false;
}

/* G's core, its links (X and Y), components and reach both ways. */
static bool pre_build(struct step_pretest *P, const struct se_grid *G)
{
    memcpy(P->key, G->cand, sizeof(P->key));
    P->valid = false;
    uint16_t at[27][10];
    for (int cell = 0; cell < SE_CELLS; cell++)
        P->core[cell] = se_two_bits(G->cand[cell]) ? G->cand[cell] : 0;
    for (int r = 0; r < 27; r++)
        for (int v = 1; v <= 9; v++) {
            const unsigned m = at[r][v] = (uint16_t) se_positions(G, r, v);
            if (!se_two_bits(m))
                continue;
            P->core[se_region_cell[r][__builtin_ctz(m)]] |= (uint16_t) (1u << v);
            P->core[se_region_cell[r][31 - __builtin_clz(m)]] |= (uint16_t) (1u << v);
        }
    P->n = 0;
    memset(P->id, -1, sizeof(P->id));
    for (int cell = 0; cell < SE_CELLS; cell++)
        for (unsigned m = P->core[cell]; m; m &= m - 1) {
            const int slot = cell * 9 + __builtin_ctz(m) - 1;
            P->id[slot] = (int16_t) (P->n / 2);
            P->slot[P->n / 2] = (uint16_t) slot;
            P->n += 2;
        }
    int ne = 0;
    for (int u = 0; u < P->n; u++) {
        P->first[u] = ne;
        const int slot = P->slot[u / 2], cell = slot / 9, v = slot % 9 + 1;
        if (u & 1) { /* "on": the weak links to core candidates */
            for (unsigned m = P->core[cell] & ~(1u << v); m; m &= m - 1)
                P->to[ne++] = (uint16_t) (2 * P->id[cell * 9 + __builtin_ctz(m) - 1]);
            for (int i = 0; i < 20; i++) {
                const int o = se_peer[cell][i];
                if (P->core[o] & (1u << v))
                    P->to[ne++] = (uint16_t) (2 * P->id[o * 9 + v - 1]);
            }
            continue;
        }
        if (se_two_bits(G->cand[cell])) /* "off": the strong links */
            P->to[ne++] = (uint16_t) (2
                    * P->id[cell * 9 + __builtin_ctz(G->cand[cell] & ~(1u << v)) - 1]
                + 1);
        for (int t = 0; t < 3; t++) {
            const unsigned m = at[se_cell_region[cell][t]][v];
            if (!se_two_bits(m))
                continue;
            const unsigned other = m & ~(1u << region_index(cell, t));
            const int o = se_region_cell[se_cell_region[cell][t]][__builtin_ctz(other)];
            P->to[ne++] = (uint16_t) (2 * P->id[o * 9 + v - 1] + 1);
        }
    }
    P->first[P->n] = ne;
    P->ncomp = 0;
    const struct tarjan T = { P->n, P->first, P->first + 1, P->to, NULL, NULL, P->index,
        P->low, P->comp, P->stack, P->frame, P->frame_edge };
    se_tarjan(&T, pre_pop, P);
    const int W = P->words = (P->n + 63) / 64;
    const size_t need = (size_t) P->ncomp * 2 * (size_t) W;
    if (!words_reserve(&P->set, &P->set_cap, need))
        return false;
    if (need)
        memset(P->set, 0, need * sizeof(*P->set));
    const size_t cand_need = (size_t) SE_CELLS * 9 * CAND_SETS * (size_t) W;
    if (!words_reserve(&P->cand_set, &P->cand_cap, cand_need))
        return false;
    if (++P->gen == 0) { /* wrapped: no set is made */
        memset(P->cand_made, 0, sizeof(P->cand_made));
        memset(P->shadow_made, 0, sizeof(P->shadow_made));
        P->gen = 1;
    }
    P->cycles = false;
    for (int i = 0, k = 0; k < P->ncomp; k++) { /* sinks first */
        uint64_t *fwd = P->set + (size_t) k * 2 * W;
        struct shadow on = { 0 }, off = { 0 };
        const int begin = i;
        for (; i < P->comp_end[k]; i++) {
            const int u = P->order[i];
            fwd[u / 64] |= 1ull << (u % 64);
            shadow_add(u & 1 ? &on : &off, P->slot[u / 2]);
            for (int e = P->first[u]; e < P->first[u + 1]; e++) {
                const int y = P->comp[P->to[e]];
                const uint64_t *add = P->set + (size_t) y * 2 * W;
                for (int w = 0; y != k && w < W; w++)
                    fwd[w] |= add[w];
            }
        }
        if (i - begin > 1 && !P->cycles)
            P->cycles = shadows_eliminate(G, &on, &off);
    }
    for (int k = P->ncomp - 1; k >= 0; k--) { /* sources first */
        uint64_t *bwd = P->set + (size_t) k * 2 * W + W;
        for (int i = k ? P->comp_end[k - 1] : 0; i < P->comp_end[k]; i++) {
            const int u = P->order[i];
            bwd[u / 64] |= 1ull << (u % 64);
        }
        for (int i = k ? P->comp_end[k - 1] : 0; i < P->comp_end[k]; i++) {
            const int u = P->order[i];
            for (int e = P->first[u]; e < P->first[u + 1]; e++) {
                const int y = P->comp[P->to[e]];
                uint64_t *to = P->set + (size_t) y * 2 * W + W;
                for (int w = 0; y != k && w < W; w++)
                    to[w] |= bwd[w];
            }
        }
    }
    P->valid = true;
    return true;
}

/* By candidate q of G, made on first use for each G (see cand_made): what
 * "on" q reaches (through the core "off" potentials it leads to) and what
 * reaches "off" q (through the core "on" ones weakly linked to it, which
 * lead to it). */
static const uint64_t *cand_sets(struct step_pretest *P, int slot)
{
    const int W = P->words;
    uint64_t *set = P->cand_set + (size_t) slot * CAND_SETS * (size_t) W;
    if (P->cand_made[slot] == P->gen)
        return set;
    P->cand_made[slot] = P->gen;
    memset(set, 0, sizeof(*set) * CAND_SETS * (size_t) W);
    const int cell = slot / 9, v = slot % 9 + 1;
    int near[28], k = 0;
    for (unsigned m = P->core[cell] & ~(1u << v); m; m &= m - 1)
        near[k++] = P->id[cell * 9 + __builtin_ctz(m) - 1];
    for (int i = 0; i < 20; i++) {
        const int o = se_peer[cell][i];
        if (P->core[o] & (1u << v))
            near[k++] = P->id[o * 9 + v - 1];
    }
    for (int i = 0; i < k; i++) {
        const int on = 2 * near[i] + 1, off = 2 * near[i];
        const uint64_t *fwd = pre_fwd(P, off), *bwd = pre_bwd(P, on);
        for (int w = 0; w < W; w++) {
            set[ON_REACH * W + w] |= fwd[w];
            set[OFF_REACHED * W + w] |= bwd[w];
        }
    }
    return set;
}

/* The candidates (by digit and cell: word 2v + w holds cells 64w ..) of a
 * set of potentials' members (MEMBERS) and those weakly linked to one of
 * them (LINKED, shadow_of). Both are unions over the members, so the
 * shadow of a union of sets is the union of their shadows. */
static void shadow_pack(const struct shadow *s, uint64_t *out)
{
    for (int v = 0; v <= 9; v++)
        for (int w = 0; w < 2; w++) {
            out[SHADOW_MEMBERS + 2 * v + w] = v ? s->cells[v][w] : 0;
            out[SHADOW_LINKED + 2 * v + w] = v ? shadow_of(s, v, w) : 0;
        }
}

static inline void shadow_or(uint64_t *to, const uint64_t *from)
{
    for (int i = 0; i < SHADOW_WORDS; i++)
        to[i] |= from[i];
}

/* By candidate q of G, made on first use for each G: as the head of a
 * dirty link, the shadow of the "on" potentials G leads "on" q to (q's
 * own among them); as a tail, that of the "off" potentials that G leads to
 * "off" q. starts_meet pairs them. */
static const uint64_t *end_shadow(struct step_pretest *P, int slot, int as)
{
    uint64_t *out = P->end_shadow[as][slot];
    if (P->shadow_made[as][slot] == P->gen)
        return out;
    P->shadow_made[as][slot] = P->gen;
    const int id = P->id[slot], W = P->words;
    const uint64_t pair = 0x5555555555555555ull;
    const uint64_t *set = as == HEAD
        ? (id >= 0 ? pre_fwd(P, 2 * id + 1) : cand_sets(P, slot) + ON_REACH * W)
        : (id >= 0 ? pre_bwd(P, 2 * id) : cand_sets(P, slot) + OFF_REACHED * W);
    struct shadow s = { 0 };
    for (int w = 0; w < W; w++)
        for (uint64_t m = (as == HEAD ? set[w] >> 1 : set[w]) & pair; m; m &= m - 1)
            shadow_add(&s, P->slot[(w * 64 + __builtin_ctzll(m)) / 2]);
    if (id < 0) /* outside the core: not in the sets */
        shadow_add(&s, slot);
    shadow_pack(&s, out);
    return out;
}

/* Whether a start q of S (`starts`, as the shadows' words) may begin a
 * forcing chain from what the tails' side `tails` reaches to what the
 * heads' side `heads` is reached from: "off" q reaching a tail and "on" q
 * reached from a head (q a member of both), or "on" q weakly linked to a
 * candidate whose "off" potential reaches a tail and "off" q to one whose
 * "on" potential is reached from a head (q linked to both). */
static bool starts_meet(
    const uint64_t *tails, const uint64_t *heads, const uint64_t *starts)
{
    uint64_t any = 0;
    for (int i = 0; i < 20; i++)
        any |= starts[i]
            & ((tails[SHADOW_MEMBERS + i] & heads[SHADOW_MEMBERS + i])
                | (tails[SHADOW_LINKED + i] & heads[SHADOW_LINKED + i]));
    return any != 0;
}

/* Whether a cycle among the potentials that the heads of the links `both`
 * (one component of H) reach (F, and the links' ends) and that reach their
 * tails (B) can remove a candidate of S: a component of H through a dirty
 * strong link holds no others. */
static bool component_may(const struct step_pretest *P, const struct se_grid *S,
    const int *head, const int *tail, uint64_t both, const uint64_t *F, const uint64_t *B)
{
    struct shadow on = { 0 }, off = { 0 };
    for (int w = 0; w < P->words; w++)
        for (uint64_t m = F[w] & B[w]; m; m &= m - 1) {
            const int u = w * 64 + __builtin_ctzll(m), slot = P->slot[u / 2];
            if (S->cand[slot / 9] & (1u << (slot % 9 + 1)))
                shadow_add(u & 1 ? &on : &off, slot);
        }
    for (; both; both &= both - 1) {
        shadow_add(&on, head[__builtin_ctzll(both)]);
        shadow_add(&off, tail[__builtin_ctzll(both)]);
    }
    return shadows_eliminate(S, &on, &off);
}

/* The links j whose tail core potential u reaches (bwd[j] holds u): the
 * same for every member of u's component, so made once a call for it. */
static uint64_t pre_col(struct step_pretest *P, const uint64_t *const *bwd, int n, int u)
{
    const int k = P->comp[u];
    if (P->col_made[k] == P->call)
        return P->col[k];
    P->col_made[k] = P->call;
    uint64_t col = 0;
    const int w = u / 64, b = u % 64;
    for (int j = 0; j < n; j++)
        col |= ((bwd[j][w] >> b) & 1) << j;
    return P->col[k] = col;
}

/* Whether no search of x's nested grid S can give a hint that counts (see
 * struct step_pretest); false when unsure. */
static bool step_rules_out(struct step_pretest *P, const struct chain_ctx *x)
{
    const struct se_grid *G = x->src, *S = x->grid;
    if ((!P->valid || memcmp(P->key, G->cand, sizeof(P->key))) && !pre_build(P, G))
        return false;
    if (P->cycles)
        return false;
    /* S's dirty strong links, tail "off" -> head "on", as candidates */
    int tail[PRE_LINKS], head[PRE_LINKS], n = 0;
    uint32_t asked[10] = { 0 }; /* by digit: the regions asked */
    for (int cell = 0; cell < SE_CELLS; cell++) {
        const unsigned gone = G->cand[cell] & ~S->cand[cell];
        if (!gone)
            continue;
        const unsigned m = S->cand[cell];
        if (se_two_bits(m)) {
            if (n + 2 > PRE_LINKS)
                return false;
            const int a = cell * 9 + __builtin_ctz(m) - 1;
            const int b = cell * 9 + 30 - __builtin_clz(m);
            tail[n] = a, head[n++] = b;
            tail[n] = b, head[n++] = a;
        }
        for (unsigned g = gone; g; g &= g - 1) {
            const int v = __builtin_ctz(g);
            for (int t = 0; t < 3; t++) {
                const int r = se_cell_region[cell][t];
                if ((asked[v] >> r) & 1)
                    continue;
                asked[v] |= 1u << r;
                const unsigned at = x->places ? x->places[r][v] : se_positions(S, r, v);
                if (!se_two_bits(at))
                    continue;
                if (n + 2 > PRE_LINKS)
                    return false;
                const int a = se_region_cell[r][__builtin_ctz(at)] * 9 + v - 1;
                const int b = se_region_cell[r][31 - __builtin_clz(at)] * 9 + v - 1;
                tail[n] = a, head[n++] = b;
                tail[n] = b, head[n++] = a;
            }
        }
    }
    if (!n)
        return true; /* H is G, and no cycle of G can count */
    const int W = P->words;
    /* G's reach from each head and to each tail */
    const uint64_t *fwd[PRE_LINKS], *bwd[PRE_LINKS];
    for (int i = 0; i < n; i++) {
        const int h = P->id[head[i]], t = P->id[tail[i]];
        fwd[i] = h >= 0 ? pre_fwd(P, 2 * h + 1) : cand_sets(P, head[i]) + ON_REACH * W;
        bwd[i] = t >= 0 ? pre_bwd(P, 2 * t) : cand_sets(P, tail[i]) + OFF_REACHED * W;
    }
    uint64_t starts[20] = { 0 }; /* S's candidates that start searches */
    for (int cell = 0; cell < SE_CELLS; cell++)
        if (S->cand[cell] & (S->cand[cell] - 1))
            for (unsigned m = S->cand[cell]; m; m &= m - 1)
                starts[2 * __builtin_ctz(m) + (cell >> 6)] |= 1ull << (cell & 63);
    /* which tails each head reaches (link i leads to link j): from a core
     * potential u, those whose set of what reaches them (bwd) holds u, the
     * same for u's whole component of G (col, made once a call for each
     * component asked); a core head's "on" potential, or a head outside the
     * core through the core "off" potentials it leads to, or by a weak link
     * to a tail outside the core. led_by, the other way */
    if (++P->call == 0) {
        memset(P->col_made, 0, sizeof(P->col_made));
        P->call = 1;
    }
    uint64_t outside = 0; /* the links whose tail is outside the core */
    uint8_t tail_cell[PRE_LINKS], tail_value[PRE_LINKS];
    for (int j = 0; j < n; j++)
        if (P->id[tail[j]] < 0) {
            outside |= 1ull << j;
            tail_cell[j] = (uint8_t) (tail[j] / 9);
            tail_value[j] = (uint8_t) (tail[j] % 9 + 1);
        }
    uint64_t reach[PRE_LINKS], led_by[PRE_LINKS] = { 0 };
    for (int i = 0; i < n; i++) {
        const int slot = head[i], cell = slot / 9, v = slot % 9 + 1, h = P->id[slot];
        uint64_t to = 0;
        if (h >= 0) {
            to = pre_col(P, bwd, n, 2 * h + 1);
        } else {
            for (unsigned m = P->core[cell] & ~(1u << v); m; m &= m - 1)
                to |= pre_col(P, bwd, n, 2 * P->id[cell * 9 + __builtin_ctz(m) - 1]);
            for (int k = 0; k < 20; k++) {
                const int o = se_peer[cell][k];
                if (P->core[o] & (1u << v))
                    to |= pre_col(P, bwd, n, 2 * P->id[o * 9 + v - 1]);
            }
            for (uint64_t m = outside & ~to; m; m &= m - 1) {
                const int j = __builtin_ctzll(m), o = tail_cell[j];
                if (o == cell ? tail_value[j] != v
                              : tail_value[j] == v
                            && ((se_peer_set[cell][o >> 6] >> (o & 63)) & 1))
                    to |= m & -m;
            }
        }
        reach[i] = to;
        for (; to; to &= to - 1)
            led_by[__builtin_ctzll(to)] |= 1ull << i;
    }
    /* closed (Warshall): reach[i] holds i only on a cycle */
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++)
            reach[i] |= (0 - ((reach[i] >> k) & 1)) & reach[k];
    uint64_t reached_by[PRE_LINKS]; /* with the link itself */
    for (int i = 0; i < n; i++)
        reached_by[i] = 1ull << i;
    for (int i = 0; i < n; i++)
        for (uint64_t m = reach[i]; m; m &= m - 1)
            reached_by[__builtin_ctzll(m)] |= 1ull << i;
    /* H's components through the links, each named by its first link */
    int first[PRE_LINKS];
    uint64_t members[PRE_LINKS], left = 0;
    for (int i = 0; i < n; i++) {
        members[i] = (reach[i] | 1ull << i) & reached_by[i];
        first[i] = __builtin_ctzll(members[i]);
        if (first[i] == i)
            left |= 1ull << i;
    }
    /* each component, once those of the links that reach it are done: the
     * tails' shadows of every link that reaches it (its own, and those the
     * components before it gathered), paired with its heads' (see
     * starts_meet): a pair of links one of which leads to the other through
     * H is met in the component of the second */
    uint64_t heads[SHADOW_WORDS], done = 0;
    for (uint64_t ready = 0; left; left &= ~ready) {
        ready = 0;
        for (uint64_t m = left; m; m &= m - 1) {
            const int i = __builtin_ctzll(m);
            if (!(reached_by[i] & ~members[i] & ~done))
                ready |= 1ull << i;
        }
        for (uint64_t r = ready; r; r &= r - 1) {
            const int i = __builtin_ctzll(r);
            done |= members[i];
            uint64_t *tails = P->tails[i];
            memcpy(tails, end_shadow(P, tail[i], TAIL), sizeof(P->tails[i]));
            const uint64_t *own = end_shadow(P, head[i], HEAD);
            uint64_t before = led_by[i];
            if (members[i] != 1ull << i) { /* a cycle of links */
                memcpy(heads, own, sizeof(heads));
                own = heads;
                for (uint64_t m = members[i] & (members[i] - 1); m; m &= m - 1) {
                    const int k = __builtin_ctzll(m);
                    shadow_or(tails, end_shadow(P, tail[k], TAIL));
                    shadow_or(heads, end_shadow(P, head[k], HEAD));
                    before |= led_by[k];
                }
            }
            /* the components of the links one step before, less those that
             * lead to another of them: that one's tails hold theirs */
            uint64_t from = 0, covered = 0;
            for (before &= ~members[i]; before; before &= before - 1)
                from |= 1ull << first[__builtin_ctzll(before)];
            for (uint64_t m = from; m; m &= m - 1) {
                const int k = __builtin_ctzll(m);
                covered |= reached_by[k] & ~members[k];
            }
            for (from &= ~covered; from; from &= from - 1)
                shadow_or(tails, P->tails[__builtin_ctzll(from)]);
            if (starts_meet(tails, own, starts))
                return false;
            if (!((reach[i] >> i) & 1))
                continue;
            uint64_t F[(NODES + 63) / 64], B[(NODES + 63) / 64];
            memset(F, 0, sizeof(*F) * (size_t) W);
            memset(B, 0, sizeof(*B) * (size_t) W);
            for (uint64_t m = members[i]; m; m &= m - 1)
                for (int w = 0; w < W; w++) {
                    F[w] |= fwd[__builtin_ctzll(m)][w];
                    B[w] |= bwd[__builtin_ctzll(m)][w];
                }
            if (component_may(P, S, head, tail, members[i], F, B))
                return false;
        }
    }
    return true;
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
 * clearing it each time is a share of a hard puzzle's rating. Its stamps stay
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

void se_spare_cycle_drop(struct se_chains_memo *m)
{
    cycle_ctx_free(m->spare_cycle);
    m->spare_cycle = NULL;
    if (m->step_pretest) {
        free(m->step_pretest->set);
        free(m->step_pretest->cand_set);
    }
    free(m->step_pretest);
    m->step_pretest = NULL;
}

/* Whether the nested search of x's grid can give no hint that counts, by
 * the pre-test of its start grid (made on first use; false without
 * memory). */
static bool nested_ruled_out(struct chain_ctx *x)
{
    struct se_chains_memo *m = x->rt->chains;
    if (!m->step_pretest) {
        m->step_pretest = malloc(sizeof(*m->step_pretest));
        if (!m->step_pretest)
            return false;
        m->step_pretest->valid = false;
        m->step_pretest->set = NULL;
        m->step_pretest->set_cap = 0;
        m->step_pretest->cand_set = NULL;
        m->step_pretest->cand_cap = 0;
        m->step_pretest->gen = 0;
        memset(m->step_pretest->cand_made, 0, sizeof(m->step_pretest->cand_made));
        memset(m->step_pretest->shadow_made, 0, sizeof(m->step_pretest->shadow_made));
        memset(m->step_pretest->col_made, 0, sizeof(m->step_pretest->col_made));
        m->step_pretest->call = 0;
    }
    return step_rules_out(m->step_pretest, x);
}

static void cycle_ctx_give_back(struct se_chains_memo *m, struct cycle_ctx *c)
{
    if (m->spare_cycle)
        cycle_ctx_free(c);
    else
        m->spare_cycle = c;
}

void se_cycles_producer(struct chain_ctx *x)
{
    struct x_memo *const x_memo = &x->rt->chains->x_memo;
    if (x->collect && x->src && nested_ruled_out(x))
        return; /* it would collect nothing */
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
    const bool filter = !nested || dirty_possible(c);
    if (filter)
        reach_build(c);
    uint64_t cells[10][2];
    if (!x->collect) {
        se_value_cells(x->grid, cells);
        for (int v = 1; v <= 9; v++)
            if (x_memo->empty[v] && x_memo->cells[v][0] == cells[v][0]
                && x_memo->cells[v][1] == cells[v][1])
                c->unchanged |= 1u << v;
    }
    c->nstarts = 0;
    if (filter)
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
