/* The distribution layer as data (scaleout/): count by subproblems in shards
 * adds up to the whole run, rows survive the trip between ranks byte for
 * byte, generate's ranges make the single run's puzzles, and merging refuses
 * shards that do not belong together. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scaleout/count_merge.h"
#include "scaleout/count_range.h"
#include "scaleout/gen_range.h"
#include "scaleout/wire.h"
#include "solvers/registry.h"

/* The rows a run hands out, kept. */
struct rows {
    struct count_row row[16];
    size_t n;
};

static bool keep_row(void *ctx, const struct count_row *row)
{
    struct rows *r = ctx;
    assert_true(r->n < 16);
    r->row[r->n++] = *row;
    return true;
}

static struct corpus_options corpus = { { 0, 0, GRID_STANDARD }, CORPUS_AUTO, true };

static struct count_options count_options(const char *solver, FILE *err)
{
    const struct count_options o
        = { solver_find(solver), 0, 0, 0, { &corpus, NULL, 0, err }, 10, 2 };
    assert_non_null(o.solver);
    return o;
}

static char *inputs[] = { "1234............", "11..............", "12.3............" };

/* Three shards merged: the same solutions, counters and first solution as
 * one shard of the whole, and each entry's state kept. */
static void shards_add_up_to_the_whole(void **state)
{
    (void) state;
    FILE *err = fopen("/dev/null", "w");
    const struct count_options o = count_options("naive", err);
    const struct shard whole = { 1, 1 };
    struct rows all = { .n = 0 };
    assert_int_equal(count_range(&o, &whole, 3, inputs, keep_row, &all), 0);
    assert_int_equal(all.n, 3);
    assert_int_equal(all.row[0].state, COUNT_SOLVED);
    assert_int_equal(all.row[1].state, COUNT_INVALID);
    assert_int_equal(all.row[0].tally.solutions, 12);

    struct count_merge m;
    count_merge_init(&m);
    char why[200];
    for (uint32_t k = 3; k >= 1; k--) { /* any order */
        const struct shard s = { k, 3 };
        struct rows part = { .n = 0 };
        assert_int_equal(count_range(&o, &s, 3, inputs, keep_row, &part), 0);
        for (size_t r = 0; r < part.n; r++)
            assert_int_equal(count_merge_add(&m, r, &part.row[r], why, sizeof(why)), 0);
        assert_int_equal(count_merge_shard_done(&m, part.n, why, sizeof(why)), 0);
    }
    assert_int_equal(count_merge_check(&m, why, sizeof(why)), 0);
    assert_int_equal(m.nrows, 3);
    for (size_t r = 0; r < 3; r++) {
        const struct shard_tally *a = &all.row[r].tally, *b = &m.rows[r].tally;
        assert_int_equal(a->solutions, b->solutions);
        assert_int_equal(a->solved, b->solved);
        assert_int_equal(a->counters.steps, b->counters.steps);
        assert_int_equal(a->have_first, b->have_first);
        assert_int_equal(a->first_sub, b->first_sub);
        assert_memory_equal(a->first.cell, b->first.cell, a->first.ncells);
        assert_int_equal(all.row[r].state, m.rows[r].state);
    }
    count_merge_free(&m);
    fclose(err);
}

/* A shard of other inputs, a missing row and a missing shard are refused. */
static void merge_refuses_what_does_not_fit(void **state)
{
    (void) state;
    FILE *err = fopen("/dev/null", "w");
    const struct count_options o = count_options("naive", err);
    const struct shard s1 = { 1, 2 }, s2 = { 2, 2 };
    struct rows a = { .n = 0 }, b = { .n = 0 };
    assert_int_equal(count_range(&o, &s1, 3, inputs, keep_row, &a), 0);
    char *other[] = { "1234............", "12.3............" };
    assert_int_equal(count_range(&o, &s2, 2, other, keep_row, &b), 0);
    struct count_merge m;
    char why[200];
    count_merge_init(&m);
    for (size_t r = 0; r < a.n; r++)
        assert_int_equal(count_merge_add(&m, r, &a.row[r], why, sizeof(why)), 0);
    assert_int_equal(count_merge_shard_done(&m, a.n, why, sizeof(why)), 0);
    assert_int_equal(count_merge_add(&m, 0, &b.row[0], why, sizeof(why)), 0);
    assert_int_equal(count_merge_add(&m, 1, &b.row[1], why, sizeof(why)), -1);
    assert_non_null(strstr(why, "does not match"));
    assert_int_equal(count_merge_shard_done(&m, b.n, why, sizeof(why)), -1);
    count_merge_free(&m);

    count_merge_init(&m); /* shard 1 of 2 alone: half the subproblems */
    for (size_t r = 0; r < a.n; r++)
        assert_int_equal(count_merge_add(&m, r, &a.row[r], why, sizeof(why)), 0);
    assert_int_equal(count_merge_check(&m, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "subproblems solved"));
    count_merge_free(&m);
    fclose(err);
}

