/* The generator (puzzle/generate.h): reproducible output, unique puzzles
 * checked by a back end other than the generating one, hole and clue counts,
 * symmetry, minimality, and the technique and SE filters against an
 * independent singles grader and serate's ratings. The raters are tested in
 * test_rate.c, the logic solver in test_logic.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "puzzle/generate.h"
#include "puzzle/logic.h"
#include "puzzle/rate.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

/* A back end to check with that is neither of the generator's: the thesis's
 * naive search where it is quick (up to 6x6), else the first other one of
 * the registry that counts and handles the shape. */
static const struct solver *independent_checker(
    const struct generator *gen, const struct grid *shape)
{
    const struct gen_options *o = gen_options(gen);
    char why[160];
    const struct solver *naive = solver_find("naive");
    if (shape->n <= 6 && naive != o->solver && naive != o->verifier)
        return naive;
    const struct solver *fallback = NULL;
    for (size_t i = 0; solver_registry[i]; i++) {
        const struct solver *s = solver_registry[i];
        if (s == o->solver || !(s->caps & SOLVER_CAP_COUNT)
            || !solver_supports(s, shape, why, sizeof(why)))
            continue;
        if (s != o->verifier && (s->caps & SOLVER_CAP_FAST))
            return s;
        if (!fallback && (s->caps & SOLVER_CAP_FAST))
            fallback = s;
    }
    return fallback ? fallback : naive;
}

static uint64_t count_to_two(const struct solver *s, const struct grid *p)
{
    struct solver_instance *inst = solver_open(s);
    assert_non_null(inst);
    const struct solve_request req = { .limit = 2 };
    struct solve_result res;
    solver_run(inst, p, &req, &res);
    solver_close(inst);
    assert_true(res.status == SOLVE_STATUS_UNIQUE || res.status == SOLVE_STATUS_MULTIPLE);
    return res.solutions;
}

static struct gen_options options(
    int br, int bc, enum gen_method m, enum gen_level level, uint64_t seed)
{
    struct gen_options o;
    memset(&o, 0, sizeof(o));
    o.box_rows = br;
    o.box_cols = bc;
    o.method = m;
    o.level = level;
    o.seed = seed;
    return o;
}

static int holes_of(const struct grid *g)
{
    return g->ncells - grid_count_clues(g);
}

/* The checks every generated puzzle must pass: clues taken from the
 * solution, the solution valid, and exactly one solution by another back end. */
static void check_puzzle(
    const struct generator *gen, const struct grid *p, const struct grid *solution)
{
    test_assert_solution(p, solution, "the generator");
    const struct solver *s = independent_checker(gen, p);
    assert_non_null(s);
    assert_ptr_not_equal(s, gen_options(gen)->solver);
    assert_int_equal(count_to_two(s, p), 1);
}

static void make(const struct gen_options *o, int count, struct grid *puzzles,
    struct grid *solutions, bool check)
{
    char why[200];
    struct generator *gen = gen_open(o, why, sizeof(why));
    if (!gen)
        fail_msg("gen_open: %s", why);
    for (int i = 0; i < count; i++) {
        if (gen_make(gen, (uint64_t) i, &puzzles[i], &solutions[i]) != 0)
            fail_msg("gen_make: %s", gen_error(gen));
        if (check)
            check_puzzle(gen, &puzzles[i], &solutions[i]);
    }
    gen_close(gen);
}

/* --- reproducibility --- */

static void same_seed_same_puzzles(void **state)
{
    (void) state;
    enum { COUNT = 4 };
    struct grid a[COUNT], b[COUNT], sa[COUNT], sb[COUNT];
    for (int m = 0; m < 2; m++) {
        const struct gen_options o = options(3, 3, (enum gen_method) m, GEN_HARD, 42);
        make(&o, COUNT, a, sa, false);
        make(&o, COUNT, b, sb, false);
        for (int i = 0; i < COUNT; i++) {
            assert_memory_equal(a[i].cell, b[i].cell, 81);
            assert_memory_equal(sa[i].cell, sb[i].cell, 81);
        }
        /* another seed, other puzzles */
        const struct gen_options o2 = options(3, 3, (enum gen_method) m, GEN_HARD, 43);
        make(&o2, COUNT, b, sb, false);
        int differ = 0;
        for (int i = 0; i < COUNT; i++)
            differ += memcmp(a[i].cell, b[i].cell, 81) != 0;
        assert_int_equal(differ, COUNT);
    }
}

