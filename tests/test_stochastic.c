/* The incomplete back ends (SOLVER_CAP_INCOMPLETE: acs, anneal): a seed fixes
 * a run, budgets end a run as limit (never unsolvable), every answer is a
 * verified solution, and counting is refused, by solver_run and by the
 * commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/registry.h"
#include "test_util.h"

/* A puzzle both solve within a second and that needs search: anneal always
 * searches; for acs, Norvig's "hard1" is past propagation alone. */
static const char *const needs_search[] = {
    [0]
    = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    [1]
    = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
};
/* Consistent clues and no solution: r1c9 can only be 9, which column 9 has. */
static const char *const no_solution
    = "12345678.........9...............................................................";

static const struct solver *incomplete(int i)
{
    return solver_find(i == 0 ? "anneal" : "acs");
}

static void run(const struct solver *s, const char *text, const struct solve_request *req,
    struct solve_result *res)
{
    struct grid g;
    test_parse(&g, text, GRID_STANDARD);
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    solver_run(inst, &g, req, res);
    solver_close(inst);
}

static void same_seed_same_run(void **state)
{
    (void) state;
    for (int i = 0; i < 2; i++) {
        const struct solver *s = incomplete(i);
        const struct solve_request req
            = { .limit = 1, .budget_steps = 100000000, .seed = 42 };
        struct solve_result a, b, c;
        run(s, needs_search[i], &req, &a);
        run(s, needs_search[i], &req, &b);
        assert_int_equal(a.status, SOLVE_STATUS_SOLVED);
        assert_int_equal(b.status, SOLVE_STATUS_SOLVED);
        assert_memory_equal(&a.counters, &b.counters, sizeof(a.counters));
        assert_memory_equal(a.solution.cell, b.solution.cell, a.solution.ncells);
        const struct solve_request other
            = { .limit = 1, .budget_steps = 100000000, .seed = 43 };
        run(s, needs_search[i], &other, &c);
        assert_int_equal(c.status, SOLVE_STATUS_SOLVED);
        printf("# %s: %llu steps with seed 42, %llu with seed 43\n", s->name,
            (unsigned long long) a.counters.steps, (unsigned long long) c.counters.steps);
        assert_memory_not_equal(&a.counters, &c.counters, sizeof(a.counters));
    }
}

