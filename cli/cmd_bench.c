/* sudolab bench: back ends x corpora, one tidy row per puzzle, a summary per
 * back end and corpus, a cross-check of every answer. The machinery is in
 * bench_run.c (plan, threads, timing), bench_summary.c (tables), bench_csv.c
 * (runs.csv) and bench_env.c (env.txt); this file turns options into a plan
 * and decides the exit status: 0 all agreed, 1 something was skipped, failed
 * or disagreed, 2 usage, 130 (SIGINT) or 143 (SIGTERM) interrupted (whatever
 * was done is saved). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench_env.h"
#include "bench/bench_run.h"
#include "bench/bench_se.h"
#include "bench/bench_stats.h"
#include "bench/bench_summary.h"
#include "bench/out_lock.h"
#include "cli/cli.h"
#include "cli/cmd_bench.h"
#include "cli/commands.h"
#include "common/exit_status.h"
#include "common/io.h"
#include "common/shard.h"
#include "common/text.h"
#include "scaleout/dist.h"
#include "solvers/outside.h"
#include "solvers/registry.h"

enum {
    BENCH_DEFAULT_BUDGET_MS = 10000, /* naive on a 17-clue puzzle can take hours */
};

/* Set by SIGINT/SIGTERM to the signal's number; the workers stop taking
 * puzzles. A signal handler can reach nothing else, hence this one
 * file-level variable. */
static atomic_int bench_stop;

static void on_signal(int sig)
{
    if (atomic_load(&bench_stop)) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    atomic_store(&bench_stop, sig);
    static const char msg[] = "\nsudolab bench: interrupted: finishing the puzzles being "
                              "solved (again to abort)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);
    (void) ignored;
}

struct load_ctx {
    struct bench_plan *plan;
    char source[BENCH_CORPUS_NAME_MAX]; /* of the corpus being filled (a copy:
                                             the walk frees its name) */
    int ci;
    bool failed;
    unsigned long broken; /* entries whose clues break a rule */
    FILE *err; /* where they are said (dist_messages()) */
};

enum { MAX_BROKEN_MESSAGES = 20 };

static bool load_entry(void *ctx, const struct input_entry *e)
{
    struct load_ctx *lc = ctx;
    /* a file's entries count from 1 again: the same file given twice is two
     * corpora (literal puzzles and --empty grids have index 0 and stay one) */
    if (lc->ci < 0 || strcmp(lc->source, e->source) != 0 || e->item->index == 1) {
        lc->ci = bench_plan_add_corpus(lc->plan, e->source);
        snprintf(lc->source, sizeof(lc->source), "%s", e->source);
        if (lc->ci < 0) {
            lc->failed = true;
            return false;
        }
    }
    /* said once here, not once per back end; the rows still record `invalid` */
    char why[160];
    if (e->ok && grid_find_conflict(&e->item->puzzle, why, sizeof(why))
        && ++lc->broken <= MAX_BROKEN_MESSAGES)
        fprintf(lc->err, "%s:%lu: %s\n", e->source, e->line, why);
    if (bench_plan_add_puzzle(lc->plan, (size_t) lc->ci, e->item, e->ok) != 0) {
        lc->failed = true;
        return false;
    }
    return true;
}

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
        .help = "give up a rating after MS (default 2000, 0 = none; its\n"
                "cells stay empty)",
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

static FILE *open_in(
    const char *dir, const char *name, const char *mode, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    return fopen(path, mode);
}

/* With --resume: the options that make rows comparable must be those of the
 * run being continued, as its env.txt recorded them (the last value of each
 * key, so a run resumed before is read right). Returns 0, or -1 after saying
 * which differs. A missing env.txt or key is not checked. */
