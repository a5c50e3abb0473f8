/* Pencil-mark ("sukaku") puzzles: the n*n*n-character candidate format and the
 * back ends that start from candidates.
 *
 *  - the reader: a 729-character line is taken by its length among 81-character
 *    ones (plain and xz-compressed), --format sukaku forces it, a cell with one
 *    candidate stays blank, and bad lines come back with their line and reason
 *    (a symbol out of place, a cell with no candidate, a wrong length);
 *  - the checker refuses a solution that uses a removed candidate;
 *  - every back end with SOLVER_CAP_CANDIDATES counts a candidate puzzle as
 *    many solutions as the clue puzzle's solutions (enumerated by mrv and
 *    filtered here) that keep to the candidates: removing one solution's value
 *    at a cell changes the count; the other back ends refuse the puzzle;
 *  - two cells whose only candidate is one value in a unit clash as two clues;
 *  - the SE rater gives serate's ER/EP/ED on every line of
 *    tests/data/se_sukaku.tsv (provenance in se_dev.README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

#include "common/check.h"
#include "common/corpus.h"
#include "rater/se_rate.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

/* Moler's Figure 1 (Gordon Royle's symmetric puzzle, tests/data/crosscheck.txt)
 * with its first clue blanked, so that it has several solutions. */
static const char loose[]
    = "....3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.";

static void read_text(const char *text, size_t len, enum corpus_format format,
    struct corpus_item *items, enum corpus_status *status, int max, int *count)
{
    FILE *f = fmemopen((void *) text, len, "rb");
    assert_non_null(f);
    const struct corpus_options opts = { .format = format };
    struct corpus *c = corpus_open_stream(f, "mem", 1, &opts);
    assert_non_null(c);
    *count = 0;
    enum corpus_status st;
    while ((st = corpus_next(c, &items[*count])) == CORPUS_PUZZLE || st == CORPUS_BAD) {
        status[*count] = st;
        (*count)++;
        assert_true(*count < max);
    }
    corpus_close(c);
}

/* The candidate line of a clue puzzle: clues one candidate, blanks all nine. */
static void candidates_of(const char *clues, char *line)
{
    struct grid g;
    test_parse(&g, clues, GRID_STANDARD);
    grid_format_candidates(&g, line);
    assert_int_equal(strlen(line), 729);
}

static void reader_detects_by_length(void **state)
{
    (void) state;
    char text[4096], cand[730];
    candidates_of(loose, cand);
    cand[0] = '.'; /* r1c1 loses candidate 1 */
    for (int v = 2; v <= 8; v++)
        cand[9 + v - 1] = '0'; /* r1c2 keeps 1 and 9 ('0' removes, as '.' does) */
    snprintf(text, sizeof(text), "%s\n%s  # pencil marks\n", loose, cand);
    struct corpus_item items[4];
    enum corpus_status status[4];
    int count;
    read_text(text, strlen(text), CORPUS_AUTO, items, status, 4, &count);
    assert_int_equal(count, 2);
    assert_int_equal(status[0], CORPUS_PUZZLE);
    assert_false(items[0].puzzle.has_candidates);
    assert_int_equal(status[1], CORPUS_PUZZLE);
    const struct grid *g = &items[1].puzzle;
    assert_true(g->has_candidates);
    assert_int_equal(g->n, 9);
    assert_int_equal(items[1].line, 2);
    assert_string_equal(items[1].extra, " # pencil marks");
    assert_int_equal(g->candidates[0], 0x1fe);
    assert_int_equal(g->candidates[1], 0x101);
    /* a clue of the clue line is one candidate there, and not a clue */
    assert_int_equal(g->cell[4], 0);
    assert_int_equal(g->candidates[4], 1u << 2);
    assert_int_equal(grid_count_clues(g), 0);
    /* and it writes back as read ('0' written as '.') */
    char back[730];
    grid_format_candidates(g, back);
    for (int v = 2; v <= 8; v++)
        cand[9 + v - 1] = '.';
    assert_memory_equal(back, cand, 729);
}

