/* Statistics of the bench driver: order statistics of per-puzzle times, PAR-2,
 * geometric means with their bootstrap confidence intervals and the timer
 * overhead. Plain functions on arrays of
 * doubles (nanoseconds are exact in a double up to 104 days), so
 * tests/test_bench.c can check them on known inputs. */
#ifndef SUDOLAB_BENCH_BENCH_STATS_H
#define SUDOLAB_BENCH_BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sorts ascending. */
void bench_sort(double *v, size_t n);

/* The q-quantile (0 <= q <= 1) of sorted values, interpolating linearly between
 * the closest ranks (R's type 7, numpy's default): for n = 1..4 values
 * 10, 20, 30, 40 the median is 25 and p90 is 37. NAN when n is 0. */
double bench_quantile(const double *sorted, size_t n, double q);

/* Median of v (sorts v in place). NAN when n is 0. */
double bench_median(double *v, size_t n);

double bench_mean(const double *v, size_t n);

/* exp(mean(log v)): the mean of ratios that treats 2x and 0.5x alike.
 * Values must be positive; NAN when n is 0. */
double bench_geomean(const double *v, size_t n);

/* How sure a geometric-mean ratio is: a paired percentile bootstrap over
 * puzzles.
 *
 * The ratios are per puzzle, baseline time / solver time on the same puzzle,
 * so resampling a ratio resamples the pair of times it came from (paired:
 * the puzzle-to-puzzle spread of difficulty, which both solvers share,
 * cancels out). Each of `resamples` replicates draws n of the n ratios with
 * replacement, uniformly, from a generator seeded with `seed`, and takes
 * their geometric mean; the interval is the (1 - level) / 2 and
 * (1 + level) / 2 quantiles of the replicates (bench_quantile's
 * interpolation). The logarithms are averaged as offsets from the first
 * one, so equal ratios give that ratio back exactly and an interval of zero
 * width. The summary uses BENCH_BOOTSTRAP_RESAMPLES replicates from
 * BENCH_BOOTSTRAP_SEED at level 0.95: the same runs always give the same
 * interval.
 *
 * What it covers: which puzzles happened to be in the corpus, given the
 * times measured. Not the noise of a time from one run to the next (--repeat
 * K takes each puzzle's median against it) nor anything systematic, such as
 * another machine's CPU. With fewer than two ratios there is no interval;
 * with few more the percentile interval is too narrow (the summary asks for
 * ten: bench_summary.h). */
enum { BENCH_BOOTSTRAP_RESAMPLES = 2000 };
#define BENCH_BOOTSTRAP_SEED UINT64_C(0x5d01ab)
#define BENCH_BOOTSTRAP_LEVEL 0.95

struct bench_interval {
    double estimate; /* the geometric mean of the ratios; NAN when none */
    double low, high; /* NAN when fewer than two ratios */
};

/* The geometric mean of n positive ratios and its bootstrap interval, as
 * above (resamples >= 1, 0 < level < 1). Returns 0, or -1 when out of memory
 * (*out then has the estimate and no interval). */
int bench_geomean_interval(const double *ratios, size_t n, unsigned resamples,
    uint64_t seed, double level, struct bench_interval *out);

/* Whether an interval holds 1: no measurable difference from the baseline.
 * False when there is no interval. */
bool bench_interval_holds_one(const struct bench_interval *iv);

/* PAR-2 (SAT competitions): the mean time where an unfinished run counts as
 * twice the budget. */
double bench_par2(const double *time, const bool *finished, size_t n, double budget);

/* Mean of the middle half of v (sorts v in place): robust against the
 * preemptions that make single timer reads jump. */
double bench_middle_mean(double *v, size_t n);

/* Overhead of one clock_now_ns() read in ns: the middle-half mean of the
 * differences of `reads` back-to-back reads (reads >= 2). */
double bench_timer_overhead_ns(size_t reads);

/* The clock's advertised resolution (clock_getres) in ns. */
double bench_timer_resolution_ns(void);

#endif /* SUDOLAB_BENCH_BENCH_STATS_H */
