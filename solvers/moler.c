/* moler: Cleve Moler's recursive backtracking with singletons (seed 001,
 * "Solving Sudoku with MATLAB", MathWorks News & Notes 2009), and the variant
 * of the Sudoku chapter of his book Experiments with MATLAB (EXM, 2014).
 *
 * The search, as the article's MATLAB code does it (../shared/moler.md):
 *   1. Cells are taken in MATLAB's column-major order, k = (col-1)*N + row;
 *      "first" always means the smallest k.
 *   2. After every single fill, the candidates of every empty cell (values
 *      absent from its row, column, box and, for the diagonal variant, its
 *      diagonals) are computed afresh for the whole grid. The used-value masks
 *      of the units are only a cache of the grid's contents; no candidate set
 *      is carried from one fill to the next, since an incremental propagation
 *      queue would fill singletons in another order and change every count.
 *   3. While no empty cell has 0 candidates and some has exactly 1, fill the
 *      first such singleton and recompute.
 *   4. If an empty cell has 0 candidates, the call fails (a dead end).
 *   5. A full grid is a solution.
 *   6. Else save the grid, branch on one cell and, for each of its candidates
 *      ascending, restore the saved grid, write the value and recurse.
 * `moler` branches on the first unfilled cell (the article); `moler_exm` on
 * the first cell with the fewest candidates (EXM's 2014 sudoku.m).
 * Counting modes go on past a solution as if its branch had failed.
 *
 * Counters (S = singleton fills, G = tentative values written, F = tentative
 * values abandoned: their recursive call ended and the search goes on, which
 * in first-solution mode means the call found no solution; F grows the moment
 * the call ends, before its DEAD event, and the top-level call never adds to
 * it):
 *   steps          values written, S + G: what EXM's sudoku.m counts;
 *   guesses        G (the branch cell always has two or more candidates);
 *   backtracks     dead ends: calls stopped by an empty cell with no candidate;
 *   nodes          recursive calls, the top-level one included;
 *   article_steps  S + 2G + floor(F/2), the 2009 article's step numbers.
 * The article's numbering is not EXM's counter. This formula was reconstructed
 * from the six step numbers the article prints for Gordon Royle's puzzle
 * (22, 3,114, 8,172, 14,781, 19,229, 19,422), and it reproduces all of them;
 * it equals half the screen updates of a GUI that redraws twice per fill,
 * four times per tentative value and once per revert. tests/test_moler.c
 * pins those figures and the totals S = 12,095, G = 2,933, F = 2,922.
 * Trace: SINGLETON per singleton fill, GUESS per tentative value, UNDO per
 * value erased when a saved grid is restored (just before the next tentative
 * value at that level), DEAD with the first cell that has no candidate,
 * SOLUTION when the grid is full. S is steps - guesses, and floor(F/2) is
 * article_steps - steps - guesses, so a trace carries all three. */
#include <stdbool.h>

#include "solvers/registry.h"

enum { MOLER_ARTICLE = 0, MOLER_EXM = 1 };

/* A cell seen from the search, which walks cells in column-major order. */
struct moler_place {
    uint16_t cell; /* row-major index, for events and the solution */
    uint8_t row, col, box;
    uint8_t diag; /* bit 0: main diagonal, bit 1: anti-diagonal */
};

struct moler_state {
    int variant;
    /* shape the table below was built for (n == 0: none yet) */
    uint8_t box_rows, box_cols, n, diagonal;
    int ncells;
    uint32_t full; /* bit v-1 stands for value v */
    /* everything below is indexed by column-major position k, so that
     * "first" is "lowest k" */
    struct moler_place at[GRID_MAX_CELLS];

    /* the grid and the values each unit holds */
    uint8_t value[GRID_MAX_CELLS];
    uint32_t row[GRID_MAX_N], col[GRID_MAX_N], box[GRID_MAX_N];
    uint32_t diag_used[4]; /* indexed by moler_place.diag: 0, main, anti, both */
    int nempty;
    /* bit k set: position k is empty. The scan walks these bits, so a
     * recomputation costs one step per empty cell. */
    uint64_t empty[(GRID_MAX_CELLS + 63) / 64];
    int nwords;
    /* positions written since the search began, in order: restoring a saved
     * grid erases the entries above the level's mark */
    uint16_t trail[GRID_MAX_CELLS];
    int ntrail;

    uint64_t singles, tentative, abandoned; /* S, G, F */
    const struct solve_request *req;
    struct solve_result *res;
    struct grid scratch; /* the solution handed to solver_record_solution */
};

