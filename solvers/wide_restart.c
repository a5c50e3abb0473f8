/* wide_restart: `wide` with restarts, for the first solution of puzzles on
 * which its search is heavy-tailed (almost empty 16x16 and 25x25 grids: a few
 * of Lewis's instances at fills 15-45% that `wide` does not finish in a
 * minute, where most take milliseconds).
 *
 * At limit 1 (no solution callback, no trace) it runs wide's search with a
 * step budget, and when that runs out starts again on a randomly transformed
 * copy of the puzzle: digits relabelled, bands and the rows within each band
 * permuted, stacks and the columns within each stack, and for square boxes a
 * transposition half the time (in the diagonal variant, whose diagonals those
 * moves would break, the digits only). The copy has the same solutions,
 * transformed; wide's branching order (its cell ties, its lowest candidate
 * first, its lookahead's first 64 bivalue cells in row order) follows the
 * positions and digits, so each copy is searched in another order. The
 * budgets follow Luby's sequence (1, 1, 2, 1, 1, 2, 4, ...) times
 * WR_UNIT_STEPS: within a constant and a log factor of the best fixed
 * budget whatever the distribution of run lengths (Luby, Sinclair and
 * Zuckerman, 1993), and unbounded, so the search stays complete: a run that
 * ends inside its budget is an exhausted or finished search of the copy, and
 * its answer (solution mapped back, or no solution) is the answer. The first
 * run is on the puzzle as given, so a puzzle that wide solves within one
 * unit is solved exactly as wide solves it.
 *
 * Any other request (counting, limit 2, a callback or a trace) is one run of
 * wide as it is: a run cut short may have reported solutions, which a restart
 * would report again.
 *
 * Counters: wide's, summed over the runs. The random choices come from a
 * xoshiro stream seeded with the request's seed (default 0), so a run is
 * reproducible. */
#include <string.h>

#include "common/clock.h"
#include "common/rng.h"
#include "solvers/registry.h"

/* Propagation rounds of the first runs: wide finishes nine in ten of Lewis's
 * 25x25 instances at fills 15-45% within a few thousand rounds, and the
 * slowest that it finishes within a second take a few hundred thousand. */
#define WR_UNIT_STEPS 100000u

struct wr_map {
    bool transpose;
    uint8_t row[GRID_MAX_N], col[GRID_MAX_N]; /* copy's row/column -> puzzle's */
    uint8_t digit[GRID_MAX_N + 1], undigit[GRID_MAX_N + 1];
};

struct wr_priv {
    struct solver_instance *wide;
    struct rng rng;
    struct wr_map map;
    struct grid copy;
};

static int wr_init(void *priv, int variant)
{
    (void) variant;
    struct wr_priv *p = priv;
    p->wide = solver_open(&solver_wide);
    return p->wide ? 0 : -1;
}

static void wr_fini(void *priv)
{
    struct wr_priv *p = priv;
    if (p->wide)
        solver_close(p->wide);
    p->wide = NULL;
}

/* Luby's sequence, from i = 1: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... */
static uint64_t wr_luby(uint64_t i)
{
    for (;;) {
        int k = 1;
        while ((1ull << k) - 1 < i)
            k++;
        if ((1ull << k) - 1 == i)
            return 1ull << (k - 1);
        i -= (1ull << (k - 1)) - 1;
    }
}

/* A random order of `groups` groups of `size` lines each, and of the lines
 * within each group, into out (out[new line] = old line). */
static void wr_lines(struct rng *r, int groups, int size, uint8_t *out)
{
    int g[GRID_MAX_N], l[GRID_MAX_N];
    for (int k = 0; k < groups; k++)
        g[k] = k;
    rng_shuffle(r, g, groups);
    for (int k = 0; k < groups; k++) {
        for (int j = 0; j < size; j++)
            l[j] = j;
        rng_shuffle(r, l, size);
        for (int j = 0; j < size; j++)
            out[k * size + j] = (uint8_t) (g[k] * size + l[j]);
    }
}

