/* sudolab bench: back ends x corpora, one tidy row per puzzle, a summary per
 * back end and corpus, a cross-check of every answer. This file reads the
 * options and chooses the back ends; the run itself, from reading the
 * corpora to the exit status, is the bench session (bench/bench_session.h),
 * run through this process's runner (scaleout/dist.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench_session.h"
#include "cli/cli.h"
#include "cli/cmd_bench.h"
#include "cli/commands.h"
#include "common/clock.h"
#include "scaleout/dist.h"
#include "solvers/outside.h"
#include "solvers/registry.h"

enum {
    BENCH_DEFAULT_BUDGET_MS = 10000, /* naive on a 17-clue puzzle can take hours */
};

/* Appends the back ends matching pattern, in registry order, skipping ones
 * already chosen. Returns how many matched (chosen before or not). */
static int select_pattern(const char *pattern, const struct solver **chosen, size_t *n)
{
    if (outside_is_spec(pattern)) {
        /* so:PATH, cmd:COMMAND: one back end by its spec, never a wildcard */
        const struct solver *s = solver_find(pattern);
        bool dup = false;
        for (size_t k = 0; s && k < *n; k++)
            dup |= chosen[k] == s;
        if (s && !dup && *n < BENCH_MAX_SELECTED)
            chosen[(*n)++] = s;
        return s != NULL;
    }
    int matched = 0;
    for (size_t i = 0; solver_registry[i]; i++) {
        const struct solver *s = solver_registry[i];
        if (!solver_name_matches(pattern, s->name))
            continue;
        matched++;
        bool dup = false;
        for (size_t k = 0; k < *n; k++)
            dup |= chosen[k] == s;
        if (!dup && *n < BENCH_MAX_SELECTED)
            chosen[(*n)++] = s;
    }
    return matched;
}

/* --solver NAME: one more pattern here, not the only back end */
static int add_pattern(const struct cli_value *v)
{
    struct bench_cli *cli = v->field;
    if (cli->npatterns < BENCH_MAX_SELECTED)
        cli->patterns[cli->npatterns++] = v->arg;
    return CLI_VALUE_OK;
}

/* --solvers A,B,...: patterns pointing into a copy of the list */
static int add_pattern_list(const struct cli_value *v)
{
    struct bench_cli *cli = v->field;
    if (cli->nlists == BENCH_MAX_SELECTED)
        return CLI_VALUE_OK;
    char *list = strdup(v->arg);
    if (!list)
        return CLI_VALUE_SAID;
    cli->solver_lists[cli->nlists++] = list;
    for (char *save = NULL, *tok = strtok_r(list, ",", &save);
         tok && cli->npatterns < BENCH_MAX_SELECTED; tok = strtok_r(NULL, ",", &save))
        cli->patterns[cli->npatterns++] = tok;
    return CLI_VALUE_OK;
}

/* --tdoku-protocol: tdoku's protocol includes permuting the puzzles */
static int set_tdoku_protocol(const struct cli_value *v)
{
    struct bench_options *opt = v->field;
    opt->tdoku_protocol = true;
    opt->permute = true;
    return CLI_VALUE_OK;
}

#define BENCH_FIELD(member) offsetof(struct bench_cli, member)
#define BENCH_NUMBER "a number"

