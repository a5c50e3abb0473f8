/* sudolab rate: difficulty ratings, one line per puzzle (bench/rate.h). */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "puzzle/rate.h"
#include "solvers/registry.h"
#include "common/text.h"

struct rate_run {
    struct cli_common common;
    struct rater rater;
    unsigned methods;
    unsigned long failures;
    bool show_puzzle;
};

static bool rate_entry(void *ctx, const struct input_entry *e)
{
    struct rate_run *run = ctx;
    char why[160];
    if (!e->ok) {
        run->failures++;
        if (!run->common.csv)
            printf("%lu invalid\n", e->index);
        return true;
    }
    const struct grid *g = &e->item->puzzle;
    if (grid_find_conflict(g, why, sizeof(why))) {
        fprintf(stderr, "%s:%lu: %s\n", e->source, e->line, why);
        run->failures++;
        if (!run->common.csv)
            printf("%lu invalid\n", e->index);
        return true;
    }
    struct rate_values v;
    rater_rate(&run->rater, g, &v);
    char fields[1024], line[GRID_MAX_CELLS + 1];
    rate_format(fields, sizeof(fields), &v, run->methods, run->common.csv);
    grid_format_line(g, line);
    if (run->common.csv)
        printf("%lu%s,%s\n", e->index, fields, line);
    else
        printf("%lu%s%s%s\n", e->index, fields, run->show_puzzle ? " " : "",
            run->show_puzzle ? line : "");
    return true;
}

static const char *const usage_lines[] = {
    "usage: sudolab rate [options] [FILE|PUZZLE|-]...",
    "Rates the difficulty of each puzzle, one line per puzzle.",
    "  --method M          blanks, freedom, guesses, techniques or all (default), or",
    "                      several joined by commas:",
    "    blanks            seed 004: blank cells; level 40-45 1, 46-50 2, 51-55 3,",
    "                      56-60 4, 61-65 5, else 0",
    "    freedom           seed 004: sum over blanks of the blanks in its row and",
    "                      column (itself included) and box (itself excluded); level",
    "                      1-720 1, 721-840 2, 841-960 3, 961-1080 4, 1081-2105 5,",
    "                      else 0",
    "    guesses           mean ln(guesses+1) of --solver (default mrv) solving to 2",
    "                      solutions, over --permutations random permutations",
    "    techniques        hardest human technique needed (logic solver), its level",
    "                      (1 naked single .. 10 swordfish, 11 guessing) and the steps",
    "                      of each technique",
    "  --permutations K    permutations for guesses (default 10)",
    "  --seed S            permutation seed (default 0; mixed with each puzzle's cells)",
    "  --no-puzzle         leave the puzzle off the end of each line",
};

static void usage(void)
{
    for (size_t i = 0; i < sizeof(usage_lines) / sizeof(usage_lines[0]); i++)
        puts(usage_lines[i]);
    fputs(CLI_COMMON_HELP, stdout);
}

int cmd_rate(int argc, char **argv)
{
    struct rate_run run;
    memset(&run, 0, sizeof(run));
    cli_common_defaults(&run.common, 2);
    run.methods = RATE_ALL;
    run.show_puzzle = true;
    int permutations = 10;
    uint64_t seed = 0, value;
    enum {
        OPT_METHOD = CLI_OPT_FIRST_FREE,
        OPT_PERMUTATIONS,
        OPT_SEED,
        OPT_NO_PUZZLE,
        OPT_HELP
    };
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
        { "method", required_argument, NULL, OPT_METHOD },
        { "permutations", required_argument, NULL, OPT_PERMUTATIONS },
        { "seed", required_argument, NULL, OPT_SEED },
        { "no-puzzle", no_argument, NULL, OPT_NO_PUZZLE },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        const int handled = cli_common_option(&run.common, opt, optarg);
        if (handled < 0)
            return CLI_USAGE;
        if (handled)
            continue;
        switch (opt) {
        case OPT_METHOD:
            if (rate_parse_methods(optarg, &run.methods) != 0) {
                fprintf(stderr,
                    "sudolab rate: --method %s: blanks, freedom, guesses, "
                    "techniques or all expected\n",
                    optarg);
                return CLI_USAGE;
            }
            break;
        case OPT_PERMUTATIONS:
            if (text_parse_u64(optarg, &value) != 0 || value < 1 || value > 100000) {
                fprintf(stderr,
                    "sudolab rate: --permutations %s: a count from 1 expected\n", optarg);
                return CLI_USAGE;
            }
            permutations = (int) value;
            break;
        case OPT_SEED:
            if (text_parse_u64(optarg, &seed) != 0) {
                fprintf(stderr,
                    "sudolab rate: --seed %s: a non-negative integer expected\n", optarg);
                return CLI_USAGE;
            }
            break;
        case OPT_NO_PUZZLE:
            run.show_puzzle = false;
            break;
        case OPT_HELP:
            usage();
            return CLI_OK;
        default:
            fprintf(stderr, "sudolab rate: unknown option (see --help)\n");
            return CLI_USAGE;
        }
    }
    char why[200];
    if (rater_open(&run.rater, run.methods, run.common.solver, permutations, seed, why,
            sizeof(why))
        != 0) {
        fprintf(stderr, "sudolab rate: %s\n", why);
        return CLI_USAGE;
    }
    run.rater.budget_steps = run.common.budget_steps;
    run.rater.budget_ms = run.common.budget_ms;
    /* the settings that make the numbers reproducible: a comment line, or
     * stderr when stdout is CSV */
    FILE *info = run.common.csv ? stderr : stdout;
    char names[64];
    rate_method_names(names, sizeof(names), run.methods);
    fprintf(info, "# sudolab rate methods=%s", names);
    if (run.methods & RATE_GUESSES)
        fprintf(info, " solver=%s permutations=%d seed=%llu", run.rater.solver->name,
            permutations, (unsigned long long) seed);
    fputc('\n', info);
    if (run.common.csv) {
        char header[1024];
        rate_csv_header(header, sizeof(header), run.methods);
        printf("index%s,puzzle\n", header);
    }
    const unsigned long problems
        = cli_walk(&run.common, argc - optind, argv + optind, rate_entry, &run);
    rater_close(&run.rater);
    return problems || run.failures ? CLI_SKIPPED : CLI_OK;
}