static void budgets_end_as_limit(void **state)
{
    (void) state;
    for (int i = 0; i < 2; i++) {
        const struct solver *s = incomplete(i);
        const struct solve_request steps = { .limit = 1, .budget_steps = 50000 };
        struct solve_result res;
        run(s, no_solution, &steps, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
        assert_int_equal(res.solutions, 0);
        assert_int_equal(res.counters.steps, 50000);
        /* a deadline not honoured is a hang, which meson's timeout fails */
        const struct solve_request time
            = { .limit = 1, .deadline_ns = clock_now_ns() + 50 * 1000000u };
        run(s, no_solution, &time, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    }
}

/* Without a solution the cost never reaches 0, so the run's best stops
 * improving and anneal must reheat (counted in backtracks) within its budget:
 * 73 non-clue cells make chains of 5,329 moves, so 20 stale chains take
 * about 107,000 moves after the last new best. */
static void anneal_reheats_when_stuck(void **state)
{
    (void) state;
    const struct solve_request req = { .limit = 1, .budget_steps = 1000000, .seed = 7 };
    struct solve_result res;
    run(solver_find("anneal"), no_solution, &req, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    printf("# anneal: %llu reheats in %llu moves\n",
        (unsigned long long) res.counters.backtracks,
        (unsigned long long) res.counters.steps);
    assert_true(res.counters.backtracks > 0);
}

/* 25x25 without a solution: the budget ends it there too. */
static void budgets_end_large_grids(void **state)
{
    (void) state;
    char text[GRID_MAX_CELLS + 1];
    memset(text, '.', 625);
    text[625] = '\0';
    for (int v = 1; v <= 24; v++)
        text[v - 1] = grid_value_symbol(v);
    text[25 + 24] = grid_value_symbol(25); /* r2c25 = 25: r1c25 has no value */
    for (int i = 0; i < 2; i++) {
        const struct solve_request req
            = { .limit = 1, .deadline_ns = clock_now_ns() + 100 * 1000000u };
        struct solve_result res;
        run(incomplete(i), text, &req, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    }
}

/* Every puzzle of the cross-check corpus with a solution: acs solves it (its
 * answer verified by solver_run, so a wrong one would be status error). */
static void acs_solves_the_corpus(void **state)
{
    (void) state;
    struct test_case *cases;
    size_t n;
    assert_int_equal(test_load_crosscheck(&cases, &n), 0);
    struct solver_instance *inst = solver_open(solver_find("acs"));
    int solved = 0;
    for (size_t i = 0; i < n; i++) {
        if (cases[i].count < 1
            || !solver_supports(solver_find("acs"), &cases[i].puzzle, NULL, 0))
            continue;
        /* by steps, not the clock: acs needs under 25,000 on any of them */
        const struct solve_request req
            = { .limit = 1, .budget_steps = 10000000, .seed = (uint64_t) i };
        struct solve_result res;
        solver_run(inst, &cases[i].puzzle, &req, &res);
        if (res.status != SOLVE_STATUS_SOLVED)
            print_error("%s:%lu: %s %s\n", cases[i].file, cases[i].line,
                solve_status_name(res.status), res.error);
        solved += res.status == SOLVE_STATUS_SOLVED;
        assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
    }
    solver_close(inst);
    free(cases);
    assert_true(solved > 10);
}

static void counting_is_refused(void **state)
{
    (void) state;
    for (int i = 0; i < 2; i++) {
        const struct solve_request two = { .limit = 2, .budget_steps = 1000 };
        struct solve_result res;
        run(incomplete(i), needs_search[1], &two, &res);
        assert_int_equal(res.status, SOLVE_STATUS_ERROR);
        assert_non_null(strstr(res.error, "incomplete"));
        const struct solve_request unbounded = { .limit = 1 };
        run(incomplete(i), needs_search[1], &unbounded, &res);
        assert_int_equal(res.status, SOLVE_STATUS_ERROR);
        assert_non_null(strstr(res.error, "budget"));
    }
}

/* What the commands say, and that solve's default limit is 1 for them. */
static void commands_refuse_counting(void **state)
{
    (void) state;
    static const struct {
        const char *args;
        const char want[128]; /* an array: never null, as -Wformat-overflow asks */
    } runs[] = {
        { "solve --solver acs --limit 2 %s 2>&1; echo status $?",
            "acs is incomplete (stochastic search): it can find a solution but not "
            "prove uniqueness; use --limit 1" },
        { "count --solver anneal %s 2>&1; echo status $?", "anneal is incomplete" },
        /* no deadline, a step budget: seed 0 solves it in 2,430 steps, under any load */
        { "solve --solver acs --budget-ms 0 --budget-steps 100000000 %s 2>&1",
            " solved " },
        { "list", "incomplete" },
    };
    for (size_t k = 0; k < TEST_COUNT(runs); k++) {
        char args[512];
        snprintf(args, sizeof(args), runs[k].args, needs_search[1]);
        FILE *p = test_sudolab(args);
        if (!p)
            test_skip("SUDOLAB_BIN is not set");
        char out[8192];
        const size_t len = fread(out, 1, sizeof(out) - 1, p);
        out[len] = '\0';
        pclose(p);
        if (!strstr(out, runs[k].want))
            print_error("sudolab %s: no \"%s\" in:\n%s\n", args, runs[k].want, out);
        assert_non_null(strstr(out, runs[k].want));
        if (k < 2)
            assert_non_null(strstr(out, "status 2"));
    }
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_run),
        cmocka_unit_test(budgets_end_as_limit),
        cmocka_unit_test(budgets_end_large_grids),
        cmocka_unit_test(anneal_reheats_when_stuck),
        cmocka_unit_test(acs_solves_the_corpus),
        cmocka_unit_test(counting_is_refused),
        cmocka_unit_test(commands_refuse_counting),
    };
    const struct test_group plain
        = { "stochastic", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
