/* What `sudolab trace` reads from its command line, parsed apart from
 * running it so that another program can read the same options. */
#ifndef SUDOLAB_CLI_CMD_TRACE_H
#define SUDOLAB_CLI_CMD_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/options.h"

enum { TRACE_MAX_AT = 64 };

struct trace_cli {
    struct cli_common common;
    bool undo; /* print undo events */
    int nat;
    uint64_t at[TRACE_MAX_AT]; /* --at: the steps to show the grid at, ascending */
    int nfiles;
    char **files;
};

extern const struct cli_table trace_table;

/* Fills *out from trace's argv (argv[0] is "trace"); the solver is chosen
 * (default moler) and checked to trace its search. */
enum cli_parsed trace_parse(int argc, char **argv, struct trace_cli *out);
/* Traces every puzzle of a parsed command line. Returns the exit status. */
int trace_run(const struct trace_cli *cli);

#endif /* SUDOLAB_CLI_CMD_TRACE_H */
