#include "bench/bench_stats.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "common/clock.h"
#include "common/rng.h"

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

void bench_sort(double *v, size_t n)
{
    if (n > 1)
        qsort(v, n, sizeof(*v), compare_doubles);
}

double bench_quantile(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    if (q <= 0)
        return sorted[0];
    if (q >= 1)
        return sorted[n - 1];
    const double h = (double) (n - 1) * q;
    const size_t lo = (size_t) h;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + (h - (double) lo) * (sorted[lo + 1] - sorted[lo]);
}

double bench_median(double *v, size_t n)
{
    bench_sort(v, n);
    return bench_quantile(v, n, 0.5);
}

double bench_mean(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    return sum / (double) n;
}

double bench_geomean(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += log(v[i]);
    return exp(sum / (double) n);
}

int bench_geomean_interval(const double *ratios, size_t n, unsigned resamples,
    uint64_t seed, double level, struct bench_interval *out)
{
    out->estimate = out->low = out->high = NAN;
    if (n == 0)
        return 0;
    double *offsets = malloc(n * sizeof(*offsets));
    if (!offsets) {
        out->estimate = bench_geomean(ratios, n);
        return -1;
    }
    const double shift = log(ratios[0]);
    double sum = 0;
    bool constant = true;
    for (size_t i = 0; i < n; i++) {
        offsets[i] = log(ratios[i]) - shift;
        sum += offsets[i];
        constant &= offsets[i] == 0;
    }
    out->estimate = exp(shift + sum / (double) n);
    if (n >= 2 && constant) /* what every replicate would be (the baseline's own row) */
        out->low = out->high = out->estimate;
    if (n < 2 || resamples == 0 || constant) {
        free(offsets);
        return 0;
    }
    double *replicates = malloc(resamples * sizeof(*replicates));
    if (!replicates) {
        free(offsets);
        return -1;
    }
    struct rng rng;
    rng_seed(&rng, seed);
    for (unsigned b = 0; b < resamples; b++) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += offsets[rng_below(&rng, n)];
        replicates[b] = shift + s / (double) n;
    }
    bench_sort(replicates, resamples);
    const double tail = (1 - level) / 2;
    out->low = exp(bench_quantile(replicates, resamples, tail));
    out->high = exp(bench_quantile(replicates, resamples, 1 - tail));
    free(replicates);
    free(offsets);
    return 0;
}

bool bench_interval_holds_one(const struct bench_interval *iv)
{
    return !isnan(iv->low) && !isnan(iv->high) && iv->low <= 1 && 1 <= iv->high;
}

double bench_par2(const double *time, const bool *finished, size_t n, double budget)
{
    if (n == 0)
        return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += finished[i] ? time[i] : 2 * budget;
    return sum / (double) n;
}

double bench_middle_mean(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    bench_sort(v, n);
    const size_t lo = n / 4, hi = n - n / 4;
    return bench_mean(v + lo, hi - lo);
}

double bench_timer_overhead_ns(size_t reads)
{
    if (reads < 2)
        reads = 2;
    double *d = malloc((reads - 1) * sizeof(*d));
    if (!d)
        return NAN;
    uint64_t prev = clock_now_ns();
    for (size_t i = 0; i + 1 < reads; i++) {
        const uint64_t now = clock_now_ns();
        d[i] = (double) (now - prev);
        prev = now;
    }
    const double overhead = bench_middle_mean(d, reads - 1);
    free(d);
    return overhead;
}

double bench_timer_resolution_ns(void)
{
    struct timespec ts;
    if (clock_getres(CLOCK_MONOTONIC, &ts) != 0)
        return NAN;
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}