/* What one full recomputation of the candidates found (positions). */
struct moler_scan {
    int dead; /* first empty cell with no candidate, or -1 */
    int single; /* first empty cell with exactly one candidate, or -1 */
    int branch; /* the cell to branch on, or -1 when the grid is full */
    uint32_t branch_cands;
    uint32_t single_cand;
};

static int moler_init(void *priv, int variant)
{
    struct moler_state *st = priv;
    st->variant = variant;
    return 0;
}

static void build_tables(struct moler_state *st, const struct grid *g)
{
    const int n = g->n;
    st->box_rows = g->box_rows;
    st->box_cols = g->box_cols;
    st->n = g->n;
    st->diagonal = g->variant == GRID_DIAGONAL;
    st->ncells = g->ncells;
    st->full = (1u << n) - 1u;
    st->nwords = (g->ncells + 63) / 64;
    int k = 0;
    for (int c = 0; c < n; c++) {
        for (int r = 0; r < n; r++, k++) {
            const int i = r * n + c;
            st->at[k].cell = (uint16_t) i;
            st->at[k].row = (uint8_t) r;
            st->at[k].col = (uint8_t) c;
            st->at[k].box = (uint8_t) grid_box_of(g, i);
            st->at[k].diag = 0;
            if (st->diagonal)
                st->at[k].diag = (uint8_t) ((r == c ? 1 : 0) | (r == n - 1 - c ? 2 : 0));
        }
    }
}

static void update_article_steps(struct moler_state *st)
{
    st->res->counters.article_steps = st->singles + 2 * st->tentative + st->abandoned / 2;
}

/* Toggles value v at position k in the unit masks (set when writing, clear
 * when erasing: a value is written only where its bit is clear). */
static void toggle_units(struct moler_state *st, int k, int v)
{
    const struct moler_place *p = &st->at[k];
    const uint32_t bit = 1u << (v - 1);
    st->row[p->row] ^= bit;
    st->col[p->col] ^= bit;
    st->box[p->box] ^= bit;
    if (p->diag) {
        if (p->diag & 1)
            st->diag_used[1] ^= bit;
        if (p->diag & 2)
            st->diag_used[2] ^= bit;
        /* the centre cell of odd N lies on both diagonals */
        st->diag_used[3] = st->diag_used[1] | st->diag_used[2];
    }
}

static inline void flip_empty(struct moler_state *st, int k)
{
    st->empty[k >> 6] ^= (uint64_t) 1 << (k & 63);
}

static void write_value(struct moler_state *st, int k, int v)
{
    st->value[k] = (uint8_t) v;
    flip_empty(st, k);
    toggle_units(st, k, v);
    st->trail[st->ntrail++] = (uint16_t) k;
    st->nempty--;
    st->res->counters.steps++;
}

/* Restores the grid saved when the trail was `mark` long. */
static void restore(struct moler_state *st, int mark)
{
    while (st->ntrail > mark) {
        const int k = st->trail[--st->ntrail];
        const int v = st->value[k];
        toggle_units(st, k, v);
        st->value[k] = 0;
        flip_empty(st, k);
        st->nempty++;
        solver_emit(st->req, st->res, SOLVER_EVENT_UNDO, st->at[k].cell, v);
    }
}

static inline uint32_t candidates(const struct moler_state *st, int k)
{
    const struct moler_place *p = &st->at[k];
    return st->full
        & ~(st->row[p->row] | st->col[p->col] | st->box[p->box] | st->diag_used[p->diag]);
}

/* Recomputes every empty cell's candidates, in column-major order. Stops at
 * the first cell with none: the call fails whatever else the grid holds.
 * Only "none, one, more" matters except for EXM's fewest-candidates rule,
 * which counts them while nothing below two has been seen. */
static void scan(const struct moler_state *st, struct moler_scan *out)
{
    out->dead = out->single = out->branch = -1;
    out->branch_cands = out->single_cand = 0;
    int fewest = st->n + 1;
    const bool exm = st->variant == MOLER_EXM;
    for (int w = 0; w < st->nwords; w++) {
        for (uint64_t bits = st->empty[w]; bits; bits &= bits - 1) {
            const int k = w * 64 + __builtin_ctzll(bits);
            const uint32_t m = candidates(st, k);
            if (m == 0) {
                out->dead = k;
                return;
            }
            if ((m & (m - 1)) == 0) {
                if (out->single < 0) {
                    out->single = k;
                    out->single_cand = m;
                }
            } else if (out->branch < 0 || (exm && fewest > 2)) {
                const int count = exm ? __builtin_popcount(m) : 2;
                if (count < fewest) {
                    fewest = count;
                    out->branch = k;
                    out->branch_cands = m;
                }
            }
        }
    }
}

