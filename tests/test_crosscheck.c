/* The cross-check, in the spirit of dav1d's checkasm: the tests are built at
 * run time from the registry, four per back end, so a back end added to the
 * registry is checked here with no edit to this file. SUDOLAB_TEST_SOLVERS=
 * name,... runs them for chosen back ends only, outside ones (so:PATH,
 * cmd:COMMAND) included.
 *
 *   <name> corpus   every puzzle of tests/data/crosscheck*.txt it supports:
 *                   the expected count (up to the limit), a verified solution
 *                   (solver_run checks it with common/check.h), the same count
 *                   on a random isomorph of each puzzle (seed printed), each
 *                   within a step budget (see CASE_STEPS);
 *   <name> count    enumeration: 288 for the empty 4x4 grid, 2 for diag(1:4),
 *                   and first-solution mode gives status solved;
 *   <name> budget   a step budget and a deadline stop an endless enumeration
 *                   (one not honoured is a hang: meson's timeout);
 *   <name> trace    replaying its trace events rebuilds the solution.
 *
 * Failures are reported one by one and fail the test once at the end. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/symmetry.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

static struct test_case *cases;
static size_t ncases;
static uint64_t seed;

static int load_corpora(void **state)
{
    (void) state;
    seed = test_seed("crosscheck", 0);
    return test_load_crosscheck(&cases, &ncases);
}

static int free_corpora(void **state)
{
    (void) state;
    free(cases);
    return 0;
}

static int expected_under(int count, uint64_t limit)
{
    return limit && (uint64_t) count > limit ? (int) limit : count;
}

/* Budgets: no clock decides a case. A case is decided by steps where the
 * back end takes a step budget: naive, the slowest built-in back end, needs at
 * most about 2.1 million on any case of the corpus. Isomorphs can be much
 * harder for a search that depends on cell order, and a slow back end
 * (lastcell: the last empty cell first) is slow on some originals too: a case
 * it leaves undecided is reported with the budget that ran out and counted. A
 * back end without a step budget (sat, milp, a process) runs without a
 * deadline and must decide every case (milp, the slowest, takes about 7 s of
 * CPU for all of them; a hang is meson's timeout). A fast back end must decide
 * every case, any other at least MIN_DECIDED_PERCENT of them; a case decided
 * wrongly always fails. */
enum {
    CASE_STEPS = 10000000,
    MIN_DECIDED_PERCENT = 50,
};

enum verdict { RIGHT, WRONG, UNDECIDED };

/* An incomplete back end (stochastic search, seed 0, by steps: anneal
 * makes about 3 million a second) at limit 1: a puzzle with a solution is
 * solved (a run out of steps is undecided: the search may be unlucky); one
 * without ends at its budget as limit, never unsolvable; an invalid one is
 * invalid. */
enum { INCOMPLETE_SOLVE_STEPS = 3000000, INCOMPLETE_NONE_STEPS = 50000 };

static enum verdict check_incomplete_case(struct solver_instance *inst,
    const struct test_case *c, const struct grid *puzzle, const char *what)
{
    const struct solver *s = solver_of(inst);
    const struct solve_request req = { .limit = 1,
        .budget_steps = c->count == 0 ? INCOMPLETE_NONE_STEPS : INCOMPLETE_SOLVE_STEPS };
    struct solve_result res;
    solver_run(inst, puzzle, &req, &res);
    const enum solve_status want = c->count == TEST_INVALID ? SOLVE_STATUS_INVALID
        : c->count == 0                                     ? SOLVE_STATUS_LIMIT
                                                            : SOLVE_STATUS_SOLVED;
    if (want == SOLVE_STATUS_SOLVED && res.status == SOLVE_STATUS_LIMIT) {
        printf("# %s: %s:%lu%s: not solved within %d steps\n", s->name, c->file, c->line,
            what, INCOMPLETE_SOLVE_STEPS);
        return UNDECIDED;
    }
    if (res.status != want) {
        print_error("%s: %s:%lu%s: expected %s, got %s%s%s\n", s->name, c->file, c->line,
            what, solve_status_name(want), solve_status_name(res.status),
            res.error[0] ? ": " : "", res.error);
        return WRONG;
    }
    return RIGHT;
}

