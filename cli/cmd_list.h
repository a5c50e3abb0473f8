/* What `sudolab list` reads from its command line. */
#ifndef SUDOLAB_CLI_CMD_LIST_H
#define SUDOLAB_CLI_CMD_LIST_H

#include <stdbool.h>

#include "cli/options.h"

#include "solvers/solver.h"

enum { LIST_MAX_NAMED = 64 };

struct list_cli {
    bool csv;
    /* --solver NAME: outside back ends (so:PATH, cmd:COMMAND) to list too,
     * since they exist only when named */
    const char *named[LIST_MAX_NAMED];
    int nnamed;
};

extern const struct cli_table list_table;

/* Fills *out from list's argv (argv[0] is "list"). */
enum cli_parsed list_parse(int argc, char **argv, struct list_cli *out);
/* Prints the back ends. Returns the exit status. */
int list_run(const struct list_cli *cli);

#endif /* SUDOLAB_CLI_CMD_LIST_H */
