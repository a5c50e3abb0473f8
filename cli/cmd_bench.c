/* sudolab bench: back ends x corpora, one tidy row per puzzle, a summary per
 * back end and corpus, a cross-check of every answer. The machinery is in
 * bench_run.c (plan, threads, timing), bench_summary.c (tables), bench_csv.c
 * (runs.csv) and bench_env.c (env.txt); this file turns options into a plan
 * and decides the exit status: 0 all agreed, 1 something was skipped, failed
 * or disagreed, 2 usage, 130 interrupted (whatever was done is saved). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench_env.h"
#include "bench/bench_run.h"
#include "bench/bench_stats.h"
#include "bench/bench_summary.h"
#include "cli/cli.h"
#include "cli/cmd_bench.h"
#include "cli/commands.h"
#include "common/io.h"
#include "common/shard.h"
#include "common/text.h"
#include "dist/dist.h"
#include "solvers/registry.h"

enum {
    BENCH_DEFAULT_BUDGET_MS = 10000, /* naive on a 17-clue puzzle can take hours */
    BENCH_INTERRUPTED = 130,
    MAX_SELECTED = BENCH_MAX_SELECTED,
};

/* Set by SIGINT/SIGTERM; the workers stop taking puzzles. A signal handler
 * can reach nothing else, hence this one file-level variable. */
static atomic_int bench_stop;

static void on_signal(int sig)
{
    if (atomic_load(&bench_stop)) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    atomic_store(&bench_stop, 1);
    static const char msg[] = "\nsudolab bench: interrupted: finishing the puzzles being "
                              "solved (again to abort)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof(msg) - 1);
    (void) ignored;
}

static const char usage_text[]
    = "usage: sudolab bench [options] FILE...\n"
      "Benchmarks back ends over corpus files: one row per corpus, puzzle, solver and\n"
      "repeat (runs.csv), a summary per solver and corpus, every answer verified and\n"
      "solution counts cross-checked between solvers.\n"
      "  --solvers LIST      comma-separated names or wildcards (default: all)\n"
      "  --baseline NAME     speed ratios against this solver (default: the first)\n"
      "  --limit K           1 first solution, 2 uniqueness (default), 0 all\n"
      "  --budget-steps N    give up (status limit) after N steps of the back end\n"
      "  --budget-ms N       give up after N ms per puzzle (default 10000, 0 = none)\n"
      "  --repeat K          solve each puzzle K times; summaries use the median\n"
      "  --warmup-ms MS      untimed warm-up per thread, solver and corpus (default 50)\n"
      "  --pass-ms MS        whole-pass throughput for fast solvers: time passes for at\n"
      "                      least MS (default 300; 0 = off)\n"
      "  --fast-us US        time passes for solvers whose warm-up pass averages under\n"
      "                      US microseconds per puzzle (default 100; and always for\n"
      "                      solvers marked fast)\n"
      "  --tdoku-protocol    tdoku's protocol: permuted puzzles, parsing inside the\n"
      "                      timed passes\n"
      "  --permute           solve a random isomorph of each puzzle (see --seed)\n"
      "  --seed S            seed of --permute (default from the clock; printed)\n"
      "  --head N            only the first N entries of each corpus\n"
      "  --shard K/N         only the entries K-1 mod N of the run (for sudolab merge)\n"
      "  --expect            check counts written after puzzles (puzzle:1, :2+, :0,\n"
      "                      :invalid)\n"
      "  -j, --jobs N        threads (default 1; timings are cleanest with 1)\n"
      "  --out DIR           write runs.csv, summary.csv and env.txt into DIR\n"
      "  --resume            continue DIR/runs.csv, skipping the rows already there\n"
      "  --csv               rows on stdout as they complete (the summary goes to "
      "stderr)\n"
      "  --quiet             no progress bar and no summary table\n"
      "  --size RxC, --variant V, --format F, --empty RxC: as for `sudolab solve`\n";

