/* acs: Lloyd and Amos's ant colony system with constraint propagation and best
 * value evaporation (H. Lloyd, M. Amos, "Solving Sudoku with Ant Colony
 * Optimization", IEEE Transactions on Games, 2019; arXiv 1805.03545).
 * Incomplete: it finds a solution or runs out of budget
 * (SOLVER_CAP_INCOMPLETE).
 *
 * Algorithm. The clues are placed with propagation (below); that state is
 * every ant's start. A cycle: each of ACS_ANTS ants starts on a random cell
 * and visits every cell once in row-major order from there, wrapping around;
 * the ants take their steps in turn (ant 0's first cell, ant 1's first cell,
 * ..., then everyone's second cell), so that each reads the pheromone as the
 * others' local updates leave it. At a cell that holds no value yet and still
 * has candidates, the ant picks one of them: with probability 1 - ACS_Q0 the
 * one of most pheromone (the lowest value on a tie), else by roulette wheel
 * in proportion to pheromone. It places it with propagation and applies the
 * local update tau = 0.9 tau + 0.1 tau0 to the pair chosen. A cell with no
 * candidate left is skipped (the ant fails there). After the cycle the ant
 * with most cells holding a value (clues included) is the cycle's best; the
 * amount it is worth, ncells / (ncells - filled), replaces the best so far
 * (its value and its grid) when larger. Then every (cell, value) of the best
 * grid gets tau = (1 - ACS_RHO) tau + ACS_RHO best, and the best amount
 * evaporates: best *= 1 - ACS_BEST_EVAP. An ant that fills every cell is a
 * solution. The pheromone starts at tau0 = 1 / ncells.
 *
 * Propagation is naked and hidden singles: placing a value removes it from
 * the peers' candidates; a peer left with one candidate gets it, and a value
 * left with one place in a unit (rows, columns, boxes and, in the diagonal
 * variant, the diagonals) that has it nowhere yet goes there. Candidates are
 * bitmasks (uint32_t, up to 25x25); a unit that lost a candidate is marked,
 * and marked units are scanned for hidden singles with once/twice masks.
 * Every state lives in the instance (no allocation while solving).
 *
 * Their choices kept (read from their program, sudoku_acs, written anew
 * here): 10 ants, q0 0.9, rho 0.9, best value evaporation 0.005, tau0 =
 * 1 / ncells, local update with 0.1 toward tau0; ants starting on uniformly
 * random cells and walking in cell order, stepping in turn; the greedy
 * choice taken when a uniform draw exceeds q0 (so with probability 0.1: the
 * program's test, kept because the success rates we compare with are the
 * program's); the best ant counted in cells holding a value; the global
 * update over the best grid's cells; naked and hidden singles after every
 * placement. What differs: their propagation re-examines each peer of a
 * placed cell in a fixed order, ours works from a queue and marked units, so
 * the same choices can reach the fixed point by another route (the same
 * fixed point when no cell empties, as singles are confluent there); the
 * roulette's rounding case (no value drawn) takes the last candidate where
 * theirs leaves the cell; their clock is checked every 100 cycles, our
 * budgets at every ant step; their random generator is mt19937 seeded from
 * the device, ours the seeded xoshiro of common/rng.h; they handle 9x9,
 * 16x16 and 25x25 standard grids, this handles every shape and the diagonal
 * variant.
 *
 * Counters:
 *   steps   ant steps: cells visited by an ant (ncells per ant per cycle),
 *           whether it placed a value there or not;
 *   guesses values chosen by ants (always among two or more candidates:
 *           single candidates are placed by propagation).
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
 * the candidates of the cells without one, and the cells with one. */
struct acs_board {
    uint8_t val[GRID_MAX_CELLS];
    uint32_t cand[GRID_MAX_CELLS];
    int filled;
};

struct acs_state {
    struct units u;
    struct rng rng;
    int n, ncells, nunits;
    float tau0;
    struct acs_board start;
    struct acs_board ant[ACS_ANTS];
    int pos[ACS_ANTS];
    uint8_t best_val[GRID_MAX_CELLS];
    /* propagation scratch */
    uint16_t queue[GRID_MAX_CELLS];
    int nqueue;
    uint64_t dirty[2]; /* units that lost a candidate since last scanned */
    float pher[GRID_MAX_CELLS * GRID_MAX_N]; /* [cell * n + value - 1] */
};

static void acs_mark_units(struct acs_state *st, int cell)
{
    for (int k = 0; k < st->u.cell_nunits[cell]; k++) {
        const int u = st->u.cell_unit[cell][k];
        st->dirty[u >> 6] |= 1ull << (u & 63);
    }
}

/* Places value v (1..n) at cell c and removes it from the peers. */
static void acs_place(struct acs_state *st, struct acs_board *b, int c, int v)
{
    const uint32_t bit = 1u << (v - 1);
    if (b->cand[c] != bit)
        acs_mark_units(st, c); /* its other candidates lost a place */
    b->val[c] = (uint8_t) v;
    b->cand[c] = bit;
    b->filled++;
    const uint16_t *peer = st->u.peer[c];
    for (int k = 0; k < st->u.npeers[c]; k++) {
        const int p = peer[k];
        if (b->val[p] || !(b->cand[p] & bit))
            continue;
        b->cand[p] &= ~bit;
        acs_mark_units(st, p);
        if (b->cand[p] && !(b->cand[p] & (b->cand[p] - 1)))
            st->queue[st->nqueue++] = (uint16_t) p;
    }
}

