/* HoDoKu's scale (rater/hodoku.h): scores summed by hand from HoDoKu's
 * table over the steps of SE's path, the levels with HoDoKu's per-level
 * maximum score, harder levels for X-wings and chains, and SE's verdicts for
 * puzzles without one solution. The puzzles and their SE ratings are from
 * tests/data/se_dev.tsv (serate's). */
#include "tests/test_util.h"

#include <string.h>

#include "common/grid.h"
#include "rater/hodoku.h"
#include "rater/se_rate.h"

static void load(struct grid *g, const char *text)
{
    assert_int_equal(grid_parse_token(g, text, strlen(text), NULL, NULL, 0), 0);
}

/* A solved grid by the usual shifting pattern, with three cells emptied in
 * different rows, columns and boxes: each is the last of its row. */
static void three_last_values(void **state)
{
    (void) state;
    char text[82];
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            text[r * 9 + c] = (char) ('1' + (r * 3 + r / 3 + c) % 9);
    text[81] = '\0';
    text[0] = text[40] = text[80] = '.';
    struct grid g;
    load(&g, text);
    struct hodoku_rating h;
    hodoku_rate_within(test_rater, &g, 0, &h, NULL);
    assert_int_equal(h.verdict, SE_RATED);
    assert_int_equal(h.score, 3 * 4); /* Full House: 4 each */
    assert_int_equal(h.level, HODOKU_EASY);
    assert_int_equal(h.steps, 3);
    assert_string_equal(h.hardest, "Full House");
}

struct tally {
    int of[SE_TECHNIQUE_COUNT];
    int steps;
};

static void count_step(void *ctx, enum se_technique tech, int rating)
{
    (void) rating;
    struct tally *t = ctx;
    t->of[tech]++;
    t->steps++;
}

/* An easy puzzle (SE 1.2/1.0/1.0): SE's path is last values and hidden
 * singles, which HoDoKu scores 4 and 14. */
static void singles_are_easy_and_scored_from_the_table(void **state)
{
    (void) state;
    struct grid g;
    load(&g,
        ".68451..2..9.....55.43..7.8..289..7.9..673..467...4.83143968.57..614........3.."
        "16");
    struct tally t;
    memset(&t, 0, sizeof(t));
    struct se_rating se;
    se_rate_steps(test_rater, &g, 0, &se, count_step, &t);
    assert_int_equal(se.verdict, SE_RATED);
    assert_int_equal(se.er, 12);
    const int singles
        = t.of[SE_full_house] + t.of[SE_hidden_single] + t.of[SE_naked_single];
    assert_int_equal(singles, t.steps); /* nothing but singles */
    assert_int_equal(t.steps, 40); /* one per blank */
    assert_true(t.of[SE_hidden_single] > 0 && t.of[SE_full_house] > 0);
    const int by_hand = 4 * t.of[SE_full_house] + 14 * t.of[SE_hidden_single]
        + 4 * t.of[SE_naked_single];
    struct hodoku_rating h;
    struct se_rating same;
    hodoku_rate_within(test_rater, &g, 0, &h, &same);
    assert_int_equal(h.verdict, SE_RATED);
    assert_int_equal(h.score, by_hand);
    assert_int_equal(h.score, 360); /* 20 last values, 20 hidden singles */
    assert_int_equal(h.level, HODOKU_EASY);
    assert_string_equal(h.hardest, "Hidden Single");
    assert_int_equal(same.er, se.er); /* the same path gives SE's rating too */
    assert_int_equal(same.ep, se.ep);
}

/* A medium technique at most, but a score above medium's 1000: hard. */
static void the_score_raises_the_level(void **state)
{
    (void) state;
    struct grid g;
    load(&g,
        "..5.3............8....721.3....6..7.......3.2...8.4.5.5.9..6...4.8.....76.3....."
        ".");
    struct hodoku_rating h;
    hodoku_rate_within(test_rater, &g, 0, &h, NULL);
    assert_int_equal(h.verdict, SE_RATED);
    assert_int_equal(hodoku_technique_of(SE_pointing)->level, HODOKU_MEDIUM);
    assert_string_equal(h.hardest, "Hidden Triple"); /* medium */
    assert_true(h.score > 1000 && h.score <= 1600);
    assert_int_equal(h.level, HODOKU_HARD);
}

