/* Two bench runs side by side (sudolab compare OLD NEW), in the manner of
 * Go's benchstat: per back end x corpus, is NEW faster, slower, or not
 * measurably different from OLD, and did its answers or its search change?
 *
 * A run is a bench --out folder (or a merged one): runs.csv, env.txt and,
 * for the whole passes, summary.csv. Two runs are compared only when their
 * rows time the same work: the same limit and budgets, the same puzzles
 * (each corpus both runs name has the same fingerprint, and --head), the
 * same permutation when puzzles are permuted, both runs finished and whole.
 * Anything else is a refusal with the reason. What may differ and still be
 * compared -- the machine, the build, the revision, the noise -- is named
 * beside the figures, since it may be the cause of a difference.
 *
 * Per back end x corpus in both runs:
 *  - time: per puzzle, NEW's time / OLD's time (each the median of its
 *    repeats, a 0 ns reading counted as 1 ns) over the puzzles both runs
 *    finished (a verdict within the budget: not limit, not error), their
 *    geometric mean and its paired bootstrap interval (bench_stats.h:
 *    BENCH_BOOTSTRAP_RESAMPLES resamples from BENCH_BOOTSTRAP_SEED, level
 *    BENCH_BOOTSTRAP_LEVEL, from BENCH_INTERVAL_MIN_PAIRS puzzles). Below 1
 *    NEW is faster. The interval covers which puzzles the corpus holds, not
 *    the noise of one run against the other: a loaded machine can move
 *    every puzzle alike, so env.txt's quiet verdicts are shown beside it;
 *  - a verdict from that interval (bench_compare_verdict);
 *  - the whole passes, when both runs timed them: NEW's pass time / OLD's
 *    from the median passes' puzzles/s (summary.csv), and the spread of the
 *    passes as the ratio of their quartiles, OLD's first quartile against
 *    NEW's third and OLD's third against NEW's first: the widest the ratio of
 *    two middle-half passes can be;
 *  - the statuses of both runs and every puzzle whose status or solution
 *    count changed (one that went from unique to limit is news);
 *  - the counters over the same puzzles: per counter, the geometric mean of
 *    (NEW + 1) / (OLD + 1) (the 1 keeps puzzles solved without a guess), and
 *    whether every puzzle's counters are identical, as they are for a
 *    deterministic back end whose search did not change. */
#ifndef SUDOLAB_BENCH_BENCH_COMPARE_H
#define SUDOLAB_BENCH_BENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/bench_env.h"
#include "bench/bench_stats.h"
#include "solvers/solver.h"

/* The default threshold of a verdict: a difference under 2% is not called. */
#define BENCH_COMPARE_THRESHOLD 0.02

enum bench_verdict {
    BENCH_VERDICT_TOO_FEW, /* fewer puzzles in common than an interval needs */
    BENCH_VERDICT_SAME, /* no measurable difference */
    BENCH_VERDICT_FASTER,
    BENCH_VERDICT_SLOWER,
};

/* "faster", "slower", "no measurable difference", "too few puzzles". */
const char *bench_verdict_name(enum bench_verdict v);

/* The verdict of a NEW / OLD time ratio's interval: slower when the whole
 * interval lies above 1 + threshold, faster when it lies below
 * 1 / (1 + threshold) (OLD then takes more than threshold longer than NEW:
 * the same margin either way on a log scale), no measurable difference
 * otherwise, too few puzzles when there is no interval. */
enum bench_verdict bench_compare_verdict(
    const struct bench_interval *iv, double threshold);

/* Whether a NEW / OLD interval is slower by more than `fraction` (0.05:
 * 5%), its low end above 1 + fraction: what --fail-slower fails on. */
bool bench_compare_slower_than(const struct bench_interval *iv, double fraction);

/* ---- One run as read ---- */

/* One puzzle of one back end in one run. */
struct bench_compare_puzzle {
    unsigned long index; /* the entry's 1-based ordinal in its corpus */
    int status; /* enum solve_status of its first repeat */
    uint64_t solutions;
    unsigned known; /* SOLVER_HAS() bits of the counters present */
    struct solver_counters counters; /* of its first repeat */
    bool timed;
    double time_ns; /* the median over its timed repeats */
    char *name; /* the entry's name (runs.csv's name column); NULL: none */
};

