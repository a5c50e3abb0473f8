/* The bitboard back end for large grids `wide` (solvers/wide.c) and its
 * instruction-set paths:
 *
 *  - the generated large-grid corpora (datasets/generated/16x16_minimal.txt,
 *    25x25_dig_320.txt): every puzzle unique, its solution verified, the
 *    first ones also by mrv, and on the first ones every path this machine runs
 *    with the same counters (one search, several vector widths: a difference
 *    is a bug in a path); the plain group takes the first 10 of the 25x25
 *    file, the --corpora group (test wide-corpora; about 15 s) all of both
 *    (the first 20 of the 25x25 file under the sanitizers);
 *  - every kernel of solvers/wide.c (box shapes 3x3, 3x4, 4x3, 4x4, 5x5 as
 *    whole-vector rules, any other shape lane by lane, boards to 16 and to 25
 *    rows, standard and diagonal) against mrv: status and count at limit 2 and
 *    counts to 50 at limit 50, on puzzles blanked at random (seeded) from a
 *    complete grid mrv finds;
 *  - full counts of small grids, the counters' invariants, step budgets;
 *  - wide_isa_path and the forced paths under SUDOLAB_MAX_SIMD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/corpus.h"
#include "common/rng.h"
#include "solvers/registry.h"
#include "solvers/wide.h"
#include "tests/test_util.h"

/* `wide`, then the forced paths this machine runs. */
enum { MAX_PATHS = 8 };
static const char *paths[MAX_PATHS];
static int npaths;
static uint64_t seed;

static int setup(void **state)
{
    (void) state;
    unsetenv("SUDOLAB_MAX_SIMD");
    seed = test_seed("wide", 2020);
    npaths = 0;
    for (size_t i = 0; solver_registry[i]; i++) {
        const char *name = solver_registry[i]->name;
        if ((strcmp(name, "wide") == 0 || strncmp(name, "wide_", 5) == 0)
            && test_available(solver_registry[i], "not tested") && npaths < MAX_PATHS)
            paths[npaths++] = name;
    }
    return npaths >= 2 && strcmp(paths[0], "wide") == 0 ? 0 : -1;
}

/* Solves g on the first `count` paths (`wide` first): the same status,
 * count, first solution and counters on all; the result of `wide` in *ref. */
static void solve_paths(
    const struct grid *g, uint64_t limit, int count, struct solve_result *ref)
{
    struct solver_instance *inst = test_open(paths[0]);
    test_solve(inst, g, limit, 0, ref);
    solver_close(inst);
    for (int p = 1; p < count && p < npaths; p++) {
        struct solve_result res;
        inst = test_open(paths[p]);
        test_solve(inst, g, limit, 0, &res);
        solver_close(inst);
        if (res.status != ref->status || res.solutions != ref->solutions
            || memcmp(&res.counters, &ref->counters, sizeof(res.counters)) != 0
            || (ref->solutions
                && memcmp(res.solution.cell, ref->solution.cell, g->ncells) != 0)) {
            print_error("%s and %s differ (seed %llu)\n", paths[0], paths[p],
                (unsigned long long) seed);
            fail();
        }
    }
}

/* --- the generated corpora --- */

static const struct {
    const char *file;
    int head; /* how many puzzles the plain group checks (0: all) */
    int paths_head; /* how many of the first puzzles every path solves (the
                       rest `wide` alone: the portable path is 5x slower) */
    int mrv_head; /* how many of the first puzzles mrv checks too */
} corpora[] = {
    { "16x16_minimal.txt", 0, 20, 10 },
    /* milliseconds a puzzle for `wide` since its lookahead (70 ms of CPU for
     * the hardest), mrv seconds to minutes (the generator's verifier was
     * sat_assume): all of it only in the --corpora group */
    { "25x25_dig_320.txt", 10, 1, 0 },
};

/* A sanitizer build (unoptimised, instrumented) runs `wide` some 30 times
 * slower: there the --corpora group checks the first SANITIZED_HEAD puzzles of
 * the 25x25 file instead of all (the same code, minutes less). */
#if defined(__SANITIZE_ADDRESS__)
#define WIDE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WIDE_SANITIZED 1
#endif
#endif
#if !defined(WIDE_SANITIZED)
#define WIDE_SANITIZED 0
#endif
enum { SANITIZED_HEAD = 20 };

/* Checks the first `head` puzzles of every generated corpus (all with
 * whole). */
static void check_generated(bool whole);

static struct corpus *open_generated(const char *name)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/../../datasets/generated/%s", test_data_dir(), name);
    const struct corpus_options opts = { 0 };
    char why[256];
    struct corpus *c = corpus_open(path, &opts, why, sizeof(why));
    if (!c)
        print_error("%s\n", why);
    assert_non_null(c);
    return c;
}

