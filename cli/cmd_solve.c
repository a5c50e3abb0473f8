/* sudolab solve and sudolab count: one result line per puzzle. */
#include <stdlib.h>
#include <string.h>

#include "bench/solve_row.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "common/shard.h"
#include "dist/shard_count.h"
#include "puzzle/split.h"
#include "solvers/registry.h"
#include "common/text.h"

struct solve_run {
    struct cli_common common;
    struct solver_instance *inst;
    bool counting;     /* `count`: the solution count leads the line */
    bool print_all;    /* `count --print`: every solution, one per line */
    unsigned long failures;
};

static bool print_solution(void *ctx, const struct grid *solution)
{
    (void) ctx;
    char line[GRID_MAX_CELLS + 1];
    grid_format_line(solution, line);
    puts(line);
    return true;
}

static void print_row(struct solve_run *run, const struct input_entry *e,
                      const struct solve_result *res)
{
    const struct solve_row_style style
        = { run->common.solver, run->counting, run->common.csv, run->common.pretty };
    solve_row_print(stdout, &style, e->index, &e->item->puzzle, res);
}

static bool solve_entry(void *ctx, const struct input_entry *e)
{
    struct solve_run *run = ctx;
    struct solve_result res;
    if (!e->ok) {
        memset(&res, 0, sizeof(res));
        res.status = SOLVE_STATUS_INVALID;
    } else {
        struct solve_request req = cli_request(&run->common);
        if (run->print_all)
            req.on_solution = print_solution;
        solver_run(run->inst, &e->item->puzzle, &req, &res);
        if (res.status == SOLVE_STATUS_INVALID || res.status == SOLVE_STATUS_ERROR) {
            fprintf(stderr, "%s:%lu: %s\n", e->source, e->line, res.error);
            run->failures++;
        }
    }
    print_row(run, e, &res);
    return true;
}

static int run_solve(int argc, char **argv, bool counting)
{
    struct solve_run run = { .counting = counting };
    cli_common_defaults(&run.common, counting ? 0 : 2);
    enum { OPT_PRINT = CLI_OPT_FIRST_FREE, OPT_HELP, OPT_SHARD, OPT_SPLIT };
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
        { "print", no_argument, NULL, OPT_PRINT },
        { "help", no_argument, NULL, OPT_HELP },
        { "shard", required_argument, NULL, OPT_SHARD },
        { "split", required_argument, NULL, OPT_SPLIT },
        { "jobs", required_argument, NULL, 'j' },
        { NULL, 0, NULL, 0 },
    };
    /* count --shard K/N or -j N: the split path in bench/shard.c */
    struct shard_count_options split = { { 1, 1 }, SHARD_SPLIT_DEFAULT, 1, false };
    bool use_split = false;
    uint64_t v;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, counting ? "j:" : "", longopts, NULL)) != -1) {
        const int handled = cli_common_option(&run.common, opt, optarg);
        if (handled < 0)
            return CLI_USAGE;
        if (handled)
            continue;
        if (opt == OPT_PRINT && counting) {
            run.print_all = true;
        } else if (opt == OPT_SHARD && counting) {
            if (shard_parse(optarg, &split.shard, "sudolab count") != 0)
                return CLI_USAGE;
            split.partial = use_split = true;
        } else if ((opt == OPT_SPLIT || opt == 'j') && counting) {
            if (text_parse_u64(optarg, &v) != 0 || v < 1 || v > (opt == 'j' ? 256 : 1u << 24)) {
                fprintf(stderr, "sudolab count: %s %s: a number from 1 expected\n",
                        opt == 'j' ? "-j" : "--split", optarg);
                return CLI_USAGE;
            }
            if (opt == 'j')
                split.threads = (unsigned) v;
            else
                split.split = (size_t) v;
            use_split |= opt == 'j' && v > 1;
        } else if (opt == OPT_HELP) {
            printf("usage: sudolab %s [options] [FILE|PUZZLE|-]...\n%s%s",
                   counting ? "count" : "solve",
                   counting ? "Counts the solutions of each puzzle (all of them unless "
                              "--limit says otherwise).\n"
                            : "Solves each puzzle: status, solutions found (up to --limit, "
                              "default 2), counters, solution.\n",
                   CLI_COMMON_HELP);
            if (counting)
                puts("  --print             print every solution found\n"
                     "  -j, --jobs N        threads: each puzzle is split into subproblems by\n"
                     "                      filling its first blanks, solved in parallel\n"
                     "  --split M           at least M subproblems per puzzle (default 256; 1\n"
                     "                      splits none: best for files of many puzzles)\n"
                     "  --shard K/N         solve only subproblem numbers K-1 mod N and print\n"
                     "                      a partial for `sudolab merge`");
            return CLI_OK;
        } else {
            fprintf(stderr, "sudolab %s: unknown option (see --help)\n",
                    counting ? "count" : "solve");
            return CLI_USAGE;
        }
    }
    if (cli_common_finish(&run.common) != 0)
        return CLI_USAGE;
    if (use_split) {
        if (run.print_all) {
            fprintf(stderr, "sudolab count: --print does not combine with -j or --shard\n");
            return CLI_USAGE;
        }
        return shard_count_run(&run.common, &split, argc - optind, argv + optind);
    }
    run.inst = solver_open(run.common.solver);
    if (!run.inst) {
        fprintf(stderr, "sudolab: solver %s failed to start\n", run.common.solver->name);
        return CLI_SKIPPED;
    }
    if (run.common.csv)
        solve_row_header(stdout);
    const unsigned long problems
        = cli_walk(&run.common, argc - optind, argv + optind, solve_entry, &run);
    solver_close(run.inst);
    return problems || run.failures ? CLI_SKIPPED : CLI_OK;
}

int cmd_solve(int argc, char **argv)
{
    return run_solve(argc, argv, false);
}

int cmd_count(int argc, char **argv)
{
    return run_solve(argc, argv, true);
}
