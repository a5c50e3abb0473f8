/* The back ends built on external solvers (sat, sat_assume, sat_min, sat_eff: CaDiCaL;
 * milp: GLPK). The generic cross-check already runs them over the corpora; these tests
 * aim at what is particular to them: one library object reused across puzzles and shapes,
 * so nothing of one puzzle (clues, blocking clauses, exclusion rows, a deadline) may
 * reach the next; 16x16 and the diagonal variant; the deadline and the step budget as the
 * only ways to stop an endless enumeration. Each test runs once per back end built; a
 * back end left out (-Dsat=disabled, -Dmilp=disabled, or its library missing) is named in
 * a comment instead, and with neither the whole program skips (77). The top1465 test
 * needs the shared corpora: the --corpora group. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/corpus.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

static const char *const backends[]
    = { "sat", "sat_assume", "sat_min", "sat_eff", "milp" };

/* The back end named by the test's state, opened (main registers tests only
 * for the back ends built). */
static struct solver_instance *open_backend(void **state)
{
    const struct solver *s = solver_find(*state);
    assert_non_null(s);
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    return inst;
}

/* --- the cross-check corpora, in an order that keeps changing shapes --- */

static struct test_case *cases;
static size_t ncases;

/* The expected-count corpora less their invalid entries (those never reach a
 * back end). */
static int load_valid_cases(void **state)
{
    (void) state;
    if (test_load_crosscheck(&cases, &ncases) != 0)
        return -1;
    size_t kept = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (cases[i].count != TEST_INVALID)
            cases[kept++] = cases[i];
    }
    ncases = kept;
    return ncases > 20 ? 0 : -1;
}

static int free_cases(void **state)
{
    (void) state;
    free(cases);
    return 0;
}

static int check_known(
    struct solver_instance *inst, const struct test_case *k, const char *pass)
{
    struct solve_result res;
    test_solve(inst, &k->puzzle, 2, 0, &res);
    if (res.solutions == (uint64_t) k->count && res.status != SOLVE_STATUS_ERROR
        && res.status != SOLVE_STATUS_LIMIT)
        return 0;
    char shape[48];
    grid_describe_shape(&k->puzzle, shape, sizeof(shape));
    print_error("%s: %s:%lu (%s, %s pass): expected %d solution(s), got %llu (%s %s)\n",
        solver_of(inst)->name, k->file, k->line, shape, pass, k->count,
        (unsigned long long) res.solutions, solve_status_name(res.status), res.error);
    return 1;
}

/* One instance, every corpus puzzle forwards, backwards, then every puzzle
 * twice in a row: each shape change rebuilds the model, each repeat reuses
 * it right after the same puzzle's own blocking clauses or exclusion rows. */
static void shapes_interleaved(void **state)
{
    struct solver_instance *inst = open_backend(state);
    int failures = 0;
    for (size_t i = 0; i < ncases; i++)
        failures += check_known(inst, &cases[i], "forward");
    for (size_t i = ncases; i-- > 0;)
        failures += check_known(inst, &cases[i], "backward");
    for (size_t i = 0; i < ncases; i++) {
        failures += check_known(inst, &cases[i], "first of two");
        failures += check_known(inst, &cases[i], "second of two");
    }
    solver_close(inst);
    assert_int_equal(failures, 0);
}

/* --- nothing of one puzzle leaks into the next --- */

struct collected {
    int n;
    struct grid g[4];
};

static bool collect(void *ctx, const struct grid *solution)
{
    struct collected *c = ctx;
    if (c->n < 4)
        c->g[c->n] = *solution;
    c->n++;
    return true;
}

static bool transposed(const struct grid *a, const struct grid *b)
{
    for (int r = 0; r < a->n; r++) {
        for (int c = 0; c < a->n; c++) {
            if (a->cell[r * a->n + c] != b->cell[c * a->n + r])
                return false;
        }
    }
    return true;
}

/* diag(1:4) has exactly two solutions, each the other's transpose (Moler).
 * After they are enumerated (and blocked for that puzzle), each of them as a
 * full grid, and with one cell blanked, must still be found: a blocking
 * clause or exclusion row left behind would make them unsolvable. */
