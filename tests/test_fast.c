/* The bitboard back end `fast` (solvers/fast.c) and its instruction-set paths:
 *
 *  - every path this machine runs (fast, fast_portable, fast_avx2,
 *    fast_avx512, from the registry) gives the same answers and the same
 *    counters, step for step, on seeded random isomorphs of the first puzzles
 *    of each shared corpus (one search, three vector widths: a difference is
 *    a bug in a path);
 *  - puzzles with no solution: a unique puzzle plus one clue that differs
 *    from its solution without breaking a rule (the new puzzle's solutions are
 *    among the old one's, so there are none);
 *  - puzzles with several: a 17-clue puzzle less one clue (no 16-clue puzzle
 *    has a unique solution, McGuire et al. 2012), and the serg corpus, whose
 *    full counts must match another back end's (dlx);
 *  - first-solution mode, step budgets and deadlines, the counters' own
 *    invariants, and the shapes it declines;
 *  - a forced path the CPU lacks is unavailable, with the reason, in
 *    solver_supports, solver_run and `sudolab list`, and never runs another
 *    path under its name (SUDOLAB_MAX_SIMD stands in for a narrower CPU).
 * The corpus tests need SUDOLAB_DATASETS (datasets/public): they are the --corpora group
 * (tests/test_util.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_csv.h"
#include "common/corpus.h"
#include "common/rng.h"
#include "common/symmetry.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

/* The registrations of the back end: `fast`, then the forced paths
 * (fast_portable, fast_avx2, fast_avx512...) this machine can run, from the
 * registry. */
enum { MAX_PATHS = 8 };
static const char *paths[MAX_PATHS];
static int npaths;

/* A 17-clue puzzle (the first of Royle's list, as in tdoku's
 * puzzles2_17_clue); unique, like test_royle. */
static const char clue17[]
    = ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

static uint64_t seed;

static int setup(void **state)
{
    (void) state;
    seed = test_seed("fast", 0);
    npaths = 0;
    for (size_t i = 0; solver_registry[i]; i++) {
        const char *name = solver_registry[i]->name;
        if ((strcmp(name, "fast") == 0 || strncmp(name, "fast_", 5) == 0)
            && test_available(solver_registry[i], "not tested") && npaths < MAX_PATHS)
            paths[npaths++] = name;
    }
    /* `fast` itself always runs (the portable path at worst), and comes first */
    return npaths >= 2 && strcmp(paths[0], "fast") == 0 ? 0 : -1;
}

static const struct {
    const char *file;
    int head;
    uint64_t limit;
} heads[] = {
    { "puzzles2_17_clue", 300, 2 },
    { "puzzles3_magictour_top1465", 150, 2 },
    { "puzzles5_forum_hardest_1905_11+", 60, 2 },
    { "puzzles6_forum_hardest_1106", 30, 2 },
    { "puzzles7_serg_benchmark", 150, 2 },
    { "puzzles3_magictour_top1465", 60, 1 },
};

/* All paths agree on everything: status, count, solution and counters. */
static void paths_agree(void **state)
{
    (void) state;
    struct solver_instance *inst[MAX_PATHS];
    for (int p = 0; p < npaths; p++)
        inst[p] = test_open(paths[p]);
    struct rng rng;
    rng_seed(&rng, seed);
    int compared = 0, opened = 0;
    for (size_t h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
        struct corpus *c = test_open_shared(heads[h].file);
        if (!c)
            continue;
        opened++;
        static struct corpus_item item;
        for (int k = 0; k < heads[h].head && corpus_next(c, &item) == CORPUS_PUZZLE;
             k++) {
            struct symmetry sym;
            struct grid iso;
            symmetry_random(&sym, &item.puzzle, &rng);
            symmetry_apply(&sym, &item.puzzle, &iso);
            struct solve_result ref, res;
            test_solve(inst[0], &iso, heads[h].limit, 0, &ref);
            assert_true(ref.status == SOLVE_STATUS_UNIQUE
                || ref.status == SOLVE_STATUS_MULTIPLE
                || ref.status == SOLVE_STATUS_SOLVED);
            for (int p = 1; p < npaths; p++) {
                test_solve(inst[p], &iso, heads[h].limit, 0, &res);
                if (res.status != ref.status || res.solutions != ref.solutions
                    || memcmp(&res.counters, &ref.counters, sizeof(ref.counters)) != 0
                    || memcmp(res.solution.cell, ref.solution.cell, 81) != 0) {
                    char line[82];
                    grid_format_line(&iso, line);
                    print_error("%s and %s differ on %s (%s:%lu, seed %llu)\n", paths[0],
                        paths[p], line, heads[h].file, item.line,
                        (unsigned long long) seed);
                    fail();
                }
            }
            compared++;
        }
        corpus_close(c);
    }
    for (int p = 0; p < npaths; p++)
        solver_close(inst[p]);
    if (opened == 0)
        test_skip("paths_agree: none of its corpora is in %s", test_shared_dir());
    printf("# %d isomorphs compared across %d paths\n", compared, npaths);
}

