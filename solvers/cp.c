/* cp_fc, cp_gac and cp_sac: Sudoku as a constraint program.
 *
 * Model. Every cell has a domain, a bit set of its values (bit v-1 for value
 * v, so up to 25x25); a clue's domain is that value alone. Every unit (row,
 * column, box and, in the diagonal variant, the two diagonals) is an
 * alldifferent constraint over its N cells. A cell whose domain holds one
 * value is fixed.
 *
 * Propagation. A queue holds the constraints to run; a constraint that
 * shrinks a cell's domain queues that cell's other units (every propagator
 * below reaches its own fixpoint, so it need not run again), until the queue
 * is empty (the common fixpoint) or a domain is empty (a contradiction). The
 * three back ends differ in what one constraint does:
 *   cp_fc   forward checking: the value of a fixed cell leaves the domains of
 *           the other cells of the unit, repeated while that fixes more;
 *   cp_gac  domain consistency (Régin 1994): a maximum matching of the
 *           unit's cells to values (kept between calls, repaired and
 *           completed by augmenting paths), then every value that is in no
 *           maximum matching leaves its cell. In the graph where a cell points
 *           to its matched value and a value to the other cells that could
 *           take it, an edge cell-value off the matching is in some maximum
 *           matching exactly when the value and the cell's matched value lie
 *           in one strongly connected component (an alternating cycle), or the
 *           value can be reached from an unmatched value (an alternating path);
 *   cp_sac  cp_gac, then singleton arc consistency at every node: each value
 *           of each open cell is tried on a copy of the domains and propagated
 *           with GAC; a value whose trial ends in a contradiction is removed
 *           (and GAC propagated), and the sweep repeats until a whole sweep
 *           removes nothing.
 *
 * Search. After propagation a node with every cell fixed is a solution; else
 * it branches on the open cell with the smallest domain (the first in
 * row-major order among equals) and its smallest value v, two ways: the left
 * child fixes the cell to v, the right one removes v from it (Gecode's
 * INT_VAR_SIZE_MIN with INT_VAL_MIN; the gecode back end runs the same model
 * and, with propagation that reaches the same fixpoint, the same tree). The
 * right child lives in the parent's level, so depth is at most the number of
 * cells; the left child copies the domains into the next level.
 *
 * Counters:
 *   steps      propagator runs (one alldifferent filtered once, SAC's trials
 *              included); the step budget is checked before each;
 *   guesses    left branches: values tried at an open cell;
 *   backtracks failed nodes: propagation ended in a contradiction;
 *   nodes      search nodes entered: the root and every child of a branch,
 *              left and right, each of which propagates (Gecode's node
 *              statistic counts the same, see solvers/gecode.cpp).
 * Trace: after each node's propagation, GUESS for the cell a left branch
 * fixed and SINGLETON for every other cell it fixed; DEAD at a
 * contradiction; UNDO for each when the search leaves that node; SOLUTION.
 * Origin: J.-C. Régin, "A filtering algorithm for constraints of difference
 * in CSPs", AAAI 1994; H. Simonis, "Sudoku as a constraint problem", 2005;
 * written here for sudolab. */
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "solvers/cp.h"
#include "solvers/registry.h"

enum cp_outcome { CP_OK, CP_FAIL, CP_STOP };

struct cp_state {
    struct units u; /* geometry; u.n == 0 until the first puzzle */
    enum cp_level level;
    uint32_t *levels; /* ncells + 2 levels of ncells domains; the last one is
                         SAC's scratch */
    int8_t (*matching)[GRID_MAX_N]; /* per unit, GAC's last matching */
    const struct solve_request *req;
    struct solve_result *res;
    bool stop;
    int dead_cell; /* the cell that ran out of values, or -1 */
    int qhead, qlen;
    uint8_t queue[UNITS_MAX]; /* ring of units to propagate */
    bool queued[UNITS_MAX];
    /* trace only */
    int ntrail;
    uint8_t shown[GRID_MAX_CELLS]; /* value the trace shows in a cell, 0 none */
    uint16_t trail[GRID_MAX_CELLS]; /* cells shown on the current path */
};

static int cp_popcount(uint32_t x)
{
    return __builtin_popcount(x);
}

static bool cp_fixed(uint32_t d)
{
    return (d & (d - 1)) == 0;
}

/* --- one alldifferent --- */

/* Forward checking over k domains: values of fixed cells leave the others,
 * until no new cell is fixed. False when a domain empties. */
