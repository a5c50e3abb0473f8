/* The Sudoku Explainer rater (rater/se_rate.h): ratings equal serate's on
 * every puzzle serate rated for the project (tests/data/se_dev.tsv,
 * se_extra.tsv and se_hardest.tsv, provenance in se_dev.README.md), SE's verdicts, and
 * every step checked against the unique solution. */
#include "tests/test_util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/grid.h"
#include "rater/se_internal.h"
#include "rater/se_rate.h"

struct rated {
    const char *puzzle;
    const char *serate; /* ER/EP/ED as serate printed it */
};

/* One or two per technique, with serate's ratings from tests/data (each is
 * checked against its line there below): the cases of the tests that follow
 * a path step by step or rate in odd orders. */
static const struct rated cases[] = {
    { ".68451..2..9.....55.43..7.8..289..7.9..673..467...4.83143968.57..614........3..16",
        "1.2/1.0/1.0" },
    { "..............1.23..456........7.5...1.......23.4........8.2.....7...4..9........",
        "1.5/1.2/1.2" },
    { "..............1.23..456.........5....4....7...89..2.......4...8...7.....5.......2",
        "1.7/1.2/1.2" },
    { "..............1.23.45.6.........2.....6.1......7...5......7.6..2..4.....3....8...",
        "2.0/1.5/1.5" },
    { "..........1..7...23..1...8..5....67....3.1.....8.4....8........4.9.6.1.......45..",
        "2.3/1.2/1.2" },
    { "...3..18..26.........9......47.2.......5..9......7........64.2.3.....5..1........",
        "2.6/2.6/2.6" },
    { "........1.....2.....3....45.....67......8.....54.....3...51....6.....29.7........",
        "2.8/1.2/1.2" },
    { ".2.........678.1.......2.....1..5..4....4....9..32.6.5........8..7....3..6.2.3957",
        "3.0/2.0/2.0" },
    { "....7.....954........1..39..2....1.....3....4.6..2...8..8....1.5...8...27...6....",
        "3.2/1.2/1.2" },
    { ".................1..2.34.................245.16.........47..5...3.1...76.8.......",
        "3.4/1.5/1.5" },
    { "2...1...4.6..9.2.........8........9..8.4..5.......8...1...6...74.2.....1..732....",
        "3.6/1.2/1.2" },
    { "3..6.......1..2....9......4....8....6..1.35....2....9.......9.2.4.87...3..5....1.",
        "4.0/1.5/1.5" },
    { "..............1..2..3....45.............6..3.15...7......8.......643.....9....6.7",
        "4.2/1.2/1.2" },
    { "8..4..539..5839.1..9..2..4..42.......3....6...8936.7..9.6..8......1.....2..69.47.",
        "4.4/1.2/1.2" },
    { "...7..8..9...5...2..2.4...34....2.16.8............6.7...3..1......5..64...9......",
        "4.5/1.2/1.2" },
    { "........1.......23..4..5........67...2..3....5...........7..48.31.2.....6........",
        "4.1/1.2/1.2" },
    { "......5..87.5.4.9..3..9.....6..5...9.8....746.........4.1....2....4..1.7...8.....",
        "4.3/1.2/1.2" },
    { "...64..3.2.9.5..7...8.............5..6.4...2.3.......9...3.1..8.9.2..........84..",
        "4.6/1.2/1.2" },
    { ".....4..31...6.7.5.5...........1...9...3.....87.2...4....9.5.7.2......8...4....6.",
        "5.5/1.2/1.2" },
    { "....1.......8..49.......867.5.......17...3...3......4.5.62........9......426.87..",
        "5.6/1.2/1.2" },
    { "1.2..49...4..9....9..7.1.....45....6.3.........8.621....1..9...4..1..5...6....8..",
        "5.7/1.2/1.2" },
    { "9.6......43.8..2......5............6..19..38...9.2....2.5.6.......3....2.....1.7.",
        "6.4/1.2/1.2" },
    { "9.3....7..5...6...4.....3.....54........3.2....7.....6....8..1.1....9..5..6.73...",
        "6.6/1.2/1.2" },
    { "...2...8.6.4...3......37......6.1....9.....2...7.5.....7.4...1...3..2....59.....3",
        "6.7/1.2/1.2" },
    { ".....6.5.....7.4.2.18.......6..3.........234...7...8..3...4...9.....5.6.2..1.....",
        "7.5/1.2/1.2" },
    { "..7..2...9..3..4..........6.8..7..2..13....4......9.1.7..9.6.....1...8..2....5...",
        "7.1/1.2/1.2" },
    { "..3..8..2.7..4...1..4...9...18.23..57....6.2...6.17........483.3.......75........",
        "7.2/1.2/1.2" },
    { ".5.24...3.6.....2.8.......94..812.....5........83.5.....6...1..3...792.5...1..7..",
        "8.3/3.0/2.6" },
    { ".5.3.7.4.1.........3.......5.8.3.61....8..5.9.6..1........4...6...6927....2...9..",
        "8.8/1.2/1.2" },
    { ".6.....4.1......72.5.78........6.9.....5..8..9.3..1.....1......28.3....1.7...4...",
        "9.0/1.2/1.2" },
    /* top1465 line 419 (se_extra.tsv, like the next three): its 4.3 is a
     * turbot fish whose box link joins one cell to a row through the
     * heart of an empty rectangle that holds the value itself */
    { "...37..5..27.........8..39.....8.......2...4.893......64..31..8.5............65..",
        "4.3/1.2/1.2" },
    /* top1465 line 1028: a 5.7 chain of three strong links, one
     * in a box whose heart holds the value and joins both arms */
    { ".36....4...75.........3......49...6.7...4.8..6.....37..59.........1..7594..6.....",
        "8.5/1.2/1.2" },
    /* top1465 line 1383: a unique loop of six cells, type 2 with
     * three cells of the one extra value */
    { "....6...8..2......49....31...6.34........85..94...1......2.94...8.......51.....3.",
        "5.5/1.2/1.2" },
    /* top1465 line 1360: of two unique rectangles rated 4.5, SE
     * takes type 1 before type 4 (it sorts by rating, then type) */
    { ".2..58.9.5.3.6..4..6....8..1...3.....9..1..2....5....7...9........7.....6.4...5..",
        "5.6/1.2/1.2" },
};

