/* sudolab generate: what it reads from its command line, parsed apart from
 * making the puzzles, and its run. sudolab-mpi parses generate's command line
 * with generate_parse and runs it with generate_run, its runner installed
 * (scaleout/dist.h). */
#ifndef SUDOLAB_CLI_CMD_GENERATE_H
#define SUDOLAB_CLI_CMD_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"
#include "puzzle/generate.h"

struct generate_cli {
    struct gen_options opt; /* opt.seed is only set when seed_set (else: the clock) */
    uint64_t count; /* puzzles of the whole run (all shards) */
    unsigned rate_methods; /* --rate: RATE_ bits, 0 = no ratings */
    int permutations; /* for the guesses rating */
    int jobs;
    bool seed_set, stats;
    bool output_lewis; /* --output lewis: Lewis's instance format */
    const char *shard; /* --shard K/N as given, NULL = the whole run */
    uint64_t shard_k, shard_n;
};

extern const struct cli_table generate_table;

/* Fills *out from generate's argv (argv[0] is "generate"), checked. */
enum cli_parsed generate_parse(int argc, char **argv, struct generate_cli *out);

/* Makes the puzzles of a parsed command line (through dist_generate) and
 * prints them. Returns the exit status. */
int generate_run(const struct generate_cli *cli);

#endif /* SUDOLAB_CLI_CMD_GENERATE_H */
