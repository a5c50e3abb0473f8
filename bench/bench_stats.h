/* Statistics of the bench driver: order statistics of per-puzzle times, PAR-2,
 * geometric means and the timer overhead. Plain functions on arrays of
 * doubles (nanoseconds are exact in a double up to 104 days), so
 * tests/test_bench.c can check them on known inputs. */
#ifndef SUDOLAB_BENCH_BENCH_STATS_H
#define SUDOLAB_BENCH_BENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

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
