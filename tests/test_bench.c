/* The bench driver's machinery on known inputs: order statistics, PAR-2 and
 * geometric means against hand-computed values, the runs.csv writer and
 * reader round trip (quoting, empty cells, torn last rows), --resume's choice
 * of the cells still to run, the cross-check and the summary arithmetic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_csv.h"
#include "bench/bench_run.h"
#include "bench/bench_stats.h"
#include "bench/bench_summary.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

static void quantiles_interpolate_between_ranks(void **state)
{
    (void) state;
    const double v[] = { 10, 20, 30, 40 };
    assert_float_equal(bench_quantile(v, 4, 0.5), 25, 1e-9);
    assert_float_equal(bench_quantile(v, 4, 0.9), 37, 1e-9);
    assert_float_equal(bench_quantile(v, 4, 0.99), 39.7, 1e-9);
    assert_float_equal(bench_quantile(v, 4, 0), 10, 1e-9);
    assert_float_equal(bench_quantile(v, 4, 1), 40, 1e-9);
    assert_float_equal(bench_quantile(v, 1, 0.9), 10, 1e-9);
    assert_true(isnan(bench_quantile(v, 0, 0.5)));
    double odd[] = { 5, 1, 3 };
    assert_float_equal(bench_median(odd, 3), 3, 1e-9);
    assert_float_equal(odd[0], 1, 0); /* sorted in place */
}

static void means_par2_and_middle_half(void **state)
{
    (void) state;
    const double v[] = { 1, 2, 3, 6 };
    assert_float_equal(bench_mean(v, 4), 3, 1e-9);
    const double ratios[] = { 2, 0.5 };
    assert_float_equal(bench_geomean(ratios, 2), 1, 1e-12);
    const double powers[] = { 1, 4, 16 };
    assert_float_equal(bench_geomean(powers, 3), 4, 1e-9);
    assert_true(isnan(bench_geomean(powers, 0)));
    /* PAR-2: an unfinished run counts as twice the budget */
    const double times[] = { 1, 2, 10 };
    const bool finished[] = { true, true, false };
    assert_float_equal(bench_par2(times, finished, 3, 10), (1 + 2 + 20) / 3.0, 1e-9);
    /* the middle half ignores the two preempted reads at each end */
    double reads[] = { 100, 1, 2, 3, 4, 5, 6, 1000 };
    assert_float_equal(bench_middle_mean(reads, 8), 4.5, 1e-9);
    /* a real clock: positive, and far below a millisecond per read */
    const double overhead = bench_timer_overhead_ns(1000);
    assert_true(overhead > 0 && overhead < 1e6);
}

static void csv_header_follows_the_counters(void **state)
{
    (void) state;
    char want[512] = "corpus,index,solver,repeat,status,solutions";
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        strcat(want, ",");
        strcat(want, solver_counter_names[i]);
    }
    strcat(want, ",time_ns\n");
    char got[512];
    assert_int_equal(bench_csv_header(got, sizeof(got)), strlen(want));
    assert_string_equal(got, want);
    assert_int_equal(bench_csv_header(got, 10), 0);
}

static void fill_row(struct bench_row *row, const char *corpus, const char *solver)
{
    memset(row, 0, sizeof(*row));
    snprintf(row->corpus, sizeof(row->corpus), "%s", corpus);
    snprintf(row->solver, sizeof(row->solver), "%s", solver);
}

static void assert_rows_equal(const struct bench_row *a, const struct bench_row *b)
{
    assert_string_equal(a->corpus, b->corpus);
    assert_string_equal(a->solver, b->solver);
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->repeat, b->repeat);
    assert_int_equal(a->status, b->status);
    assert_int_equal(a->solutions, b->solutions);
    assert_int_equal(a->known, b->known);
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        if (a->known & (1u << i))
            assert_int_equal(
                solver_counter_get(&a->counters, i), solver_counter_get(&b->counters, i));
    }
    assert_int_equal(a->timed, b->timed);
    if (a->timed)
        assert_int_equal(a->time_ns, b->time_ns);
}

