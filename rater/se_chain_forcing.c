/* Sudoku Explainer's cell and region forcing chains, Nishio and dynamic
 * chains (rater/se_chains.h): their hints, and the filters that skip the
 * runs that cannot give one. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rater/se_chains.h"

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

/* The rule parents an "on" potential p of a nested chain brings for its
 * cause (1: the cell's last value, 2 + t: the last place in its region of
 * type t; 0: none): the candidates of the cell, or of the digit in the
 * region, that the outer run took out of its start (x->src) to reach the
 * nested grid. */
static void cause_parents(struct chain_ctx *x, int p, int cause, uint16_t *parents)
{
    const struct se_grid *g = x->grid, *src = x->src;
    if (!node_on(p) || !cause)
        return;
    int cell = node_cell(p), v = node_value(p);
    if (cause == 1) {
        parents[cell] |= (uint16_t) (src->cand[cell] & ~g->cand[cell]);
        return;
    }
    int reg = se_cell_region[cell][cause - 2];
    for (int i = 0; i < 9; i++) {
        int o = se_region_cell[reg][i];
        if (src->cand[o] & ~g->cand[o] & (1u << v))
            parents[o] |= (uint16_t) (1u << v);
    }
}

/* cause_parents of every potential behind the `n` starts (themselves
 * included) in run r; the run's assumptions count as `root_cause`. Returns
 * the sum of chain_mix over those potentials. */
static uint32_t parents_walk(struct chain_ctx *x, const struct run *r,
    const uint16_t *starts, int n, int root_cause, uint16_t *parents)
{
    uint32_t st = ++x->stamp, behind = 0;
    int top = 0;
    for (int i = 0; i < n; i++)
        x->stack[top++] = starts[i];
    while (top > 0) {
        int p = x->stack[--top];
        if (x->seen[p] == st)
            continue;
        x->seen[p] = st;
        behind += chain_mix(p);
        for (int i = 0; i < r->ref[p].pn; i++)
            x->stack[top++] = r->arena[r->ref[p].poff + i];
        cause_parents(x, p, r->ref[p].pn ? r->ref[p].cause : root_cause, parents);
    }
    return behind;
}

/* Rule parents of a nested binary chain ending in r's contradiction: along
 * both chains to it (the one never stored has its parents in virt_*); a
 * binary chain's assumption has no cause. Returns the chain's key: its
 * targets are the contradiction's "on" potential, then its "off" one. */
static uint32_t absurd_parents(
    struct chain_ctx *x, const struct run *r, uint16_t *parents)
{
    const uint16_t stored = (uint16_t) (r->virt == r->abs_on ? r->abs_off : r->abs_on);
    uint32_t behind_stored = parents_walk(x, r, &stored, 1, 0, parents);
    cause_parents(x, r->virt, r->virt_cause, parents);
    uint32_t behind_virt = chain_mix(r->virt)
        + parents_walk(x, r, &r->arena[r->virt_poff], r->virt_pn, 0, parents);
    const bool on_stored = stored == r->abs_on;
    uint32_t key = chain_key_target(
        CHAIN_KEY_START, r->abs_on, on_stored ? behind_stored : behind_virt);
    return chain_key_target(key, r->abs_off, on_stored ? behind_virt : behind_stored);
}

/* Offers a binary hint, or collects it (nested searches) with the rule
 * parents of its runs: r's contradiction, or (r2 set) p in both runs. */
static void binary_offer(struct chain_ctx *x, const struct se_step *s, int sort_key,
    const struct run *r, const struct run *r2, int p)
{
    if (!x->collect) {
        se_offer(x, s, sort_key);
        return;
    }
    uint16_t parents[SE_CELLS] = { 0 };
    uint32_t key;
    if (!r2)
        key = absurd_parents(x, r, parents);
    else { /* p in the "on" run, then p in the "off" run */
        key = chain_key_target(CHAIN_KEY_START, p, se_run_parents(x, r, p, 0, parents));
        key = chain_key_target(key, p, se_run_parents(x, r2, p, 0, parents));
    }
    se_collect_push(x, s, sort_key, parents, key);
}

