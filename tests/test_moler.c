/* The moler back ends against the figures Cleve Moler published ("Solving
 * Sudoku with MATLAB", 2009; ../shared/moler.md): the six step numbers of
 * Gordon Royle's puzzle, the totals S, G and F, and the Shidoku diag(1:4).
 * Every figure is checked on a grid rebuilt from the trace events alone, with
 * candidates computed here, apart from the back end. Then moler_exm, budgets,
 * odd sizes, and `sudolab trace` itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/registry.h"
#include "tests/test_util.h"

static const char *const royle = test_royle;
static const char *const royle_solution = test_royle_solution;
static const char shidoku[] = "1....2....3....4";
static const char shidoku_a[] = "1423324141322314";
static const char shidoku_b[] = "1342421324313124";

static void format(const struct grid *g, char *out)
{
    grid_format_line(g, out);
}

/* Candidates of a cell by the article's rule, by scanning (no back-end code). */
static int count_candidates(const struct grid *g, int cell)
{
    const int n = g->n, r = cell / n, c = cell % n;
    const int top = r - r % g->box_rows, left = c - c % g->box_cols;
    int count = 0;
    for (int v = 1; v <= n; v++) {
        bool used = false;
        for (int k = 0; k < n && !used; k++)
            used = g->cell[r * n + k] == v || g->cell[k * n + c] == v
                || g->cell[(top + k / g->box_cols) * n + left + k % g->box_cols] == v;
        count += !used;
    }
    return count;
}

static int cell_at(const struct grid *g, int row, int col)
{
    return (row - 1) * g->n + (col - 1);
}

/* What the tests look for in a trace, gathered while replaying it. */
struct watch {
    struct grid g;
    bool guessed[GRID_MAX_CELLS]; /* the cell holds a tentative value */
    int errors;
    int events;
    struct solver_event first;
    /* the event that first completes column 1 */
    bool column_done;
    struct solver_event column_event;
    /* tentative values at (1,1) */
    int ncorner;
    struct solver_event corner[9];
    /* dead ends at article step 14,781 */
    int ndead;
    struct solver_event dead;
    int dead_filled, dead_candidates;
    /* the last singleton fill */
    struct solver_event last_singleton;
    uint64_t singletons, guesses, guesses_undone;
};

static int filled(const struct grid *g)
{
    int k = 0;
    for (int i = 0; i < g->ncells; i++)
        k += g->cell[i] != 0;
    return k;
}

static bool column_full(const struct grid *g, int col)
{
    for (int r = 1; r <= g->n; r++) {
        if (g->cell[cell_at(g, r, col)] == 0)
            return false;
    }
    return true;
}

static void watch_event(void *ctx, const struct solver_event *ev)
{
    struct watch *w = ctx;
    if (w->events++ == 0)
        w->first = *ev;
    switch (ev->kind) {
    case SOLVER_EVENT_SINGLETON:
    case SOLVER_EVENT_GUESS:
        if (ev->cell < 0 || w->g.cell[ev->cell] != 0) {
            w->errors++;
            return;
        }
        w->g.cell[ev->cell] = (uint8_t) ev->value;
        w->guessed[ev->cell] = ev->kind == SOLVER_EVENT_GUESS;
        if (ev->kind == SOLVER_EVENT_GUESS) {
            w->guesses++;
            if (ev->cell == 0 && w->ncorner < 9)
                w->corner[w->ncorner++] = *ev;
        } else {
            w->singletons++;
            w->last_singleton = *ev;
        }
        if (!w->column_done && column_full(&w->g, 1)) {
            w->column_done = true;
            w->column_event = *ev;
        }
        break;
    case SOLVER_EVENT_UNDO:
        if (ev->cell < 0 || w->g.cell[ev->cell] != ev->value) {
            w->errors++;
            return;
        }
        w->guesses_undone += w->guessed[ev->cell];
        w->g.cell[ev->cell] = 0;
        w->guessed[ev->cell] = false;
        break;
    case SOLVER_EVENT_DEAD:
        if (ev->at.article_steps == 14781) {
            w->ndead++;
            w->dead = *ev;
            w->dead_filled = filled(&w->g);
            w->dead_candidates = count_candidates(&w->g, ev->cell);
        }
        break;
    case SOLVER_EVENT_SOLUTION:
        break;
    }
}

static void run_traced(const struct solver *s, const char *text, uint64_t limit,
    struct watch *w, struct solve_result *res)
{
    struct grid puzzle;
    test_parse(&puzzle, text, GRID_STANDARD);
    memset(w, 0, sizeof(*w));
    w->g = puzzle;
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    const struct solve_request req = { .limit = limit, .trace = watch_event, .ctx = w };
    solver_run(inst, &puzzle, &req, res);
    solver_close(inst);
    assert_int_equal(w->errors, 0);
}