static enum verdict check_case(struct solver_instance *inst, const struct test_case *c,
    const struct grid *puzzle, const char *what)
{
    const struct solver *s = solver_of(inst);
    if (s->caps & SOLVER_CAP_INCOMPLETE)
        return check_incomplete_case(inst, c, puzzle, what);
    const uint64_t limit = (s->caps & SOLVER_CAP_COUNT) ? 2 : 1;
    const bool steps = (s->caps & SOLVER_CAP_STEP_BUDGET) != 0;
    const struct solve_request req
        = { .limit = limit, .budget_steps = steps ? CASE_STEPS : 0 };
    struct solve_result res;
    solver_run(inst, puzzle, &req, &res);
    if (res.status == SOLVE_STATUS_LIMIT) {
        if (steps && res.counters.steps >= CASE_STEPS)
            printf("# %s: %s:%lu%s: undecided within its budget of %d steps\n", s->name,
                c->file, c->line, what, CASE_STEPS);
        else
            printf("# %s: %s:%lu%s: gave up by itself, without a budget\n", s->name,
                c->file, c->line, what);
        return UNDECIDED;
    }
    if (c->count == TEST_INVALID) {
        if (res.status == SOLVE_STATUS_INVALID)
            return RIGHT;
        print_error("%s: %s:%lu%s: expected invalid, got %s\n", s->name, c->file, c->line,
            what, solve_status_name(res.status));
        return WRONG;
    }
    const int want = expected_under(c->count, limit);
    if (res.status == SOLVE_STATUS_ERROR || res.solutions != (uint64_t) want) {
        print_error("%s: %s:%lu%s: expected %d solution(s), got %llu (%s%s%s)\n", s->name,
            c->file, c->line, what, want, (unsigned long long) res.solutions,
            solve_status_name(res.status), res.error[0] ? ": " : "", res.error);
        return WRONG;
    }
    return RIGHT;
}

static void agrees_with_corpus(void **state)
{
    const struct solver *s = *state;
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    struct rng rng;
    rng_seed(&rng, seed);
    int tally[3] = { 0 }, puzzles = 0;
    for (size_t i = 0; i < ncases; i++) {
        char why[200];
        if (!solver_supports(s, &cases[i].puzzle, why, sizeof(why)))
            continue;
        puzzles++;
        tally[check_case(inst, &cases[i], &cases[i].puzzle, "")]++;
        struct symmetry sym;
        struct grid iso;
        symmetry_random(&sym, &cases[i].puzzle, &rng);
        symmetry_apply(&sym, &cases[i].puzzle, &iso);
        tally[check_case(inst, &cases[i], &iso, " (isomorph)")]++;
    }
    solver_close(inst);
    const int cases_run = 2 * puzzles;
    const bool all = (s->caps & SOLVER_CAP_FAST) || !(s->caps & SOLVER_CAP_STEP_BUDGET);
    const int need = all ? cases_run : (cases_run * MIN_DECIDED_PERCENT + 99) / 100;
    printf("# %s: %d corpus puzzles and their isomorphs: %d right, %d wrong, %d "
           "undecided (%d decided needed)\n",
        s->name, puzzles, tally[RIGHT], tally[WRONG], tally[UNDECIDED], need);
    assert_true(puzzles > 0);
    assert_int_equal(tally[WRONG], 0);
    if (tally[RIGHT] < need)
        fail_msg("%s decided %d of %d cases; %s at least %d", s->name, tally[RIGHT],
            cases_run,
            all ? "a fast back end or one without a step budget decides all,"
                : "it must decide",
            need);
}

static uint64_t count_all(
    struct solver_instance *inst, const char *line, enum solve_status *status)
{
    struct grid g;
    test_parse(&g, line, GRID_STANDARD);
    const struct solve_request req = { .limit = 0 };
    struct solve_result res;
    solver_run(inst, &g, &req, &res);
    *status = res.status;
    return res.solutions;
}

static void counts_small_grids(void **state)
{
    const struct solver *s = *state;
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    struct grid g;
    grid_init(&g, 2, 2, GRID_STANDARD);
    char why[200];
    if (!solver_supports(s, &g, why, sizeof(why))) {
        solver_close(inst);
        test_skip("%s", why);
    }
    enum solve_status status;
    if (s->caps & SOLVER_CAP_COUNT) {
        assert_int_equal(count_all(inst, "................", &status), 288);
        assert_int_equal(status, SOLVE_STATUS_MULTIPLE);
        assert_int_equal(count_all(inst, "1....2....3....4", &status), 2);
        assert_int_equal(count_all(inst, "43....34.1.....1", &status), 1);
        assert_int_equal(status, SOLVE_STATUS_UNIQUE);
    }
    const struct solve_request first = { .limit = 1,
        .budget_steps = (s->caps & SOLVER_CAP_STEP_BUDGET) ? CASE_STEPS : 0 };
    struct solve_result res;
    solver_run(inst, &g, &first, &res);
    assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
    assert_int_equal(res.solutions, 1);
    solver_close(inst);
}