/* Puzzle i depends on the seed and i only: made alone, it is the same. */
static void puzzle_depends_on_index_only(void **state)
{
    (void) state;
    const struct gen_options o = options(3, 3, GEN_DIG, GEN_MEDIUM, 7);
    struct grid seq[4], sol[4], alone, alone_sol;
    make(&o, 4, seq, sol, false);
    char why[200];
    struct generator *gen = gen_open(&o, why, sizeof(why));
    assert_non_null(gen);
    assert_int_equal(gen_make(gen, 3, &alone, &alone_sol), 0);
    gen_close(gen);
    assert_memory_equal(alone.cell, seq[3].cell, 81);
}

/* The whole output, header included, of one command line. */
static size_t cli_output(const char *args, char *out, size_t len)
{
    FILE *f = test_sudolab(args);
    assert_non_null(f);
    const size_t n = fread(out, 1, len - 1, f);
    out[n] = '\0';
    assert_int_equal(pclose(f), 0);
    return n;
}

/* -j N writes the bytes -j 1 writes, and shards put together make the run. */
static void cli_threads_and_shards(void **state)
{
    (void) state;
    if (!getenv("SUDOLAB_BIN"))
        test_skip("SUDOLAB_BIN is not set: generate's command line is not tested");
    static char one[65536], three[65536], part1[65536], part2[65536];
    const char *base = "generate --seed 9 --count 40 --difficulty medium --rate all";
    char args[512];
    snprintf(args, sizeof(args), "%s -j 1", base);
    const size_t n1 = cli_output(args, one, sizeof(one));
    snprintf(args, sizeof(args), "%s -j 3", base);
    cli_output(args, three, sizeof(three));
    assert_true(n1 > 40 * 82);
    assert_string_equal(one, three);
    assert_non_null(strstr(one, "seed=9"));
    snprintf(args, sizeof(args), "%s --shard 1/2", base);
    cli_output(args, part1, sizeof(part1));
    snprintf(args, sizeof(args), "%s --shard 2/2", base);
    cli_output(args, part2, sizeof(part2));
    /* drop the header lines, then the shards back to back are the body */
    const char *body = strchr(one, '\n') + 1;
    const char *b1 = strchr(part1, '\n') + 1, *b2 = strchr(part2, '\n') + 1;
    assert_int_equal(strlen(b1) + strlen(b2), strlen(body));
    assert_memory_equal(body, b1, strlen(b1));
    assert_string_equal(body + strlen(b1), b2);
}

/* --- levels, uniqueness, patterns --- */

static void dig_hole_counts(void **state)
{
    (void) state;
    /* 9x9: the thesis's 40 holes and its web appendix's 40/50/60 */
    const int thesis[GEN_LEVEL_COUNT] = { 40, 50, 60 };
    const int shapes[][3] = { { 2, 2, GRID_STANDARD }, { 2, 3, GRID_STANDARD },
        { 3, 3, GRID_STANDARD }, { 3, 3, GRID_DIAGONAL } };
    for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
        for (int level = 0; level < GEN_LEVEL_COUNT; level++) {
            struct gen_options o = options(
                shapes[s][0], shapes[s][1], GEN_DIG, (enum gen_level) level, 100 + s);
            o.variant = shapes[s][2];
            int lo, hi;
            gen_target(&o, &lo, &hi);
            assert_int_equal(lo, hi);
            if (shapes[s][0] == 3)
                assert_int_equal(lo, thesis[level]);
            struct grid p[3], sol[3];
            make(&o, 3, p, sol, true);
            for (int i = 0; i < 3; i++) {
                assert_int_equal(holes_of(&p[i]), lo);
                assert_int_equal(p[i].variant, shapes[s][2]);
            }
        }
    }
    /* --holes overrides the level */
    struct gen_options o = options(3, 3, GEN_DIG, GEN_EASY, 5);
    o.holes = 55;
    struct grid p[2], sol[2];
    make(&o, 2, p, sol, true);
    assert_int_equal(holes_of(&p[0]), 55);
    assert_int_equal(holes_of(&p[1]), 55);
}