static int check_resumable(const struct bench_cli *cli, const struct bench_plan *plan)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/env.txt", cli->out_dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    const struct bench_options *o = &plan->opt;
    char now[6][40];
    snprintf(now[0], sizeof(now[0]), "%llu", (unsigned long long) o->limit);
    snprintf(now[1], sizeof(now[1]), "%s", o->permute ? "yes" : "no");
    snprintf(now[2], sizeof(now[2]), "%llu", (unsigned long long) o->seed);
    snprintf(now[3], sizeof(now[3]), "%u", o->repeat);
    snprintf(now[4], sizeof(now[4]), "%llu", (unsigned long long) o->budget_ms);
    snprintf(now[5], sizeof(now[5]), "%u", o->seeds ? o->seeds : 1);
    static const char *const keys[6]
        = { "limit", "permute", "seed", "repeat", "budget_ms", "seeds" };
    char was[6][40] = { "", "", "", "", "", "" };
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        for (int k = 0; k < 6; k++) {
            const size_t len = strlen(keys[k]);
            if (strncmp(line, keys[k], len) == 0 && strncmp(line + len, ": ", 2) == 0)
                snprintf(was[k], sizeof(was[k]), "%.39s", line + len + 2);
        }
    }
    fclose(f);
    for (int k = 0; k < 6; k++) {
        if (k == 2 && !o->permute && o->seeds <= 1)
            continue; /* the seed matters for permuted puzzles and seeded runs */
        if (was[k][0] && strcmp(was[k], now[k]) != 0) {
            fprintf(stderr,
                "sudolab bench: not resuming %s: its %s was %s, now %s (give the same "
                "options%s)\n",
                cli->out_dir, keys[k], was[k], now[k], k == 2 ? ", with --seed" : "");
            return -1;
        }
    }
    return 0;
}

/* --resume: the file being continued decides whether rows have the SE
 * columns, so that all its rows have the same ones. Leaves f at its start. */
static void keep_se_columns(FILE *f, const char *path, struct bench_plan *plan)
{
    char line[BENCH_CSV_LINE_MAX];
    struct bench_csv_columns cols;
    if (!fgets(line, sizeof(line), f)
        || bench_csv_parse_header(line, &cols, NULL, 0) != 0) {
        rewind(f);
        return; /* the resume proper says what is wrong */
    }
    rewind(f);
    const bool has = cols.se[0] >= 0;
    if (plan->se_columns && !has)
        fprintf(stderr,
            "%s: no se_er,se_ep,se_ed columns: the rows added leave the ratings out "
            "too\n",
            path);
    plan->se_columns = has;
}

/* Opens DIR/runs.csv for appending: fresh (header first) or, with --resume,
 * after reading the rows already there into the plan and cutting off a torn
 * last row. Returns the fd or -1. */
static int open_runs(struct bench_cli *cli, struct bench_plan *plan, long *resumed)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/runs.csv", cli->out_dir);
    long valid = 0;
    *resumed = 0;
    if (cli->resume) {
        FILE *f = fopen(path, "r");
        if (f) {
            char why[200];
            keep_se_columns(f, path, plan);
            *resumed = bench_plan_resume(plan, f, &valid, why, sizeof(why));
            fclose(f);
            if (*resumed < 0) {
                fprintf(stderr, "%s: %s (not resuming from it)\n", path, why);
                return -1;
            }
        }
    }
    const int fd
        = open(path, O_WRONLY | O_CREAT | O_APPEND | (cli->resume ? 0 : O_TRUNC), 0666);
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    if (cli->resume && ftruncate(fd, valid) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (valid == 0) {
        char header[BENCH_CSV_LINE_MAX];
        const size_t len = bench_csv_header_seeded(
            header, sizeof(header), plan->se_columns, plan->opt.seeds > 1);
        if (write(fd, header, len) != (ssize_t) len) {
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
            close(fd);
            return -1;
        }
    }
    return fd;
}

/* What each outside back end is, and its spec: sudolab merge opens a back end
 * again by its spec, since its name (a label, or one derived from a path)
 * says too little. A spec holding a line break could not be read back as one
 * line, and is left out (merge then says the back end cannot be found). */
static void write_outside_facts(FILE *f, const struct bench_plan *plan)
{
    for (size_t si = 0; si < plan->nsolvers; si++) {
        const char *note = outside_note(plan->solvers[si]);
        if (note)
            fprintf(f, "outside: %s\n", note);
    }
    for (size_t si = 0; si < plan->nsolvers; si++) {
        const char *spec = outside_spec(plan->solvers[si]);
        if (spec && !strpbrk(spec, "\r\n"))
            fprintf(f, "solver_spec: %s %s\n", plan->solvers[si]->name, spec);
    }
}