/* A random transformation of puzzle's shape into p->map, and the copy. */
static void wr_transform(struct wr_priv *p, const struct grid *puzzle)
{
    struct wr_map *m = &p->map;
    const int n = puzzle->n;
    int d[GRID_MAX_N];
    for (int k = 0; k < n; k++)
        d[k] = k + 1;
    rng_shuffle(&p->rng, d, n);
    m->digit[0] = m->undigit[0] = 0;
    for (int k = 0; k < n; k++) {
        m->digit[k + 1] = (uint8_t) d[k];
        m->undigit[d[k]] = (uint8_t) (k + 1);
    }
    if (puzzle->variant == GRID_DIAGONAL) {
        m->transpose = false;
        for (int k = 0; k < n; k++)
            m->row[k] = m->col[k] = (uint8_t) k;
    } else {
        wr_lines(&p->rng, n / puzzle->box_rows, puzzle->box_rows, m->row);
        wr_lines(&p->rng, n / puzzle->box_cols, puzzle->box_cols, m->col);
        m->transpose
            = puzzle->box_rows == puzzle->box_cols && (rng_next(&p->rng) & 1) != 0;
    }
    p->copy = *puzzle;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            const int sr = m->transpose ? m->row[c] : m->row[r];
            const int sc = m->transpose ? m->col[r] : m->col[c];
            p->copy.cell[r * n + c] = m->digit[puzzle->cell[sr * n + sc]];
        }
    }
}

/* The copy's solution in the puzzle's frame. */
static void wr_untransform(
    const struct wr_map *m, const struct grid *copy, struct grid *out)
{
    const int n = copy->n;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            const int sr = m->transpose ? m->row[c] : m->row[r];
            const int sc = m->transpose ? m->col[r] : m->col[c];
            out->cell[sr * n + sc] = m->undigit[copy->cell[r * n + c]];
        }
    }
}

static void wr_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct wr_priv *p = priv;
    if (req->limit != 1 || req->on_solution || req->trace) {
        solver_solve_unchecked(p->wide, puzzle, req, res);
        return;
    }
    rng_seed(&p->rng, req->seed);
    for (uint64_t run = 1;; run++) {
        struct solve_request r = *req;
        r.budget_steps = wr_luby(run) * WR_UNIT_STEPS;
        if (req->budget_steps) {
            const uint64_t left = req->budget_steps - res->counters.steps;
            if (left < r.budget_steps)
                r.budget_steps = left;
        }
        const struct grid *g = puzzle;
        if (run > 1) {
            wr_transform(p, puzzle);
            g = &p->copy;
        }
        struct solve_result one;
        memset(&one, 0, sizeof(one));
        solver_solve_unchecked(p->wide, g, &r, &one);
        solver_counters_add(&res->counters, &one.counters);
        if (one.outcome == SOLVE_ERROR) {
            res->outcome = SOLVE_ERROR;
            memcpy(res->error, one.error, sizeof(res->error));
            return;
        }
        if (one.outcome == SOLVE_DONE) {
            res->outcome = SOLVE_DONE;
            res->solutions = one.solutions;
            if (one.solutions > 0) {
                res->solution = *puzzle;
                if (run > 1)
                    wr_untransform(&p->map, &one.solution, &res->solution);
                else
                    res->solution = one.solution;
            }
            return;
        }
        /* out of this run's budget: the request's own budget, or a restart */
        if ((req->budget_steps && res->counters.steps >= req->budget_steps)
            || (req->deadline_ns && clock_now_ns() >= req->deadline_ns)) {
            res->outcome = SOLVE_BUDGET;
            return;
        }
    }
}

const struct solver solver_wide_restart = {
    .name = "wide_restart",
    .family = "bitmask",
    .summary = "wide with restarts on transformed copies (Luby budgets) for the first "
               "solution; else wide",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* wide's lanes */
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_STEP_BUDGET,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)
        | SOLVER_HAS(nodes),
    .priv_size = sizeof(struct wr_priv),
    .init = wr_init,
    .solve = wr_solve,
    .fini = wr_fini,
};
