/* A bench run from its options to its exit status (bench/bench_session.h).
 * The machinery it drives is in bench_run.c (plan, threads, timing),
 * bench_summary.c (tables), bench_csv.c (runs.csv) and bench_env.c
 * (env.txt's machine and noise). */
#include "bench/bench_session.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench_csv.h"
#include "bench/bench_env.h"
#include "bench/bench_se.h"
#include "bench/bench_stats.h"
#include "bench/bench_summary.h"
#include "bench/out_lock.h"
#include "common/clock.h"
#include "common/exit_status.h"
#include "common/io.h"
#include "solvers/outside.h"

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
    FILE *err; /* where they are said (the session's messages) */
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

static FILE *open_in(
    const char *dir, const char *name, const char *mode, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    return fopen(path, mode);
}

/* With --resume: the options that make rows comparable must be those of the
 * run being continued, as its env.txt recorded them (the last value of each
 * key, so a run resumed before is read right). Returns 0, or -1 after saying
 * which differs. An env.txt missing or unreadable, or a key missing, is not
 * checked. */
static int check_resumable(const char *out_dir, const struct bench_plan *plan)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/env.txt", out_dir);
    struct bench_env_file env;
    if (bench_env_read(&env, path) != 0) {
        bench_env_file_free(&env);
        return 0;
    }
    const struct bench_options *o = &plan->opt;
    char now[6][40];
    snprintf(now[0], sizeof(now[0]), "%llu", (unsigned long long) o->limit);
    snprintf(now[1], sizeof(now[1]), "%s", o->permute ? "yes" : "no");
    snprintf(now[2], sizeof(now[2]), "%llu", (unsigned long long) o->seed);
    snprintf(now[3], sizeof(now[3]), "%u", o->repeat);
    snprintf(now[4], sizeof(now[4]), "%llu", (unsigned long long) o->budget_ms);
    snprintf(now[5], sizeof(now[5]), "%u", o->seeds ? o->seeds : 1);
    static const enum bench_env_key keys[6] = { BENCH_ENV_LIMIT, BENCH_ENV_PERMUTE,
        BENCH_ENV_SEED, BENCH_ENV_REPEAT, BENCH_ENV_BUDGET_MS, BENCH_ENV_SEEDS };
    char was[6][40] = { "", "", "", "", "", "" };
    for (int k = 0; k < 6; k++) {
        const char *v = bench_env_get_latest(&env, keys[k]);
        if (v)
            snprintf(was[k], sizeof(was[k]), "%.39s", v);
    }
    bench_env_file_free(&env);
    for (int k = 0; k < 6; k++) {
        if (k == 2 && !o->permute && o->seeds <= 1)
            continue; /* the seed matters for permuted puzzles and seeded runs */
        if (was[k][0] && strcmp(was[k], now[k]) != 0) {
            fprintf(stderr,
                "sudolab bench: not resuming %s: its %s was %s, now %s (give the same "
                "options%s)\n",
                out_dir, bench_env_key_name(keys[k]), was[k], now[k],
                k == 2 ? ", with --seed" : "");
            return -1;
        }
    }
    return 0;
}

/* --resume: the file being continued decides whether rows have the SE
 * columns and the name column, so that all its rows have the same ones.
 * Leaves f at its start. */
static void keep_optional_columns(FILE *f, const char *path, struct bench_plan *plan)
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
    const bool named = cols.name >= 0;
    if (plan->name_column && !named)
        fprintf(stderr,
            "%s: no name column: the rows added leave the entries' names out too\n",
            path);
    plan->name_column = named;
}

/* Opens DIR/runs.csv for appending: fresh (header first) or, with --resume,
 * after reading the rows already there into the plan and cutting off a torn
 * last row. Returns the fd or -1. */