static void parse(const char *text, struct grid *g)
{
    char why[128];
    assert_int_equal(grid_parse_token(g, text, strlen(text), NULL, why, sizeof(why)), 0);
}

static void rated_by_as_serate(struct se_rater *rt, const struct rated *c)
{
    struct grid g;
    struct se_rating r;
    parse(c->puzzle, &g);
    se_rate(rt, &g, &r);
    char got[96];
    snprintf(got, sizeof(got), "%d.%d/%d.%d/%d.%d", r.er / 10, r.er % 10, r.ep / 10,
        r.ep % 10, r.ed / 10, r.ed % 10);
    assert_int_equal(r.verdict, SE_RATED);
    assert_string_equal(got, c->serate);
}

static void rates_as_serate(const struct rated *c)
{
    rated_by_as_serate(test_rater, c);
}

static void ratings_equal_serates(void **state)
{
    (void) state;
    for (size_t i = 0; i < TEST_COUNT(cases); i++)
        rates_as_serate(&cases[i]);
}

/* Every line of a tests/data ratings file (a stride of the hardest under the
 * sanitizers, TEST_HARD_STRIDE): ER, EP and ED each equal to serate's, every
 * miss named before the test fails. */
static void rates_every_line_as_serate(const char *name)
{
    struct test_se_rated *rated;
    size_t n;
    assert_int_equal(test_load_se_ratings(name, &rated, &n), 0);
    size_t compared = 0, misses = 0, hard_seen = 0;
    for (size_t i = 0; i < n; i++) {
        const struct test_se_rated *want = &rated[i];
        if (want->er >= 100 && hard_seen++ % TEST_HARD_STRIDE != 0)
            continue;
        struct se_rating r;
        se_rate(test_rater, &want->puzzle, &r);
        compared++;
        if (r.verdict != SE_RATED || r.er != want->er || r.ep != want->ep
            || r.ed != want->ed) {
            misses++;
            printf("# %s:%lu: %s rated %d.%d/%d.%d/%d.%d (verdict %d), serate %s\n", name,
                want->line, want->source, r.er / 10, r.er % 10, r.ep / 10, r.ep % 10,
                r.ed / 10, r.ed % 10, (int) r.verdict, want->serate);
        }
    }
    printf("# %s: %zu of %zu lines rated, %zu misses\n", name, compared, n, misses);
    free(rated);
    assert_int_equal(misses, 0);
    assert_true(compared * TEST_HARD_STRIDE >= n);
}