static const struct cli_option bench_options[] = {
    CLI_LINE("usage: sudolab bench [options] FILE...\n"
             "Benchmarks back ends over corpus files: one row per corpus, puzzle, solver "
             "and\n"
             "repeat (runs.csv), a summary per solver and corpus, every answer verified "
             "and\n"
             "solution counts cross-checked between solvers."),
    { .kind = CLI_CUSTOM,
        .name = "solvers",
        .metavar = "LIST",
        .help = "comma-separated names or wildcards (default: all)",
        .field = CLI_WHOLE,
        .parse = add_pattern_list },
    { .kind = CLI_CUSTOM,
        .name = "solver",
        .metavar = "NAME",
        .field = CLI_WHOLE,
        .parse = add_pattern },
    { .kind = CLI_STRING,
        .name = "baseline",
        .metavar = "NAME",
        .help = "speed ratios against this solver (default: the first)",
        .field = BENCH_FIELD(baseline_name) },
    CLI_OPTION_LIMIT("1 first solution, 2 uniqueness (default), 0 all"),
    CLI_OPTION_BUDGET_STEPS("give up (status limit) after N steps of the back end"),
    CLI_OPTION_BUDGET_MS("give up after N ms per puzzle (default 10000, 0 = none)"),
    { .kind = CLI_UNSIGNED,
        .name = "repeat",
        .metavar = "K",
        .help = "solve each puzzle K times (summaries use the median) and\n"
                "time at least K whole passes",
        .field = BENCH_FIELD(opt.repeat),
        .min = 1,
        .max = 1000000,
        .expected = BENCH_NUMBER },
    { .kind = CLI_U64,
        .name = "warmup-ms",
        .metavar = "MS",
        .help = "untimed warm-up per thread, solver and corpus (default 50)",
        .field = BENCH_FIELD(opt.warmup_ms),
        .expected = BENCH_NUMBER },
    { .kind = CLI_U64,
        .name = "pass-ms",
        .metavar = "MS",
        .help = "whole-pass throughput for fast solvers: time passes for at\n"
                "least MS (default 300; 0 = off)",
        .field = BENCH_FIELD(opt.pass_ms),
        .expected = BENCH_NUMBER },
    { .kind = CLI_DOUBLE,
        .name = "fast-us",
        .metavar = "US",
        .help = "time passes for solvers whose warm-up pass averages under\n"
                "US microseconds per puzzle (default 100; and always for\n"
                "solvers marked fast)",
        .field = BENCH_FIELD(opt.fast_us),
        .expected = BENCH_NUMBER },
    { .kind = CLI_CUSTOM,
        .name = "tdoku-protocol",
        .help = "tdoku's protocol: permuted puzzles, parsing inside the\n"
                "timed passes",
        .field = BENCH_FIELD(opt),
        .parse = set_tdoku_protocol },
    { .kind = CLI_FLAG,
        .name = "permute",
        .help = "solve a random isomorph of each puzzle (see --seed)",
        .field = BENCH_FIELD(opt.permute) },
    { .kind = CLI_U64,
        .name = "seed",
        .metavar = "S",
        .help = "seed of --permute and of stochastic back ends (default\n"
                "from the clock; printed)",
        .field = BENCH_FIELD(opt.seed),
        .given = CLI_GIVEN(struct bench_cli, seed_set),
        .expected = BENCH_NUMBER },
    { .kind = CLI_UNSIGNED,
        .name = "seeds",
        .metavar = "K",
        .help = "run each incomplete (stochastic) back end K times per\n"
                "puzzle, with seeds S, S+1, ..., S+K-1 (runs.csv's repeat\n"
                "K is seed S+K-1); complete ones run once",
        .field = BENCH_FIELD(opt.seeds),
        .min = 1,
        .max = 1000000,
        .expected = BENCH_NUMBER },
    { .kind = CLI_ULONG,
        .name = "head",
        .metavar = "N",
        .help = "only the first N entries of each corpus",
        .field = BENCH_FIELD(opt.head),
        .expected = BENCH_NUMBER },
    { .kind = CLI_ULONG,
        .name = "sample",
        .metavar = "N",
        .help = "time back ends not marked fast (sudolab list) on the\n"
                "first N entries of each corpus only, and --se-rate rates\n"
                "those (0 = all, the default)",
        .field = BENCH_FIELD(opt.sample),
        .expected = BENCH_NUMBER },
    { .kind = CLI_CUSTOM,
        .name = "shard",
        .metavar = "K/N",
        .help = "only the entries K-1 mod N of the run (for sudolab merge)",
        .field = BENCH_FIELD(opt.shard),
        .parse = cli_parse_shard },
    { .kind = CLI_FLAG,
        .name = "expect",
        .help = "check counts written after puzzles (puzzle:1, :2+, :0,\n"
                ":invalid)",
        .field = BENCH_FIELD(opt.expect) },
    { .kind = CLI_FLAG,
        .name = "se-rate",
        .help = "rate puzzles on Sudoku Explainer's scale (ER/EP/ED) unless\n"
                "their lines do (`puzzle ED=7.1/1.2/1.2`, `puzzle,7.1`);\n"
                "runs.csv then ends with se_er,se_ep,se_ed",
        .field = BENCH_FIELD(opt.se_rate) },
    { .kind = CLI_U64,
        .name = "se-rate-ms",
        .metavar = "MS",
        .help = "give up a rating after MS of its thread's CPU time\n"
                "(default 2000, 0 = none; its cells stay empty)",
        .field = BENCH_FIELD(opt.se_rate_ms),
        .expected = BENCH_NUMBER },
    { .kind = CLI_UNSIGNED,
        .name = "jobs",
        .letter = 'j',
        .metavar = "N",
        .help = "threads (default 1; timings are cleanest with 1)",
        .field = BENCH_FIELD(opt.threads),
        .min = 1,
        .max = 1024,
        .expected = BENCH_NUMBER },
    { .kind = CLI_STRING,
        .name = "out",
        .metavar = "DIR",
        .help = "write runs.csv, summary.csv and env.txt into DIR",
        .field = BENCH_FIELD(out_dir) },
    { .kind = CLI_FLAG,
        .name = "resume",
        .help = "continue DIR/runs.csv, skipping the rows already there",
        .field = BENCH_FIELD(resume) },
    CLI_OPTION_CSV("rows on stdout as they complete (the summary goes to stderr)"),
    { .kind = CLI_FLAG,
        .name = "quiet",
        .help = "no progress bar and no summary table",
        .field = BENCH_FIELD(quiet) },
    CLI_LINE(
        "  --size RxC, --variant V, --format F, --empty RxC: as for `sudolab solve`"),
    CLI_OPTION_SIZE(NULL),
    CLI_OPTION_VARIANT(NULL),
    CLI_OPTION_FORMAT(NULL),
    CLI_OPTION_EMPTY(NULL),
    CLI_OPTION_PRETTY(NULL),
    CLI_OPTION_HELP,
};

