/* The independent checker: it accepts solutions and catches every kind of
 * wrong answer a solver could give. */
#include <string.h>

#include "common/check.h"
#include "tests/test_util.h"

static void accepts_a_solution(void **state)
{
    (void) state;
    struct grid p, s;
    test_parse(&p, test_royle, GRID_STANDARD);
    test_parse(&s, test_royle_solution, GRID_STANDARD);
    assert_true(check_solution(&p, &s, NULL, 0));
}

static void catches_wrong_answers(void **state)
{
    (void) state;
    struct grid p, s;
    char why[120];
    test_parse(&p, test_royle, GRID_STANDARD);
    /* a changed clue: r1c2 is a clue 2; swapping values 2 and 9 everywhere
     * keeps every rule but breaks the clues */
    test_parse(&s, test_royle_solution, GRID_STANDARD);
    for (int i = 0; i < 81; i++)
        s.cell[i] = s.cell[i] == 2 ? 9 : s.cell[i] == 9 ? 2 : s.cell[i];
    assert_false(check_solution(&p, &s, why, sizeof(why)));
    assert_non_null(strstr(why, "changes clue"));
    /* an empty cell */
    test_parse(&s, test_royle_solution, GRID_STANDARD);
    s.cell[0] = 0;
    assert_false(check_solution(&p, &s, why, sizeof(why)));
    /* a value outside 1..9 */
    s.cell[0] = 10;
    assert_false(check_solution(&p, &s, why, sizeof(why)));
    /* a Latin square whose boxes are wrong: rows are rotations by one */
    struct grid latin, blank;
    grid_init(&blank, 3, 3, GRID_STANDARD);
    latin = blank;
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            latin.cell[r * 9 + c] = (uint8_t) ((r + c) % 9 + 1);
    assert_false(check_solution(&blank, &latin, why, sizeof(why)));
    assert_non_null(strstr(why, "box"));
    /* two cells swapped in a row: the columns break */
    test_parse(&s, test_royle_solution, GRID_STANDARD);
    const uint8_t t = s.cell[0];
    s.cell[0] = s.cell[3];
    s.cell[3] = t;
    assert_false(check_solution(&blank, &s, why, sizeof(why)));
    /* ... and the message names the value and both of its cells */
    int other = 1;
    while (other < 9 && s.cell[other * 9] != s.cell[0])
        other++;
    assert_true(other < 9);
    char want[120];
    snprintf(want, sizeof(want), "value %d appears twice in column 1 (r1c1 and r%dc1)",
        s.cell[0], other + 1);
    assert_string_equal(why, want);
    /* another shape */
    struct grid small;
    test_parse(&small, "1234341221434321", GRID_STANDARD);
    assert_false(check_solution(&p, &small, why, sizeof(why)));
}

static void the_diagonal_rule(void **state)
{
    (void) state;
    struct grid p, s;
    /* a valid 4x4 grid whose main diagonal repeats 1 and 4 */
    test_parse(&s, "1234341221434321", GRID_STANDARD);
    test_parse(&p, "................", GRID_STANDARD);
    assert_true(check_solution(&p, &s, NULL, 0));
    test_parse(&p, "................", GRID_DIAGONAL);
    char why[120];
    assert_false(check_solution(&p, &s, why, sizeof(why)));
    assert_string_equal(
        why, "value 4 appears twice in the main diagonal (r2c2 and r3c3)");
    test_parse(&s, "1234341243212143", GRID_DIAGONAL);
    assert_true(check_solution(&p, &s, NULL, 0));
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepts_a_solution),
        cmocka_unit_test(catches_wrong_answers),
        cmocka_unit_test(the_diagonal_rule),
    };
    const struct test_group plain = { "check", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
