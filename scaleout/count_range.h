/* Counting by subproblems, as data: count -j N, count --shard K/N and the
 * work units of sudolab-mpi all run this. Every puzzle of the inputs is split
 * into subproblems (puzzle/split.h), the subproblems a shard owns are solved
 * on threads, and each entry's partial tally is handed to a sink as a row, in
 * input order. Printing the rows is the caller's (scaleout/count_text.h); adding
 * up the rows of several shards is scaleout/count_merge.h's. */
#ifndef SUDOLAB_DIST_COUNT_RANGE_H
#define SUDOLAB_DIST_COUNT_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/input_walk.h"
#include "common/shard.h"
#include "puzzle/split.h"

enum { COUNT_MAX_THREADS = 256 };

struct count_options {
    const struct solver *solver; /* counts (SOLVER_CAP_COUNT) unless limit is 1 */
    uint64_t limit; /* per subproblem; 0 = all */
    uint64_t budget_steps, budget_ms; /* per subproblem; 0 = none */
    struct input_options input; /* what to read, and where diagnostics go */
    size_t split; /* subproblems per puzzle, at least (when there are) */
    unsigned threads; /* 1..COUNT_MAX_THREADS */
};

/* What became of an entry. */
enum count_state {
    COUNT_SOLVED, /* split; the shard's subproblems are in the tally */
    COUNT_UNPARSABLE, /* did not read as a puzzle (the walk said why) */
    COUNT_INVALID, /* its clues break a rule */
    COUNT_UNSUPPORTED, /* the back end does not handle its shape */
};

/* One entry of the inputs and what one shard found of it. */
struct count_row {
    unsigned long index; /* 1-based over all inputs, bad entries included */
    char source[128]; /* the input it came from, for messages ("" unknown) */
    char name[CORPUS_NAME_MAX]; /* the entry's own name (corpus_item.name) */
    unsigned long line;
    enum count_state state;
    char why[CORPUS_WHY_MAX]; /* not COUNT_SOLVED: the reason */
    char puzzle[GRID_MAX_CELLS + 1]; /* line form ("" when unparsable) */
    uint64_t subproblems; /* of the whole split (0 unless COUNT_SOLVED) */
    struct shard_tally tally; /* the shard's subproblems only */
};

/* Takes a row; false stops the run. */
typedef bool count_sink_fn(void *ctx, const struct count_row *row);

/* Walks the inputs (argc arguments in argv, as input_walk reads them), solves
 * the subproblems `shard` owns of every puzzle and hands each entry's row to
 * sink, in input order, batch by batch. Returns the number of input problems
 * the walk reported, or -1 when the run failed or was cut short (bad options,
 * the back end would not start, out of memory: said on o->input.err; or the
 * sink stopped it). */
long count_range(const struct count_options *o, const struct shard *shard, int argc,
    char **argv, count_sink_fn *sink, void *ctx);

/* The puzzle's result from a row that holds all its subproblems, as
 * solver_run would state it (solutions capped at limit). */
void count_row_result(
    const struct count_row *row, uint64_t limit, struct solve_result *out);

#endif /* SUDOLAB_DIST_COUNT_RANGE_H */