/* A unique puzzle plus a wrong clue that breaks no rule has no solution. */
static void wrong_clue_unsolvable(void **state)
{
    (void) state;
    const char *const texts[] = { test_royle, clue17 };
    struct rng rng;
    rng_seed(&rng, seed + 1);
    for (int p = 0; p < npaths; p++) {
        struct solver_instance *inst = test_open(paths[p]);
        for (int t = 0; t < 2; t++) {
            struct grid g;
            test_parse(&g, texts[t], GRID_STANDARD);
            struct solve_result res;
            test_solve(inst, &g, 2, 0, &res);
            assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
            const struct grid solution = res.solution;
            int made = 0;
            for (int tries = 0; made < 20 && tries < 10000; tries++) {
                const int cell = (int) rng_below(&rng, 81);
                const int v = 1 + (int) rng_below(&rng, 9);
                if (g.cell[cell] || solution.cell[cell] == v)
                    continue;
                struct grid bad = g;
                bad.cell[cell] = (uint8_t) v;
                if (grid_find_conflict(&bad, NULL, 0))
                    continue;
                test_solve(inst, &bad, 2, 0, &res);
                assert_int_equal(res.status, SOLVE_STATUS_UNSOLVABLE);
                assert_int_equal(res.solutions, 0);
                assert_true(res.counters.backtracks >= 1);
                made++;
            }
            assert_int_equal(made, 20);
        }
        solver_close(inst);
    }
}

/* A 17-clue puzzle less any one clue has two or more solutions; each one
 * returned keeps the remaining clues (solver_run checks it). */
static void sixteen_clues_multiple(void **state)
{
    (void) state;
    for (int p = 0; p < npaths; p++) {
        struct solver_instance *inst = test_open(paths[p]);
        struct grid g;
        test_parse(&g, clue17, GRID_STANDARD);
        int removed = 0;
        for (int cell = 0; cell < 81; cell++) {
            if (!g.cell[cell])
                continue;
            struct grid less = g;
            less.cell[cell] = 0;
            struct solve_result res;
            test_solve(inst, &less, 2, 0, &res);
            assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);
            assert_int_equal(res.solutions, 2);
            test_solve(inst, &less, 1, 0, &res);
            assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
            removed++;
        }
        assert_int_equal(removed, 17);
        solver_close(inst);
    }
}

struct collect {
    int n;
    int bad;
    struct grid seen[64];
};

static bool collect_solution(void *ctx, const struct grid *solution)
{
    struct collect *c = ctx;
    for (int i = 0; i < c->n && i < 64; i++) {
        if (memcmp(c->seen[i].cell, solution->cell, 81) == 0)
            c->bad++;
    }
    if (c->n < 64)
        c->seen[c->n] = *solution;
    c->n++;
    return true;
}

/* Full counts (limit 0) on serg's multi-solution puzzles match dlx's, and the
 * solutions handed to on_solution are distinct and valid. */
