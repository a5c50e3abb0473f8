/* The subcommands of sudolab; each is `int cmd_<name>(argc, argv)` in its own
 * file, listed once in sudolab.c's table. argv[0] is the subcommand's name. */
#ifndef SUDOLAB_CLI_COMMANDS_H
#define SUDOLAB_CLI_COMMANDS_H

#include <stdbool.h>

int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_count(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_rate(int argc, char **argv);
int cmd_hint(int argc, char **argv);
int cmd_levels(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif /* SUDOLAB_CLI_COMMANDS_H */