static void check_generated(bool whole)
{
    struct solver_instance *mrv = test_open("mrv");
    for (size_t f = 0; f < TEST_COUNT(corpora); f++) {
        struct corpus *c = open_generated(corpora[f].file);
        static struct corpus_item item;
        int n = 0;
        const int head = !whole                 ? corpora[f].head
            : WIDE_SANITIZED && corpora[f].head ? SANITIZED_HEAD
                                                : 0;
        while ((head == 0 || n < head) && corpus_next(c, &item) == CORPUS_PUZZLE) {
            struct solve_result res;
            solve_paths(&item.puzzle, 2, n < corpora[f].paths_head ? npaths : 1, &res);
            if (res.status != SOLVE_STATUS_UNIQUE) {
                print_error("%s:%lu: %s, not unique\n", corpora[f].file, item.line,
                    solve_status_name(res.status));
                fail();
            }
            if (n < corpora[f].mrv_head) {
                struct solve_result other;
                test_solve(mrv, &item.puzzle, 2, 0, &other);
                assert_int_equal(other.status, SOLVE_STATUS_UNIQUE);
                assert_memory_equal(
                    other.solution.cell, res.solution.cell, item.puzzle.ncells);
            }
            n++;
        }
        corpus_close(c);
        assert_true(n >= (head ? head : 50));
        printf("# %s: %d puzzles unique (the first %d on %d paths)\n", corpora[f].file, n,
            n < corpora[f].paths_head ? n : corpora[f].paths_head, npaths);
    }
    solver_close(mrv);
}

static void generated_corpora_unique(void **state)
{
    (void) state;
    check_generated(false);
}

static void generated_corpora_whole(void **state)
{
    (void) state;
    check_generated(true);
}

/* --- every kernel against mrv --- */

static const struct {
    uint8_t box_rows, box_cols, variant;
    uint8_t blank_percent[3];
} shapes[] = {
    { 3, 3, GRID_STANDARD, { 55, 65, 75 } },
    { 3, 4, GRID_STANDARD, { 50, 60, 70 } },
    { 4, 3, GRID_STANDARD, { 50, 60, 70 } },
    { 4, 4, GRID_STANDARD, { 45, 55, 62 } },
    { 5, 5, GRID_STANDARD, { 25, 30, 35 } },
    { 2, 5, GRID_STANDARD, { 50, 60, 70 } },
    { 4, 5, GRID_STANDARD, { 25, 30, 35 } },
    { 5, 4, GRID_STANDARD, { 25, 30, 35 } },
    { 2, 2, GRID_STANDARD, { 50, 70, 90 } },
    { 3, 3, GRID_DIAGONAL, { 55, 65, 75 } },
    { 3, 4, GRID_DIAGONAL, { 50, 60, 70 } },
    { 4, 4, GRID_DIAGONAL, { 45, 55, 62 } },
    { 5, 5, GRID_DIAGONAL, { 25, 30, 35 } },
};

enum { PUZZLES_PER_LEVEL = 3, REF_STEPS = 300000, COUNT_LIMIT = 50 };

static void kernels_agree_with_mrv(void **state)
{
    (void) state;
    struct solver_instance *mrv = test_open("mrv");
    struct rng rng;
    rng_seed(&rng, seed + 1);
    int compared = 0, undecided = 0;
    for (size_t s = 0; s < TEST_COUNT(shapes); s++) {
        struct grid empty, full;
        assert_int_equal(grid_init(&empty, shapes[s].box_rows, shapes[s].box_cols,
                             (enum grid_variant) shapes[s].variant),
            0);
        struct solve_result res;
        test_solve(mrv, &empty, 1, 0, &res);
        assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
        full = res.solution;
        for (int level = 0; level < 3; level++) {
            for (int k = 0; k < PUZZLES_PER_LEVEL; k++) {
                struct grid g = full;
                for (int i = 0; i < g.ncells; i++) {
                    if (rng_below(&rng, 100) < shapes[s].blank_percent[level])
                        g.cell[i] = 0;
                }
                const uint64_t limits[2] = { 2, COUNT_LIMIT };
                for (int l = 0; l < 2; l++) {
                    struct solve_result ref, mine;
                    test_solve(mrv, &g, limits[l], REF_STEPS, &ref);
                    solve_paths(&g, limits[l], npaths, &mine);
                    assert_true(mine.solutions > 0);
                    if (ref.status == SOLVE_STATUS_LIMIT) {
                        undecided++;
                        continue;
                    }
                    if (ref.status != mine.status || ref.solutions != mine.solutions) {
                        char shape[48];
                        grid_describe_shape(&g, shape, sizeof(shape));
                        print_error("%s, limit %llu: mrv %s %llu, wide %s %llu (seed "
                                    "%llu)\n",
                            shape, (unsigned long long) limits[l],
                            solve_status_name(ref.status),
                            (unsigned long long) ref.solutions,
                            solve_status_name(mine.status),
                            (unsigned long long) mine.solutions,
                            (unsigned long long) seed);
                        fail();
                    }
                    compared++;
                }
            }
        }
    }
    solver_close(mrv);
    printf("# %d solves compared with mrv, %d beyond its budget\n", compared, undecided);
    assert_true(undecided * 4 < compared);
}