/* The hints of a candidate's "on" and "off" runs; off NULL: an "off" run
 * known to end with no contradiction, which gives nothing without doubles. */
static void binary_hints(struct chain_ctx *x, int cell, int v, struct run *on,
    struct run *off, bool contradiction, bool doubles)
{
    struct se_step s;
    if (contradiction && on->absurd) {
        x->nhint_keys = 0;
        base_step(x, &s, se_anc_absurd(x, on), cell);
        se_conclude(x->grid, node_of(cell, v, 0), &s);
        binary_offer(x, &s, 7, on, NULL, 0);
    }
    if (contradiction && off && off->absurd) {
        x->nhint_keys = 0;
        base_step(x, &s, se_anc_absurd(x, off), cell);
        se_conclude(x->grid, node_of(cell, v, 1), &s);
        binary_offer(x, &s, 7, off, NULL, 0);
    }
    for (int i = 0; doubles && i < on->norder; i++) {
        int p = on->order[i];
        if (!off->has[p])
            continue;
        x->nhint_keys = 0;
        int cx = se_anc_stored(x, on, p);
        if (past_best(x, cx))
            continue;
        base_step(x, &s, cx + se_anc_stored(x, off, p), cell);
        se_conclude(x->grid, p, &s);
        binary_offer(x, &s, 1, on, off, p);
    }
}

/* Rule parents of a nested cell or region forcing chain (see path_parents):
 * along every chain to `target`; the assumptions count as `root_cause`. */
uint32_t se_run_parents(struct chain_ctx *x, const struct run *r, int target,
    int root_cause, uint16_t *parents)
{
    const uint16_t start = (uint16_t) target;
    return parents_walk(x, r, &start, 1, root_cause, parents);
}

void se_common_hints(struct chain_ctx *x, struct run **runs, int nruns, int cell,
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
            complexity += se_anc_stored(x, runs[k], p);
        if (past_best(x, complexity))
            continue;
        struct se_step s;
        base_step(x, &s, complexity, cell);
        se_conclude(x->grid, p, &s);
        if (x->collect) {
            uint16_t parents[SE_CELLS] = { 0 };
            uint32_t key = CHAIN_KEY_START; /* a target in each run, in order */
            for (int k = 0; k < nruns; k++)
                key = chain_key_target(
                    key, p, se_run_parents(x, runs[k], p, root_cause, parents));
            se_collect_push(x, &s, sort_key, parents, key);
            continue;
        }
        se_offer(x, &s, sort_key);
    }
}

/* The places of v in region r of the search's grid: pos0, made on first
 * use (a lookup instead of a scan of the region's cells). */
unsigned se_grid_places(struct chain_ctx *x, int r, int v)
{
    if (!x->have_pos0) {
        places_of(x->grid, x->pos0);
        x->have_pos0 = true;
    }
    return x->pos0[r][v];
}

void se_region_hints(struct chain_ctx *x, int cell, int v, struct run *own)
{
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[cell][t];
        unsigned m = se_grid_places(x, r, v);
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
            if (!(set[k++] = se_on_run(x, o, v)))
                return;
        }
        se_common_hints(x, set, k, cell, 6, 2 + t);
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
    const struct run *w = se_on_run(x, cell, __builtin_ctz(rest));
    if (!w || w->absurd)
        return true;
    *off = NULL;
    return false;
}

void se_cell_chains(struct chain_ctx *x, int cell)
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
        struct run *on = se_on_run(x, cell, v), *off = x->off_run;
        if (!on) {
            x->run_failed = true;
            return;
        }
        /* the "off" run serves only binary_hints: the multiple kind (neither
         * contradictions nor doubles) has no use for it */
        if (contradiction || doubles) {
            if (off_run_needed(x, cell, v, doubles, &off))
                se_start_run(x, off, node_of(cell, v, 0));
            binary_hints(x, cell, v, on, off, contradiction, doubles);
            if (on->absurd || (off && off->absurd))
                x->nishio_absurd |= 1u << v;
        }
        if (!nishio)
            se_region_hints(x, cell, v, on);
        set[k++] = on;
    }
    if (!nishio && (card == 2 || (x->multiple && card > 2)))
        se_common_hints(x, set, k, cell, 5, 1);
}