const struct cli_table bench_table = CLI_TABLE("sudolab bench", bench_options);

/* The back ends the patterns name (all by default) that can do what was
 * asked, and the baseline among them. Returns 0, or -1 after saying why (on
 * dist_messages(): sudolab-mpi's ranks parse alike, and one says it). */
static int select_solvers(struct bench_cli *cli)
{
    FILE *err = dist_messages();
    const struct solver **chosen = cli->solvers;
    size_t nchosen = 0;
    for (int i = 0; i < cli->npatterns; i++) {
        if (select_pattern(cli->patterns[i], chosen, &nchosen) == 0) {
            fprintf(err, "sudolab bench: no solver matches '%s' (see `sudolab list`)\n",
                cli->patterns[i]);
            return -1;
        }
    }
    if (cli->npatterns == 0)
        select_pattern("*", chosen, &nchosen);
    size_t kept = 0;
    for (size_t i = 0; i < nchosen; i++) {
        if (cli->opt.limit != 1 && chosen[i]->caps & SOLVER_CAP_INCOMPLETE) {
            fprintf(err,
                "sudolab bench: %s is incomplete (stochastic search): it runs at limit 1 "
                "and stays out of the cross-check of counts\n",
                chosen[i]->name);
        } else if (cli->opt.limit != 1 && !(chosen[i]->caps & SOLVER_CAP_COUNT)) {
            fprintf(err,
                "sudolab bench: %s finds one solution only: left out (use --limit 1)\n",
                chosen[i]->name);
            continue;
        }
        chosen[kept++] = chosen[i];
    }
    cli->nsolvers = kept;
    if (kept == 0) {
        fprintf(err, "sudolab bench: no solver left to run\n");
        return -1;
    }
    cli->baseline = 0;
    if (cli->baseline_name) {
        while (cli->baseline < kept
            && strcmp(chosen[cli->baseline]->name, cli->baseline_name) != 0)
            cli->baseline++;
        if (cli->baseline == kept) {
            fprintf(err, "sudolab bench: --baseline %s is not among the solvers run\n",
                cli->baseline_name);
            return -1;
        }
    }
    return 0;
}