/* One back end x corpus of a run: its puzzles by index, and its whole passes. */
struct bench_compare_group {
    char *solver, *corpus;
    struct bench_compare_puzzle *puzzles;
    size_t npuzzles;
    /* summary.csv's passes, puzzles/s: the median pass (or all passes
     * together when the median was not kept) and its quartiles; NAN: none */
    double pass_median, pass_q1, pass_q3;
};

struct bench_compare_run {
    char *dir;
    struct bench_env_file env;
    struct bench_compare_group *groups; /* in the order runs.csv first has them */
    size_t ngroups;
    unsigned long bad_lines; /* of runs.csv or summary.csv, each said */
};

/* Reads the run in folder path (or the folder of path, a runs.csv): env.txt
 * and runs.csv, which must be there, and summary.csv, which may not. A bad
 * line is said as `file:line: reason` on err, counted and left out; the rest
 * is read. Returns 0, or -1 after saying why (unreadable, out of memory).
 * Free *run with bench_compare_run_free in every case. */
int bench_compare_read(struct bench_compare_run *run, const char *path, FILE *err);
void bench_compare_run_free(struct bench_compare_run *run);

/* ---- The comparison ---- */

/* A fact as both runs state it; "" where a run does not. */
struct bench_compare_fact {
    char key[64];
    char old_value[256], new_value[256];
};

/* A puzzle whose status or solution count changed. */
struct bench_compare_change {
    unsigned long index;
    const char *name; /* NULL: none */
    int old_status, new_status;
    uint64_t old_solutions, new_solutions;
};

/* One back end x corpus of both runs. */
struct bench_compare_cell {
    const struct bench_compare_group *old, *new;
    size_t common; /* puzzles both runs have a row for */
    size_t pairs; /* ... and both finished: the ratios' puzzles */
    struct bench_interval time; /* NEW / OLD */
    enum bench_verdict verdict;
    double pass_ratio, pass_low, pass_high; /* NEW / OLD pass time; NAN: none */
    size_t old_status[SOLVE_STATUS_COUNT], new_status[SOLVE_STATUS_COUNT];
    /* per counter known in both runs: the geometric mean of (NEW + 1) /
     * (OLD + 1) over the pairs (NAN: not known in both, or no pair), and
     * whether it was the same on every pair */
    double counter_ratio[SOLVER_COUNTER_COUNT];
    bool counter_same[SOLVER_COUNTER_COUNT];
    bool counters_identical; /* every counter known in both, on every pair */
    struct bench_compare_change *changes; /* in index order */
    size_t nchanges;
    size_t newly_unfinished; /* finished in OLD, limit or error in NEW */
    size_t newly_finished; /* the other way round */
};

struct bench_compare {
    const struct bench_compare_run *old, *new;
    double threshold; /* of the verdicts */
    /* why the runs cannot be compared: none when they can */
    struct bench_compare_fact *refusals;
    size_t nrefusals;
    /* what differs between them and does not stop a comparison */
    struct bench_compare_fact *differences;
    size_t ndifferences;
    /* a back end or corpus only one run has (the run that lacks it: "") */
    struct bench_compare_fact *unmatched;
    size_t nunmatched;
    struct bench_compare_cell *cells; /* in OLD's order */
    size_t ncells;
};

/* Compares two runs read by bench_compare_read. When they cannot be
 * compared, cmp->nrefusals says why and there are no cells. Returns 0, or -1
 * when out of memory. Free *cmp with bench_compare_free in every case. */
int bench_compare_runs(const struct bench_compare_run *old,
    const struct bench_compare_run *new, double threshold, struct bench_compare *cmp);
void bench_compare_free(struct bench_compare *cmp);

/* The comparison for people, in Markdown: both runs' machine and build, the
 * method, one table of every back end x corpus, the status changes, what
 * differs, what was left out. */
void bench_compare_write_markdown(const struct bench_compare *cmp, FILE *out);

/* The comparison as CSV, one row per back end x corpus, columns
 *   solver,corpus,old_puzzles,new_puzzles,pairs,ratio,ratio_low,ratio_high,
 *   verdict,pass_ratio,pass_ratio_low,pass_ratio_high,guesses_ratio,
 *   nodes_ratio,counters,status_changes,newly_unfinished,newly_finished,
 *   old_cpu,new_cpu,threshold
 * (ratios NEW / OLD; empty cells where a figure does not exist; counters:
 * identical, changed or n/a); scripts/compare.gp plots it. */
void bench_compare_write_csv(const struct bench_compare *cmp, FILE *out);

#endif /* SUDOLAB_BENCH_BENCH_COMPARE_H */