static void write_run_facts(FILE *f, const struct bench_cli *cli,
    const struct bench_plan *plan, int argc, char **argv, double overhead,
    double resolution, size_t baseline)
{
    /* argv[0] is the subcommand: no path of this machine ends up in env.txt */
    fputs("command: sudolab", f);
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fputc('\n', f);
    fputs("solvers:", f);
    for (size_t si = 0; si < plan->nsolvers; si++)
        fprintf(f, " %s", plan->solvers[si]->name);
    fputc('\n', f);
    fprintf(f, "baseline: %s\n",
        baseline < plan->nsolvers ? plan->solvers[baseline]->name : "");
    write_outside_facts(f, plan);
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        fprintf(
            f, "corpus: %s (%zu puzzles)\n", plan->corpora[ci].name, plan->corpora[ci].n);
    const struct bench_options *o = &plan->opt;
    fprintf(f, "limit: %llu\n", (unsigned long long) o->limit);
    fprintf(f, "budget_ms: %llu\n", (unsigned long long) o->budget_ms);
    fprintf(f, "budget_steps: %llu\n", (unsigned long long) o->budget_steps);
    fprintf(f, "repeat: %u\n", o->repeat);
    fprintf(f, "threads: %u\n", o->threads);
    fprintf(f, "warmup_ms: %llu\n", (unsigned long long) o->warmup_ms);
    fprintf(f, "pass_ms: %llu\n", (unsigned long long) o->pass_ms);
    fprintf(f, "fast_us: %.0f\n", o->fast_us);
    fprintf(f, "tdoku_protocol: %s\n", o->tdoku_protocol ? "yes" : "no");
    fprintf(f, "permute: %s\n", o->permute ? "yes" : "no");
    fprintf(f, "seed: %llu\n", (unsigned long long) o->seed);
    fprintf(f, "seeds: %u\n", o->seeds ? o->seeds : 1);
    fprintf(f, "head: %lu\n", o->head);
    fprintf(f, "se_rate: %s\n", o->se_rate ? "yes" : "no");
    if (o->se_rate)
        fprintf(f, "se_rate_ms: %llu\n", (unsigned long long) o->se_rate_ms);
    /* what sudolab merge checks: the split, and the corpora as read */
    fprintf(
        f, "shard: %u/%u\n", o->shard.n ? o->shard.k : 1, o->shard.n ? o->shard.n : 1);
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        fprintf(f, "corpus_fingerprint: %s %lu %016llx\n", plan->corpora[ci].name,
            plan->corpora[ci].entries,
            (unsigned long long) plan->corpora[ci].fingerprint.hash);
    fprintf(f, "resume: %s\n", cli->resume ? "yes" : "no");
    fprintf(f, "timer_overhead_ns: %.1f\n", overhead);
    fprintf(f, "timer_resolution_ns: %.0f\n", resolution);
}

/* One bench run as it goes: the plan and what the steps found. */
struct session {
    struct bench_cli *cli;
    struct bench_plan plan;
    FILE *info; /* progress and summary: stdout, or stderr under --csv */
    FILE *env; /* DIR/env.txt, NULL without --out */
    long resumed; /* rows already in DIR/runs.csv */
    double overhead, resolution; /* of the timer, in ns */
    unsigned long problems; /* inputs that could not be read */
    int rc; /* of the run itself */
    double wall_s;
    struct bench_cpu_times cpu_before, cpu_after; /* around the run itself */
    struct out_lock lock; /* of DIR, held from open_outputs to the end */
    int interrupted; /* by this signal; 0: not */
    unsigned long disagreements;
    size_t pending; /* runs not done */
};

/* --se-rate: the ratings the corpora did not give, before the run. */
static void rate_se(struct session *s)
{
    const uint64_t start = clock_now_ns();
    unsigned long late = 0;
    const unsigned long rated = bench_plan_rate_se(&s->plan, &late);
    if (s->cli->quiet)
        return;
    fprintf(s->info, "rated %lu puzzle%s on Sudoku Explainer's scale in %.1f s", rated,
        rated == 1 ? "" : "s", (double) (clock_now_ns() - start) / 1e9);
    if (late)
        fprintf(s->info, "; %lu ran out of their %llu ms (left unrated)", late,
            (unsigned long long) s->cli->opt.se_rate_ms);
    fputc('\n', s->info);
}

/* Reads the corpora into the plan. Returns 0, or an exit status after saying
 * why (the plan is then freed). */