static int open_runs(
    const struct bench_session_options *o, struct bench_plan *plan, long *resumed)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/runs.csv", o->out_dir);
    long valid = 0;
    *resumed = 0;
    if (o->resume) {
        FILE *f = fopen(path, "r");
        if (f) {
            char why[200];
            keep_optional_columns(f, path, plan);
            *resumed = bench_plan_resume(plan, f, &valid, why, sizeof(why));
            fclose(f);
            if (*resumed < 0) {
                fprintf(stderr, "%s: %s (not resuming from it)\n", path, why);
                return -1;
            }
        }
    }
    const int fd
        = open(path, O_WRONLY | O_CREAT | O_APPEND | (o->resume ? 0 : O_TRUNC), 0666);
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    if (o->resume && ftruncate(fd, valid) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (valid == 0) {
        char header[BENCH_CSV_LINE_MAX];
        const size_t len = bench_plan_csv_header(plan, header, sizeof(header));
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
            bench_env_put(f, BENCH_ENV_OUTSIDE, "%s", note);
    }
    for (size_t si = 0; si < plan->nsolvers; si++) {
        const char *spec = outside_spec(plan->solvers[si]);
        if (spec && !strpbrk(spec, "\r\n"))
            bench_env_put(
                f, BENCH_ENV_SOLVER_SPEC, "%s %s", plan->solvers[si]->name, spec);
    }
}

static void write_run_facts(FILE *f, const struct bench_session_options *so,
    const struct bench_plan *plan, double overhead, double resolution)
{
    /* argv[0] is the command: no path of this machine ends up in env.txt */
    fprintf(f, "%s: sudolab", bench_env_key_name(BENCH_ENV_COMMAND));
    for (int i = 0; i < so->argc; i++)
        fprintf(f, " %s", so->argv[i]);
    fputc('\n', f);
    fprintf(f, "%s:", bench_env_key_name(BENCH_ENV_SOLVERS)); /* then " NAME" each */
    for (size_t si = 0; si < plan->nsolvers; si++)
        fprintf(f, " %s", plan->solvers[si]->name);
    fputc('\n', f);
    bench_env_put(f, BENCH_ENV_BASELINE, "%s",
        so->baseline < plan->nsolvers ? plan->solvers[so->baseline]->name : "");
    write_outside_facts(f, plan);
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        bench_env_put(f, BENCH_ENV_CORPUS, "%s (%zu puzzles)", plan->corpora[ci].name,
            plan->corpora[ci].n);
    const struct bench_options *o = &plan->opt;
    bench_env_put(f, BENCH_ENV_LIMIT, "%llu", (unsigned long long) o->limit);
    bench_env_put(f, BENCH_ENV_BUDGET_MS, "%llu", (unsigned long long) o->budget_ms);
    bench_env_put(
        f, BENCH_ENV_BUDGET_STEPS, "%llu", (unsigned long long) o->budget_steps);
    bench_env_put(f, BENCH_ENV_REPEAT, "%u", o->repeat);
    bench_env_put(f, BENCH_ENV_THREADS, "%u", o->threads);
    bench_env_put(f, BENCH_ENV_WARMUP_MS, "%llu", (unsigned long long) o->warmup_ms);
    bench_env_put(f, BENCH_ENV_PASS_MS, "%llu", (unsigned long long) o->pass_ms);
    bench_env_put(f, BENCH_ENV_FAST_US, "%.0f", o->fast_us);
    bench_env_put(f, BENCH_ENV_TDOKU_PROTOCOL, "%s", o->tdoku_protocol ? "yes" : "no");
    bench_env_put(f, BENCH_ENV_PERMUTE, "%s", o->permute ? "yes" : "no");
    bench_env_put(f, BENCH_ENV_SEED, "%llu", (unsigned long long) o->seed);
    bench_env_put(f, BENCH_ENV_SEEDS, "%u", o->seeds ? o->seeds : 1);
    bench_env_put(f, BENCH_ENV_HEAD, "%lu", o->head);
    bench_env_put(f, BENCH_ENV_SAMPLE, "%lu", o->sample);
    bench_env_put(f, BENCH_ENV_SE_RATE, "%s", o->se_rate ? "yes" : "no");
    if (o->se_rate)
        bench_env_put(
            f, BENCH_ENV_SE_RATE_MS, "%llu", (unsigned long long) o->se_rate_ms);
    /* what sudolab merge checks: the split, and the corpora as read */
    bench_env_put(f, BENCH_ENV_SHARD, "%u/%u", o->shard.n ? o->shard.k : 1,
        o->shard.n ? o->shard.n : 1);
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        bench_env_put(f, BENCH_ENV_CORPUS_FINGERPRINT, "%s %lu %016llx",
            plan->corpora[ci].name, plan->corpora[ci].entries,
            (unsigned long long) plan->corpora[ci].fingerprint.hash);
    bench_env_put(f, BENCH_ENV_RESUME, "%s", so->resume ? "yes" : "no");
    bench_env_put(f, BENCH_ENV_TIMER_OVERHEAD_NS, "%.1f", overhead);
    bench_env_put(f, BENCH_ENV_TIMER_RESOLUTION_NS, "%.0f", resolution);
}

