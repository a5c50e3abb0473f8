/* The worker pool (common/pool.h): every item runs once, on a worker in
 * range; one worker and several give the same result; an empty range runs
 * nothing; a worker keeps its thread across runs; false stops the handing out. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "common/pool.h"
#include "tests/test_util.h"

enum { ITEMS = 5000, MAX_WORKERS = 8 };

struct tally {
    unsigned workers;
    atomic_uint runs[ITEMS];
    atomic_bool bad_worker;
    atomic_ulong sum; /* of item * item */
    atomic_uint calls;
};

static bool count_item(void *ctx, unsigned worker, size_t item)
{
    struct tally *t = ctx;
    if (worker >= t->workers)
        atomic_store(&t->bad_worker, true);
    atomic_fetch_add(&t->runs[item], 1);
    atomic_fetch_add(&t->sum, (unsigned long) item * item);
    atomic_fetch_add(&t->calls, 1);
    return true;
}

/* Runs ITEMS items on a pool of `workers`; returns their sum of squares. */
static unsigned long run_items(unsigned workers)
{
    struct pool *p = pool_create(workers);
    assert_non_null(p);
    assert_true(pool_workers(p) >= 1 && pool_workers(p) <= workers);
    struct tally *t = calloc(1, sizeof(*t));
    assert_non_null(t);
    t->workers = pool_workers(p);
    pool_for_each(p, ITEMS, count_item, t);
    for (size_t i = 0; i < ITEMS; i++)
        assert_int_equal(atomic_load(&t->runs[i]), 1);
    assert_false(atomic_load(&t->bad_worker));
    const unsigned long sum = atomic_load(&t->sum);
    free(t);
    pool_destroy(p);
    return sum;
}

static void every_item_once(void **state)
{
    (void) state;
    const unsigned long one = run_items(1);
    unsigned long want = 0;
    for (unsigned long i = 0; i < ITEMS; i++)
        want += i * i;
    assert_int_equal(one, want);
    for (unsigned w = 2; w <= MAX_WORKERS; w++)
        assert_int_equal(run_items(w), one);
}

static void empty_range_runs_nothing(void **state)
{
    (void) state;
    struct pool *p = pool_create(3);
    assert_non_null(p);
    struct tally *t = calloc(1, sizeof(*t));
    assert_non_null(t);
    t->workers = pool_workers(p);
    pool_for_each(p, 0, count_item, t);
    assert_int_equal(atomic_load(&t->calls), 0);
    /* the pool still works after an empty run */
    pool_for_each(p, 10, count_item, t);
    assert_int_equal(atomic_load(&t->calls), 10);
    free(t);
    pool_destroy(p);
}

struct identity {
    pthread_t thread[MAX_WORKERS];
    int seen[MAX_WORKERS];
};

static void note_thread(void *ctx, unsigned worker)
{
    struct identity *id = ctx;
    id->thread[worker] = pthread_self();
    id->seen[worker]++;
}

static void check_thread(void *ctx, unsigned worker)
{
    struct identity *id = ctx;
    assert_true(pthread_equal(id->thread[worker], pthread_self()));
    id->seen[worker]++;
}

/* pool_run reaches every worker once, worker 0 is the caller, and worker w
 * is the same thread in every run (per-thread state stays with it). */
static void workers_keep_their_threads(void **state)
{
    (void) state;
    struct pool *p = pool_create(4);
    assert_non_null(p);
    const unsigned n = pool_workers(p);
    struct identity id = { 0 };
    pool_run(p, note_thread, &id);
    assert_true(pthread_equal(id.thread[0], pthread_self()));
    for (unsigned w = 1; w < n; w++)
        assert_false(pthread_equal(id.thread[w], pthread_self()));
    for (int run = 0; run < 20; run++)
        pool_run(p, check_thread, &id);
    for (unsigned w = 0; w < n; w++)
        assert_int_equal(id.seen[w], 21);
    /* pool_start leaves worker 0 to the caller */
    pool_start(p, check_thread, &id);
    pool_wait(p);
    assert_int_equal(id.seen[0], 21);
    for (unsigned w = 1; w < n; w++)
        assert_int_equal(id.seen[w], 22);
    pool_destroy(p);
}

static bool stop_at_100(void *ctx, unsigned worker, size_t item)
{
    count_item(ctx, worker, item);
    return item < 100;
}

/* After an item returns false no new item is handed out: at most one more
 * per worker (those taken meanwhile) runs. */
static void false_stops_the_run(void **state)
{
    (void) state;
    struct pool *p = pool_create(3);
    assert_non_null(p);
    struct tally *t = calloc(1, sizeof(*t));
    assert_non_null(t);
    t->workers = pool_workers(p);
    pool_for_each(p, ITEMS, stop_at_100, t);
    assert_int_equal(atomic_load(&t->runs[100]), 1);
    assert_true(atomic_load(&t->calls) <= 101 + t->workers);
    for (size_t i = 0; i < ITEMS; i++)
        assert_true(atomic_load(&t->runs[i]) <= 1);
    free(t);
    pool_destroy(p);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_item_once),
        cmocka_unit_test(empty_range_runs_nothing),
        cmocka_unit_test(workers_keep_their_threads),
        cmocka_unit_test(false_stops_the_run),
    };
    const struct test_group plain = { "pool", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
