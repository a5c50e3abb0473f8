/* Splitting one run into independent pieces: `--shard K/N` on bench, count
 * and generate, `sudolab merge`, and the work units of sudolab-mpi.
 *
 * A shard is a pure function of the options and the inputs: shard K of N
 * takes every item whose number is K-1 modulo N, so N processes that share
 * nothing do together exactly the work of one run, and merging their outputs
 * gives the single run's rows (timings aside).
 *
 * Counting splits a puzzle into subproblems by filling its first empty cells
 * (row-major) in every way the clues allow: the subproblems at depth d are the
 * consistent fillings of the first d empty cells, in lexicographic order, and
 * d is the smallest depth giving at least `min` of them. Their solution counts
 * add up to the puzzle's. The depth depends on the puzzle and `min` only, not
 * on N, so a run split four ways and one split forty ways solve the very same
 * subproblems. Subproblems are numbered over all puzzles of the run in input
 * order; number g belongs to shard (g mod N) + 1. */
#ifndef SUDOLAB_BENCH_SHARD_H
#define SUDOLAB_BENCH_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/grid.h"
#include "solvers/solver.h"

enum {
    SHARD_SPLIT_DEFAULT = 256, /* subproblems per puzzle, at least (when there are) */
    SHARD_MAX = 1000000,
};

struct shard {
    uint32_t k, n; /* shard k of n, 1 <= k <= n; 1/1 = the whole run */
};

/* Parses "K/N". Returns 0, or -1 (after printing why to stderr, naming
 * `who`) when it is not two numbers with 1 <= K <= N <= SHARD_MAX. */
int shard_parse(const char *text, struct shard *s, const char *who);

static inline bool shard_owns(const struct shard *s, uint64_t item)
{
    return s->n <= 1 || item % s->n == s->k - 1;
}

/* ---- counting: subproblems ---- */

struct shard_split {
    int depth; /* cells filled per subproblem */
    uint16_t cell[GRID_MAX_CELLS]; /* those cells: the first `depth` blanks */
    size_t count; /* subproblems (0: the clues admit none) */
    uint8_t *values; /* count x depth values, subproblem-major */
    size_t cap; /* bytes allocated in values */
};

/* Splits a puzzle with consistent clues into at least min subproblems where
 * it can (fewer when even filling every blank gives fewer). The split keeps
 * its buffer between calls: zero it once, free it with shard_split_free.
 * Returns 0, or -1 when out of memory. */
int shard_split_make(struct shard_split *sp, const struct grid *puzzle, size_t min);
/* Subproblem i of puzzle: a copy with the first depth blanks filled. */
void shard_split_apply(
    const struct shard_split *sp, const struct grid *puzzle, size_t i, struct grid *out);
void shard_split_free(struct shard_split *sp);

/* What solving some subproblems of one puzzle gave, in a form that adds up. */
struct shard_tally {
    uint64_t solved; /* subproblems solved */
    uint64_t solutions; /* each subproblem's count (up to the limit), summed */
    struct solver_counters counters;
    uint64_t time_ns;
    bool budget; /* a subproblem hit a budget: solutions is a lower bound */
    bool error; /* a subproblem failed; error says how */
    bool have_first; /* first: the first solution of subproblem first_sub, the */
    uint64_t first_sub; /* lowest-numbered one with a solution */
    struct grid first;
    char error_text[160];
};

/* Adds the result of subproblem number sub (numbered within its puzzle). */
void shard_tally_add(struct shard_tally *t, uint64_t sub, const struct solve_result *res);
/* Adds another tally of the same puzzle. */
void shard_tally_merge(struct shard_tally *into, const struct shard_tally *from);
/* The puzzle's result from a complete tally, as solver_run would state it:
 * solutions capped at limit, status from the count. */
void shard_tally_result(
    const struct shard_tally *t, uint64_t limit, struct solve_result *out);

/* ---- counting: the command (bench/shard_count.c) ---- */

struct cli_common;

struct shard_count_options {
    struct shard shard;
    size_t split; /* min subproblems per puzzle */
    unsigned threads; /* >= 1 */
    bool partial; /* print the mergeable partial form (--shard), else count's form */
};

/* sudolab count's split path (count --shard K/N, count -j N): walks the inputs
 * like count, solves this shard's subproblems of each puzzle on the threads,
 * and prints either count's rows or the partial form that `sudolab merge`
 * reads. argv[0] is the subcommand name (recorded in the partial header).
 * Returns an exit status (enum in bench/cli.h). */
int shard_count_run(const struct cli_common *c, const struct shard_count_options *o,
    int argc, char **argv);

/* The first line of a count partial; merge finds the options in it. */
#define SHARD_COUNT_MAGIC "# sudolab count-shard 1"

/* The partial's header line for these options (without the shard field, which
 * shard_count_run adds): what must agree between shards. */
void shard_count_options_text(const struct cli_common *c,
    const struct shard_count_options *o, char *out, size_t len);

/* ---- bench: which corpus entries a shard runs ---- */

/* Corpus entry `entry` (1-based) of corpus number ci of a run: the shard that
 * runs it. Offsetting by ci spreads the entries of many one-puzzle corpora. */
static inline bool shard_owns_entry(const struct shard *s, size_t ci, unsigned long entry)
{
    return shard_owns(s, (uint64_t) ci + entry - 1);
}

/* A fingerprint of a corpus as read (every entry, bad ones included), so merge
 * can tell shards of different corpora apart even when the names agree.
 * FNV-1a over each entry's shape and line form; all zero is a valid start. */
struct shard_fingerprint {
    uint64_t hash;
    unsigned long entries;
};

/* Adds an entry; NULL = an entry that did not parse. */
static inline void shard_fingerprint_add(
    struct shard_fingerprint *f, const struct grid *g)
{
    if (f->entries++ == 0)
        f->hash = 0xcbf29ce484222325u;
    uint8_t bytes[GRID_MAX_CELLS + 4];
    size_t len = 0;
    if (g) {
        bytes[len++] = g->box_rows;
        bytes[len++] = g->box_cols;
        bytes[len++] = g->variant;
        for (int i = 0; i < g->ncells; i++)
            bytes[len++] = g->cell[i];
    }
    bytes[len++] = g ? '\n' : '!';
    for (size_t i = 0; i < len; i++)
        f->hash = (f->hash ^ bytes[i]) * 0x100000001b3u;
}

#endif /* SUDOLAB_BENCH_SHARD_H */
