/* mrv and mrv_plain: bitmask candidates, branching on the fewest candidates.
 *
 * Algorithm. Every empty cell keeps a bitmask of its candidates (bit v-1 for
 * value v, uint32_t, so up to 25x25) and every unit (row, column, box and, in
 * the diagonal variant, the two diagonals) a mask of the values placed in it
 * (seed 004's bit sets). Placing a value clears its bit from the peers' masks;
 * a peer left with no candidate is a dead end found at once. `mrv` then
 * propagates naked singles (a cell with one candidate left) and hidden singles
 * (a value with one place left in a unit, found with the once/twice masks of
 * each unit; a value with no place left is a dead end) until neither applies;
 * `mrv_plain` does neither, so the two show what propagation buys. Then both
 * branch on the empty cell with the fewest candidates (the first such cell in
 * row-major order), trying its values in ascending order. A branch copies the
 * small per-level state (cell masks, unit masks, cells left) into the next
 * level, so undoing is free; the last value of a cell is placed in the
 * current level without a copy. Standard 9x9 grids without a trace run an
 * instance of the same code compiled with the 9x9 geometry as constants.
 * Counting: when no solution callback and no trace watch the search, the
 * values placed nowhere yet are interchangeable (relabelling two of them maps
 * a subtree onto another), so of a branch cell's candidates among them only
 * the lowest is searched and its solutions are counted once per such value.
 * This changes no count (test_mrv_dlx checks it against full enumeration) but
 * the counters then describe the smaller search; the empty 6x6 grid counts
 * in milliseconds instead of half a minute. Puzzles whose clues use every
 * value, like all proper puzzles, are not affected.
 * mrv_plain is not SOLVER_CAP_FAST: without hidden singles a hard 9x9 puzzle
 * takes milliseconds.
 * Origin: the textbook method (Norvig's "constraint propagation + search",
 * with bitmasks as in seed 004); written here for sudolab.
 *
 * Counters:
 *   steps      values placed by the search: propagated singles and tried
 *              values alike (the clues are not counted);
 *   guesses    values tried at a branch cell that had two or more candidates
 *              (every value tried, the last one included);
 *   backtracks dead ends: states abandoned because a cell lost its last
 *              candidate or (mrv only) a value lost its last place in a unit;
 *   nodes      search nodes: the root and every state a tried value leads to
 *              (each one propagates, then branches or ends).
 * In mrv_plain a branch cell with a single candidate is not a guess: its
 * value is placed as a SINGLETON step in a node of its own.
 * Trace: SINGLETON for forced values, GUESS for tried ones, UNDO for every
 * value erased when a branch is left, DEAD at each dead end (the cell that
 * lost its last candidate, or -1 for a value with no place), SOLUTION. */
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "solvers/registry.h"

#define MRV_INLINE static inline __attribute__((always_inline))

struct mrv_state {
    struct units u; /* geometry; u.n == 0 until the first puzzle */
    int stride; /* words per level: cell masks, unit masks, cells left */
    uint32_t *levels; /* (ncells + 1) levels of `stride` words, for u's shape */
    bool propagate; /* mrv: true, mrv_plain: false */
    bool collapse; /* merge value-symmetric branches (counting only) */
    bool stop;
    uint64_t weight; /* solutions each leaf stands for, see mrv_node */
    int nqueue, ntrail;
    uint64_t step_limit; /* budget_steps, or UINT64_MAX */
    const struct solve_request *req;
    struct solve_result *res;
    struct grid work; /* values of the cells solved so far, clues included */
    uint16_t queue[GRID_MAX_CELLS]; /* cells that became naked singles */
    uint16_t trail[GRID_MAX_CELLS]; /* cells placed on the current path (trace) */
};

/* What the search needs to know about the shape. The 9x9 instance passes
 * constants, so loops have fixed trip counts; the general one reads st->u. */
struct mrv_cfg {
    int n, ncells, nunits, stride;
    bool fixed9; /* standard 9x9: 3 units and 20 peers per cell */
    bool propagate; /* naked and hidden singles */
    bool traced;
};

static int mrv_popcount(uint32_t x)
{
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    /* without the popcnt instruction the builtin is a libgcc call */
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0f0f0f0fu;
    return (int) ((x * 0x01010101u) >> 24);
#endif
}

static int mrv_init(void *priv, int variant)
{
    struct mrv_state *st = priv;
    st->propagate = variant != 0;
    return 0;
}

