/* The logic solver (puzzle/logic.h): the technique grader on puzzles whose
 * grade is shown by hand below, its hints, and where it gets stuck. */
#include <stdlib.h>
#include <string.h>

#include "puzzle/logic.h"
#include "tests/test_util.h"

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

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(grades_singles, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(grades_pair, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(grades_xwing, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(hint_is_next_step, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(xwing_hint, logic_setup, logic_teardown),
        cmocka_unit_test_setup_teardown(
            stuck_and_contradiction, logic_setup, logic_teardown),
    };
    const struct test_group plain = { "logic", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
