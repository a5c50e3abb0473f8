/* What `sudolab compare` reads from its command line, parsed apart from
 * running it so that the tests can check the options alone. */
#ifndef SUDOLAB_CLI_CMD_COMPARE_H
#define SUDOLAB_CLI_CMD_COMPARE_H

#include <stdbool.h>

#include "cli/options.h"

struct compare_cli {
    const char *output; /* --output: the Markdown; NULL: stdout */
    const char *csv; /* --csv: the CSV; NULL: none */
    double threshold; /* --threshold, a fraction (0.02 = 2%) */
    double fail_slower; /* --fail-slower, a fraction */
    bool fail_slower_set;
    const char *old_dir, *new_dir;
};

extern const struct cli_table compare_table;

/* Fills *out from compare's argv (argv[0] is "compare"). */
enum cli_parsed compare_parse(int argc, char **argv, struct compare_cli *out);
/* Compares the two runs of a parsed command line. Returns the exit status:
 * 0 compared; 1 compared, but a back end x corpus is slower by more than
 * --fail-slower or a line of the runs was bad; 2 not compared (a bad option,
 * an unreadable run, runs that cannot be compared). */
int compare_run(const struct compare_cli *cli);

#endif /* SUDOLAB_CLI_CMD_COMPARE_H */
