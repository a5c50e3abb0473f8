/* The generator (puzzle/generate.h) and the raters (puzzle/rate.h, puzzle/logic.h):
 * reproducible output, unique puzzles checked by a back end other than the
 * generating one, hole and clue counts, symmetry, minimality; seed 004's
 * levels on hand-made boundary cases; the technique grader on puzzles whose
 * grade is shown by hand below. */
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

static void technique_filter(void **state)
{
    (void) state;
    struct gen_options o = options(3, 3, GEN_DIG, GEN_MEDIUM, 600);
    o.technique_filter = true;
    o.min_technique = LOGIC_pointing;
    o.max_technique = LOGIC_TECHNIQUE_COUNT;
    struct grid p[3], sol[3];
    make(&o, 3, p, sol, false);
    struct logic *lg = calloc(1, sizeof(*lg));
    assert_non_null(lg);
    for (int i = 0; i < 3; i++) {
        struct logic_result lr;
        logic_rate(lg, &p[i], &lr);
        assert_true(lr.hardest >= LOGIC_pointing);
    }
    free(lg);
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

/* --- seed 004's raters --- */

/* The pattern with its first k cells (row-major) blank, then cells listed in
 * `toggle` flipped between blank and clue. */
static void blanked(struct grid *g, int k, const int *toggle, int ntoggle)
{
    struct grid full;
    test_pattern_grid(&full, 3, 3);
    *g = full;
    for (int c = 0; c < k; c++)
        g->cell[c] = 0;
    for (int i = 0; i < ntoggle; i++)
        g->cell[toggle[i]] = g->cell[toggle[i]] ? 0 : full.cell[toggle[i]];
}

static void blank_levels(void **state)
{
    (void) state;
    struct grid full;
    test_pattern_grid(&full, 3, 3);
    assert_true(check_solution(&full, &full, NULL, 0));
    /* SPEC: 40-45 -> 1, 46-50 -> 2, 51-55 -> 3, 56-60 -> 4, 61-65 -> 5, else 0 */
    const int cases[][2] = { { 0, 0 }, { 39, 0 }, { 40, 1 }, { 45, 1 }, { 46, 2 },
        { 50, 2 }, { 51, 3 }, { 55, 3 }, { 56, 4 }, { 60, 4 }, { 61, 5 }, { 65, 5 },
        { 66, 0 }, { 81, 0 } };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct grid g;
        blanked(&g, cases[i][0], NULL, 0);
        assert_int_equal(rate_blanks(&g), cases[i][0]);
        assert_int_equal(rate_blanks_level(rate_blanks(&g)), cases[i][1]);
    }
}

/* The freedom sum regrouped by unit: a unit with b blanks adds b*b through
 * its rows or columns (each of its b blanks counts b) and b*(b-1) as a box,
 * so F = sum rows b^2 + sum columns b^2 + sum boxes b^2 - blanks. Computed
 * here independently of the rater's cell-by-cell loops. */
static int freedom_by_units(const struct grid *g)
{
    int f = 0, blanks = 0;
    for (int u = 0; u < 9; u++) {
        int row = 0, col = 0, box = 0;
        for (int k = 0; k < 9; k++) {
            row += g->cell[u * 9 + k] == 0;
            col += g->cell[k * 9 + u] == 0;
            box += g->cell[(u / 3 * 3 + k / 3) * 9 + u % 3 * 3 + k % 3] == 0;
        }
        f += row * row + col * col + box * box;
        blanks += row;
    }
    return f - blanks;
}

