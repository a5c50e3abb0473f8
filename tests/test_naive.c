/* The naive back end: the thesis's search on every size and the variant, and
 * its two registrations (recursion, explicit stack) step for step equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/corpus.h"
#include "solvers/registry.h"

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

static void load(struct grid *g, const char *text, enum grid_variant variant)
{
    char why[200];
    const struct grid_shape shape = { 0, 0, (uint8_t) variant };
    assert_int_equal(grid_parse_token(g, text, strlen(text), &shape, why, sizeof(why)), 0);
}

static void run(struct solver_instance *inst, const struct grid *g, uint64_t limit,
                uint64_t budget, struct solve_result *res)
{
    const struct solve_request req = { .limit = limit, .budget_steps = budget };
    solver_run(inst, g, &req, res);
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
    const char *dir = getenv("SUDOLAB_TEST_DATA");
    const char *files[] = { "crosscheck.txt", "crosscheck_diagonal.txt" };
    int compared = 0;
    for (int f = 0; f < 2; f++) {
        char path[4096], why[200];
        snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/data", files[f]);
        const struct corpus_options opts = { .shape = { .variant = (uint8_t) f } };
        struct corpus *c = corpus_open(path, &opts, why, sizeof(why));
        assert_non_null(c);
        static struct corpus_item item;
        while (corpus_next(c, &item) == CORPUS_PUZZLE) {
            const uint64_t limits[] = { 1, 2, 3 };
            for (int l = 0; l < 3; l++) {
                struct solve_result a, b;
                run(rec, &item.puzzle, limits[l], 0, &a);
                run(stk, &item.puzzle, limits[l], 0, &b);
                assert_same(&a, &b);
                /* and when a budget cuts the search short */
                run(rec, &item.puzzle, limits[l], 37, &a);
                run(stk, &item.puzzle, limits[l], 37, &b);
                assert_same(&a, &b);
                compared++;
            }
        }
        corpus_close(c);
    }
    assert_true(compared > 100);
}

static void counts_the_known_grids(void **state)
{
    (void) state;
    struct grid g;
    struct solve_result res;
    load(&g, "................", GRID_STANDARD);
    run(rec, &g, 0, 0, &res);
    assert_int_equal(res.solutions, 288);
    load(&g, "1....2....3....4", GRID_STANDARD);
    run(stk, &g, 0, 0, &res);
    assert_int_equal(res.solutions, 2);
    assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);
    /* 4x4 X-sudoku: 288 grids, of which those with distinct diagonals */
    load(&g, "................", GRID_DIAGONAL);
    run(rec, &g, 0, 0, &res);
    assert_true(res.solutions > 0 && res.solutions < 288);
    struct solve_result again;
    run(stk, &g, 0, 0, &again);
    assert_int_equal(again.solutions, res.solutions);
}

/* The thesis's own counter: values placed. On a puzzle with one empty cell
 * the search places exactly one value and visits one cell. */
static void steps_are_values_placed(void **state)
{
    (void) state;
    struct grid g;
    struct solve_result res;
    load(&g, ".23434122143432.", GRID_STANDARD);
    run(rec, &g, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    assert_int_equal(res.counters.steps, 2);
    assert_int_equal(res.counters.nodes, 2);
    assert_int_equal(res.counters.guesses, 0);
    assert_int_equal(res.counters.backtracks, 0);
    /* a cell with no legal value is a dead end */
    load(&g, "12345678.........9...............................................................",
         GRID_STANDARD);
    run(rec, &g, 2, 0, &res);
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
    load(&g, ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
         GRID_STANDARD);
    run(rec, &g, 2, 100000, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    assert_int_equal(res.counters.steps, 100000);
    run(stk, &g, 2, 100000, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    assert_int_equal(res.counters.steps, 100000);
}

static void rejects_what_it_cannot_take(void **state)
{
    (void) state;
    struct grid g;
    struct solve_result res;
    load(&g, "11..............", GRID_STANDARD);
    run(rec, &g, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_INVALID);
    assert_int_equal(res.solutions, 0);
    assert_non_null(strstr(res.error, "row 1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stack_equals_recursion),
        cmocka_unit_test(counts_the_known_grids),
        cmocka_unit_test(steps_are_values_placed),
        cmocka_unit_test(budget_stops_at_once),
        cmocka_unit_test(rejects_what_it_cannot_take),
    };
    return cmocka_run_group_tests(tests, open_both, close_both);
}