/* ---- which runs of the multiple kind can give a hint ----
 *
 * Most groups of runs give no hint (the multiple kind's groups: a cell's
 * candidates, a region's places of a value). A hint needs a
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

/* The graph of the search grid's potentials (numbered: see ra_graph), and
 * each component's reach. */
struct reach_all {
    int n, words;
    int16_t id[SE_CELLS * 9]; /* by candidate: its index (run_sets), or -1 */
    /* by potential: its number (-1: none); by number, the potential */
    int16_t num[NODES];
    uint16_t node[NODES];
    int ncand, core_bits; /* candidates; the numbers of the core's pairs */
    /* links of potential number i, made on first visit (ra_links):
     * to[first[i] .. end[i]) those to potentials with links of their own,
     * to[end[i] .. sinks_end[i]) those to "off" potentials without (most
     * of an "on" potential's): Tarjan need not visit those, whose reach is
     * themselves */
    struct chain_ctx *x;
    int nedges;
    int32_t first[NODES + 1], end[NODES], sinks_end[NODES];
    bool linked[SE_CELLS * 9]; /* by candidate: its "off" potential has links */
    uint16_t core_cell[SE_CELLS]; /* by cell: the digits of those (the core) */
    uint16_t to[NODES / 2 * 32];
    int16_t index[NODES], low[NODES], comp[NODES];
    uint16_t stack[NODES], frame[NODES];
    int32_t frame_edge[NODES];
    int ncomp, counter; /* Tarjan's: components made, potentials visited */
    uint64_t *set; /* by component, `words` words */
    /* by component: its set holds both potentials of a candidate (see
     * on_reach), found once as ra_pop completes the set */
    bool clash[NODES];
    /* nested (x->collect): the candidates the outer run removed from its
     * start, by cell and by region (digits); by potential number, whether
     * one of its links is a dirty "on" link (see ra_link_dirty); by
     * component, whether it reaches one (through its members' links or
     * the components they lead to) */
    uint16_t gone_cell[SE_CELLS], gone_region[27];
    bool dirty_link[NODES], dirty_any[NODES];
    /* by cell, then by region and digit (NEAR_ENTRIES): what the "off"
     * potentials there reach, as two sets of `words` words: the sets of
     * the components of those with links, then the bits of those without;
     * each made on first use (near_made), for source_reach */
    uint64_t *near;
    bool near_made[SE_CELLS + 27 * 9];
};
#define NEAR_ENTRIES (SE_CELLS + 27 * 9)

static int ra_num(const struct reach_all *R, int node)
{
    return R->num[node];
}

/* The links of every potential, as the detailed run follows them. */
static void ra_graph(struct chain_ctx *x, struct reach_all *R)
{
    R->n = R->nedges = R->ncand = 0;
    R->x = x;
    memset(R->id, -1, sizeof(R->id));
    memset(R->num, -1, sizeof(R->num));
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
    /* by candidate number (slot), as a loop over every slot numbered them;
     * the potentials: the core's first, by pairs ("off" 2k, "on" 2k + 1,
     * as set_clashes reads them), then the other candidates' "off" ones.
     * The other "on" potentials have no number: no link leads to one, so
     * it is in no reach but its own (source_reach), and a group, whose
     * starts are distinct, never has it in common */
    memcpy(R->core_cell, linked, sizeof(R->core_cell));
    uint16_t other[SE_CELLS * 9];
    int nother = 0;
    for (int cell = 0; cell < SE_CELLS; cell++)
        for (unsigned m = x->grid->cand[cell] & SE_ALL; m; m &= m - 1) {
            const int slot = cell * 9 + __builtin_ctz(m) - 1;
            R->id[slot] = (int16_t) R->ncand++;
            if (!((linked[cell] >> __builtin_ctz(m)) & 1)) {
                R->linked[slot] = false;
                other[nother++] = (uint16_t) slot;
                continue;
            }
            R->linked[slot] = true;
            R->num[slot << 1] = (int16_t) R->n;
            R->node[R->n++] = (uint16_t) (slot << 1);
            R->num[slot << 1 | 1] = (int16_t) R->n;
            R->node[R->n++] = (uint16_t) (slot << 1 | 1);
        }
    R->core_bits = R->n;
    for (int k = 0; k < nother; k++) {
        R->num[other[k] << 1] = (int16_t) R->n;
        R->node[R->n++] = (uint16_t) (other[k] << 1);
    }
}