static void freedom_levels(void **state)
{
    (void) state;
    /* Hand-made boundary cases: the first k cells (row-major) blank, then
     * the listed cells toggled. F is always even (b*b has the parity of b, so
     * F has that of 2 * blanks): the odd bounds 721, 841, 961, 1081 and 2105
     * never occur on 9x9, and the cases sit on 720/722, 840/842 and so on.
     * Worked example, k = 42 (rows 1-4 and r5c1-r5c6 blank): rows
     * 4 * 81 + 6 * 6 = 360, columns 6 * 5 * 5 + 3 * 4 * 4 = 198, boxes
     * 3 * 81 + 6 * 6 + 6 * 6 + 3 * 3 = 324, so 360 + 198 + 324 - 42 = 840. */
    const struct {
        int k;
        int toggle[2];
        int ntoggle;
        int freedom;
        int level;
    } cases[] = {
        { 0, { 0 }, 0, 0, 0 }, /* no blank: 0 is outside 1-720 */
        { 1, { 0 }, 0, 2, 1 }, /* one blank: 1 + 1 + 0 */
        { 39, { 0 }, 1, 720, 1 }, /* first 39 but r1c1 */
        { 39, { 3 }, 1, 722, 2 }, /* first 39 but r1c4 */
        { 42, { 0 }, 0, 840, 2 }, { 41, { 48, 59 }, 2, 842, 3 }, { 46, { 0 }, 0, 960, 3 },
        { 45, { 54, 57 }, 2, 962, 4 }, { 51, { 6 }, 1, 1080, 4 }, /* first 51 but r1c7 */
        { 49, { 51 }, 1, 1082, 5 }, /* first 49 and r6c7 */
        { 80, { 0 }, 0, 2056, 5 }, /* one clue, in the corner */
        { 81, { 0 }, 0, 2106, 0 }, /* empty: 81 * (9 + 9 + 8) */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct grid g;
        blanked(&g, cases[i].k, cases[i].toggle, cases[i].ntoggle);
        assert_int_equal(freedom_by_units(&g), cases[i].freedom);
        assert_int_equal(rate_freedom(&g), cases[i].freedom);
        assert_int_equal(rate_freedom_level(cases[i].freedom), cases[i].level);
    }
    /* the bounds themselves, straight from the table */
    const int bounds[][2] = { { 720, 1 }, { 721, 2 }, { 840, 2 }, { 841, 3 }, { 960, 3 },
        { 961, 4 }, { 1080, 4 }, { 1081, 5 }, { 2105, 5 }, { 2106, 0 }, { -1, 0 } };
    for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
        assert_int_equal(rate_freedom_level(bounds[i][0]), bounds[i][1]);
    /* random blank patterns: the loops agree with the unit formula */
    uint64_t x = 12345;
    for (int t = 0; t < 200; t++) {
        struct grid g;
        test_pattern_grid(&g, 3, 3);
        for (int c = 0; c < 81; c++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            if ((x >> 33) % 100 < (uint64_t) (t % 100))
                g.cell[c] = 0;
        }
        assert_int_equal(rate_freedom(&g), freedom_by_units(&g));
    }
}

/* --- the technique grader --- */

/* The example puzzle of Wikipedia's "Sudoku" article (a published puzzle
 * book grade: easy): naked singles alone fill it, as working it by hand
 * shows (r5c5 is 5, its only candidate, and so on). */
static const char *const singles_puzzle
    = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/* A 6x6 puzzle (2x3 boxes) that needs a naked pair, found by this generator
 * and graded here by hand. Singles lead to this position (candidates of the
 * empty cells; hand-checked):
 *
 *     2     145   14    14    3456  1356
 *     145   6     3     2     45    15
 *     1346  14    146   14    2345  1235
 *     134   2     5     6     34    13
 *     16    3     126   5     26    4
 *     456   45    246   3     1     26
 *
 * No cell has one candidate; every value has two or more places in every
 * row, column and box; in no box is a value confined to one row or column,
 * nor in a row or column to one box. Row 1 (top) has r1c3 = r1c4 = {1, 4}:
 * a naked pair, so 1 and 4 leave r1c2 (which becomes 5), r1c5 (4) and r1c6
 * (1), and singles finish the grid. */
static const char *const pair_puzzle = "2......632.........256...3...4....1.";
static const char *const pair_stuck = "2......632.........256...3.5.4...31.";

/* A 6x6 puzzle that needs an X-wing, found and graded the same way. After
 * singles (no pair, triple or locked candidates apply):
 *
 *     4     1     256   26    236   35
 *     26    25    3     4     126   15
 *     12    25    1245  16    1346  13
 *     3     6     14    5     14    2
 *     126   3     126   12    5     4
 *     5     4     12    3     12    6
 *
 * Value 1 fits rows 4 and 6 only in columns 3 and 5: an X-wing, which takes
 * 1 out of r3c3, r5c3, r2c5 and r3c5. */
