/* The bench driver's machinery: a plan (solvers x corpora held in memory, one
 * result cell per solver, puzzle and repeat), its execution on worker
 * threads, the whole-pass throughput measurement, and the cross-check of
 * solution counts between solvers. cmd_bench.c turns options into a plan;
 * bench_summary.c turns the finished cells into tables.
 *
 * Timing. A cell's time is solver_run()'s: CLOCK_MONOTONIC around the back
 * end's solve() alone (shape and clue checks and the verification of the
 * answer are outside it). Each thread warms a back end up, untimed, on the
 * corpus before its first timed puzzle of that corpus. With --repeat K every
 * puzzle is solved K times back to back and the summary takes the median.
 *
 * Incomplete back ends (SOLVER_CAP_INCOMPLETE) run at limit 1 whatever the
 * plan's limit, take no part in the cross-check of counts (their solutions
 * are verified all the same) and have no whole passes.
 *
 * Whole passes (tdoku's protocol): for back ends marked SOLVER_CAP_FAST, or
 * whose untimed warm-up pass averages under fast_us per puzzle, the corpus is
 * solved in whole passes with one clock read per pass, for at least pass_ms
 * and at least `repeat` passes (so --repeat K gives K throughputs to compare);
 * with tdoku_protocol each pass parses the puzzles' text inside the timed
 * region too. The answers of the warm-up pass are checked against the
 * per-puzzle cells.
 *
 * Sample (opt.sample): back ends not marked fast run only the first entries
 * of each corpus, by entry number (so shards and resumed runs agree); their
 * warm-up and whole passes keep to those entries too. */
#ifndef SUDOLAB_BENCH_BENCH_RUN_H
#define SUDOLAB_BENCH_BENCH_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/bench_csv.h"
#include "common/corpus.h"
#include "common/shard.h"
#include "solvers/solver.h"

struct bench_options {
    uint64_t limit;
    uint64_t budget_steps;
    uint64_t budget_ms; /* 0 = none */
    unsigned repeat; /* >= 1 */
    unsigned threads; /* >= 1 */
    uint64_t warmup_ms; /* per thread, back end and corpus; 0 = none */
    uint64_t pass_ms; /* minimum time of the timed passes; 0 = no passes */
    double fast_us; /* warm-up pass mean below which passes are timed */
    bool tdoku_protocol; /* parse inside the timed passes */
    bool permute; /* solve a random isomorph of each puzzle */
    uint64_t seed; /* of --permute, and of incomplete back ends' runs */
    /* > 1: incomplete back ends (SOLVER_CAP_INCOMPLETE) run each puzzle this
     * many times, run r (from 0) with seed + r, as the repeats of the plan
     * (repeat == seeds); complete ones run once (their other repeats are
     * BENCH_CELL_SKIPPED). 0 or 1: every run with seed. */
    unsigned seeds;
    unsigned long head; /* keep the first `head` entries of each corpus; 0 = all */
    /* > 0: back ends not marked SOLVER_CAP_FAST are timed on the entries
     * numbered 1 to `sample` of each corpus only (their other cells are
     * BENCH_CELL_UNSAMPLED), and --se-rate rates those entries only: a back
     * end far from the lead needs fewer puzzles to place it, and the sample
     * is the set every back end was timed on. 0 = every entry. */
    unsigned long sample;
    bool expect; /* check counts written after the puzzle (puzzle:count) */
    bool progress; /* progress bar on stderr */
    bool se_rate; /* compute the SE ratings the corpora do not give (bench_se.h) */
    uint64_t se_rate_ms; /* per puzzle; 0 = no limit */
    struct shard shard; /* --shard K/N: only the entries this shard owns; 0/0 = all */
};

/* What a corpus line may say about its puzzle (`puzzle:1`, `:2+`, `:invalid`). */
enum bench_expect {
    BENCH_EXPECT_NONE = 0,
    BENCH_EXPECT_EXACTLY,
    BENCH_EXPECT_AT_LEAST,
    BENCH_EXPECT_INVALID,
};

/* An entry of a corpus. Its cells live in the corpus's cell store, one byte
 * each, so that a 9x9 puzzle costs about 120 bytes instead of a whole struct
 * grid (~630): every rank of an MPI run holds the whole corpus. */