static bool reach_solution(struct moler_state *st)
{
    const struct solve_request *req = st->req;
    struct solve_result *res = st->res;
    solver_emit(req, res, SOLVER_EVENT_SOLUTION, -1, 0);
    if (!solver_wants_grid(req, res))
        return solver_count_solution(req, res);
    for (int k = 0; k < st->ncells; k++)
        st->scratch.cell[st->at[k].cell] = st->value[k];
    return solver_record_solution(req, res, &st->scratch);
}

/* A call made for a tentative value is over and the search goes on: that
 * value is abandoned. Counted when the call ends, so a DEAD event (the
 * article's Figure 12 at step 14,781) already includes it. */
static bool abandon(struct moler_state *st, int depth)
{
    if (depth > 0) {
        st->abandoned++;
        update_article_steps(st);
    }
    return false;
}

/* One call of the article's sudoku(X), depth 0 being the top-level call.
 * Returns true when the whole search must stop (solution limit, on_solution
 * or a budget). */
static bool search(struct moler_state *st, int depth)
{
    const struct solve_request *req = st->req;
    struct solve_result *res = st->res;
    struct moler_scan sc;
    res->counters.nodes++;
    for (;;) {
        scan(st, &sc);
        if (sc.dead >= 0) {
            res->counters.backtracks++;
            abandon(st, depth);
            solver_emit(req, res, SOLVER_EVENT_DEAD, st->at[sc.dead].cell, 0);
            return false;
        }
        if (sc.single < 0)
            break;
        if (solver_over_budget(req, res))
            return true;
        const int v = __builtin_ctz(sc.single_cand) + 1;
        write_value(st, sc.single, v);
        st->singles++;
        update_article_steps(st);
        solver_emit(req, res, SOLVER_EVENT_SINGLETON, st->at[sc.single].cell, v);
    }
    if (st->nempty == 0)
        return reach_solution(st) || abandon(st, depth);
    const int z = sc.branch, mark = st->ntrail;
    for (uint32_t cands = sc.branch_cands; cands; cands &= cands - 1) {
        restore(st, mark);
        if (solver_over_budget(req, res))
            return true;
        const int v = __builtin_ctz(cands) + 1;
        write_value(st, z, v);
        st->tentative++;
        res->counters.guesses++;
        update_article_steps(st);
        solver_emit(req, res, SOLVER_EVENT_GUESS, st->at[z].cell, v);
        if (search(st, depth + 1))
            return true;
    }
    return abandon(st, depth);
}

static void moler_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct moler_state *st = priv;
    if (st->n != puzzle->n || st->box_rows != puzzle->box_rows
        || st->box_cols != puzzle->box_cols
        || st->diagonal != (puzzle->variant == GRID_DIAGONAL))
        build_tables(st, puzzle);
    st->req = req;
    st->res = res;
    st->scratch = *puzzle;
    st->singles = st->tentative = st->abandoned = 0;
    st->ntrail = 0;
    st->nempty = 0;
    for (int u = 0; u < st->n; u++)
        st->row[u] = st->col[u] = st->box[u] = 0;
    for (int d = 0; d < 4; d++)
        st->diag_used[d] = 0;
    for (int w = 0; w < st->nwords; w++)
        st->empty[w] = 0;
    for (int k = 0; k < st->ncells; k++) {
        const int v = puzzle->cell[st->at[k].cell];
        st->value[k] = (uint8_t) v;
        if (v) {
            toggle_units(st, k, v);
        } else {
            flip_empty(st, k);
            st->nempty++;
        }
    }
    search(st, 0);
}

#define MOLER_CAPS                                                                       \
    (SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_TRACE | SOLVER_CAP_STEP_BUDGET)
#define MOLER_COUNTERS                                                                   \
    (SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)                    \
        | SOLVER_HAS(nodes) | SOLVER_HAS(article_steps))

const struct solver solver_moler = {
    .name = "moler",
    .family = "singles",
    .summary
    = "Moler 2009: fill singletons, recompute all candidates, branch on the first "
      "empty cell (column-major)",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* uint32_t unit masks */
    .caps = MOLER_CAPS,
    .counters = MOLER_COUNTERS,
    .variant = MOLER_ARTICLE,
    .priv_size = sizeof(struct moler_state),
    .init = moler_init,
    .solve = moler_solve,
};

const struct solver solver_moler_exm = {
    .name = "moler_exm",
    .family = "singles",
    .summary = "Moler EXM 2014: the same, branching on the first cell with the fewest "
               "candidates",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* uint32_t unit masks */
    .caps = MOLER_CAPS,
    .counters = MOLER_COUNTERS,
    .variant = MOLER_EXM,
    .priv_size = sizeof(struct moler_state),
    .init = moler_init,
    .solve = moler_solve,
};
