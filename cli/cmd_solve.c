/* sudolab solve and sudolab count: one result line per puzzle. */
#include <stdlib.h>
#include <string.h>

#include "bench/solve_row.h"
#include "cli/cli.h"
#include "cli/cmd_solve.h"
#include "cli/commands.h"
#include "common/io.h"
#include "common/shard.h"
#include "common/text.h"
#include "puzzle/split.h"
#include "scaleout/count_text.h"
#include "scaleout/dist.h"
#include "scaleout/grid_run.h"
#include "solvers/registry.h"

struct solve_run {
    const struct solve_cli *cli;
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
    const struct cli_common *c = &run->cli->common;
    const struct solve_row_style style
        = { c->solver, run->cli->counting, c->csv, c->pretty };
    solve_row_print(stdout, &style, e->index, e->item->name, &e->item->puzzle, res);
}

/* --output lewis: the solution as an instance of Lewis's format, named
 * like the entry, instead of the row; what has none is said on stderr. */
static void write_lewis(
    struct solve_run *run, const struct input_entry *e, const struct solve_result *res)
{
    const char *name = e->item->name;
    if (res->solutions == 0) {
        if (e->ok)
            fprintf(stderr, "%s:%lu: %s%s%s, no solution to write\n", e->source, e->line,
                name, name[0] ? ": " : "", solve_status_name(res->status));
        return;
    }
    if (corpus_write_lewis(stdout, &res->solution, name) != 0) {
        char shape[32];
        grid_describe_shape(&res->solution, shape, sizeof(shape));
        fprintf(stderr, "%s:%lu: Lewis's format has square boxes only, not %s\n",
            e->source, e->line, shape);
        run->failures++;
    }
}

static bool solve_entry(void *ctx, const struct input_entry *e)
{
    struct solve_run *run = ctx;
    struct solve_result res;
    if (!e->ok) {
        memset(&res, 0, sizeof(res));
        res.status = SOLVE_STATUS_INVALID;
    } else {
        struct solve_request req = cli_request(&run->cli->common);
        if (run->cli->print_all)
            req.on_solution = print_solution;
        solver_run(run->inst, &e->item->puzzle, &req, &res);
        if (res.status == SOLVE_STATUS_INVALID || res.status == SOLVE_STATUS_ERROR) {
            /* a shape the default refuses: the user never named that back end */
            const bool unchosen = res.status == SOLVE_STATUS_ERROR
                && run->cli->common.solver_defaulted
                && e->item->puzzle.n > solver_of(run->inst)->max_n;
            fprintf(stderr, "%s:%lu: %s%s\n", e->source, e->line, res.error,
                unchosen ? "; it is the default: name one that does with --solver "
                           "(sizes in `sudolab list`; auto takes every size)"
                         : "");
            run->failures++;
        } else if (res.status == SOLVE_STATUS_LIMIT && res.error[0]) {
            /* a budget the back end could not keep itself (a process killed) */
            fprintf(stderr, "%s:%lu: %s: %s\n", e->source, e->line,
                solver_of(run->inst)->name, res.error);
        }
    }
    if (run->cli->output_lewis)
        write_lewis(run, e, &res);
    else
        print_row(run, e, &res);
    return true;
}

static int parse_output(const struct cli_value *v)
{
    bool *lewis = v->field;
    if (strcmp(v->arg, "rows") != 0 && strcmp(v->arg, "lewis") != 0)
        return CLI_VALUE_BAD;
    *lewis = strcmp(v->arg, "lewis") == 0;
    return CLI_VALUE_OK;
}

static const struct cli_option solve_options[] = {
    CLI_LINE("usage: sudolab solve [options] [FILE|PUZZLE|-]..."),
    CLI_LINE("Solves each puzzle: status, solutions found (up to --limit, default 2), "
             "counters, solution."),
    CLI_COMMON_OPTIONS,
    CLI_OPTION_SEED("seed of a stochastic back end (acs, anneal; default 0):\n"
                    "the same seed, the same run"),
    { .kind = CLI_ULONG,
        .name = "head",
        .metavar = "N",
        .help = "only the first N entries of each file",
        .field = offsetof(struct solve_cli, head),
        .min = 1,
        .expected = "a number from 1" },
    { .kind = CLI_CUSTOM,
        .name = "output",
        .metavar = "O",
        .help = "rows (default) or lewis: each solution in Lewis's\n"
                "instance format, after a '# name' line (square boxes)",
        .field = offsetof(struct solve_cli, output_lewis),
        .parse = parse_output,
        .expected = "rows or lewis" },
    CLI_OPTION_HELP,
};