struct bench_puzzle {
    size_t cells; /* offset of its cells in bench_corpus.cells */
    unsigned long index, line;
    uint8_t box_rows, box_cols, variant;
    bool ok; /* false: the entry did not parse (no cells) */
    uint8_t expect_kind;
    uint64_t expect;
    uint8_t se[3]; /* SE's ER, EP, ED in tenths (bench_se.h); 0: not known */
    /* 1 + the offset of its name in bench_corpus.names; 0: it has none, so
     * that a corpus without names spends no memory on them */
    uint32_t name;
};

struct bench_corpus {
    char name[BENCH_CORPUS_NAME_MAX]; /* the file's base name; CSV key */
    struct bench_puzzle *puzzles;
    size_t n, cap;
    uint8_t *cells; /* the puzzles' cells, as solved (transformed under --permute) */
    size_t cells_len, cells_cap;
    char *names; /* the entries' names, each ending in '\0' (bench_puzzle.name) */
    size_t names_len, names_cap;
    unsigned long entries; /* entries read, those past --head included */
    struct shard_fingerprint fingerprint; /* of every entry read */
};

/* Entry pi of corpus c as a grid, as solved; an entry that did not parse
 * gives a grid of zeros. */
void bench_puzzle_grid(const struct bench_corpus *c, size_t pi, struct grid *g);
/* Entry pi's name (Lewis's instances), or "" when it has none. */
const char *bench_puzzle_name(const struct bench_corpus *c, size_t pi);

enum bench_cell_state {
    BENCH_CELL_PENDING = 0,
    BENCH_CELL_DONE,
    BENCH_CELL_UNSUPPORTED, /* the back end does not handle this shape */
    BENCH_CELL_SKIPPED, /* a complete back end's repeat under --seeds: not run */
    BENCH_CELL_UNSAMPLED, /* an entry past the sample of a back end it applies to */
};

/* The result of one (solver, corpus, puzzle, repeat). */
struct bench_cell {
    uint8_t state; /* enum bench_cell_state */
    uint8_t status; /* enum solve_status */
    bool timed;
    bool resumed; /* read back from runs.csv */
    bool no_answer; /* the back end gave none: its counters are unknown (empty) */
    uint64_t solutions;
    struct solver_counters counters;
    uint64_t time_ns;
};

/* Passes whose times are kept one by one; past it, a uniform sample of them
 * (reservoir sampling), which is what the quartiles need. */
enum { BENCH_PASS_SAMPLES = 4096 };

/* Whole-pass throughput of one back end on one corpus. */
struct bench_pass {
    bool measured;
    unsigned passes;
    size_t puzzles; /* per pass */
    uint64_t total_ns; /* of all timed passes */
    uint64_t best_ns; /* fastest pass */
    uint64_t *sample_ns; /* each timed pass's time (a sample of them past
                            BENCH_PASS_SAMPLES); NULL when not kept (merged) */
    unsigned nsamples;
    char note[80]; /* why it was not measured */
};

/* A chunk of work: back end si on puzzles [start, end) of corpus ci. */
struct bench_job {
    uint32_t si, ci;
    uint32_t start, end;
};

struct bench_plan {
    struct bench_options opt;
    const struct solver **solvers;
    size_t nsolvers;
    struct bench_corpus *corpora;
    size_t ncorpora;
    struct bench_cell **cells; /* [si * ncorpora + ci][pi * repeat + r] */
    struct bench_pass *passes; /* [si * ncorpora + ci] */
    /* runs.csv has the se_er,se_ep,se_ed columns: some puzzle carries a
     * rating, ratings were asked for, or the file being continued has them */
    bool se_columns;
    /* runs.csv has the name column: some entry has a name, or the file
     * being continued (or merged) has the column */
    bool name_column;

    /* execution */
    atomic_int *stop; /* set asynchronously (SIGINT): no new puzzles */
    int out_fd; /* runs.csv, -1 = none */
    int csv_fd; /* a second copy of the rows (stdout), -1 = none */
    unsigned long errors; /* back-end failures and wrong answers */
    unsigned long write_errors;
    int out_errno, csv_errno; /* why the first failed write to each failed; 0: none */
    size_t cells_total, cells_done;
    uint64_t progress_at_ns;
    bool progress_drawn;

    /* Optional, for sudolab-mpi (scaleout/mpi_bench.c): where the per-puzzle
     * chunks come from, called by any worker thread (NULL: every pending
     * chunk, in order), and each result as it is recorded, as a cell and as
     * its runs.csv line (called with the plan's lock held). */
    bool (*next_job)(void *ctx, struct bench_job *job);
    void (*on_row)(void *ctx, size_t si, size_t ci, size_t pi, unsigned r,
        const struct bench_cell *cell, const char *line, size_t len);
    void *hook_ctx;
};