static int load_corpora(struct session *s)
{
    struct bench_cli *cli = s->cli;
    FILE *err = dist_messages();
    bench_plan_init(&s->plan, &cli->opt, cli->solvers, cli->nsolvers);
    struct load_ctx lc = { .plan = &s->plan, .ci = -1, .err = err };
    const struct input_options in = cli_input(&cli->common, err);
    s->problems = input_walk(&in, cli->nfiles, cli->files, load_entry, &lc);
    if (lc.broken > MAX_BROKEN_MESSAGES)
        fprintf(err, "sudolab bench: %lu more puzzles whose clues break a rule\n",
            lc.broken - MAX_BROKEN_MESSAGES);
    s->problems += lc.broken;
    if (!lc.failed && cli->opt.se_rate)
        rate_se(s);
    if (lc.failed || bench_plan_finish(&s->plan) != 0) {
        fprintf(err, "sudolab bench: out of memory\n");
        bench_plan_free(&s->plan);
        return CLI_SKIPPED;
    }
    if (s->plan.ncorpora == 0) {
        fprintf(err, "sudolab bench: no puzzles to run\n");
        bench_plan_free(&s->plan);
        return CLI_SKIPPED;
    }
    return 0;
}

static void print_intro(const struct session *s)
{
    const struct bench_plan *plan = &s->plan;
    size_t npuzzles = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        npuzzles += plan->corpora[ci].n;
    fprintf(s->info,
        "sudolab bench: %zu solvers x %zu corpora (%zu puzzles), limit %llu, "
        "budget %llu ms%s, repeat %u, %u thread%s\n",
        plan->nsolvers, plan->ncorpora, npuzzles, (unsigned long long) plan->opt.limit,
        (unsigned long long) plan->opt.budget_ms,
        plan->opt.budget_steps ? " + steps" : "", plan->opt.repeat, plan->opt.threads,
        plan->opt.threads == 1 ? "" : "s");
    fprintf(s->info,
        "seed %llu%s; timer overhead %.1f ns per read (resolution %.0f ns)\n",
        (unsigned long long) plan->opt.seed,
        plan->opt.permute ? " (puzzles permuted)" : "", s->overhead, s->resolution);
    for (size_t si = 0; si < plan->nsolvers; si++) {
        const char *note = outside_note(plan->solvers[si]);
        if (note)
            fprintf(s->info, "%s\n", note);
    }
    fflush(s->info);
}

/* What open_outputs returns when it fails: the status, after letting go of
 * the lock and the plan. */
static int outputs_failed(struct session *s, int status)
{
    out_lock_release(&s->lock);
    bench_plan_free(&s->plan);
    return status;
}

/* --out DIR: the directory and its lock (one run per output), runs.csv
 * (continued with --resume) and env.txt with the machine and the run's facts.
 * Returns 0, or an exit status after saying why (the plan is then freed). */
static int open_outputs(struct session *s)
{
    struct bench_cli *cli = s->cli;
    char path[4200];
    if (io_make_dirs(cli->out_dir) != 0) {
        fprintf(stderr, "%s: %s\n", cli->out_dir, strerror(errno));
        return outputs_failed(s, CLI_SKIPPED);
    }
    if (out_lock_take(&s->lock, cli->out_dir, "sudolab bench", stderr) != 0)
        return outputs_failed(s, CLI_SKIPPED);
    if (cli->resume && check_resumable(cli, &s->plan) != 0)
        return outputs_failed(s, CLI_USAGE);
    s->plan.out_fd = open_runs(cli, &s->plan, &s->resumed);
    s->env
        = open_in(cli->out_dir, "env.txt", cli->resume ? "a" : "w", path, sizeof(path));
    if (s->plan.out_fd < 0 || !s->env) {
        if (!s->env)
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
        if (s->plan.out_fd >= 0)
            close(s->plan.out_fd);
        if (s->env)
            fclose(s->env);
        return outputs_failed(s, CLI_SKIPPED);
    }
    if (cli->resume)
        fputs("--- resumed ---\n", s->env);
    bench_env_write_machine(s->env);
    write_run_facts(s->env, cli, &s->plan, cli->argc, cli->argv, s->overhead,
        s->resolution, cli->baseline);
    bench_env_write_isa_paths(s->env, s->plan.solvers, s->plan.nsolvers);
    bench_env_write_before(s->env, "");
    fflush(s->env);
    if (cli->resume && !cli->quiet)
        fprintf(s->info, "resuming: %ld rows already in %s/runs.csv\n", s->resumed,
            cli->out_dir);
    return 0;
}

