/* milp: Sudoku as a 0-1 integer program, solved by GLPK's glp_intopt (issue 5).
 *
 * Formulation of seed 003 (MATLAB's intlinprog example): one binary x per
 * placement of the exact-cover model (common/exact_cover.h; column j + 1 of
 * the problem is model row j, "value v in cell c"), every model column (cell,
 * row-value, column-value, box-value, diagonal-value) a row "sum = 1", clues
 * as fixed bounds (x = 1), and seed 003's objective: minimise the sum of
 * v * x. That objective is the same for every point of the LP relaxation (each
 * row-value row puts weight 1 on each value), so the first integer point found
 * is optimal and ends the search; it is kept because the seed uses it.
 *
 * Uniqueness as seed 003 proves it: after a solution, add the row "sum of the
 * x that are 1 in it <= N^2 - 1" (no other solution differs from it in no
 * cell) and solve again. limit 0 repeats this until GLPK finds no solution:
 * one solve per solution, so enumeration is for small grids. The added rows
 * are deleted when the puzzle is done, and the clue bounds are reset lazily
 * (only the cells whose clue changed) at the next puzzle, so one problem
 * object serves every puzzle of a shape; it is rebuilt when the shape changes.
 *
 * GLPK settings: terminal output and messages off, MIP presolver on (it also
 * solves the LP relaxation, so no glp_simplex call is needed), branching on
 * the first fractional variable (measured, below), the rest GLPK's defaults.
 * Budgets: the deadline becomes glp_intopt's tm_lim (milliseconds, rounded up)
 * and is also checked at every node by the callback (glp_ios_terminate), as
 * tm_lim is per call. milp has no steps counter; budget_steps caps both the
 * B&B nodes of a puzzle (checked in the callback) and its glp_intopt calls
 * (a presolved call may enter no node, so enumeration would otherwise go on).
 * SOLVER_CAP_STEP_BUDGET is not set: the budget is not in steps, and GLPK
 * is too slow for the harness's 5,000-step enumeration check (200 solutions
 * of the empty 9x9 grid took 12,166 nodes and 15 s of CPU).
 *
 * Branching rule: first fractional variable (GLP_BR_FFV), by measurement on
 * the first 100 puzzles of top1465 (release build, one run, best of 4 rounds
 * of CPU time; ms per puzzle and B&B nodes per puzzle):
 *
 *   rule                     limit 2 (uniqueness)   limit 1 (first solution)
 *   FFV first fractional      6.30 ms   7.4 nodes    2.82 ms   3.3 nodes
 *   LFV last fractional       8.35 ms  13.1 nodes    3.49 ms   5.3 nodes
 *   MFV most fractional       6.53 ms   7.8 nodes    2.88 ms   3.6 nodes
 *   DTH (GLPK's default)      8.43 ms   8.0 nodes    4.26 ms   3.9 nodes
 *   PCH hybrid pseudocost    13.62 ms   9.3 nodes    6.66 ms   4.6 nodes
 *
 * FFV and MFV tie on those 100 (within the noise of a shared machine); on the
 * first 400, limit 2, FFV took 8.35 ms and MFV 9.62 ms, so FFV it is. Other
 * settings changed nothing measurable: depth-first or best-projection
 * backtracking, a zero objective, no rounding heuristic, preprocessing only
 * at the root, and fixing the clues' peers at 0 ourselves (the presolver does
 * that anyway). Without the MIP presolver (glp_simplex first, warm-started
 * across puzzles) it was slower, and the stale basis broke some solves.
 *
 * Counters: nodes = branch-and-bound subproblems GLPK processed, counted in
 * the callback (one GLP_IPREPRO call per subproblem entered), summed over the
 * solves of a puzzle; 0 when the presolver settles a solve without a tree.
 * GLPK's API reports no simplex iterations, so steps, guesses and backtracks
 * are n/a.
 *
 * Licence: GLPK is GPL-3; a sudolab build that includes this file is covered
 * by the GPL as a whole. Thread safety: GLPK keeps its environment in
 * thread-local storage, so one instance per thread is fine, provided the
 * thread that opens an instance also solves with it and closes it (the bench
 * and count drivers do). The last instance a thread closes frees that
 * thread's environment with glp_free_env; without it every worker thread of
 * a -j run would leave its environment behind for LeakSanitizer to find. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glpk.h>

#include "common/exact_cover.h"
#include "solvers/registry.h"

struct milp_state {
    struct exact_cover ec; /* the shape the problem was built for */
    glp_prob *lp;
    int base_rows; /* rows of the model; exclusion rows follow */
    uint8_t fixed[GRID_MAX_CELLS]; /* value fixed at each cell (0 = none) */
    int *ind; /* [1 + ncells] scratch for exclusion rows */
    double *one; /* [1 + ncells], all 1.0 */
    int *del; /* [1 + max exclusion rows] for glp_del_rows */
    int ndel_max;
    glp_iocp parm;
    uint64_t deadline_ns;
    uint64_t node_budget; /* B&B nodes left for this puzzle; 0 = no budget */
    uint64_t call_nodes;
    bool stopped; /* the callback ended the search (deadline or budget) */
    struct grid sol;
};

