/* auto: each puzzle to the back end that is fastest for it, so that `sudolab
 * count` (whose default this is) need not be told.
 *
 * Measured side by side (docs/commands.md): the SIMD back ends win wherever
 * they run (fast on standard 9x9, wide on other sizes and the diagonal
 * variant: serg counted whole 1.5x faster than mrv, hard 16x16 puzzles 40x),
 * except on grids whose clues leave some value unused: there mrv merges the
 * branches of interchangeable values (the empty 16x16 grid: 200,000 solutions
 * in 0.3 ms, where a search that visits each takes seconds). So: limit 1 or
 * 2, or every value among the clues: fast, else wide; otherwise mrv. (When
 * every value is given but the solutions run into millions, wide enumerates
 * them 2-3x slower than mrv, its lookahead paying off only in hard searches;
 * such grids are rarer than hard ones.) For the first solution (limit 1, no
 * callback or trace) on grids of 16x16 and more, wide_restart instead of
 * wide: wide's search there is heavy-tailed (a few of Lewis's almost empty
 * 16x16 and 25x25 instances run past a minute), and wide_restart's first run
 * is wide's with a budget that the rest finish within, so it is wide on them
 * (docs/phase-transition.md). 9x9 grids keep fast or wide. Grids past what
 * 32-bit value masks hold (36x36, 49x49) go to dlx, the fastest back end that
 * takes them and answers every question auto is asked (counts, the diagonal
 * variant, step budgets).
 * The counters are those of the back end that ran (all three report the same
 * ones, with the meanings written at the top of each file). */
#include "solvers/registry.h"

enum { AUTO_FAST, AUTO_WIDE, AUTO_WIDE_RESTART, AUTO_MRV, AUTO_DLX, AUTO_COUNT };

struct auto_priv {
    struct solver_instance *inst[AUTO_COUNT];
};

static int auto_init(void *priv, int variant)
{
    (void) variant;
    struct auto_priv *p = priv;
    const struct solver *const each[AUTO_COUNT]
        = { &solver_fast, &solver_wide, &solver_wide_restart, &solver_mrv, &solver_dlx };
    for (int i = 0; i < AUTO_COUNT; i++) {
        p->inst[i] = solver_open(each[i]);
        if (!p->inst[i])
            return -1;
    }
    return 0;
}

static void auto_fini(void *priv)
{
    struct auto_priv *p = priv;
    for (int i = 0; i < AUTO_COUNT; i++) {
        if (p->inst[i])
            solver_close(p->inst[i]);
    }
}

static bool every_value_given(const struct grid *g)
{
    uint64_t seen = 0;
    for (int c = 0; c < g->ncells; c++) {
        if (g->cell[c])
            seen |= UINT64_C(1) << g->cell[c];
    }
    const uint64_t all = ((UINT64_C(1) << g->n) - 1) << 1;
    return (seen & all) == all;
}

static int auto_pick(const struct grid *puzzle, const struct solve_request *req)
{
    if (puzzle->n > GRID_MAX_N_MASK32)
        return AUTO_DLX;
    if (req->limit != 1 && req->limit != 2 && !every_value_given(puzzle))
        return AUTO_MRV;
    if (solver_supports(&solver_fast, puzzle, NULL, 0))
        return AUTO_FAST;
    if (puzzle->n >= 16 && req->limit == 1 && !req->on_solution && !req->trace)
        return AUTO_WIDE_RESTART;
    return AUTO_WIDE;
}

static void auto_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct auto_priv *p = priv;
    const int i = auto_pick(puzzle, req);
    /* solver_run() has checked the clues and verifies the answer; the shape
     * is one the picked back end supports (wide, wide_restart and mrv take
     * every shape up to GRID_MAX_N_MASK32, dlx the larger ones). */
    solver_solve_unchecked(p->inst[i], puzzle, req, res);
}

const struct solver solver_auto = {
    .name = "auto",
    .family = "auto",
    .summary = "each puzzle to the fastest back end for it: fast (9x9) or wide "
               "(wide_restart for a first solution from 16x16), mrv to count grids "
               "whose clues leave a value unused, dlx past 25x25",
    .min_n = 1,
    .max_n = GRID_MAX_N, /* dlx takes what the others cannot */
    .caps
    = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_STEP_BUDGET | SOLVER_CAP_FAST,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)
        | SOLVER_HAS(nodes),
    .priv_size = sizeof(struct auto_priv),
    .init = auto_init,
    .solve = auto_solve,
    .fini = auto_fini,
};
