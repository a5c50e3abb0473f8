/* sudolab solve and sudolab count: one result line per puzzle. */
#include <stdlib.h>
#include <string.h>

#include "bench/solve_row.h"
#include "cli/cli.h"
#include "cli/cmd_solve.h"
#include "cli/commands.h"
#include "common/shard.h"
#include "common/text.h"
#include "dist/count_text.h"
#include "dist/dist.h"
#include "puzzle/split.h"
#include "solvers/registry.h"

struct solve_run {
    const struct solve_cli *args;
    struct solver_instance *inst;
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

static void print_row(
    struct solve_run *run, const struct input_entry *e, const struct solve_result *res)
{
    const struct cli_common *c = &run->args->common;
    const struct solve_row_style style
        = { c->solver, run->args->counting, c->csv, c->pretty };
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
        struct solve_request req = cli_request(&run->args->common);
        if (run->args->print_all)
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

static void print_help(bool counting)
{
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
}

enum { OPT_PRINT = CLI_OPT_FIRST_FREE, OPT_HELP, OPT_SHARD, OPT_SPLIT };

/* count's own options. Returns 1 when handled, 0 when opt is none, -1 on a
 * bad value (after saying why). */
static int count_option(struct solve_cli *a, int opt, const char *arg)
{
    uint64_t v;
    if (opt == OPT_PRINT) {
        a->print_all = true;
    } else if (opt == OPT_SHARD) {
        if (shard_parse(arg, &a->shard, "sudolab count") != 0)
            return -1;
        a->partial = a->use_split = true;
    } else if (opt == OPT_SPLIT || opt == 'j') {
        if (text_parse_u64(arg, &v) != 0 || v < 1 || v > (opt == 'j' ? 256 : 1u << 24)) {
            fprintf(stderr, "sudolab count: %s %s: a number from 1 expected\n",
                opt == 'j' ? "-j" : "--split", arg);
            return -1;
        }
        if (opt == 'j')
            a->threads = (unsigned) v;
        else
            a->split = (size_t) v;
        a->use_split |= opt == 'j' && v > 1;
    } else {
        return 0;
    }
    return 1;
}

static int parse(int argc, char **argv, bool counting, struct solve_cli *a)
{
    memset(a, 0, sizeof(*a));
    a->counting = counting;
    cli_common_defaults(&a->common, counting ? 0 : 2);
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
        { "print", no_argument, NULL, OPT_PRINT },
        { "help", no_argument, NULL, OPT_HELP },
        { "shard", required_argument, NULL, OPT_SHARD },
        { "split", required_argument, NULL, OPT_SPLIT },
        { "jobs", required_argument, NULL, 'j' },
        { NULL, 0, NULL, 0 },
    };
    /* count --shard K/N or -j N: the split path (dist/count_range.h) */
    a->shard = (struct shard) { 1, 1 };
    a->split = SHARD_SPLIT_DEFAULT;
    a->threads = 1;
    int opt;
    optind = 1;
    while ((opt = getopt_long(argc, argv, counting ? "j:" : "", longopts, NULL)) != -1) {
        int handled = cli_common_option(&a->common, opt, optarg);
        if (handled == 0 && counting)
            handled = count_option(a, opt, optarg);
        if (handled < 0)
            return -1;
        if (handled)
            continue;
        if (opt == OPT_HELP) {
            print_help(counting);
            return 1;
        }
        fprintf(stderr, "sudolab %s: unknown option (see --help)\n",
            counting ? "count" : "solve");
        return -1;
    }
    if (cli_common_finish(&a->common) != 0)
        return -1;
    if (a->use_split && a->print_all) {
        fprintf(stderr, "sudolab count: --print does not combine with -j or --shard\n");
        return -1;
    }
    a->nfiles = argc - optind;
    a->files = argv + optind;
    return 0;
}

/* count by subproblems: rows from the runner (this process's threads, or
 * the ranks of sudolab-mpi), printed as count's lines or as a partial. */
struct split_printer {
    const struct solve_cli *args;
    struct solve_row_style style;
    unsigned long failures;
};

static bool print_count_row(void *ctx, const struct count_row *row)
{
    struct split_printer *p = ctx;
    const struct cli_common *c = &p->args->common;
    if (count_row_report(stderr, c->limit, row))
        p->failures++;
    if (p->args->partial)
        count_partial_row(stdout, c->solver, row);
    else
        count_row_print(stdout, &p->style, c->limit, row);
    return true;
}

static int run_split(const struct solve_cli *a)
{
    const struct cli_common *c = &a->common;
    const struct count_options o = { c->solver, c->limit, c->budget_steps, c->budget_ms,
        cli_input(c, dist_messages()), a->split, a->threads };
    struct split_printer p = { a, { c->solver, true, c->csv, false }, 0 };
    if (dist_output() && a->partial)
        count_partial_header(stdout, &o, &a->shard);
    else if (dist_output() && c->csv)
        solve_row_header(stdout);
    const long problems
        = dist_count(&o, &a->shard, a->nfiles, a->files, print_count_row, &p);
    fflush(stdout);
    return problems != 0 || p.failures ? CLI_SKIPPED : CLI_OK;
}

int solve_run(const struct solve_cli *a)
{
    if (a->use_split)
        return run_split(a);
    struct solve_run run = { a, NULL, 0 };
    run.inst = solver_open(a->common.solver);
    if (!run.inst) {
        fprintf(stderr, "sudolab: solver %s failed to start\n", a->common.solver->name);
        return CLI_SKIPPED;
    }
    if (a->common.csv)
        solve_row_header(stdout);
    const unsigned long problems
        = cli_walk(&a->common, a->nfiles, a->files, solve_entry, &run);
    solver_close(run.inst);
    return problems || run.failures ? CLI_SKIPPED : CLI_OK;
}

int solve_parse(int argc, char **argv, struct solve_cli *out)
{
    return parse(argc, argv, false, out);
}

int count_parse(int argc, char **argv, struct solve_cli *out)
{
    return parse(argc, argv, true, out);
}

static int run_solve(int argc, char **argv, bool counting)
{
    struct solve_cli a;
    const int parsed = parse(argc, argv, counting, &a);
    if (parsed != 0)
        return parsed > 0 ? CLI_OK : CLI_USAGE;
    return solve_run(&a);
}

int cmd_solve(int argc, char **argv)
{
    return run_solve(argc, argv, false);
}

int cmd_count(int argc, char **argv)
{
    return run_solve(argc, argv, true);
}