static void mrv_fini(void *priv)
{
    struct mrv_state *st = priv;
    free(st->levels);
    st->levels = NULL;
}

/* Rebuilds the tables and the level stack when the shape changes. */
static int mrv_fit(struct mrv_state *st, const struct grid *g)
{
    if (units_fit(&st->u, g))
        return 0;
    free(st->levels);
    units_build(&st->u, g);
    st->stride = g->ncells + st->u.nunits + 1;
    st->levels
        = malloc(((size_t) g->ncells + 1) * (size_t) st->stride * sizeof(uint32_t));
    if (!st->levels) {
        memset(&st->u, 0, sizeof(st->u));
        return -1;
    }
    return 0;
}

static __attribute__((noinline, cold)) bool mrv_dead(struct mrv_state *st, int cell)
{
    st->res->counters.backtracks++;
    solver_emit(st->req, st->res, SOLVER_EVENT_DEAD, cell, 0);
    return false;
}

static __attribute__((noinline, cold)) bool mrv_out_of_steps(struct mrv_state *st)
{
    st->res->outcome = SOLVE_BUDGET;
    st->stop = true;
    return false;
}

/* Places the value `bit` in `cell` of level state s and clears it from the
 * peers. Returns false at a dead end or when the step budget is spent. */
MRV_INLINE bool mrv_assign(struct mrv_state *st, uint32_t *s, int cell, uint32_t bit,
    const struct mrv_cfg k, enum solver_event_kind kind)
{
    if (st->res->counters.steps >= st->step_limit)
        return mrv_out_of_steps(st);
    st->res->counters.steps++;
    const int value = __builtin_ctz(bit) + 1;
    s[cell] = 0;
    s[k.ncells + k.nunits]--;
    st->work.cell[cell] = (uint8_t) value;
    if (k.traced) {
        st->trail[st->ntrail++] = (uint16_t) cell;
        solver_emit(st->req, st->res, kind, cell, value);
    }
    const uint8_t *units = st->u.cell_unit[cell];
    const int nunits = k.fixed9 ? 3 : st->u.cell_nunits[cell];
    for (int i = 0; i < nunits; i++)
        s[k.ncells + units[i]] |= bit;
    const uint16_t *peer = st->u.peer[cell];
    const int npeers = k.fixed9 ? 20 : st->u.npeers[cell];
    for (int i = 0; i < npeers; i++) {
        const int p = peer[i];
        uint32_t c = s[p];
        if (c & bit) {
            c ^= bit;
            s[p] = c;
            if (c == 0)
                return mrv_dead(st, p);
            if (k.propagate && (c & (c - 1)) == 0)
                st->queue[st->nqueue++] = (uint16_t) p;
        }
    }
    return true;
}

/* Naked and hidden singles until none is left. False at a dead end. */
MRV_INLINE bool mrv_propagate(struct mrv_state *st, uint32_t *s, const struct mrv_cfg k)
{
    const uint32_t all = k.n == 32 ? ~0u : (1u << k.n) - 1;
    for (;;) {
        while (st->nqueue > 0) {
            const int p = st->queue[--st->nqueue];
            if (s[p] && !mrv_assign(st, s, p, s[p], k, SOLVER_EVENT_SINGLETON))
                return false;
        }
        bool placed = false;
        for (int u = 0; u < k.nunits; u++) {
            const uint16_t *cells = st->u.unit_cell[u];
            uint32_t once = 0, twice = 0;
            for (int i = 0; i < k.n; i++) {
                const uint32_t c = s[cells[i]];
                twice |= once & c;
                once |= c;
            }
            if ((once | s[k.ncells + u]) != all)
                return mrv_dead(st, -1);
            uint32_t hidden = once & ~twice;
            while (hidden) {
                const uint32_t bit = hidden & -hidden;
                hidden ^= bit;
                int i = 0;
                while (i < k.n && !(s[cells[i]] & bit))
                    i++;
                /* another hidden single of this unit took that cell */
                if (i == k.n)
                    return mrv_dead(st, -1);
                if (!mrv_assign(st, s, cells[i], bit, k, SOLVER_EVENT_SINGLETON))
                    return false;
                placed = true;
            }
        }
        if (!placed)
            return true;
    }
}

/* Erases (for the trace) the values placed since the trail was at mark. */
static void mrv_unwind(struct mrv_state *st, int mark)
{
    while (st->ntrail > mark) {
        const int cell = st->trail[--st->ntrail];
        solver_emit(st->req, st->res, SOLVER_EVENT_UNDO, cell, st->work.cell[cell]);
    }
}