static void serg_counts_match_dlx(void **state)
{
    (void) state;
    struct corpus *c = test_open_shared("puzzles7_serg_benchmark");
    if (!c)
        test_skip("serg_counts_match_dlx: no serg corpus in %s", test_shared_dir());
    struct solver_instance *ref = test_open("dlx");
    struct solver_instance *inst[MAX_PATHS];
    for (int p = 0; p < npaths; p++)
        inst[p] = test_open(paths[p]);
    static struct corpus_item item;
    int checked = 0;
    while (checked < 25 && corpus_next(c, &item) == CORPUS_PUZZLE) {
        struct solve_result want, res;
        test_solve(ref, &item.puzzle, 0, 0, &want);
        assert_int_equal(want.status, SOLVE_STATUS_MULTIPLE);
        if (want.solutions > 64)
            continue;
        for (int p = 0; p < npaths; p++) {
            test_solve(inst[p], &item.puzzle, 0, 0, &res);
            assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE);
            assert_int_equal(res.solutions, want.solutions);
        }
        struct collect col = { 0 };
        const struct solve_request req
            = { .limit = 0, .on_solution = collect_solution, .ctx = &col };
        solver_run(inst[0], &item.puzzle, &req, &res);
        assert_int_equal(col.n, (int) want.solutions);
        assert_int_equal(col.bad, 0);
        for (int i = 0; i < col.n; i++)
            test_assert_solution(&item.puzzle, &col.seen[i], paths[0]);
        checked++;
    }
    corpus_close(c);
    solver_close(ref);
    for (int p = 0; p < npaths; p++)
        solver_close(inst[p]);
    assert_true(checked > 0);
}

/* Whether some collected solution has v at cell. */
static bool some_solution_has(const struct collect *col, int cell, int v)
{
    for (int i = 0; i < col->n && i < 64; i++) {
        if (col->seen[i].cell[cell] == v)
            return true;
    }
    return false;
}

/* Dense puzzles (32 givens or more) search their own way until their first
 * dead ends (FAST_DENSE_EMPTY in fast.c): serg's puzzles plus one clue that
 * breaks no rule have full counts equal to dlx's on every path, both with a
 * wrong clue (no solution has it: none left, found after dead ends) and with
 * a right one. */
static void dense_clue_added_counts_match_dlx(void **state)
{
    (void) state;
    struct corpus *c = test_open_shared("puzzles7_serg_benchmark");
    if (!c)
        test_skip(
            "dense_clue_added_counts_match_dlx: no serg corpus in %s", test_shared_dir());
    struct solver_instance *ref = test_open("dlx");
    struct solver_instance *inst[MAX_PATHS];
    for (int p = 0; p < npaths; p++)
        inst[p] = test_open(paths[p]);
    struct rng rng;
    rng_seed(&rng, seed + 2);
    static struct corpus_item item;
    static struct collect col;
    int wrong = 0, right = 0;
    for (int k = 0;
         k < 150 && wrong + right < 48 && corpus_next(c, &item) == CORPUS_PUZZLE; k++) {
        col = (struct collect) { 0 };
        struct solve_result want, res;
        const struct solve_request all
            = { .limit = 0, .on_solution = collect_solution, .ctx = &col };
        solver_run(ref, &item.puzzle, &all, &want);
        if (col.n > 64)
            continue;
        for (int made = 0, tries = 0; made < 4 && tries < 10000; tries++) {
            const int cell = (int) rng_below(&rng, 81);
            const int v = 1 + (int) rng_below(&rng, 9);
            struct grid g = item.puzzle;
            /* two right clues, then two wrong ones */
            if (g.cell[cell] || some_solution_has(&col, cell, v) != (made < 2))
                continue;
            g.cell[cell] = (uint8_t) v;
            if (grid_find_conflict(&g, NULL, 0))
                continue;
            test_solve(ref, &g, 0, 0, &want);
            assert_true((want.solutions > 0) == (made < 2));
            for (int p = 0; p < npaths; p++) {
                test_solve(inst[p], &g, 0, 0, &res);
                assert_int_equal(res.status, want.status);
                assert_int_equal(res.solutions, want.solutions);
            }
            made++;
            right += made <= 2;
            wrong += made > 2;
        }
    }
    corpus_close(c);
    solver_close(ref);
    for (int p = 0; p < npaths; p++)
        solver_close(inst[p]);
    assert_true(wrong > 0 && right > 0);
    printf("# %d dense puzzles counted, %d with a wrong clue\n", wrong + right, wrong);
}

