#include "bench/bench_summary.h"
#include "bench/bench_csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_stats.h"
#include "common/text.h"

/* Per-puzzle view of the cells: median time over the finished repeats. */
struct puzzle_view {
    bool done, timed, finished;
    int status;
    double time_ns;
    const struct bench_cell *first;
};

static struct puzzle_view view(
    const struct bench_plan *plan, size_t si, size_t ci, size_t pi, double *scratch)
{
    struct puzzle_view v = { .status = -1 };
    const struct bench_cell *cells = plan->cells[si * plan->ncorpora + ci];
    size_t n = 0;
    for (unsigned r = 0; r < plan->opt.repeat; r++) {
        const struct bench_cell *cell = &cells[pi * plan->opt.repeat + r];
        if (cell->state != BENCH_CELL_DONE)
            continue;
        if (!v.first)
            v.first = cell;
        if (cell->timed)
            scratch[n++] = (double) cell->time_ns;
    }
    if (!v.first)
        return v;
    v.done = true;
    v.status = v.first->status;
    v.timed = n > 0;
    v.time_ns = n > 0 ? bench_median(scratch, n) : 0;
    v.finished
        = v.timed && v.status != SOLVE_STATUS_LIMIT && v.status != SOLVE_STATUS_ERROR;
    return v;
}

/* What the puzzles of one back end and corpus add up to, before the
 * statistics: the per-puzzle times (of finished puzzles apart) and the speed
 * ratios against the baseline. */
struct tally {
    double *times; /* every timed puzzle */
    bool *finished; /* ... whether it finished */
    double *finished_times;
    double *ratios; /* baseline time / this time, where both finished */
    double *scratch; /* a puzzle's repeats */
    double sums[SOLVER_COUNTER_COUNT]; /* of the finished puzzles' counters */
    double total_ns, limit_max_ns;
    size_t ntimed, nfinished, npairs;
};

static void tally_free(struct tally *t)
{
    free(t->times);
    free(t->finished_times);
    free(t->ratios);
    free(t->finished);
    free(t->scratch);
}

/* Room for n puzzles of `repeat` repeats. Returns 0, or -1 (out of memory). */
static int tally_init(struct tally *t, size_t n, unsigned repeat)
{
    memset(t, 0, sizeof(*t));
    n = n ? n : 1;
    t->times = malloc(n * sizeof(double));
    t->finished_times = malloc(n * sizeof(double));
    t->ratios = malloc(n * sizeof(double));
    t->finished = malloc(n * sizeof(bool));
    t->scratch = malloc(repeat * sizeof(double));
    if (!t->times || !t->finished_times || !t->ratios || !t->finished || !t->scratch) {
        tally_free(t);
        return -1;
    }
    return 0;
}

/* Goes over the corpus's puzzles: counts statuses into out, times into t. */
static void tally_puzzles(const struct bench_plan *plan, size_t si, size_t ci,
    size_t baseline, struct tally *t, struct bench_summary *out)
{
    const struct bench_corpus *c = &plan->corpora[ci];
    const struct bench_cell *cells = plan->cells[si * plan->ncorpora + ci];
    for (size_t pi = 0; pi < c->n; pi++) {
        if (cells[pi * plan->opt.repeat].state == BENCH_CELL_UNSUPPORTED) {
            out->unsupported++;
            continue;
        }
        if (cells[pi * plan->opt.repeat].state == BENCH_CELL_UNSAMPLED) {
            out->unsampled++;
            continue;
        }
        const struct puzzle_view v = view(plan, si, ci, pi, t->scratch);
        if (!v.done) {
            out->pending++;
            continue;
        }
        out->status[v.status]++;
        if (!v.timed)
            continue;
        t->times[t->ntimed] = v.time_ns;
        t->finished[t->ntimed] = v.finished;
        t->ntimed++;
        t->total_ns += v.time_ns;
        if (v.status == SOLVE_STATUS_LIMIT && v.time_ns > t->limit_max_ns)
            t->limit_max_ns = v.time_ns;
        if (!v.finished)
            continue;
        t->finished_times[t->nfinished++] = v.time_ns;
        for (int k = 0; k < SOLVER_COUNTER_COUNT; k++)
            t->sums[k] += (double) solver_counter_get(&v.first->counters, k);
        if (baseline < plan->nsolvers) {
            const struct puzzle_view b = view(plan, baseline, ci, pi, t->scratch);
            if (b.finished) {
                /* a 0 ns reading is below the clock's resolution, not free */
                t->ratios[t->npairs++]
                    = (b.time_ns > 1 ? b.time_ns : 1) / (v.time_ns > 1 ? v.time_ns : 1);
            }
        }
    }
}

