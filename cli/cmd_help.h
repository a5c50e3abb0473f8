/* The reference pages made from the command table and the option tables:
 * the man page sudolab(1) and the bash completion script. The build writes
 * both with the hidden `sudolab help --man` and `sudolab help
 * --bash-completion`, so what they list is what getopt accepts and --help
 * prints. */
#ifndef SUDOLAB_CLI_CMD_HELP_H
#define SUDOLAB_CLI_CMD_HELP_H

#include <stddef.h>
#include <stdio.h>

#include "cli/options.h"

/* One subcommand of sudolab, as sudolab.c lists them. */
struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const struct cli_table *table; /* its options */
};

/* Writes sudolab(1) in man(7) markup: every command with its help lines and
 * each option its --help shows. */
void cli_write_man(FILE *out, const struct cli_command *commands, size_t n);

/* Writes a bash completion script for sudolab: the commands, each command's
 * options, back-end names after --solver, the values of --variant and
 * --format, and file names elsewhere. */
void cli_write_bash_completion(FILE *out, const struct cli_command *commands, size_t n);

#endif /* SUDOLAB_CLI_CMD_HELP_H */