/* count -j N: more than one thread takes the split path */
static int parse_jobs(const struct cli_value *v)
{
    struct solve_cli *cli = v->field;
    uint64_t n;
    if (cli_read_number(v, &n) != CLI_VALUE_OK)
        return CLI_VALUE_BAD;
    cli->split.threads = (unsigned) n;
    cli->use_split |= n > 1;
    return CLI_VALUE_OK;
}

#define COUNT_FIELD(member) offsetof(struct solve_cli, member)

static const struct cli_option count_options[] = {
    CLI_LINE("usage: sudolab count [options] [FILE|PUZZLE|-]..."),
    CLI_LINE("Counts the solutions of each puzzle (all of them unless --limit says "
             "otherwise)."),
    CLI_LINE("Without --solver each puzzle goes to the back end fastest for it (auto)."),
    CLI_COMMON_OPTIONS,
    { .kind = CLI_FLAG,
        .name = "print",
        .help = "print every solution found",
        .field = COUNT_FIELD(print_all) },
    { .kind = CLI_CUSTOM,
        .name = "jobs",
        .letter = 'j',
        .metavar = "N",
        .help = "threads: each puzzle is split into subproblems by\n"
                "filling its first blanks, solved in parallel",
        .field = CLI_WHOLE,
        .parse = parse_jobs,
        .min = 1,
        .max = 256,
        .expected = "a number from 1",
        .say_letter = true },
    { .kind = CLI_SIZE,
        .name = "split",
        .metavar = "M",
        .help = "at least M subproblems per puzzle (default 256; 1\n"
                "splits none: best for files of many puzzles)",
        .field = COUNT_FIELD(split.split),
        .min = 1,
        .max = 1u << 24,
        .expected = "a number from 1" },
    { .kind = CLI_CUSTOM,
        .name = "shard",
        .metavar = "K/N",
        .help = "solve only subproblem numbers K-1 mod N and print\n"
                "a partial for `sudolab merge`",
        .field = COUNT_FIELD(split.shard),
        .given = CLI_GIVEN(struct solve_cli, split.partial),
        .parse = cli_parse_shard },
    { .kind = CLI_FLAG,
        .name = "grids",
        .help = "count every complete grid of each --empty shape\n"
                "exactly by band reduction, with its classes of first\n"
                "bands (2x2, 2x3, 2x4, 3x3; diagonal: 2x2, 2x3, 3x3)",
        .field = COUNT_FIELD(grids) },
    { .kind = CLI_FLAG,
        .name = "estimate",
        .help = "with --grids: print the plan and an estimated time\n"
                "(from a sample) instead of counting",
        .field = COUNT_FIELD(estimate) },
    { .kind = CLI_FLAG,
        .name = "essential",
        .help = "with --grids: also the grids up to symmetry and\n"
                "relabelling, by Burnside's lemma with a row per\n"
                "conjugacy class (4x4, 6x6, 8x8, 9x9)",
        .field = COUNT_FIELD(essential) },
    CLI_OPTION_HELP,
};

const struct cli_table solve_table = CLI_TABLE("sudolab solve", solve_options);
const struct cli_table count_table = CLI_TABLE("sudolab count", count_options);

/* count --grids reads no puzzles: only --empty shapes, standard ones. */
static int check_grids(const struct solve_cli *c)
{
    const char *why = NULL;
    if (!c->grids)
        why = "--estimate and --essential go with --grids";
    else if (c->essential && (c->split.partial || c->estimate))
        why = "--essential needs the whole count: not with --shard or "
              "--estimate";
    else if (c->nfiles > 0 || c->common.nempty == 0)
        why = "--grids counts the shapes of --empty RxC and reads no puzzles";
    else if (c->common.corpus.shape.variant != GRID_STANDARD
        && (c->split.partial || c->essential))
        why = "--grids --variant diagonal counts whole: not with --shard or --essential";
    else if (c->print_all || c->common.csv)
        why = "--print and --csv do not combine with --grids";
    else if (c->split.partial && c->common.nempty > 1)
        why = "--grids --shard makes one partial: give one --empty shape";
    if (why)
        fprintf(stderr, "sudolab count: %s\n", why);
    return why ? -1 : 0;
}

/* count --grids: each --empty shape in turn. The classes are split by
 * threads and --shard, not by MPI ranks: under sudolab-mpi rank 0 counts and
 * prints, and the other ranks have nothing to do. */
static int run_grids(const struct solve_cli *a)
{
    if (!dist_output())
        return CLI_OK;
    int rc = CLI_OK;
    for (int i = 0; i < a->common.nempty && rc == CLI_OK; i++) {
        const struct grid_run_options o
            = { a->common.empty[i].box_rows, a->common.empty[i].box_cols,
                  a->split.threads, a->split.shard, a->split.partial, a->estimate,
                  a->common.empty[i].variant == GRID_DIAGONAL, a->essential };
        rc = grid_run(&o, stdout, stderr);
    }
    io_flush_stdout();
    return rc;
}

