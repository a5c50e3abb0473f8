/* The naive back end: the thesis's search on every size and the variant, and
 * its two registrations (recursion, explicit stack) step for step equal. */
#include <stdlib.h>
#include <string.h>

#include "solvers/registry.h"
#include "tests/test_util.h"

static struct solver_instance *rec, *stk;

static int open_both(void **state)
{
    (void) state;
    rec = solver_open(solver_find("naive"));
    stk = solver_open(solver_find("naive_stack"));
    return rec && stk ? 0 : -1;
}

static int close_both(void **state)
{
    (void) state;
    solver_close(rec);
    solver_close(stk);
    return 0;
}

static void assert_same(const struct solve_result *a, const struct solve_result *b)
{
    assert_int_equal(a->status, b->status);
    assert_int_equal(a->solutions, b->solutions);
    assert_int_equal(a->counters.steps, b->counters.steps);
    assert_int_equal(a->counters.guesses, b->counters.guesses);
    assert_int_equal(a->counters.backtracks, b->counters.backtracks);
    assert_int_equal(a->counters.nodes, b->counters.nodes);
    if (a->solutions)
        assert_memory_equal(a->solution.cell, b->solution.cell, a->solution.ncells);
}

/* Every puzzle of the cross-check corpora, in every mode: the two searches
 * must agree on everything, counters included. */
static void stack_equals_recursion(void **state)
{
    (void) state;
    struct test_case *cases;
    size_t ncases;
    assert_int_equal(test_load_crosscheck(&cases, &ncases), 0);
    int compared = 0;
    for (size_t i = 0; i < ncases; i++) {
        const struct grid *g = &cases[i].puzzle;
        const uint64_t limits[] = { 1, 2, 3 };
        for (int l = 0; l < 3; l++) {
            struct solve_result a, b;
            test_solve(rec, g, limits[l], 0, &a);
            test_solve(stk, g, limits[l], 0, &b);
            assert_same(&a, &b);
            /* and when a budget cuts the search short */
            test_solve(rec, g, limits[l], 37, &a);
            test_solve(stk, g, limits[l], 37, &b);
            assert_same(&a, &b);
            compared++;
        }
    }
    free(cases);
    assert_true(compared > 100);
}

static void counts_the_known_grids(void **state)
{
    (void) state;
    struct grid g;
    struct solve_result res;
    test_parse(&g, "................", GRID_STANDARD);
    test_solve(rec, &g, 0, 0, &res);
    assert_int_equal(res.solutions, 288);
    test_parse(&g, "1....2....3....4", GRID_STANDARD);
    test_solve(stk, &g, 0, 0, &res);
    assert_int_equal(res.solutions, 2);
    assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);
    /* X-sudoku (both diagonals hold every value): 48 of the 288 4x4 grids,
     * and 8,640 6x6 grids, as the counter that shares no code with sudolab
     * finds (scripts/crosscheck-counts.py --empty 2x3 --diagonal) */
    test_parse(&g, "................", GRID_DIAGONAL);
    test_solve(rec, &g, 0, 0, &res);
    assert_int_equal(res.solutions, 48);
    test_solve(stk, &g, 0, 0, &res);
    assert_int_equal(res.solutions, 48);
    test_parse_shaped(&g, "....................................", 2, 3, GRID_DIAGONAL);
    test_solve(stk, &g, 0, 0, &res);
    assert_int_equal(res.solutions, 8640);
}

/* The thesis's own counter: values placed. On a puzzle with one empty cell
 * the search places exactly one value and visits one cell. */
static void steps_are_values_placed(void **state)
{
    (void) state;
    struct grid g;
    struct solve_result res;
    test_parse(&g, ".23434122143432.", GRID_STANDARD);
    test_solve(rec, &g, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    assert_int_equal(res.counters.steps, 2);
    assert_int_equal(res.counters.nodes, 2);
    assert_int_equal(res.counters.guesses, 0);
    assert_int_equal(res.counters.backtracks, 0);
    /* a cell with no legal value is a dead end */
    test_parse(&g,
        "12345678.........9.............................................................."
        ".",
        GRID_STANDARD);
    test_solve(rec, &g, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNSOLVABLE);
    assert_int_equal(res.counters.backtracks, 1);
    assert_int_equal(res.counters.steps, 0);
}

/* A 17-clue puzzle is hopeless for the thesis's search: the step budget stops
 * it at once, with status limit and the counters as lower bounds. */
static void budget_stops_at_once(void **state)
{
    (void) state;
    struct grid g;
    struct solve_result res;
    /* the first puzzle of the 17-clue collection (Royle; tdoku's puzzles2_17_clue) */
    test_parse(&g,
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7.."
        ".",
        GRID_STANDARD);
    test_solve(rec, &g, 2, 100000, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    assert_int_equal(res.counters.steps, 100000);
    test_solve(stk, &g, 2, 100000, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    assert_int_equal(res.counters.steps, 100000);
}

static void rejects_what_it_cannot_take(void **state)
{
    (void) state;
    struct grid g;
    struct solve_result res;
    test_parse(&g, "11..............", GRID_STANDARD);
    test_solve(rec, &g, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_INVALID);
    assert_int_equal(res.solutions, 0);
    assert_non_null(strstr(res.error, "row 1"));
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(stack_equals_recursion),
        cmocka_unit_test(counts_the_known_grids),
        cmocka_unit_test(steps_are_values_placed),
        cmocka_unit_test(budget_stops_at_once),
        cmocka_unit_test(rejects_what_it_cannot_take),
    };
    const struct test_group plain
        = { "naive", tests, TEST_COUNT(tests), open_both, close_both };
    return test_main(argc, argv, &plain, NULL);
}