/* --csv: the rows go to stdout as well, after a header. */
static void start_csv_rows(struct bench_plan *plan)
{
    char header[BENCH_CSV_LINE_MAX];
    fflush(stdout);
    const size_t len = bench_csv_header_seeded(
        header, sizeof(header), plan->se_columns, plan->opt.seeds > 1);
    if (!io_write_all(STDOUT_FILENO, header, len)) {
        plan->write_errors++;
        plan->csv_errno = errno;
    }
    plan->csv_fd = STDOUT_FILENO;
}

/* Runs the plan (through the runner: threads or ranks) with SIGINT and
 * SIGTERM asking the workers to stop. */
static void run_plan(struct session *s)
{
    atomic_store(&bench_stop, 0);
    s->plan.stop = &bench_stop;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    bench_env_read_cpu_times("", &s->cpu_before);
    const uint64_t start = clock_now_ns();
    s->rc = dist_bench(&s->plan);
    s->wall_s = (double) (clock_now_ns() - start) / 1e9;
    bench_env_read_cpu_times("", &s->cpu_after);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    s->interrupted = atomic_load(&bench_stop);
}

/* arg as one shell word: quoted unless every byte is one a shell leaves be */
static void put_shell_word(FILE *f, const char *arg)
{
    if (arg[0]
        && strspn(arg,
               "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
               "0123456789_-+=./:,@%")
            == strlen(arg)) {
        fputs(arg, f);
        return;
    }
    fputc('\'', f);
    for (const char *p = arg; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    }
    fputc('\'', f);
}

/* How far an interrupted run got, and the command that continues it: this
 * one's, with --resume (a researcher back in the morning copies it). */