static const char *const xwing_puzzle = "41......34........3..5.2....5.54.3.6";

static struct logic *lg;

static int logic_setup(void **state)
{
    (void) state;
    lg = calloc(1, sizeof(*lg));
    return lg ? 0 : -1;
}

static int logic_teardown(void **state)
{
    (void) state;
    free(lg);
    return 0;
}

static void grades_singles(void **state)
{
    (void) state;
    struct grid g;
    test_parse_shaped(&g, singles_puzzle, 3, 3, GRID_STANDARD);
    struct logic_result r;
    logic_rate(lg, &g, &r);
    assert_int_equal(r.status, LOGIC_SOLVED);
    assert_true(r.hardest <= LOGIC_hidden_single);
    assert_int_equal(r.used[LOGIC_naked_single] + r.used[LOGIC_hidden_single], 51);
    assert_int_equal(r.placed, 51);
    /* the grid logic filled is the solution */
    test_assert_solution(&g, &lg->g, "the logic solver");
}

static void grades_pair(void **state)
{
    (void) state;
    struct grid g;
    test_parse_shaped(&g, pair_puzzle, 2, 3, GRID_STANDARD);
    struct logic_result r;
    logic_rate(lg, &g, &r);
    assert_int_equal(r.status, LOGIC_SOLVED);
    assert_int_equal(r.hardest, LOGIC_naked_pair);
    assert_true(r.used[LOGIC_naked_pair] >= 1);
    test_assert_solution(&g, &lg->g, "the logic solver");
}

static void grades_xwing(void **state)
{
    (void) state;
    struct grid g;
    test_parse_shaped(&g, xwing_puzzle, 2, 3, GRID_STANDARD);
    struct logic_result r;
    logic_rate(lg, &g, &r);
    assert_int_equal(r.status, LOGIC_SOLVED);
    assert_int_equal(r.hardest, LOGIC_x_wing);
    test_assert_solution(&g, &lg->g, "the logic solver");
}

/* The hint in the pair position above is the pair with its four removals. */
static void hint_is_next_step(void **state)
{
    (void) state;
    struct grid g;
    test_parse_shaped(&g, pair_stuck, 2, 3, GRID_STANDARD);
    struct logic_step s;
    assert_true(logic_hint(lg, &g, &s));
    assert_int_equal(s.technique, LOGIC_naked_pair);
    assert_int_equal(s.cell, -1);
    assert_int_equal(s.unit, 0); /* row 1 */
    assert_int_equal(s.values, (1u << 0) | (1u << 3));
    assert_int_equal(s.npattern, 2);
    assert_int_equal(s.pattern[0], 2);
    assert_int_equal(s.pattern[1], 3);
    const int want[][2] = { { 1, 1 }, { 1, 4 }, { 4, 4 }, { 5, 1 } };
    assert_int_equal(s.nelim, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(s.elim[i].cell, want[i][0]);
        assert_int_equal(s.elim[i].value, want[i][1]);
    }
    /* after it, the next hint is a placement: r1c2 = 5 */
    logic_apply(lg, &s);
    assert_true(logic_find(lg, &s));
    assert_int_equal(s.technique, LOGIC_naked_single);
    assert_int_equal(s.cell, 1);
    assert_int_equal(s.value, 5);
    /* a solved grid has no hint; clashing values neither */
    test_parse_shaped(&g, "1234341221434321", 2, 2, GRID_STANDARD);
    assert_false(logic_hint(lg, &g, &s));
    test_parse_shaped(&g, "11..............", 2, 2, GRID_STANDARD);
    assert_false(logic_hint(lg, &g, &s));
    assert_true(lg->contradiction);
}

