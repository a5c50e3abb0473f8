/* dlx: Knuth's Algorithm X with dancing links, on common/exact_cover.h's model.
 *
 * Algorithm. The exact-cover matrix (items = cell, row-value, column-value,
 * box-value and, in the diagonal variant, diagonal-value constraints; options
 * = "value v in cell c") is linked once per grid shape. For each puzzle the
 * options of the clues are committed (their items covered), Algorithm X runs
 * (choose the active item of least LEN, the first one on a tie; cover it; try
 * each of its options in turn, covering the option's other items), and the
 * links are copied back from the state they were built in, so nothing is
 * allocated per puzzle. Origin: D. E. Knuth, "Dancing links" (2000) and
 * TAOCP 7.2.2.1 Algorithm X, whose field names (TOP, U, D, LEN) are kept;
 * written here for sudolab.
 *
 * Memory layout, and where it departs from Knuth's. The nodes of one option
 * sit in W consecutive slots (W = 4, or 8 for the diagonal variant, whose
 * options have 4 to 6 items), starting at a multiple of W, so the other nodes
 * of an option are found by index arithmetic (no spacer nodes, no branch) and
 * option k starts at node FIRST + k*W. Unused slots are pads: they point to a
 * sink item that is never chosen and link to themselves, so hiding one is a
 * harmless no-op. Instead of the L/R ring of active items, LEN is a dense
 * array in which a covered item carries a large bias: choosing the item of
 * least LEN is then a vectorised scan instead of a pointer chase. Together
 * the two made the search about 1.6 times faster than Knuth's layout on the
 * 17-clue corpus (the least-LEN walk and the spacer tests were most of it).
 *
 *   LEN:   [0] [1] [2] ... [N] [pad to 8]  [sink]    0 and pads: biased,
 *                                                    covered items: +BIAS
 *   node:  0 .. N       headers, one per item: U/D = last/first node of it
 *          FIRST + k*W  option k = "value k%n+1 in cell k/n": its W slots,
 *                       TOP = item (cell item first), pads TOP = sink
 *
 *        header i          option nodes of item i, top to bottom
 *        +-------+  D   +-------+  D   +-------+  D
 *        |  (i)  | ---> | TOP=i | ---> | TOP=i | ---> (back to header i)
 *        +-------+  <---+-------+  <---+-------+
 *                   U              U
 *
 * Counting: when no solution callback and no trace watch the search, the
 * options of a chosen cell item whose values are placed nowhere yet are
 * interchangeable (relabelling two such values maps one subtree onto the
 * other): only the first is searched, its solutions counted once per such
 * option. The counts are unchanged (test_mrv_dlx compares full enumeration);
 * the counters describe the smaller search. Proper puzzles use every value
 * in their clues and are not affected.
 *
 * Counters:
 *   steps      options chosen by the search (forced or tried; clues not
 *              counted), i.e. values placed;
 *   guesses    options tried for an item that had two or more (LEN >= 2);
 *   backtracks dead ends: levels whose chosen item had no option left;
 *   nodes      search levels entered (calls of the recursive search).
 * Trace: SINGLETON for an option chosen from an item with LEN 1, GUESS for
 * LEN >= 2, UNDO when it is taken back, DEAD at an item with LEN 0 (its cell
 * when it is a cell item, else -1), SOLUTION. */
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/exact_cover.h"
#include "solvers/registry.h"

#define DLX_INLINE static inline __attribute__((always_inline))

enum { DLX_BIAS = 0x4000 }; /* added to LEN of covered and unused items */

struct dlx_node {
    int32_t TOP; /* the item of this node (the sink for a pad); unused in headers */
    int32_t U, D;
};