static void blocking_does_not_leak(void **state)
{
    struct solver_instance *inst = open_backend(state);
    struct grid diag, g;
    test_parse(&diag, "1....2....3....4", GRID_STANDARD);
    for (int round = 0; round < 2; round++) {
        struct collected got = { 0 };
        const struct solve_request all
            = { .limit = 0, .on_solution = collect, .ctx = &got };
        struct solve_result res;
        solver_run(inst, &diag, &all, &res);
        assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);
        assert_int_equal(res.solutions, 2);
        assert_int_equal(got.n, 2);
        assert_true(transposed(&got.g[0], &got.g[1]));
        for (int s = 0; s < 2; s++) {
            test_assert_solution(&diag, &got.g[s], solver_of(inst)->name);
            g = got.g[s];
            test_solve(inst, &g, 2, 0, &res);
            assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
            g.cell[5] = 0;
            test_solve(inst, &g, 2, 0, &res);
            assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
            assert_memory_equal(res.solution.cell, got.g[s].cell, g.ncells);
        }
    }
    /* the same on 9x9: the empty grid's first solution, blocked, then asked for */
    struct grid empty;
    grid_init(&empty, 3, 3, GRID_STANDARD);
    struct solve_result first, res;
    test_solve(inst, &empty, 2, 0, &first);
    assert_int_equal(first.status, SOLVE_STATUS_MULTIPLE);
    test_solve(inst, &first.solution, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    test_solve(inst, &empty, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);
    solver_close(inst);
}

/* Known counts, twice on one instance: 288 complete 4x4 grids, and 24 of
 * them start with 1 2 (relabelling the values maps the 12 ordered pairs of
 * distinct values onto each other, 288 / 12 = 24). milp gets the smaller
 * one only: each exclusion row weakens its LP relaxation, and enumerating
 * the 288 takes it some 58,000 nodes and seconds of CPU. */
static void counts_repeat(void **state)
{
    struct solver_instance *inst = open_backend(state);
    const bool milp = strcmp(solver_of(inst)->family, "milp") == 0;
    struct grid g;
    test_parse(&g, milp ? "12.............." : "................", GRID_STANDARD);
    for (int round = 0; round < 2; round++) {
        struct solve_result res;
        test_solve(inst, &g, 0, 0, &res);
        assert_int_equal(res.solutions, milp ? 24 : 288);
    }
    solver_close(inst);
}

/* sat uses a guard variable per puzzle (sat_assume per counted puzzle with
 * two or more solutions) and rebuilds its solver after 2^12 of them: 6,000
 * puzzles, three in four with two solutions, cross that point for both. */
static void many_puzzles_in_a_row(void **state)
{
    struct solver_instance *inst = open_backend(state);
    struct grid a, b;
    test_parse(&a, "1234341221434321", GRID_STANDARD); /* complete: one solution */
    test_parse(&b, "1....2....3....4", GRID_STANDARD); /* two solutions */
    int wrong = 0;
    for (int i = 0; i < 6000; i++) {
        const bool two = (i & 3) != 0;
        struct solve_result res;
        test_solve(inst, two ? &b : &a, 2, 0, &res);
        wrong += res.status != (two ? SOLVE_STATUS_MULTIPLE : SOLVE_STATUS_UNIQUE);
    }
    solver_close(inst);
    assert_int_equal(wrong, 0);
}

/* --- sizes and the variant --- */

/* A complete grid with one row blanked has exactly one solution (each blank's
 * column misses one value); from the corpus's unique 16x16 puzzle. */
