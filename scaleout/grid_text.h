/* count --grids as text: the plan's header, one row per class of first
 * bands with every factor of its share, the totals; and the partial form that
 * count --grids --shard K/N writes and `sudolab merge` adds up.
 *
 * A row: class orbit labels orders bands completions grids band, where
 * bands = orbit * labels * orders and grids = bands * completions (see
 * gridcount/grid_count.h), and band is one first band of the class as a line. */
#ifndef SUDOLAB_DIST_GRID_TEXT_H
#define SUDOLAB_DIST_GRID_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/shard.h"
#include "gridcount/grid_count.h"

/* The first line of a partial; merge tells a partial by it. */
#define GRID_PARTIAL_MAGIC "# sudolab count-grids-shard 1"

/* What the header says, and what shards of one count must agree on. */
struct grid_plan_text {
    int box_rows, box_cols; /* as asked */
    int rows, cols; /* counted orientation: R >= C */
    size_t profiles, classes;
};

struct grid_row {
    size_t klass; /* 1-based */
    uint64_t orbit, labels, orders;
    grid_count_u128 completions;
    char band[GRID_COUNT_MAX_BAND + 1];
};

/* The plan of gc as the header tells it. */
void grid_plan_text_of(const struct grid_count *gc, struct grid_plan_text *out);

/* The header: the shape and how it is counted (comment lines). */
void grid_text_header(FILE *out, const struct grid_plan_text *p);
/* The column names of the rows. */
void grid_text_columns(FILE *out);

/* Class k's row (bands and grids computed from its factors). */
void grid_text_row(FILE *out, const struct grid_row *r);
/* Fills r from class k of gc and its completions. */
void grid_class_row(const struct grid_count *gc, size_t k, grid_count_u128 completions,
    struct grid_row *r);

/* A whole field of decimal digits (nothing else) into out. Returns 0, or -1
 * when it is not one or does not fit 128 bits. */
int grid_text_parse_u128(const char *text, grid_count_u128 *out);

/* The totals over the rows: first bands and grids. */
void grid_text_totals(FILE *out, grid_count_u128 bands, grid_count_u128 grids);
grid_count_u128 grid_row_bands(const struct grid_row *r);

/* A partial's first line (magic, shard, plan) and the column names. */
void grid_partial_header(
    FILE *out, const struct grid_plan_text *p, const struct shard *s);

/* Merges n partials read from in[] (names for messages) into the single
 * run's output on out. Refuses, naming the file and the reason, shards of
 * different plans, shards missing or given twice, classes missing or twice.
 * Returns an exit status (common/exit_status.h). */
int grid_merge(FILE *const *in, const char *const *names, size_t n, FILE *out);

#endif /* SUDOLAB_DIST_GRID_TEXT_H */
