/* What `sudolab generate` reads from its command line, parsed apart from
 * making the puzzles so that another program (sudolab-mpi) can read the same
 * options. */
#ifndef SUDOLAB_CLI_CMD_GENERATE_H
#define SUDOLAB_CLI_CMD_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "puzzle/generate.h"

struct generate_cli {
    struct gen_options opt; /* opt.seed is only set when seed_set */
    uint64_t count; /* puzzles of the whole run (all shards) */
    unsigned rate_methods; /* --rate: RATE_ bits, 0 = no ratings */
    int permutations; /* for the guesses rating */
    int jobs;
    bool seed_set, stats;
    const char *shard; /* --shard K/N as given, NULL = the whole run */
    uint64_t shard_k, shard_n;
};

extern const struct cli_table generate_table;

/* Fills *out from generate's argv (argv[0] is "generate"), checked. */
enum cli_parsed generate_parse(int argc, char **argv, struct generate_cli *out);

#endif /* SUDOLAB_CLI_CMD_GENERATE_H */