struct load_ctx {
    struct bench_plan *plan;
    char source[BENCH_CORPUS_NAME_MAX]; /* of the corpus being filled (a copy:
                                             the walk frees its name) */
    int ci;
    bool failed;
    unsigned long broken; /* entries whose clues break a rule */
    FILE *err;
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
    int matched = 0;
    for (size_t i = 0; solver_registry[i]; i++) {
        const struct solver *s = solver_registry[i];
        if (!solver_name_matches(pattern, s->name))
            continue;
        matched++;
        bool dup = false;
        for (size_t k = 0; k < *n; k++)
            dup |= chosen[k] == s;
        if (!dup && *n < MAX_SELECTED)
            chosen[(*n)++] = s;
    }
    return matched;
}

static int parse_options(struct bench_cli *cli, int argc, char **argv)
{
    enum {
        OPT_SOLVERS = CLI_OPT_FIRST_FREE,
        OPT_BASELINE,
        OPT_REPEAT,
        OPT_WARMUP,
        OPT_PASS,
        OPT_FAST,
        OPT_TDOKU,
        OPT_PERMUTE,
        OPT_SEED,
        OPT_HEAD,
        OPT_EXPECT,
        OPT_OUT,
        OPT_RESUME,
        OPT_QUIET,
        OPT_SHARD,
        OPT_HELP,
    };
    static const struct option longopts[] = {
        CLI_COMMON_LONGOPTS,
        { "solvers", required_argument, NULL, OPT_SOLVERS },
        { "baseline", required_argument, NULL, OPT_BASELINE },
        { "repeat", required_argument, NULL, OPT_REPEAT },
        { "warmup-ms", required_argument, NULL, OPT_WARMUP },
        { "pass-ms", required_argument, NULL, OPT_PASS },
        { "fast-us", required_argument, NULL, OPT_FAST },
        { "tdoku-protocol", no_argument, NULL, OPT_TDOKU },
        { "permute", no_argument, NULL, OPT_PERMUTE },
        { "seed", required_argument, NULL, OPT_SEED },
        { "head", required_argument, NULL, OPT_HEAD },
        { "expect", no_argument, NULL, OPT_EXPECT },
        { "jobs", required_argument, NULL, 'j' },
        { "out", required_argument, NULL, OPT_OUT },
        { "resume", no_argument, NULL, OPT_RESUME },
        { "quiet", no_argument, NULL, OPT_QUIET },
        { "shard", required_argument, NULL, OPT_SHARD },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    int opt;
    uint64_t v;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "j:", longopts, NULL)) != -1) {
        if (opt == CLI_OPT_SOLVER) {
            /* --solver NAME is one more pattern here, not the only back end */
            if (cli->npatterns < MAX_SELECTED)
                cli->patterns[cli->npatterns++] = optarg;
            continue;
        }
        const int handled = cli_common_option(&cli->common, opt, optarg);
        if (handled < 0)
            return -1;
        if (handled)
            continue;
        const char *bad = NULL;
        switch (opt) {
        case OPT_SOLVERS:
            if (cli->nlists < MAX_SELECTED) {
                cli->solver_lists[cli->nlists] = strdup(optarg);
                if (!cli->solver_lists[cli->nlists])
                    return -1;
                for (char *save = NULL,
                          *tok = strtok_r(cli->solver_lists[cli->nlists], ",", &save);
                     tok && cli->npatterns < MAX_SELECTED;
                     tok = strtok_r(NULL, ",", &save))
                    cli->patterns[cli->npatterns++] = tok;
                cli->nlists++;
            }
            break;
        case OPT_BASELINE:
            cli->baseline_name = optarg;
            break;
        case OPT_REPEAT:
            if (text_parse_u64(optarg, &v) != 0 || v == 0 || v > 1000000)
                bad = "repeat";
            cli->opt.repeat = (unsigned) v;
            break;
        case OPT_WARMUP:
            if (text_parse_u64(optarg, &cli->opt.warmup_ms) != 0)
                bad = "warmup-ms";
            break;
        case OPT_PASS:
            if (text_parse_u64(optarg, &cli->opt.pass_ms) != 0)
                bad = "pass-ms";
            break;
        case OPT_FAST:
            if (text_parse_u64(optarg, &v) != 0)
                bad = "fast-us";
            cli->opt.fast_us = (double) v;
            break;
        case OPT_TDOKU:
            cli->opt.tdoku_protocol = true;
            cli->opt.permute = true;
            break;
        case OPT_PERMUTE:
            cli->opt.permute = true;
            break;
        case OPT_SEED:
            if (text_parse_u64(optarg, &cli->opt.seed) != 0)
                bad = "seed";
            cli->seed_set = true;
            break;
        case OPT_HEAD:
            if (text_parse_u64(optarg, &v) != 0)
                bad = "head";
            cli->opt.head = (unsigned long) v;
            break;
        case OPT_EXPECT:
            cli->opt.expect = true;
            break;
        case 'j':
            if (text_parse_u64(optarg, &v) != 0 || v == 0 || v > 1024)
                bad = "jobs";
            cli->opt.threads = (unsigned) v;
            break;
        case OPT_OUT:
            cli->out_dir = optarg;
            break;
        case OPT_RESUME:
            cli->resume = true;
            break;
        case OPT_QUIET:
            cli->quiet = true;
            break;
        case OPT_SHARD:
            if (shard_parse(optarg, &cli->opt.shard, "sudolab bench") != 0)
                return -1;
            break;
        case OPT_HELP:
            fputs(usage_text, stdout);
            return 1;
        default:
            fprintf(stderr, "sudolab bench: unknown option (see --help)\n");
            return -1;
        }
        if (bad) {
            fprintf(stderr, "sudolab bench: --%s %s: a number expected\n", bad, optarg);
            return -1;
        }
    }
    return 0;
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
    char now[5][40];
    snprintf(now[0], sizeof(now[0]), "%llu", (unsigned long long) o->limit);
    snprintf(now[1], sizeof(now[1]), "%s", o->permute ? "yes" : "no");
    snprintf(now[2], sizeof(now[2]), "%llu", (unsigned long long) o->seed);
    snprintf(now[3], sizeof(now[3]), "%u", o->repeat);
    snprintf(now[4], sizeof(now[4]), "%llu", (unsigned long long) o->budget_ms);
    static const char *const keys[5]
        = { "limit", "permute", "seed", "repeat", "budget_ms" };
    char was[5][40] = { "", "", "", "", "" };
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        for (int k = 0; k < 5; k++) {
            const size_t len = strlen(keys[k]);
            if (strncmp(line, keys[k], len) == 0 && strncmp(line + len, ": ", 2) == 0)
                snprintf(was[k], sizeof(was[k]), "%.39s", line + len + 2);
        }
    }
    fclose(f);
    for (int k = 0; k < 5; k++) {
        if (k == 2 && !o->permute)
            continue; /* the seed only matters for permuted puzzles */
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
        const size_t len = bench_csv_header(header, sizeof(header));
        if (write(fd, header, len) != (ssize_t) len) {
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
            close(fd);
            return -1;
        }
    }
    return fd;
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
    fprintf(f, "head: %lu\n", o->head);
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