struct dlx_state {
    struct exact_cover ec; /* the model of the shape linked below */
    int width; /* W: node slots per option, a power of two */
    int32_t first; /* FIRST: node of option 0, a multiple of W */
    int nscan; /* LEN entries scanned: 0..N padded to a multiple of 8 */
    int32_t sink; /* the item of the pads (== nscan) */
    size_t nnodes;
    struct dlx_node *node;
    uint16_t *LEN; /* [nscan + 1] */
    struct dlx_node *node0; /* node and LEN as linked, restored after each puzzle */
    uint16_t *LEN0;
    int32_t *choice; /* [ncells]: node chosen at each level */
    uint8_t *row_value; /* [nrows]: value of each option, 0-based */
    uint16_t uses[GRID_MAX_N]; /* options of each value committed (clues too) */
    grid_mask used; /* values with uses > 0 */
    bool collapse; /* merge value-symmetric options (counting only) */
    bool stop;
    uint64_t weight; /* solutions each leaf stands for, see dlx_level */
    const struct solve_request *req;
    struct solve_result *res;
    struct grid work;
};

static void dlx_release(struct dlx_state *st)
{
    exact_cover_free(&st->ec);
    free(st->node);
    free(st->LEN);
    free(st->choice);
    free(st->row_value);
    free(st->node0);
    free(st->LEN0);
    st->node = NULL;
    st->LEN = NULL;
    st->choice = NULL;
    st->row_value = NULL;
    st->node0 = NULL;
    st->LEN0 = NULL;
}

static void dlx_fini(void *priv)
{
    dlx_release(priv);
}

/* Links the matrix for the shape of g (once per shape). */
static int dlx_fit(struct dlx_state *st, const struct grid *g)
{
    if (exact_cover_fits(&st->ec, g))
        return 0;
    dlx_release(st);
    if (exact_cover_build(&st->ec, g) != 0)
        return -1;
    const struct exact_cover *ec = &st->ec;
    const int w = g->variant == GRID_DIAGONAL ? 8 : 4;
    st->width = w;
    st->first = (ec->ncols + 1 + w - 1) / w * w;
    st->nscan = (ec->ncols + 1 + 7) / 8 * 8;
    st->sink = st->nscan;
    const size_t nnodes = (size_t) st->first + (size_t) ec->nrows * (size_t) w;
    const size_t nlen = (size_t) st->nscan + 1;
    st->nnodes = nnodes;
    st->node = malloc(nnodes * sizeof(*st->node));
    st->LEN = malloc(nlen * sizeof(*st->LEN));
    st->node0 = malloc(nnodes * sizeof(*st->node0));
    st->LEN0 = malloc(nlen * sizeof(*st->LEN0));
    st->choice = malloc((size_t) ec->ncells * sizeof(*st->choice));
    st->row_value = malloc((size_t) ec->nrows);
    if (!st->node || !st->LEN || !st->node0 || !st->LEN0 || !st->choice
        || !st->row_value) {
        dlx_release(st);
        return -1;
    }
    for (int32_t i = 0; i < st->first; i++)
        st->node[i] = (struct dlx_node) { 0, i, i };
    for (int i = 0; i <= st->nscan; i++)
        st->LEN[i] = i >= 1 && i <= ec->ncols ? 0 : DLX_BIAS;
    for (int r = 0; r < ec->nrows; r++) {
        const int32_t base = st->first + r * w;
        const int k = ec->row_ncols[r];
        st->row_value[r] = (uint8_t) (exact_cover_row_value(ec, r) - 1);
        for (int j = 0; j < w; j++) {
            const int32_t p = base + j;
            if (j >= k) {
                st->node[p] = (struct dlx_node) { st->sink, p, p };
                continue;
            }
            const int32_t i = ec->row_col[(size_t) r * EXACT_COVER_MAX_ROW_COLS + j] + 1;
            const int32_t above = st->node[i].U;
            st->node[p] = (struct dlx_node) { i, above, i };
            st->node[above].D = p;
            st->node[i].U = p;
            st->LEN[i]++;
        }
    }
    memcpy(st->node0, st->node, nnodes * sizeof(*st->node));
    memcpy(st->LEN0, st->LEN, nlen * sizeof(*st->LEN));
    return 0;
}