static bool cp_alldifferent_fc(int k, uint32_t *dom)
{
    uint32_t done = 0; /* positions whose value was removed from the others */
    for (bool more = true; more;) {
        more = false;
        for (int i = 0; i < k; i++) {
            const uint32_t d = dom[i];
            if (d == 0)
                return false;
            if ((done >> i & 1) || !cp_fixed(d))
                continue;
            done |= 1u << i;
            for (int j = 0; j < k; j++) {
                if (j != i && (dom[j] & d)) {
                    dom[j] &= ~d;
                    if (dom[j] == 0)
                        return false;
                    more = true;
                }
            }
        }
    }
    return true;
}

/* Kuhn's augmenting path from variable x: true when x got a value. */
static bool cp_augment(
    int x, const uint32_t *dom, int8_t *match, int8_t *owner, uint32_t *visited_values)
{
    uint32_t cand = dom[x] & ~*visited_values;
    while (cand) {
        const int v = __builtin_ctz(cand);
        cand &= cand - 1;
        *visited_values |= 1u << v;
        if (owner[v] < 0 || cp_augment(owner[v], dom, match, owner, visited_values)) {
            match[x] = (int8_t) v;
            owner[v] = (int8_t) x;
            return true;
        }
    }
    return false;
}

/* Tarjan's strongly connected components over values, adjacency as bit sets;
 * index, low and comp are defined for the values in `visited` only. */
struct cp_scc {
    const uint32_t *out;
    int index[32], low[32], comp[32];
    int next_index, ncomp, nstack;
    uint8_t stack[32];
    uint32_t on_stack, visited;
};

static void cp_scc_visit(struct cp_scc *t, int v)
{
    t->visited |= 1u << v;
    t->index[v] = t->low[v] = t->next_index++;
    t->stack[t->nstack++] = (uint8_t) v;
    t->on_stack |= 1u << v;
    for (uint32_t w_set = t->out[v]; w_set; w_set &= w_set - 1) {
        const int w = __builtin_ctz(w_set);
        if (!(t->visited >> w & 1)) {
            cp_scc_visit(t, w);
            if (t->low[w] < t->low[v])
                t->low[v] = t->low[w];
        } else if ((t->on_stack >> w & 1) && t->index[w] < t->low[v]) {
            t->low[v] = t->index[w];
        }
    }
    if (t->low[v] == t->index[v]) {
        int w;
        do {
            w = t->stack[--t->nstack];
            t->on_stack &= ~(1u << w);
            t->comp[w] = t->ncomp;
        } while (w != v);
        t->ncomp++;
    }
}

/* cp_alldifferent_gac on variables none of which is fixed. */
static bool cp_gac_open(int k, uint32_t dom[], int8_t match[])
{
    int8_t owner[32];
    memset(owner, -1, sizeof(owner));
    uint32_t values = 0;
    /* keep what is left of the last matching */
    for (int x = 0; x < k; x++) {
        if (dom[x] == 0)
            return false;
        values |= dom[x];
        const int v = match[x];
        if (v >= 0 && v < 32 && (dom[x] >> v & 1) && owner[v] < 0)
            owner[v] = (int8_t) x;
        else
            match[x] = -1;
    }
    for (int x = 0; x < k; x++) {
        if (match[x] < 0) {
            uint32_t visited = 0;
            if (!cp_augment(x, dom, match, owner, &visited))
                return false;
        }
    }
    /* value v -> the matched values of the other variables that could take v */
    uint32_t out[32] = { 0 }, matched = 0;
    for (int x = 0; x < k; x++) {
        const uint32_t mbit = 1u << match[x];
        matched |= mbit;
        for (uint32_t others = dom[x] & ~mbit; others; others &= others - 1)
            out[__builtin_ctz(others)] |= mbit;
    }
    /* values reached by alternating paths from the unmatched ones */
    uint32_t reached = values & ~matched, frontier = reached;
    while (frontier) {
        uint32_t next = 0;
        for (uint32_t f = frontier; f; f &= f - 1)
            next |= out[__builtin_ctz(f)];
        frontier = next & ~reached;
        reached |= next;
    }
    struct cp_scc t = { .out = out };
    for (uint32_t m = matched & ~reached; m; m &= m - 1) {
        const int v = __builtin_ctz(m);
        if (!(t.visited >> v & 1))
            cp_scc_visit(&t, v);
    }
    for (int x = 0; x < k; x++) {
        const int mv = match[x];
        uint32_t keep = 1u << mv;
        for (uint32_t others = dom[x] & ~keep; others; others &= others - 1) {
            const int v = __builtin_ctz(others);
            if ((reached >> v & 1) || (!(reached >> mv & 1) && t.comp[v] == t.comp[mv]))
                keep |= 1u << v;
        }
        dom[x] &= keep;
    }
    return true;
}