static void seed003_clue_ranges(void **state)
{
    (void) state;
    /* seed 003's ranges (its comments; SPEC section 5) */
    const int ranges[GEN_LEVEL_COUNT][2] = { { 36, 45 }, { 27, 36 }, { 17, 27 } };
    for (int n = 0; n < 2; n++) {
        for (int level = 0; level < GEN_LEVEL_COUNT; level++) {
            const struct gen_options o
                = options(n ? 3 : 2, 3, GEN_SEED003, (enum gen_level) level, 200 + level);
            int lo, hi;
            gen_target(&o, &lo, &hi);
            if (n) {
                assert_int_equal(lo, ranges[level][0]);
                assert_int_equal(hi, ranges[level][1]);
            }
            struct grid p[4], sol[4];
            make(&o, 4, p, sol, true);
            for (int i = 0; i < 4; i++) {
                const int clues = grid_count_clues(&p[i]);
                assert_in_range(clues, lo, hi);
            }
        }
    }
}

static void assert_symmetric(const struct grid *p)
{
    for (int c = 0; c < p->ncells; c++)
        assert_int_equal(p->cell[c] == 0, p->cell[p->ncells - 1 - c] == 0);
}

/* dig's hard level with symmetry (21 clues in mirrored pairs) takes seconds
 * per puzzle: left to the benchmarks. */
static void symmetric_patterns(void **state)
{
    (void) state;
    for (int m = 0; m < 2; m++) {
        for (int level = 0; level < GEN_LEVEL_COUNT; level++) {
            if (m == GEN_DIG && level == GEN_HARD)
                continue;
            struct gen_options o
                = options(3, 3, (enum gen_method) m, (enum gen_level) level, 300 + level);
            o.symmetric = true;
            struct grid p[3], sol[3];
            make(&o, 3, p, sol, true);
            for (int i = 0; i < 3; i++)
                assert_symmetric(&p[i]);
        }
    }
}

/* No single clue can go: each removal lets a second solution in. */
static void assert_minimal(const struct solver *s, const struct grid *p)
{
    for (int c = 0; c < p->ncells; c++) {
        if (!p->cell[c])
            continue;
        struct grid q = *p;
        q.cell[c] = 0;
        assert_int_equal(count_to_two(s, &q), 2);
    }
}

static void minimal_puzzles(void **state)
{
    (void) state;
    const struct {
        int br, bc, method;
        bool symmetric;
    } cases[] = {
        { 3, 3, GEN_DIG, false },
        { 3, 3, GEN_DIG, true },
        { 2, 3, GEN_DIG, true },
        { 3, 3, GEN_SEED003, false },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct gen_options o = options(cases[k].br, cases[k].bc,
            (enum gen_method) cases[k].method, GEN_HARD, 400 + k);
        o.minimal = true;
        o.symmetric = cases[k].symmetric;
        if (o.method == GEN_DIG)
            o.holes = 1; /* at least one hole: as many as minimality gives */
        char why[200];
        struct generator *gen = gen_open(&o, why, sizeof(why));
        assert_non_null(gen);
        for (int i = 0; i < 3; i++) {
            struct grid p, sol;
            if (gen_make(gen, (uint64_t) i, &p, &sol) != 0)
                fail_msg("gen_make: %s", gen_error(gen));
            check_puzzle(gen, &p, &sol);
            if (o.symmetric)
                assert_symmetric(&p);
            assert_minimal(independent_checker(gen, &p), &p);
        }
        gen_close(gen);
    }
}

static void larger_grid(void **state)
{
    (void) state;
    const struct gen_options o = options(4, 4, GEN_DIG, GEN_EASY, 500);
    int lo, hi;
    gen_target(&o, &lo, &hi);
    struct grid p, sol;
    make(&o, 1, &p, &sol, true);
    assert_int_equal(holes_of(&p), lo);
}

/* --- the filters, graded independently --- */

/* A grader that shares nothing with the generator: naked and hidden singles
 * on a 9x9, each round from the grid's values alone, until none is left.
 * Whether they fill the grid (false too when a cell has no value left). */