/* Removes the options of item i from the other items; W is a power of two. */
DLX_INLINE void dlx_cover(
    struct dlx_node *restrict nd, uint16_t *restrict LEN, int32_t i, const int w)
{
    LEN[i] += DLX_BIAS;
    for (int32_t p = nd[i].D; p != i; p = nd[p].D) {
        const int32_t base = p & ~(w - 1);
        for (int j = 1; j < w; j++) {
            const int32_t q = base | ((p + j) & (w - 1));
            const int32_t x = nd[q].TOP, u = nd[q].U, d = nd[q].D;
            nd[u].D = d;
            nd[d].U = u;
            LEN[x]--;
        }
    }
}

/* Undoes dlx_cover: the options come back bottom to top. */
DLX_INLINE void dlx_uncover(
    struct dlx_node *restrict nd, uint16_t *restrict LEN, int32_t i, const int w)
{
    for (int32_t p = nd[i].U; p != i; p = nd[p].U) {
        const int32_t base = p & ~(w - 1);
        for (int j = w - 1; j >= 1; j--) {
            const int32_t q = base | ((p + j) & (w - 1));
            const int32_t x = nd[q].TOP, u = nd[q].U, d = nd[q].D;
            nd[u].D = q;
            nd[d].U = q;
            LEN[x]++;
        }
    }
    LEN[i] -= DLX_BIAS;
}

/* Covers the items of p's option other than TOP(p), in cyclic order from p. */
DLX_INLINE void dlx_commit_rest(struct dlx_state *st, int32_t p, const int w)
{
    const int32_t base = p & ~(w - 1);
    const int v = st->row_value[(base - st->first) / w];
    if (st->uses[v]++ == 0)
        st->used |= (grid_mask) 1 << v;
    for (int j = 1; j < w; j++) {
        const int32_t x = st->node[base | ((p + j) & (w - 1))].TOP;
        if (w == 4 || x != st->sink)
            dlx_cover(st->node, st->LEN, x, w);
    }
}

/* Undoes dlx_commit_rest, in reverse order. */
DLX_INLINE void dlx_uncommit_rest(struct dlx_state *st, int32_t p, const int w)
{
    const int32_t base = p & ~(w - 1);
    const int v = st->row_value[(base - st->first) / w];
    if (--st->uses[v] == 0)
        st->used &= ~((grid_mask) 1 << v);
    for (int j = w - 1; j >= 1; j--) {
        const int32_t x = st->node[base | ((p + j) & (w - 1))].TOP;
        if (w == 4 || x != st->sink)
            dlx_uncover(st->node, st->LEN, x, w);
    }
}

/* The active item of least LEN (the first on a tie), or 0 when none is left;
 * *len gets its LEN. Covered items and the unused entries carry DLX_BIAS. */