/* A fixed variable's value is in every solution, so it leaves the others'
 * domains and GAC over the open variables alone gives the same result on a
 * smaller graph: in a Sudoku search most cells of a unit are fixed. */
bool cp_alldifferent_gac(int k, uint32_t dom[], int8_t match[])
{
    uint32_t fixed_values = 0;
    for (int x = 0; x < k; x++) {
        const uint32_t d = dom[x];
        if (d == 0 || (cp_fixed(d) && (fixed_values & d)))
            return false;
        if (cp_fixed(d)) {
            fixed_values |= d;
            match[x] = (int8_t) __builtin_ctz(d);
        }
    }
    int open = 0, at[CP_ALLDIFF_MAX];
    uint32_t sub_dom[CP_ALLDIFF_MAX];
    int8_t sub_match[CP_ALLDIFF_MAX];
    for (int x = 0; x < k; x++) {
        if (cp_fixed(dom[x]))
            continue;
        at[open] = x;
        sub_dom[open] = dom[x] & ~fixed_values;
        sub_match[open] = match[x];
        open++;
    }
    if (open == 0)
        return true;
    if (!cp_gac_open(open, sub_dom, sub_match))
        return false;
    for (int i = 0; i < open; i++) {
        dom[at[i]] = sub_dom[i];
        match[at[i]] = sub_match[i];
    }
    return true;
}

/* --- propagation over the grid --- */

static void cp_enqueue(struct cp_state *st, int unit)
{
    if (st->queued[unit])
        return;
    st->queued[unit] = true;
    int at = st->qhead + st->qlen++;
    if (at >= st->u.nunits)
        at -= st->u.nunits;
    st->queue[at] = (uint8_t) unit;
}

static void cp_enqueue_cell(struct cp_state *st, int cell, int except)
{
    for (int i = 0; i < st->u.cell_nunits[cell]; i++) {
        if (st->u.cell_unit[cell][i] != except)
            cp_enqueue(st, st->u.cell_unit[cell][i]);
    }
}

static void cp_clear_queue(struct cp_state *st)
{
    memset(st->queued, 0, sizeof(st->queued));
    st->qhead = st->qlen = 0;
}

/* Runs the queued constraints on domains d until the queue is empty. */
static enum cp_outcome cp_fixpoint(struct cp_state *st, uint32_t *d)
{
    const int n = st->u.n;
    while (st->qlen > 0) {
        const int unit = st->queue[st->qhead];
        st->qhead = st->qhead + 1 == st->u.nunits ? 0 : st->qhead + 1;
        st->qlen--;
        st->queued[unit] = false;
        if (solver_over_budget(st->req, st->res)) {
            cp_clear_queue(st);
            st->stop = true;
            return CP_STOP;
        }
        st->res->counters.steps++;
        const uint16_t *cells = st->u.unit_cell[unit];
        uint32_t dom[GRID_MAX_N];
        for (int i = 0; i < n; i++)
            dom[i] = d[cells[i]];
        const bool ok = st->level == CP_LEVEL_FC
            ? cp_alldifferent_fc(n, dom)
            : cp_alldifferent_gac(n, dom, st->matching[unit]);
        if (!ok) {
            st->dead_cell = -1;
            for (int i = 0; i < n; i++) {
                if (dom[i] == 0) {
                    st->dead_cell = cells[i];
                    break;
                }
            }
            cp_clear_queue(st);
            return CP_FAIL;
        }
        for (int i = 0; i < n; i++) {
            if (dom[i] != d[cells[i]]) {
                d[cells[i]] = dom[i];
                cp_enqueue_cell(st, cells[i], unit);
            }
        }
    }
    return CP_OK;
}

/* Singleton arc consistency on d (already at the GAC fixpoint), using the
 * scratch level for the trials. */
static enum cp_outcome cp_sac(struct cp_state *st, uint32_t *d)
{
    const int ncells = st->u.ncells;
    uint32_t *trial = st->levels + (size_t) (ncells + 1) * (size_t) ncells;
    for (bool removed = true; removed;) {
        removed = false;
        for (int c = 0; c < ncells; c++) {
            if (cp_fixed(d[c]))
                continue;
            for (uint32_t left = d[c]; left; left &= left - 1) {
                const uint32_t bit = left & -left;
                if (!(d[c] & bit))
                    continue;
                memcpy(trial, d, (size_t) ncells * sizeof(*trial));
                trial[c] = bit;
                cp_enqueue_cell(st, c, -1);
                const enum cp_outcome o = cp_fixpoint(st, trial);
                if (o == CP_STOP)
                    return o;
                if (o == CP_OK)
                    continue;
                d[c] &= ~bit;
                removed = true;
                cp_enqueue_cell(st, c, -1);
                const enum cp_outcome after = cp_fixpoint(st, d);
                if (after != CP_OK)
                    return after;
                if (cp_fixed(d[c]))
                    break;
            }
        }
    }
    return CP_OK;
}

