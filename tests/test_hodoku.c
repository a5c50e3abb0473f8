/* HoDoKu's scale (rater/hodoku.h): the table and the level rule against
 * HoDoKu's own ratings of se_dev's puzzles, scores over SE's path from a
 * replay of that path written here, harder levels for X-wings and chains,
 * and SE's verdicts for puzzles without one solution. The puzzles and their
 * ratings are from tests/data (se_dev.README.md gives their provenance). */
#include "tests/test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* SE's path over singles, replayed apart from the rater: a full house (SE
 * 1.0) whenever one is left, else the first hidden single in SE's order of
 * regions (boxes, then columns, then rows; the lowest value first), else a
 * naked single. Counts each kind; false when none is left before the end. */
struct singles_path {
    int full_house, hidden, naked;
};

static int region_cell(int k, int i)
{
    if (k < 9)
        return (k / 3 * 3 + i / 3) * 9 + k % 3 * 3 + i % 3;
    return k < 18 ? i * 9 + (k - 9) : (k - 18) * 9 + i;
}

static bool fits(const uint8_t *v, int c, int d)
{
    for (int o = 0; o < 81; o++)
        if (v[o] == d
            && (o / 9 == c / 9 || o % 9 == c % 9
                || (o / 27 == c / 27 && o % 9 / 3 == c % 9 / 3)))
            return false;
    return true;
}

static bool replay_singles(const struct grid *g, struct singles_path *path)
{
    uint8_t v[81];
    memcpy(v, g->cell, 81);
    memset(path, 0, sizeof(*path));
    for (;;) {
        int at = -1, value = 0, *kind = NULL;
        for (int k = 0; k < 27 && at < 0; k++) {
            int empty = 0, cell = -1, seen = 0;
            for (int i = 0; i < 9; i++) {
                const int c = region_cell(k, i);
                if (!v[c])
                    empty++, cell = c;
                seen |= 1 << v[c];
            }
            if (empty == 1) {
                at = cell, kind = &path->full_house;
                for (value = 1; seen & (1 << value); value++)
                    ;
            }
        }
        for (int k = 0; k < 27 && at < 0; k++)
            for (int d = 1; d <= 9 && at < 0; d++) {
                int places = 0, cell = -1;
                for (int i = 0; i < 9; i++) {
                    const int c = region_cell(k, i);
                    if (!v[c] && fits(v, c, d))
                        places++, cell = c;
                }
                if (places == 1)
                    at = cell, value = d, kind = &path->hidden;
            }
        for (int c = 0; c < 81 && at < 0; c++) {
            int n = 0, last = 0;
            for (int d = 1; d <= 9 && !v[c]; d++)
                if (fits(v, c, d))
                    n++, last = d;
            if (n == 1)
                at = c, value = last, kind = &path->naked;
        }
        if (at < 0)
            break;
        v[at] = (uint8_t) value;
        (*kind)++;
    }
    for (int c = 0; c < 81; c++)
        if (!v[c])
            return false;
    return true;
}

/* An easy puzzle (SE 1.2/1.0/1.0): SE's path, replayed above, is 20 last
 * values and 20 hidden singles, which HoDoKu's table scores 4 and 14. */
static void singles_are_easy_and_scored_from_the_table(void **state)
{
    (void) state;
    struct grid g;
    load(&g,
        ".68451..2..9.....55.43..7.8..289..7.9..673..467...4.83143968.57..614........3.."
        "16");
    struct singles_path path;
    assert_true(replay_singles(&g, &path));
    assert_int_equal(path.full_house, 20);
    assert_int_equal(path.hidden, 20);
    assert_int_equal(path.naked, 0);
    struct hodoku_rating h;
    struct se_rating se;
    hodoku_rate_within(test_rater, &g, 0, &h, &se);
    assert_int_equal(h.verdict, SE_RATED);
    assert_int_equal(h.steps, 40);
    assert_int_equal(h.score, 4 * path.full_house + 14 * path.hidden);
    assert_int_equal(h.level, HODOKU_EASY);
    assert_string_equal(h.hardest, "Hidden Single");
    assert_int_equal(se.er, 12); /* the same path gives SE's rating too */
    assert_int_equal(se.ep, 10);
}

/* The entry of hodoku_technique_of's table that HoDoKu calls `name`, or NULL. */
static const struct hodoku_technique *named(const char *name, size_t len)
{
    for (int t = 0; t < SE_TECHNIQUE_COUNT; t++) {
        const struct hodoku_technique *h = hodoku_technique_of((enum se_technique) t);
        if (strlen(h->name) == len && strncmp(h->name, name, len) == 0)
            return h;
    }
    return NULL;
}

/* HoDoKu's own ratings of se_dev's 327 puzzles (se_dev_hodoku.tsv: HoDoKu
 * 2.2.4's level, score and the techniques of its path with their counts).
 * Its path is not SE's, so its scores are not sudolab's; but on every path
 * made only of techniques the table names, the table's base scores summed
 * over the path and hodoku_level_for must give HoDoKu's score and level. */
static void the_table_scores_hodokus_own_paths(void **state)
{
    (void) state;
    char path[4096];
    snprintf(path, sizeof(path), "%s/se_dev_hodoku.tsv", test_data_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot open", path);
    char line[4096];
    int lines = 0, compared = 0, misses = 0;
    int at_level[HODOKU_EXTREME + 1] = { 0 };
    while (fgets(line, sizeof(line), f)) {
        lines++;
        char level[16], steps[sizeof(line)];
        int score;
        if (sscanf(line, "%*81s %15s %d %4095[^\n]", level, &score, steps) != 3)
            fail_msg("%s:%d: not puzzle, level, score and steps", path, lines);
        int sum = 0, highest = HODOKU_EASY;
        bool known = true;
        for (const char *at = steps; known && *at;) {
            const char *eq = strchr(at, '=');
            if (!eq)
                fail_msg("%s:%d: a step without its count", path, lines);
            const struct hodoku_technique *h = named(at, (size_t) (eq - at));
            char *end;
            const long count = strtol(eq + 1, &end, 10);
            if (!h) {
                known = false;
                break;
            }
            sum += h->score * (int) count;
            if ((int) h->level > highest)
                highest = (int) h->level;
            at = *end == ';' ? end + 1 : end;
        }
        if (!known)
            continue;
        compared++;
        const enum hodoku_level ours = hodoku_level_for((enum hodoku_level) highest, sum);
        at_level[ours]++;
        if (sum != score || strcasecmp(hodoku_level_name(ours), level) != 0) {
            misses++;
            printf("# %s:%d: HoDoKu %s (%d), the table %s (%d)\n", path, lines, level,
                score, hodoku_level_name(ours), sum);
        }
    }
    fclose(f);
    printf("# se_dev_hodoku.tsv: %d of %d paths of known techniques (easy %d, medium %d, "
           "hard %d), %d misses\n",
        compared, lines, at_level[HODOKU_EASY], at_level[HODOKU_MEDIUM],
        at_level[HODOKU_HARD], misses);
    assert_int_equal(misses, 0);
    assert_int_equal(lines, 327);
    /* the file's easy, medium and hard paths of table techniques: each level's rule met
     */
    assert_true(at_level[HODOKU_EASY] >= 100 && at_level[HODOKU_MEDIUM] >= 20
        && at_level[HODOKU_HARD] >= 5);
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
        cmocka_unit_test(the_table_scores_hodokus_own_paths),
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