/* The statistics of the tallied times and counters. Returns 0, or -1 (out
 * of memory). */
static int summarize_tally(const struct bench_plan *plan, const struct solver *s,
    struct tally *t, struct bench_summary *out)
{
    const size_t nfinished = t->nfinished;
    out->timed = t->ntimed;
    out->finished = nfinished;
    bench_sort(t->finished_times, nfinished);
    out->mean_ns = bench_mean(t->finished_times, nfinished);
    out->median_ns = bench_quantile(t->finished_times, nfinished, 0.5);
    out->p90_ns = bench_quantile(t->finished_times, nfinished, 0.9);
    out->p99_ns = bench_quantile(t->finished_times, nfinished, 0.99);
    out->max_ns = nfinished ? t->finished_times[nfinished - 1] : NAN;
    out->puzzles_per_s = t->total_ns > 0 ? (double) t->ntimed * 1e9 / t->total_ns : NAN;
    for (int k = 0; k < SOLVER_COUNTER_COUNT; k++)
        out->counter_mean[k] = (s->counters & (1u << k)) && nfinished
            ? t->sums[k] / (double) nfinished
            : NAN;
    out->par2_ns = NAN;
    if (out->status[SOLVE_STATUS_LIMIT] > 0) {
        /* a step budget has no time: its slowest stop stands in for it */
        const double budget
            = plan->opt.budget_ms ? (double) plan->opt.budget_ms * 1e6 : t->limit_max_ns;
        out->par2_ns = bench_par2(t->times, t->finished, t->ntimed, budget);
    }
    out->speedup = bench_geomean(t->ratios, t->npairs);
    out->speedup_pairs = t->npairs;
    out->speedup_low = out->speedup_high = NAN;
    if (t->npairs < BENCH_INTERVAL_MIN_PAIRS)
        return 0;
    struct bench_interval iv;
    const int rc = bench_geomean_interval(t->ratios, t->npairs, BENCH_BOOTSTRAP_RESAMPLES,
        BENCH_BOOTSTRAP_SEED, BENCH_BOOTSTRAP_LEVEL, &iv);
    out->speedup_low = iv.low;
    out->speedup_high = iv.high;
    return rc;
}

/* The whole-pass throughput, when it was measured: all passes together, the
 * best, and the quartiles of each pass's own. Returns 0, or -1 (out of
 * memory). */
static int summarize_pass(const struct bench_pass *pass, struct bench_summary *out)
{
    out->pass_puzzles_per_s = NAN;
    out->pass_best_puzzles_per_s = NAN;
    out->pass_q1_puzzles_per_s = NAN;
    out->pass_median_puzzles_per_s = NAN;
    out->pass_q3_puzzles_per_s = NAN;
    if (!pass->measured || pass->total_ns == 0)
        return 0;
    const double puzzles = (double) pass->puzzles;
    out->pass_best_puzzles_per_s = puzzles * 1e9 / (double) pass->best_ns;
    out->pass_puzzles_per_s = puzzles * pass->passes * 1e9 / (double) pass->total_ns;
    out->passes = pass->passes;
    const size_t n = pass->nsamples;
    if (n == 0)
        return 0;
    double *rate = malloc(n * sizeof(*rate));
    if (!rate)
        return -1;
    for (size_t k = 0; k < n; k++)
        rate[k] = puzzles * 1e9 / (double) (pass->sample_ns[k] ? pass->sample_ns[k] : 1);
    bench_sort(rate, n);
    out->pass_q1_puzzles_per_s = bench_quantile(rate, n, 0.25);
    out->pass_median_puzzles_per_s = bench_quantile(rate, n, 0.5);
    out->pass_q3_puzzles_per_s = bench_quantile(rate, n, 0.75);
    free(rate);
    return 0;
}

