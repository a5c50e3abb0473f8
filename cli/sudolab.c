/* sudolab: one program, subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_bench.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_generate.h"
#include "cli/cmd_help.h"
#include "cli/cmd_hint.h"
#include "cli/cmd_levels.h"
#include "cli/cmd_list.h"
#include "cli/cmd_merge.h"
#include "cli/cmd_rate.h"
#include "cli/cmd_solve.h"
#include "cli/cmd_trace.h"
#include "cli/commands.h"
#include "common/io.h"
#include "config.h"

static const struct cli_command commands[] = {
    { "list", cmd_list, "the back ends and what they handle", &list_table },
    { "solve", cmd_solve, "solve puzzles: status, solutions, counters, solution",
        &solve_table },
    { "count", cmd_count, "count (enumerate) the solutions of puzzles", &count_table },
    { "bench", cmd_bench, "benchmark solvers over corpora: runs.csv, summary, env.txt",
        &bench_table },
    { "generate", cmd_generate, "generate unique puzzles (dig or seed003), seeded",
        &generate_table },
    { "rate", cmd_rate, "rate difficulty: blanks, freedom, guesses, techniques, se",
        &rate_table },
    { "hint", cmd_hint, "the next step as Sudoku Explainer takes it", &hint_table },
    { "levels", cmd_levels, "the weakest reasoning that solves each puzzle, per family",
        &levels_table },
    { "trace", cmd_trace, "a search event by event, or the grid at chosen steps",
        &trace_table },
    { "merge", cmd_merge, "combine --shard K/N outputs into the output of one run",
        &merge_table },
    { "compare", cmd_compare, "two bench runs side by side: faster, slower or the same",
        &compare_table },
};

static void usage(FILE *out)
{
    fprintf(out, "usage: sudolab COMMAND [options] [FILE|PUZZLE|-]...\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`sudolab COMMAND --help` for the options of a command.\n");
}

/* The command argv[1] names, run; its exit status. */
static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    const size_t ncommands = sizeof(commands) / sizeof(commands[0]);
    /* hidden: the build writes the man page and bash completion with these */
    if (argc == 3 && strcmp(argv[1], "help") == 0 && strcmp(argv[2], "--man") == 0) {
        cli_write_man(stdout, commands, ncommands);
        return CLI_OK;
    }
    if (argc == 3 && strcmp(argv[1], "help") == 0
        && strcmp(argv[2], "--bash-completion") == 0) {
        cli_write_bash_completion(stdout, commands, ncommands);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("sudolab %s\n", SUDOLAB_VERSION);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "sudolab: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}

/* Output that did not reach standard output (a full disk, a closed pipe)
 * makes a run that said nothing else wrong fail: a caller must never take
 * lost lines for a success. */
int main(int argc, char **argv)
{
    const int rc = run(argc, argv);
    if (io_close_stdout("sudolab", NULL) != 0 && rc == CLI_OK)
        return CLI_SKIPPED;
    return rc;
}