static enum cp_outcome cp_propagate_node(struct cp_state *st, uint32_t *d)
{
    enum cp_outcome o = cp_fixpoint(st, d);
    if (o == CP_OK && st->level == CP_LEVEL_SAC)
        o = cp_sac(st, d);
    return o;
}

/* Rebuilds the tables and levels when the shape changes. */
static int cp_fit(struct cp_state *st, const struct grid *g)
{
    if (units_fit(&st->u, g))
        return 0;
    free(st->levels);
    free(st->matching);
    units_build(&st->u, g);
    st->levels = malloc(((size_t) g->ncells + 2) * g->ncells * sizeof(uint32_t));
    st->matching = malloc(UNITS_MAX * sizeof(*st->matching));
    if (!st->levels || !st->matching) {
        free(st->levels);
        free(st->matching);
        st->levels = NULL;
        st->matching = NULL;
        memset(&st->u, 0, sizeof(st->u));
        return -1;
    }
    return 0;
}

/* Level 0 from the clues, every unit queued. */
static void cp_load(struct cp_state *st, const struct grid *puzzle)
{
    const uint32_t all = (uint32_t) ((1ull << st->u.n) - 1);
    for (int c = 0; c < st->u.ncells; c++) {
        const int v = puzzle->cell[c];
        st->levels[c] = v ? 1u << (v - 1) : all;
        st->shown[c] = (uint8_t) v;
    }
    memset(st->matching, -1, UNITS_MAX * sizeof(*st->matching));
    cp_clear_queue(st);
    for (int unit = 0; unit < st->u.nunits; unit++)
        cp_enqueue(st, unit);
    st->stop = false;
    st->ntrail = 0;
}

/* --- search --- */

/* Shows the cells propagation fixed since the trace last looked. */
static void cp_show(struct cp_state *st, const uint32_t *d, int guessed)
{
    for (int c = 0; c < st->u.ncells; c++) {
        if (st->shown[c] || !cp_fixed(d[c]))
            continue;
        st->shown[c] = (uint8_t) (__builtin_ctz(d[c]) + 1);
        st->trail[st->ntrail++] = (uint16_t) c;
        solver_emit(st->req, st->res,
            c == guessed ? SOLVER_EVENT_GUESS : SOLVER_EVENT_SINGLETON, c, st->shown[c]);
    }
}

static void cp_unwind(struct cp_state *st, int mark)
{
    while (st->ntrail > mark) {
        const int c = st->trail[--st->ntrail];
        solver_emit(st->req, st->res, SOLVER_EVENT_UNDO, c, st->shown[c]);
        st->shown[c] = 0;
    }
}

static void cp_leaf(struct cp_state *st, const uint32_t *d)
{
    const struct solve_request *req = st->req;
    struct solve_result *res = st->res;
    solver_emit(req, res, SOLVER_EVENT_SOLUTION, -1, 0);
    if (!solver_wants_grid(req, res)) {
        st->stop = solver_count_solution(req, res);
        return;
    }
    struct grid g;
    grid_init(&g, st->u.box_rows, st->u.box_cols, (enum grid_variant) st->u.variant);
    for (int c = 0; c < st->u.ncells; c++)
        g.cell[c] = (uint8_t) (__builtin_ctz(d[c]) + 1);
    st->stop = solver_record_solution(req, res, &g);
}

/* The node at `depth` (its domains hold the branch that led here; guessed is
 * the cell a left branch fixed, or -1), then its right children in place. */