static void reader_reads_compressed(void **state)
{
    (void) state;
    char text[2 * 730 + 1], cand[730];
    candidates_of(loose, cand);
    snprintf(text, sizeof(text), "%s\n%s\n", cand, cand);
    const size_t len = strlen(text), cap = lzma_stream_buffer_bound(len);
    uint8_t *xz = malloc(cap);
    assert_non_null(xz);
    size_t zlen = 0;
    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
                         (const uint8_t *) text, len, xz, &zlen, cap),
        LZMA_OK);
    struct corpus_item items[4];
    enum corpus_status status[4];
    int count;
    read_text((const char *) xz, zlen, CORPUS_AUTO, items, status, 4, &count);
    free(xz);
    assert_int_equal(count, 2);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(status[k], CORPUS_PUZZLE);
        assert_true(items[k].puzzle.has_candidates);
    }
}

static void reader_bad_lines(void **state)
{
    (void) state;
    char cand[730], misplaced[730], empty_cell[730], text[4 * 740];
    candidates_of(loose, cand);
    memcpy(misplaced, cand, sizeof(cand));
    misplaced[12] = '5'; /* r2c2's candidate 4 spot */
    memcpy(empty_cell, cand, sizeof(cand));
    memset(empty_cell + 9 * 10, '.', 9); /* r2c2 */
    snprintf(
        text, sizeof(text), "%s\n%s\n%.728s\n%s\n", misplaced, empty_cell, cand, cand);
    struct corpus_item items[6];
    enum corpus_status status[6];
    int count;
    read_text(text, strlen(text), CORPUS_AUTO, items, status, 6, &count);
    assert_int_equal(count, 4);
    assert_int_equal(status[0], CORPUS_BAD);
    assert_int_equal(items[0].line, 1);
    assert_string_equal(
        items[0].why, "'5' at column 13 stands where candidate 4 of r1c2 goes");
    assert_int_equal(status[1], CORPUS_BAD);
    assert_int_equal(items[1].line, 2);
    assert_string_equal(
        items[1].why, "r2c2 has no candidate: the puzzle is a contradiction");
    assert_int_equal(status[2], CORPUS_BAD); /* 728 symbols: no size */
    assert_int_equal(status[3], CORPUS_PUZZLE); /* the reader went on */
    assert_int_equal(items[3].line, 4);
    /* forced, 81 symbols are no candidate grid; 64 are 4x4's */
    char forced[200];
    snprintf(forced, sizeof(forced), "%s\n%s\n", loose,
        "1234123412341234123412341234123412341234123412341234123412341234");
    read_text(forced, strlen(forced), CORPUS_SUKAKU, items, status, 6, &count);
    assert_int_equal(count, 2);
    assert_int_equal(status[0], CORPUS_BAD);
    assert_non_null(strstr(items[0].why, "81 symbols is no candidate grid size"));
    assert_int_equal(status[1], CORPUS_PUZZLE);
    assert_int_equal(items[1].puzzle.n, 4);
    assert_true(items[1].puzzle.has_candidates);
}

static void checker_keeps_to_candidates(void **state)
{
    (void) state;
    struct grid clues, cand;
    test_parse(&clues, loose, GRID_STANDARD);
    struct solver_instance *inst = test_open("mrv");
    struct solve_result res;
    test_solve(inst, &clues, 1, 0, &res);
    assert_int_equal(res.solutions, 1);
    solver_close(inst);
    char line[730], why[200];
    grid_format_candidates(&clues, line);
    char whyp[200];
    assert_int_equal(
        grid_parse_candidates(&cand, line, 729, NULL, whyp, sizeof(whyp)), 0);
    assert_true(check_solution(&cand, &res.solution, why, sizeof(why)));
    /* remove the solution's value at r1c1 from the candidates */
    cand.candidates[0] &= (uint16_t) ~(1u << (res.solution.cell[0] - 1));
    assert_false(check_solution(&cand, &res.solution, why, sizeof(why)));
    char want[80];
    snprintf(want, sizeof(want), "r1c1 holds %d, not one of its candidates",
        res.solution.cell[0]);
    assert_string_equal(why, want);
}