/* One bench run as it goes: the plan and what the steps found. */
struct session {
    const struct bench_session_options *o;
    FILE *messages; /* o->messages, or stderr */
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
    unsigned long late = 0, beyond = 0;
    const unsigned long rated = bench_plan_rate_se(&s->plan, &late, &beyond);
    if (s->o->quiet)
        return;
    fprintf(s->info, "rated %lu puzzle%s on Sudoku Explainer's scale in %.1f s", rated,
        rated == 1 ? "" : "s", (double) (clock_now_ns() - start) / 1e9);
    if (late)
        fprintf(s->info, "; %lu ran out of their %llu ms (left unrated)", late,
            (unsigned long long) s->o->opt.se_rate_ms);
    if (beyond)
        fprintf(s->info, "; %lu beyond its techniques (left unrated)", beyond);
    fputc('\n', s->info);
}

/* Reads the corpora into the plan. Returns 0, or an exit status after saying
 * why (the plan is then freed). */
static int load_corpora(struct session *s)
{
    const struct bench_session_options *o = s->o;
    FILE *err = s->messages;
    bench_plan_init(&s->plan, &o->opt, o->solvers, o->nsolvers);
    struct load_ctx lc = { .plan = &s->plan, .ci = -1, .err = err };
    s->problems = input_walk(&o->input, o->nfiles, o->files, load_entry, &lc);
    if (lc.broken > MAX_BROKEN_MESSAGES)
        fprintf(err, "sudolab bench: %lu more puzzles whose clues break a rule\n",
            lc.broken - MAX_BROKEN_MESSAGES);
    s->problems += lc.broken;
    if (!lc.failed && o->opt.se_rate)
        rate_se(s);
    if (lc.failed || bench_plan_finish(&s->plan) != 0) {
        fprintf(err, "sudolab bench: out of memory\n");
        bench_plan_free(&s->plan);
        return EXIT_STATUS_SKIPPED;
    }
    if (s->plan.ncorpora == 0) {
        fprintf(err, "sudolab bench: no puzzles to run\n");
        bench_plan_free(&s->plan);
        return EXIT_STATUS_SKIPPED;
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
    const struct bench_session_options *o = s->o;
    char path[4200];
    if (io_make_dirs(o->out_dir) != 0) {
        fprintf(stderr, "%s: %s\n", o->out_dir, strerror(errno));
        return outputs_failed(s, EXIT_STATUS_SKIPPED);
    }
    if (out_lock_take(&s->lock, o->out_dir, "sudolab bench", stderr) != 0)
        return outputs_failed(s, EXIT_STATUS_SKIPPED);
    if (o->resume && check_resumable(o->out_dir, &s->plan) != 0)
        return outputs_failed(s, EXIT_STATUS_USAGE);
    s->plan.out_fd = open_runs(o, &s->plan, &s->resumed);
    s->env = open_in(o->out_dir, "env.txt", o->resume ? "a" : "w", path, sizeof(path));
    if (s->plan.out_fd < 0 || !s->env) {
        if (!s->env)
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
        if (s->plan.out_fd >= 0)
            close(s->plan.out_fd);
        if (s->env)
            fclose(s->env);
        return outputs_failed(s, EXIT_STATUS_SKIPPED);
    }
    if (o->resume)
        fputs(BENCH_ENV_RESUMED "\n", s->env);
    bench_env_write_machine(s->env);
    write_run_facts(s->env, o, &s->plan, s->overhead, s->resolution);
    bench_env_write_isa_paths(s->env, s->plan.solvers, s->plan.nsolvers);
    bench_env_write_before(s->env, "");
    fflush(s->env);
    if (o->resume && !o->quiet)
        fprintf(s->info, "resuming: %ld rows already in %s/runs.csv\n", s->resumed,
            o->out_dir);
    return 0;
}

/* --csv: the rows go to stdout as well, after a header. */
static void start_csv_rows(struct bench_plan *plan)
{
    char header[BENCH_CSV_LINE_MAX];
    fflush(stdout);
    const size_t len = bench_plan_csv_header(plan, header, sizeof(header));
    if (!io_write_all(STDOUT_FILENO, header, len)) {
        plan->write_errors++;
        plan->csv_errno = errno;
    }
    plan->csv_fd = STDOUT_FILENO;
}

/* Runs the plan (through the caller's runner: threads or ranks) with SIGINT and
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
    s->rc = s->o->run(&s->plan);
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
    const struct bench_session_options *o = s->o;
    const size_t all = (size_t) s->resumed + s->plan.cells_total;
    fprintf(err, "sudolab bench: interrupted (%s) after %zu of %zu rows",
        s->interrupted == SIGTERM ? "SIGTERM" : "SIGINT", all - s->pending, all);
    if (!o->out_dir) {
        fputs(" (no --out DIR: run again to redo it)\n", err);
        return;
    }
    fprintf(err, "; the rows done are in %s/runs.csv\nto continue: sudolab %s",
        o->out_dir, o->argv[0]);
    bool resume = false;
    for (int i = 1; i < o->argc; i++)
        resume |= strcmp(o->argv[i], "--resume") == 0;
    if (!resume)
        fputs(" --resume", err); /* first: options go before the files */
    for (int i = 1; i < o->argc; i++) {
        fputc(' ', err);
        put_shell_word(err, o->argv[i]);
    }
    fputc('\n', err);
}

