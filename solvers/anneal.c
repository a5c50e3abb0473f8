/* anneal: Lewis's simulated annealing for Sudoku (R. Lewis, "Metaheuristics can
 * solve sudoku puzzles", Journal of Heuristics 13:387-400, 2007). Incomplete:
 * it finds a solution or runs out of budget (SOLVER_CAP_INCOMPLETE).
 *
 * Algorithm. Every box is filled with the values its clues leave out, in a
 * random order, so boxes always hold each value once. A move swaps the values
 * of two non-clue cells of one box (a box picked at random among those with
 * two or more such cells, then two of its cells). The cost is the number of
 * values missing from the rows and columns (and, in the diagonal variant, the
 * two diagonals); 0 is a solution. Counts of each value per scored unit make a
 * move's cost change a handful of lookups. A move is accepted when it does not
 * raise the cost, else with probability exp(-delta / t). The temperature
 * starts at the standard deviation of the cost of ANNEAL_SAMPLE_MOVES
 * neighbours of the first fill (moves evaluated, none made), and is
 * multiplied by ANNEAL_ALPHA = 0.99 after every Markov chain of (non-clue
 * cells)^2 proposed moves. When ANNEAL_REHEAT_CHAINS (20) chains in a row
 * bring no cost below the best since the last reheat, the run reheats: a new
 * random fill of every box, and the temperature back to its starting
 * value. An instance without
 * a solution never reaches cost 0 and ends at the budget (status limit).
 *
 * Sources and choices. The paper's own text past its abstract is not in the
 * project's search tool, so what it specifies is taken from descriptions and
 * implementations that follow it: the move and the cost (rows and columns),
 * the starting temperature as the standard deviation of the cost over "a
 * small number of neighbourhood moves" (two implementations read this as
 * the costs of sampled neighbours of the starting fill, which is what is
 * done here), alpha 0.99 after every Markov chain of (non-clue cells)^2
 * moves, and a reheat after 20 chains without improvement ("in all tests this
 * was set to 20", as quoted by one description) that resets the temperature
 * and makes a new random fill. The sample matters: a random walk of moves
 * (each one made) gives a spread about 1.7 times larger on 9x9, hot enough
 * that 20 chains (0.99^20 = 0.82) never cool the run before it reheats.
 * Where we chose: the sample is 200 neighbours (small next to one chain);
 * improvement is measured against the best cost since the last reheat (the
 * new fill starts a new search); 0.5 where the sample shows no spread (tiny
 * grids), so that a
 * cost-raising move is still accepted sometimes. No constraint propagation
 * is applied before the search: this is Lewis's plain method (his later
 * work adds it), and acs is the propagating back end to compare it with.
 *
 * Counters:
 *   steps       moves proposed (accepted or not; the sampled neighbours
 *               included);
 *   backtracks  reheats (each gives up a run of chains stuck at a local
 *               minimum: annealing's dead end).
 * Randomness: one xoshiro stream (common/rng.h) seeded with the request's
 * seed, so the same seed gives the same moves, counters and solution. */
#include <math.h>
#include <string.h>

#include "common/rng.h"
#include "common/units.h"
#include "solvers/registry.h"

enum {
    ANNEAL_SAMPLE_MOVES = 200,
    ANNEAL_REHEAT_CHAINS = 20,
    ANNEAL_SCORED_MAX = UNITS_PER_CELL_MAX - 1, /* every unit of a cell but its box */
    ANNEAL_DELTA_MAX = 4 * ANNEAL_SCORED_MAX, /* two cells, each unit +-1 per value */
};

#define ANNEAL_ALPHA 0.99
#define ANNEAL_FLAT_T0 0.5

struct anneal_state {
    struct units u;
    struct rng rng;
    int ncells, n;
    uint8_t val[GRID_MAX_CELLS];
    uint8_t nscored[GRID_MAX_CELLS];
    uint8_t scored[GRID_MAX_CELLS][ANNEAL_SCORED_MAX]; /* units but the box */
    uint8_t count[UNITS_MAX][GRID_MAX_N + 1]; /* of each value in a scored unit */
    uint16_t free_cell[GRID_MAX_CELLS]; /* non-clue cells, grouped by box */
    uint16_t box_first[GRID_MAX_N + 1]; /* box b's: free_cell[box_first[b]..[b+1]) */
    uint8_t movable[GRID_MAX_N]; /* boxes with two or more non-clue cells */
    int nmovable, nfree;
    long cost;
    double accept[ANNEAL_DELTA_MAX + 1]; /* exp(-delta / t) at the current t */
};