/* Every run apart (each repeat, each seed of --seeds): how many, how many
 * found their answer, the times of those, and PAR-2 over the runs. Returns
 * 0, or -1 (out of memory). */
static int summarize_runs(
    const struct bench_plan *plan, size_t si, size_t ci, struct bench_summary *out)
{
    out->success_rate = out->success_median_ns = out->success_mean_ns = NAN;
    out->run_par2_ns = NAN;
    const size_t total = plan->corpora[ci].n * plan->opt.repeat;
    const struct bench_cell *cells = plan->cells[si * plan->ncorpora + ci];
    double *time = malloc((total ? total : 1) * sizeof(double));
    double *success_time = malloc((total ? total : 1) * sizeof(double));
    bool *success = malloc((total ? total : 1) * sizeof(bool));
    if (!time || !success_time || !success) {
        free(time);
        free(success_time);
        free(success);
        return -1;
    }
    size_t nsuccess = 0;
    double limit_max_ns = 0;
    bool any_limit = false;
    for (size_t k = 0; k < total; k++) {
        const struct bench_cell *cell = &cells[k];
        if (cell->state != BENCH_CELL_DONE || !cell->timed)
            continue;
        const bool found = cell->status != SOLVE_STATUS_LIMIT
            && cell->status != SOLVE_STATUS_ERROR && cell->status != SOLVE_STATUS_INVALID;
        time[out->runs] = (double) cell->time_ns;
        success[out->runs++] = found;
        if (found)
            success_time[nsuccess++] = (double) cell->time_ns;
        if (cell->status == SOLVE_STATUS_LIMIT) {
            any_limit = true;
            if ((double) cell->time_ns > limit_max_ns)
                limit_max_ns = (double) cell->time_ns;
        }
    }
    out->run_successes = nsuccess;
    if (out->runs > 0) {
        out->success_rate = (double) nsuccess / (double) out->runs;
        bench_sort(success_time, nsuccess);
        out->success_median_ns = bench_quantile(success_time, nsuccess, 0.5);
        out->success_mean_ns = bench_mean(success_time, nsuccess);
        const double budget
            = plan->opt.budget_ms ? (double) plan->opt.budget_ms * 1e6 : limit_max_ns;
        out->run_par2_ns = any_limit || nsuccess < out->runs
            ? bench_par2(time, success, out->runs, budget)
            : bench_mean(time, out->runs);
    }
    free(time);
    free(success_time);
    free(success);
    return 0;
}

int bench_summarize(const struct bench_plan *plan, size_t si, size_t ci, size_t baseline,
    struct bench_summary *out)
{
    memset(out, 0, sizeof(*out));
    out->puzzles = plan->corpora[ci].n;
    struct tally t;
    if (tally_init(&t, plan->corpora[ci].n, plan->opt.repeat) != 0)
        return -1;
    tally_puzzles(plan, si, ci, baseline, &t, out);
    int rc = summarize_tally(plan, plan->solvers[si], &t, out);
    if (summarize_pass(&plan->passes[si * plan->ncorpora + ci], out) != 0)
        rc = -1;
    if (summarize_runs(plan, si, ci, out) != 0)
        rc = -1;
    tally_free(&t);
    return rc;
}