static void milp_release(struct milp_state *st)
{
    if (st->lp)
        glp_delete_prob(st->lp);
    st->lp = NULL;
    free(st->ind);
    free(st->one);
    free(st->del);
    st->ind = NULL;
    st->one = NULL;
    st->del = NULL;
    st->ndel_max = 0;
}

static void milp_callback(glp_tree *tree, void *info)
{
    struct milp_state *st = info;
    if (glp_ios_reason(tree) != GLP_IPREPRO)
        return;
    if ((st->node_budget && st->call_nodes >= st->node_budget)
        || (st->deadline_ns && clock_now_ns() >= st->deadline_ns)) {
        st->stopped = true;
        glp_ios_terminate(tree);
        return;
    }
    st->call_nodes++;
}

static int milp_build(struct milp_state *st, const struct grid *g)
{
    milp_release(st);
    glp_term_out(GLP_OFF); /* per thread: build runs in the solving thread */
    if (!exact_cover_fits(&st->ec, g)) {
        exact_cover_free(&st->ec);
        if (exact_cover_build(&st->ec, g) != 0)
            return -1;
    }
    const struct exact_cover *ec = &st->ec;
    size_t nz = 0;
    for (int r = 0; r < ec->nrows; r++)
        nz += ec->row_ncols[r];
    int *ia = malloc((nz + 1) * sizeof(int));
    int *ja = malloc((nz + 1) * sizeof(int));
    double *ar = malloc((nz + 1) * sizeof(double));
    st->ind = malloc(((size_t) ec->ncells + 1) * sizeof(int));
    st->one = malloc(((size_t) ec->ncells + 1) * sizeof(double));
    if (!ia || !ja || !ar || !st->ind || !st->one) {
        free(ia);
        free(ja);
        free(ar);
        return -1;
    }
    for (int i = 0; i <= ec->ncells; i++)
        st->one[i] = 1.0;

    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_rows(lp, ec->ncols);
    for (int i = 1; i <= ec->ncols; i++)
        glp_set_row_bnds(lp, i, GLP_FX, 1.0, 1.0);
    glp_add_cols(lp, ec->nrows);
    size_t k = 0;
    for (int r = 0; r < ec->nrows; r++) {
        glp_set_col_kind(lp, r + 1, GLP_BV);
        glp_set_obj_coef(lp, r + 1, exact_cover_row_value(ec, r));
        for (int i = 0; i < ec->row_ncols[r]; i++) {
            k++;
            ia[k] = ec->row_col[(size_t) r * EXACT_COVER_MAX_ROW_COLS + i] + 1;
            ja[k] = r + 1;
            ar[k] = 1.0;
        }
    }
    glp_load_matrix(lp, (int) nz, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    st->lp = lp;
    st->base_rows = ec->ncols;
    memset(st->fixed, 0, sizeof(st->fixed));
    return 0;
}

/* milp instances open in this thread: glp_free_env frees every GLPK object
 * of the thread, so it may run only when the last one closes. */
static _Thread_local unsigned milp_thread_instances;

static int milp_init(void *priv, int variant)
{
    (void) variant;
    struct milp_state *st = priv;
    milp_thread_instances++;
    glp_term_out(GLP_OFF);
    glp_init_iocp(&st->parm);
    st->parm.msg_lev = GLP_MSG_OFF;
    st->parm.presolve = GLP_ON;
    st->parm.br_tech = GLP_BR_FFV;
    st->parm.cb_func = milp_callback;
    st->parm.cb_info = st;
    return 0;
}

static void milp_fini(void *priv)
{
    struct milp_state *st = priv;
    milp_release(st);
    exact_cover_free(&st->ec);
    if (milp_thread_instances && --milp_thread_instances == 0)
        glp_free_env();
}

/* Fixes the clue placements of puzzle, unfixing those of the previous one. */
static void milp_set_clues(struct milp_state *st, const struct grid *puzzle)
{
    for (int c = 0; c < puzzle->ncells; c++) {
        const int want = puzzle->cell[c];
        if (st->fixed[c] == want)
            continue;
        if (st->fixed[c])
            glp_set_col_bnds(
                st->lp, exact_cover_row(&st->ec, c, st->fixed[c]) + 1, GLP_DB, 0.0, 1.0);
        if (want)
            glp_set_col_bnds(
                st->lp, exact_cover_row(&st->ec, c, want) + 1, GLP_FX, 1.0, 1.0);
        st->fixed[c] = (uint8_t) want;
    }
}

static void milp_read_solution(struct milp_state *st, const struct grid *puzzle)
{
    st->sol = *puzzle;
    for (int c = 0; c < puzzle->ncells; c++) {
        if (puzzle->cell[c])
            continue;
        for (int v = 1; v <= puzzle->n; v++) {
            if (glp_mip_col_val(st->lp, exact_cover_row(&st->ec, c, v) + 1) > 0.5) {
                st->sol.cell[c] = (uint8_t) v;
                break;
            }
        }
    }
}

/* Seed 003's cut: the placements of st->sol cannot all be 1 again. */
static int milp_exclude_solution(struct milp_state *st)
{
    const int row = glp_add_rows(st->lp, 1);
    for (int c = 0; c < st->sol.ncells; c++)
        st->ind[c + 1] = exact_cover_row(&st->ec, c, st->sol.cell[c]) + 1;
    glp_set_mat_row(st->lp, row, st->sol.ncells, st->ind, st->one);
    glp_set_row_bnds(st->lp, row, GLP_UP, 0.0, st->sol.ncells - 1.0);
    return row;
}

static void milp_drop_exclusions(struct milp_state *st)
{
    const int n = glp_get_num_rows(st->lp) - st->base_rows;
    if (n <= 0)
        return;
    if (n > st->ndel_max) {
        int *del = realloc(st->del, ((size_t) n + 1) * sizeof(int));
        if (!del) {
            /* cannot delete in one call: rebuild from scratch next time */
            milp_release(st);
            return;
        }
        st->del = del;
        st->ndel_max = n;
    }
    for (int i = 1; i <= n; i++)
        st->del[i] = st->base_rows + i;
    glp_del_rows(st->lp, n, st->del);
}

/* Milliseconds left until the deadline (at least 1), or INT_MAX for none. */
static int milp_ms_left(uint64_t deadline_ns, uint64_t now)
{
    if (!deadline_ns)
        return INT_MAX;
    const uint64_t ms = (deadline_ns - now + 999999u) / 1000000u;
    return ms > INT_MAX ? INT_MAX : ms < 1 ? 1 : (int) ms;
}

static void milp_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct milp_state *st = priv;
    if (!st->lp || !exact_cover_fits(&st->ec, puzzle)) {
        if (milp_build(st, puzzle) != 0) {
            milp_release(st);
            exact_cover_free(&st->ec);
            res->outcome = SOLVE_ERROR;
            strcpy(res->error, "milp: out of memory building the problem");
            return;
        }
    }
    milp_set_clues(st, puzzle);
    st->deadline_ns = req->deadline_ns;
    st->stopped = false;
    for (uint64_t calls = 0;; calls++) {
        const uint64_t now = clock_now_ns();
        if ((req->deadline_ns && now >= req->deadline_ns)
            || (req->budget_steps
                && (calls >= req->budget_steps
                    || res->counters.nodes >= req->budget_steps))) {
            res->outcome = SOLVE_BUDGET;
            break;
        }
        st->parm.tm_lim = milp_ms_left(req->deadline_ns, now);
        st->node_budget = req->budget_steps ? req->budget_steps - res->counters.nodes : 0;
        st->call_nodes = 0;
        const int ret = glp_intopt(st->lp, &st->parm);
        res->counters.nodes += st->call_nodes;
        if (ret == GLP_ENOPFS)
            break; /* the presolver proved the LP relaxation infeasible */
        if (ret == GLP_ETMLIM || (ret == GLP_ESTOP && st->stopped)) {
            res->outcome = SOLVE_BUDGET;
            break;
        }
        if (ret != 0) {
            res->outcome = SOLVE_ERROR;
            snprintf(res->error, sizeof(res->error),
                "milp: glp_intopt failed with code %d", ret);
            break;
        }
        const int status = glp_mip_status(st->lp);
        if (status == GLP_NOFEAS)
            break;
        if (status != GLP_OPT && status != GLP_FEAS) {
            res->outcome = SOLVE_ERROR;
            snprintf(
                res->error, sizeof(res->error), "milp: unexpected MIP status %d", status);
            break;
        }
        milp_read_solution(st, puzzle);
        if (solver_record_solution(req, res, &st->sol))
            break;
        milp_exclude_solution(st);
    }
    if (st->lp)
        milp_drop_exclusions(st);
    st->deadline_ns = 0;
}

const struct solver solver_milp = {
    .name = "milp",
    .family = "milp",
    .summary = "seed 003's 0-1 program, GLPK branch and bound, exclusion rows to count",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* not tried beyond 25x25 (N^3 binary variables) */
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL,
    .counters = SOLVER_HAS(nodes),
    .priv_size = sizeof(struct milp_state),
    .init = milp_init,
    .solve = milp_solve,
    .fini = milp_fini,
};