/* A full grid: it stands for st->weight solutions (1 unless value-symmetric
 * branches were merged); the first one is recorded as a grid. */
static void mrv_leaf(struct mrv_state *st, bool traced)
{
    const struct solve_request *req = st->req;
    struct solve_result *res = st->res;
    if (traced)
        solver_emit(req, res, SOLVER_EVENT_SOLUTION, -1, 0);
    uint64_t more = st->weight;
    if (solver_wants_grid(req, res)) {
        st->stop = solver_record_solution(req, res, &st->work);
        more--;
    }
    if (st->stop || more == 0)
        return;
    st->stop = solver_count_solutions(req, res, more);
}

typedef void mrv_search_fn(struct mrv_state *st, int depth);

/* One search node at level `depth` (its state already holds the value that
 * led here), looping in place for the last value of each branch cell. `self`
 * is the instance that includes this body, for the recursion. */
MRV_INLINE void mrv_node(
    struct mrv_state *st, int depth, const struct mrv_cfg k, mrv_search_fn *self)
{
    uint32_t *s = st->levels + (size_t) depth * (size_t) k.stride;
    struct solve_result *res = st->res;
    for (;;) {
        res->counters.nodes++;
        if (k.propagate && !mrv_propagate(st, s, k)) {
            st->nqueue = 0;
            return;
        }
        if (s[k.ncells + k.nunits] == 0) {
            mrv_leaf(st, k.traced);
            return;
        }
        /* After propagation every empty cell has two or more candidates. */
        const int floor = k.propagate ? 2 : 1;
        int best = 0, best_count = 33;
        for (int c = 0; c < k.ncells; c++) {
            const uint32_t m = s[c];
            if (m) {
                const int count = mrv_popcount(m);
                if (count < best_count) {
                    best_count = count;
                    best = c;
                    if (count <= floor)
                        break;
                }
            }
        }
        const bool branching = best_count >= 2;
        const enum solver_event_kind kind
            = branching ? SOLVER_EVENT_GUESS : SOLVER_EVENT_SINGLETON;
        uint32_t left = s[best], twins = 0;
        if (st->collapse && branching) {
            /* Values placed nowhere yet are interchangeable: swapping two of
             * them maps one subtree onto the other, so only the lowest is
             * searched and its leaves count for all of them. */
            uint32_t used = 0;
            for (int r = 0; r < k.n; r++)
                used |= s[k.ncells + r];
            twins = left & ~used;
            if (twins & (twins - 1))
                left = (left & used) | (twins & -twins);
            else
                twins = 0;
        }
        for (;;) {
            const uint32_t bit = left & -left;
            left ^= bit;
            if (solver_over_budget(st->req, res)) {
                st->stop = true;
                return;
            }
            res->counters.guesses += branching;
            const uint64_t weight = st->weight;
            if (bit & twins)
                st->weight = solver_mul_saturated(weight, (uint64_t) mrv_popcount(twins));
            if (left == 0) {
                if (!mrv_assign(st, s, best, bit, k, kind)) {
                    st->nqueue = 0;
                    return;
                }
                break; /* the next node reuses this level; the caller
                          restores the weight */
            }
            uint32_t *t = s + k.stride;
            memcpy(t, s, (size_t) k.stride * sizeof(*t));
            const int mark = st->ntrail;
            if (mrv_assign(st, t, best, bit, k, kind))
                self(st, depth + 1);
            else
                st->nqueue = 0;
            st->weight = weight;
            if (k.traced)
                mrv_unwind(st, mark);
            if (st->stop)
                return;
        }
    }
}

static struct mrv_cfg mrv_cfg_of(const struct mrv_state *st)
{
    return (struct mrv_cfg) { .n = st->u.n,
        .ncells = st->u.ncells,
        .nunits = st->u.nunits,
        .stride = st->stride,
        .propagate = st->propagate,
        .traced = st->req->trace != NULL };
}

static const struct mrv_cfg mrv_cfg9
    = { .n = 9, .ncells = 81, .nunits = 27, .stride = 81 + 27 + 1, .fixed9 = true };

static void mrv_search9(struct mrv_state *st, int depth)
{
    struct mrv_cfg k = mrv_cfg9;
    k.propagate = true;
    mrv_node(st, depth, k, mrv_search9);
}

