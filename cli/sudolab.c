/* sudolab: one program, subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "config.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    { "list", cmd_list, "the back ends and what they handle" },
    { "solve", cmd_solve, "solve puzzles: status, solutions, counters, solution" },
    { "count", cmd_count, "count (enumerate) the solutions of puzzles" },
    { "bench", cmd_bench, "benchmark solvers over corpora: runs.csv, summary, env.txt" },
    { "generate", cmd_generate, "generate unique puzzles (dig or seed003), seeded" },
    { "rate", cmd_rate, "rate difficulty: blanks, freedom, guesses, techniques" },
    { "trace", cmd_trace, "a search event by event, or the grid at chosen steps" },
    { "merge", cmd_merge, "combine --shard K/N outputs into the output of one run" },
};

static void usage(FILE *out)
{
    fprintf(out, "usage: sudolab COMMAND [options] [FILE|PUZZLE|-]...\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n`sudolab COMMAND --help` for the options of a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
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
