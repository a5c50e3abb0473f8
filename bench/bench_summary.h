/* The summary of a bench run, per back end x corpus: counts per status, time
 * statistics, throughput, mean counters, PAR-2 and the speed ratio against a
 * baseline back end. Printed as tables for people and as summary.csv.
 *
 * Incomplete back ends (SOLVER_CAP_INCOMPLETE, run K times a puzzle with
 * bench --seeds K) are measured by their runs, each run apart: the share of
 * runs that found a solution, the median and mean time of those, and PAR-2
 * over the runs; the table shows these columns when such a back end ran.
 *
 * Per puzzle, the time is the median over its repeats and the status and
 * counters are those of its first repeat. Time statistics are over the
 * finished puzzles (a verdict within the budget); those that hit a budget
 * count in PAR-2 (twice the budget), printed whenever one did. puzzles/s is
 * every timed puzzle over their summed times; pass/s is the whole-pass
 * throughput when it was measured (all timed passes; summary.csv also has the
 * fastest pass, as tdoku quotes best-of-N, and the median and quartiles of
 * the passes' own throughputs: the interquartile range is the spread). The
 * speed ratio is the geometric mean, over the puzzles both finished, of
 * baseline time / this time: 3.0 means three times faster than the
 * baseline; its 95% interval is the paired bootstrap of bench_stats.h, given
 * from BENCH_INTERVAL_MIN_PAIRS puzzles compared (from fewer, resampling can
 * take only a handful of values and the interval comes out too narrow to
 * trust), and a ratio whose interval holds 1 is no measurable difference.
 *
 * summary.csv's columns, in this order (new ones are added at the end):
 * corpus, solver, puzzles, a count per status, unsupported, pending,
 * finished, mean_ns, median_ns, p90_ns, p99_ns, max_ns, puzzles_per_s,
 * pass_puzzles_per_s, pass_best_puzzles_per_s, passes, mean_<counter> for
 * each counter, par2_ns, baseline, speedup_vs_baseline, speedup_ci_low,
 * speedup_ci_high, speedup_pairs, pass_median_puzzles_per_s,
 * pass_q1_puzzles_per_s, pass_q3_puzzles_per_s, runs, run_successes,
 * success_rate, success_median_ns, success_mean_ns, run_par2_ns, unsampled. Empty cells
 * are figures that do not exist (nothing finished, no passes, no interval).
 * unsampled counts the entries past bench --sample that the back end was not
 * timed on; every other figure is over the entries it was. */
#ifndef SUDOLAB_BENCH_BENCH_SUMMARY_H
#define SUDOLAB_BENCH_BENCH_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "bench/bench_run.h"

enum { BENCH_INTERVAL_MIN_PAIRS = 10 };

struct bench_summary {
    size_t puzzles; /* entries of the corpus in the run */
    size_t status[SOLVE_STATUS_COUNT];
    size_t unsupported, pending;
    size_t unsampled; /* entries past the sample (bench_options.sample) */
    size_t timed, finished;
    double mean_ns, median_ns, p90_ns, p99_ns, max_ns; /* NAN when none finished */
    double puzzles_per_s;
    double pass_puzzles_per_s; /* NAN when not measured */
    double pass_best_puzzles_per_s; /* of the fastest pass */
    /* quartiles of the passes' own throughputs; NAN when not kept */
    double pass_q1_puzzles_per_s, pass_median_puzzles_per_s, pass_q3_puzzles_per_s;
    unsigned passes;
    double counter_mean[SOLVER_COUNTER_COUNT]; /* over finished; NAN when n/a */
    double par2_ns; /* NAN when no budget was hit */
    double speedup; /* vs the baseline; NAN when no puzzle to compare */
    double speedup_low, speedup_high; /* its 95% interval; NAN: none */
    size_t speedup_pairs;
    /* every run apart (repeats, and the seeds of incomplete back ends):
     * runs, those that found their answer (not limit, error or invalid),
     * their share, the median and mean time of those (NAN: none), and PAR-2
     * over the runs (the mean time when none hit a budget; NAN: no run) */
    size_t runs, run_successes;
    double success_rate, success_median_ns, success_mean_ns, run_par2_ns;
};

/* Summarises back end si on corpus ci. Returns 0, or -1 (out of memory). */
int bench_summarize(const struct bench_plan *plan, size_t si, size_t ci, size_t baseline,
    struct bench_summary *out);

/* Tables for people, one per corpus. */
void bench_summary_print(const struct bench_plan *plan, size_t baseline, FILE *out);

/* summary.csv: header and one row per back end x corpus. Returns 0 or -1. */
int bench_summary_write_csv(const struct bench_plan *plan, size_t baseline, FILE *out);

#endif /* SUDOLAB_BENCH_BENCH_SUMMARY_H */