static void mrv_search9_plain(struct mrv_state *st, int depth)
{
    mrv_node(st, depth, mrv_cfg9, mrv_search9_plain);
}

static void mrv_search_any(struct mrv_state *st, int depth)
{
    struct mrv_cfg k = mrv_cfg_of(st);
    k.propagate = true;
    mrv_node(st, depth, k, mrv_search_any);
}

static void mrv_search_any_plain(struct mrv_state *st, int depth)
{
    struct mrv_cfg k = mrv_cfg_of(st);
    k.propagate = false;
    mrv_node(st, depth, k, mrv_search_any_plain);
}

/* Fills level 0 from the clues. False when an empty cell has no candidate. */
static bool mrv_load(struct mrv_state *st, const struct grid *puzzle)
{
    const struct units *u = &st->u;
    const int ncells = u->ncells;
    const uint32_t all = (uint32_t) ((1ull << u->n) - 1);
    uint32_t *s = st->levels, *placed = s + ncells;
    memset(placed, 0, (size_t) u->nunits * sizeof(*placed));
    for (int c = 0; c < ncells; c++) {
        const int v = puzzle->cell[c];
        if (v) {
            for (int i = 0; i < u->cell_nunits[c]; i++)
                placed[u->cell_unit[c][i]] |= 1u << (v - 1);
        }
    }
    uint32_t left = 0;
    for (int c = 0; c < ncells; c++) {
        s[c] = 0;
        if (puzzle->cell[c])
            continue;
        uint32_t used = 0;
        for (int i = 0; i < u->cell_nunits[c]; i++)
            used |= placed[u->cell_unit[c][i]];
        const uint32_t m
            = all & ~used & (puzzle->has_candidates ? puzzle->candidates[c] : all);
        if (m == 0)
            return mrv_dead(st, c);
        s[c] = m;
        left++;
        if (st->propagate && (m & (m - 1)) == 0)
            st->queue[st->nqueue++] = (uint16_t) c;
    }
    s[ncells + u->nunits] = left;
    return true;
}

static void mrv_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct mrv_state *st = priv;
    if (mrv_fit(st, puzzle) != 0) {
        res->outcome = SOLVE_ERROR;
        snprintf(res->error, sizeof(res->error), "out of memory for the level stack");
        return;
    }
    st->req = req;
    st->res = res;
    st->step_limit = req->budget_steps ? req->budget_steps : UINT64_MAX;
    st->stop = false;
    /* Given candidates tell the values apart: none is interchangeable. */
    st->collapse
        = req->on_solution == NULL && req->trace == NULL && !puzzle->has_candidates;
    st->weight = 1;
    st->nqueue = 0;
    st->ntrail = 0;
    grid_copy(&st->work, puzzle);
    if (!mrv_load(st, puzzle)) {
        res->counters.nodes = 1; /* the root, dead at the clues */
        return;
    }
    const bool fast9 = puzzle->n == 9 && puzzle->box_rows == 3
        && puzzle->variant == GRID_STANDARD && req->trace == NULL;
    if (fast9)
        (st->propagate ? mrv_search9 : mrv_search9_plain)(st, 0);
    else
        (st->propagate ? mrv_search_any : mrv_search_any_plain)(st, 0);
}

const struct solver solver_mrv = {
    .name = "mrv",
    .family = "bitmask",
    .summary = "bitmask candidates, naked + hidden singles, fewest-candidates branching",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* uint32_t masks: 9x9 speed first */
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_TRACE
        | SOLVER_CAP_STEP_BUDGET | SOLVER_CAP_FAST | SOLVER_CAP_CANDIDATES,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)
        | SOLVER_HAS(nodes),
    .variant = 1,
    .priv_size = sizeof(struct mrv_state),
    .init = mrv_init,
    .solve = mrv_solve,
    .fini = mrv_fini,
};

const struct solver solver_mrv_plain = {
    .name = "mrv_plain",
    .family = "bitmask",
    .summary = "the same without propagation: fewest-candidates branching only",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* uint32_t masks: 9x9 speed first */
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_TRACE
        | SOLVER_CAP_STEP_BUDGET | SOLVER_CAP_CANDIDATES,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)
        | SOLVER_HAS(nodes),
    .variant = 0,
    .priv_size = sizeof(struct mrv_state),
    .init = mrv_init,
    .solve = mrv_solve,
    .fini = mrv_fini,
};