static void csv_rows_round_trip(void **state)
{
    (void) state;
    char header[512], line[BENCH_CSV_LINE_MAX];
    bench_csv_header(header, sizeof(header));
    struct bench_csv_columns cols;
    char why[160];
    assert_int_equal(bench_csv_parse_header(header, &cols, why, sizeof(why)), 0);

    struct bench_row rows[3], back;
    fill_row(&rows[0], "puzzles3_magictour_top1465", "naive");
    rows[0].index = 3;
    rows[0].repeat = 2;
    rows[0].status = SOLVE_STATUS_UNIQUE;
    rows[0].solutions = 1;
    rows[0].known = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)
        | SOLVER_HAS(nodes);
    rows[0].counters.steps = 5;
    rows[0].counters.guesses = 6;
    rows[0].counters.backtracks = 7;
    rows[0].counters.nodes = 8;
    rows[0].timed = true;
    rows[0].time_ns = 1234;
    /* n/a counters and time are empty cells, never 0 */
    fill_row(&rows[1], "odd, \"name\"", "sat");
    rows[1].index = 1;
    rows[1].repeat = 1;
    rows[1].status = SOLVE_STATUS_INVALID;
    fill_row(&rows[2], "c", "moler");
    rows[2].index = 4000000;
    rows[2].repeat = 1;
    rows[2].status = SOLVE_STATUS_LIMIT;
    rows[2].solutions = 0;
    rows[2].known = SOLVER_HAS(article_steps);
    rows[2].counters.article_steps = UINT64_MAX;
    rows[2].timed = true;
    rows[2].time_ns = 0;
    for (int k = 0; k < 3; k++) {
        const size_t len = bench_csv_format_row(&rows[k], line, sizeof(line));
        assert_true(len > 0);
        assert_int_equal(len, strlen(line));
        assert_int_equal(line[len - 1], '\n');
        assert_int_equal(bench_csv_parse_row(line, &cols, &back, why, sizeof(why)), 0);
        assert_rows_equal(&rows[k], &back);
    }
    bench_csv_format_row(&rows[0], line, sizeof(line));
    assert_string_equal(
        line, "puzzles3_magictour_top1465,3,naive,2,unique,1,5,6,7,8,,1234\n");
    bench_csv_format_row(&rows[1], line, sizeof(line));
    assert_string_equal(line, "\"odd, \"\"name\"\"\",1,sat,1,invalid,0,,,,,,\n");
    assert_int_equal(bench_csv_format_row(&rows[0], line, 20), 0);
}

static void csv_reader_finds_columns_by_name(void **state)
{
    (void) state;
    struct bench_csv_columns cols;
    struct bench_row row;
    char why[160];
    /* reordered, an extra column, no repeat and no counters */
    assert_int_equal(bench_csv_parse_header("time_ns,solver,extra,corpus,index,status,"
                                            "solutions\n",
                         &cols, why, sizeof(why)),
        0);
    assert_int_equal(bench_csv_parse_row(
                         "77,dlx,x,c.txt,5,multiple,2\n", &cols, &row, why, sizeof(why)),
        0);
    assert_string_equal(row.solver, "dlx");
    assert_string_equal(row.corpus, "c.txt");
    assert_int_equal(row.index, 5);
    assert_int_equal(row.repeat, 1);
    assert_int_equal(row.status, SOLVE_STATUS_MULTIPLE);
    assert_int_equal(row.time_ns, 77);
    assert_int_equal(row.known, 0);
    assert_int_not_equal(
        bench_csv_parse_row("77,dlx,c.txt,5,multiple,2\n", &cols, &row, why, sizeof(why)),
        0);
    assert_int_not_equal(
        bench_csv_parse_row("77,dlx,x,c.txt,5,maybe,2\n", &cols, &row, why, sizeof(why)),
        0);
    assert_int_not_equal(bench_csv_parse_header("corpus,index,status,solutions,time_ns\n",
                             &cols, why, sizeof(why)),
        0);
    assert_non_null(strstr(why, "solver"));

    char text[] = "a,\"b,c\",\"d\"\"e\",\n";
    char *f[8];
    assert_int_equal(bench_csv_split(text, f, 8), 4);
    assert_string_equal(f[1], "b,c");
    assert_string_equal(f[2], "d\"e");
    assert_string_equal(f[3], "");
    char open_quote[] = "a,\"b\n";
    assert_int_equal(bench_csv_split(open_quote, f, 8), -1);
    char many[] = "1,2,3";
    assert_int_equal(bench_csv_split(many, f, 2), -1);
}

