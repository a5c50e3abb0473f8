/* `sudolab levels`: its option table, for the pinned --help text. */
#ifndef SUDOLAB_CLI_CMD_LEVELS_H
#define SUDOLAB_CLI_CMD_LEVELS_H

#include "cli/cli.h"

extern const struct cli_table levels_table;

#endif /* SUDOLAB_CLI_CMD_LEVELS_H */
