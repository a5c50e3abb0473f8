/* The bench driver's machinery on known inputs: order statistics, PAR-2 and
 * geometric means against hand-computed values, the runs.csv writer and
 * reader round trip (quoting, empty cells, torn last rows), --resume's choice
 * of the cells still to run, the cross-check and the summary arithmetic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench_csv.h"
#include "bench/bench_env.h"
#include "bench/bench_run.h"
#include "bench/bench_se.h"
#include "bench/bench_session.h"
#include "bench/bench_stats.h"
#include "bench/bench_summary.h"
#include "common/exit_status.h"
#include "common/rng.h"
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

static void bootstrap_of_equal_times_is_one_exactly(void **state)
{
    (void) state;
    const double same[] = { 1, 1, 1, 1, 1 };
    struct bench_interval iv;
    assert_int_equal(bench_geomean_interval(same, 5, 2000, 1, 0.95, &iv), 0);
    assert_true(iv.estimate == 1 && iv.low == 1 && iv.high == 1);
    assert_true(bench_interval_holds_one(&iv));
    /* a constant 2x: 2, and no width, as every replicate would be */
    const double twice[] = { 2, 2, 2, 2, 2, 2, 2 };
    assert_int_equal(bench_geomean_interval(twice, 7, 500, 99, 0.95, &iv), 0);
    assert_float_equal(iv.estimate, 2, 1e-15);
    assert_true(iv.low == iv.estimate && iv.high == iv.estimate);
    assert_false(bench_interval_holds_one(&iv));
    /* one ratio, or none: an estimate at most, no interval */
    assert_int_equal(bench_geomean_interval(twice, 1, 500, 99, 0.95, &iv), 0);
    assert_float_equal(iv.estimate, 2, 1e-15);
    assert_true(isnan(iv.low) && isnan(iv.high));
    assert_false(bench_interval_holds_one(&iv));
    assert_int_equal(bench_geomean_interval(twice, 0, 500, 99, 0.95, &iv), 0);
    assert_true(isnan(iv.estimate));
}

/* n ratios truth * e^u, u uniform in [-spread, spread]: the geometric mean
 * of the population is truth. */
static void noisy_ratios(double *v, size_t n, double truth, double spread, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    for (size_t i = 0; i < n; i++) {
        const double u = (double) (rng_next(&r) >> 11) / 9007199254740992.0;
        v[i] = truth * exp((2 * u - 1) * spread);
    }
}