static bool anneal_shares(const struct anneal_state *st, int cell, int unit)
{
    for (int k = 0; k < st->nscored[cell]; k++) {
        if (st->scored[cell][k] == unit)
            return true;
    }
    return false;
}

/* Cost change of moving value out of and value in into unit u. */
static int anneal_unit_delta(const struct anneal_state *st, int u, int out, int in)
{
    return (st->count[u][out] == 1) - (st->count[u][in] == 0);
}

static int anneal_delta(const struct anneal_state *st, int a, int b)
{
    const int va = st->val[a], vb = st->val[b];
    int delta = 0;
    for (int k = 0; k < st->nscored[a]; k++) {
        const int u = st->scored[a][k];
        if (!anneal_shares(st, b, u))
            delta += anneal_unit_delta(st, u, va, vb);
    }
    for (int k = 0; k < st->nscored[b]; k++) {
        const int u = st->scored[b][k];
        if (!anneal_shares(st, a, u))
            delta += anneal_unit_delta(st, u, vb, va);
    }
    return delta;
}

static void anneal_swap(struct anneal_state *st, int a, int b, int delta)
{
    const int va = st->val[a], vb = st->val[b];
    for (int k = 0; k < st->nscored[a]; k++) {
        const int u = st->scored[a][k];
        if (!anneal_shares(st, b, u)) {
            st->count[u][va]--;
            st->count[u][vb]++;
        }
    }
    for (int k = 0; k < st->nscored[b]; k++) {
        const int u = st->scored[b][k];
        if (!anneal_shares(st, a, u)) {
            st->count[u][vb]--;
            st->count[u][va]++;
        }
    }
    st->val[a] = (uint8_t) vb;
    st->val[b] = (uint8_t) va;
    st->cost += delta;
}

/* A random move: two non-clue cells of one box. */
static void anneal_pick(struct anneal_state *st, int *a, int *b)
{
    const int box = st->movable[rng_below(&st->rng, (uint64_t) st->nmovable)];
    const int first = st->box_first[box];
    const int m = st->box_first[box + 1] - first;
    const int i = (int) rng_below(&st->rng, (uint64_t) m);
    int j = (int) rng_below(&st->rng, (uint64_t) m - 1);
    j += j >= i;
    *a = st->free_cell[first + i];
    *b = st->free_cell[first + j];
}

static void anneal_count(struct anneal_state *st);

/* The random first fill, the tables and the cost. */
static void anneal_setup(struct anneal_state *st, const struct grid *puzzle)
{
    if (!units_fit(&st->u, puzzle))
        units_build(&st->u, puzzle);
    const int n = puzzle->n, ncells = puzzle->ncells;
    st->n = n;
    st->ncells = ncells;
    memcpy(st->val, puzzle->cell, (size_t) ncells);
    st->nfree = 0;
    st->nmovable = 0;
    for (int b = 0; b < n; b++) {
        const int box = 2 * n + b;
        bool present[GRID_MAX_N + 1] = { false };
        st->box_first[b] = (uint16_t) st->nfree;
        for (int k = 0; k < n; k++) {
            const int c = st->u.unit_cell[box][k];
            if (puzzle->cell[c])
                present[puzzle->cell[c]] = true;
            else
                st->free_cell[st->nfree++] = (uint16_t) c;
        }
        const int first = st->box_first[b], m = st->nfree - first;
        int missing[GRID_MAX_N], nmissing = 0;
        for (int v = 1; v <= n; v++) {
            if (!present[v])
                missing[nmissing++] = v;
        }
        rng_shuffle(&st->rng, missing, nmissing);
        for (int k = 0; k < m; k++)
            st->val[st->free_cell[first + k]] = (uint8_t) missing[k];
        if (m >= 2)
            st->movable[st->nmovable++] = (uint8_t) b;
    }
    st->box_first[n] = (uint16_t) st->nfree;
    anneal_count(st);
}

/* The counts per scored unit and the cost, from val. */
static void anneal_count(struct anneal_state *st)
{
    const int n = st->n, ncells = st->ncells;
    memset(st->count, 0, sizeof(st->count));
    for (int c = 0; c < ncells; c++) {
        st->nscored[c] = 0;
        for (int k = 0; k < st->u.cell_nunits[c]; k++) {
            const int u = st->u.cell_unit[c][k];
            if (u >= 2 * n && u < 3 * n)
                continue;
            st->scored[c][st->nscored[c]++] = (uint8_t) u;
            st->count[u][st->val[c]]++;
        }
    }
    st->cost = 0;
    for (int u = 0; u < st->u.nunits; u++) {
        if (u >= 2 * n && u < 3 * n)
            continue;
        for (int v = 1; v <= n; v++)
            st->cost += st->count[u][v] == 0;
    }
}