static bool count_row(void *ctx, const struct bench_row *row)
{
    (void) row;
    ++*(int *) ctx;
    return true;
}

static void csv_reader_drops_a_torn_last_row(void **state)
{
    (void) state;
    char header[512];
    bench_csv_header(header, sizeof(header));
    char text[2048];
    const char *whole = "c,1,naive,1,unique,1,1,1,1,1,,10\n";
    snprintf(text, sizeof(text), "%s%s%s", header, whole, "c,2,naive,1,uni");
    FILE *f = fmemopen(text, strlen(text), "r");
    assert_non_null(f);
    int rows = 0;
    long valid = -1;
    char why[160];
    assert_int_equal(bench_csv_read(f, count_row, &rows, &valid, why, sizeof(why)), 1);
    fclose(f);
    assert_int_equal(rows, 1);
    assert_int_equal(valid, (long) (strlen(header) + strlen(whole)));
}

static void expectations_parse(void **state)
{
    (void) state;
    uint8_t kind;
    uint64_t count;
    assert_true(bench_parse_expect("1  # comment", &kind, &count));
    assert_int_equal(kind, BENCH_EXPECT_EXACTLY);
    assert_int_equal(count, 1);
    assert_true(bench_parse_expect("2+", &kind, &count));
    assert_int_equal(kind, BENCH_EXPECT_AT_LEAST);
    assert_int_equal(count, 2);
    assert_true(bench_parse_expect("0", &kind, &count));
    assert_int_equal(kind, BENCH_EXPECT_EXACTLY);
    assert_int_equal(count, 0);
    assert_true(bench_parse_expect("invalid", &kind, &count));
    assert_int_equal(kind, BENCH_EXPECT_INVALID);
    assert_false(bench_parse_expect("", &kind, &count));
    assert_false(bench_parse_expect("+", &kind, &count));
    assert_false(bench_parse_expect("12.5", &kind, &count));
    assert_false(bench_parse_expect("9256318476185742933749825617498261358524139761637954"
                                    "82287359614491267358536148729",
        &kind, &count));
}

/* A plan over naive and naive_stack (both registered by the core) with one
 * corpus "c.txt" of three 4x4 puzzles, two repeats. */
static void small_plan(struct bench_plan *plan, const struct solver **solvers)
{
    solvers[0] = solver_find("naive");
    solvers[1] = solver_find("naive_stack");
    assert_non_null(solvers[0]);
    assert_non_null(solvers[1]);
    struct bench_options opt = { .limit = 2, .repeat = 2, .threads = 1 };
    assert_int_equal(bench_plan_init(plan, &opt, solvers, 2), 0);
    assert_int_equal(bench_plan_add_corpus(plan, "some/dir/c.txt"), 0);
    const char *puzzles[]
        = { "1....2....3....4", "................", "43....34.1.....1" };
    for (int k = 0; k < 3; k++) {
        struct corpus_item item;
        memset(&item, 0, sizeof(item));
        const struct grid_shape shape = { 0, 0, GRID_STANDARD };
        assert_int_equal(
            grid_parse_token(&item.puzzle, puzzles[k], 16, &shape, NULL, 0), 0);
        item.line = (unsigned long) k + 1;
        assert_int_equal(bench_plan_add_puzzle(plan, 0, &item, true), 0);
    }
    assert_int_equal(bench_plan_finish(plan), 0);
    assert_string_equal(plan->corpora[0].name, "c.txt");
    assert_int_equal(bench_plan_pending(plan), 2 * 3 * 2);
}