static void bootstrap_of_noisy_ratios_covers_the_truth(void **state)
{
    (void) state;
    enum { N = 400 };
    double v[N];
    struct bench_interval iv, again, other;
    /* about 95 in 100 such intervals hold the truth: with these seeds, all
     * four do (a fixed draw, so the test cannot flicker) */
    const double truths[] = { 3, 1.25, 1, 0.5 };
    for (int k = 0; k < 4; k++) {
        noisy_ratios(v, N, truths[k], 0.8, 1000 + (uint64_t) k);
        assert_int_equal(bench_geomean_interval(v, N, 2000, 7, 0.95, &iv), 0);
        assert_true(iv.low < truths[k] && truths[k] < iv.high);
        assert_true(iv.low < iv.estimate && iv.estimate < iv.high);
        /* the standard error of a mean of u ~ U(-0.8, 0.8) over 400 is 0.023:
         * the 95% interval spans about e^(+-0.045) */
        assert_true(log(iv.high / iv.low) > 0.06 && log(iv.high / iv.low) < 0.13);
        assert_int_equal(bench_interval_holds_one(&iv), truths[k] == 1);
    }
    /* the same seed gives the same interval, bit for bit; another seed
     * another one, close by */
    assert_int_equal(bench_geomean_interval(v, N, 2000, 7, 0.95, &again), 0);
    assert_true(again.low == iv.low && again.high == iv.high);
    assert_true(again.estimate == iv.estimate);
    assert_int_equal(bench_geomean_interval(v, N, 2000, 8, 0.95, &other), 0);
    assert_true(other.low != iv.low || other.high != iv.high);
    assert_float_equal(log(other.low), log(iv.low), 0.01);
    /* a wider level, a wider interval */
    assert_int_equal(bench_geomean_interval(v, N, 2000, 7, 0.99, &other), 0);
    assert_true(other.low < iv.low && other.high > iv.high);
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

static void csv_se_columns_round_trip(void **state)
{
    (void) state;
    char header[512], line[BENCH_CSV_LINE_MAX], why[160];
    /* the columns come last, only when asked */
    bench_csv_header_with(header, sizeof(header), true);
    char plain[512];
    bench_csv_header(plain, sizeof(plain));
    plain[strlen(plain) - 1] = '\0';
    char want[560];
    snprintf(want, sizeof(want), "%s,se_er,se_ep,se_ed\n", plain);
    assert_string_equal(header, want);
    struct bench_csv_columns cols;
    assert_int_equal(bench_csv_parse_header(header, &cols, why, sizeof(why)), 0);
    struct bench_row row, back;
    fill_row(&row, "c", "dlx");
    row.index = 2;
    row.repeat = 1;
    row.status = SOLVE_STATUS_UNIQUE;
    row.solutions = 1;
    row.timed = true;
    row.time_ns = 9;
    row.se_columns = true;
    row.se[0] = 119; /* 11.9, EP and ED unknown */
    bench_csv_format_row(&row, line, sizeof(line));
    assert_string_equal(line, "c,2,dlx,1,unique,1,,,,,,9,11.9,,\n");
    assert_int_equal(bench_csv_parse_row(line, &cols, &back, why, sizeof(why)), 0);
    assert_true(back.se_columns);
    assert_int_equal(back.se[0], 119);
    assert_int_equal(back.se[1], 0);
    assert_int_equal(back.se[2], 0);
    assert_int_not_equal(bench_csv_parse_row("c,2,dlx,1,unique,1,,,,,,9,7.15,,\n", &cols,
                             &back, why, sizeof(why)),
        0);
    assert_non_null(strstr(why, "se_er"));
    /* a file without them: rows say so */
    bench_csv_parse_header(plain, &cols, why, sizeof(why));
    assert_int_equal(bench_csv_parse_row(
                         "c,2,dlx,1,unique,1,,,,,,9\n", &cols, &back, why, sizeof(why)),
        0);
    assert_false(back.se_columns);
}

static void csv_name_column_comes_last_and_round_trips(void **state)
{
    (void) state;
    char header[512], line[BENCH_CSV_LINE_MAX], why[160];
    /* after the SE and seed columns, only when asked */
    bench_csv_header_seeded(header, sizeof(header), true, true, true);
    char plain[512];
    bench_csv_header(plain, sizeof(plain));
    plain[strlen(plain) - 1] = '\0';
    char want[600];
    snprintf(want, sizeof(want), "%s,se_er,se_ep,se_ed,seed,name\n", plain);
    assert_string_equal(header, want);
    struct bench_csv_columns cols;
    assert_int_equal(bench_csv_parse_header(header, &cols, why, sizeof(why)), 0);
    struct bench_row row, back;
    fill_row(&row, "c", "acs");
    row.index = 3;
    row.repeat = 1;
    row.status = SOLVE_STATUS_UNIQUE;
    row.solutions = 1;
    row.se_columns = true;
    row.seed_column = true;
    row.seeded = true;
    row.seed = 7;
    row.name_column = true;
    snprintf(row.name, sizeof(row.name), "%s", "a, \"b\"");
    bench_csv_format_row(&row, line, sizeof(line));
    assert_string_equal(line, "c,3,acs,1,unique,1,,,,,,,,,,7,\"a, \"\"b\"\"\"\n");
    assert_int_equal(bench_csv_parse_row(line, &cols, &back, why, sizeof(why)), 0);
    assert_true(back.name_column);
    assert_string_equal(back.name, "a, \"b\"");
    /* an entry without a name: an empty cell */
    row.name[0] = '\0';
    bench_csv_format_row(&row, line, sizeof(line));
    assert_string_equal(line, "c,3,acs,1,unique,1,,,,,,,,,,7,\n");
    assert_int_equal(bench_csv_parse_row(line, &cols, &back, why, sizeof(why)), 0);
    assert_string_equal(back.name, "");
    /* a file without the column: rows say so */
    bench_csv_parse_header(plain, &cols, why, sizeof(why));
    assert_int_equal(bench_csv_parse_row(
                         "c,2,dlx,1,unique,1,,,,,,9\n", &cols, &back, why, sizeof(why)),
        0);
    assert_false(back.name_column);
}

static void se_ratings_parse_from_corpus_lines(void **state)
{
    (void) state;
    uint8_t se[3] = { 0, 0, 0 };
    assert_true(bench_se_parse("ED=7.1/1.2/2.6", se));
    assert_int_equal(se[0], 71);
    assert_int_equal(se[1], 12);
    assert_int_equal(se[2], 26);
    assert_true(bench_se_parse("1  ED=11.9/11.9/11.3 # hardest", se));
    assert_int_equal(se[0], 119);
    assert_int_equal(se[2], 113);
    assert_true(bench_se_parse("5.6", se));
    assert_int_equal(se[0], 56);
    assert_int_equal(se[1], 0);
    assert_true(bench_se_parse("\t9.0/1.2/1.2\tsource", se));
    assert_int_equal(se[0], 90);
    assert_int_equal(se[1], 12);
    assert_true(bench_se_parse("8.3;8.3;1.2", se));
    assert_int_equal(se[0], 83);
    assert_int_equal(se[1], 0);
    /* counts, other numbers and other notations are not ratings */
    se[0] = 42;
    assert_false(bench_se_parse("1", se));
    assert_false(bench_se_parse("2+", se));
    assert_false(bench_se_parse("", se));
    assert_false(bench_se_parse("0.53", se));
    assert_false(bench_se_parse("7.1/1.2", se));
    assert_false(bench_se_parse("xED=7.1/1.2/1.2", se));
    assert_false(bench_se_parse("ED=7.1/1.2/1.2x", se));
    assert_false(bench_se_parse("123.4", se));
    /* serate's 20.0 says it gave up: no rating */
    assert_false(bench_se_parse("ED=20.0/20.0/20.0", se));
    assert_false(bench_se_parse("20.0", se));
    assert_int_equal(se[0], 42);
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
/* Adds 4x4 puzzles, lines 1 to n, to corpus 0 of plan. */
static void add_4x4_puzzles(struct bench_plan *plan, const char *const *puzzles, int n)
{
    for (int k = 0; k < n; k++) {
        struct corpus_item item;
        memset(&item, 0, sizeof(item));
        const struct grid_shape shape = { 0, 0, GRID_STANDARD };
        assert_int_equal(
            grid_parse_token(&item.puzzle, puzzles[k], 16, &shape, NULL, 0), 0);
        item.line = (unsigned long) k + 1;
        assert_int_equal(bench_plan_add_puzzle(plan, 0, &item, true), 0);
    }
}

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
    add_4x4_puzzles(plan, puzzles, 3);
    assert_int_equal(bench_plan_finish(plan), 0);
    assert_string_equal(plan->corpora[0].name, "c.txt");
    assert_int_equal(bench_plan_pending(plan), 2 * 3 * 2);
}

/* A compressed corpus is named after its content; names stay unique. */
static void corpus_names_drop_the_compression_suffix(void **state)
{
    (void) state;
    const struct solver *solvers[1] = { solver_find("naive") };
    struct bench_options opt = { .limit = 2, .repeat = 1, .threads = 1 };
    struct bench_plan plan;
    assert_int_equal(bench_plan_init(&plan, &opt, solvers, 1), 0);
    assert_int_equal(bench_plan_add_corpus(&plan, "public/top95.xz"), 0);
    assert_int_equal(bench_plan_add_corpus(&plan, "other/top95"), 1);
    assert_int_equal(bench_plan_add_corpus(&plan, "x.gz"), 2);
    assert_int_equal(bench_plan_add_corpus(&plan, "a.xz.txt"), 3);
    assert_string_equal(plan.corpora[0].name, "top95");
    assert_string_equal(plan.corpora[1].name, "top95~2");
    assert_string_equal(plan.corpora[2].name, "x");
    assert_string_equal(plan.corpora[3].name, "a.xz.txt");
    bench_plan_free(&plan);
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

/* A back end that fails on a puzzle its instance has met before (the empty
 * grid aside), solving through mrv otherwise: it shows whether the bench ever
 * times a learner's solve of a puzzle after a solve of it on one instance. */
struct once_state {
    struct solver_instance *inner;
    struct grid seen[16];
    int nseen;
};

static void once_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct once_state *st = priv;
    const bool empty = grid_count_clues(puzzle) == 0;
    for (int k = 0; k < st->nseen && !empty; k++)
        if (!memcmp(st->seen[k].cell, puzzle->cell, puzzle->ncells)) {
            res->outcome = SOLVE_ERROR;
            snprintf(res->error, sizeof(res->error), "met this puzzle before");
            return;
        }
    if (!empty && st->nseen < 16)
        st->seen[st->nseen++] = *puzzle;
    if (!st->inner)
        st->inner = solver_open(solver_find("mrv"));
    solver_solve_unchecked(st->inner, puzzle, req, res);
}

static void once_fini(void *priv)
{
    solver_close(((struct once_state *) priv)->inner);
}

static struct solver once_solver(unsigned caps)
{
    return (struct solver) { .name = "once",
        .family = "test",
        .summary = "test",
        .min_n = 4,
        .max_n = 9,
        .caps = SOLVER_CAP_COUNT | SOLVER_CAP_FAST | caps,
        .priv_size = sizeof(struct once_state),
        .solve = once_solve,
        .fini = once_fini };
}

/* Runs the "once" back end (repeats 3, whole passes) over three puzzles;
 * returns the cells in error. */
static int once_errors(unsigned caps, bool *passes_measured)
{
    const struct solver learner = once_solver(caps);
    const struct solver *solvers[1] = { &learner };
    struct bench_options opt = { .limit = 2,
        .repeat = 3,
        .threads = 1,
        .warmup_ms = 50,
        .pass_ms = 1,
        .fast_us = 1e6 };
    struct bench_plan plan;
    assert_int_equal(bench_plan_init(&plan, &opt, solvers, 1), 0);
    assert_int_equal(bench_plan_add_corpus(&plan, "c.txt"), 0);
    const char *puzzles[]
        = { "1....2....3....4", "43....34.1.....1", "12..34.........." };
    add_4x4_puzzles(&plan, puzzles, 3);
    assert_int_equal(bench_plan_finish(&plan), 0);
    bench_plan_run(&plan);
    int errors = 0;
    for (size_t pi = 0; pi < 3; pi++)
        for (unsigned r = 0; r < 3; r++)
            errors += cell(&plan, 0, pi, r)->status == SOLVE_STATUS_ERROR;
    *passes_measured = plan.passes[0].measured;
    bench_plan_free(&plan);
    return errors;
}

/* A back end that learns from clues (SOLVER_CAP_LEARNS) never has a puzzle
 * timed after it met that puzzle: not by a repeat, the warm-up or a pass. */
static void learners_meet_each_puzzle_once_per_instance(void **state)
{
    (void) state;
    bool measured;
    assert_int_equal(once_errors(SOLVER_CAP_LEARNS, &measured), 0);
    assert_true(measured);
    /* the same back end undeclared meets its puzzles again */
    assert_true(once_errors(0, &measured) > 0);
    assert_false(measured);
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
    /* two puzzles are too few for an interval to mean anything */
    assert_true(isnan(s.speedup_low) && isnan(s.speedup_high));
    assert_true(isnan(s.pass_puzzles_per_s));
    assert_true(isnan(s.pass_median_puzzles_per_s));
    bench_plan_free(&plan);
}

/* Four passes of 4 puzzles in 100, 200, 400 and 800 ns: 4e7, 2e7, 1e7 and
 * 5e6 puzzles/s. */
static void measured_passes(struct bench_plan *plan, size_t si)
{
    struct bench_pass *p = &plan->passes[si * plan->ncorpora];
    static const uint64_t ns[] = { 400, 100, 800, 200 };
    p->measured = true;
    p->passes = 4;
    p->puzzles = 4;
    p->total_ns = 1500;
    p->best_ns = 100;
    p->sample_ns = malloc(sizeof(ns));
    assert_non_null(p->sample_ns);
    memcpy(p->sample_ns, ns, sizeof(ns));
    p->nsamples = 4;
}

static void summary_of_whole_passes(void **state)
{
    (void) state;
    struct bench_plan plan;
    const struct solver *solvers[2];
    small_plan(&plan, solvers);
    measured_passes(&plan, 1);
    struct bench_summary s;
    assert_int_equal(bench_summarize(&plan, 1, 0, 0, &s), 0);
    assert_int_equal(s.passes, 4);
    assert_float_equal(s.pass_best_puzzles_per_s, 4e7, 1e-3);
    assert_float_equal(s.pass_puzzles_per_s, 16 * 1e9 / 1500, 1e-3);
    assert_float_equal(s.pass_median_puzzles_per_s, 1.5e7, 1e-3);
    assert_float_equal(s.pass_q1_puzzles_per_s, 8.75e6, 1e-3);
    assert_float_equal(s.pass_q3_puzzles_per_s, 2.5e7, 1e-3);
    /* passes measured by merged shards keep no times: no spread */
    plan.passes[plan.ncorpora].nsamples = 0;
    assert_int_equal(bench_summarize(&plan, 1, 0, 0, &s), 0);
    assert_float_equal(s.pass_best_puzzles_per_s, 4e7, 1e-3);
    assert_true(isnan(s.pass_median_puzzles_per_s));
    bench_plan_free(&plan);
}

/* Splits summary.csv text into its lines' fields (at most 64 each). */
static int csv_fields(char *line, char **fields)
{
    return bench_csv_split(line, fields, 64);
}

/* naive and naive_stack on ten puzzles, one repeat: naive_stack is 2x as fast
 * on five of them and 4x on the other five. */
static void ten_puzzle_plan(struct bench_plan *plan, const struct solver **solvers)
{
    solvers[0] = solver_find("naive");
    solvers[1] = solver_find("naive_stack");
    struct bench_options opt = { .limit = 2, .repeat = 1, .threads = 1 };
    assert_int_equal(bench_plan_init(plan, &opt, solvers, 2), 0);
    assert_int_equal(bench_plan_add_corpus(plan, "ten.txt"), 0);
    for (int k = 0; k < 10; k++) {
        struct corpus_item item;
        memset(&item, 0, sizeof(item));
        const struct grid_shape shape = { 0, 0, GRID_STANDARD };
        assert_int_equal(
            grid_parse_token(&item.puzzle, "1....2....3....4", 16, &shape, NULL, 0), 0);
        item.line = (unsigned long) k + 1;
        assert_int_equal(bench_plan_add_puzzle(plan, 0, &item, true), 0);
    }
    assert_int_equal(bench_plan_finish(plan), 0);
    for (size_t pi = 0; pi < 10; pi++) {
        set_cell(plan, 0, pi, 0, SOLVE_STATUS_MULTIPLE, 2, pi < 5 ? 100 : 400, 1);
        set_cell(plan, 1, pi, 0, SOLVE_STATUS_MULTIPLE, 2, pi < 5 ? 50 : 100, 1);
    }
}

static void summary_interval_of_ten_puzzles(void **state)
{
    (void) state;
    struct bench_plan plan;
    const struct solver *solvers[2];
    ten_puzzle_plan(&plan, solvers);
    struct bench_summary s;
    assert_int_equal(bench_summarize(&plan, 1, 0, 0, &s), 0);
    assert_int_equal(s.speedup_pairs, 10);
    assert_float_equal(s.speedup, sqrt(8.0), 1e-9);
    /* a replicate is 2^(1 + k/10), k ~ Binomial(10, 1/2) the draws of a 4x
     * puzzle; its 2.5% and 97.5% quantiles are k = 2 and k = 8 */
    assert_float_equal(s.speedup_low, pow(2, 1.2), 1e-9);
    assert_float_equal(s.speedup_high, pow(2, 1.8), 1e-9);
    /* the baseline against itself: 1, with an interval of zero width */
    assert_int_equal(bench_summarize(&plan, 0, 0, 0, &s), 0);
    assert_true(s.speedup == 1 && s.speedup_low == 1 && s.speedup_high == 1);
    bench_plan_free(&plan);
}

/* --sample 3: naive (not marked fast) is timed on entries 1-3 only, mrv
 * (fast) on all ten; the summary counts naive's other seven apart and
 * compares the two on the three they share. */
static void sample_times_slow_back_ends_on_the_first_entries(void **state)
{
    (void) state;
    const struct solver *solvers[2] = { solver_find("naive"), solver_find("mrv") };
    assert_non_null(solvers[0]);
    assert_non_null(solvers[1]);
    assert_false(solvers[0]->caps & SOLVER_CAP_FAST);
    assert_true(solvers[1]->caps & SOLVER_CAP_FAST);
    struct bench_options opt = { .limit = 2, .repeat = 1, .threads = 1, .sample = 3 };
    struct bench_plan plan;
    assert_int_equal(bench_plan_init(&plan, &opt, solvers, 2), 0);
    assert_int_equal(bench_plan_add_corpus(&plan, "ten.txt"), 0);
    for (int k = 0; k < 10; k++) {
        struct corpus_item item;
        memset(&item, 0, sizeof(item));
        const struct grid_shape shape = { 0, 0, GRID_STANDARD };
        assert_int_equal(
            grid_parse_token(&item.puzzle, "1....2....3....4", 16, &shape, NULL, 0), 0);
        item.line = (unsigned long) k + 1;
        assert_int_equal(bench_plan_add_puzzle(&plan, 0, &item, true), 0);
    }
    assert_int_equal(bench_plan_finish(&plan), 0);
    for (size_t pi = 0; pi < 10; pi++) {
        assert_int_equal(bench_cell_pending(&plan, 0, 0, pi, 0), pi < 3);
        assert_true(bench_cell_pending(&plan, 1, 0, pi, 0));
    }
    assert_int_equal(bench_plan_pending(&plan), 13);
    for (size_t pi = 0; pi < 10; pi++) {
        if (pi < 3)
            set_cell(&plan, 0, pi, 0, SOLVE_STATUS_MULTIPLE, 2, 400, 1);
        set_cell(&plan, 1, pi, 0, SOLVE_STATUS_MULTIPLE, 2, 100, 1);
    }
    struct bench_summary s;
    assert_int_equal(bench_summarize(&plan, 0, 0, 0, &s), 0);
    assert_int_equal(s.unsampled, 7);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.finished, 3);
    assert_int_equal(bench_summarize(&plan, 1, 0, 0, &s), 0);
    assert_int_equal(s.unsampled, 0);
    assert_int_equal(s.finished, 10);
    assert_int_equal(s.speedup_pairs, 3);
    assert_float_equal(s.speedup, 4.0, 1e-9);
    bench_plan_free(&plan);
}