static void every_development_rating(void **state)
{
    (void) state;
    rates_every_line_as_serate("se_dev.tsv");
}

static void every_other_serate_rating(void **state)
{
    (void) state;
    rates_every_line_as_serate("se_extra.tsv");
}

/* The hardest lists' puzzles serate rated (se_hardest.tsv): nested chains,
 * where serate takes minutes to hours a puzzle. */
static void every_hardest_rating(void **state)
{
    (void) state;
    rates_every_line_as_serate("se_hardest.tsv");
}

/* The cases above carry the ratings of the files, not copies that could
 * drift from them. */
static void cases_are_rated_in_the_files(void **state)
{
    (void) state;
    static const char *const files[] = { "se_dev.tsv", "se_extra.tsv" };
    struct test_se_rated *rated[2];
    size_t n[2];
    for (size_t f = 0; f < 2; f++)
        assert_int_equal(test_load_se_ratings(files[f], &rated[f], &n[f]), 0);
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        struct grid g;
        parse(cases[i].puzzle, &g);
        const char *found = NULL;
        for (size_t f = 0; f < 2 && !found; f++)
            for (size_t k = 0; k < n[f] && !found; k++)
                if (memcmp(rated[f][k].puzzle.cell, g.cell, 81) == 0)
                    found = rated[f][k].serate;
        if (!found)
            fail_msg("%s: in neither file", cases[i].puzzle);
        assert_string_equal(cases[i].serate, found);
    }
    for (size_t f = 0; f < 2; f++)
        free(rated[f]);
}

/* The searches keep, in the test_rater, what they found on earlier grids (the
 * last grid with nothing, a value's links...), and trust it only for grids
 * it holds for: a rating must not depend on what the rater rated before.
 * The cases again in reverse order, each twice in a row (the second meets
 * the memories of its own path's end). */
static void ratings_do_not_depend_on_the_order(void **state)
{
    (void) state;
    for (size_t i = TEST_COUNT(cases); i-- > 0;) {
        rates_as_serate(&cases[i]);
        rates_as_serate(&cases[i]);
    }
}

/* Two raters in one thread, taking the cases in turns and each its own
 * path: neither sees the other's caches, and both rate as serate. */
static void two_raters_in_one_thread(void **state)
{
    (void) state;
    struct se_rater *other = se_rater_new();
    assert_non_null(other);
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        rated_by_as_serate(i % 2 ? other : test_rater, &cases[i]);
        rated_by_as_serate(i % 2 ? test_rater : other, &cases[TEST_COUNT(cases) - 1 - i]);
    }
    se_rater_free(other);
}

/* A deadline already past: no rating, a verdict saying so; the next rating
 * with the rater has no deadline left over. */