/* The cross-check, the summary table and what went wrong. */
static void report(struct session *s)
{
    FILE *err = s->messages;
    s->disagreements = bench_plan_crosscheck(&s->plan, err);
    s->pending = bench_plan_pending(&s->plan);
    if (!s->o->quiet) {
        bench_summary_print(&s->plan, s->o->baseline, s->info);
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
    const struct bench_session_options *o = s->o;
    const struct bench_plan *plan = &s->plan;
    bool ok = true;
    char path[4200];
    FILE *sum = open_in(o->out_dir, "summary.csv", "w", path, sizeof(path));
    if (!sum) {
        fprintf(stderr, "sudolab bench: %s: %s\n", path, strerror(errno));
        ok = false;
    } else {
        bench_summary_write_csv(plan, o->baseline, sum); /* its errors: at the close */
        if (io_close_stream(sum, "sudolab bench", path) != 0)
            ok = false;
    }
    for (size_t k = 0; k < plan->nsolvers * plan->ncorpora; k++) {
        const struct bench_pass *p = &plan->passes[k];
        if (p->measured)
            bench_env_put(s->env, BENCH_ENV_PASS, "%s %s %u %zu %llu %llu",
                plan->solvers[k / plan->ncorpora]->name,
                plan->corpora[k % plan->ncorpora].name, p->passes, p->puzzles,
                (unsigned long long) p->total_ns, (unsigned long long) p->best_ns);
    }
    bench_env_write_after(s->env, "", &s->cpu_before, &s->cpu_after);
    bench_env_put(s->env, BENCH_ENV_WALL_S, "%.1f", s->wall_s);
    bench_env_put(s->env, BENCH_ENV_ROWS_RESUMED, "%ld", s->resumed);
    bench_env_put(s->env, BENCH_ENV_RUNS_PENDING, "%zu", s->pending);
    /* what runs.csv holds when every row reached it: merge checks it */
    bench_env_put(s->env, BENCH_ENV_ROWS, "%zu",
        (size_t) s->resumed + plan->cells_total - s->pending);
    bench_env_put(s->env, BENCH_ENV_DISAGREEMENTS, "%lu", s->disagreements);
    bench_env_put(s->env, BENCH_ENV_ERRORS, "%lu", plan->errors);
    /* what went wrong, for merge to say (every run writes it: the last one
     * in the file is the last run's, after a --resume) */
    if (plan->out_errno)
        bench_env_put(s->env, BENCH_ENV_FAILURE, "%s/runs.csv: %s", o->out_dir,
            strerror(plan->out_errno));
    else if (s->interrupted)
        bench_env_put(s->env, BENCH_ENV_FAILURE, "interrupted (%s) after %zu of %zu rows",
            s->interrupted == SIGTERM ? "SIGTERM" : "SIGINT",
            (size_t) s->resumed + plan->cells_total - s->pending,
            (size_t) s->resumed + plan->cells_total);
    else
        bench_env_put(s->env, BENCH_ENV_FAILURE, "none");
    bench_env_put(
        s->env, BENCH_ENV_FINISHED, "%s", s->interrupted ? "interrupted" : "complete");
    snprintf(path, sizeof(path), "%s/env.txt", o->out_dir);
    if (io_close_stream(s->env, "sudolab bench", path) != 0)
        ok = false;
    if (close(plan->out_fd) != 0) {
        fprintf(stderr, "sudolab bench: %s/runs.csv: %s\n", o->out_dir, strerror(errno));
        ok = false;
    }
    if (!o->quiet)
        fprintf(s->info, "wrote %s/runs.csv, summary.csv and env.txt\n", o->out_dir);
    return ok;
}

/* Which output lost rows, and why (what finish_outputs could not write it
 * said itself). */
static void say_write_failed(const struct session *s)
{
    FILE *err = s->messages;
    const char *dir = s->o->out_dir;
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

int bench_session_run(const struct bench_session_options *o)
{
    struct session s = { .o = o,
        .messages = o->messages ? o->messages : stderr,
        .info = o->csv ? stderr : stdout,
        .lock = { .fd = -1 } };
    int status = load_corpora(&s);
    if (status != 0)
        return status;
    s.overhead = bench_timer_overhead_ns(10000);
    s.resolution = bench_timer_resolution_ns();
    if (!o->quiet)
        print_intro(&s);
    if (o->out_dir && (status = open_outputs(&s)) != 0)
        return status;
    if (o->csv)
        start_csv_rows(&s.plan);
    run_plan(&s);
    report(&s);
    bool write_failed = s.plan.write_errors > 0;
    if (o->out_dir && !finish_outputs(&s))
        write_failed = true;
    if (write_failed)
        say_write_failed(&s);
    bench_plan_free(&s.plan);
    out_lock_release(&s.lock);
    if (s.interrupted)
        return EXIT_STATUS_SIGNAL_BASE + s.interrupted;
    return s.problems || s.disagreements || s.plan.errors || s.rc != 0 || write_failed
        ? EXIT_STATUS_SKIPPED
        : EXIT_STATUS_OK;
}