static int32_t dlx_choose(const uint16_t *LEN, int nscan, int *len)
{
#if defined(__SSE2__)
    /* 1.4 times faster overall than the portable loops below. Every LEN is
     * below 0x8000, so signed 16-bit minima are exact. */
    __m128i m = _mm_set1_epi16(0x7fff);
    for (int i = 0; i < nscan; i += 8)
        m = _mm_min_epi16(m, _mm_loadu_si128((const __m128i *) (LEN + i)));
    m = _mm_min_epi16(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm_min_epi16(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
    m = _mm_min_epi16(m, _mm_shufflelo_epi16(m, _MM_SHUFFLE(2, 3, 0, 1)));
    const int least = _mm_extract_epi16(m, 0);
    if (least >= DLX_BIAS)
        return 0;
    *len = least;
    const __m128i want = _mm_set1_epi16((short) least);
    for (int i = 0;; i += 8) {
        const __m128i v = _mm_loadu_si128((const __m128i *) (LEN + i));
        const int hit = _mm_movemask_epi8(_mm_cmpeq_epi16(v, want));
        if (hit)
            return i + __builtin_ctz((unsigned) hit) / 2;
    }
#else
    /* the same two passes; compilers vectorise the first */
    uint16_t least = 0xffff;
    for (int i = 0; i < nscan; i++)
        least = LEN[i] < least ? LEN[i] : least;
    if (least >= DLX_BIAS)
        return 0;
    *len = least;
    int32_t best = 0;
    while (LEN[best] != least)
        best++;
    return best;
#endif
}

static int dlx_option_row(const struct dlx_state *st, int32_t p)
{
    return (p - st->first) / st->width;
}

static void dlx_emit_option(struct dlx_state *st, enum solver_event_kind kind, int32_t p)
{
    const int row = dlx_option_row(st, p);
    solver_emit(st->req, st->res, kind, exact_cover_row_cell(&st->ec, row),
        exact_cover_row_value(&st->ec, row));
}

/* Every item covered: the choices stand for st->weight solutions (1 unless
 * value-symmetric options were merged); the first is recorded as a grid. */
static void dlx_leaf(struct dlx_state *st, int depth)
{
    const struct solve_request *req = st->req;
    struct solve_result *res = st->res;
    if (req->trace)
        solver_emit(req, res, SOLVER_EVENT_SOLUTION, -1, 0);
    uint64_t more = st->weight;
    if (solver_wants_grid(req, res)) {
        for (int k = 0; k < depth; k++) {
            const int row = dlx_option_row(st, st->choice[k]);
            st->work.cell[exact_cover_row_cell(&st->ec, row)]
                = (uint8_t) exact_cover_row_value(&st->ec, row);
        }
        st->stop = solver_record_solution(req, res, &st->work);
        more--;
    }
    if (st->stop || more == 0)
        return;
    st->stop = solver_count_solutions(req, res, more);
}

static __attribute__((noinline, cold)) void dlx_dead(struct dlx_state *st, int32_t item)
{
    st->res->counters.backtracks++;
    if (st->req->trace) {
        const int cell = item <= st->ec.ncells ? item - 1 : -1;
        solver_emit(st->req, st->res, SOLVER_EVENT_DEAD, cell, 0);
    }
}

typedef void dlx_search_fn(struct dlx_state *st, int depth);

/* One level of Algorithm X, for options of w slots; `self` is the instance
 * that includes this body, for the recursion. */
DLX_INLINE void dlx_level(
    struct dlx_state *st, int depth, const int w, dlx_search_fn *self)
{
    struct dlx_node *restrict nd = st->node;
    struct solve_result *res = st->res;
    res->counters.nodes++;
    int len = 0;
    const int32_t best = dlx_choose(st->LEN, st->nscan, &len);
    if (best == 0) {
        dlx_leaf(st, depth);
        return;
    }
    if (len == 0) {
        dlx_dead(st, best);
        return;
    }
    const bool branching = len >= 2;
    const enum solver_event_kind kind
        = branching ? SOLVER_EVENT_GUESS : SOLVER_EVENT_SINGLETON;
    /* In a cell item, options of values placed nowhere yet are interchangeable
     * (swapping two such values maps one subtree onto the other): only the
     * first is searched, and its leaves count for all of them. */
    int twins = 0;
    if (st->collapse && branching && best <= st->ec.ncells) {
        for (int32_t p = nd[best].D; p != best; p = nd[p].D)
            twins += !(st->used >> st->row_value[dlx_option_row(st, p)] & 1);
    }
    bool twin_done = false;
    dlx_cover(nd, st->LEN, best, w);
    for (int32_t p = nd[best].D; p != best; p = nd[p].D) {
        const bool twin
            = twins >= 2 && !(st->used >> st->row_value[dlx_option_row(st, p)] & 1);
        if (twin && twin_done)
            continue;
        if (solver_over_budget(st->req, res)) {
            st->stop = true;
            return;
        }
        res->counters.steps++;
        res->counters.guesses += branching;
        st->choice[depth] = p;
        if (st->req->trace)
            dlx_emit_option(st, kind, p);
        const uint64_t weight = st->weight;
        if (twin) {
            st->weight = solver_mul_saturated(weight, (uint64_t) twins);
            twin_done = true;
        }
        dlx_commit_rest(st, p, w);
        self(st, depth + 1);
        /* Once stopped, the links are left as they are: dlx_solve restores
         * them wholesale. */
        if (st->stop)
            return;
        dlx_uncommit_rest(st, p, w);
        st->weight = weight;
        if (st->req->trace)
            dlx_emit_option(st, SOLVER_EVENT_UNDO, p);
    }
    dlx_uncover(nd, st->LEN, best, w);
}

static void dlx_search4(struct dlx_state *st, int depth)
{
    dlx_level(st, depth, 4, dlx_search4);
}

static void dlx_search8(struct dlx_state *st, int depth)
{
    dlx_level(st, depth, 8, dlx_search8);
}

/* Unlinks the options of the values a pencil-mark puzzle removed from their
 * items (Knuth's hide, never undone: the links are copied back after the
 * puzzle), so the search never offers them. */
static void dlx_hide_removed(struct dlx_state *st, const struct grid *puzzle)
{
    struct dlx_node *nd = st->node;
    for (int c = 0; c < puzzle->ncells; c++) {
        for (int v = 1; v <= puzzle->n; v++) {
            if (puzzle->candidates[c] >> (v - 1) & 1u)
                continue;
            const int32_t base = st->first + exact_cover_row(&st->ec, c, v) * st->width;
            for (int j = 0; j < st->width; j++) {
                const int32_t q = base + j, u = nd[q].U, d = nd[q].D;
                nd[u].D = d;
                nd[d].U = u;
                st->LEN[nd[q].TOP]--;
            }
        }
    }
}

static void dlx_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct dlx_state *st = priv;
    if (dlx_fit(st, puzzle) != 0) {
        res->outcome = SOLVE_ERROR;
        snprintf(res->error, sizeof(res->error), "out of memory for the links");
        return;
    }
    st->req = req;
    st->res = res;
    st->stop = false;
    /* Given candidates tell the values apart: none is interchangeable. */
    st->collapse
        = req->on_solution == NULL && req->trace == NULL && !puzzle->has_candidates;
    st->weight = 1;
    st->work = *puzzle;
    /* Commit the clues as the search commits a choice. Consistent clues share
     * no item, so each commit finds its items active. */
    const bool narrow = st->width == 4;
    for (int c = 0; c < puzzle->ncells; c++) {
        if (puzzle->cell[c]) {
            const int row = exact_cover_row(&st->ec, c, puzzle->cell[c]);
            const int32_t p = st->first + row * st->width;
            if (narrow) {
                dlx_cover(st->node, st->LEN, st->node[p].TOP, 4);
                dlx_commit_rest(st, p, 4);
            } else {
                dlx_cover(st->node, st->LEN, st->node[p].TOP, 8);
                dlx_commit_rest(st, p, 8);
            }
        }
    }
    if (puzzle->has_candidates)
        dlx_hide_removed(st, puzzle);
    (narrow ? dlx_search4 : dlx_search8)(st, 0);
    /* Copying the links back (39 KB for 9x9) is cheaper than uncovering the
     * clues: 1.1 times faster on 17-clue puzzles, 1.25 on 35-clue ones. */
    memcpy(st->node, st->node0, st->nnodes * sizeof(*st->node));
    memcpy(st->LEN, st->LEN0, ((size_t) st->nscan + 1) * sizeof(*st->LEN));
    memset(st->uses, 0, sizeof(st->uses));
    st->used = 0;
}

const struct solver solver_dlx = {
    .name = "dlx",
    .family = "dlx",
    .summary = "Knuth's Algorithm X with dancing links, least-LEN item first",
    .min_n = 1,
    .max_n = GRID_MAX_N,
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_TRACE
        | SOLVER_CAP_STEP_BUDGET | SOLVER_CAP_FAST | SOLVER_CAP_CANDIDATES,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)
        | SOLVER_HAS(nodes),
    .priv_size = sizeof(struct dlx_state),
    .solve = dlx_solve,
    .fini = dlx_fini,
};