static void a_spent_budget_gives_no_rating(void **state)
{
    (void) state;
    const struct rated *hard = &cases[TEST_COUNT(cases) - 1];
    struct grid g;
    struct se_rating r;
    parse(hard->puzzle, &g);
    se_rate_within(test_rater, &g, 1, &r);
    assert_int_equal(r.verdict, SE_OUT_OF_TIME);
    se_rate(test_rater, &g, &r);
    assert_int_equal(r.verdict, SE_RATED);
    char got[96];
    snprintf(got, sizeof(got), "%d.%d/%d.%d/%d.%d", r.er / 10, r.er % 10, r.ep / 10,
        r.ep % 10, r.ed / 10, r.ed % 10);
    assert_string_equal(got, hard->serate);
}

/* Sleeps ms milliseconds: time that passes without the thread working. */
static void sleep_ms(long ms)
{
    struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&t, &t) != 0)
        continue;
}

/* On the thread's CPU clock (rate's and generate's) a budget counts the
 * rating's own work, not time the thread spends waiting, as on a loaded
 * machine: a wait past the budget leaves it whole, where on the monotonic
 * clock the same wait spends it. */
static void a_cpu_budget_counts_only_the_threads_work(void **state)
{
    (void) state;
    const struct rated *mid = &cases[14]; /* 4.5: chains' searches read the clock */
    struct grid g;
    struct se_rating r;
    parse(mid->puzzle, &g);
    struct se_rater *rt = se_rater_new();
    assert_non_null(rt);
    se_rater_use_cpu_clock(rt, true);
    const uint64_t before = clock_thread_cpu_ns();
    const uint64_t now = se_rater_now(rt);
    assert_true(before <= now && now <= clock_thread_cpu_ns());
    /* a second of CPU for a rating of a millisecond, after a wait past it */
    sleep_ms(1100);
    se_rate_within(rt, &g, now + 1000 * 1000000u, &r);
    assert_int_equal(r.verdict, SE_RATED);
    char got[96];
    snprintf(got, sizeof(got), "%d.%d/%d.%d/%d.%d", r.er / 10, r.er % 10, r.ep / 10,
        r.ep % 10, r.ed / 10, r.ed % 10);
    assert_string_equal(got, mid->serate);
    /* the wait alone spends a wall budget: the deadline is past */
    se_rater_use_cpu_clock(rt, false);
    const uint64_t deadline = se_rater_now(rt) + 100 * 1000000u;
    sleep_ms(150);
    se_rate_within(rt, &g, deadline, &r);
    assert_int_equal(r.verdict, SE_OUT_OF_TIME);
    se_rater_free(rt);
}

/* forum_hardest_1106's line 52, which no technique up to nesting level 3
 * moves from its start (the rater gave it "beyond" then): every path of it
 * starts at level 4, so its ED and ER are 10.5 or more, nested chains. No
 * serate rating of it is kept (serate had not finished it): this asserts
 * that level 4 rates it, not the number. */
static void level_four_rates_past_level_three(void **state)
{
    (void) state;
    struct grid g;
    struct se_rating r;
    parse("..9...4...7.3...2.8...6...71..8....6....1..7.....56...3....5..1.4.....9...2..."
          "7..",
        &g);
    se_rate(test_rater, &g, &r);
    assert_int_equal(r.verdict, SE_RATED);
    assert_true(r.ed >= 105);
    assert_true(r.er >= r.ed);
    assert_int_equal(r.er_tech, SE_nested_chains);
}

static void verdicts_for_no_or_many_solutions(void **state)
{
    (void) state;
    struct grid g;
    struct se_rating r;
    /* two 1s in row 1 */
    parse("11............................................................................"
          "...",
        &g);
    se_rate(test_rater, &g, &r);
    assert_int_equal(r.verdict, SE_NO_SOLUTION);
    /* no clash, but r1c9 can hold nothing: 1-8 in row 1, 9 in its column */
    parse("12345678.........9............................................................"
          "...",
        &g);
    se_rate(test_rater, &g, &r);
    assert_int_equal(r.verdict, SE_NO_SOLUTION);
    parse(".............................................................................."
          "...",
        &g);
    se_rate(test_rater, &g, &r);
    assert_int_equal(r.verdict, SE_MULTIPLE);
    char out[256];
    assert_false(se_hint(test_rater, &g, false, out, sizeof(out)));
    assert_string_equal(out, "more than one solution");
}

