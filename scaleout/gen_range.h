/* Making a range of a generate run's puzzles on threads, as data: the work
 * loop of sudolab generate and of sudolab-mpi's generate jobs. Puzzle number i
 * of a run depends only on the options and i (puzzle/generate.h), so a range
 * made anywhere, on any number of threads, holds the single run's puzzles;
 * they come out in puzzle order. (Here and not in puzzle/, which the page
 * compiles to WebAssembly without threads.) */
#ifndef SUDOLAB_DIST_GEN_RANGE_H
#define SUDOLAB_DIST_GEN_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "puzzle/generate.h"

enum { GEN_MAX_JOBS = 256, GEN_RATE_TEXT = 640, GEN_WHY_MAX = 640 };

struct gen_range_options {
    struct gen_options gen;
    unsigned rate_methods; /* ratings appended to each puzzle (puzzle/rate.h; 0: none) */
    const struct solver *rate_solver; /* of the guesses rating */
    int permutations; /* of the guesses rating */
    int jobs; /* threads, 1..GEN_MAX_JOBS */
};

/* One puzzle of the run. */
struct gen_result {
    uint64_t number; /* 0-based, over the whole run */
    bool failed; /* no puzzle: why says why */
    struct grid puzzle;
    char rating[GEN_RATE_TEXT]; /* as generate appends it to the line ("" none) */
    char why[GEN_WHY_MAX];
};

/* Takes a result; false stops the run. */
typedef bool gen_sink_fn(void *ctx, const struct gen_result *r);

struct gen_range;

/* Opens a generator (and rater) per thread. NULL with a reason on failure. */
struct gen_range *gen_range_open(
    const struct gen_range_options *o, char *why, size_t len);

/* The generator's options in force (its defaults filled in). */
const struct gen_options *gen_range_options(const struct gen_range *g);

/* Makes puzzles first .. first + count - 1 and hands each to sink in puzzle
 * order, failed ones included. Returns 0, or -1 when the sink stopped it. */
int gen_range_make(
    struct gen_range *g, uint64_t first, uint64_t count, gen_sink_fn *sink, void *ctx);

/* The work done so far, summed over the threads. */
void gen_range_stats(const struct gen_range *g, struct gen_stats *out);

void gen_range_close(struct gen_range *g);

#endif /* SUDOLAB_DIST_GEN_RANGE_H */