/* Hidden singles of unit u: values with one place and no cell holding them. */
static void acs_scan_unit(struct acs_state *st, struct acs_board *b, int u)
{
    const uint16_t *cells = st->u.unit_cell[u];
    uint32_t once = 0, twice = 0, placed = 0;
    for (int k = 0; k < st->n; k++) {
        const int c = cells[k];
        if (b->val[c]) {
            placed |= 1u << (b->val[c] - 1);
        } else {
            twice |= once & b->cand[c];
            once |= b->cand[c];
        }
    }
    uint32_t single = once & ~twice & ~placed;
    while (single) {
        const uint32_t bit = single & -single;
        single &= single - 1;
        for (int k = 0; k < st->n; k++) {
            const int c = cells[k];
            if (!b->val[c] && (b->cand[c] & bit)) {
                acs_place(st, b, c, __builtin_ctz(bit) + 1);
                break;
            }
        }
    }
}

/* Naked and hidden singles until neither applies. */
static void acs_propagate(struct acs_state *st, struct acs_board *b)
{
    for (;;) {
        while (st->nqueue > 0) {
            const int c = st->queue[--st->nqueue];
            const uint32_t m = b->cand[c];
            if (!b->val[c] && m && !(m & (m - 1)))
                acs_place(st, b, c, __builtin_ctz(m) + 1);
        }
        int w = st->dirty[0] ? 0 : st->dirty[1] ? 1 : -1;
        if (w < 0)
            return;
        const int bitpos = __builtin_ctzll(st->dirty[w]);
        st->dirty[w] &= st->dirty[w] - 1;
        acs_scan_unit(st, b, w * 64 + bitpos);
    }
}

static void acs_set(struct acs_state *st, struct acs_board *b, int c, int v)
{
    st->nqueue = 0;
    st->dirty[0] = st->dirty[1] = 0;
    acs_place(st, b, c, v);
    acs_propagate(st, b);
}

/* The start state: every candidate, then the clues with propagation. */
static void acs_setup(struct acs_state *st, const struct grid *puzzle)
{
    if (!units_fit(&st->u, puzzle))
        units_build(&st->u, puzzle);
    st->n = puzzle->n;
    st->ncells = puzzle->ncells;
    st->nunits = st->u.nunits;
    const uint32_t all = (1u << st->n) - 1;
    struct acs_board *b = &st->start;
    b->filled = 0;
    for (int c = 0; c < st->ncells; c++) {
        b->val[c] = 0;
        b->cand[c] = all;
    }
    /* the clues first (they are consistent: solver_run checked), then their
       consequences, so propagation never takes a clue's place */
    st->nqueue = 0;
    st->dirty[0] = st->dirty[1] = 0;
    for (int c = 0; c < st->ncells; c++) {
        if (puzzle->cell[c])
            acs_place(st, b, c, puzzle->cell[c]);
    }
    acs_propagate(st, b);
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

/* The value an ant picks at cell c among its candidates m. */
static int acs_choose(struct acs_state *st, int c, uint32_t m)
{
    const float *tau = &st->pher[c * st->n];
    if (acs_random(&st->rng) > ACS_Q0) {
        int best = 0;
        float most = -1.0f;
        for (uint32_t left = m; left; left &= left - 1) {
            const int i = __builtin_ctz(left);
            if (tau[i] > most) {
                most = tau[i];
                best = i;
            }
        }
        return best + 1;
    }
    float total = 0;
    for (uint32_t left = m; left; left &= left - 1)
        total += tau[__builtin_ctz(left)];
    const float draw = total * acs_random(&st->rng);
    float running = 0;
    int last = 0;
    for (uint32_t left = m; left; left &= left - 1) {
        last = __builtin_ctz(left);
        running += tau[last];
        if (running > draw)
            return last + 1;
    }
    return last + 1;
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
    const int ncells = st->ncells, n = st->n;
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
            memcpy(st->ant[a].cand, st->start.cand, (size_t) ncells * sizeof(uint32_t));
            st->pos[a] = (int) rng_below(&st->rng, (uint64_t) ncells);
        }
        for (int i = 0; i < ncells; i++) {
            for (int a = 0; a < ACS_ANTS; a++) {
                if (solver_over_budget(req, res))
                    return;
                res->counters.steps++;
                struct acs_board *b = &st->ant[a];
                const int c = st->pos[a];
                st->pos[a] = c + 1 == ncells ? 0 : c + 1;
                if (b->val[c] || !b->cand[c])
                    continue;
                const int v = acs_choose(st, c, b->cand[c]);
                res->counters.guesses++;
                acs_set(st, b, c, v);
                float *tau = &st->pher[c * n + v - 1];
                *tau = *tau * keep_local + add_local;
            }
        }
        int best_ant = 0;
        for (int a = 1; a < ACS_ANTS; a++) {
            if (st->ant[a].filled > st->ant[best_ant].filled)
                best_ant = a;
        }
        const struct acs_board *b = &st->ant[best_ant];
        if (b->filled == ncells) {
            acs_found(st, puzzle, b, req, res);
            return;
        }
        const float amount = (float) ncells / (float) (ncells - b->filled);
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