static bool fits(const uint8_t *cells, int c, int v)
{
    for (int o = 0; o < 81; o++)
        if (cells[o] == v
            && (o / 9 == c / 9 || o % 9 == c % 9
                || (o / 27 == c / 27 && (o % 9) / 3 == (c % 9) / 3)))
            return false;
    return true;
}

/* Backtracking on the cell with the fewest values, independent of the rater. */
static bool solve(uint8_t *cells)
{
    int best = -1, best_n = 10;
    for (int c = 0; c < 81; c++) {
        if (cells[c])
            continue;
        int n = 0;
        for (int v = 1; v <= 9; v++)
            n += fits(cells, c, v);
        if (n < best_n)
            best_n = n, best = c;
    }
    if (best < 0)
        return true;
    for (int v = 1; v <= 9; v++) {
        if (!fits(cells, best, v))
            continue;
        cells[best] = (uint8_t) v;
        if (solve(cells))
            return true;
    }
    cells[best] = 0;
    return false;
}

static void every_step_keeps_the_solution(void **state)
{
    (void) state;
    se_ensure_tables();
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        struct grid g;
        parse(cases[i].puzzle, &g);
        uint8_t sol[81];
        memcpy(sol, g.cell, 81);
        assert_true(solve(sol));
        struct se_grid sg;
        assert_true(se_load(&g, &sg));
        int steps = 0;
        struct se_step s;
        while (steps < 400 && se_next_step(test_rater, &sg, &s)) {
            for (int c = 0; c < 81; c++)
                if (s.elim[c] & (1u << sol[c])) {
                    fprintf(stderr, "%s: %s removes %d from r%dc%d\n", cases[i].puzzle,
                        se_technique_name(s.tech), sol[c], c / 9 + 1, c % 9 + 1);
                    fail();
                }
            if (s.place_cell >= 0)
                assert_int_equal(s.place_value, sol[s.place_cell]);
            se_apply(&sg, &s);
            steps++;
        }
        for (int c = 0; c < 81; c++)
            assert_int_equal(sg.value[c], sol[c]);
    }
}

/* SE's nesting limits 2 and 3 (levels 6 and 7 of se_chains), which nest
 * dynamic chains of level 2 and 3, and so searches inside nested searches.
 * No puzzle the tests hold needs them (the levels before rate every one),
 * so they run here on the grid of a se_dev puzzle's first dynamic chain
 * (9.0), where their searches take seconds: each finds a level-4 hint (10.5
 * or more, nested chains) that keeps the solution. Level 7 (twice level 6's
 * time) in the plain build, level 6 under the sanitizers. */
static void nesting_limits_two_and_three_keep_the_solution(void **state)
{
    (void) state;
    struct grid g;
    parse(
        ".6.....4.1......72.5.78........6.9.....5..8..9.3..1.....1......28.3....1.7...4."
        "..",
        &g);
    uint8_t sol[81];
    memcpy(sol, g.cell, 81);
    assert_true(solve(sol));
    struct se_grid sg;
    assert_true(se_load(&g, &sg));
    struct se_step s;
    int steps = 0;
    while (steps++ < 400 && se_next_step(test_rater, &sg, &s) && s.rating < 90)
        se_apply(&sg, &s);
    assert_int_equal(s.tech, SE_dynamic_chains);
    const int level = TEST_SANITIZED ? 6 : 7;
    assert_true(se_chains(test_rater, &sg, SE_CH_DYNAMIC, level, &s));
    assert_int_equal(s.tech, SE_nested_chains);
    assert_true(s.rating >= 105);
    int removed = 0;
    for (int c = 0; c < 81; c++) {
        assert_false(s.elim[c] & (1u << sol[c]));
        removed += se_popcount(s.elim[c]);
    }
    if (s.place_cell >= 0)
        assert_int_equal(s.place_value, sol[s.place_cell]);
    assert_true(removed > 0 || s.place_cell >= 0);
}