/* Whether the link into "on" potential `node` by `cause` (as off_to_on's)
 * has rule parents in a nested search: the cell lost a candidate (cause
 * 1), or the region a place of the digit (2 + t), on the way from the
 * outer run's start. */
static bool ra_link_dirty(const struct reach_all *R, int node, int cause)
{
    const int cell = node_cell(node);
    if (cause == 1)
        return R->gone_cell[cell] != 0;
    return (R->gone_region[se_cell_region[cell][cause - 2]] >> node_value(node)) & 1;
}

/* The links of potential number i, made as Tarjan first visits it (see
 * ra_comp): most potentials are never visited. */
static void ra_links(void *ctx, int i)
{
    struct reach_all *R = ctx;
    struct chain_ctx *x = R->x;
    int p = R->node[i], n, ne = R->nedges;
    R->first[i] = ne;
    R->dirty_link[i] = false;
    if (node_on(p)) {
        /* on_to_off's, read from the grid's places (no list kept: the
         * detailed runs make theirs) */
        const int cell = node_cell(p), v = node_value(p);
        uint16_t sinks[32];
        int ns = 0;
        unsigned others = x->y_links ? x->grid->cand[cell] & SE_ALL & ~(1u << v) : 0;
        for (; others; others &= others - 1) {
            const int slot = cell * 9 + __builtin_ctz(others) - 1;
            if (R->linked[slot])
                R->to[ne++] = (uint16_t) R->num[slot << 1];
            else
                sinks[ns++] = (uint16_t) R->num[slot << 1];
        }
        const uint16_t *met = met_places[cell];
        for (int t = 0; t < 3; t++) {
            const int r = se_cell_region[cell][t];
            for (unsigned m = x->pos0[r][v] & ~met[t]; m; m &= m - 1) {
                const int slot = se_region_cell[r][__builtin_ctz(m)] * 9 + v - 1;
                if (R->linked[slot])
                    R->to[ne++] = (uint16_t) R->num[slot << 1];
                else
                    sinks[ns++] = (uint16_t) R->num[slot << 1];
            }
        }
        R->end[i] = ne;
        for (int k = 0; k < ns; k++)
            R->to[ne++] = sinks[k];
    } else {
        struct on_item items[4];
        n = off_to_on(x->grid, x->grid, x->pos0, x->pos0, p, x->y_links, true, items);
        for (int k = 0; k < n; k++) {
            R->to[ne++] = (uint16_t) ra_num(R, items[k].node);
            if (x->collect && ra_link_dirty(R, items[k].node, items[k].cause))
                R->dirty_link[i] = true;
        }
        R->end[i] = ne;
    }
    R->sinks_end[i] = R->nedges = ne;
}

static inline void set_bit(uint64_t *set, int m)
{
    set[m >> 6] |= 1ull << (m & 63);
}

/* Whether a set holds both potentials of a core candidate (the pairs of
 * numbers below core_bits: the others have one potential numbered). */