static void x_wing_is_hard(void **state)
{
    (void) state;
    struct grid g;
    load(&g,
        "....7.....954........1..39..2....1.....3....4.6..2...8..8....1.5...8...27...6..."
        ".");
    struct hodoku_rating h;
    struct se_rating se;
    hodoku_rate_within(test_rater, &g, 0, &h, &se);
    assert_int_equal(se.er, 32);
    assert_int_equal(h.level, HODOKU_HARD);
    assert_string_equal(h.hardest, "X-Wing");
}

/* SE 7.1 (forcing chains): HoDoKu's unfair techniques at least, and a score
 * past unfair's 1800. */
static void chains_are_extreme(void **state)
{
    (void) state;
    struct grid g;
    load(&g,
        "..7..2...9..3..4..........6.8..7..2..13....4......9.1.7..9.6.....1...8..2....5.."
        ".");
    struct hodoku_rating h;
    struct se_rating se;
    hodoku_rate_within(test_rater, &g, 0, &h, &se);
    assert_int_equal(se.er, 71);
    assert_int_equal(h.verdict, SE_RATED);
    assert_true(h.score > 1800);
    assert_int_equal(h.level, HODOKU_EXTREME);
    assert_int_equal(hodoku_technique_of(se.er_tech)->level, HODOKU_UNFAIR);
}

static void verdicts_for_puzzles_without_one_solution(void **state)
{
    (void) state;
    struct grid g;
    struct hodoku_rating h;
    load(&g,
        "1..............................................................................."
        ".");
    hodoku_rate_within(test_rater, &g, 0, &h, NULL);
    assert_int_equal(h.verdict, SE_MULTIPLE);
    assert_int_equal(h.score, 0);
    /* r1c9 can only be 9, which column 9 already has */
    load(&g,
        "12345678.........9.............................................................."
        ".");
    hodoku_rate_within(test_rater, &g, 0, &h, NULL);
    assert_int_equal(h.verdict, SE_NO_SOLUTION);
    assert_int_equal(h.score, 0);
    assert_string_equal(hodoku_level_name(HODOKU_UNFAIR), "unfair");
}

/* Every SE technique is scored as a HoDoKu one; singles easy, the chains
 * that SE rates 7.5 and up extreme. */
static void every_technique_has_a_hodoku_score(void **state)
{
    (void) state;
    for (int t = 0; t < SE_TECHNIQUE_COUNT; t++) {
        const struct hodoku_technique *h = hodoku_technique_of((enum se_technique) t);
        assert_non_null(h->name);
        assert_true(h->score > 0);
        assert_true(h->level >= HODOKU_EASY && h->level <= HODOKU_EXTREME);
    }
    assert_int_equal(hodoku_technique_of(SE_naked_single)->level, HODOKU_EASY);
    assert_int_equal(hodoku_technique_of(SE_x_wing)->score, 140);
    assert_int_equal(hodoku_technique_of(SE_nested_chains)->level, HODOKU_EXTREME);
    assert_true(hodoku_technique_of(SE_direct_pointing)->hidden_single_too);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(three_last_values),
        cmocka_unit_test(singles_are_easy_and_scored_from_the_table),
        cmocka_unit_test(the_score_raises_the_level),
        cmocka_unit_test(x_wing_is_hard),
        cmocka_unit_test(chains_are_extreme),
        cmocka_unit_test(verdicts_for_puzzles_without_one_solution),
        cmocka_unit_test(every_technique_has_a_hodoku_score),
    };
    const struct test_group plain
        = { "hodoku", tests, TEST_COUNT(tests), test_rater_setup, test_rater_teardown };
    return test_main(argc, argv, &plain, NULL);
}
