/* sudolab generate: its command line as parsed, and its run. sudolab-mpi
 * parses generate's command line with generate_parse and runs it with
 * generate_run, its runner installed (dist/dist.h). */
#ifndef SUDOLAB_CLI_CMD_GENERATE_H
#define SUDOLAB_CLI_CMD_GENERATE_H

#include <stdbool.h>
#include <stdint.h>

#include "dist/gen_range.h"

struct generate_args {
    struct gen_range_options range; /* generator, ratings, threads */
    uint64_t count; /* --count: puzzles in the whole run */
    bool seed_set; /* --seed given (else the seed is from the clock) */
    bool stats; /* --stats */
    const char *shard; /* --shard as given, or NULL */
    uint64_t shard_k, shard_n;
};

/* Parses generate's command line; argv[0] is the command's name. Returns 0 to
 * run it, 1 when --help was printed, -1 on a usage error (said on stderr). */
int generate_parse(int argc, char **argv, struct generate_args *a);

/* Runs the parsed command; returns its exit status. */
int generate_run(const struct generate_args *a);

#endif /* SUDOLAB_CLI_CMD_GENERATE_H */