static enum cli_parsed parse(int argc, char **argv, bool counting, struct solve_cli *out)
{
    memset(out, 0, sizeof(*out));
    out->counting = counting;
    cli_common_defaults(&out->common, counting ? 0 : 2);
    out->split = (struct solve_split) { { 1, 1 }, SHARD_SPLIT_DEFAULT, 1, false };
    const struct cli_table *t = counting ? &count_table : &solve_table;
    int first;
    const enum cli_parsed p = cli_parse(t, argc, argv, out, &out->common, &first);
    if (p != CLI_PARSED_RUN)
        return p;
    out->use_split |= out->split.partial;
    out->nfiles = argc - first;
    out->files = argv + first;
    if (counting && !out->common.solver)
        out->common.solver = solver_find("auto");
    if (counting && out->common.solver->caps & SOLVER_CAP_INCOMPLETE) {
        fprintf(stderr,
            "sudolab count: %s is incomplete (stochastic search): it can find a solution "
            "but not count them; use sudolab solve --limit 1\n",
            out->common.solver->name);
        return CLI_PARSED_ERROR;
    }
    if (cli_common_finish(&out->common) != 0)
        return CLI_PARSED_ERROR;
    if (counting && (out->grids || out->estimate || out->essential)
        && check_grids(out) != 0)
        return CLI_PARSED_ERROR;
    if (out->output_lewis && (out->common.csv || out->common.pretty)) {
        fprintf(stderr,
            "sudolab solve: --output lewis does not combine with --csv or "
            "--pretty\n");
        return CLI_PARSED_ERROR;
    }
    if (out->use_split && out->print_all) {
        fprintf(stderr, "sudolab count: --print does not combine with -j or --shard\n");
        return CLI_PARSED_ERROR;
    }
    return CLI_PARSED_RUN;
}

enum cli_parsed solve_parse(int argc, char **argv, struct solve_cli *out)
{
    return parse(argc, argv, false, out);
}

enum cli_parsed count_parse(int argc, char **argv, struct solve_cli *out)
{
    return parse(argc, argv, true, out);
}

/* count by subproblems: rows from the runner (this process's threads, or
 * the ranks of sudolab-mpi), printed as count's lines or as a partial. */
struct split_printer {
    const struct solve_cli *cli;
    struct solve_row_style style;
    unsigned long failures;
};

static bool print_count_row(void *ctx, const struct count_row *row)
{
    struct split_printer *p = ctx;
    const struct cli_common *c = &p->cli->common;
    if (count_row_report(stderr, c->limit, row))
        p->failures++;
    if (p->cli->split.partial)
        count_partial_row(stdout, c->solver, row);
    else
        count_row_print(stdout, &p->style, c->limit, row);
    return true;
}

static int run_split(const struct solve_cli *a)
{
    const struct cli_common *c = &a->common;
    const struct count_options o = { c->solver, c->limit, c->budget_steps, c->budget_ms,
        cli_input(c, dist_messages()), a->split.split, a->split.threads };
    struct split_printer p = { a, { c->solver, true, c->csv, false }, 0 };
    if (dist_output() && a->split.partial)
        count_partial_header(stdout, &o, &a->split.shard);
    else if (dist_output() && c->csv)
        solve_row_header(stdout);
    const long problems
        = dist_count(&o, &a->split.shard, a->nfiles, a->files, print_count_row, &p);
    io_flush_stdout();
    return problems != 0 || p.failures ? CLI_SKIPPED : CLI_OK;
}

int solve_run(const struct solve_cli *a)
{
    if (a->grids)
        return run_grids(a);
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
    struct input_options in = cli_input(&a->common, stderr);
    in.head = a->head;
    const unsigned long problems
        = input_walk(&in, a->nfiles, a->files, solve_entry, &run);
    solver_close(run.inst);
    return problems || run.failures ? CLI_SKIPPED : CLI_OK;
}

int cmd_solve(int argc, char **argv)
{
    struct solve_cli cli;
    const enum cli_parsed p = solve_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&solve_table, stdout);
    return p == CLI_PARSED_RUN ? solve_run(&cli) : cli_parsed_status(p);
}

int cmd_count(int argc, char **argv)
{
    struct solve_cli cli;
    const enum cli_parsed p = count_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&count_table, stdout);
    return p == CLI_PARSED_RUN ? solve_run(&cli) : cli_parsed_status(p);
}