static void resume_skips_the_rows_present(void **state)
{
    (void) state;
    struct bench_plan plan;
    const struct solver *solvers[2];
    small_plan(&plan, solvers);
    char header[512];
    bench_csv_header(header, sizeof(header));
    char text[4096];
    snprintf(text, sizeof(text),
        "%s"
        "c.txt,1,naive,1,multiple,2,1,1,1,1,,10\n" /* taken */
        "c.txt,3,naive_stack,2,unique,1,1,1,1,1,,20\n" /* taken */
        "c.txt,1,naive,1,multiple,2,1,1,1,1,,99\n" /* a duplicate: first wins */
        "c.txt,2,dlx_nonexistent,1,multiple,2,,,,,,5\n" /* solver not in the run */
        "d.txt,1,naive,1,multiple,2,1,1,1,1,,5\n" /* corpus not in the run */
        "c.txt,4,naive,1,multiple,2,1,1,1,1,,5\n" /* past the corpus */
        "c.txt,2,naive,3,multiple,2,1,1,1,1,,5\n" /* past --repeat */
        "c.txt,2,naive,1,multi", /* torn */
        header);
    FILE *f = fmemopen(text, strlen(text), "r");
    assert_non_null(f);
    long valid = 0;
    char why[160];
    assert_int_equal(bench_plan_resume(&plan, f, &valid, why, sizeof(why)), 2);
    fclose(f);
    assert_int_equal(valid, (long) (strlen(text) - strlen("c.txt,2,naive,1,multi")));
    assert_int_equal(bench_plan_pending(&plan), 2 * 3 * 2 - 2);
    assert_false(bench_cell_pending(&plan, 0, 0, 0, 0));
    assert_true(bench_cell_pending(&plan, 0, 0, 0, 1));
    assert_true(bench_cell_pending(&plan, 1, 0, 0, 0));
    assert_false(bench_cell_pending(&plan, 1, 0, 2, 1));
    assert_true(bench_cell_pending(&plan, 0, 0, 1, 0));
    assert_int_equal(plan.cells[0][0].time_ns, 10);
    bench_plan_free(&plan);
}

static struct bench_cell *cell(struct bench_plan *plan, size_t si, size_t pi, unsigned r)
{
    return &plan->cells[si * plan->ncorpora][pi * plan->opt.repeat + r];
}

static void set_cell(struct bench_plan *plan, size_t si, size_t pi, unsigned r,
    int status, uint64_t solutions, uint64_t ns, uint64_t guesses)
{
    struct bench_cell *c = cell(plan, si, pi, r);
    c->state = BENCH_CELL_DONE;
    c->status = (uint8_t) status;
    c->solutions = solutions;
    c->timed = true;
    c->time_ns = ns;
    c->counters.guesses = guesses;
}

static void crosscheck_reports_disagreements(void **state)
{
    (void) state;
    struct bench_plan plan;
    const struct solver *solvers[2];
    small_plan(&plan, solvers);
    for (unsigned r = 0; r < 2; r++) {
        for (size_t si = 0; si < 2; si++) {
            set_cell(&plan, si, 0, r, SOLVE_STATUS_MULTIPLE, 2, 100, 1);
            set_cell(&plan, si, 1, r, SOLVE_STATUS_MULTIPLE, 2, 100, 1);
            set_cell(&plan, si, 2, r, SOLVE_STATUS_UNIQUE, 1, 100, 1);
        }
    }
    FILE *sink = fopen("/dev/null", "w");
    assert_non_null(sink);
    assert_int_equal(bench_plan_crosscheck(&plan, sink), 0);
    /* a budget stop proves nothing: not compared */
    set_cell(&plan, 1, 2, 1, SOLVE_STATUS_LIMIT, 0, 100, 1);
    assert_int_equal(bench_plan_crosscheck(&plan, sink), 0);
    /* one repeat of one solver with another count */
    set_cell(&plan, 1, 0, 1, SOLVE_STATUS_UNIQUE, 1, 100, 1);
    assert_int_equal(bench_plan_crosscheck(&plan, sink), 1);
    set_cell(&plan, 0, 1, 0, SOLVE_STATUS_UNSOLVABLE, 0, 100, 1);
    assert_int_equal(bench_plan_crosscheck(&plan, sink), 2);
    fclose(sink);
    bench_plan_free(&plan);
}