static bool set_clashes(const struct reach_all *R, const uint64_t *set)
{
    uint64_t clash = 0;
    for (int j = 0; j * 64 < R->core_bits; j++) {
        const int left = R->core_bits - j * 64;
        const uint64_t pairs = left >= 64 ? ~0ull : (1ull << left) - 1;
        clash |= set[j] & (set[j] >> 1) & 0x5555555555555555ull & pairs;
    }
    return clash != 0;
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
    bool dirty = false;
    for (int i = bottom; i < top; i++)
        R->comp[R->stack[i]] = (int16_t) k;
    for (int i = bottom; i < top; i++) {
        int m = R->stack[i];
        set[m >> 6] |= 1ull << (m & 63);
        dirty = dirty || R->dirty_link[m];
        for (int e = R->first[m]; e < R->end[m]; e++) {
            int y = R->comp[R->to[e]];
            if (y == k)
                continue;
            const uint64_t *ys = R->set + (size_t) y * W;
            for (int j = 0; j < W; j++)
                set[j] |= ys[j];
            dirty = dirty || R->dirty_any[y];
        }
        for (int e = R->end[m]; e < R->sinks_end[m]; e++)
            set[R->to[e] >> 6] |= 1ull << (R->to[e] & 63);
    }
    R->clash[k] = set_clashes(R, set);
    R->dirty_any[k] = dirty;
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
        se_tarjan_root(&T, i, &R->counter, ra_pop, R);
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
    R->near = malloc(
        sizeof(*R->near) * NEAR_ENTRIES * 2 * (size_t) (R->words ? R->words : 1));
    if (!R->set || !R->near) {
        free(R->set);
        free(R->near);
        free(R);
        return NULL;
    }
    memset(R->near_made, 0, sizeof(R->near_made));
    R->ncomp = R->counter = 0;
    for (int i = 0; i < R->n; i++)
        R->index[i] = -1; /* no component made yet (see ra_comp) */
    memset(R->gone_cell, 0, sizeof(R->gone_cell));
    memset(R->gone_region, 0, sizeof(R->gone_region));
    for (int cell = 0; x->collect && cell < SE_CELLS; cell++) {
        R->gone_cell[cell] = (uint16_t) (x->src->cand[cell] & ~x->grid->cand[cell]);
        for (int t = 0; t < 3; t++)
            R->gone_region[se_cell_region[cell][t]] |= R->gone_cell[cell];
    }
    return R;
}

static void reach_all_free(struct reach_all *R)
{
    if (R) {
        free(R->set);
        free(R->near);
    }
    free(R);
}

/* Adds what the "off" potential of candidate `slot` reaches to a near
 * entry's two sets (see struct reach_all). */
static void near_add(struct reach_all *R, int slot, uint64_t *linked, uint64_t *bits)
{
    const int off = R->num[slot << 1];
    if (!R->linked[slot]) {
        set_bit(bits, off);
        return;
    }
    const uint64_t *ys = R->set + (size_t) ra_comp(R, off) * R->words;
    for (int j = 0; j < R->words; j++)
        linked[j] |= ys[j];
}

/* Makes near entry e (see near_entry). */
static const uint64_t *near_make(struct chain_ctx *x, int e)
{
    struct reach_all *R = x->reach_all;
    const int W = R->words;
    uint64_t *linked = R->near + (size_t) e * 2 * W, *bits = linked + W;
    R->near_made[e] = true;
    memset(linked, 0, sizeof(*linked) * 2 * (size_t) W);
    if (e < SE_CELLS) {
        for (unsigned m = x->grid->cand[e] & SE_ALL; m; m &= m - 1)
            near_add(R, e * 9 + __builtin_ctz(m) - 1, linked, bits);
        return linked;
    }
    const int r = (e - SE_CELLS) / 9, v = (e - SE_CELLS) % 9 + 1;
    for (unsigned m = x->pos0[r][v]; m; m &= m - 1)
        near_add(R, se_region_cell[r][__builtin_ctz(m)] * 9 + v - 1, linked, bits);
    return linked;
}

/* Near entry e (see struct reach_all): cell e, or region (e - SE_CELLS) / 9
 * and digit (e - SE_CELLS) % 9 + 1; two in three are made already. */
static inline const uint64_t *near_entry(struct chain_ctx *x, int e)
{
    const struct reach_all *R = x->reach_all;
    if (R->near_made[e])
        return R->near + (size_t) e * 2 * R->words;
    return near_make(x, e);
}

/* The reach of "on" (cell, v) whose candidate is outside the core (not
 * `linked`), into `set`. No link leads to that potential (an "on" one is
 * led to only from the "off" one at a strong link's other end), so its
 * component is itself, and its reach is itself, its "off" potentials
 * (on_to_off's: the cell's other candidates, v's other places in the box,
 * row and column) and theirs: the set Tarjan from it would make (ra_links,
 * ra_pop), without the walk and the lists of links. Most of the potentials
 * the groups ask for are such (the core is ~15% of the candidates). Those
 * "off" potentials are the cell's and the three regions' places of v less
 * (cell, v) itself, which has no links (it is outside the core): so the
 * union of the four near entries, less that one bit where only it put it
 * (the entries' bits of potentials without links). The entries serve every
 * candidate of the cell and every place of v in the regions. */
