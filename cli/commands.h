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
int cmd_trace(int argc, char **argv);
int cmd_merge(int argc, char **argv);

/* count's and solve's result line (text or --csv), in cmd_solve.c: merge and
 * the split count print through them, so their rows cannot drift apart. */
struct cli_common;
struct grid;
struct solve_result;
void solve_print_csv_header(void);
void solve_print_result(const struct cli_common *common, bool counting, unsigned long index,
                        const struct grid *puzzle, const struct solve_result *res);

#endif /* SUDOLAB_CLI_COMMANDS_H */