static void sixteen_by_sixteen(void **state)
{
    struct solver_instance *inst = open_backend(state);
    int tried = 0;
    for (size_t i = 0; i < ncases; i++) {
        const struct grid *p = &cases[i].puzzle;
        if (p->n != 16 || cases[i].count != 1)
            continue;
        struct solve_result res;
        test_solve(inst, p, 2, 0, &res);
        assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
        struct grid g = res.solution;
        for (int c = 0; c < 16; c++)
            g.cell[3 * 16 + c] = 0;
        struct solve_result again;
        test_solve(inst, &g, 2, 0, &again);
        assert_int_equal(again.status, SOLVE_STATUS_UNIQUE);
        assert_memory_equal(again.solution.cell, res.solution.cell, g.ncells);
        tried++;
    }
    assert_true(tried >= 2); /* standard and diagonal */
    solver_close(inst);
}

/* Diagonal puzzles with a few solutions each: the empty 4x4 grid, two 4x4,
 * a 6x6 and the 9x9 multiple one of crosscheck_diagonal.txt. */
static const char *const diagonal_puzzles[] = {
    "................",
    "1...............",
    ".4...3..........",
    "...3.1........1............1..3.54.2",
    "..2.13.7..1...5..4..5..219.14.7.6.59.63..4.827.9..8.6....2.9..79..3.1.2...1..7...",
};

/* The diagonal variant: counts agree with the naive reference on small
 * grids, and a first solution of the empty 9x9 diagonal grid is valid
 * (solver_run checks it, diagonals included). */
