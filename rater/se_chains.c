/* Sudoku Explainer's chains (rater/se_chains.h): the producers of each
 * kind and level, nested multiple chains, and se_chains. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rater/se_chains.h"

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

/* The runs of "on" assumptions a search made: most of the 729 slots are
 * empty (a nested search makes a few runs), so only the others are handed
 * back. */
static void free_on_runs(struct chain_ctx *x)
{
    for (int i = 0; i < SE_CELLS * 9; i++)
        if (x->on_runs[i]) {
            se_run_free(x->rt->chains, x->on_runs[i]);
            x->on_runs[i] = NULL;
        }
}

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
    x->off_run = se_run_alloc(x->rt->chains);
    const bool filtered = se_filter_begin(x), implied = !filtered && se_implied_begin(x);
    x->run_failed = !x->off_run;
    for (int cell = 0; x->off_run && cell < SE_CELLS; cell++) {
        int card = se_popcount(x->grid->cand[cell]);
        if (x->grid->value[cell] || !(card > 2 || (card > 1 && x->dynamic)))
            continue;
        if (filtered)
            se_cell_chains_filtered(x, cell);
        else if (implied)
            se_cell_chains_implied(x, cell);
        else
            se_cell_chains(x, cell);
    }
    if (filtered)
        se_filter_end(x);
    se_implied_end(x);
    se_run_free(x->rt->chains, x->off_run);
    x->off_run = NULL;
    free_on_runs(x);
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

/* cell_chains and region_hints of a non-dynamic collecting search: the
 * common_hints of the groups whose chains can have rule parents
 * (se_chains_wanted) and the reaches of whose runs can share a potential
 * (se_common_filtered). The nested grid's runs are non-dynamic and of level
 * 0 (no rules), so they follow the one link graph of se_filter_begin, which
 * both tests read (each component made once, as first asked for): a group
 * whose reaches share nothing has no potential in all its runs, and
 * common_hints would push no hint. The groups that remain give theirs in
 * the same order. */
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
            unsigned m = x->pos0[r][v]; /* a nested grid's (nested_list_of) */
            if (!(m & (m - 1)) || se_region_cell[r][__builtin_ctz(m)] != cell
                || !(want->region[r] >> v & 1))
                continue;
            uint8_t places[9], same[9];
            int n = 0;
            /* counted by table (see on_to_off) */
            for (int left = se_size_of[m]; left > 0; left--, m &= m - 1) {
                places[n] = (uint8_t) se_region_cell[r][__builtin_ctz(m)];
                same[n++] = (uint8_t) v;
            }
            if (!se_common_filtered(x, places, same, n, cell, 6, 2 + t))
                return;
        }
        cells[k] = (uint8_t) cell;
        digits[k++] = (uint8_t) v;
    }
    if (want->cell[cell])
        se_common_filtered(x, cells, digits, k, cell, 5, 1);
}

/* The multiple chains of a nested grid (see above); without the filter (no
 * memory) every group's. */
static void nested_multiple(struct chain_ctx *x)
{
    if (!se_filter_begin(x)) {
        multiple_producer(x);
        return;
    }
    struct chains_wanted want;
    se_chains_wanted(x, &want);
    for (int cell = 0; cell < SE_CELLS; cell++)
        if (!x->grid->value[cell] && se_popcount(x->grid->cand[cell]) > 2)
            wanted_cell_chains(x, cell, &want);
    se_filter_end(x);
    free_on_runs(x);
}

/* The searches of a grid a nested run stalled on (se_nested_search_fn). */
static void nested_search(struct chain_ctx *n, int rule)
{
    if (rule >= RULE_DYNAMIC)
        multiple_producer(n);
    else if (rule == RULE_MULTIPLE)
        nested_multiple(n);
    else
        se_cycles_producer(n);
}

bool se_chains(struct se_rater *rt, const struct se_grid *g, enum se_chain_kind kind,
    int level, struct se_step *s)
{
    if (level > SE_CH_LEVEL_MAX)
        return false;
    struct chain_ctx *x = se_ctx_take(rt, &rt->chains->spare_top);
    if (!x)
        return false;
    x->nested_search = nested_search;
    x->grid = g;
    x->kind = kind;
    x->level = level < 4 ? level : 4;
    x->nest_limit = level - x->level;
    x->dynamic = kind == SE_CH_NISHIO || kind == SE_CH_DYNAMIC;
    x->y_links = kind != SE_CH_NISHIO;
    x->multiple = kind == SE_CH_MULTIPLE || kind == SE_CH_DYNAMIC;
    if (level >= 2)
        x->memo = se_memo_for(rt->chains, g, level);
    /* level 4's runs are not level 3's gone on (see stall_rules) */
    const bool snaps = kind == SE_CH_DYNAMIC && level < 4;
    if (snaps)
        se_snaps_begin(x, g, level);
    if (kind == SE_CH_CYCLES)
        se_cycles_producer(x);
    else
        multiple_producer(x);
    if (snaps)
        se_snaps_end(x);
    bool found = x->have;
    if (found)
        *s = x->best;
    if (level >= 4)
        se_memo_drop(rt->chains); /* its nested dynamic chains serve no other level */
    se_ctx_give_back(&rt->chains->spare_top, x);
    return found;
}

struct se_chains_memo *se_chains_memo_new(void)
{
    return calloc(1, sizeof(struct se_chains_memo));
}

void se_chains_release(struct se_chains_memo *m)
{
    se_memo_drop(m);
    se_snap_store_free(m->snap_last);
    se_snap_store_free(m->snap_level0);
    se_snap_store_free(m->snap_level1);
    m->snap_last = m->snap_level0 = m->snap_level1 = NULL;
    se_spare_cycle_drop(m);
    se_spare_ctx_drop(m);
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
