/* acs: Lloyd and Amos's ant colony system with constraint propagation and best
 * value evaporation (H. Lloyd, M. Amos, "Solving Sudoku with Ant Colony
 * Optimization", IEEE Transactions on Games, 2019; arXiv 1805.03545).
 * Incomplete: it finds a solution or runs out of budget
 * (SOLVER_CAP_INCOMPLETE).
 *
 * Algorithm. The clues are set one by one, each with propagation (below);
 * that state is every ant's start. A cycle: each of ACS_ANTS ants starts on a
 * random cell and visits every cell once in row-major order from there,
 * wrapping around; the ants take their steps in turn (ant 0's first cell,
 * ant 1's first cell, ..., then everyone's second cell), so that each reads
 * the pheromone as the others' local updates leave it. At a cell without
 * candidates the ant counts a failure; at a cell with one it does nothing; at
 * a cell with more it picks one: with probability 1 - ACS_Q0 the one of most
 * pheromone (the lowest value on a tie), else by roulette wheel in proportion
 * to pheromone. It sets it with propagation and applies the local update
 * tau = 0.9 tau + 0.1 tau0 to the pair chosen. After the cycle an ant that
 * set every cell is a solution; else the ant with fewest failures (the first
 * on a tie) is the cycle's best, and the amount it is worth, ncells /
 * failures, replaces the best so far (its value and its grid) when larger.
 * Then every (cell, value) of the best grid gets tau = (1 - ACS_RHO) tau +
 * ACS_RHO best, and the best amount evaporates: best *= 1 - ACS_BEST_EVAP.
 * The pheromone starts at tau0 = 1 / ncells.
 *
 * Propagation is Lloyd and Amos's: setting a cell re-examines each peer
 * (step j: the j-th cell of the box, the column, the row, then diagonals),
 * recursively as cells get set. A peer's candidates become the values that
 * no single-candidate cell of its units holds; if one is left it is set;
 * else if exactly one of its candidates appears in no other cell of its row
 * (then column, box, diagonals) it is set. So naked singles are complete,
 * but a hidden single is found only when its cell is re-examined: weaker
 * than singles to a fixed point, and the same choices give the same boards
 * as their program. Placing the clues one by one can, on a puzzle without a
 * solution, set a clue's cell or a peer of it to a conflicting value before
 * the clue comes (their board keeps both); acs then knows there is no
 * solution but, being incomplete, runs to its budget; and a full board is
 * checked before it is returned. Candidates are bitmasks (grid_mask, up to
 * 49x49); every state lives in the instance (no allocation while solving);
 * the recursion is at most one level per cell set.
 *
 * Their choices kept (read from their program, sudoku_acs, written anew
 * here): 10 ants, q0 0.9, rho 0.9, best value evaporation 0.005, tau0 =
 * 1 / ncells, local update with 0.1 toward tau0; ants starting on uniformly
 * random cells and walking in cell order, stepping in turn; the greedy
 * choice taken when a uniform draw exceeds q0 (so with probability 0.1: the
 * program's test, kept because the success rates we compare with are the
 * program's); the best ant counted by its failures; the global update over
 * the best grid's cells; their propagation, above; a roulette draw that
 * falls past the last candidate by rounding leaves the cell as it is. What
 * differs: their clock is checked every 100 cycles, our budgets at every ant
 * step; their random generator is mt19937 seeded from the device, ours the
 * seeded xoshiro of common/rng.h; they handle square-box standard grids (their
 * puzzle strings spell 9x9, 16x16 and 25x25), this every shape up to 25x25
 * and the diagonal variant.
 *
 * Counters:
 *   steps   ant steps: cells visited by an ant (ncells per ant per cycle),
 *           whether it set a value there or not;
 *   guesses values chosen by ants (always among two or more candidates:
 *           single candidates are set by propagation).
 * A cycle is ants x ncells steps, so cycles = steps / (10 ncells).
 * Randomness: one xoshiro stream seeded with the request's seed, so the same
 * seed gives the same choices, counters and solution. */
#include <string.h>

#include "common/rng.h"
#include "common/units.h"
#include "solvers/registry.h"

enum { ACS_ANTS = 10 };

#define ACS_Q0 0.9f
#define ACS_RHO 0.9f
#define ACS_BEST_EVAP 0.005f
#define ACS_LOCAL 0.1f

