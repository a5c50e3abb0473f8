/* The counting split (puzzle/split.h): the subproblems of a puzzle add up to
 * published counts, a dead blank leaves none, and tallies state the status
 * solver_run would. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle/split.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

/* Sums the counts of every subproblem, each solved with limit 0. */
static uint64_t count_by_split(
    const char *solver, const struct grid *g, size_t min, struct shard_split *sp)
{
    struct solver_instance *inst = solver_open(solver_find(solver));
    assert_non_null(inst);
    assert_int_equal(shard_split_make(sp, g, min), 0);
    struct shard_tally t;
    memset(&t, 0, sizeof(t));
    const struct solve_request req = { .limit = 0 };
    for (size_t i = 0; i < sp->count; i++) {
        struct grid sub;
        struct solve_result res;
        shard_split_apply(sp, g, i, &sub);
        solver_run(inst, &sub, &req, &res);
        shard_tally_add(&t, i, &res);
    }
    solver_close(inst);
    struct solve_result total;
    shard_tally_result(&t, 0, &total);
    assert_false(t.error);
    if (total.solutions > 0)
        test_assert_solution(g, &total.solution, "the tally of the split");
    return total.solutions;
}

/* The empty 4x4 grid: the first two blanks of row 1 take 4 x 3 values, and the
 * subproblems' counts add up to the 288 grids. */
static void empty_4x4_adds_up_to_288(void **state)
{
    (void) state;
    struct grid g;
    grid_init(&g, 2, 2, GRID_STANDARD);
    struct shard_split sp;
    memset(&sp, 0, sizeof(sp));
    assert_int_equal(count_by_split("naive", &g, 10, &sp), 288);
    assert_int_equal(sp.depth, 2);
    assert_int_equal(sp.count, 12);
    assert_int_equal(sp.cell[0], 0);
    assert_int_equal(sp.cell[1], 1);
    /* lexicographic, all different, all consistent */
    for (size_t i = 0; i < sp.count; i++) {
        struct grid sub;
        shard_split_apply(&sp, &g, i, &sub);
        assert_false(grid_find_conflict(&sub, NULL, 0));
        if (i > 0)
            assert_true(memcmp(sp.values + (i - 1) * 2, sp.values + i * 2, 2) < 0);
    }
    /* min 1 does not split: one subproblem, the puzzle itself */
    assert_int_equal(count_by_split("naive", &g, 1, &sp), 288);
    assert_int_equal(sp.depth, 0);
    assert_int_equal(sp.count, 1);
    shard_split_free(&sp);
}

/* 6x6 with its first row fixed: relabelling the symbols maps the grids with
 * one first row onto those with any other, so this is 28,200,960 / 6! =
 * 39,168 (the published 6x6 count). Split three different ways. */
static void six_by_six_first_row(void **state)
{
    (void) state;
    struct grid g;
    test_parse(&g, "123456..............................", GRID_STANDARD);
    struct shard_split sp;
    memset(&sp, 0, sizeof(sp));
    const size_t mins[] = { 1, 40, 500 };
    for (size_t k = 0; k < 3; k++)
        assert_int_equal(count_by_split("mrv", &g, mins[k], &sp), 28200960 / 720);
    shard_split_free(&sp);
}

/* A puzzle whose clues leave a blank with no value: no subproblem at all. */
static void dead_blank_has_no_subproblem(void **state)
{
    (void) state;
    struct grid g;
    /* r1c4 must be 4, but column 4 already has a 4 */
    test_parse(&g, "123........4....", GRID_STANDARD);
    struct shard_split sp;
    memset(&sp, 0, sizeof(sp));
    assert_int_equal(shard_split_make(&sp, &g, 100), 0);
    assert_int_equal(sp.count, 0);
    shard_split_free(&sp);
}

static struct solve_result result_with(uint64_t solutions, enum solve_status status)
{
    struct solve_result r;
    memset(&r, 0, sizeof(r));
    r.solutions = solutions;
    r.status = status;
    r.counters.steps = 10;
    return r;
}

/* Each subproblem counts up to the limit; the capped sum is the puzzle's. */
static void tally_states_what_solver_run_would(void **state)
{
    (void) state;
    struct shard_tally t, u;
    struct solve_result out;
    memset(&t, 0, sizeof(t));
    struct solve_result one = result_with(1, SOLVE_STATUS_UNIQUE);
    struct solve_result none = result_with(0, SOLVE_STATUS_UNSOLVABLE);
    shard_tally_add(&t, 3, &one);
    shard_tally_add(&t, 1, &none);
    shard_tally_result(&t, 2, &out);
    assert_int_equal(out.status, SOLVE_STATUS_UNIQUE);
    assert_int_equal(out.solutions, 1);
    assert_int_equal(out.counters.steps, 20);
    assert_int_equal(t.first_sub, 3);

    memset(&u, 0, sizeof(u));
    shard_tally_add(&u, 0, &one);
    shard_tally_merge(&t, &u);
    assert_int_equal(t.first_sub, 0); /* the lowest-numbered subproblem's solution */
    shard_tally_result(&t, 1, &out);
    assert_int_equal(out.status, SOLVE_STATUS_SOLVED);
    assert_int_equal(out.solutions, 1);
    shard_tally_result(&t, 0, &out);
    assert_int_equal(out.status, SOLVE_STATUS_MULTIPLE);
    assert_int_equal(out.solutions, 2);

    /* a budget makes the count a lower bound, unless the limit was reached */
    struct solve_result budget = result_with(0, SOLVE_STATUS_LIMIT);
    shard_tally_add(&t, 7, &budget);
    shard_tally_result(&t, 0, &out);
    assert_int_equal(out.status, SOLVE_STATUS_LIMIT);
    shard_tally_result(&t, 2, &out);
    assert_int_equal(out.status, SOLVE_STATUS_MULTIPLE);

    struct solve_result failed = result_with(0, SOLVE_STATUS_ERROR);
    shard_tally_add(&t, 8, &failed);
    shard_tally_result(&t, 2, &out);
    assert_int_equal(out.status, SOLVE_STATUS_ERROR);

    memset(&u, 0, sizeof(u));
    shard_tally_result(&u, 0, &out);
    assert_int_equal(out.status, SOLVE_STATUS_UNSOLVABLE);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_4x4_adds_up_to_288),
        cmocka_unit_test(six_by_six_first_row),
        cmocka_unit_test(dead_blank_has_no_subproblem),
        cmocka_unit_test(tally_states_what_solver_run_would),
    };
    const struct test_group plain = { "split", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
