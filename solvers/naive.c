/* naive: the thesis's backtracking (seed 000; also seeds 002, 003, 004).
 *
 * Take the first empty cell in row-major order, try 1..N ascending, keep a
 * value when no cell of its row, column, box (and, for the diagonal variant,
 * its diagonals) holds it - found by scanning those cells, as the thesis does -
 * and recurse. Two registrations run the same search: `naive` recursively and
 * `naive_stack` with an explicit stack (seed 004 compares the two); their
 * answers and counters are identical by construction and by test.
 *
 * Counters:
 *   steps      values placed (each tentative write of a value into a cell);
 *   nodes      empty cells visited (recursive calls that reach an empty cell);
 *   guesses    values placed at a cell where two or more values were legal
 *              when the cell was reached (found without extra cost: the loop
 *              scans every value anyway, and after an early stop the rest of
 *              the values are scanned once);
 *   backtracks cells reached where no value was legal.
 * Trace: every placement is a GUESS (the method has no notion of a forced
 * value), every erase an UNDO, every empty-handed cell DEAD. */
#include <stdbool.h>

#include "solvers/registry.h"

struct naive_state {
    struct grid g;
    const struct solve_request *req;
    struct solve_result *res;
    bool stop;
    int nempty;
    uint16_t empty[GRID_MAX_CELLS];
    /* naive_stack's explicit stack: per level, the value last tried, the legal
     * values seen and the values placed */
    uint8_t tried[GRID_MAX_CELLS];
    uint8_t legal[GRID_MAX_CELLS];
    uint8_t placed[GRID_MAX_CELLS];
};

static bool is_legal(const struct grid *g, int cell, int v)
{
    const int n = g->n, r = cell / n, c = cell % n;
    for (int k = 0; k < n; k++) {
        if (g->cell[r * n + k] == v || g->cell[k * n + c] == v)
            return false;
    }
    const int top = r - r % g->box_rows, left = c - c % g->box_cols;
    for (int i = top; i < top + g->box_rows; i++) {
        for (int j = left; j < left + g->box_cols; j++) {
            if (g->cell[i * n + j] == v)
                return false;
        }
    }
    if (g->variant == GRID_DIAGONAL) {
        if (r == c) {
            for (int k = 0; k < n; k++) {
                if (g->cell[k * n + k] == v)
                    return false;
            }
        }
        if (r == n - 1 - c) {
            for (int k = 0; k < n; k++) {
                if (g->cell[k * n + n - 1 - k] == v)
                    return false;
            }
        }
    }
    return true;
}

static void naive_prepare(struct naive_state *st, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    st->g = *puzzle;
    st->req = req;
    st->res = res;
    st->stop = false;
    st->nempty = 0;
    for (int i = 0; i < puzzle->ncells; i++) {
        if (puzzle->cell[i] == 0)
            st->empty[st->nempty++] = (uint16_t) i;
    }
}

static void reach_leaf(struct naive_state *st)
{
    if (solver_wants_grid(st->req, st->res)) {
        solver_emit(st->req, st->res, SOLVER_EVENT_SOLUTION, -1, 0);
        st->stop = solver_record_solution(st->req, st->res, &st->g);
    } else {
        st->stop = solver_count_solution(st->req, st->res);
    }
}

/* Next legal value above `after` at cell, or 0. */
static int next_legal(const struct grid *g, int cell, int after)
{
    for (int v = after + 1; v <= g->n; v++) {
        if (g->has_candidates && !(g->candidates[cell] >> (v - 1) & 1u))
            continue;
        if (is_legal(g, cell, v))
            return v;
    }
    return 0;
}

/* Bookkeeping when a cell is left: `last` is the last value looked at, legal
 * the legal values seen up to it, placed the values written. */
static void leave_cell(struct naive_state *st, int cell, int last, int legal, int placed)
{
    if (st->stop && last && legal < 2 && next_legal(&st->g, cell, last))
        legal = 2;
    if (legal >= 2)
        st->res->counters.guesses += (uint64_t) placed;
    if (legal == 0) {
        st->res->counters.backtracks++;
        solver_emit(st->req, st->res, SOLVER_EVENT_DEAD, cell, 0);
    }
}

static void place(struct naive_state *st, int cell, int v)
{
    st->g.cell[cell] = (uint8_t) v;
    st->res->counters.steps++;
    solver_emit(st->req, st->res, SOLVER_EVENT_GUESS, cell, v);
}

static void erase(struct naive_state *st, int cell, int v)
{
    st->g.cell[cell] = 0;
    solver_emit(st->req, st->res, SOLVER_EVENT_UNDO, cell, v);
}

static void search(struct naive_state *st, int k)
{
    if (k == st->nempty) {
        reach_leaf(st);
        return;
    }
    st->res->counters.nodes++;
    const int cell = st->empty[k];
    int v = 0, legal = 0, placed = 0;
    while ((v = next_legal(&st->g, cell, v)) != 0) {
        legal++;
        if (solver_over_budget(st->req, st->res)) {
            st->stop = true;
            break;
        }
        place(st, cell, v);
        placed++;
        search(st, k + 1);
        erase(st, cell, v);
        if (st->stop)
            break;
    }
    leave_cell(st, cell, v, legal, placed);
}

static void naive_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct naive_state *st = priv;
    naive_prepare(st, puzzle, req, res);
    search(st, 0);
}

/* The same search with the recursion unrolled onto an explicit stack: level k
 * keeps the value it last tried and the legal values seen so far. */
static void naive_stack_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct naive_state *st = priv;
    naive_prepare(st, puzzle, req, res);
    int k = 0;
    bool entering = true;
    for (;;) {
        if (entering && k == st->nempty) {
            reach_leaf(st);
            if (k == 0)
                return;
            k--;
            entering = false;
        }
        const int cell = st->empty[k];
        if (entering) {
            res->counters.nodes++;
            st->tried[k] = 0;
            st->legal[k] = 0;
            st->placed[k] = 0;
        } else {
            erase(st, cell, st->tried[k]);
        }
        int last = st->tried[k];
        if (!st->stop) {
            last = next_legal(&st->g, cell, st->tried[k]);
            if (last) {
                st->legal[k]++;
                st->tried[k] = (uint8_t) last;
                if (solver_over_budget(req, res)) {
                    st->stop = true;
                } else {
                    place(st, cell, last);
                    st->placed[k]++;
                    k++;
                    entering = true;
                    continue;
                }
            }
        }
        leave_cell(st, cell, last, st->legal[k], st->placed[k]);
        if (k == 0)
            return;
        k--;
        entering = false;
    }
}

/* The two registrations differ only in how they walk the same search. */
#define NAIVE_SOLVER(id, name_, summary_, solve_)                                        \
    const struct solver id = {                                                           \
        .name = name_,                                                                   \
        .family = "backtrack",                                                           \
        .summary = summary_,                                                             \
        .min_n = 1,                                                                      \
        .max_n = GRID_MAX_N,                                                             \
        .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_TRACE                \
            | SOLVER_CAP_CANDIDATES | SOLVER_CAP_STEP_BUDGET,                            \
        .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)     \
            | SOLVER_HAS(nodes),                                                         \
        .priv_size = sizeof(struct naive_state),                                         \
        .solve = solve_,                                                                 \
    }

NAIVE_SOLVER(solver_naive, "naive",
    "thesis backtracking: first empty cell row-major, values ascending, scans",
    naive_solve);
NAIVE_SOLVER(solver_naive_stack, "naive_stack",
    "the same search with an explicit stack instead of recursion (seed 004)",
    naive_stack_solve);
