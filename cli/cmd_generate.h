/* sudolab generate: its command line as parsed, and its run. sudolab-mpi
 * parses generate's command line with generate_parse and runs it with
 * generate_run, its runner installed (dist/dist.h). */
#ifndef SUDOLAB_CLI_CMD_GENERATE_H
#define SUDOLAB_CLI_CMD_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "puzzle/generate.h"

struct generate_cli {
    struct gen_options opt; /* opt.seed is only set when seed_set (else: the clock) */
    uint64_t count; /* puzzles of the whole run (all shards) */
    unsigned rate_methods; /* --rate: RATE_ bits, 0 = no ratings */
    int permutations; /* for the guesses rating */
    int jobs;
    bool seed_set, stats;
    const char *shard; /* --shard K/N as given, NULL = the whole run */
    uint64_t shard_k, shard_n;
};

/* Parses generate's command line; argv[0] is the command's name. Returns 0 to
 * run it, 1 when --help was printed, -1 on a usage error (said on stderr). */
int generate_parse(int argc, char **argv, struct generate_cli *a);

/* Runs the parsed command; returns its exit status. */
int generate_run(const struct generate_cli *a);

#endif /* SUDOLAB_CLI_CMD_GENERATE_H */
