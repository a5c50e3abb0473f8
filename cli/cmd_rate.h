/* What `sudolab rate` reads from its command line, parsed apart from running
 * it so that another program can read the same options. */
#ifndef SUDOLAB_CLI_CMD_RATE_H
#define SUDOLAB_CLI_CMD_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "common/shard.h"

enum { RATE_MAX_JOBS = 256 };

struct rate_cli {
    struct cli_common common;
    unsigned methods; /* RATE_ bits (puzzle/rate.h) */
    int permutations; /* for the guesses rating */
    uint64_t seed;
    bool show_puzzle; /* the puzzle ends each text line */
    int jobs; /* threads rating puzzles (-j); the output is the same for any */
    struct shard shard; /* --shard K/N (n = 0: not given, the whole run) */
    /* --out FILE: the rows go there instead of to standard output; with
     * --resume, after the rows an earlier run of the same command left in it
     * (see rate_run) */
    const char *out;
    bool resume;
    int nfiles;
    char **files;
};

extern const struct cli_table rate_table;

/* Fills *out from rate's argv (argv[0] is "rate"). */
enum cli_parsed rate_parse(int argc, char **argv, struct rate_cli *out);
/* Rates every puzzle of a parsed command line. Returns the exit status. */
int rate_run(const struct rate_cli *cli);

#endif /* SUDOLAB_CLI_CMD_RATE_H */
