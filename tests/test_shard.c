/* Shards (common/shard.h): K/N parses and refuses, shards partition the
 * work, and a corpus fingerprint tells corpora apart. The split of a count
 * into subproblems is tests/test_split.c. */
#include "common/shard.h"
#include "tests/test_util.h"

static void parse_accepts_and_refuses(void **state)
{
    (void) state;
    struct shard s;
    assert_int_equal(shard_parse("3/4", &s, "test"), 0);
    assert_int_equal(s.k, 3);
    assert_int_equal(s.n, 4);
    assert_int_equal(shard_parse("1/1", &s, "test"), 0);
    static const char *const bad[]
        = { "0/4", "5/4", "a/b", "3/4x", "", "3", "-1/4", "1/0" };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(shard_parse(bad[i], &s, "test (expected error)"), -1);
}

/* Every item belongs to exactly one shard of N, whatever N. */
static void shards_partition(void **state)
{
    (void) state;
    for (uint32_t n = 1; n <= 7; n++) {
        for (uint64_t item = 0; item < 50; item++) {
            int owners = 0;
            for (uint32_t k = 1; k <= n; k++) {
                const struct shard s = { k, n };
                owners += shard_owns(&s, item);
            }
            assert_int_equal(owners, 1);
        }
    }
}

/* The fingerprint changes with any entry and with their order. */
static void fingerprint_tells_corpora_apart(void **state)
{
    (void) state;
    struct grid a, b;
    test_parse(&a, "1234341221434321", GRID_STANDARD);
    test_parse(&b, "1234341221434312", GRID_STANDARD);
    struct shard_fingerprint f1 = { 0, 0 }, f2 = { 0, 0 }, f3 = { 0, 0 };
    shard_fingerprint_add(&f1, &a);
    shard_fingerprint_add(&f1, &b);
    shard_fingerprint_add(&f2, &b);
    shard_fingerprint_add(&f2, &a);
    shard_fingerprint_add(&f3, &a);
    shard_fingerprint_add(&f3, NULL);
    assert_int_equal(f1.entries, 2);
    assert_true(f1.hash != f2.hash);
    assert_true(f1.hash != f3.hash);
    struct shard_fingerprint again = { 0, 0 };
    shard_fingerprint_add(&again, &a);
    shard_fingerprint_add(&again, &b);
    assert_true(again.hash == f1.hash);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_accepts_and_refuses),
        cmocka_unit_test(shards_partition),
        cmocka_unit_test(fingerprint_tells_corpora_apart),
    };
    const struct test_group plain = { "shard", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