static void say_interrupted(const struct session *s, FILE *err)
{
    const struct bench_cli *cli = s->cli;
    const size_t all = (size_t) s->resumed + s->plan.cells_total;
    fprintf(err, "sudolab bench: interrupted (%s) after %zu of %zu rows",
        s->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", all - s->pending, all);
    if (!cli->out_dir) {
        fputs(" (no --out DIR: run again to redo it)\n", err);
        return;
    }
    fprintf(err, "; the rows done are in %s/runs.csv\nto continue: sudolab %s",
        cli->out_dir, cli->argv[0]);
    bool resume = false;
    for (int i = 1; i < cli->argc; i++)
        resume |= strcmp(cli->argv[i], "--resume") == 0;
    if (!resume)
        fputs(" --resume", err); /* first: options go before the files */
    for (int i = 1; i < cli->argc; i++) {
        fputc(' ', err);
        put_shell_word(err, cli->argv[i]);
    }
    fputc('\n', err);
}

/* The cross-check, the summary table and what went wrong. */
static void report(struct session *s)
{
    const struct bench_cli *cli = s->cli;
    FILE *err = dist_messages();
    s->disagreements = bench_plan_crosscheck(&s->plan, err);
    s->pending = bench_plan_pending(&s->plan);
    if (!cli->quiet) {
        bench_summary_print(&s->plan, cli->baseline, s->info);
        fputc('\n', s->info);
    }
    if (s->disagreements)
        fprintf(err, "sudolab bench: %lu puzzle%s with disagreeing answers\n",
            s->disagreements, s->disagreements == 1 ? "" : "s");
    if (s->plan.errors)
        fprintf(err, "sudolab bench: %lu failed runs (errors or wrong answers)\n",
            s->plan.errors);
    if (s->interrupted)
        say_interrupted(s, err);
    if (s->rc != 0)
        fprintf(err, "sudolab bench: could not start the worker threads\n");
}

/* --out DIR: summary.csv, and the end of env.txt (timed passes, outcome).
 * Returns false when writing failed. */
static bool finish_outputs(const struct session *s)
{
    const struct bench_cli *cli = s->cli;
    const struct bench_plan *plan = &s->plan;
    bool ok = true;
    char path[4200];
    FILE *sum = open_in(cli->out_dir, "summary.csv", "w", path, sizeof(path));
    if (!sum) {
        fprintf(stderr, "sudolab bench: %s: %s\n", path, strerror(errno));
        ok = false;
    } else {
        bench_summary_write_csv(plan, cli->baseline, sum); /* its errors: at the close */
        if (io_close_stream(sum, "sudolab bench", path) != 0)
            ok = false;
    }
    for (size_t k = 0; k < plan->nsolvers * plan->ncorpora; k++) {
        const struct bench_pass *p = &plan->passes[k];
        if (p->measured)
            fprintf(s->env, "pass: %s %s %u %zu %llu %llu\n",
                plan->solvers[k / plan->ncorpora]->name,
                plan->corpora[k % plan->ncorpora].name, p->passes, p->puzzles,
                (unsigned long long) p->total_ns, (unsigned long long) p->best_ns);
    }
    bench_env_write_after(s->env, "", &s->cpu_before, &s->cpu_after);
    fprintf(s->env, "wall_s: %.1f\n", s->wall_s);
    fprintf(s->env, "rows_resumed: %ld\n", s->resumed);
    fprintf(s->env, "runs_pending: %zu\n", s->pending);
    /* what runs.csv holds when every row reached it: merge checks it */
    fprintf(s->env, "rows: %zu\n", (size_t) s->resumed + plan->cells_total - s->pending);
    fprintf(s->env, "disagreements: %lu\n", s->disagreements);
    fprintf(s->env, "errors: %lu\n", plan->errors);
    /* what went wrong, for merge to say (every run writes it: the last one
     * in the file is the last run's, after a --resume) */
    if (plan->out_errno)
        fprintf(s->env, "failure: %s/runs.csv: %s\n", cli->out_dir,
            strerror(plan->out_errno));
    else if (s->interrupted)
        fprintf(s->env, "failure: interrupted (%s) after %zu of %zu rows\n",
            s->interrupted == SIGTERM ? "SIGTERM" : "SIGINT",
            (size_t) s->resumed + plan->cells_total - s->pending,
            (size_t) s->resumed + plan->cells_total);
    else
        fputs("failure: none\n", s->env);
    fprintf(s->env, "finished: %s\n", s->interrupted ? "interrupted" : "complete");
    snprintf(path, sizeof(path), "%s/env.txt", cli->out_dir);
    if (io_close_stream(s->env, "sudolab bench", path) != 0)
        ok = false;
    if (close(plan->out_fd) != 0) {
        fprintf(
            stderr, "sudolab bench: %s/runs.csv: %s\n", cli->out_dir, strerror(errno));
        ok = false;
    }
    if (!cli->quiet)
        fprintf(s->info, "wrote %s/runs.csv, summary.csv and env.txt\n", cli->out_dir);
    return ok;
}

/* Which output lost rows, and why (what finish_outputs could not write it
 * said itself). */
static void say_write_failed(const struct session *s)
{
    FILE *err = dist_messages();
    const char *dir = s->cli->out_dir;
    if (s->plan.csv_errno)
        fprintf(err,
            "sudolab bench: <stdout>: %s: the CSV rows there are incomplete%s%s\n",
            strerror(s->plan.csv_errno), dir ? "; all of them are in " : "",
            dir ? dir : "");
    if (s->plan.out_errno)
        fprintf(err,
            "sudolab bench: %s/runs.csv: %s: rows are missing from it (--resume runs "
            "them again)\n",
            dir, strerror(s->plan.out_errno));
    fprintf(err, "sudolab bench: writing the results failed\n");
}

int bench_run(struct bench_cli *cli)
{
    struct session s
        = { .cli = cli, .info = cli->common.csv ? stderr : stdout, .lock = { .fd = -1 } };
    if (!cli->seed_set)
        cli->opt.seed = clock_now_ns() ^ ((uint64_t) getpid() << 32);
    int status = load_corpora(&s);
    if (status != 0)
        return status;
    s.overhead = bench_timer_overhead_ns(10000);
    s.resolution = bench_timer_resolution_ns();
    if (!cli->quiet)
        print_intro(&s);
    if (cli->out_dir && (status = open_outputs(&s)) != 0)
        return status;
    if (cli->common.csv)
        start_csv_rows(&s.plan);
    run_plan(&s);
    report(&s);
    bool write_failed = s.plan.write_errors > 0;
    if (cli->out_dir && !finish_outputs(&s))
        write_failed = true;
    if (write_failed)
        say_write_failed(&s);
    bench_plan_free(&s.plan);
    out_lock_release(&s.lock);
    if (s.interrupted)
        return EXIT_STATUS_SIGNAL_BASE + s.interrupted;
    return s.problems || s.disagreements || s.plan.errors || s.rc != 0 || write_failed
        ? CLI_SKIPPED
        : CLI_OK;
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
