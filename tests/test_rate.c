/* The rate command's methods (puzzle/rate.h): seed 004's blank and freedom
 * levels on hand-made boundary cases, search effort, method names, and how
 * SE's verdicts print. */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/clock.h"
#include "puzzle/rate.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

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

/* The example puzzle of Wikipedia's "Sudoku" article (a published puzzle
 * book grade: easy): naked singles alone fill it, as working it by hand
 * shows (r5c5 is 5, its only candidate, and so on). */
static const char *const singles_puzzle
    = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

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

/* SE's verdicts print as verdicts, never as a number: serate's 20.0 for a
 * puzzle beyond the techniques would read as the hardest rating (and be
 * drawn so); a rated puzzle prints its three numbers and technique. */
static void se_verdicts(void **state)
{
    (void) state;
    struct rate_values v;
    memset(&v, 0, sizeof(v));
    char text[160], csv[160];
    v.se = (struct se_rating) { .verdict = SE_BEYOND, .er = 200, .ep = 0, .ed = 99 };
    rate_format(text, sizeof(text), &v, RATE_SE, false);
    rate_format(csv, sizeof(csv), &v, RATE_SE, true);
    assert_string_equal(text, " se=beyond");
    assert_string_equal(csv, ",,,,beyond");
    v.se.verdict = SE_OUT_OF_TIME;
    rate_format(csv, sizeof(csv), &v, RATE_SE, true);
    assert_string_equal(csv, ",,,,out-of-time");
    v.se = (struct se_rating) {
        .verdict = SE_RATED, .er = 105, .ep = 32, .ed = 12, .er_tech = SE_nested_chains
    };
    rate_format(text, sizeof(text), &v, RATE_SE, false);
    rate_format(csv, sizeof(csv), &v, RATE_SE, true);
    assert_string_equal(text, " se=10.5/3.2/1.2 se_technique=Nested_Forcing_Chains");
    assert_string_equal(csv, ",10.5,3.2,1.2,Nested_Forcing_Chains");
}

/* A rater that rates SE reads its budget on the thread's CPU clock: a
 * rating must not depend on what else the machine runs. */
static void se_budget_is_cpu_time(void **state)
{
    (void) state;
    struct rater r;
    char why[200];
    assert_int_equal(rater_open(&r, RATE_SE, NULL, 1, 0, why, sizeof(why)), 0);
    const uint64_t before = clock_thread_cpu_ns();
    const uint64_t now = se_rater_now(r.se);
    assert_true(before <= now && now <= clock_thread_cpu_ns());
    rater_close(&r);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(blank_levels),
        cmocka_unit_test(freedom_levels),
        cmocka_unit_test(guesses_rater),
        cmocka_unit_test(method_names),
        cmocka_unit_test(se_verdicts),
        cmocka_unit_test(se_budget_is_cpu_time),
    };
    const struct test_group plain = { "rate", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
