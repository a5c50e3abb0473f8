/* common/perm.h: perm_next visits the n! permutations once each, in
 * increasing lexicographic order, and stops at the last leaving it as is;
 * perm_all writes exactly those rows, padded with zeros, and no more. */
#include <string.h>

#include "common/perm.h"
#include "tests/test_util.h"

static void visits_all_in_order(void **state)
{
    (void) state;
    static const int factorial[] = { 1, 1, 2, 6, 24, 120, 720 };
    for (int n = 1; n <= 6; n++) {
        uint8_t p[6], last[6];
        for (int i = 0; i < n; i++)
            p[i] = (uint8_t) i;
        int count = 1;
        for (;;) {
            memcpy(last, p, sizeof(p));
            if (!perm_next(p, n))
                break;
            count++;
            assert_true(memcmp(last, p, (size_t) n) < 0); /* strictly increasing */
            unsigned seen = 0;
            for (int i = 0; i < n; i++)
                seen |= 1u << p[i];
            assert_int_equal(seen, (1u << n) - 1); /* still a permutation */
        }
        assert_int_equal(count, factorial[n]);
        for (int i = 0; i < n; i++)
            assert_int_equal(p[i], n - 1 - i); /* the last one, untouched */
    }
}

static void all_rows_padded_and_bounded(void **state)
{
    (void) state;
    enum { STRIDE = 5, ROWS = 24 };
    uint8_t rows[ROWS + 1][STRIDE];
    memset(rows, 0xAB, sizeof(rows));
    assert_int_equal(perm_all(4, &rows[0][0], STRIDE), ROWS);
    uint8_t p[STRIDE] = { 0, 1, 2, 3, 0 };
    for (int r = 0; r < ROWS; r++) {
        assert_memory_equal(rows[r], p, STRIDE); /* perm_next's order, tail 0 */
        perm_next(p, 4);
    }
    for (int i = 0; i < STRIDE; i++)
        assert_int_equal(rows[ROWS][i], 0xAB); /* nothing past the n! rows */
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(visits_all_in_order),
        cmocka_unit_test(all_rows_padded_and_bounded),
    };
    const struct test_group plain = { "perm", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