/* What an ant (or the start state) knows: the value of each cell (0 none),
 * the candidates of each cell (a set cell has its value's only), and the
 * cells set. */
struct acs_board {
    uint8_t val[GRID_MAX_CELLS];
    grid_mask cand[GRID_MAX_CELLS];
    int filled;
    /* Per unit, kept in step with cand so that re-examining a cell reads its
     * units instead of scanning their cells: how many cells can take each
     * value, the values exactly one cell can take, and the values of the
     * single-candidate cells. */
    uint8_t count[UNITS_MAX][GRID_MAX_N];
    grid_mask once[UNITS_MAX];
    grid_mask fixed[UNITS_MAX];
};

struct acs_state {
    struct units u;
    struct rng rng;
    int n, ncells;
    float tau0;
    struct acs_board start;
    bool dead; /* the clues' propagation overrode a clue: no solution */
    struct acs_board ant[ACS_ANTS];
    int pos[ACS_ANTS];
    int fails[ACS_ANTS]; /* cells an ant found without candidates this cycle */
    uint8_t best_val[GRID_MAX_CELLS];
    float pher[GRID_MAX_CELLS * GRID_MAX_N]; /* [cell * n + value - 1] */
};

static bool acs_single(grid_mask m)
{
    return m && !(m & (m - 1));
}

static void acs_constrain(struct acs_state *st, struct acs_board *b, int c);

/* Gives cell c the candidates mask, updating its units' counts, once and
 * fixed. A cell's candidates only shrink, except a clue set on a cell an
 * earlier clue emptied (a puzzle without a solution); both are counted. */
static void acs_restrict(
    const struct acs_state *st, struct acs_board *b, int c, grid_mask mask)
{
    const grid_mask removed = b->cand[c] & ~mask, added = mask & ~b->cand[c];
    b->cand[c] = mask;
    const uint8_t *unit = st->u.cell_unit[c];
    const int nunits = st->u.cell_nunits[c];
    for (int k = 0; k < nunits; k++) {
        uint8_t *count = b->count[unit[k]];
        grid_mask once = b->once[unit[k]];
        for (grid_mask left = removed; left; left &= left - 1) {
            const int v = __builtin_ctzll(left);
            const int now = --count[v];
            if (now == 1)
                once |= (grid_mask) 1 << v;
            else if (now == 0)
                once &= ~((grid_mask) 1 << v);
        }
        for (grid_mask left = added; left; left &= left - 1) {
            const int v = __builtin_ctzll(left);
            const int now = ++count[v];
            if (now == 1)
                once |= (grid_mask) 1 << v;
            else if (now == 2)
                once &= ~((grid_mask) 1 << v);
        }
        b->once[unit[k]] = once;
        if (acs_single(mask))
            b->fixed[unit[k]] |= mask;
    }
}

/* Sets cell c to the single value of mask and re-examines its peers: each
 * step j takes the j-th cell of c's box, column and row (then diagonals) in
 * turn, as Lloyd and Amos's board does, recursing as cells get set. A cell
 * that already has a single candidate is left alone. */
static void acs_set(struct acs_state *st, struct acs_board *b, int c, grid_mask mask)
{
    if (acs_single(b->cand[c]))
        return;
    acs_restrict(st, b, c, mask);
    b->val[c] = (uint8_t) (__builtin_ctzll(mask) + 1);
    b->filled++;
    const uint8_t *unit = st->u.cell_unit[c];
    const int nunits = st->u.cell_nunits[c];
    for (int j = 0; j < st->n; j++) {
        acs_constrain(st, b, st->u.unit_cell[unit[2]][j]); /* box */
        acs_constrain(st, b, st->u.unit_cell[unit[1]][j]); /* column */
        acs_constrain(st, b, st->u.unit_cell[unit[0]][j]); /* row */
        for (int k = 3; k < nunits; k++)
            acs_constrain(st, b, st->u.unit_cell[unit[k]][j]);
    }
}

/* Re-examines cell c (no value yet, candidates left): its candidates become
 * the values no single-candidate peer holds; one left is set; else a
 * candidate that no other cell of its row (then column, box, diagonals) can
 * take, when it is the only such one, is set. (c itself has several
 * candidates, so its units' fixed values are its peers', and a value of c's
 * that one cell of a unit can take is one no other cell there can.) */
