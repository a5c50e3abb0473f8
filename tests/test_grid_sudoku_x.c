/* gridcount/grid_sudoku_x: the 9x9 Sudoku X count by bands against plain
 * enumeration by a back end (mrv, diagonal variant) on first bands drawn from
 * a seed, and its classes against the maps that keep both diagonals, written
 * here as maps of whole grids. */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/rng.h"
#include "gridcount/grid_sudoku_x.h"
#include "test_util.h"

static uint64_t seed;

/* The grids over a first band (values 1..9) by enumeration. */
static uint64_t enumerate(const uint8_t band[GRID_X_BAND])
{
    struct grid g;
    grid_init(&g, 3, 3, GRID_DIAGONAL);
    for (int i = 0; i < GRID_X_BAND; i++)
        g.cell[i] = band[i];
    struct solver_instance *inst = test_open("mrv");
    struct solve_result res;
    test_solve(inst, &g, 0, 0, &res);
    solver_close(inst);
    assert_true(res.status == SOLVE_STATUS_UNIQUE || res.status == SOLVE_STATUS_MULTIPLE
        || res.status == SOLVE_STATUS_UNSOLVABLE);
    return res.solutions;
}

/* A first band drawn from r: random digits row by row, cell by cell, over
 * again when a cell has none left (rows and boxes only: the diagonals of a
 * first band lie in boxes 1 and 3, so any band is a Sudoku X first band). */
static void random_band(struct rng *r, uint8_t band[GRID_X_BAND])
{
    for (;;) {
        unsigned rows[3] = { 0 }, boxes[3] = { 0 }, cols[GRID_X_N] = { 0 };
        bool stuck = false;
        for (int p = 0; p < GRID_X_BAND && !stuck; p++) {
            const int row = p / GRID_X_N, col = p % GRID_X_N;
            int open[GRID_X_N], n = 0;
            for (int v = 1; v <= GRID_X_N; v++)
                if (!((rows[row] | boxes[col / 3] | cols[col]) >> v & 1u))
                    open[n++] = v;
            stuck = n == 0;
            if (!stuck) {
                const int v = open[rng_below(r, (uint64_t) n)];
                band[p] = (uint8_t) v;
                rows[row] |= 1u << v;
                boxes[col / 3] |= 1u << v;
                cols[col] |= 1u << v;
            }
        }
        if (!stuck)
            return;
    }
}

/* Maps of the whole grid that keep both diagonals: rows by row[], columns by
 * col[] (r -> row[r]). A row or column permutation keeps the main diagonal
 * when rows and columns move alike, the anti-diagonal when it commutes with
 * r -> 8 - r; reversing the columns alone swaps the two diagonals. */
static const int maps[][2][GRID_X_N] = {
    /* rows 1, 2 and 8, 9 swapped, columns alike */
    { { 1, 0, 2, 3, 4, 5, 6, 8, 7 }, { 1, 0, 2, 3, 4, 5, 6, 8, 7 } },
    /* the first and third bands swapped, each upside down: a half turn */
    { { 8, 7, 6, 5, 4, 3, 2, 1, 0 }, { 8, 7, 6, 5, 4, 3, 2, 1, 0 } },
    /* rows 4 and 6 swapped, columns alike */
    { { 0, 1, 2, 5, 4, 3, 6, 7, 8 }, { 0, 1, 2, 5, 4, 3, 6, 7, 8 } },
    /* rows 2, 3 and 7, 8 rotated, columns alike */
    { { 1, 2, 0, 3, 4, 5, 8, 6, 7 }, { 1, 2, 0, 3, 4, 5, 8, 6, 7 } },
    /* the columns reversed */
    { { 0, 1, 2, 3, 4, 5, 6, 7, 8 }, { 8, 7, 6, 5, 4, 3, 2, 1, 0 } },
};

/* Whether map m keeps the first band in rows 1-3, and its image there. */
static bool first_band_image(
    int m, const uint8_t band[GRID_X_BAND], uint8_t out[GRID_X_BAND])
{
    for (int r = 0; r < 3; r++) {
        if (maps[m][0][r] > 2)
            return false;
        for (int c = 0; c < GRID_X_N; c++)
            out[maps[m][0][r] * GRID_X_N + maps[m][1][c]] = band[r * GRID_X_N + c];
    }
    return true;
}