static void honours_budgets(void **state)
{
    const struct solver *s = *state;
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    struct grid empty;
    grid_init(&empty, 3, 3, GRID_STANDARD);
    char why[200] = "it does not count";
    if (!(s->caps & SOLVER_CAP_COUNT) || !solver_supports(s, &empty, why, sizeof(why))) {
        solver_close(inst);
        test_skip("%s budget: %s", s->name, why);
    }
    struct solve_result res;
    if (s->caps & SOLVER_CAP_STEP_BUDGET) {
        const struct solve_request req = { .limit = 0, .budget_steps = 5000 };
        solver_run(inst, &empty, &req, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
        if (s->counters & SOLVER_HAS(steps))
            assert_true(res.counters.steps <= 5000);
    }
    /* The 9x9 grid has 6.67e21 solutions: only the deadline can end this (or
     * meson's timeout, when the deadline is not honoured). */
    const struct solve_request timed
        = { .limit = 0, .deadline_ns = clock_now_ns() + 50000000u };
    solver_run(inst, &empty, &timed, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    /* and one already past ends it at once */
    const struct solve_request past = { .limit = 0, .deadline_ns = 1 };
    solver_run(inst, &empty, &past, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    solver_close(inst);
}

static void traces_replay(void **state)
{
    const struct solver *s = *state;
    if (!(s->caps & SOLVER_CAP_TRACE))
        test_skip("%s does not trace", s->name);
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    int tried = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (cases[i].count != 1 || cases[i].puzzle.n > 9
            || !solver_supports(s, &cases[i].puzzle, NULL, 0))
            continue;
        struct test_replay r;
        test_replay_start(&r, &cases[i].puzzle);
        const struct solve_request req
            = { .limit = 1, .trace = test_replay_event, .ctx = &r };
        struct solve_result res;
        solver_run(inst, &cases[i].puzzle, &req, &res);
        assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
        assert_int_equal(r.errors, 0);
        assert_int_equal(r.solutions, 1);
        assert_memory_equal(r.first.cell, res.solution.cell, res.solution.ncells);
        tried++;
    }
    solver_close(inst);
    assert_true(tried > 0);
}

static bool always(const struct solver *s)
{
    (void) s;
    return true;
}

static bool takes_4x4(const struct solver *s)
{
    return s->min_n <= 4 && s->max_n >= 4;
}

static bool counts_9x9(const struct solver *s)
{
    return (s->caps & SOLVER_CAP_COUNT) && s->min_n <= 9 && s->max_n >= 9;
}

static bool traces(const struct solver *s)
{
    return (s->caps & SOLVER_CAP_TRACE) != 0;
}

/* Only the tests that apply to a back end are registered, so a run lists no
 * skips (cmocka would print them as failures in TAP). */
static const struct {
    const char *suffix;
    CMUnitTestFunction fn;
    bool (*applies)(const struct solver *s);
} kinds[] = {
    { "corpus", agrees_with_corpus, always },
    { "count", counts_small_grids, takes_4x4 },
    { "budget", honours_budgets, counts_9x9 },
    { "trace", traces_replay, traces },
};

int main(int argc, char **argv)
{
    const struct solver **solvers = test_solvers("not cross-checked");
    if (!solvers)
        return 1;
    size_t nsolvers = 0;
    while (solvers[nsolvers])
        nsolvers++;
    const size_t nkinds = sizeof(kinds) / sizeof(kinds[0]);
    struct CMUnitTest *tests = calloc(nsolvers * nkinds + 1, sizeof(*tests));
    char(*names)[128] = calloc(nsolvers * nkinds + 1, sizeof(*names));
    if (!tests || !names)
        return 1;
    size_t t = 0;
    for (size_t i = 0; solvers[i]; i++) {
        for (size_t k = 0; k < nkinds; k++) {
            if (!kinds[k].applies(solvers[i]))
                continue;
            snprintf(
                names[t], sizeof(names[t]), "%s %s", solvers[i]->name, kinds[k].suffix);
            tests[t] = (struct CMUnitTest) { .name = names[t],
                .test_func = kinds[k].fn,
                .initial_state = (void *) solvers[i] };
            t++;
        }
    }
    const struct test_group plain
        = { "crosscheck", tests, t, load_corpora, free_corpora };
    const int status = test_main(argc, argv, &plain, NULL);
    free(tests);
    free(names);
    free(solvers);
    return status;
}