static void format_time(char *buf, size_t len, double ns)
{
    if (isnan(ns))
        snprintf(buf, len, "-");
    else
        text_format_ns(buf, len, (uint64_t) llround(ns));
}

static void format_rate(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (v >= 100)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.3g", v);
}

static const char *const status_short[SOLVE_STATUS_COUNT] = {
    [SOLVE_STATUS_UNIQUE] = "unique",
    [SOLVE_STATUS_MULTIPLE] = "multi",
    [SOLVE_STATUS_UNSOLVABLE] = "unsolv",
    [SOLVE_STATUS_SOLVED] = "solved",
    [SOLVE_STATUS_INVALID] = "invalid",
    [SOLVE_STATUS_LIMIT] = "limit",
    [SOLVE_STATUS_ERROR] = "error",
};

static void format_ratio(char *buf, size_t len, double v)
{
    snprintf(buf, len, v >= 100 ? "%.0f" : "%.3g", v);
}

static bool no_measurable_difference(const struct bench_summary *s)
{
    const struct bench_interval iv = { s->speedup, s->speedup_low, s->speedup_high };
    return bench_interval_holds_one(&iv);
}

/* The optional columns of a corpus's table: those some solver has. */
struct table_columns {
    bool show[SOLVE_STATUS_COUNT];
    bool unsupported, unsampled, pending, par2;
    bool runs; /* some back end is incomplete: its runs' figures */
};

static void print_header(const struct bench_plan *plan, size_t ci, size_t baseline,
    const struct table_columns *tc, FILE *out)
{
    fprintf(out, "\n%s: %zu puzzles, limit %llu%s\n", plan->corpora[ci].name,
        plan->corpora[ci].n, (unsigned long long) plan->opt.limit,
        plan->opt.permute ? ", permuted" : "");
    fprintf(out, "%-14s", "solver");
    for (int k = 0; k < SOLVE_STATUS_COUNT; k++) {
        if (tc->show[k])
            fprintf(out, " %7s", status_short[k]);
    }
    if (tc->unsupported)
        fprintf(out, " %7s", "unsupp");
    if (tc->unsampled)
        fprintf(out, " %7s", "unsamp");
    if (tc->pending)
        fprintf(out, " %7s", "pending");
    fprintf(out, " %9s %9s %9s %9s %9s %10s %10s %9s", "mean", "median", "p90", "p99",
        "max", "puzzles/s", "pass p/s", "guesses");
    if (tc->par2)
        fprintf(out, " %9s", "PAR-2");
    if (tc->runs)
        fprintf(out, " %7s %7s %9s %9s %9s", "runs", "success", "t-median", "t-mean",
            "run PAR-2");
    if (baseline < plan->nsolvers)
        fprintf(out, "  vs %s [95%% interval]", plan->solvers[baseline]->name);
    fputc('\n', out);
}