/* Region k of SE's order (boxes, columns, rows): its i-th cell. */
static int plain_region_cell(int k, int i)
{
    if (k < 9)
        return (k / 3 * 3 + i / 3) * 9 + k % 3 * 3 + i % 3;
    if (k < 18)
        return i * 9 + (k - 9);
    return (k - 18) * 9 + i;
}

/* SE's single, searched region by region without the rater's tables: a full
 * house in the first region of SE's order that has one, else the first
 * region where a value has one place (the lowest such value). */
static bool plain_single(const struct se_grid *g, int *cell, int *value, bool *full)
{
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < 27; k++) {
            int empty = 0;
            for (int i = 0; i < 9; i++)
                empty += g->value[plain_region_cell(k, i)] == 0;
            if (pass == 0 && empty != 1)
                continue;
            for (int v = 1; v <= 9; v++) {
                int n = 0, at = -1;
                for (int i = 0; i < 9; i++)
                    if (g->cand[plain_region_cell(k, i)] & (1u << v))
                        n++, at = plain_region_cell(k, i);
                if (n == 1) {
                    *cell = at, *value = v, *full = empty == 1;
                    return true;
                }
            }
        }
    return false;
}

static void expect_plain_single(const struct se_grid *g)
{
    struct se_step s;
    int cell = -1, value = -1;
    bool full = false;
    const bool want = plain_single(g, &cell, &value, &full);
    assert_int_equal(se_hidden_single(test_rater, g, &s), want);
    if (!want)
        return;
    assert_int_equal(s.place_cell, cell);
    assert_int_equal(s.place_value, value);
    assert_int_equal(s.tech, full ? SE_full_house : SE_hidden_single);
}

/* The hidden-single search (folded by bands, its full-house counts carried
 * from the grid it saw last) finds what a plain search finds, on every grid
 * of the paths of the cases below 7.0 (the others spend their time in
 * chains), and again after a grid of another path in between. */
static void hidden_singles_match_a_plain_search(void **state)
{
    (void) state;
    se_ensure_tables();
    struct se_grid other;
    struct grid g;
    parse(cases[0].puzzle, &g);
    assert_true(se_load(&g, &other));
    for (size_t i = 0; i < TEST_COUNT(cases); i++) {
        if (cases[i].serate[0] >= '7')
            continue;
        parse(cases[i].puzzle, &g);
        struct se_grid sg;
        assert_true(se_load(&g, &sg));
        struct se_step s;
        for (int steps = 0; steps < 400 && se_next_step(test_rater, &sg, &s); steps++) {
            expect_plain_single(&sg);
            if (steps % 7 == 3) {
                expect_plain_single(&other);
                expect_plain_single(&sg);
            }
            se_apply(&sg, &s);
        }
        other = sg;
    }
}

static void hints_say_what_they_do(void **state)
{
    (void) state;
    struct grid g;
    char out[1024];
    parse(cases[0].puzzle, &g);
    assert_true(se_hint(test_rater, &g, false, out, sizeof(out)));
    assert_string_equal(out, "Last value (1.0) places r7c7=2");
    assert_true(se_hint(test_rater, &g, true, out, sizeof(out)));
    assert_non_null(strstr(out, "\"technique\":\"Last value\""));
    assert_non_null(strstr(out, "\"place\":{\"cell\":60,\"digit\":2}"));
}

/* Of several fish or sets, SE takes the first it finds: fish on base columns
 * before base rows, and the combinations of lines, cells or values as its
 * Permutations walk them (as bit sets in increasing value). The pencil-mark
 * grids are steps of generated puzzles (sudolab generate --minimal --count
 * 4000 --se 3.2-4.2 --seed 7, and --count 3000 --se 3.2-5.5 --seed 12) where
 * such a step comes first; the hints' cells are serate 1.18.1's first step
 * on each grid (--after='%s'), 2026-11-28. */