static bool singles_solve(const struct grid *p)
{
    uint8_t v[81];
    for (int c = 0; c < 81; c++)
        v[c] = p->cell[c];
    for (bool progress = true; progress;) {
        progress = false;
        int free_of[81]; /* bit d: value d fits the cell */
        for (int c = 0; c < 81; c++) {
            free_of[c] = 0;
            if (v[c])
                continue;
            for (int d = 1; d <= 9; d++) {
                bool seen = false;
                for (int o = 0; o < 81 && !seen; o++)
                    seen = v[o] == d
                        && (o / 9 == c / 9 || o % 9 == c % 9
                            || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3));
                if (!seen)
                    free_of[c] |= 1 << d;
            }
            if (!free_of[c])
                return false;
            if ((free_of[c] & (free_of[c] - 1)) == 0) { /* naked single */
                for (int d = 1; d <= 9; d++)
                    if (free_of[c] == 1 << d)
                        v[c] = (uint8_t) d;
                progress = true;
            }
        }
        if (progress)
            continue;
        for (int u = 0; u < 27; u++) /* rows, columns, boxes */
            for (int d = 1; d <= 9; d++) {
                int places = 0, at = -1;
                for (int i = 0; i < 9; i++) {
                    const int c = u < 9 ? u * 9 + i
                        : u < 18
                        ? i * 9 + (u - 9)
                        : ((u - 18) / 3 * 3 + i / 3) * 9 + (u - 18) % 3 * 3 + i % 3;
                    if (free_of[c] & (1 << d))
                        places++, at = c;
                }
                if (places == 1 && !v[at]) { /* hidden single */
                    v[at] = (uint8_t) d;
                    progress = true;
                }
            }
    }
    for (int c = 0; c < 81; c++)
        if (!v[c])
            return false;
    return true;
}

/* --min-technique pointing keeps puzzles singles cannot solve, and
 * --max-technique hidden_single ones they can, by the grader above. */
static void technique_filter(void **state)
{
    (void) state;
    struct gen_options o = options(3, 3, GEN_DIG, GEN_MEDIUM, 600);
    o.technique_filter = true;
    o.min_technique = LOGIC_pointing;
    o.max_technique = LOGIC_TECHNIQUE_COUNT;
    struct grid p[3], sol[3];
    make(&o, 3, p, sol, false);
    for (int i = 0; i < 3; i++)
        assert_false(singles_solve(&p[i]));
    o.min_technique = LOGIC_NONE;
    o.max_technique = LOGIC_hidden_single;
    o.level = GEN_HARD;
    make(&o, 3, p, sol, false);
    for (int i = 0; i < 3; i++)
        assert_true(singles_solve(&p[i]));
}

/* The grader against the generator's filter on puzzles serate rated
 * (tests/data/se_dev.tsv): SE always takes the easiest step it has, so an
 * ER of 1.5 or less (last values and hidden singles only) means singles
 * solve the puzzle, and one of 2.6 or more (beyond SE's singles and direct
 * patterns) that they do not, as singles left at any point of SE's path
 * would have been left from the start. The filter for singles only keeps
 * exactly the first, and --min-technique pointing exactly the second. */
static void technique_filter_as_serate_rates(void **state)
{
    (void) state;
    struct test_se_rated *rated;
    size_t n;
    assert_int_equal(test_load_se_ratings("se_dev.tsv", &rated, &n), 0);
    struct gen_options o = options(3, 3, GEN_DIG, GEN_MEDIUM, 1);
    o.technique_filter = true;
    o.min_technique = LOGIC_NONE;
    o.max_technique = LOGIC_hidden_single;
    char why[200];
    struct generator *singles = gen_open(&o, why, sizeof(why));
    o.min_technique = LOGIC_pointing;
    o.max_technique = LOGIC_TECHNIQUE_COUNT;
    struct generator *beyond = gen_open(&o, why, sizeof(why));
    assert_non_null(singles);
    assert_non_null(beyond);
    int easy = 0, hard = 0;
    for (size_t i = 0; i < n; i++) {
        const struct test_se_rated *r = &rated[i];
        if (r->er > 15 && r->er < 26)
            continue;
        const bool by_singles = r->er <= 15;
        easy += by_singles, hard += !by_singles;
        if (singles_solve(&r->puzzle) != by_singles
            || gen_filters_keep(singles, &r->puzzle) != by_singles
            || gen_filters_keep(beyond, &r->puzzle) == by_singles)
            fail_msg("se_dev.tsv:%lu: serate %s, singles %s, filters %d/%d", r->line,
                r->serate, singles_solve(&r->puzzle) ? "solve" : "stick",
                gen_filters_keep(singles, &r->puzzle),
                gen_filters_keep(beyond, &r->puzzle));
    }
    gen_close(singles);
    gen_close(beyond);
    free(rated);
    assert_true(easy >= 100 && hard >= 150); /* the file's mix, both sides */
}