/* The back ends the patterns select (all by default), those that cannot do
 * what was asked left out, and the baseline among them. Returns 0, or -1
 * after saying why (a usage error). */
static int choose_solvers(const struct bench_cli *cli, FILE *err,
    const struct solver **chosen, size_t *kept, size_t *baseline)
{
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
    *kept = 0;
    for (size_t i = 0; i < nchosen; i++) {
        if (cli->opt.limit != 1 && !(chosen[i]->caps & SOLVER_CAP_COUNT)) {
            fprintf(err,
                "sudolab bench: %s finds one solution only: left out (use --limit 1)\n",
                chosen[i]->name);
            continue;
        }
        chosen[(*kept)++] = chosen[i];
    }
    if (*kept == 0) {
        fprintf(err, "sudolab bench: no solver left to run\n");
        return -1;
    }
    *baseline = 0;
    if (cli->baseline_name) {
        while (
            *baseline < *kept && strcmp(chosen[*baseline]->name, cli->baseline_name) != 0)
            ++*baseline;
        if (*baseline == *kept) {
            fprintf(err, "sudolab bench: --baseline %s is not among the solvers run\n",
                cli->baseline_name);
            return -1;
        }
    }
    return 0;
}

/* The corpora, read into the plan. Returns an exit status (CLI_OK to go
 * on); problems counts the inputs that did not read. */
