/* Merging shard outputs (sudolab merge, and rank 0 of sudolab-mpi) into the
 * output one run would have written.
 *
 * Every merge first proves the shards belong together and cover the run
 * exactly once: the same options, revision and inputs; shard numbers 1..N
 * each present once; every shard complete. Anything else is refused with a
 * message naming the file and the first difference, and nothing is written.
 *
 *  - count partials (count --shard K/N): rows are matched by entry and
 *    puzzle, subproblem tallies added up, count's rows printed (text or CSV).
 *  - generate outputs (generate --shard K/N): the header without its shard
 *    field, then the shards' puzzles in shard order, which is puzzle order.
 *  - rate outputs (rate --shard K/N): the header without its shard field,
 *    then every shard's rows in puzzle order; each shard's closing line
 *    (rows written, entries and a fingerprint of the inputs read) proves it
 *    complete and of the same inputs.
 *  - bench directories (bench --shard K/N --out DIR): runs.csv rows put in
 *    the single run's order, the summary recomputed by the bench driver's own
 *    code, env.txt from the shards' facts. */
#ifndef SUDOLAB_DIST_MERGE_H
#define SUDOLAB_DIST_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum merge_kind {
    MERGE_UNKNOWN = 0,
    MERGE_COUNT,
    MERGE_GENERATE,
    MERGE_BENCH,
    MERGE_GRIDS, /* count --grids --shard K/N partials (scaleout/grid_text.h) */
    MERGE_GRIDS_WALK, /* count --grids walk partials (scaleout/grid_walk.h) */
    MERGE_RATE,
};

/* What a path holds: a directory (or a runs.csv) is a bench shard, a file is
 * told by its first line. */
enum merge_kind merge_detect(const char *path);

/* Merges n count partials read from in[] (names for messages) and prints
 * count's rows on stdout (CSV with csv). Returns an exit status
 * (common/exit_status.h): EXIT_STATUS_USAGE when the shards do not belong together. */
int merge_count(FILE *const *in, const char *const *names, size_t n, bool csv);

/* Merges n generate outputs into out, which the caller flushes and closes
 * (EXIT_STATUS_SKIPPED when a write to out already failed). */
int merge_generate(FILE *const *in, const char *const *names, size_t n, FILE *out);

/* Merges n rate --shard outputs into out, as merge_generate. */
int merge_rate(FILE *const *in, const char *const *names, size_t n, FILE *out);

/* Merges n bench shard directories into out_dir (runs.csv, summary.csv,
 * env.txt); the summary tables go to info unless it is NULL. */
int merge_bench(const char *const *dirs, size_t n, const char *out_dir, FILE *info);

#endif /* SUDOLAB_DIST_MERGE_H */
