/* common/perm.h: perm_next visits the n! permutations once each, in
 * increasing lexicographic order, and stops at the last leaving it as is. */
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

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(visits_all_in_order),
    };
    const struct test_group plain = { "perm", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