static const struct {
    const char *grid, *hint;
} first_step[] = {
    /* an X-wing on base columns 2 and 4, and one on base rows 3 and 4 */
    { "..3..6.......56..........8.....5...9......7.9.2..........4.....1........"
      "..3.5.7.....4.............9.2..............8.1..........3.5.7....3..6..."
      ".....67....3.5..........7..1..........3.5.........6......4.......3.5...."
      ".2...............9.......8...3..6..........8...3.5.......4....9.2......."
      "....5.7..1.......9.....67..1..4.............9......7.....4.....1........"
      "..3...........6..........8.....5.....2........2...........56...1........"
      "...45...9......7.9.......8......6..9..3.........4..7..1...........4....."
      "......7....3.............8.........9....5.....2............6.......5...."
      ".2...............9......7.......6......4.....1.3.............8.1.3......"
      ".......8...3...........6....2...........5....1..............7.....4....."
      "........9",
        "X-Wing (3.2): r1c2 r1c4 r6c2 r6c4 eliminates r1c9-5" },
    /* a swordfish on base columns, and one on base rows */
    { "1.........2......9.......8....4.......3..........5...9......7.......6..."
      ".2..5...9.....6....2......9..34......2..5.7.9......7.9.......8.1.345...9"
      "..345...912345...9......7......5......34......2......9.....6...1........"
      "..34....9.......8..234....9.2..............8......6.....3.....9....5...."
      "...4.....1.3.....9......7..1.3.....9..3.5....1................9.......8."
      ".2.............7....345......345.........6.....3.5.......4...........7.."
      ".....6...1..........3.....9.2.........3.5...9.......8........8...3......"
      "1..............7.9......7.9.2............6......45.......45.......4....."
      "......7......5....1...............8......6.....3.....9.2.........3.....9"
      "........9.....6....2.........3.5.......4.......3.5...........8.1........"
      "......7..",
        "Swordfish (3.8): r1c2 r1c6 r2c2 r2c8 r6c6 r6c8 eliminates r1c9-9 r2c4-9 r2c5-9 "
        "r2c7-9 r2c9-9" },
    /* X-wings on base columns 5 and 7 (digit 3) and 4 and 9 (digit 7):
     * SE's combinations of lines go by the highest line first */
    { "1.........2...............9....5......3..67.....4.......3..6.....3..67.."
      ".......8...3.5.......4...........7....3..6....2..............8.1........"
      "........9....56.....3.5...........8......6.....3...7.91..............7.9"
      "...4......23...7...2..5.7........7......5......3......1....6..........8."
      "1....6....2..........4.............9.....6...........9...4......2......."
      "....5......3............7.........8.1.........2.......1...............8."
      "...4...........7.9......7.9....56.......56.....3..............9.....6..."
      "1...............8...3...7...2.........3.5......3.5.7.....4............8."
      "......7......5....1.3..6......4.....1....6...........9.23..6....2...6..."
      "...4.......3.......2............67.9.....67.9....5...........8.1........"
      ".....67..",
        "X-Wing (3.2): r1c5 r1c7 r7c5 r7c7 eliminates r1c8-3 r7c8-3" },
    /* hidden pairs of values 2, 7 and of 4, 5 in box 5 */
    { ".23.567.....4......23.56...........9.2..5.78..2..5.7..1.3.567..12..56.8."
      "123.5.78..2..567..1.........2..56....2.45.7...2.45.78...3..............9"
      ".2..56.8..2..5.78........8.........9.23.5.........6...1.........2..5.7.."
      "...4......2..5.....23.5.7....3..6..........8....4.......3.5......3.56..."
      "1...5...9.2.............7..1.3.5...91............5............9.......8."
      ".234.67...2.4..7....3..6......4.6.....34......23..6....23..6.........7.."
      "..345......3456...1..45...91.3.56...1..456.891.345..89...4......2....7.."
      ".......8.1.........2..5.7.9.....6.......5.7....3.......2..5.7.9.23.5...."
      ".23...7..123.5.....2345.7...2345.7.9.......8.1...5.7..12.45...9.....6..."
      "........9.23..67..123.56....2345.7...2345.7...2.45.7.........8.12.45...."
      "12.45.7..",
        "Hidden Pair (3.4): r5c5 r5c6 eliminates r5c5-346 r5c6-4" },
    /* direct hidden pairs in box 7: values 7, 8 before values 1, 9 (SE's
     * combinations of values go by the higher value first) */
    { "1....6.8912...6..9.2...6.8..2.4..7.9.....67.9.2.4.67....3.......2.4...89"
      "....5........5..........7.....4......2......9..3.............8..2......9"
      "1.............6........6.89.2...6..9..3..........5.........6..91........"
      ".2.4...89......7.....4....9...4..7.........8.........9.....6...1...5.7.."
      ".2.4..7..12.4......2.45......3........3.......2.456....2...67..12.4..7.9"
      "1...5.789.2.4..7..12.4...89.2.45..89...4..7.9...4..7...2.45....1........"
      ".2.4..7.9....5.789..3...........6....2.45..89...4..7.91....6..91....6..9"
      ".....6..........8....4.........5..........7....3.......2..........4..78."
      "...4...........78...3.......2...............9....5.........6...1........"
      ".2.........3..........5....1.....7..1....67.......67.....4....9...4....9"
      ".......8.",
        "Direct Hidden Pair (2.0): r8c1 r8c3 places r8c2=4" },
};