static void cp_node(struct cp_state *st, int depth, int guessed)
{
    const int ncells = st->u.ncells;
    uint32_t *d = st->levels + (size_t) depth * (size_t) ncells;
    struct solve_result *res = st->res;
    const bool traced = st->req->trace != NULL;
    const int mark = st->ntrail;
    for (;;) {
        res->counters.nodes++;
        const enum cp_outcome o = cp_propagate_node(st, d);
        if (o == CP_STOP)
            break;
        if (o == CP_FAIL) {
            res->counters.backtracks++;
            solver_emit(st->req, res, SOLVER_EVENT_DEAD, st->dead_cell, 0);
            break;
        }
        if (traced)
            cp_show(st, d, guessed);
        guessed = -1;
        int best = -1, best_size = 33;
        for (int c = 0; c < ncells; c++) {
            const uint32_t m = d[c];
            if (!cp_fixed(m)) {
                const int size = cp_popcount(m);
                if (size < best_size) {
                    best_size = size;
                    best = c;
                    if (size == 2)
                        break;
                }
            }
        }
        if (best < 0) {
            cp_leaf(st, d);
            break;
        }
        const uint32_t bit = d[best] & -d[best];
        res->counters.guesses++;
        uint32_t *child = d + ncells;
        memcpy(child, d, (size_t) ncells * sizeof(*child));
        child[best] = bit;
        cp_enqueue_cell(st, best, -1);
        cp_node(st, depth + 1, best);
        if (st->stop)
            break;
        d[best] &= ~bit;
        cp_enqueue_cell(st, best, -1);
    }
    if (traced)
        cp_unwind(st, mark);
}

static int cp_init(void *priv, int variant)
{
    struct cp_state *st = priv;
    st->level = (enum cp_level) variant;
    return 0;
}

static void cp_fini(void *priv)
{
    struct cp_state *st = priv;
    free(st->levels);
    free(st->matching);
    st->levels = NULL;
    st->matching = NULL;
}

static void cp_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct cp_state *st = priv;
    if (cp_fit(st, puzzle) != 0) {
        res->outcome = SOLVE_ERROR;
        snprintf(res->error, sizeof(res->error), "out of memory for the domains");
        return;
    }
    st->req = req;
    st->res = res;
    cp_load(st, puzzle);
    cp_node(st, 0, -1);
}

/* --- propagation alone (solvers/cp.h) --- */

int cp_propagate(const struct grid *puzzle, enum cp_level level, uint64_t budget_steps,
    struct cp_propagation *out)
{
    struct cp_state *st = calloc(1, sizeof(*st));
    if (!st || cp_fit(st, puzzle) != 0) {
        free(st);
        return -1;
    }
    const struct solve_request req = { .limit = 1, .budget_steps = budget_steps };
    struct solve_result res;
    memset(&res, 0, sizeof(res));
    st->level = level;
    st->req = &req;
    st->res = &res;
    cp_load(st, puzzle);
    const enum cp_outcome o = cp_propagate_node(st, st->levels);
    out->steps = res.counters.steps;
    out->open_cells = 0;
    if (o == CP_STOP) {
        out->verdict = CP_LIMIT;
    } else if (o == CP_FAIL) {
        out->verdict = CP_CONTRADICTION;
    } else {
        for (int c = 0; c < st->u.ncells; c++)
            out->open_cells += !cp_fixed(st->levels[c]);
        out->verdict = out->open_cells ? CP_OPEN : CP_SOLVED;
    }
    cp_fini(st);
    free(st);
    return 0;
}

const char *cp_level_name(enum cp_level level)
{
    static const char *const names[CP_LEVEL_COUNT] = { "fc", "gac", "sac" };
    return (unsigned) level < CP_LEVEL_COUNT ? names[level] : NULL;
}

#define CP_COUNTERS                                                                      \
    (SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks) | SOLVER_HAS(nodes))
#define CP_CAPS                                                                          \
    (SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_TRACE | SOLVER_CAP_STEP_BUDGET)

const struct solver solver_cp_fc = {
    .name = "cp_fc",
    .family = "cp",
    .summary = "domains + alldifferent by forward checking, smallest-domain branching",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* uint32_t domains */
    .caps = CP_CAPS,
    .counters = CP_COUNTERS,
    .variant = CP_LEVEL_FC,
    .priv_size = sizeof(struct cp_state),
    .init = cp_init,
    .solve = cp_solve,
    .fini = cp_fini,
};

const struct solver solver_cp_gac = {
    .name = "cp_gac",
    .family = "cp",
    .summary = "the same with domain consistency (Régin's matching algorithm)",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* uint32_t domains */
    .caps = CP_CAPS,
    .counters = CP_COUNTERS,
    .variant = CP_LEVEL_GAC,
    .priv_size = sizeof(struct cp_state),
    .init = cp_init,
    .solve = cp_solve,
    .fini = cp_fini,
};

const struct solver solver_cp_sac = {
    .name = "cp_sac",
    .family = "cp",
    .summary = "the same plus singleton arc consistency (shaving) at every node",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* uint32_t domains */
    .caps = CP_CAPS,
    .counters = CP_COUNTERS,
    .variant = CP_LEVEL_SAC,
    .priv_size = sizeof(struct cp_state),
    .init = cp_init,
    .solve = cp_solve,
    .fini = cp_fini,
};
