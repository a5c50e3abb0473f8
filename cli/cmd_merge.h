/* What `sudolab merge` reads from its command line, parsed apart from
 * running it so that another program can read the same options. */
#ifndef SUDOLAB_CLI_CMD_MERGE_H
#define SUDOLAB_CLI_CMD_MERGE_H

#include <stdbool.h>

#include "cli/options.h"

struct merge_cli {
    const char *out; /* --out: the merged bench directory or output file */
    bool csv, quiet;
    const char *list; /* --list: a file naming more shards, one a line */
    int nshards;
    char **shards; /* the shard outputs to merge */
    char **owned; /* shards and their names when --list made them */
};

extern const struct cli_table merge_table;

/* Fills *out from merge's argv (argv[0] is "merge"); with --list, out owns
 * what merge_free releases. */
enum cli_parsed merge_parse(int argc, char **argv, struct merge_cli *out);
void merge_free(struct merge_cli *cli);
/* Merges the shards of a parsed command line. Returns the exit status. */
int merge_run(const struct merge_cli *cli);

#endif /* SUDOLAB_CLI_CMD_MERGE_H */