static void summary_csv_appends_the_interval_columns(void **state)
{
    (void) state;
    struct bench_plan plan;
    const struct solver *solvers[2];
    ten_puzzle_plan(&plan, solvers);
    measured_passes(&plan, 1);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(bench_summary_write_csv(&plan, 0, f), 0);
    fclose(f);
    char *save = NULL, *lines[3];
    lines[0] = strtok_r(text, "\n", &save);
    lines[1] = strtok_r(NULL, "\n", &save);
    lines[2] = strtok_r(NULL, "\n", &save);
    assert_non_null(lines[2]);
    assert_null(strtok_r(NULL, "\n", &save));
    /* the columns consumers know come first, unchanged; the new ones last */
    const char *tail = ",par2_ns,baseline,speedup_vs_baseline,speedup_ci_low,"
                       "speedup_ci_high,speedup_pairs,pass_median_puzzles_per_s,"
                       "pass_q1_puzzles_per_s,pass_q3_puzzles_per_s,runs,run_successes,"
                       "success_rate,success_median_ns,success_mean_ns,run_par2_ns,"
                       "unsampled";
    assert_true(strncmp(lines[0], "corpus,solver,puzzles,unique,multiple,", 38) == 0);
    assert_string_equal(lines[0] + strlen(lines[0]) - strlen(tail), tail);
    char *head[64], *base[64], *other[64];
    const int n = csv_fields(lines[0], head);
    assert_int_equal(csv_fields(lines[1], base), n);
    assert_int_equal(csv_fields(lines[2], other), n);
    const int m = n - 7; /* the columns before the runs' and unsampled */
    assert_string_equal(head[m - 7], "speedup_vs_baseline");
    /* the baseline against itself: 1, with an interval of zero width */
    assert_string_equal(base[m - 7], "1");
    assert_string_equal(base[m - 6], "1");
    assert_string_equal(base[m - 5], "1");
    assert_string_equal(base[m - 4], "10");
    assert_string_equal(base[m - 3], ""); /* no passes */
    /* naive_stack: 2x and 4x, so sqrt(8) within [2^1.2, 2^1.8] */
    assert_string_equal(other[1], "naive_stack");
    assert_string_equal(other[m - 7], "2.82843");
    assert_string_equal(other[m - 6], "2.2974");
    assert_string_equal(other[m - 5], "3.4822");
    assert_string_equal(other[m - 4], "10");
    assert_string_equal(other[m - 3], "15000000.00");
    assert_string_equal(other[m - 2], "8750000.00");
    assert_string_equal(other[m - 1], "25000000.00");
    free(text);
    bench_plan_free(&plan);
}

