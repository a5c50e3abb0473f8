/* Adding up the rows of one count run's shards (sudolab merge, sudolab-mpi).
 * Every shard walks the same inputs, so row r of each is the same entry with
 * the same split; its tallies add up to the puzzle's. The shards may come in
 * any order: the sums do not depend on it. */
#ifndef SUDOLAB_DIST_COUNT_MERGE_H
#define SUDOLAB_DIST_COUNT_MERGE_H

#include <stddef.h>

#include "scaleout/count_range.h"

struct count_merge {
    struct count_row *rows; /* the sums */
    size_t nrows, cap;
    size_t shards; /* shards done (count_merge_shard_done) */
    size_t shard_rows; /* rows of the first shard done */
};

void count_merge_init(struct count_merge *m);
void count_merge_free(struct count_merge *m);

/* Adds row r (0-based) of a shard. Returns 0, or -1 with why when it is not
 * the entry the other shards have there (other inputs or another split), or
 * out of memory. */
int count_merge_add(struct count_merge *m, size_t r, const struct count_row *row,
    char *why, size_t whylen);

/* A shard gave all its rows, `rows` of them. Returns 0, or -1 with why when
 * that is not the number of rows the other shards gave (one is incomplete). */
int count_merge_shard_done(struct count_merge *m, size_t rows, char *why, size_t whylen);

/* After every shard: each puzzle must have each of its subproblems solved
 * exactly once. Returns 0, or -1 with why. */
int count_merge_check(const struct count_merge *m, char *why, size_t whylen);

#endif /* SUDOLAB_DIST_COUNT_MERGE_H */
