/* count --grids by the profile walk (gridcount/grid_profiles.h), in shards
 * of walk ranks: the way 12x12 (3x4 and 2x6 boxes) is counted, whose
 * profiles are too many to list, and any smaller shape the walk takes, which
 * is how the tests check it.
 *
 * The classes are numbered by their representative's rank in the walk (the
 * profile that is its own canonical form), so a shard takes a slice of ranks,
 * shard K of N the ranks [(K-1)P/N, KP/N) of the P profiles, and walks only
 * those. A count has one phase for two bands and two for three, since a
 * three-band completion looks up the orders of other classes:
 *
 *   orders       (--orders) each class of the slice with its orbit, labels,
 *                orders and profile. Merged: every rank once, the classes
 *                as many as Burnside's sum says; the output is the orders
 *                table, and for two bands (completions = orders) the total.
 *   completions  (--orders-table FILE, three bands) the completions of each
 *                class of the slice, the middle-band choices looked up in
 *                the table. Merged: every choice of every class once; the
 *                total. Its shards are equal shares of the work instead
 *                (every class's choices in rank order, read off the table),
 *                as the classes crowd the lowest ranks.
 *
 * A place in a count is a rank, or RANK:CHOICE inside the class at RANK (the
 * completions phase counts a class's choices in order, so a class can be
 * split); --ranks A-B runs the places [A, B). --budget-steps S stops a run
 * after S steps (orders: band-search nodes; completions: middle-band
 * choices); its partial then ends `cut-short` with the place it reached and
 * the --ranks that resume it, and merge takes every partial for the places
 * it did.
 *
 * A partial, by line: the header (GRID_WALK_MAGIC, the phase, the plan, the
 * places asked for); the column names; one row per class (per piece of a
 * class for completions); the end line `# end done=A-E classes=M steps=S`
 * (with `cut-short ...` when E is not the end asked for). A partial without
 * its end line was interrupted, and merge refuses it naming the file and
 * line. */
#ifndef SUDOLAB_DIST_GRID_WALK_H
#define SUDOLAB_DIST_GRID_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/shard.h"

/* The first line of a walk partial; merge tells one by it. */
#define GRID_WALK_MAGIC "# sudolab count-grids-walk 1"

struct grid_walk_options {
    int box_rows, box_cols;
    struct shard shard; /* 1/1: every rank */
    const char *ranks; /* --ranks A-B, or NULL */
    const char *orders_table; /* the completions phase from this table, or NULL */
    uint64_t budget_steps; /* 0: no budget */
};

/* True when count --grids of this shape goes through the walk: 12x12, or
 * a phase asked for by name. */
bool grid_walk_wanted(int box_rows, int box_cols, bool orders, const char *orders_table);

/* Runs one phase of one shard and prints its partial on out; messages go to
 * err. Returns an exit status (common/exit_status.h). */
int grid_walk_run(const struct grid_walk_options *o, FILE *out, FILE *err);

/* Merges n partials of one phase, the files names[] read one at a time: the
 * orders table (and a two-band total), or the three-band total. Refuses,
 * naming file and line, a partial cut off without its end line, of another
 * plan or phase, a row that does not hold (a rank that is no class, an orbit
 * or labels that do not follow from the profile), places done twice or by
 * no partial, and classes missing against Burnside's count. Returns an exit
 * status. */
int grid_walk_merge(const char *const *names, size_t n, FILE *out, FILE *err);

#endif /* SUDOLAB_DIST_GRID_WALK_H */