/* generate --se's band filter against serate's ER of every se_dev puzzle (a
 * stride of the hardest under the sanitizers): one of three bands per
 * puzzle in turn, the one-value band of its own ER (kept), the band just
 * above it and the band just below it (refused). */
static void se_band_filter_as_serate_rates(void **state)
{
    (void) state;
    struct test_se_rated *rated;
    size_t n;
    assert_int_equal(test_load_se_ratings("se_dev.tsv", &rated, &n), 0);
    int kept = 0, refused = 0;
    size_t hard_seen = 0;
    for (size_t i = 0; i < n; i++) {
        const struct test_se_rated *r = &rated[i];
        if (r->er >= 100 && hard_seen++ % TEST_HARD_STRIDE != 0)
            continue;
        struct gen_options o = options(3, 3, GEN_DIG, GEN_MEDIUM, 1);
        o.se_filter = true;
        /* a deadline past meson's timeout, so it cannot decide a pass (a
         * rating that never ends is that timeout); 0 would be 60 s */
        o.se_budget_ms = 24 * 3600 * 1000u;
        const int kind = (int) (i % 3);
        o.min_se = kind == 0 ? r->er : kind == 1 ? r->er + 1 : 10;
        o.max_se = kind == 0 ? r->er : kind == 1 ? 200 : r->er - 1;
        char why[200];
        struct generator *gen = gen_open(&o, why, sizeof(why));
        if (!gen)
            fail_msg("gen_open: %s", why);
        const bool keeps = gen_filters_keep(gen, &r->puzzle);
        gen_close(gen);
        if (keeps != (kind == 0))
            fail_msg("se_dev.tsv:%lu: serate's ER %d.%d, band %d.%d-%d.%d %s it", r->line,
                r->er / 10, r->er % 10, o.min_se / 10, o.min_se % 10, o.max_se / 10,
                o.max_se % 10, keeps ? "keeps" : "refuses");
        kept += keeps, refused += !keeps;
    }
    free(rated);
    assert_true(kept >= 100 && refused >= 200);
}

static void bad_options(void **state)
{
    (void) state;
    char why[200];
    struct gen_options o = options(3, 3, GEN_DIG, GEN_MEDIUM, 1);
    o.holes = 81;
    assert_null(gen_open(&o, why, sizeof(why)));
    o = options(6, 6, GEN_DIG, GEN_MEDIUM, 1); /* 36x36 */
    assert_null(gen_open(&o, why, sizeof(why)));
    o = options(3, 3, GEN_DIG, GEN_MEDIUM, 1);
    o.solver = o.verifier = solver_find("naive");
    assert_null(gen_open(&o, why, sizeof(why)));
    assert_non_null(strstr(why, "differ"));
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_seed_same_puzzles),
        cmocka_unit_test(puzzle_depends_on_index_only),
        cmocka_unit_test(cli_threads_and_shards),
        cmocka_unit_test(dig_hole_counts),
        cmocka_unit_test(seed003_clue_ranges),
        cmocka_unit_test(symmetric_patterns),
        cmocka_unit_test(minimal_puzzles),
        cmocka_unit_test(larger_grid),
        cmocka_unit_test(technique_filter),
        cmocka_unit_test(technique_filter_as_serate_rates),
        cmocka_unit_test(se_band_filter_as_serate_rates),
        cmocka_unit_test(bad_options),
    };
    const struct test_group plain = { "generate", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