/* The maps keep Sudoku X grids: a complete one, and its images checked. */
static void test_maps_keep_the_diagonals(void **state)
{
    (void) state;
    struct grid g;
    test_parse(&g,
        "123869457456237891789451236842793615567148923931526748278915364314672589"
        "695384172",
        GRID_DIAGONAL);
    struct grid empty;
    grid_init(&empty, 3, 3, GRID_DIAGONAL);
    char why[160];
    if (!check_solution(&empty, &g, why, sizeof(why)))
        fail_msg("the grid: %s", why);
    for (size_t m = 0; m < TEST_COUNT(maps); m++) {
        struct grid h = g;
        for (int r = 0; r < GRID_X_N; r++)
            for (int c = 0; c < GRID_X_N; c++)
                h.cell[maps[m][0][r] * GRID_X_N + maps[m][1][c]]
                    = g.cell[r * GRID_X_N + c];
        if (!check_solution(&empty, &h, why, sizeof(why)))
            fail_msg("map %zu: %s", m, why);
    }
}

/* Completions of first bands against enumeration, with the band's class
 * representative and its images under the maps that keep the first band. */
static void test_completions_agree_with_enumeration(void **state)
{
    (void) state;
    struct rng r;
    rng_seed(&r, seed);
    struct grid_x_scratch *s = grid_x_scratch_new();
    assert_non_null(s);
    for (int round = 0; round < 2; round++) {
        uint8_t band[GRID_X_BAND];
        random_band(&r, band);
        const uint64_t theirs = enumerate(band);
        assert_true(grid_x_completions(s, band) == theirs);
        for (size_t m = 0; m < TEST_COUNT(maps); m++) {
            uint8_t image[GRID_X_BAND];
            if (first_band_image((int) m, band, image))
                assert_true(grid_x_completions(s, image) == theirs);
        }
    }
    uint8_t bad[GRID_X_BAND];
    random_band(&r, bad);
    bad[1] = bad[0];
    assert_true(grid_x_completions(s, bad) == 0);
    grid_x_scratch_free(s);
}

/* The plan: every first band with box 1 fixed once; a band and its images
 * under the maps in one class, whose representative has the band's
 * completions. */
static void test_classes(void **state)
{
    (void) state;
    struct grid_x *gx = grid_x_new();
    assert_non_null(gx);
    assert_true(grid_x_first_bands(gx) == 56u * 46656u); /* 56 * 6^6 */
    uint64_t bands = 0;
    for (size_t k = 0; k < grid_x_classes(gx); k++)
        bands += grid_x_class_bands(gx, k);
    assert_true(bands == grid_x_first_bands(gx));
    assert_true(grid_x_keys(gx) <= grid_x_first_bands(gx));
    assert_true(grid_x_classes(gx) > 0 && grid_x_classes(gx) <= grid_x_keys(gx));
    struct rng r;
    rng_seed(&r, seed + 1);
    struct grid_x_scratch *s = grid_x_scratch_new();
    assert_non_null(s);
    uint8_t band[GRID_X_BAND], rep[GRID_X_BAND];
    random_band(&r, band);
    const size_t k = grid_x_class_of(gx, band);
    assert_true(k < grid_x_classes(gx));
    for (size_t m = 0; m < TEST_COUNT(maps); m++) {
        uint8_t image[GRID_X_BAND];
        if (first_band_image((int) m, band, image))
            assert_true(grid_x_class_of(gx, image) == k);
    }
    grid_x_class_band(gx, k, rep);
    assert_true(grid_x_class_of(gx, rep) == k);
    assert_true(grid_x_completions(s, rep) == enumerate(band));
    band[0] = band[1];
    assert_true(grid_x_class_of(gx, band) == SIZE_MAX);
    grid_x_scratch_free(s);
    grid_x_free(gx);
}

int main(int argc, char **argv)
{
    seed = test_seed("grid_sudoku_x", 36);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_maps_keep_the_diagonals),
        cmocka_unit_test(test_completions_agree_with_enumeration),
        cmocka_unit_test(test_classes),
    };
    const struct test_group plain
        = { "grid_sudoku_x", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
