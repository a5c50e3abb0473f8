/* Grids beyond 25x25 (docs/formats.md): 36x36 (6x6 boxes) and 49x49 (7x7)
 * read and write in Lewis's format and as whitespace grids, print, check,
 * and solve with every back end whose sizes take them (each answer verified
 * by solver_run and again here), while the others refuse with their usual
 * message; the complete ones agree on the count to two. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/corpus.h"
#include "common/rng.h"
#include "solvers/registry.h"
#include "test_util.h"

static const int box_sides[] = { 6, 7 };

/* A full grid of box side b: the pattern grid with its values relabelled and
 * its rows shuffled inside their bands, seeded. */
static void full_grid(struct grid *g, int b, uint64_t seed)
{
    const int n = b * b;
    assert_int_equal(grid_init(g, b, b, GRID_STANDARD), 0);
    struct rng r;
    rng_seed(&r, seed);
    int value[GRID_MAX_N], row[GRID_MAX_N];
    for (int k = 0; k < n; k++)
        value[k] = k + 1;
    rng_shuffle(&r, value, n);
    for (int band = 0; band < b; band++) {
        int in_band[GRID_MAX_N];
        for (int k = 0; k < b; k++)
            in_band[k] = band * b + k;
        rng_shuffle(&r, in_band, b);
        memcpy(row + band * b, in_band, (size_t) b * sizeof(int));
    }
    for (int i = 0; i < n; i++) {
        const int pr = row[i];
        for (int c = 0; c < n; c++)
            g->cell[i * n + c] = (uint8_t) value[(b * (pr % b) + pr / b + c) % n];
    }
}

/* The full grid with about one cell in `one_in` blanked, seeded. */
static void puzzle_of(
    struct grid *puzzle, const struct grid *full, int one_in, uint64_t seed)
{
    *puzzle = *full;
    struct rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < full->ncells; i++) {
        if (rng_below(&r, (uint64_t) one_in) == 0)
            puzzle->cell[i] = 0;
    }
}

static void full_grids_pass_the_checker(void **state)
{
    (void) state;
    for (size_t k = 0; k < TEST_COUNT(box_sides); k++) {
        struct grid full;
        full_grid(&full, box_sides[k], 31 + k);
        char why[200];
        assert_true(check_solution(&full, &full, why, sizeof(why)));
        assert_false(grid_find_conflict(&full, why, sizeof(why)));
        /* the largest value twice in row 1: its bit is above 32 */
        const int n = full.n;
        int at = 0;
        while (full.cell[at] != n)
            at++;
        struct grid bad = full;
        bad.cell[at == 0 ? 1 : 0] = (uint8_t) n;
        assert_true(grid_find_conflict(&bad, why, sizeof(why)));
        char want[64];
        snprintf(want, sizeof(want), "clue %d appears twice in row 1", n);
        assert_non_null(strstr(why, want));
        assert_false(check_solution(&full, &bad, why, sizeof(why)));
    }
}

/* Reads the one puzzle of text (format auto) into g; returns its name. */
static void read_back(const char *text, size_t len, struct grid *g, char *name)
{
    FILE *f = fmemopen((void *) text, len, "r");
    assert_non_null(f);
    const struct corpus_options opts = { .format = CORPUS_AUTO };
    struct corpus *c = corpus_open_stream(f, "big", 1, &opts);
    assert_non_null(c);
    static struct corpus_item item;
    const enum corpus_status got = corpus_next(c, &item);
    if (got != CORPUS_PUZZLE)
        fail_msg("line %lu: %s", item.line, item.why);
    *g = item.puzzle;
    strcpy(name, item.name);
    assert_int_equal(corpus_next(c, &item), CORPUS_END);
    corpus_close(c);
}

static void lewis_and_whitespace_round_trip(void **state)
{
    (void) state;
    for (size_t k = 0; k < TEST_COUNT(box_sides); k++) {
        struct grid full, puzzle, back;
        full_grid(&full, box_sides[k], 7 + k);
        puzzle_of(&puzzle, &full, 3, 8 + k);
        char *text = NULL, name[CORPUS_NAME_MAX];
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        assert_int_equal(corpus_write_lewis(out, &puzzle, "inst_big.txt"), 0);
        fclose(out);
        read_back(text, len, &back, name);
        assert_string_equal(name, "inst_big.txt");
        assert_int_equal(back.n, puzzle.n);
        assert_int_equal(back.box_rows, box_sides[k]);
        assert_memory_equal(back.cell, puzzle.cell, puzzle.ncells);
        free(text);

        out = open_memstream(&text, &len);
        for (int i = 0; i < puzzle.ncells; i++)
            fprintf(out, "%d%c", puzzle.cell[i], (i + 1) % puzzle.n ? ' ' : '\n');
        fclose(out);
        read_back(text, len, &back, name);
        assert_int_equal(back.box_rows, box_sides[k]);
        assert_memory_equal(back.cell, puzzle.cell, puzzle.ncells);
        free(text);
    }
}