/* An empty plan for these back ends (copied pointers; the array is kept). */
int bench_plan_init(struct bench_plan *plan, const struct bench_options *opt,
    const struct solver **solvers, size_t nsolvers);
void bench_plan_free(struct bench_plan *plan);

/* Adds a corpus named after path's base name (made unique with "~2", "~3"
 * when two inputs share one). Returns its number, or -1 (out of memory). */
int bench_plan_add_corpus(struct bench_plan *plan, const char *path);
/* Adds an entry to corpus ci (unless past --head). ok false: it did not parse. */
int bench_plan_add_puzzle(
    struct bench_plan *plan, size_t ci, const struct corpus_item *item, bool ok);
/* Applies --permute, allocates the result cells, marks unsupported shapes.
 * Returns 0 or -1 (out of memory). */
int bench_plan_finish(struct bench_plan *plan);

/* Parses an expected count written after a puzzle: "1", "2+", "invalid".
 * Returns false when text is none of these. */
bool bench_parse_expect(const char *text, uint8_t *kind, uint64_t *count);

/* The position in corpus ci of the entry numbered index, or SIZE_MAX when the
 * plan does not hold it (past --head, another shard's). */
size_t bench_plan_find_puzzle(
    const struct bench_plan *plan, size_t ci, unsigned long index);

/* The cell a runs.csv row fills, or NULL when the plan does not hold it
 * (another run's solver or corpus, an entry past --head or another shard's,
 * a repeat out of range). *ci is set to the row's corpus when not NULL. */
struct bench_cell *bench_plan_row_cell(
    struct bench_plan *plan, const struct bench_row *row, size_t *ci);
/* Marks a cell done with what a runs.csv row says of it (--resume, merge). */
void bench_cell_take_row(struct bench_cell *cell, const struct bench_row *row);

/* Takes a runs.csv row's name column (--resume, merge): the plan writes the
 * column, and the row's entry gets the row's name when it has none. Returns
 * 0, or -1 (out of memory). */
int bench_plan_take_name(struct bench_plan *plan, size_t ci, const struct bench_row *row);

/* Writes runs.csv's header for this plan (its optional columns) into buf;
 * returns its length, 0 when len is too small. */
size_t bench_plan_csv_header(const struct bench_plan *plan, char *buf, size_t len);

/* Formats the runs.csv row of a cell (solver si, corpus ci, entry pi,
 * repeat r counted from 0) into line. Returns its length, 0 when it does not
 * fit. */
size_t bench_plan_format_row(const struct bench_plan *plan, size_t si, size_t ci,
    size_t pi, unsigned r, char *line, size_t len);

/* Fills cells from the rows of an earlier runs.csv (rows of other corpora,
 * solvers or puzzles are ignored). Returns the rows taken, or -1 with why.
 * *valid_bytes: see bench_csv_read. */
long bench_plan_resume(
    struct bench_plan *plan, FILE *f, long *valid_bytes, char *why, size_t whylen);

/* Whether back end si is timed on entry number `index` under opt.sample. */
bool bench_plan_sampled(const struct bench_plan *plan, size_t si, unsigned long index);

/* Whether a cell still has to run. */
static inline bool bench_cell_pending(
    const struct bench_plan *plan, size_t si, size_t ci, size_t pi, unsigned r)
{
    return plan->cells[si * plan->ncorpora + ci][pi * plan->opt.repeat + r].state
        == BENCH_CELL_PENDING;
}

/* Runs every pending cell and, right after a back end's cells of a corpus, its
 * whole passes there, on opt.threads threads.
 * Rows go to out_fd and csv_fd as they complete. Returns 0, or -1 when the
 * threads could not be started. */
int bench_plan_run(struct bench_plan *plan);

/* Compares solution counts between back ends (and with the expected counts
 * under --expect) per puzzle, printing each disagreement to out. Returns the
 * number of puzzles with a disagreement. */
unsigned long bench_plan_crosscheck(const struct bench_plan *plan, FILE *out);

/* Cells left pending (an interrupted run). */
size_t bench_plan_pending(const struct bench_plan *plan);

#endif /* SUDOLAB_BENCH_BENCH_RUN_H */