static void acs_constrain(struct acs_state *st, struct acs_board *b, int c)
{
    if (!b->cand[c] || acs_single(b->cand[c]))
        return;
    const uint8_t *unit = st->u.cell_unit[c];
    const int nunits = st->u.cell_nunits[c];
    grid_mask fixed = 0;
    for (int k = 0; k < nunits; k++)
        fixed |= b->fixed[unit[k]];
    const grid_mask allowed = (((grid_mask) 1 << st->n) - 1) & ~fixed;
    if (acs_single(allowed)) {
        acs_set(st, b, c, allowed);
        return;
    }
    if (b->cand[c] & ~allowed)
        acs_restrict(st, b, c, b->cand[c] & allowed);
    for (int k = 0; k < nunits; k++) {
        const grid_mask only = b->cand[c] & b->once[unit[k]];
        if (acs_single(only)) {
            acs_set(st, b, c, only);
            return;
        }
    }
}

/* Whether no unit of b holds a value twice. */
static bool acs_consistent(const struct acs_state *st, const struct acs_board *b)
{
    for (int u = 0; u < st->u.nunits; u++) {
        grid_mask seen = 0;
        for (int k = 0; k < st->n; k++) {
            const int v = b->val[st->u.unit_cell[u][k]];
            if (!v)
                continue;
            if (seen & ((grid_mask) 1 << (v - 1)))
                return false;
            seen |= (grid_mask) 1 << (v - 1);
        }
    }
    return true;
}

/* The start state: every candidate, then the clues one by one, each with its
 * propagation (a clue already set by an earlier one's is left). */
static void acs_setup(struct acs_state *st, const struct grid *puzzle)
{
    if (!units_fit(&st->u, puzzle))
        units_build(&st->u, puzzle);
    st->n = puzzle->n;
    st->ncells = puzzle->ncells;
    const grid_mask all = ((grid_mask) 1 << st->n) - 1;
    struct acs_board *b = &st->start;
    b->filled = 0;
    for (int c = 0; c < st->ncells; c++) {
        b->val[c] = 0;
        b->cand[c] = all;
    }
    for (int u = 0; u < st->u.nunits; u++) {
        memset(b->count[u], st->n, (size_t) st->n);
        b->once[u] = st->n == 1 ? all : 0;
        b->fixed[u] = acs_single(all) ? all : 0;
    }
    for (int c = 0; c < st->ncells; c++) {
        if (puzzle->cell[c])
            acs_set(st, b, c, (grid_mask) 1 << (puzzle->cell[c] - 1));
    }
    /* an earlier clue's propagation may have set a later clue's cell to another
       value, or a peer of it to the clue's (their board then keeps both): only
       a puzzle without a solution does that */
    st->dead = !acs_consistent(st, b);
    for (int c = 0; c < st->ncells; c++)
        st->dead |= puzzle->cell[c] && b->val[c] != puzzle->cell[c];
    st->tau0 = 1.0f / (float) st->ncells;
    const int npher = st->ncells * st->n;
    for (int k = 0; k < npher; k++)
        st->pher[k] = st->tau0;
}

/* A uniform float in [0, 1). */
static float acs_random(struct rng *r)
{
    return (float) (rng_next(r) >> 40) * 0x1.0p-24f;
}

/* The value an ant picks at cell c among its candidates m; 0 when the
 * roulette's draw falls past the last candidate by rounding (the cell is then
 * left as it is, as Lloyd and Amos's ant leaves it). */
static int acs_choose(struct acs_state *st, int c, grid_mask m)
{
    const float *tau = &st->pher[c * st->n];
    if (acs_random(&st->rng) > ACS_Q0) {
        int best = 0;
        float most = -1.0f;
        for (grid_mask left = m; left; left &= left - 1) {
            const int i = __builtin_ctzll(left);
            if (tau[i] > most) {
                most = tau[i];
                best = i;
            }
        }
        return best + 1;
    }
    float total = 0;
    for (grid_mask left = m; left; left &= left - 1)
        total += tau[__builtin_ctzll(left)];
    const float draw = total * acs_random(&st->rng);
    float running = 0;
    for (grid_mask left = m; left; left &= left - 1) {
        const int i = __builtin_ctzll(left);
        running += tau[i];
        if (running > draw)
            return i + 1;
    }
    return 0;
}