static int load_plan(const struct bench_cli *cli, struct bench_plan *plan, FILE *err,
    unsigned long *problems)
{
    struct load_ctx lc = { .plan = plan, .ci = -1, .err = err };
    const struct input_options in = cli_input(&cli->common, err);
    *problems = input_walk(&in, cli->nfiles, cli->files, load_entry, &lc);
    if (lc.broken > MAX_BROKEN_MESSAGES)
        fprintf(err, "sudolab bench: %lu more puzzles whose clues break a rule\n",
            lc.broken - MAX_BROKEN_MESSAGES);
    *problems += lc.broken;
    if (lc.failed || bench_plan_finish(plan) != 0) {
        fprintf(err, "sudolab bench: out of memory\n");
        return CLI_SKIPPED;
    }
    if (plan->ncorpora == 0) {
        fprintf(err, "sudolab bench: no puzzles to run\n");
        return CLI_SKIPPED;
    }
    return CLI_OK;
}

static void print_intro(const struct bench_plan *plan, size_t nsolvers, double overhead,
    double resolution, FILE *info)
{
    size_t npuzzles = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        npuzzles += plan->corpora[ci].n;
    fprintf(info,
        "sudolab bench: %zu solvers x %zu corpora (%zu puzzles), limit %llu, "
        "budget %llu ms%s, repeat %u, %u thread%s\n",
        nsolvers, plan->ncorpora, npuzzles, (unsigned long long) plan->opt.limit,
        (unsigned long long) plan->opt.budget_ms,
        plan->opt.budget_steps ? " + steps" : "", plan->opt.repeat, plan->opt.threads,
        plan->opt.threads == 1 ? "" : "s");
    fprintf(info, "seed %llu%s; timer overhead %.1f ns per read (resolution %.0f ns)\n",
        (unsigned long long) plan->opt.seed,
        plan->opt.permute ? " (puzzles permuted)" : "", overhead, resolution);
    fflush(info);
}

/* What a run writes besides stdout: DIR/runs.csv and DIR/env.txt. */
struct bench_outputs {
    FILE *env;
    long resumed;
    double overhead, resolution;
    size_t baseline;
};

/* Opens DIR's files (with --out) and writes the CSV header (with --csv).
 * Returns an exit status (CLI_OK to go on). */
static int open_outputs(
    struct bench_cli *cli, struct bench_plan *plan, struct bench_outputs *out)
{
    if (cli->out_dir) {
        char path[4200];
        if (io_make_dirs(cli->out_dir) != 0) {
            fprintf(stderr, "%s: %s\n", cli->out_dir, strerror(errno));
            return CLI_SKIPPED;
        }
        if (cli->resume && check_resumable(cli, plan) != 0)
            return CLI_USAGE;
        plan->out_fd = open_runs(cli, plan, &out->resumed);
        out->env = open_in(
            cli->out_dir, "env.txt", cli->resume ? "a" : "w", path, sizeof(path));
        if (plan->out_fd < 0 || !out->env) {
            if (!out->env)
                fprintf(stderr, "%s: %s\n", path, strerror(errno));
            if (plan->out_fd >= 0)
                close(plan->out_fd);
            plan->out_fd = -1;
            if (out->env)
                fclose(out->env);
            return CLI_SKIPPED;
        }
        if (cli->resume)
            fputs("--- resumed ---\n", out->env);
        bench_env_write_machine(out->env);
        write_run_facts(out->env, cli, plan, cli->argc, cli->argv, out->overhead,
            out->resolution, out->baseline);
        fflush(out->env);
    }
    if (cli->common.csv) {
        char header[BENCH_CSV_LINE_MAX];
        fflush(stdout);
        const size_t len = bench_csv_header(header, sizeof(header));
        if (write(STDOUT_FILENO, header, len) != (ssize_t) len)
            plan->write_errors++;
        plan->csv_fd = STDOUT_FILENO;
    }
    return CLI_OK;
}