static void print_row(const struct bench_plan *plan, size_t si, size_t baseline,
    const struct bench_summary *s, const struct table_columns *tc, FILE *out)
{
    fprintf(out, "%-14s", plan->solvers[si]->name);
    for (int k = 0; k < SOLVE_STATUS_COUNT; k++) {
        if (tc->show[k])
            fprintf(out, " %7zu", s->status[k]);
    }
    if (tc->unsupported)
        fprintf(out, " %7zu", s->unsupported);
    if (tc->unsampled)
        fprintf(out, " %7zu", s->unsampled);
    if (tc->pending)
        fprintf(out, " %7zu", s->pending);
    char t[5][24], rate[24], pass[24], guesses[24];
    const double times[5] = { s->mean_ns, s->median_ns, s->p90_ns, s->p99_ns, s->max_ns };
    for (int k = 0; k < 5; k++)
        format_time(t[k], sizeof(t[k]), times[k]);
    format_rate(rate, sizeof(rate), s->puzzles_per_s);
    format_rate(pass, sizeof(pass), s->pass_puzzles_per_s);
    format_rate(guesses, sizeof(guesses), s->counter_mean[SOLVER_COUNTER_guesses]);
    fprintf(out, " %9s %9s %9s %9s %9s %10s %10s %9s", t[0], t[1], t[2], t[3], t[4], rate,
        pass, guesses);
    if (tc->par2) {
        char p[24];
        format_time(p, sizeof(p), s->par2_ns);
        fprintf(out, " %9s", p);
    }
    if (tc->runs) {
        char share[24], run_t[3][24];
        if (isnan(s->success_rate))
            snprintf(share, sizeof(share), "-");
        else
            snprintf(share, sizeof(share), "%.1f%%", 100 * s->success_rate);
        format_time(run_t[0], sizeof(run_t[0]), s->success_median_ns);
        format_time(run_t[1], sizeof(run_t[1]), s->success_mean_ns);
        format_time(run_t[2], sizeof(run_t[2]), s->run_par2_ns);
        fprintf(
            out, " %7zu %7s %9s %9s %9s", s->runs, share, run_t[0], run_t[1], run_t[2]);
    }
    if (baseline < plan->nsolvers && !isnan(s->speedup)) {
        char r[24], lo[24], hi[24];
        format_ratio(r, sizeof(r), s->speedup);
        fprintf(out, "  %sx", r);
        if (si != baseline && !isnan(s->speedup_low)) {
            format_ratio(lo, sizeof(lo), s->speedup_low);
            format_ratio(hi, sizeof(hi), s->speedup_high);
            fprintf(out, " [%s, %s]%s", lo, hi,
                no_measurable_difference(s) ? " no measurable difference" : "");
        } else if (si != baseline && s->speedup_pairs < BENCH_INTERVAL_MIN_PAIRS) {
            fprintf(out, " [no interval: %zu puzzles in common, %d needed]",
                s->speedup_pairs, BENCH_INTERVAL_MIN_PAIRS);
        }
    }
    fputc('\n', out);
}

/* Under a table: the spread of the whole passes, for the solvers timed so. */
static void print_pass_spread(
    const struct bench_plan *plan, const struct bench_summary *sum, FILE *out)
{
    bool any = false;
    for (size_t si = 0; si < plan->nsolvers; si++) {
        const struct bench_summary *s = &sum[si];
        if (isnan(s->pass_median_puzzles_per_s))
            continue;
        if (!any)
            fprintf(out, "whole passes, puzzles/s: best, median, interquartile range\n");
        any = true;
        char best[24], median[24], q1[24], q3[24];
        format_rate(best, sizeof(best), s->pass_best_puzzles_per_s);
        format_rate(median, sizeof(median), s->pass_median_puzzles_per_s);
        format_rate(q1, sizeof(q1), s->pass_q1_puzzles_per_s);
        format_rate(q3, sizeof(q3), s->pass_q3_puzzles_per_s);
        fprintf(out, "  %-14s %10s %10s %10s-%s (%u passes)\n", plan->solvers[si]->name,
            best, median, q1, q3, s->passes);
    }
}

void bench_summary_print(const struct bench_plan *plan, size_t baseline, FILE *out)
{
    const size_t ns = plan->nsolvers;
    struct bench_summary *sum = calloc(ns ? ns : 1, sizeof(*sum));
    if (!sum)
        return;
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        struct table_columns tc;
        memset(&tc, 0, sizeof(tc));
        for (size_t si = 0; si < ns; si++) {
            bench_summarize(plan, si, ci, baseline, &sum[si]);
            for (int k = 0; k < SOLVE_STATUS_COUNT; k++)
                tc.show[k] |= sum[si].status[k] > 0;
            tc.unsupported |= sum[si].unsupported > 0;
            tc.unsampled |= sum[si].unsampled > 0;
            tc.pending |= sum[si].pending > 0;
            tc.par2 |= !isnan(sum[si].par2_ns);
            tc.runs |= (plan->solvers[si]->caps & SOLVER_CAP_INCOMPLETE) != 0;
        }
        print_header(plan, ci, baseline, &tc, out);
        for (size_t si = 0; si < ns; si++)
            print_row(plan, si, baseline, &sum[si], &tc, out);
        print_pass_spread(plan, sum, out);
    }
    free(sum);
}