/* "We try to insert a '1' in the (1,1) cell" (no singletons at first); the
 * first tentative value is article step 2. */
static void royle_starts_with_a_guess(void **state)
{
    (void) state;
    struct watch w;
    struct solve_result res;
    run_traced(&solver_moler, royle, 1, &w, &res);
    assert_int_equal(w.first.kind, SOLVER_EVENT_GUESS);
    assert_int_equal(w.first.cell, 0);
    assert_int_equal(w.first.value, 1);
    assert_int_equal(w.first.at.article_steps, 2);
    assert_int_equal(w.first.at.steps, 1);
}

/* Figure 11: "after 22 steps the first column is filled". */
static void royle_step_22(void **state)
{
    (void) state;
    struct watch w;
    struct solve_result res;
    run_traced(&solver_moler, royle, 1, &w, &res);
    assert_true(w.column_done);
    assert_int_equal(w.column_event.kind, SOLVER_EVENT_SINGLETON);
    assert_int_equal(w.column_event.cell, cell_at(&w.g, 9, 1));
    assert_int_equal(w.column_event.at.article_steps, 22);
    assert_int_equal(w.column_event.at.steps, 14);
}

/* (1,1) has candidates 1 5 7 9; 5 at step 3,114, 7 at 8,172, 9 at 19,229. */
static void royle_corner_values(void **state)
{
    (void) state;
    struct watch w;
    struct solve_result res;
    run_traced(&solver_moler, royle, 1, &w, &res);
    static const struct {
        int value;
        uint64_t article, written;
    } want[] = { { 1, 2, 1 }, { 5, 3114, 2437 }, { 7, 8172, 6382 }, { 9, 19229, 14862 } };
    assert_int_equal(w.ncorner, 4);
    for (int k = 0; k < 4; k++) {
        assert_int_equal(w.corner[k].value, want[k].value);
        assert_int_equal(w.corner[k].at.article_steps, want[k].article);
        assert_int_equal(w.corner[k].at.steps, want[k].written);
    }
}

/* Figure 12: "after 14,781 steps 73 cells are filled and (1,9) has no
 * candidates". */
static void royle_step_14781(void **state)
{
    (void) state;
    struct watch w;
    struct solve_result res;
    run_traced(&solver_moler, royle, 1, &w, &res);
    assert_int_equal(w.ndead, 1);
    assert_int_equal(w.dead.cell, 8);
    assert_int_equal(w.dead_filled, 73);
    assert_int_equal(w.dead_candidates, 0);
    assert_int_equal(w.dead.at.steps, 11463);
}

/* "after 19,422 steps the program reaches the solution of Figure 2", and the
 * totals S = 12,095, G = 2,933, F = 2,922. */
static void royle_solution_and_totals(void **state)
{
    (void) state;
    struct watch w;
    struct solve_result res;
    run_traced(&solver_moler, royle, 1, &w, &res);
    assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
    char line[GRID_MAX_CELLS + 1];
    format(&res.solution, line);
    assert_string_equal(line, royle_solution);
    assert_int_equal(w.last_singleton.at.article_steps, 19422);
    assert_int_equal(w.last_singleton.at.steps, 15028);
    assert_int_equal(res.counters.article_steps, 19422);
    assert_int_equal(res.counters.steps, 15028);
    assert_int_equal(res.counters.guesses, 2933);
    assert_int_equal(res.counters.steps - res.counters.guesses, 12095);
    assert_int_equal(w.singletons, 12095);
    assert_int_equal(w.guesses, 2933);
    /* F: once the solution is found, every abandoned tentative value has been
     * erased by a restore, and those on the solution's path have not */
    assert_int_equal(w.guesses_undone, 2922);
    assert_int_equal(
        res.counters.article_steps - res.counters.steps - res.counters.guesses, 2922 / 2);
    /* one call per tentative value plus the top-level one */
    assert_int_equal(res.counters.nodes, 2933 + 1);
}

static char found[4][GRID_MAX_CELLS + 1];
static int nfound;

static bool keep_solution(void *ctx, const struct grid *solution)
{
    (void) ctx;
    if (nfound < 4)
        format(solution, found[nfound]);
    nfound++;
    return true;
}

/* diag(1:4): no singletons, a tentative 3 at (2,1) first, exactly two
 * solutions, each the other's transpose. */
