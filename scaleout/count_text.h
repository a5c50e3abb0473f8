/* count's rows as text: count's own line for a puzzle, and the partial form
 * that count --shard K/N writes and `sudolab merge` reads back. */
#ifndef SUDOLAB_DIST_COUNT_TEXT_H
#define SUDOLAB_DIST_COUNT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/solve_row.h"
#include "scaleout/count_range.h"

/* Says `source:line: reason` on err when the row's puzzle failed (clues that
 * break a rule, a shape the back end does not handle, a failed subproblem)
 * and returns true. Entries that did not parse were reported by the walk, and
 * rows read back from a partial know no source: neither is said again. */
bool count_row_report(FILE *err, uint64_t limit, const struct count_row *row);

/* count's line for a row that holds all its puzzle's subproblems. */
void count_row_print(FILE *out, const struct solve_row_style *style, uint64_t limit,
    const struct count_row *row);

/* The first line of a partial; merge tells a partial by it. */
#define COUNT_PARTIAL_MAGIC "# sudolab count-shard 1"

/* The partial's options, as its first line records them after the shard:
 * what must agree between shards. */
void count_partial_options(const struct count_options *o, char *out, size_t len);

/* The partial's first two lines: magic, shard and options; the columns. */
void count_partial_header(
    FILE *out, const struct count_options *o, const struct shard *shard);

/* One row of a partial. */
void count_partial_row(FILE *out, const struct solver *s, const struct count_row *row);

/* Reads a partial's row (split in place) back. box is the size= option ("auto"
 * or RxC), the shape of a first solution. Returns 0, or -1 with why. */
int count_partial_parse(char *line, const struct solver *s, const char *box,
    struct count_row *row, char *why, size_t whylen);

#endif /* SUDOLAB_DIST_COUNT_TEXT_H */