static void steps_come_in_se_order(void **state)
{
    (void) state;
    char out[1024];
    for (size_t i = 0; i < sizeof(first_step) / sizeof(first_step[0]); i++) {
        struct grid g;
        parse(first_step[i].grid, &g);
        assert_true(se_hint(test_rater, &g, false, out, sizeof(out)));
        assert_string_equal(out, first_step[i].hint);
    }
}

/* A hint's deadline already past: no hint, the reason said; the next hint
 * with the rater has no deadline left over. */
static void a_spent_budget_gives_no_hint(void **state)
{
    (void) state;
    struct grid g;
    char out[1024];
    parse(cases[TEST_COUNT(cases) - 1].puzzle, &g);
    assert_false(se_hint_within(test_rater, &g, false, 1, out, sizeof(out)));
    assert_string_equal(out, "out of time: the budget ran out before the next step");
    assert_true(se_hint(test_rater, &g, false, out, sizeof(out)));
    assert_null(strstr(out, "out of time"));
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(ratings_equal_serates),
        cmocka_unit_test(every_development_rating),
        cmocka_unit_test(every_other_serate_rating),
        cmocka_unit_test(every_hardest_rating),
        cmocka_unit_test(cases_are_rated_in_the_files),
        cmocka_unit_test(ratings_do_not_depend_on_the_order),
        cmocka_unit_test(two_raters_in_one_thread),
        cmocka_unit_test(verdicts_for_no_or_many_solutions),
        cmocka_unit_test(level_four_rates_past_level_three),
        cmocka_unit_test(nesting_limits_two_and_three_keep_the_solution),
        cmocka_unit_test(a_spent_budget_gives_no_rating),
        cmocka_unit_test(a_cpu_budget_counts_only_the_threads_work),
        cmocka_unit_test(every_step_keeps_the_solution),
        cmocka_unit_test(hidden_singles_match_a_plain_search),
        cmocka_unit_test(hints_say_what_they_do),
        cmocka_unit_test(steps_come_in_se_order),
        cmocka_unit_test(a_spent_budget_gives_no_hint),
    };
    const struct test_group plain
        = { "se_rate", tests, TEST_COUNT(tests), test_rater_setup, test_rater_teardown };
    return test_main(argc, argv, &plain, NULL);
}