static void xwing_hint(void **state)
{
    (void) state;
    /* the X-wing position: the puzzle run through singles */
    struct grid g;
    test_parse_shaped(&g, xwing_puzzle, 2, 3, GRID_STANDARD);
    logic_load(lg, &g);
    struct logic_step s;
    while (logic_find(lg, &s) && s.technique <= LOGIC_hidden_single)
        logic_apply(lg, &s);
    assert_int_equal(s.technique, LOGIC_x_wing);
    assert_int_equal(s.values, 1u);
    const int want[] = { 2 * 6 + 2, 4 * 6 + 2, 1 * 6 + 4, 2 * 6 + 4 };
    assert_int_equal(s.nelim, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(s.elim[i].cell, want[i]);
        assert_int_equal(s.elim[i].value, 1);
    }
}

static void stuck_and_contradiction(void **state)
{
    (void) state;
    struct grid g;
    struct logic_result r;
    /* the empty 4x4 grid has 288 solutions: logic cannot start */
    grid_init(&g, 2, 2, GRID_STANDARD);
    logic_rate(lg, &g, &r);
    assert_int_equal(r.status, LOGIC_STUCK);
    assert_int_equal(r.hardest, LOGIC_TECHNIQUE_COUNT);
    assert_string_equal(logic_technique_name(r.hardest), "guessing");
    /* r2c4 and r3c4 both need 4 (their rows hold 1-3): no solution */
    test_parse_shaped(&g, "....123.231.....", 2, 2, GRID_STANDARD);
    logic_rate(lg, &g, &r);
    assert_int_equal(r.status, LOGIC_CONTRADICTION);
    assert_int_equal(logic_parse_technique("x_wing"), LOGIC_x_wing);
    assert_int_equal(logic_parse_technique("guessing"), LOGIC_TECHNIQUE_COUNT);
    assert_int_equal(logic_parse_technique("nonsense"), -2);
}

/* Search effort: zero guesses where singles suffice (mrv propagates them),
 * some on a puzzle that needs guessing, and the same value for the same seed
 * whatever the puzzle's position. */
static void guesses_rater(void **state)
{
    (void) state;
    const struct solver *s = rate_guess_solver();
    if (!s)
        test_skip("no back end reports guesses: the guesses rater is not tested");
    struct rater r;
    char why[160];
    assert_int_equal(rater_open(&r, RATE_GUESSES, NULL, 8, 1, why, sizeof(why)), 0);
    struct grid g;
    struct rate_values v, w;
    test_parse_shaped(&g, singles_puzzle, 3, 3, GRID_STANDARD);
    rater_rate(&r, &g, &v);
    assert_int_equal(v.guesses_status, SOLVE_STATUS_UNIQUE);
    if (solver_find("mrv") == s)
        assert_true(v.guesses == 0.0);
    /* the empty 9x9 grid: branching cannot be avoided */
    grid_init(&g, 3, 3, GRID_STANDARD);
    rater_rate(&r, &g, &v);
    assert_int_equal(v.guesses_status, SOLVE_STATUS_MULTIPLE);
    assert_true(v.guesses > 0.0);
    rater_rate(&r, &g, &w);
    assert_true(v.guesses == w.guesses);
    rater_close(&r);
}

static void method_names(void **state)
{
    (void) state;
    unsigned m;
    assert_int_equal(rate_parse_methods("blanks,techniques", &m), 0);
    assert_int_equal(m, RATE_BLANKS | RATE_TECHNIQUES);
    assert_int_equal(rate_parse_methods("all", &m), 0);
    assert_int_equal(m, RATE_ALL);
    assert_int_equal(rate_parse_methods("blanks,nope", &m), -1);
    char names[64];
    rate_method_names(names, sizeof(names), RATE_FREEDOM | RATE_GUESSES);
    assert_string_equal(names, "freedom,guesses");
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
        cmocka_unit_test(bad_options),
        cmocka_unit_test(blank_levels),
        cmocka_unit_test(freedom_levels),
        cmocka_unit_test_setup_teardown(grades_singles, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(grades_pair, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(grades_xwing, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(hint_is_next_step, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(xwing_hint, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(
            stuck_and_contradiction, logic_setup, logic_teardown),
        cmocka_unit_test(guesses_rater),
        cmocka_unit_test(method_names),
    };
    const struct test_group plain = { "generate", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