static void diagonal_agrees_with_naive(void **state)
{
    struct solver_instance *inst = open_backend(state);
    struct solver_instance *ref = solver_open(solver_find("naive"));
    assert_non_null(ref);
    for (size_t i = 0; i < sizeof(diagonal_puzzles) / sizeof(diagonal_puzzles[0]); i++) {
        struct grid g;
        test_parse(&g, diagonal_puzzles[i], GRID_DIAGONAL);
        struct solve_result mine, theirs;
        test_solve(inst, &g, 0, 0, &mine);
        test_solve(ref, &g, 0, 0, &theirs);
        assert_int_equal(theirs.status, SOLVE_STATUS_MULTIPLE);
        assert_int_equal(mine.solutions, theirs.solutions);
    }
    struct grid g;
    grid_init(&g, 3, 3, GRID_DIAGONAL);
    struct solve_result res;
    test_solve(inst, &g, 1, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
    solver_close(ref);
    solver_close(inst);
}

/* --- budgets --- */

/* A deadline ends an endless enumeration (the empty 9x9 grid), a deadline
 * already past gives up at once, and neither sticks to the next puzzle. */
static void deadline_gives_limit(void **state)
{
    struct solver_instance *inst = open_backend(state);
    struct grid empty, p;
    grid_init(&empty, 3, 3, GRID_STANDARD);
    test_parse(&p, "43....34.1.....1", GRID_STANDARD);
    struct solve_result res;
    /* a deadline not honoured is a hang, which meson's timeout fails */
    const struct solve_request soon
        = { .limit = 0, .deadline_ns = clock_now_ns() + 30000000u };
    solver_run(inst, &empty, &soon, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    test_solve(inst, &empty, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);

    const struct solve_request past = { .limit = 2, .deadline_ns = 1 };
    solver_run(inst, &p, &past, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    assert_int_equal(res.solutions, 0);
    test_solve(inst, &p, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    solver_close(inst);
}

/* budget_steps, mapped onto the library's limits (see each file's header),
 * must end an endless enumeration too; milp's nodes stay within it. */
static void step_budget_gives_limit(void **state)
{
    struct solver_instance *inst = open_backend(state);
    struct grid empty;
    grid_init(&empty, 3, 3, GRID_STANDARD);
    const struct solve_request req = { .limit = 0, .budget_steps = 50 };
    struct solve_result res;
    solver_run(inst, &empty, &req, &res);
    assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
    assert_true(res.solutions <= 50);
    if (solver_of(inst)->counters & SOLVER_HAS(nodes))
        assert_true(res.counters.nodes <= 50);
    solver_close(inst);
}

/* milp's node counter: GLPK is deterministic, so proving uniqueness repeats
 * the first solve and adds the second one's nodes. */
static void milp_nodes_add_up(void **state)
{
    struct solver_instance *inst = open_backend(state);
    int tried = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (cases[i].count != 1 || cases[i].puzzle.n != 9)
            continue;
        struct solve_result one, two;
        test_solve(inst, &cases[i].puzzle, 1, 0, &one);
        test_solve(inst, &cases[i].puzzle, 2, 0, &two);
        assert_int_equal(one.status, SOLVE_STATUS_SOLVED);
        assert_int_equal(two.status, SOLVE_STATUS_UNIQUE);
        assert_true(two.counters.nodes >= one.counters.nodes);
        tried++;
    }
    assert_true(tried > 0);
    solver_close(inst);
}

/* The first puzzles of top1465 (datasets/public; every one has a single
 * solution, tdoku's count): all unique. */
static void top1465_unique(void **state)
{
    struct corpus *c = test_open_shared("puzzles3_magictour_top1465");
    if (!c)
        test_skip("top1465: no top1465 corpus in %s", test_shared_dir());
    struct solver_instance *inst = open_backend(state);
    const int want = strcmp(solver_of(inst)->family, "sat") == 0 ? 200 : 10;
    static struct corpus_item item;
    int n = 0, unique = 0;
    while (n < want && corpus_next(c, &item) == CORPUS_PUZZLE) {
        struct solve_result res;
        test_solve(inst, &item.puzzle, 2, 0, &res);
        unique += res.status == SOLVE_STATUS_UNIQUE;
        n++;
    }
    corpus_close(c);
    solver_close(inst);
    assert_int_equal(n, want);
    assert_int_equal(unique, want);
}

static const struct {
    const char *name;
    CMUnitTestFunction fn;
    const char *only; /* NULL, or the one family the test is for */
    bool corpora; /* needs the shared corpora: the --corpora group */
} kinds[] = {
    { "shapes interleaved", shapes_interleaved, NULL, false },
    { "blocking does not leak", blocking_does_not_leak, NULL, false },
    { "counts repeat", counts_repeat, NULL, false },
    { "many puzzles in a row", many_puzzles_in_a_row, "sat", false },
    { "16x16", sixteen_by_sixteen, NULL, false },
    { "diagonal", diagonal_agrees_with_naive, NULL, false },
    { "deadline", deadline_gives_limit, NULL, false },
    { "step budget", step_budget_gives_limit, NULL, false },
    { "nodes add up", milp_nodes_add_up, "milp", false },
    { "top1465", top1465_unique, NULL, true },
};

enum { NB = TEST_COUNT(backends), NK = TEST_COUNT(kinds) };

/* Registers the kinds of one group for every back end built. */
static size_t register_tests(bool corpora, struct CMUnitTest *tests, char (*names)[64])
{
    size_t n = 0;
    for (size_t b = 0; b < NB; b++) {
        const struct solver *s = solver_find(backends[b]);
        if (!s)
            continue;
        for (size_t k = 0; k < NK; k++) {
            if (kinds[k].corpora != corpora
                || (kinds[k].only && strcmp(kinds[k].only, s->family) != 0))
                continue;
            snprintf(names[n], sizeof(names[n]), "%s %s", backends[b], kinds[k].name);
            tests[n] = (struct CMUnitTest) { .name = names[n],
                .test_func = kinds[k].fn,
                .initial_state = (void *) backends[b] };
            n++;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    static struct CMUnitTest tests[NB * NK], corpus_tests[NB * NK];
    static char names[NB * NK][64], corpus_names[NB * NK][64];
    for (size_t b = 0; b < NB; b++) {
        if (!solver_find(backends[b]))
            printf("# %s not built (library missing or feature disabled): not tested\n",
                backends[b]);
    }
    const size_t n = register_tests(false, tests, names);
    if (n == 0) {
        puts("# SKIP neither CaDiCaL nor GLPK was built in");
        return 77;
    }
    const struct test_group plain
        = { "external", tests, n, load_valid_cases, free_cases };
    const struct test_group corpora = { "external corpora", corpus_tests,
        register_tests(true, corpus_tests, corpus_names), NULL, NULL };
    return test_main(argc, argv, &plain, &corpora);
}