/* A new random fill: each box's non-clue cells get its missing values in a
 * new random order. */
static void anneal_refill(struct anneal_state *st)
{
    for (int b = 0; b < st->n; b++) {
        const int first = st->box_first[b], m = st->box_first[b + 1] - first;
        int vals[GRID_MAX_N];
        for (int k = 0; k < m; k++)
            vals[k] = st->val[st->free_cell[first + k]];
        rng_shuffle(&st->rng, vals, m);
        for (int k = 0; k < m; k++)
            st->val[st->free_cell[first + k]] = (uint8_t) vals[k];
    }
    anneal_count(st);
}

static void anneal_set_temperature(struct anneal_state *st, double t)
{
    for (int d = 1; d <= ANNEAL_DELTA_MAX; d++)
        st->accept[d] = exp(-(double) d / t);
}

/* A uniform double in [0, 1). */
static double anneal_unit_random(struct rng *r)
{
    return (double) (rng_next(r) >> 11) * 0x1.0p-53;
}

static bool anneal_found(struct anneal_state *st, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct grid solution = *puzzle;
    memcpy(solution.cell, st->val, (size_t) st->ncells);
    solver_record_solution(req, res, &solution);
    res->outcome = SOLVE_DONE;
    return true;
}

/* The starting temperature: the spread of the cost of sampled neighbours of
 * the current fill (evaluated, not made). */
static double anneal_initial_temperature(
    struct anneal_state *st, const struct solve_request *req, struct solve_result *res)
{
    double sum = 0, sum2 = 0;
    int taken = 0;
    for (; taken < ANNEAL_SAMPLE_MOVES; taken++) {
        if (solver_over_budget(req, res))
            return 0;
        res->counters.steps++;
        int a, b;
        anneal_pick(st, &a, &b);
        const double cost = (double) (st->cost + anneal_delta(st, a, b));
        sum += cost;
        sum2 += cost * cost;
    }
    const double mean = sum / taken;
    const double var = sum2 / taken - mean * mean;
    return var > 1e-12 ? sqrt(var) : ANNEAL_FLAT_T0;
}

static void anneal_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct anneal_state *st = priv;
    rng_seed(&st->rng, req->seed);
    anneal_setup(st, puzzle);
    if (st->cost == 0) {
        anneal_found(st, puzzle, req, res);
        return;
    }
    if (st->nmovable == 0) {
        /* the fill is forced and wrong: no move can help, wait for the budget */
        while (!solver_over_budget(req, res))
            res->counters.steps++;
        return;
    }
    const double t0 = anneal_initial_temperature(st, req, res);
    if (res->outcome == SOLVE_BUDGET)
        return;
    const uint64_t chain = (uint64_t) st->nfree * (uint64_t) st->nfree;
    double t = t0;
    long best = st->cost;
    int stale = 0;
    for (;;) {
        anneal_set_temperature(st, t);
        const long best_before = best;
        for (uint64_t i = 0; i < chain; i++) {
            if (solver_over_budget(req, res))
                return;
            res->counters.steps++;
            int a, b;
            anneal_pick(st, &a, &b);
            const int delta = anneal_delta(st, a, b);
            if (delta > 0 && anneal_unit_random(&st->rng) >= st->accept[delta])
                continue;
            anneal_swap(st, a, b, delta);
            if (st->cost < best) {
                best = st->cost;
                if (best == 0) {
                    anneal_found(st, puzzle, req, res);
                    return;
                }
            }
        }
        stale = best < best_before ? 0 : stale + 1;
        if (stale >= ANNEAL_REHEAT_CHAINS) {
            res->counters.backtracks++;
            anneal_refill(st);
            if (st->cost == 0) {
                anneal_found(st, puzzle, req, res);
                return;
            }
            t = t0;
            stale = 0;
            best = st->cost;
        } else {
            t *= ANNEAL_ALPHA;
        }
    }
}

const struct solver solver_anneal = {
    .name = "anneal",
    .family = "stochastic",
    .summary = "Lewis's simulated annealing (box swaps, row/column cost); incomplete",
    .min_n = 1,
    .max_n = GRID_MAX_N,
    .caps = SOLVER_CAP_DIAGONAL | SOLVER_CAP_STEP_BUDGET | SOLVER_CAP_INCOMPLETE,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(backtracks),
    .priv_size = sizeof(struct anneal_state),
    .solve = anneal_solve,
};
