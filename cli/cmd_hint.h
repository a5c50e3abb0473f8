/* `sudolab hint`: its option table, for the pinned --help text. */
#ifndef SUDOLAB_CLI_CMD_HINT_H
#define SUDOLAB_CLI_CMD_HINT_H

#include "cli/cli.h"

extern const struct cli_table hint_table;

#endif /* SUDOLAB_CLI_CMD_HINT_H */