static void summary_arithmetic(void **state)
{
    (void) state;
    struct bench_plan plan;
    const struct solver *solvers[2];
    small_plan(&plan, solvers);
    plan.opt.budget_ms = 1; /* 1e6 ns: PAR-2 counts a stop as 2e6 */
    /* baseline (0): 100 and 400 ns; solver 1: 50 and 100 (medians of repeats) */
    set_cell(&plan, 0, 0, 0, SOLVE_STATUS_MULTIPLE, 2, 100, 2);
    set_cell(&plan, 0, 0, 1, SOLVE_STATUS_MULTIPLE, 2, 100, 2);
    set_cell(&plan, 0, 1, 0, SOLVE_STATUS_MULTIPLE, 2, 300, 4);
    set_cell(&plan, 0, 1, 1, SOLVE_STATUS_MULTIPLE, 2, 500, 4);
    set_cell(&plan, 0, 2, 0, SOLVE_STATUS_LIMIT, 0, 1000000, 9);
    set_cell(&plan, 1, 0, 0, SOLVE_STATUS_MULTIPLE, 2, 40, 1);
    set_cell(&plan, 1, 0, 1, SOLVE_STATUS_MULTIPLE, 2, 60, 1);
    set_cell(&plan, 1, 1, 0, SOLVE_STATUS_MULTIPLE, 2, 100, 1);
    set_cell(&plan, 1, 1, 1, SOLVE_STATUS_MULTIPLE, 2, 100, 1);
    set_cell(&plan, 1, 2, 0, SOLVE_STATUS_UNIQUE, 1, 70, 3);
    struct bench_summary s;
    assert_int_equal(bench_summarize(&plan, 0, 0, 0, &s), 0);
    assert_int_equal(s.puzzles, 3);
    assert_int_equal(s.status[SOLVE_STATUS_MULTIPLE], 2);
    assert_int_equal(s.status[SOLVE_STATUS_LIMIT], 1);
    assert_int_equal(s.finished, 2);
    assert_float_equal(s.median_ns, 250, 1e-9); /* of 100 and 400 */
    assert_float_equal(s.mean_ns, 250, 1e-9);
    assert_float_equal(s.max_ns, 400, 1e-9);
    assert_float_equal(s.counter_mean[SOLVER_COUNTER_guesses], 3, 1e-9);
    assert_true(isnan(s.counter_mean[SOLVER_COUNTER_article_steps])); /* naive has none */
    assert_float_equal(s.par2_ns, (100 + 400 + 2e6) / 3, 1e-6);
    assert_float_equal(s.puzzles_per_s, 3 * 1e9 / (100 + 400 + 1e6), 1e-6);
    assert_float_equal(s.speedup, 1, 1e-12);
    assert_int_equal(bench_summarize(&plan, 1, 0, 0, &s), 0);
    assert_int_equal(s.finished, 3);
    assert_true(isnan(s.par2_ns));
    /* puzzles both finished: 100/50 and 400/100 */
    assert_int_equal(s.speedup_pairs, 2);
    assert_float_equal(s.speedup, sqrt(2.0 * 4.0), 1e-9);
    assert_true(isnan(s.pass_puzzles_per_s));
    bench_plan_free(&plan);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(quantiles_interpolate_between_ranks),
        cmocka_unit_test(means_par2_and_middle_half),
        cmocka_unit_test(csv_header_follows_the_counters),
        cmocka_unit_test(csv_rows_round_trip),
        cmocka_unit_test(csv_reader_finds_columns_by_name),
        cmocka_unit_test(csv_reader_drops_a_torn_last_row),
        cmocka_unit_test(expectations_parse),
        cmocka_unit_test(resume_skips_the_rows_present),
        cmocka_unit_test(crosscheck_reports_disagreements),
        cmocka_unit_test(summary_arithmetic),
    };
    const struct test_group plain = { "bench", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