static void csv_number(FILE *out, double v, const char *fmt)
{
    fputc(',', out);
    if (!isnan(v))
        fprintf(out, fmt, v);
}

int bench_summary_write_csv(const struct bench_plan *plan, size_t baseline, FILE *out)
{
    fputs("corpus,solver,puzzles", out);
    for (int k = 0; k < SOLVE_STATUS_COUNT; k++)
        fprintf(out, ",%s", solve_status_name((enum solve_status) k));
    fputs(",unsupported,pending,finished,mean_ns,median_ns,p90_ns,p99_ns,max_ns,"
          "puzzles_per_s,pass_puzzles_per_s,pass_best_puzzles_per_s,passes",
        out);
    for (int k = 0; k < SOLVER_COUNTER_COUNT; k++)
        fprintf(out, ",mean_%s", solver_counter_names[k]);
    fputs(",par2_ns,baseline,speedup_vs_baseline,speedup_ci_low,speedup_ci_high,"
          "speedup_pairs,pass_median_puzzles_per_s,pass_q1_puzzles_per_s,"
          "pass_q3_puzzles_per_s,runs,run_successes,success_rate,success_median_ns,"
          "success_mean_ns,run_par2_ns,unsampled\n",
        out);
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        for (size_t si = 0; si < plan->nsolvers; si++) {
            struct bench_summary s;
            if (bench_summarize(plan, si, ci, baseline, &s) != 0)
                return -1;
            bench_csv_put_text(out, plan->corpora[ci].name);
            fprintf(out, ",%s,%zu", plan->solvers[si]->name, s.puzzles);
            for (int k = 0; k < SOLVE_STATUS_COUNT; k++)
                fprintf(out, ",%zu", s.status[k]);
            fprintf(out, ",%zu,%zu,%zu", s.unsupported, s.pending, s.finished);
            const double times[5]
                = { s.mean_ns, s.median_ns, s.p90_ns, s.p99_ns, s.max_ns };
            for (int k = 0; k < 5; k++)
                csv_number(out, times[k], "%.0f");
            csv_number(out, s.puzzles_per_s, "%.2f");
            csv_number(out, s.pass_puzzles_per_s, "%.2f");
            csv_number(out, s.pass_best_puzzles_per_s, "%.2f");
            fprintf(out, ",%u", s.passes);
            for (int k = 0; k < SOLVER_COUNTER_COUNT; k++)
                csv_number(out, s.counter_mean[k], "%.3f");
            csv_number(out, s.par2_ns, "%.0f");
            fprintf(out, ",%s",
                baseline < plan->nsolvers ? plan->solvers[baseline]->name : "");
            /* significant digits: against a fast baseline a slow back end's
               ratio is far below 0.0001, which fixed decimals would write 0 */
            csv_number(out, s.speedup, "%.6g");
            csv_number(out, s.speedup_low, "%.6g");
            csv_number(out, s.speedup_high, "%.6g");
            fprintf(out, ",%zu", s.speedup_pairs);
            csv_number(out, s.pass_median_puzzles_per_s, "%.2f");
            csv_number(out, s.pass_q1_puzzles_per_s, "%.2f");
            csv_number(out, s.pass_q3_puzzles_per_s, "%.2f");
            fprintf(out, ",%zu,%zu", s.runs, s.run_successes);
            csv_number(out, s.success_rate, "%.4f");
            csv_number(out, s.success_median_ns, "%.0f");
            csv_number(out, s.success_mean_ns, "%.0f");
            csv_number(out, s.run_par2_ns, "%.0f");
            fprintf(out, ",%zu\n", s.unsampled);
        }
    }
    return ferror(out) ? -1 : 0;
}