static void no_line_form_but_numbers_when_drawn(void **state)
{
    (void) state;
    struct grid full;
    full_grid(&full, 6, 5);
    assert_false(grid_has_line_form(&full));
    static char line[GRID_MAX_CELLS + 1];
    grid_format_line(&full, line);
    assert_string_equal(line, "-");
    /* 1,296 symbols: no length of the line form, with or without a size */
    memset(line, '1', 1296);
    char why[200];
    struct grid g;
    assert_int_equal(grid_parse_token(&g, line, 1296, NULL, why, sizeof(why)), -1);
    const struct grid_shape six = { 6, 6, GRID_STANDARD };
    assert_int_equal(grid_parse_token(&g, line, 1296, &six, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "36x36 has no line form"));

    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    grid_print_pretty(&full, out);
    fclose(out);
    char first[16];
    snprintf(first, sizeof(first), "| %2d ", full.cell[0]);
    assert_non_null(strstr(text, first));
    assert_null(strchr(text, '?'));
    free(text);
}

static bool takes(const struct solver *s, int n)
{
    return s->min_n <= n && s->max_n >= n;
}

/* The SAT family's pairwise CNF of a 49x49 grid has 11 million clauses
 * (about 1 GB and 10 s each): tried by hand (docs/formats.md), not here. */
static bool too_heavy(const struct solver *s, int n)
{
    return n > 36 && strncmp(s->name, "sat", 3) == 0;
}

static void claimants_solve_and_others_refuse(void **state)
{
    (void) state;
    for (size_t k = 0; k < TEST_COUNT(box_sides); k++) {
        struct grid full, puzzle;
        full_grid(&full, box_sides[k], 100 + k);
        puzzle_of(&puzzle, &full, 10, 200 + k);
        const int n = full.n;
        int solved = 0;
        for (size_t i = 0; i < solver_count(); i++) {
            const struct solver *s = solver_registry[i];
            char why[200];
            if (!solver_available(s, why, sizeof(why)) || too_heavy(s, n))
                continue;
            struct solver_instance *inst = solver_open(s);
            assert_non_null(inst);
            const struct solve_request req
                = { .limit = 1, .budget_steps = 50000000, .seed = 9 };
            static struct solve_result res;
            solver_run(inst, &puzzle, &req, &res);
            solver_close(inst);
            if (!takes(s, n)) {
                char want[64];
                snprintf(want, sizeof(want), "does not handle %dx%d grids", n, n);
                if (res.status != SOLVE_STATUS_ERROR || !strstr(res.error, want))
                    fail_msg("%s on %dx%d: status %d, \"%s\"", s->name, n, n,
                        (int) res.status, res.error);
                continue;
            }
            if (res.status != SOLVE_STATUS_SOLVED)
                fail_msg("%s on %dx%d: status %d, \"%s\"", s->name, n, n,
                    (int) res.status, res.error);
            assert_true(check_solution(&puzzle, &res.solution, why, sizeof(why)));
            solved++;
        }
        /* acs, anneal, dlx, naive, naive_stack at least */
        assert_true(solved >= 5);
    }
}

/* bench's cross-check at these sizes: the complete back ends that take the
 * size give the same count to two. */
static void complete_back_ends_agree(void **state)
{
    (void) state;
    for (size_t k = 0; k < TEST_COUNT(box_sides); k++) {
        struct grid full, puzzle;
        full_grid(&full, box_sides[k], 300 + k);
        puzzle_of(&puzzle, &full, 8, 400 + k);
        const int n = full.n;
        uint64_t first = 0;
        int counted = 0;
        for (size_t i = 0; i < solver_count(); i++) {
            const struct solver *s = solver_registry[i];
            char why[200];
            if (!(s->caps & SOLVER_CAP_COUNT) || !takes(s, n) || too_heavy(s, n)
                || !solver_available(s, why, sizeof(why)))
                continue;
            struct solver_instance *inst = solver_open(s);
            assert_non_null(inst);
            const struct solve_request req = { .limit = 2, .budget_steps = 50000000 };
            static struct solve_result res;
            solver_run(inst, &puzzle, &req, &res);
            solver_close(inst);
            if (res.status != SOLVE_STATUS_UNIQUE && res.status != SOLVE_STATUS_MULTIPLE)
                fail_msg("%s on %dx%d: status %d, \"%s\"", s->name, n, n,
                    (int) res.status, res.error);
            if (counted++ == 0)
                first = res.solutions;
            else if (res.solutions != first)
                fail_msg("%s counts %llu on %dx%d, the first back end %llu", s->name,
                    (unsigned long long) res.solutions, n, n, (unsigned long long) first);
        }
        assert_true(counted >= 3); /* dlx, naive, naive_stack */
    }
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(full_grids_pass_the_checker),
        cmocka_unit_test(lewis_and_whitespace_round_trip),
        cmocka_unit_test(no_line_form_but_numbers_when_drawn),
        cmocka_unit_test(claimants_solve_and_others_refuse),
        cmocka_unit_test(complete_back_ends_agree),
    };
    const struct test_group plain = { "big_grids", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