static void source_reach(struct chain_ctx *x, int cell, int v, uint64_t *set)
{
    struct reach_all *R = x->reach_all;
    const int W = R->words, own = R->num[(cell * 9 + v - 1) << 1];
    const uint64_t *a = near_entry(x, cell);
    const uint64_t *b = near_entry(x, SE_CELLS + se_cell_region[cell][0] * 9 + v - 1);
    const uint64_t *c = near_entry(x, SE_CELLS + se_cell_region[cell][1] * 9 + v - 1);
    const uint64_t *d = near_entry(x, SE_CELLS + se_cell_region[cell][2] * 9 + v - 1);
    for (int w = 0; w < W; w++) {
        uint64_t bits = a[W + w] | b[W + w] | c[W + w] | d[W + w];
        if (w == own >> 6)
            bits &= ~(1ull << (own & 63));
        set[w] = a[w] | b[w] | c[w] | d[w] | bits;
    }
}

/* What the "on" run of a candidate can hold, by number (NULL: no memory).
 * A reach with a contradiction is replaced by its detailed run's set. By
 * candidate number, run_set_made says what run_sets holds: 0 nothing, 1
 * the detailed run's set, 2 the reach of a candidate outside the core. */
static const uint64_t *on_reach(struct chain_ctx *x, int cell, int v)
{
    struct reach_all *R = x->reach_all;
    int slot = cell * 9 + v - 1, i = R->id[slot];
    uint64_t *own = x->run_sets + (size_t) i * R->words;
    if (x->run_set_made[i])
        return own;
    if (!R->linked[slot]) {
        source_reach(x, cell, v, own);
        const int off = R->num[slot << 1];
        if (!set_clashes(R, own) && !((own[off >> 6] >> (off & 63)) & 1)) {
            x->run_set_made[i] = 2;
            return own;
        }
    } else {
        const int comp = ra_comp(R, R->num[slot << 1 | 1]);
        if (!R->clash[comp]) /* a component's set is final once made (ra_pop) */
            return R->set + (size_t) comp * R->words;
    }
    const struct run *r = se_on_run(x, cell, v);
    if (!r)
        return NULL;
    memset(own, 0, sizeof(*own) * (size_t) R->words);
    for (int k = 0; k < r->norder; k++)
        if (ra_num(R, r->order[k]) >= 0) /* all but the start */
            set_bit(own, ra_num(R, r->order[k]));
    x->run_set_made[i] = 1;
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
        unsigned m = se_grid_places(x, r, v);
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
bool se_common_filtered(struct chain_ctx *x, const uint8_t *cells, const uint8_t *digits,
    int n, int cell, int sort_key, int root_cause)
{
    if (n < 1)
        return true; /* no runs: no group (never met: groups have two or more) */
    /* the members' reaches, met one by one: most groups share nothing, and
     * the first two or three tell, before the others' reaches are made */
    const int W = x->reach_all->words;
    uint64_t meet[NODES / 64 + 1];
    for (int i = 0; i < n; i++) {
        const uint64_t *set = on_reach(x, cells[i], digits[i]);
        if (!set)
            return false;
        uint64_t any = 0;
        for (int w = 0; w < W; w++)
            any |= meet[w] = i ? meet[w] & set[w] : set[w];
        if (!any)
            return true;
    }
    struct run *runs[9];
    for (int i = 0; i < n; i++)
        if (!(runs[i] = se_on_run(x, cells[i], digits[i])))
            return false;
    se_common_hints(x, runs, n, cell, sort_key, root_cause);
    return true;
}

/* Whether the "off" potential of candidate `slot` reaches a dirty "on"
 * link: through its component, when it has links. */
static bool off_dirty(struct reach_all *R, int slot)
{
    return R->linked[slot] && R->dirty_any[ra_comp(R, R->num[slot << 1])];
}

void se_chains_wanted(struct chain_ctx *x, struct chains_wanted *want)
{
    struct reach_all *R = x->reach_all;
    const struct se_grid *g = x->grid;
    /* by cell, the candidates with a weak link to an "off" potential that
     * reaches a dirty "on" link: the cell's other candidates, and v's other
     * places in the box, row and column of the "off" potential's cell */
    uint16_t near_hot[SE_CELLS] = { 0 };
    for (int cell = 0; cell < SE_CELLS; cell++)
        for (unsigned m = R->core_cell[cell] & SE_ALL; m; m &= m - 1) {
            const int v = __builtin_ctz(m);
            if (!off_dirty(R, cell * 9 + v - 1))
                continue;
            near_hot[cell] |= (uint16_t) (g->cand[cell] & ~(1u << v));
            for (int t = 0; t < 3; t++) {
                const int r = se_cell_region[cell][t];
                for (unsigned o = x->pos0[r][v] & ~(1u << region_index(cell, t)); o;
                     o &= o - 1)
                    near_hot[se_region_cell[r][__builtin_ctz(o)]] |= (uint16_t) (1u << v);
            }
        }
    for (int cell = 0; cell < SE_CELLS; cell++)
        want->cell[cell] = R->gone_cell[cell] != 0;
    memcpy(want->region, R->gone_region, sizeof(want->region));
    for (int cell = 0; cell < SE_CELLS; cell++) {
        const unsigned cand = g->cand[cell] & SE_ALL;
        for (unsigned m = cand & (cand - 1) ? cand : 0; m; m &= m - 1) {
            const int v = __builtin_ctz(m), slot = cell * 9 + v - 1;
            /* in the core, through its component; outside it, its links
             * lead only to "off" potentials: through one of those */
            const bool hot = R->linked[slot]
                ? R->dirty_any[ra_comp(R, R->num[slot << 1 | 1])]
                : (near_hot[cell] >> v) & 1;
            if (!hot)
                continue;
            want->cell[cell] = true;
            for (int t = 0; t < 3; t++)
                want->region[se_cell_region[cell][t]] |= (uint16_t) (1u << v);
        }
    }
}

/* cell_chains of the multiple kind (it has no binary hints), the detailed
 * runs only where a hint can be. */
void se_cell_chains_filtered(struct chain_ctx *x, int cell)
{
    int card = se_popcount(x->grid->cand[cell]);
    uint8_t cells[9], digits[9];
    int k = 0;
    for (int v = 1; v <= 9; v++) {
        if (!(x->grid->cand[cell] & (1u << v)))
            continue;
        if (!region_groups(x, cell, v, se_common_filtered))
            return;
        cells[k] = (uint8_t) cell;
        digits[k++] = (uint8_t) v;
    }
    if (card == 2 || (x->multiple && card > 2))
        se_common_filtered(x, cells, digits, k, cell, 5, 1);
}

/* The reach of every potential for cell_chains_filtered, or false (then
 * the search runs as before). */
bool se_filter_begin(struct chain_ctx *x)
{
    if (x->dynamic || x->level != 0 || x->kind != SE_CH_MULTIPLE)
        return false;
    x->reach_all = reach_all_of(x);
    if (!x->reach_all)
        return false;
    size_t n = (size_t) x->reach_all->ncand;
    x->run_sets
        = malloc(sizeof(*x->run_sets) * (n ? n : 1) * (size_t) x->reach_all->words);
    x->run_set_made = calloc(n ? n : 1, 1);
    if (x->run_sets && x->run_set_made)
        return true;
    se_filter_end(x);
    return false;
}

void se_filter_end(struct chain_ctx *x)
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
    struct run *r = se_on_run(x, cell, v);
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
    se_start_run(x, x->off_run, node_of(cell, v, 0));
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
    se_common_hints(x, runs, n, cell, sort_key, root_cause);
    return true;
}

/* cell_chains of Nishio and dynamic chains at level 0, the detailed runs
 * only where a hint can be. */
void se_cell_chains_implied(struct chain_ctx *x, int cell)
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
bool se_implied_begin(struct chain_ctx *x)
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

void se_implied_end(struct chain_ctx *x)
{
    if (x->implied)
        free(x->implied->sup);
    free(x->implied);
    x->implied = NULL;
}