/* Every solution of the empty 4x4 grid (288) and of the empty 4x4 diagonal
 * grid, as mrv counts them, each handed out once and verified. */
static void full_counts(void **state)
{
    (void) state;
    struct solver_instance *mrv = test_open("mrv");
    for (int variant = 0; variant < 2; variant++) {
        struct grid g;
        assert_int_equal(grid_init(&g, 2, 2, (enum grid_variant) variant), 0);
        struct solve_result ref, mine;
        test_solve(mrv, &g, 0, 0, &ref);
        if (variant == GRID_STANDARD)
            assert_int_equal(ref.solutions, 288);
        for (int p = 0; p < npaths; p++) {
            struct solver_instance *inst = test_open(paths[p]);
            struct test_solutions seen = { .puzzle = &g };
            const struct solve_request req
                = { .limit = 0, .on_solution = test_collect_solution, .ctx = &seen };
            memset(&mine, 0, sizeof(mine));
            solver_run(inst, &g, &req, &mine);
            assert_int_equal(mine.status, SOLVE_STATUS_MULTIPLE);
            assert_int_equal(mine.solutions, ref.solutions);
            assert_int_equal(seen.count, ref.solutions);
            assert_int_equal(seen.wrong, 0);
            assert_int_equal(test_solutions_repeated(&seen), 0);
            test_solutions_free(&seen);
            solver_close(inst);
        }
    }
    solver_close(mrv);
}

/* nodes = guesses + 1 (the puzzle, then one node per alternative entered),
 * backtracks <= nodes, steps >= nodes; a step budget stops the search at that
 * many steps with status limit. */
static void counters_and_budgets(void **state)
{
    (void) state;
    struct corpus *c = open_generated("16x16_minimal.txt");
    static struct corpus_item item;
    assert_int_equal(corpus_next(c, &item), CORPUS_PUZZLE);
    corpus_close(c);
    for (int p = 0; p < npaths; p++) {
        struct solver_instance *inst = test_open(paths[p]);
        struct solve_result res;
        test_solve(inst, &item.puzzle, 2, 0, &res);
        const struct solver_counters *k = &res.counters;
        assert_int_equal(k->nodes, k->guesses + 1);
        assert_true(k->backtracks <= k->nodes);
        assert_true(k->steps >= k->nodes);
        assert_true(k->nodes > 1); /* a minimal 16x16 puzzle needs guessing */
        const uint64_t budget = k->steps / 2;
        test_solve(inst, &item.puzzle, 2, budget, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
        assert_int_equal(res.counters.steps, budget);
        solver_close(inst);
    }
}

/* --- paths --- */

static bool available(const char *name)
{
    char why[160];
    return solver_available(solver_find(name), why, sizeof(why));
}

static void isa_paths(void **state)
{
    (void) state;
    assert_null(wide_isa_path(solver_find("mrv")));
    const char *best = wide_isa_path(solver_find("wide"));
    assert_non_null(best);
    assert_string_equal(wide_isa_path(solver_find("wide_portable")), "portable");
    const bool avx2 = available("wide_avx2"), avx512 = available("wide_avx512");
    assert_string_equal(best, avx512 ? "avx512" : avx2 ? "avx2" : "portable");
    setenv("SUDOLAB_MAX_SIMD", "portable", 1);
    assert_string_equal(wide_isa_path(solver_find("wide")), "portable");
    assert_false(available("wide_avx2"));
    assert_false(available("wide_avx512"));
    if (avx2) {
        assert_string_equal(wide_isa_path(solver_find("wide_avx2")), "unavailable");
        char why[160];
        struct grid g;
        assert_int_equal(grid_init(&g, 4, 4, GRID_STANDARD), 0);
        assert_false(solver_supports(solver_find("wide_avx2"), &g, why, sizeof(why)));
        assert_non_null(strstr(why, "SUDOLAB_MAX_SIMD=portable"));
    }
    unsetenv("SUDOLAB_MAX_SIMD");
    assert_true(available("wide_portable"));
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(generated_corpora_unique),
        cmocka_unit_test(kernels_agree_with_mrv),
        cmocka_unit_test(full_counts),
        cmocka_unit_test(counters_and_budgets),
        cmocka_unit_test(isa_paths),
    };
    static const struct CMUnitTest corpus_tests[] = {
        cmocka_unit_test(generated_corpora_whole),
    };
    const struct test_group plain = { "wide", tests, TEST_COUNT(tests), setup, NULL };
    const struct test_group whole
        = { "wide corpora", corpus_tests, TEST_COUNT(corpus_tests), setup, NULL };
    return test_main(argc, argv, &plain, &whole);
}