static void acs_found(struct acs_state *st, const struct grid *puzzle,
    const struct acs_board *b, const struct solve_request *req, struct solve_result *res)
{
    struct grid solution = *puzzle;
    memcpy(solution.cell, b->val, (size_t) st->ncells);
    solver_record_solution(req, res, &solution);
    res->outcome = SOLVE_DONE;
}

static void acs_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct acs_state *st = priv;
    rng_seed(&st->rng, req->seed);
    acs_setup(st, puzzle);
    const int ncells = st->ncells, n = st->n, nunits = st->u.nunits;
    if (st->dead) {
        /* incomplete: it cannot say there is no solution, so it waits for the
           budget, as it would searching */
        while (!solver_over_budget(req, res))
            res->counters.steps++;
        return;
    }
    if (st->start.filled == ncells) {
        acs_found(st, puzzle, &st->start, req, res);
        return;
    }
    float best_amount = 0;
    const float keep_local = 1.0f - ACS_LOCAL, add_local = ACS_LOCAL * st->tau0;
    for (;;) {
        for (int a = 0; a < ACS_ANTS; a++) {
            st->ant[a].filled = st->start.filled;
            memcpy(st->ant[a].val, st->start.val, (size_t) ncells);
            memcpy(st->ant[a].cand, st->start.cand, (size_t) ncells * sizeof(grid_mask));
            memcpy(st->ant[a].count, st->start.count,
                (size_t) nunits * sizeof st->start.count[0]);
            memcpy(st->ant[a].once, st->start.once, (size_t) nunits * sizeof(grid_mask));
            memcpy(
                st->ant[a].fixed, st->start.fixed, (size_t) nunits * sizeof(grid_mask));
            st->pos[a] = (int) rng_below(&st->rng, (uint64_t) ncells);
            st->fails[a] = 0;
        }
        for (int i = 0; i < ncells; i++) {
            for (int a = 0; a < ACS_ANTS; a++) {
                if (solver_over_budget(req, res))
                    return;
                res->counters.steps++;
                struct acs_board *b = &st->ant[a];
                const int c = st->pos[a];
                st->pos[a] = c + 1 == ncells ? 0 : c + 1;
                if (!b->cand[c]) {
                    st->fails[a]++;
                    continue;
                }
                if (acs_single(b->cand[c]))
                    continue;
                const int v = acs_choose(st, c, b->cand[c]);
                if (!v)
                    continue;
                res->counters.guesses++;
                acs_set(st, b, c, (grid_mask) 1 << (v - 1));
                float *tau = &st->pher[c * n + v - 1];
                *tau = *tau * keep_local + add_local;
            }
        }
        int best_ant = 0;
        for (int a = 0; a < ACS_ANTS; a++) {
            if (st->ant[a].filled == ncells && acs_consistent(st, &st->ant[a])) {
                acs_found(st, puzzle, &st->ant[a], req, res);
                return;
            }
            if (st->fails[a] < st->fails[best_ant])
                best_ant = a;
        }
        const struct acs_board *b = &st->ant[best_ant];
        /* an ant without failures that left a cell by rounding is no solution:
           it scores as if one cell failed */
        const int score = st->fails[best_ant] ? st->fails[best_ant] : 1;
        const float amount = (float) ncells / (float) score;
        if (amount > best_amount) {
            best_amount = amount;
            memcpy(st->best_val, b->val, (size_t) ncells);
        }
        for (int c = 0; c < ncells; c++) {
            if (st->best_val[c]) {
                float *tau = &st->pher[c * n + st->best_val[c] - 1];
                *tau = *tau * (1.0f - ACS_RHO) + ACS_RHO * best_amount;
            }
        }
        best_amount *= 1.0f - ACS_BEST_EVAP;
    }
}

const struct solver solver_acs = {
    .name = "acs",
    .family = "stochastic",
    .summary = "Lloyd and Amos's ant colony system with propagation; incomplete",
    .min_n = 1,
    .max_n = GRID_MAX_N,
    .caps = SOLVER_CAP_DIAGONAL | SOLVER_CAP_STEP_BUDGET | SOLVER_CAP_INCOMPLETE,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses),
    .priv_size = sizeof(struct acs_state),
    .solve = acs_solve,
};