/* Sparse puzzles (fewer than 17 givens) branch their own way
 * (FAST_SPARSE_GIVENS in fast.c): 17-clue puzzles less a random clue have the
 * counts of dlx on every path up to a limit (most reach it, so the search
 * stops in mid-tree), and the solutions handed to on_solution are distinct
 * and valid. */
static void sparse_counts_match_dlx(void **state)
{
    (void) state;
    struct corpus *c = test_open_shared("puzzles2_17_clue");
    if (!c)
        test_skip("sparse_counts_match_dlx: no 17-clue corpus in %s", test_shared_dir());
    struct solver_instance *ref = test_open("dlx");
    struct solver_instance *inst[MAX_PATHS];
    for (int p = 0; p < npaths; p++)
        inst[p] = test_open(paths[p]);
    struct rng rng;
    rng_seed(&rng, seed + 3);
    static struct corpus_item item;
    static struct collect col;
    int checked = 0;
    while (checked < 40 && corpus_next(c, &item) == CORPUS_PUZZLE) {
        struct grid g = item.puzzle;
        int clues[81], n = 0;
        for (int cell = 0; cell < 81; cell++) {
            if (g.cell[cell])
                clues[n++] = cell;
        }
        g.cell[clues[rng_below(&rng, (uint64_t) n)]] = 0;
        struct solve_result want, res;
        test_solve(ref, &g, 200, 0, &want);
        assert_int_equal(want.status, SOLVE_STATUS_MULTIPLE);
        for (int p = 0; p < npaths; p++) {
            test_solve(inst[p], &g, 200, 0, &res);
            assert_int_equal(res.status, want.status);
            assert_int_equal(res.solutions, want.solutions);
        }
        col = (struct collect) { 0 };
        const struct solve_request some
            = { .limit = 64, .on_solution = collect_solution, .ctx = &col };
        solver_run(inst[0], &g, &some, &res);
        assert_int_equal(col.n, want.solutions < 64 ? (int) want.solutions : 64);
        assert_int_equal(col.bad, 0);
        for (int i = 0; i < col.n; i++)
            test_assert_solution(&g, &col.seen[i], paths[0]);
        checked++;
    }
    corpus_close(c);
    solver_close(ref);
    for (int p = 0; p < npaths; p++)
        solver_close(inst[p]);
    assert_int_equal(checked, 40);
}

/* The counters keep their documented meaning: every branch entered is a guess
 * and a node, so nodes = guesses + 1; a puzzle that singles solve needs no
 * guess; a full grid is one round. */