/* ---- env.txt: the facts about noise, from made-up /proc and /sys ---- */

static void put_file(const char *root, const char *rel, const char *text)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", root, rel);
    for (char *slash = strchr(path + strlen(root) + 1, '/'); slash;
         slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0777);
        *slash = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int remove_entry(
    const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void) st, (void) flag, (void) ftw;
    return remove(path);
}

static void fake_machine(char *root)
{
    strcpy(root, "/tmp/sudolab-env-XXXXXX");
    assert_non_null(mkdtemp(root));
    put_file(root, "proc/loadavg", "0.50 0.40 0.30 1/123 4567\n");
    put_file(root, "proc/stat",
        "cpu  100 10 50 800 20 5 5 30 7 0\ncpu0 50 5 25 400 10 2 3 15 0 0\n");
    put_file(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "2000000\n");
    put_file(root, "sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "3000000\n");
    put_file(root, "sys/devices/system/cpu/cpu2/online", "0\n"); /* offline */
    put_file(root, "proc/cpuinfo",
        "processor\t: 0\ncpu MHz\t\t: 1800.500\nprocessor\t: 1\ncpu MHz\t\t: 1799.500\n");
}

static void env_reads_load_frequency_and_cpu_time(void **state)
{
    (void) state;
    char root[64];
    fake_machine(root);
    double load[3];
    assert_true(bench_env_read_loadavg(root, load));
    assert_float_equal(load[0], 0.5, 1e-12);
    assert_float_equal(load[2], 0.3, 1e-12);
    struct bench_cpu_freq f;
    assert_true(bench_env_read_cpu_freq(root, &f));
    assert_int_equal(f.cores, 2);
    assert_float_equal(f.min_mhz, 2000, 1e-9);
    assert_float_equal(f.mean_mhz, 2500, 1e-9);
    assert_float_equal(f.max_mhz, 3000, 1e-9);
    assert_string_equal(f.source, "scaling_cur_freq");
    struct bench_cpu_times t;
    bench_env_read_cpu_times(root, &t);
    assert_true(t.machine_known);
    const double tick = 1.0 / (double) sysconf(_SC_CLK_TCK);
    /* user nice system irq softirq steal; guest (7) is inside user */
    assert_float_equal(t.busy_s, (100 + 10 + 50 + 5 + 5 + 30) * tick, 1e-9);
    assert_float_equal(t.steal_s, 30 * tick, 1e-9);
    assert_float_equal(t.total_s, (200 + 800 + 20) * tick, 1e-9);
    assert_true(t.self_s > 0 && t.wall_s > 0);
    /* without cpufreq (many VMs): /proc/cpuinfo; without either: nothing */
    char path[4200];
    snprintf(path, sizeof(path), "%s/sys", root);
    nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    assert_true(bench_env_read_cpu_freq(root, &f));
    assert_int_equal(f.cores, 2);
    assert_float_equal(f.mean_mhz, 1800, 1e-9);
    assert_string_equal(f.source, "cpuinfo");
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    assert_false(bench_env_read_cpu_freq(root, &f));
    assert_false(bench_env_read_loadavg(root, load));
    bench_env_read_cpu_times(root, &t);
    assert_false(t.machine_known);
}

static void env_judges_whether_the_machine_was_quiet(void **state)
{
    (void) state;
    /* 20 s on 2 cores (40 s of CPU time): this process used 19 s */
    const struct bench_cpu_times before = { true, 100, 1, 400, 10, 1000 };
    struct bench_cpu_times after = { true, 100 + 19.5, 1, 440, 29, 1020 };
    struct bench_noise n;
    bench_env_noise(&before, &after, &n);
    assert_int_equal(n.quiet, BENCH_QUIET_YES);
    assert_float_equal(n.other_busy_cores, 0.5 / 20, 1e-9);
    assert_float_equal(n.self_cores, 19.0 / 20, 1e-9);
    /* others took 11 s: 0.55 cores, 27.5% of the machine */
    after.busy_s = 100 + 30;
    bench_env_noise(&before, &after, &n);
    assert_int_equal(n.quiet, BENCH_QUIET_NO);
    assert_float_equal(n.other_busy_cores, 0.55, 1e-9);
    assert_float_equal(n.other_busy_share, 0.275, 1e-9);
    assert_non_null(strstr(n.why, "0.55 cores busy, 28% of the machine"));
    /* a hypervisor stealing 2% of the time */
    after.busy_s = 100 + 19.8;
    after.steal_s = 1.8;
    bench_env_noise(&before, &after, &n);
    assert_int_equal(n.quiet, BENCH_QUIET_NO);
    assert_float_equal(n.steal_share, 0.02, 1e-9);
    assert_non_null(strstr(n.why, "hypervisor"));
    /* too short a run, or no /proc/stat: not judged */
    after.wall_s = 1000.5;
    bench_env_noise(&before, &after, &n);
    assert_int_equal(n.quiet, BENCH_QUIET_UNKNOWN);
    after.wall_s = 1020;
    after.machine_known = false;
    bench_env_noise(&before, &after, &n);
    assert_int_equal(n.quiet, BENCH_QUIET_UNKNOWN);
    assert_true(isnan(n.other_busy_cores));
}

static void env_txt_lines_for_noise_and_paths(void **state)
{
    (void) state;
    char root[64];
    fake_machine(root);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    bench_env_write_before(f, root);
    const struct bench_cpu_times before = { true, 100, 1, 400, 10, 1000 };
    const struct bench_cpu_times after = { true, 130, 1, 440, 29, 1020 };
    bench_env_write_after(f, root, &before, &after);
    const struct solver *solvers[]
        = { solver_find("fast_portable"), solver_find("naive"), solver_find("fast") };
    bench_env_write_isa_paths(f, solvers, 3);
    fclose(f);
    static const char *const lines[] = {
        "loadavg_before: 0.50 0.40 0.30\n",
        "cpu_mhz_before: 2500 (min 2000, max 3000, 2 cores, from scaling_cur_freq)\n",
        "loadavg_after: 0.50 0.40 0.30\n",
        "other_busy_cores: 0.550\n",
        "other_busy_share: 0.2750\n",
        "steal_share: 0.0000\n",
        "self_cores: 0.950\n",
        "quiet: no (other processes kept 0.55 cores busy, 28% of the machine)\n",
        "isa_path: fast_portable portable\n",
        "isa_path: naive generic\n",
        "isa_path: fast ",
    };
    for (size_t k = 0; k < sizeof(lines) / sizeof(lines[0]); k++) {
        if (!strstr(text, lines[k]))
            fail_msg("no '%s' in:\n%s", lines[k], text);
    }
    free(text);
    /* where nothing is readable, the keys say so */
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    f = open_memstream(&text, &len);
    bench_env_write_before(f, root);
    fclose(f);
    assert_string_equal(text, "loadavg_before: n/a\ncpu_mhz_before: n/a\n");
    free(text);
}

static void isa_paths_follow_the_cpu(void **state)
{
    (void) state;
    unsetenv("SUDOLAB_MAX_SIMD"); /* this test is about the CPU itself */
    assert_string_equal(bench_env_isa_path(solver_find("fast_portable")), "portable");
    assert_string_equal(bench_env_isa_path(solver_find("wide_portable")), "portable");
    assert_string_equal(bench_env_isa_path(solver_find("dlx")), "generic");
    const struct solver outsider = { .name = "so:elsewhere" };
    assert_string_equal(bench_env_isa_path(&outsider), "unknown");
#if defined(__x86_64__)
    __builtin_cpu_init();
    const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
        && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
    const bool avx512 = avx2 && __builtin_cpu_supports("avx512f")
        && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq");
    const char *best = avx512 ? "avx512" : avx2 ? "avx2" : "portable";
    assert_string_equal(bench_env_isa_path(solver_find("fast")), best);
    /* a forced path the CPU lacks is never run as another */
    assert_string_equal(bench_env_isa_path(solver_find("fast_avx512")),
        avx512 ? "avx512" : "unavailable");
    assert_string_equal(
        bench_env_isa_path(solver_find("fast_avx2")), avx2 ? "avx2" : "unavailable");
#else
    assert_string_equal(bench_env_isa_path(solver_find("fast")), "portable");
#endif
}

/* Every key of the table written, then read back by the same key: a key
 * spelled like another would read the other's value. */
static void env_txt_keys_round_trip(void **state)
{
    (void) state;
    char path[] = "/tmp/sudolab-env-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    for (int k = 0; k < BENCH_ENV_NKEYS; k++)
        bench_env_put(f, (enum bench_env_key) k, "value %d", k);
    fclose(f);
    struct bench_env_file env;
    assert_int_equal(bench_env_read(&env, path), 0);
    assert_int_equal(env.nlines, BENCH_ENV_NKEYS);
    for (int k = 0; k < BENCH_ENV_NKEYS; k++) {
        char want[32];
        snprintf(want, sizeof(want), "value %d", k);
        const char *got = bench_env_get(&env, (enum bench_env_key) k);
        if (!got || strcmp(got, want) != 0)
            fail_msg("%s: '%s', not '%s'", bench_env_key_name((enum bench_env_key) k),
                got ? got : "(none)", want);
    }
    bench_env_file_free(&env);
    remove(path);
}

/* A resumed run's env.txt: its last section is the run that finished, and
 * the text comes back as it was. */
static void env_txt_reads_the_last_section(void **state)
{
    (void) state;
    static const char text[] = "limit: 2\n"
                               "pass: mrv a.txt 3 10 300 90\n"
                               "seed: 7\n"
                               "a line with no key\n"
                               "--- resumed ---\r\n"
                               "limit: 1\n"
                               "pass: mrv a.txt 4 10 400 80\n"
                               "from_a_later_version: x: y\n"
                               "pass: dlx a.txt 2 10 500 200\n"
                               "limit: 3\n";
    char path[] = "/tmp/sudolab-env-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t) sizeof(text) - 1);
    close(fd);
    struct bench_env_file env;
    assert_int_equal(bench_env_read(&env, path), 0);
    assert_int_equal(env.text_len, sizeof(text) - 1);
    assert_string_equal(env.text, text);
    assert_string_equal(bench_env_get(&env, BENCH_ENV_LIMIT), "3");
    assert_null(bench_env_get(&env, BENCH_ENV_SEED)); /* not said again when resumed */
    assert_string_equal(bench_env_get_latest(&env, BENCH_ENV_SEED), "7");
    assert_string_equal(bench_env_get_latest(&env, BENCH_ENV_LIMIT), "3");
    size_t at = 0;
    assert_string_equal(
        bench_env_next(&env, BENCH_ENV_PASS, &at), "mrv a.txt 4 10 400 80");
    assert_string_equal(
        bench_env_next(&env, BENCH_ENV_PASS, &at), "dlx a.txt 2 10 500 200");
    assert_null(bench_env_next(&env, BENCH_ENV_PASS, &at));
    assert_null(bench_env_next(&env, BENCH_ENV_PASS, &at));
    bench_env_file_free(&env);
    remove(path);
    assert_int_equal(bench_env_read(&env, path), -1);
    bench_env_file_free(&env);
}

/* ---- the bench session ---- */

static int runner_calls;

static int runner_that_cannot_start(struct bench_plan *plan)
{
    (void) plan;
    runner_calls++;
    return -1;
}

static int runner_on_threads(struct bench_plan *plan)
{
    runner_calls++;
    return bench_plan_run(plan);
}

/* A session of mrv over a one-puzzle corpus in dir, with its outputs in
 * dir/out when out is true, run by run. Returns the exit status; what it
 * said on the stream of messages is in *said (free it). */
static int run_session(
    const char *dir, bool out, int (*run)(struct bench_plan *), char **said)
{
    char corpus[256], out_dir[256];
    snprintf(corpus, sizeof(corpus), "%s/royle.txt", dir);
    snprintf(out_dir, sizeof(out_dir), "%s/out", dir);
    FILE *f = fopen(corpus, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", test_royle);
    fclose(f);
    static const struct solver *solvers[1];
    solvers[0] = solver_find("mrv");
    static const struct corpus_options corpus_opt = { .variant_from_header = true };
    size_t len = 0;
    FILE *messages = open_memstream(said, &len);
    assert_non_null(messages);
    char *files[] = { corpus };
    char *argv[] = { "bench", corpus };
    const struct bench_session_options o = {
        .opt = { .limit = 2, .repeat = 1, .threads = 1, .seed = 1 },
        .solvers = solvers,
        .nsolvers = 1,
        .input = { .corpus = &corpus_opt, .err = messages },
        .nfiles = 1,
        .files = files,
        .out_dir = out ? out_dir : NULL,
        .quiet = true,
        .argc = 2,
        .argv = argv,
        .run = run,
        .messages = messages,
    };
    runner_calls = 0;
    const int status = bench_session_run(&o);
    fclose(messages);
    return status;
}

static void session_runs_on_the_runner_it_is_given(void **state)
{
    (void) state;
    char dir[] = "/tmp/sudolab-session-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *said = NULL;
    assert_int_equal(
        run_session(dir, false, runner_that_cannot_start, &said), EXIT_STATUS_SKIPPED);
    assert_int_equal(runner_calls, 1);
    if (!strstr(said, "sudolab bench: could not start the worker threads\n"))
        fail_msg("the runner's failure was not said: '%s'", said);
    free(said);
    assert_int_equal(run_session(dir, false, runner_on_threads, &said), EXIT_STATUS_OK);
    assert_int_equal(runner_calls, 1);
    assert_string_equal(said, "");
    free(said);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Every line of a session's env.txt is a key of the table, in the table's
 * order: what BENCH_ENV_KEYS says of itself, and what a reader of env.txt
 * (merge, scripts) may rely on. */
static void session_env_txt_follows_the_key_table(void **state)
{
    (void) state;
    char dir[] = "/tmp/sudolab-session-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *said = NULL;
    assert_int_equal(run_session(dir, true, runner_on_threads, &said), EXIT_STATUS_OK);
    free(said);
    char path[256];
    snprintf(path, sizeof(path), "%s/out/env.txt", dir);
    struct bench_env_file env;
    assert_int_equal(bench_env_read(&env, path), 0);
    int last = 0;
    for (size_t i = 0; i < env.nlines; i++) {
        int k = 0;
        while (k < BENCH_ENV_NKEYS
            && strcmp(env.lines[i].key, bench_env_key_name((enum bench_env_key) k)) != 0)
            k++;
        if (k == BENCH_ENV_NKEYS)
            fail_msg("env.txt line %zu: '%s' is not in BENCH_ENV_KEYS", i + 1,
                env.lines[i].key);
        if (k < last)
            fail_msg("env.txt line %zu: '%s' comes after '%s', against the table", i + 1,
                env.lines[i].key, bench_env_key_name((enum bench_env_key) last));
        last = k;
    }
    assert_string_equal(bench_env_get(&env, BENCH_ENV_SOLVERS), "mrv");
    assert_string_equal(bench_env_get(&env, BENCH_ENV_ROWS), "1");
    assert_string_equal(bench_env_get(&env, BENCH_ENV_FINISHED), "complete");
    bench_env_file_free(&env);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(quantiles_interpolate_between_ranks),
        cmocka_unit_test(means_par2_and_middle_half),
        cmocka_unit_test(bootstrap_of_equal_times_is_one_exactly),
        cmocka_unit_test(bootstrap_of_noisy_ratios_covers_the_truth),
        cmocka_unit_test(csv_header_follows_the_counters),
        cmocka_unit_test(csv_rows_round_trip),
        cmocka_unit_test(csv_reader_finds_columns_by_name),
        cmocka_unit_test(csv_reader_drops_a_torn_last_row),
        cmocka_unit_test(csv_se_columns_round_trip),
        cmocka_unit_test(csv_name_column_comes_last_and_round_trips),
        cmocka_unit_test(se_ratings_parse_from_corpus_lines),
        cmocka_unit_test(expectations_parse),
        cmocka_unit_test(corpus_names_drop_the_compression_suffix),
        cmocka_unit_test(resume_skips_the_rows_present),
        cmocka_unit_test(crosscheck_reports_disagreements),
        cmocka_unit_test(summary_arithmetic),
        cmocka_unit_test(summary_interval_of_ten_puzzles),
        cmocka_unit_test(summary_of_whole_passes),
        cmocka_unit_test(sample_times_slow_back_ends_on_the_first_entries),
        cmocka_unit_test(summary_csv_appends_the_interval_columns),
        cmocka_unit_test(env_reads_load_frequency_and_cpu_time),
        cmocka_unit_test(env_judges_whether_the_machine_was_quiet),
        cmocka_unit_test(env_txt_lines_for_noise_and_paths),
        cmocka_unit_test(isa_paths_follow_the_cpu),
        cmocka_unit_test(env_txt_keys_round_trip),
        cmocka_unit_test(env_txt_reads_the_last_section),
        cmocka_unit_test(session_runs_on_the_runner_it_is_given),
        cmocka_unit_test(session_env_txt_follows_the_key_table),
        cmocka_unit_test(learners_meet_each_puzzle_once_per_instance),
    };
    const struct test_group plain = { "bench", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