/* An input that does not read is a problem said on err, and its row says so. */
static void problems_are_counted_and_said(void **state)
{
    (void) state;
    char *text = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&text, &len);
    const struct count_options o = count_options("naive", err);
    const struct shard whole = { 1, 1 };
    char *bad[] = { "1234............", "no-such-file.txt" };
    struct rows rows = { .n = 0 };
    assert_int_equal(count_range(&o, &whole, 2, bad, keep_row, &rows), 1);
    fclose(err);
    assert_non_null(strstr(text, "no-such-file.txt"));
    assert_int_equal(rows.n, 1);
    free(text);
}

/* Rows packed for the wire come back as they were; cut short, they do not. */
static void rows_survive_the_wire(void **state)
{
    (void) state;
    FILE *err = fopen("/dev/null", "w");
    const struct count_options o = count_options("mrv", err);
    const struct shard whole = { 1, 1 };
    struct rows rows = { .n = 0 };
    assert_int_equal(count_range(&o, &whole, 3, inputs, keep_row, &rows), 0);
    fclose(err);
    struct wire_buf b = { 0 };
    for (size_t r = 0; r < rows.n; r++)
        wire_put_count_row(&b, &rows.row[r]);
    assert_false(b.failed);
    struct wire_reader rd = { b.data, b.len, false };
    for (size_t r = 0; r < rows.n; r++) {
        struct count_row back;
        assert_true(wire_get_count_row(&rd, &back));
        const struct count_row *row = &rows.row[r];
        assert_int_equal(back.index, row->index);
        assert_int_equal(back.state, row->state);
        assert_string_equal(back.puzzle, row->puzzle);
        assert_string_equal(back.source, row->source);
        assert_string_equal(back.why, row->why);
        assert_int_equal(back.subproblems, row->subproblems);
        assert_int_equal(back.tally.solutions, row->tally.solutions);
        assert_int_equal(back.tally.counters.backtracks, row->tally.counters.backtracks);
        assert_int_equal(back.tally.have_first, row->tally.have_first);
        if (row->tally.have_first)
            assert_memory_equal(&back.tally.first, &row->tally.first,
                sizeof(row->tally.first.cell[0]) * row->tally.first.ncells);
    }
    assert_int_equal(rd.left, 0);
    struct wire_reader cut = { b.data, b.len - 3, false };
    struct count_row back;
    for (size_t r = 0; r < rows.n - 1; r++)
        assert_true(wire_get_count_row(&cut, &back));
    assert_false(wire_get_count_row(&cut, &back));
    wire_free(&b);
}

struct results {
    struct gen_result r[12];
    size_t n;
};

static bool keep_result(void *ctx, const struct gen_result *g)
{
    struct results *res = ctx;
    assert_true(res->n < 12);
    res->r[res->n++] = *g;
    return true;
}

/* Puzzles 0..9 made at once on one thread, and as 0..3 and 4..9 on two, are
 * the same puzzles; and they survive the wire. */
static void generate_ranges_make_the_same_puzzles(void **state)
{
    (void) state;
    struct gen_range_options o;
    memset(&o, 0, sizeof(o));
    o.gen.box_rows = o.gen.box_cols = 2;
    o.gen.seed = 11;
    o.jobs = 1;
    char why[200];
    struct gen_range *one = gen_range_open(&o, why, sizeof(why));
    assert_non_null(one);
    o.jobs = 2;
    struct gen_range *two = gen_range_open(&o, why, sizeof(why));
    assert_non_null(two);
    struct results a = { .n = 0 }, b = { .n = 0 };
    assert_int_equal(gen_range_make(one, 0, 10, keep_result, &a), 0);
    assert_int_equal(gen_range_make(two, 4, 6, keep_result, &b), 0);
    assert_int_equal(gen_range_make(two, 0, 4, keep_result, &b), 0);
    assert_int_equal(a.n, 10);
    assert_int_equal(b.n, 10);
    struct wire_buf w = { 0 };
    for (size_t i = 0; i < 10; i++) {
        const struct gen_result *x = &a.r[i], *y = &b.r[(i + 6) % 10];
        assert_int_equal(x->number, i);
        assert_int_equal(y->number, i);
        assert_false(x->failed);
        assert_memory_equal(x->puzzle.cell, y->puzzle.cell, 16);
        wire_put_gen_result(&w, x);
    }
    struct wire_reader rd = { w.data, w.len, false };
    for (size_t i = 0; i < 10; i++) {
        struct gen_result back;
        assert_true(wire_get_gen_result(&rd, &back));
        assert_int_equal(back.number, i);
        assert_memory_equal(back.puzzle.cell, a.r[i].puzzle.cell, 16);
    }
    wire_free(&w);
    gen_range_close(one);
    gen_range_close(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shards_add_up_to_the_whole),
        cmocka_unit_test(merge_refuses_what_does_not_fit),
        cmocka_unit_test(problems_are_counted_and_said),
        cmocka_unit_test(rows_survive_the_wire),
        cmocka_unit_test(generate_ranges_make_the_same_puzzles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