/* Counts of a candidate puzzle against the clue puzzle's solutions filtered
 * here: all candidates (the same count), then the first solution's value
 * removed at a blank cell (fewer), for every back end that takes them. */
static void backends_count_within_candidates(void **state)
{
    (void) state;
    struct grid clues;
    test_parse(&clues, loose, GRID_STANDARD);
    struct test_solutions all = { .puzzle = &clues };
    struct solver_instance *mrv = test_open("mrv");
    const struct solve_request enumerate
        = { .limit = 0, .on_solution = test_collect_solution, .ctx = &all };
    struct solve_result res;
    solver_run(mrv, &clues, &enumerate, &res);
    solver_close(mrv);
    assert_int_equal(all.wrong, 0);
    assert_true(all.count >= 2); /* else no removal can tell the counts apart */
    assert_int_equal(test_solutions_repeated(&all), 0);

    char line[730], why[200];
    grid_format_candidates(&clues, line);
    struct grid full, cut;
    assert_int_equal(grid_parse_candidates(&full, line, 729, NULL, why, sizeof(why)), 0);
    cut = full;
    const int cell = 0, removed = all.cells[cell]; /* r1c1 of one solution */
    assert_int_equal(clues.cell[cell], 0);
    cut.candidates[cell] &= (uint16_t) ~(1u << (removed - 1));
    uint64_t within = 0;
    for (size_t k = 0; k < all.count; k++)
        within += all.cells[k * 81 + cell] != removed;
    assert_true(within < all.count);

    const struct solver **solvers = test_solvers("candidates not tested");
    assert_non_null(solvers);
    int takers = 0;
    for (const struct solver **s = solvers; *s; s++) {
        const bool takes = ((*s)->caps & SOLVER_CAP_CANDIDATES) != 0;
        assert_int_equal(solver_supports(*s, &full, why, sizeof(why)), takes);
        if (!takes) {
            assert_non_null(strstr(why, "does not start from candidates"));
            continue;
        }
        if (strcmp((*s)->family, "backtrack") == 0)
            continue; /* naive's 9x9 search is minutes: single_candidate_is_no_clue */
        takers++;
        struct solver_instance *inst = solver_open(*s);
        assert_non_null(inst);
        const struct {
            const struct grid *g;
            uint64_t want;
        } cases[] = { { &full, all.count }, { &cut, within } };
        for (size_t c = 0; c < TEST_COUNT(cases); c++) {
            test_solve(inst, cases[c].g, 0, 0, &res);
            if (res.solutions != cases[c].want)
                fail_msg("%s counts %llu, %llu expected (case %zu)", (*s)->name,
                    (unsigned long long) res.solutions,
                    (unsigned long long) cases[c].want, c);
            if (res.solutions)
                test_assert_solution(cases[c].g, &res.solution, (*s)->name);
            /* and enumerated, every solution keeps to the candidates */
            struct test_solutions got = { .puzzle = cases[c].g };
            const struct solve_request each
                = { .limit = 0, .on_solution = test_collect_solution, .ctx = &got };
            solver_run(inst, cases[c].g, &each, &res);
            assert_int_equal(got.wrong, 0);
            assert_int_equal(got.count, cases[c].want);
            assert_int_equal(test_solutions_repeated(&got), 0);
            test_solutions_free(&got);
        }
        solver_close(inst);
    }
    free(solvers);
    test_solutions_free(&all);
    assert_true(takers >= 1);
}

/* A cell with one candidate is a single to find, not a clue: with every other
 * cell open, the empty 4x4 grid's 288 solutions with r1c1 = {4} are a quarter of
 * them (relabelling the values maps them onto one another). */
