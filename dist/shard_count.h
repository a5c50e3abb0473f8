/* count's split path: count --shard K/N and count -j N, and the partial form
 * that `sudolab merge` reads. */
#ifndef SUDOLAB_DIST_SHARD_COUNT_H
#define SUDOLAB_DIST_SHARD_COUNT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/shard.h"

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
 * Returns an exit status (enum in cli/cli.h). */
int shard_count_run(const struct cli_common *c, const struct shard_count_options *o,
    int argc, char **argv);

/* The first line of a count partial; merge finds the options in it. */
#define SHARD_COUNT_MAGIC "# sudolab count-shard 1"

/* The partial's header line for these options (without the shard field, which
 * shard_count_run adds): what must agree between shards. */
void shard_count_options_text(const struct cli_common *c,
    const struct shard_count_options *o, char *out, size_t len);

#endif /* SUDOLAB_DIST_SHARD_COUNT_H */