static void shidoku_diag(void **state)
{
    (void) state;
    struct watch w;
    struct solve_result res;
    run_traced(&solver_moler, shidoku, 1, &w, &res);
    assert_int_equal(w.first.kind, SOLVER_EVENT_GUESS);
    assert_int_equal(w.first.cell, cell_at(&w.g, 2, 1));
    assert_int_equal(w.first.value, 3);

    struct grid puzzle;
    test_parse(&puzzle, shidoku, GRID_STANDARD);
    struct solver_instance *inst = solver_open(&solver_moler);
    assert_non_null(inst);
    nfound = 0;
    const struct solve_request req = { .limit = 0, .on_solution = keep_solution };
    solver_run(inst, &puzzle, &req, &res);
    solver_close(inst);
    assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);
    assert_int_equal(res.solutions, 2);
    assert_int_equal(nfound, 2);
    assert_string_equal(found[0], shidoku_a);
    assert_string_equal(found[1], shidoku_b);
    for (int r = 0; r < 4; r++) {
        for (int c = 0; c < 4; c++)
            assert_int_equal(found[0][r * 4 + c], found[1][c * 4 + r]);
    }
}

/* moler_exm: the same answers, and it branches on the first cell (column-major)
 * with the fewest candidates. */
static void exm_solves_and_counts(void **state)
{
    (void) state;
    struct watch w;
    struct solve_result res;
    run_traced(&solver_moler_exm, royle, 2, &w, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    char line[GRID_MAX_CELLS + 1];
    format(&res.solution, line);
    assert_string_equal(line, royle_solution);

    struct grid g;
    test_parse(&g, royle, GRID_STANDARD);
    assert_int_equal(w.first.kind, SOLVER_EVENT_GUESS);
    int best = -1, fewest = 99;
    for (int c = 0; c < 9; c++) {
        for (int r = 0; r < 9; r++) {
            const int i = r * 9 + c;
            if (g.cell[i] == 0 && count_candidates(&g, i) < fewest) {
                fewest = count_candidates(&g, i);
                best = i;
            }
        }
    }
    assert_int_equal(w.first.cell, best);

    struct solver_instance *inst = solver_open(&solver_moler_exm);
    assert_non_null(inst);
    const struct solve_request all = { .limit = 0 };
    test_parse(&g, shidoku, GRID_STANDARD);
    solver_run(inst, &g, &all, &res);
    assert_int_equal(res.solutions, 2);
    test_parse(&g, "................", GRID_STANDARD);
    solver_run(inst, &g, &all, &res);
    assert_int_equal(res.solutions, 288); /* the 4x4 Sudoku grids */
    solver_close(inst);
}

/* A step budget stops the search with status limit, never past the budget;
 * both registrations, first-solution and counting modes. */
static void budgets_stop(void **state)
{
    (void) state;
    const struct solver *solvers[] = { &solver_moler, &solver_moler_exm };
    struct grid royle_grid, empty;
    test_parse(&royle_grid, royle, GRID_STANDARD);
    grid_init(&empty, 3, 3, GRID_STANDARD);
    for (int k = 0; k < 2; k++) {
        struct solver_instance *inst = solver_open(solvers[k]);
        assert_non_null(inst);
        struct solve_result res;
        const struct solve_request one = { .limit = 1, .budget_steps = 1000 };
        solver_run(inst, &royle_grid, &one, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
        assert_int_equal(res.counters.steps, 1000);
        const struct solve_request all = { .limit = 0, .budget_steps = 20000 };
        solver_run(inst, &empty, &all, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
        assert_int_equal(res.counters.steps, 20000);
        assert_true(res.solutions > 0);
        solver_close(inst);
    }
}

/* Sizes 1x1 up to 25x25 and the diagonal rule go through the same code. */
static void odd_sizes(void **state)
{
    (void) state;
    const struct solver *solvers[] = { &solver_moler, &solver_moler_exm };
    for (int k = 0; k < 2; k++) {
        struct solver_instance *inst = solver_open(solvers[k]);
        assert_non_null(inst);
        struct solve_result res;
        struct grid g;
        const struct solve_request all = { .limit = 0 };
        grid_init(&g, 1, 1, GRID_STANDARD); /* one cell: one solution */
        solver_run(inst, &g, &all, &res);
        assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
        assert_int_equal(res.solution.cell[0], 1);
        /* a Latin square of order 2 with its diagonals both distinct is
         * impossible: 1x2 boxes, diagonal rule */
        grid_init(&g, 1, 2, GRID_DIAGONAL);
        solver_run(inst, &g, &all, &res);
        assert_int_equal(res.status, SOLVE_STATUS_UNSOLVABLE);
        grid_init(&g, 1, 2, GRID_STANDARD); /* 2x2 Latin squares: two */
        solver_run(inst, &g, &all, &res);
        assert_int_equal(res.solutions, 2);
        /* the empty 16x16 grid, first solution (solver_run checks it) */
        const struct solve_request first = { .limit = 1, .budget_steps = 1000000 };
        grid_init(&g, 4, 4, GRID_STANDARD);
        solver_run(inst, &g, &first, &res);
        assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
        /* 25x25: the textbook grid (r*5 + r/5 + c) mod 25 with a third of its
         * cells blanked; any solution is checked, none is assumed */
        grid_init(&g, 5, 5, GRID_STANDARD);
        for (int r = 0; r < 25; r++) {
            for (int c = 0; c < 25; c++)
                g.cell[r * 25 + c]
                    = (r + c) % 3 == 0 ? 0 : (uint8_t) ((r * 5 + r / 5 + c) % 25 + 1);
        }
        solver_run(inst, &g, &first, &res);
        assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
        test_assert_solution(&g, &res.solution, solvers[k]->name);
        solver_close(inst);
    }
}

/* `sudolab trace` prints the published events and the grid of Figure 12. */
static FILE *run_cli(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof(cmd), "trace %s", args);
    return test_sudolab(cmd);
}

static void trace_command(void **state)
{
    (void) state;
    char args[256];
    snprintf(args, sizeof(args), "--solver moler %s", royle);
    FILE *p = run_cli(args);
    if (!p)
        test_skip("SUDOLAB_BIN is not set: the trace command is not tested");
    static const struct {
        unsigned long step, row, col, written;
        const char *kind;
        int value; /* -1: not published */
    } want[] = { { 22, 9, 1, 14, "singleton", -1 }, { 3114, 1, 1, 2437, "guess", 5 },
        { 8172, 1, 1, 6382, "guess", 7 }, { 14781, 1, 9, 11463, "dead", 0 },
        { 19229, 1, 1, 14862, "guess", 9 }, { 19422, 0, 0, 15028, "solution", 0 } };
    int seen[6] = { 0 };
    char line[256];
    while (fgets(line, sizeof(line), p)) {
        unsigned long step, row, col, written;
        int value;
        char kind[32];
        if (line[0] == '#'
            || sscanf(line, "%lu %lu %lu %d %31s %lu", &step, &row, &col, &value, kind,
                   &written)
                != 6)
            continue;
        for (int k = 0; k < 6; k++) {
            if (step == want[k].step && strcmp(kind, want[k].kind) == 0
                && row == want[k].row && col == want[k].col && written == want[k].written
                && (want[k].value < 0 || value == want[k].value))
                seen[k]++;
        }
    }
    assert_int_equal(pclose(p), 0);
    for (int k = 0; k < 6; k++)
        assert_int_equal(seen[k], 1);

    /* the grid at step 14,781 as CSV: 73 values, (1,9) stuck, the clues kept */
    snprintf(args, sizeof(args), "--csv --at 14781 %s", royle);
    p = run_cli(args);
    assert_non_null(p);
    int rows = 0, values = 0, stuck = 0, clues = 0;
    assert_non_null(fgets(line, sizeof(line), p));
    assert_string_equal(line, "index,at,step,written,row,col,value,role\n");
    while (fgets(line, sizeof(line), p)) {
        unsigned long index, at, step, written;
        int row, col, value;
        char role[32];
        assert_int_equal(sscanf(line, "%lu,%lu,%lu,%lu,%d,%d,%d,%31s", &index, &at, &step,
                             &written, &row, &col, &value, role),
            8);
        assert_int_equal(step, 14781);
        rows++;
        values += value != 0;
        if (strcmp(role, "stuck") == 0) {
            stuck++;
            assert_int_equal(row, 1);
            assert_int_equal(col, 9);
        }
        if (strcmp(role, "clue") == 0) {
            clues++;
            assert_int_equal(value, royle[(row - 1) * 9 + col - 1] - '0');
        }
    }
    assert_int_equal(pclose(p), 0);
    assert_int_equal(rows, 81);
    assert_int_equal(values, 73);
    assert_int_equal(stuck, 1);
    assert_int_equal(clues, 21);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(royle_starts_with_a_guess),
        cmocka_unit_test(royle_step_22),
        cmocka_unit_test(royle_corner_values),
        cmocka_unit_test(royle_step_14781),
        cmocka_unit_test(royle_solution_and_totals),
        cmocka_unit_test(shidoku_diag),
        cmocka_unit_test(exm_solves_and_counts),
        cmocka_unit_test(budgets_stop),
        cmocka_unit_test(odd_sizes),
        cmocka_unit_test(trace_command),
    };
    const struct test_group plain = { "moler", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