static void single_candidate_is_no_clue(void **state)
{
    (void) state;
    char line[65];
    memset(line, 0, sizeof(line));
    for (int i = 0; i < 16; i++)
        memcpy(line + 4 * i, "1234", 4);
    memcpy(line, "...4", 4);
    struct grid g;
    char why[200];
    const struct grid_shape four = { .box_rows = 2, .box_cols = 2 };
    assert_int_equal(grid_parse_candidates(&g, line, 64, &four, why, sizeof(why)), 0);
    assert_int_equal(g.cell[0], 0);
    const char *const names[] = { "mrv", "dlx", "naive" };
    for (size_t k = 0; k < TEST_COUNT(names); k++) {
        struct solver_instance *inst = test_open(names[k]);
        struct solve_result res;
        test_solve(inst, &g, 0, 0, &res);
        assert_int_equal(res.solutions, 288 / 4);
        assert_int_equal(res.solution.cell[0], 4);
        solver_close(inst);
    }
}

/* Two lone candidates of one value in a unit are a contradiction, named as
 * two equal clues are; one lone candidate that peers still have is not. */
static void lone_candidates_clash(void **state)
{
    (void) state;
    char cand[730], why[200];
    candidates_of(loose, cand);
    struct grid g;
    memcpy(cand + 9 * 1, "....5....", 9); /* r1c2 = {5}: r1c5 keeps its clue 3 */
    assert_int_equal(grid_parse_token(&g, cand, 729, NULL, why, sizeof(why)), 0);
    assert_false(grid_find_conflict(&g, why, sizeof(why)));
    memcpy(cand + 9 * 8, "....5....", 9); /* r1c9 = {5} as well */
    assert_int_equal(grid_parse_token(&g, cand, 729, NULL, why, sizeof(why)), 0);
    assert_true(grid_find_conflict(&g, why, sizeof(why)));
    assert_string_equal(why, "lone candidate 5 appears twice in row 1 (r1c2 and r1c9)");
}

/* serate's ratings of pencil-mark variants of se_dev puzzles: the clue
 * puzzle's own candidates, all nine at each blank (its clues then are singles
 * to place), random non-solution candidates removed, a blank narrowed to its
 * value, a clue widened to two candidates. ER, EP and ED each equal. */
static void se_rates_pencil_marks_as_serate(void **state)
{
    (void) state;
    struct test_se_rated *rated;
    size_t n, misses = 0;
    assert_int_equal(test_load_se_ratings("se_sukaku.tsv", &rated, &n), 0);
    struct se_rater *rt = se_rater_new();
    assert_non_null(rt);
    for (size_t i = 0; i < n; i++) {
        const struct test_se_rated *want = &rated[i];
        assert_true(want->puzzle.has_candidates);
        struct se_rating r;
        se_rate(rt, &want->puzzle, &r);
        if (r.verdict != SE_RATED || r.er != want->er || r.ep != want->ep
            || r.ed != want->ed) {
            misses++;
            printf("# se_sukaku.tsv:%lu: %s rated %d.%d/%d.%d/%d.%d (verdict %d), "
                   "serate %s\n",
                want->line, want->source, r.er / 10, r.er % 10, r.ep / 10, r.ep % 10,
                r.ed / 10, r.ed % 10, (int) r.verdict, want->serate);
        }
    }
    se_rater_free(rt);
    free(rated);
    assert_int_equal(misses, 0);
    assert_true(n >= 20);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(reader_detects_by_length),
        cmocka_unit_test(reader_reads_compressed),
        cmocka_unit_test(reader_bad_lines),
        cmocka_unit_test(checker_keeps_to_candidates),
        cmocka_unit_test(backends_count_within_candidates),
        cmocka_unit_test(single_candidate_is_no_clue),
        cmocka_unit_test(lone_candidates_clash),
        cmocka_unit_test(se_rates_pencil_marks_as_serate),
    };
    const struct test_group plain = { "sukaku", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