static void counters_invariants(void **state)
{
    (void) state;
    struct solver_instance *inst = test_open("fast");
    struct grid g;
    test_parse(&g, test_royle, GRID_STANDARD);
    struct solve_result res;
    test_solve(inst, &g, 2, 0, &res);
    assert_int_equal(res.counters.nodes, res.counters.guesses + 1);
    assert_true(res.counters.steps >= res.counters.nodes);
    const struct grid solution = res.solution;
    /* Ten blanks in a solved grid: naked singles at once. */
    struct grid easy = solution;
    for (int i = 0; i < 10; i++)
        easy.cell[i * 8] = 0;
    test_solve(inst, &easy, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    assert_int_equal(res.counters.guesses, 0);
    assert_int_equal(res.counters.nodes, 1);
    assert_int_equal(res.counters.backtracks, 0);
    assert_memory_equal(res.solution.cell, solution.cell, 81);
    test_solve(inst, &solution, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    assert_int_equal(res.counters.steps, 1);
    solver_close(inst);
}

/* A step budget stops the search with status limit and no more steps than
 * allowed; the same puzzle with room to spare is solved. */
static void budgets(void **state)
{
    (void) state;
    struct grid hard, empty;
    test_parse(&hard,
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4."
        ".",
        GRID_STANDARD);
    grid_init(&empty, 3, 3, GRID_STANDARD);
    for (int p = 0; p < npaths; p++) {
        struct solver_instance *inst = test_open(paths[p]);
        struct solve_result full, res;
        test_solve(inst, &hard, 2, 0, &full);
        assert_int_equal(full.status, SOLVE_STATUS_UNIQUE);
        assert_true(full.counters.steps > 10);
        for (uint64_t b = 1; b < full.counters.steps; b += full.counters.steps / 7 + 1) {
            test_solve(inst, &hard, 2, b, &res);
            assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
            assert_true(res.counters.steps <= b);
        }
        test_solve(inst, &hard, 2, full.counters.steps, &res);
        assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
        /* 6.67e21 solutions: only the deadline ends this */
        const struct solve_request timed
            = { .limit = 0, .deadline_ns = clock_now_ns() + 20000000u };
        solver_run(inst, &empty, &timed, &res);
        assert_int_equal(res.status, SOLVE_STATUS_LIMIT);
        assert_true(res.solutions > 0);
        solver_close(inst);
    }
}

/* 9x9 standard only: other sizes and the diagonal variant are declined. */
static void declines_other_shapes(void **state)
{
    (void) state;
    struct grid g;
    for (int p = 0; p < npaths; p++) {
        const struct solver *s = solver_find(paths[p]);
        assert_non_null(s);
        grid_init(&g, 2, 2, GRID_STANDARD);
        assert_false(solver_supports(s, &g, NULL, 0));
        grid_init(&g, 4, 4, GRID_STANDARD);
        assert_false(solver_supports(s, &g, NULL, 0));
        grid_init(&g, 3, 3, GRID_DIAGONAL);
        assert_false(solver_supports(s, &g, NULL, 0));
        grid_init(&g, 3, 3, GRID_STANDARD);
        assert_true(solver_supports(s, &g, NULL, 0));
    }
}

/* --- forced paths the CPU lacks (SUDOLAB_MAX_SIMD stands in for a narrower
 * CPU: it lowers the widest path allowed, never raises it) --- */

static int clear_max_simd(void **state)
{
    (void) state;
    unsetenv("SUDOLAB_MAX_SIMD");
    return 0;
}

static const struct solver *find(const char *name)
{
    const struct solver *s = solver_find(name);
    if (!s)
        fail_msg("%s is not registered", name);
    return s;
}

static bool available(const char *name, char *why, size_t whylen)
{
    return solver_available(find(name), why, whylen);
}

static void assert_mentions(const char *text, const char *part)
{
    assert_non_null(text);
    assert_non_null(part);
    if (!strstr(text, part))
        fail_msg("\"%s\" does not mention \"%s\"", text, part);
}

/* An unavailable path declines puzzles with its reason; solver_run never runs
 * another path under its name. */
static void assert_declined(const char *name, const char *reason)
{
    struct grid g;
    test_parse(&g, test_royle, GRID_STANDARD);
    char why[200];
    assert_false(solver_supports(find(name), &g, why, sizeof(why)));
    assert_mentions(why, name);
    assert_mentions(why, "unavailable");
    assert_mentions(why, reason);
    struct solver_instance *inst = test_open(name);
    struct solve_result res;
    test_solve(inst, &g, 2, 0, &res);
    solver_close(inst);
    assert_int_equal(res.status, SOLVE_STATUS_ERROR);
    assert_int_equal(res.solutions, 0);
    assert_mentions(res.error, reason);
}

/* `fast` solves whatever the cap, on the widest path allowed. */
static void assert_fast_solves(void)
{
    struct grid g;
    test_parse(&g, test_royle, GRID_STANDARD);
    struct solver_instance *inst = test_open("fast");
    struct solve_result res;
    test_solve(inst, &g, 2, 0, &res);
    solver_close(inst);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
}

static void forced_paths_need_their_instructions(void **state)
{
    (void) state;
    char why[200];
    unsetenv("SUDOLAB_MAX_SIMD");
    assert_true(available("fast", why, sizeof(why)));
    assert_true(available("fast_portable", why, sizeof(why)));
    const bool has_avx2 = available("fast_avx2", why, sizeof(why));
    const bool has_avx512 = available("fast_avx512", why, sizeof(why));
    printf("# this machine runs: portable%s%s\n", has_avx2 ? ", avx2" : "",
        has_avx512 ? ", avx512" : "");
    assert_true(has_avx2 || !has_avx512); /* the 512-bit path uses AVX2 too */
    /* the cap never adds what the CPU lacks */
    setenv("SUDOLAB_MAX_SIMD", "avx512", 1);
    assert_int_equal(available("fast_avx2", why, sizeof(why)), has_avx2);
    assert_int_equal(available("fast_avx512", why, sizeof(why)), has_avx512);
    /* at most AVX2: the 512-bit path goes, the others stay */
    setenv("SUDOLAB_MAX_SIMD", "avx2", 1);
    assert_false(available("fast_avx512", why, sizeof(why)));
    assert_mentions(why, "AVX-512");
    assert_mentions(why, has_avx512 ? "SUDOLAB_MAX_SIMD=avx2" : "lacks");
    assert_declined("fast_avx512", "AVX-512");
    assert_int_equal(available("fast_avx2", why, sizeof(why)), has_avx2);
    assert_true(available("fast", why, sizeof(why)));
    assert_true(available("fast_portable", why, sizeof(why)));
    assert_fast_solves();
    /* portable only */
    setenv("SUDOLAB_MAX_SIMD", "portable", 1);
    assert_false(available("fast_avx2", why, sizeof(why)));
    assert_mentions(why, "AVX2");
    assert_declined("fast_avx2", "AVX2");
    assert_declined("fast_avx512", "AVX-512");
    assert_true(available("fast_portable", why, sizeof(why)));
    assert_fast_solves();
    /* a value naming no path is an error for every registration */
    setenv("SUDOLAB_MAX_SIMD", "avx9000", 1);
    assert_false(available("fast", why, sizeof(why)));
    assert_mentions(why, "SUDOLAB_MAX_SIMD=avx9000");
    assert_declined("fast", "SUDOLAB_MAX_SIMD=avx9000");
    assert_declined("fast_portable", "SUDOLAB_MAX_SIMD=avx9000");
}

/* An instance opened while its path was unavailable stays unable to run it,
 * even when the cap is lifted afterwards: it reports an error, it does not
 * run another path. */
static void opened_unavailable_stays_unavailable(void **state)
{
    (void) state;
    setenv("SUDOLAB_MAX_SIMD", "portable", 1);
    struct solver_instance *inst = test_open("fast_avx2");
    unsetenv("SUDOLAB_MAX_SIMD");
    if (!available("fast_avx2", NULL, 0)) {
        solver_close(inst);
        test_skip("this CPU lacks AVX2: fast_avx2 is never available here");
    }
    struct grid g;
    test_parse(&g, test_royle, GRID_STANDARD);
    struct solve_result res;
    test_solve(inst, &g, 2, 0, &res);
    solver_close(inst);
    assert_int_equal(res.status, SOLVE_STATUS_ERROR);
    assert_mentions(res.error, "unavailable");
}

/* The lines of `[SUDOLAB_MAX_SIMD=cap] sudolab list [--csv]`. */
static int list_lines(const char *cap, bool csv, char lines[][512], int max)
{
    if (cap)
        setenv("SUDOLAB_MAX_SIMD", cap, 1);
    else
        unsetenv("SUDOLAB_MAX_SIMD");
    FILE *p = test_sudolab(csv ? "list --csv" : "list");
    if (!p)
        test_skip("SUDOLAB_BIN is not set: `sudolab list` is not tested");
    int n = 0;
    while (n < max && fgets(lines[n], 512, p))
        n++;
    assert_int_equal(pclose(p), 0);
    return n;
}

/* The line of an available back end keeps the format `list` had before
 * availability: name in 14 columns then the family, sizes, capabilities and
 * summary (text); in CSV, seven fields by RFC 4180 whatever the capabilities
 * and summary hold (commas), each the back end's own. */
static void assert_list_line(const char *line, const struct solver *s, bool csv)
{
    if (csv) {
        char copy[512], *f[8];
        snprintf(copy, sizeof(copy), "%s", line);
        copy[strcspn(copy, "\n")] = '\0';
        const int n = bench_csv_split(copy, f, 8);
        if (n != 7)
            fail_msg("list --csv line \"%s\" has %d fields, not 7", line, n);
        char sizes[32];
        snprintf(sizes, sizeof(sizes), "%d,%d", s->min_n, s->max_n);
        char got[32];
        snprintf(got, sizeof(got), "%s,%s", f[2], f[3]);
        assert_string_equal(f[0], s->name);
        assert_string_equal(f[1], s->family);
        assert_string_equal(got, sizes);
        assert_string_equal(f[6], s->summary);
        /* the capabilities, one field, comma-separated; count among them
           exactly when the back end counts */
        assert_int_equal(
            strstr(f[4], "count") != NULL, (s->caps & SOLVER_CAP_COUNT) != 0);
        return;
    }
    char head[128], tail[300];
    snprintf(
        head, sizeof(head), "%-14s %-10s %d-%d ", s->name, s->family, s->min_n, s->max_n);
    snprintf(tail, sizeof(tail), " %s\n", s->summary);
    const size_t len = strlen(line), tlen = strlen(tail);
    if (strncmp(line, head, strlen(head)) != 0 || len < tlen
        || strcmp(line + len - tlen, tail) != 0)
        fail_msg("list line \"%s\" is not \"%s...%s\"", line, head, tail);
}

/* `sudolab list` marks an unavailable path, with the reason, before its
 * summary; every other line, and the columns of that one, stay as they
 * were. */
static void list_shows_unavailable_paths(void **state)
{
    (void) state;
    static char plain[64][512], capped[64][512];
    for (int csv = 0; csv < 2; csv++) {
        const int n = list_lines(NULL, csv, plain, 64);
        assert_int_equal(list_lines("portable", csv, capped, 64), n);
        assert_int_equal(n, (int) solver_count() + 1); /* a header, a line each */
        assert_string_equal(plain[0],
            csv ? "name,family,min_n,max_n,caps,counters,summary\n"
                : "name           family     sizes  capabilities                         "
                  "  "
                  "summary\n");
        for (int i = 1; i < n; i++)
            assert_list_line(plain[i], solver_registry[i - 1], csv);
        int marked = 0;
        for (int i = 0; i < n; i++) {
            if (strcmp(plain[i], capped[i]) == 0)
                continue;
            /* "fast_avx2 ... <summary>" became "fast_avx2 ... unavailable (...):
             * <summary>" */
            const char *summary = i > 0 ? solver_registry[i - 1]->summary : "";
            const char *at = strstr(plain[i], summary);
            assert_non_null(at);
            const size_t head = (size_t) (at - plain[i]);
            assert_memory_equal(plain[i], capped[i], head);
            assert_mentions(
                capped[i] + head, "unavailable (SUDOLAB_MAX_SIMD=portable rules out ");
            assert_mentions(capped[i] + head, summary);
            assert_true(strncmp(solver_registry[i - 1]->name, "fast_", 5) == 0
                || strncmp(solver_registry[i - 1]->name, "wide_", 5) == 0);
            marked++;
        }
        /* the forced paths wider than portable that this CPU runs */
        unsetenv("SUDOLAB_MAX_SIMD");
        const int wider = available("fast_avx2", NULL, 0)
            + available("fast_avx512", NULL, 0) + available("wide_avx2", NULL, 0)
            + available("wide_avx512", NULL, 0);
        assert_int_equal(marked, wider);
    }
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(wrong_clue_unsolvable),
        cmocka_unit_test(sixteen_clues_multiple),
        cmocka_unit_test(counters_invariants),
        cmocka_unit_test(budgets),
        cmocka_unit_test(declines_other_shapes),
        cmocka_unit_test_teardown(forced_paths_need_their_instructions, clear_max_simd),
        cmocka_unit_test_teardown(opened_unavailable_stays_unavailable, clear_max_simd),
        cmocka_unit_test_teardown(list_shows_unavailable_paths, clear_max_simd),
    };
    static const struct CMUnitTest corpus_tests[] = {
        cmocka_unit_test(paths_agree),
        cmocka_unit_test(serg_counts_match_dlx),
        cmocka_unit_test(dense_clue_added_counts_match_dlx),
        cmocka_unit_test(sparse_counts_match_dlx),
    };
    const struct test_group plain = { "fast", tests, TEST_COUNT(tests), setup, NULL };
    const struct test_group corpora
        = { "fast corpora", corpus_tests, TEST_COUNT(corpus_tests), setup, NULL };
    return test_main(argc, argv, &plain, &corpora);
}