static void bench_defaults(struct bench_cli *cli, int argc, char **argv)
{
    memset(cli, 0, sizeof(*cli));
    cli_common_defaults(&cli->common, 2);
    cli->common.budget_ms = BENCH_DEFAULT_BUDGET_MS;
    cli->opt.repeat = 1;
    cli->opt.threads = 1;
    cli->opt.warmup_ms = 50;
    cli->opt.pass_ms = 300;
    cli->opt.fast_us = 100;
    cli->opt.se_rate_ms = 2000;
    cli->argc = argc;
    cli->argv = argv;
}

enum cli_parsed bench_parse(int argc, char **argv, struct bench_cli *out)
{
    bench_defaults(out, argc, argv);
    int first;
    const enum cli_parsed p
        = cli_parse(&bench_table, argc, argv, out, &out->common, &first);
    if (p != CLI_PARSED_RUN)
        return p;
    out->opt.limit = out->common.limit;
    out->opt.budget_steps = out->common.budget_steps;
    out->opt.budget_ms = out->common.budget_ms;
    out->opt.progress = !out->quiet && isatty(STDERR_FILENO);
    out->nfiles = argc - first;
    out->files = argv + first;
    if (out->nfiles == 0 && out->common.nempty == 0) {
        fprintf(stderr, "sudolab bench: no corpus files (see --help)\n");
        return CLI_PARSED_ERROR;
    }
    if (out->opt.seeds > 1) {
        if (out->opt.repeat > 1) {
            fprintf(stderr,
                "sudolab bench: --seeds and --repeat do not combine: each "
                "seed's run is a sample of its own\n");
            return CLI_PARSED_ERROR;
        }
        out->opt.repeat = out->opt.seeds;
    }
    if (out->resume && !out->out_dir) {
        fprintf(stderr, "sudolab bench: --resume needs --out DIR\n");
        return CLI_PARSED_ERROR;
    }
    return select_solvers(out) == 0 ? CLI_PARSED_RUN : CLI_PARSED_ERROR;
}

void bench_cli_free(struct bench_cli *cli)
{
    for (int i = 0; i < cli->nlists; i++)
        free(cli->solver_lists[i]);
    cli->nlists = 0;
}

int bench_run(struct bench_cli *cli)
{
    if (!cli->seed_set)
        cli->opt.seed = clock_now_ns() ^ ((uint64_t) getpid() << 32);
    const struct bench_session_options o = {
        .opt = cli->opt,
        .solvers = cli->solvers,
        .nsolvers = cli->nsolvers,
        .baseline = cli->baseline,
        .input = cli_input(&cli->common, dist_messages()),
        .nfiles = cli->nfiles,
        .files = cli->files,
        .out_dir = cli->out_dir,
        .resume = cli->resume,
        .quiet = cli->quiet,
        .csv = cli->common.csv,
        .argc = cli->argc,
        .argv = cli->argv,
        .run = dist_bench,
        .messages = dist_messages(),
    };
    return bench_session_run(&o);
}

int cmd_bench(int argc, char **argv)
{
    struct bench_cli cli;
    const enum cli_parsed p = bench_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&bench_table, stdout);
    const int rc = p == CLI_PARSED_RUN ? bench_run(&cli) : cli_parsed_status(p);
    bench_cli_free(&cli);
    return rc;
}