/* Runs the plan (through the runner: threads or ranks) with SIGINT and
 * SIGTERM finishing the puzzles being solved. */
static int run_plan(struct bench_plan *plan, double *wall_s)
{
    atomic_store(&bench_stop, 0);
    plan->stop = &bench_stop;
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    const uint64_t start = clock_now_ns();
    const int rc = dist_bench(plan);
    *wall_s = (double) (clock_now_ns() - start) / 1e9;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

/* DIR/summary.csv and the end of DIR/env.txt. Returns false when a write
 * failed. */
static bool finish_outputs(const struct bench_cli *cli, const struct bench_plan *plan,
    const struct bench_outputs *out, double wall_s, size_t pending,
    unsigned long disagreements, bool interrupted)
{
    char path[4200];
    bool ok = true;
    FILE *sum = open_in(cli->out_dir, "summary.csv", "w", path, sizeof(path));
    if (!sum || bench_summary_write_csv(plan, out->baseline, sum) != 0)
        ok = false;
    if (sum && fclose(sum) != 0)
        ok = false;
    FILE *env = out->env;
    for (size_t k = 0; k < plan->nsolvers * plan->ncorpora; k++) {
        const struct bench_pass *p = &plan->passes[k];
        if (p->measured)
            fprintf(env, "pass: %s %s %u %zu %llu %llu\n",
                plan->solvers[k / plan->ncorpora]->name,
                plan->corpora[k % plan->ncorpora].name, p->passes, p->puzzles,
                (unsigned long long) p->total_ns, (unsigned long long) p->best_ns);
    }
    fprintf(env, "wall_s: %.1f\n", wall_s);
    fprintf(env, "rows_resumed: %ld\n", out->resumed);
    fprintf(env, "runs_pending: %zu\n", pending);
    fprintf(env, "disagreements: %lu\n", disagreements);
    fprintf(env, "errors: %lu\n", plan->errors);
    fprintf(env, "finished: %s\n", interrupted ? "interrupted" : "complete");
    if (fclose(env) != 0 || close(plan->out_fd) != 0)
        ok = false;
    return ok;
}

/* After the run: the summary, what went wrong, the files' ends. Returns the
 * exit status. */
static int report(const struct bench_cli *cli, struct bench_plan *plan,
    const struct bench_outputs *out, int run_rc, double wall_s, unsigned long problems)
{
    FILE *info = cli->common.csv ? stderr : stdout, *err = dist_messages();
    const bool interrupted = atomic_load(&bench_stop) != 0;
    const unsigned long disagreements = bench_plan_crosscheck(plan, err);
    const size_t pending = bench_plan_pending(plan);
    if (!cli->quiet) {
        bench_summary_print(plan, out->baseline, info);
        fputc('\n', info);
    }
    if (disagreements)
        fprintf(err, "sudolab bench: %lu puzzle%s with disagreeing answers\n",
            disagreements, disagreements == 1 ? "" : "s");
    if (plan->errors)
        fprintf(err, "sudolab bench: %lu failed runs (errors or wrong answers)\n",
            plan->errors);
    if (interrupted)
        fprintf(err, "sudolab bench: interrupted: %zu runs not done%s\n", pending,
            cli->out_dir ? " (--resume continues)" : "");
    if (run_rc != 0)
        fprintf(err, "sudolab bench: could not start the worker threads\n");
    bool write_failed = plan->write_errors > 0;
    if (cli->out_dir) {
        write_failed |= !finish_outputs(
            cli, plan, out, wall_s, pending, disagreements, interrupted);
        if (!cli->quiet)
            fprintf(info, "wrote %s/runs.csv, summary.csv and env.txt\n", cli->out_dir);
    }
    if (write_failed)
        fprintf(err, "sudolab bench: writing the results failed\n");
    if (interrupted)
        return BENCH_INTERRUPTED;
    return problems || disagreements || plan->errors || run_rc != 0 || write_failed
        ? CLI_SKIPPED
        : CLI_OK;
}

/* The plan from the options and corpora (its back ends in chosen, which it
 * keeps), then its outputs opened. Returns an exit status (CLI_OK: the plan
 * is ready to run). */
static int prepare(struct bench_cli *cli, struct bench_plan *plan,
    struct bench_outputs *out, const struct solver **chosen, unsigned long *problems)
{
    FILE *err = dist_messages();
    size_t kept = 0;
    if (choose_solvers(cli, err, chosen, &kept, &out->baseline) != 0)
        return CLI_USAGE;
    if (!cli->seed_set)
        cli->opt.seed = clock_now_ns() ^ ((uint64_t) getpid() << 32);
    bench_plan_init(plan, &cli->opt, chosen, kept);
    int rc = load_plan(cli, plan, err, problems);
    if (rc != CLI_OK)
        return rc;
    out->overhead = bench_timer_overhead_ns(10000);
    out->resolution = bench_timer_resolution_ns();
    if (!cli->quiet) {
        print_intro(plan, kept, out->overhead, out->resolution,
            cli->common.csv ? stderr : stdout);
    }
    rc = open_outputs(cli, plan, out);
    if (rc == CLI_OK && cli->out_dir && cli->resume && !cli->quiet)
        fprintf(cli->common.csv ? stderr : stdout,
            "resuming: %ld rows already in %s/runs.csv\n", out->resumed, cli->out_dir);
    return rc;
}

int bench_run(struct bench_cli *cli)
{
    if (cli->nfiles == 0 && cli->common.nempty == 0) {
        fprintf(dist_messages(), "sudolab bench: no corpus files (see --help)\n");
        return CLI_USAGE;
    }
    if (cli->resume && !cli->out_dir) {
        fprintf(dist_messages(), "sudolab bench: --resume needs --out DIR\n");
        return CLI_USAGE;
    }
    struct bench_plan plan;
    struct bench_outputs out = { NULL, 0, 0, 0, 0 };
    const struct solver *chosen[MAX_SELECTED];
    unsigned long problems = 0;
    memset(&plan, 0, sizeof(plan));
    int rc = prepare(cli, &plan, &out, chosen, &problems);
    if (rc == CLI_OK) {
        double wall_s = 0;
        const int run_rc = run_plan(&plan, &wall_s);
        rc = report(cli, &plan, &out, run_rc, wall_s, problems);
    }
    bench_plan_free(&plan);
    return rc;
}

int bench_parse(int argc, char **argv, struct bench_cli *cli)
{
    memset(cli, 0, sizeof(*cli));
    cli_common_defaults(&cli->common, 2);
    cli->common.budget_ms = BENCH_DEFAULT_BUDGET_MS;
    cli->opt.repeat = 1;
    cli->opt.threads = 1;
    cli->opt.warmup_ms = 50;
    cli->opt.pass_ms = 300;
    cli->opt.fast_us = 100;
    const int rc = parse_options(cli, argc, argv);
    if (rc == 0) {
        cli->opt.limit = cli->common.limit;
        cli->opt.budget_steps = cli->common.budget_steps;
        cli->opt.budget_ms = cli->common.budget_ms;
        cli->opt.progress = !cli->quiet && isatty(STDERR_FILENO);
        cli->nfiles = argc - optind;
        cli->files = argv + optind;
        cli->argc = argc;
        cli->argv = argv;
    }
    return rc;
}

void bench_cli_free(struct bench_cli *cli)
{
    for (int i = 0; i < cli->nlists; i++)
        free(cli->solver_lists[i]);
    cli->nlists = 0;
}

int cmd_bench(int argc, char **argv)
{
    struct bench_cli cli;
    int rc = bench_parse(argc, argv, &cli);
    if (rc == 0)
        rc = bench_run(&cli);
    else
        rc = rc > 0 ? CLI_OK : CLI_USAGE;
    bench_cli_free(&cli);
    return rc;
}
