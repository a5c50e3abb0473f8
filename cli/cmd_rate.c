/* sudolab rate: difficulty ratings, one line per puzzle (bench/rate.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench_env.h"
#include "cli/cli.h"
#include "cli/cmd_rate.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/rate_pool.h"
#include "common/clock.h"
#include "common/text.h"
#include "config.h"
#include "puzzle/rate.h"
#include "solvers/registry.h"

/* What the ratings came to, counted by whichever thread rated: every rating,
 * and SE's verdicts by enum se_verdict (SE_OUT_OF_TIME its last) when SE
 * rated. */
struct rate_tally {
    atomic_ulong rated;
    atomic_ulong se[SE_OUT_OF_TIME + 1];
};

/* The rows an earlier run left in --out's file, kept by --resume: each
 * entry up to the last of them is checked against its row instead of rated
 * again (see resume_check). */
struct kept_rows {
    char *text; /* the file's bytes, each row ended by '\0' */
    struct kept_row {
        const char *text;
        unsigned long index, line; /* its entry's, and its line in the file */
    } * row;
    unsigned long n, next; /* rows; the next one an entry is checked against */
    unsigned long last; /* the last row's index; 0: none, rate everything */
    long bytes; /* the file's part that is kept */
    bool mismatch; /* an entry and its row differ: nothing is written */
};

struct rate_run {
    const struct rate_cli *cli;
    struct kept_rows kept;
    struct rate_tally *tally;
    /* stderr a terminal and stdout not: a progress line and a closing tally
     * for the one who waits on a long run whose rows go to a file */
    bool progress;
    uint64_t started_ns, shown_ns;
    unsigned long to_rate; /* with progress: the entries to rate, if known (0) */
    FILE *quiet; /* while they are counted: where their problems are not said */
    struct rater rater;
    struct rate_pool *pool; /* with -j N above 1 */
    unsigned long failures;
    /* --shard: every entry read (all shards read them all), and the lines
     * this shard wrote, for the closing line that sudolab merge checks */
    struct shard_fingerprint inputs;
    unsigned long rows;
};

static void tally_add(struct rate_tally *t, unsigned methods, const struct rate_values *v)
{
    atomic_fetch_add(&t->rated, 1);
    if (methods & (RATE_SE | RATE_HODOKU))
        atomic_fetch_add(&t->se[v->se.verdict], 1);
}

/* The line of a rated puzzle (with its '\n'); the rows end with the
 * instance's name, as solve's do, when it has one (a CSV's columns stay). */
static void rate_line(const struct rate_cli *cli, struct rate_tally *tally,
    struct rater *rater, const struct grid *g, unsigned long index, const char *name,
    char *out, size_t len)
{
    struct rate_values v;
    rater_rate(rater, g, &v);
    tally_add(tally, cli->methods, &v);
    char fields[1024], line[GRID_MAX_CAND_N * GRID_MAX_CAND_N * GRID_MAX_CAND_N + 1];
    rate_format(fields, sizeof(fields), &v, cli->methods, cli->common.csv);
    if (g->has_candidates)
        grid_format_candidates(g, line); /* the blank clue line would lose them */
    else
        grid_format_line(g, line);
    if (cli->common.csv)
        snprintf(out, len, "%lu%s,%s\n", index, fields, line);
    else
        snprintf(out, len, "%lu%s%s%s%s%s\n", index, fields, cli->show_puzzle ? " " : "",
            cli->show_puzzle ? line : "", name && name[0] ? " name=" : "",
            name ? name : "");
}

/* The progress line (at most twice a second; `done`: the last one, and the
 * tally of SE's verdicts when SE rated), on stderr. */
static void show_progress(struct rate_run *run, bool done)
{
    if (!run->progress)
        return;
    const uint64_t now = clock_now_ns();
    if (!done && now - run->shown_ns < 500000000u)
        return;
    run->shown_ns = now;
    const unsigned long rated = atomic_load(&run->tally->rated);
    const double secs = (double) (now - run->started_ns) / 1e9;
    const double rate = secs > 0 ? (double) rated / secs : 0.0;
    if (run->to_rate && !done && rated && rated < run->to_rate) {
        const double left = (double) (run->to_rate - rated) / rate;
        fprintf(stderr,
            "\rsudolab rate: %lu of %lu puzzles rated in %.0f s (%.1f a second, about "
            "%.0f %s left) ",
            rated, run->to_rate, secs, rate, left < 120 ? left : left / 60,
            left < 120 ? "s" : "min");
    } else
        fprintf(stderr, "\rsudolab rate: %lu puzzles rated in %.0f s (%.1f a second)%*s",
            rated, secs, rate, 28, "");
    if (done) {
        fputc('\n', stderr);
        if (run->cli->methods & (RATE_SE | RATE_HODOKU)) {
            const struct rate_tally *t = run->tally;
            fprintf(stderr,
                "sudolab rate: se rated %lu, out-of-time %lu, beyond %lu, "
                "no-solution %lu, multiple-solutions %lu\n",
                atomic_load(&t->se[SE_RATED]), atomic_load(&t->se[SE_OUT_OF_TIME]),
                atomic_load(&t->se[SE_BEYOND]), atomic_load(&t->se[SE_NO_SOLUTION]),
                atomic_load(&t->se[SE_MULTIPLE]));
            if (atomic_load(&t->se[SE_NOT_9X9]))
                fprintf(stderr, "sudolab rate: %lu not 9x9 (SE rates 9x9 only)\n",
                    atomic_load(&t->se[SE_NOT_9X9]));
        }
    }
    fflush(stderr);
}

static void invalid_line(struct rate_run *run, unsigned long index)
{
    run->failures++;
    if (run->cli->common.csv || index <= run->kept.last)
        return; /* a kept invalid entry's row is in the file already */
    char line[64];
    snprintf(line, sizeof(line), "%lu invalid\n", index);
    run->rows++;
    if (run->pool)
        rate_pool_put_line(run->pool, line);
    else
        fputs(line, stdout);
}

/* Whether entry e can be rated; if not, says why to err (a parse error the
 * walk has said already). */
static bool entry_ratable(
    const struct rate_run *run, const struct input_entry *e, FILE *err)
{
    char why[160];
    if (!e->ok)
        return false;
    const struct grid *g = &e->item->puzzle;
    if (g->has_candidates && (run->cli->methods & ~(unsigned) (RATE_SE | RATE_HODOKU))) {
        /* The other methods would rate the empty grid: wrong, not unsupported. */
        fprintf(err,
            "%s:%lu: only --method se and hodoku start from candidates (pencil "
            "marks)\n",
            e->source, e->line);
        return false;
    }
    if (grid_find_conflict(g, why, sizeof(why))) {
        fprintf(err, "%s:%lu: %s\n", e->source, e->line, why);
        return false;
    }
    if (g->n > GRID_MAX_N_MASK32
        && (run->cli->methods & (RATE_GUESSES | RATE_TECHNIQUES))) {
        /* the logic solver's and mrv's value sets are uint32_t */
        fprintf(err,
            "%s:%lu: --method guesses and techniques go up to %dx%d, not %dx%d\n",
            e->source, e->line, GRID_MAX_N_MASK32, GRID_MAX_N_MASK32, g->n, g->n);
        return false;
    }
    return true;
}

/* Whether `row` ends with the puzzle of `g` as rate_line writes it (a text
 * row may end with " name=..." after it). */
static bool row_has_puzzle(
    const struct rate_cli *cli, const char *row, const struct grid *g)
{
    char line[GRID_MAX_CAND_N * GRID_MAX_CAND_N * GRID_MAX_CAND_N + 1];
    if (g->has_candidates)
        grid_format_candidates(g, line);
    else
        grid_format_line(g, line);
    const size_t len = strlen(line);
    const char sep = cli->common.csv ? ',' : ' ';
    for (const char *at = strstr(row, line); at; at = strstr(at + 1, line))
        if (at > row && at[-1] == sep
            && (at[len] == '\0' || (!cli->common.csv && !strncmp(at + len, " name=", 6))))
            return true;
    return false;
}

/* An entry that --resume keeps: its row must be the next kept one, have
 * its index and (unless --no-puzzle) its puzzle, or say `invalid` when the
 * entry is; with --csv an invalid entry has no row. False, and a message,
 * when the file was made from other inputs. */
static bool resume_check(struct rate_run *run, const struct input_entry *e, bool ratable)
{
    struct kept_rows *k = &run->kept;
    const struct rate_cli *cli = run->cli;
    const char *row = k->next < k->n && k->row[k->next].index == e->index
        ? k->row[k->next].text
        : NULL;
    bool same;
    if (!row) {
        same = !ratable && cli->common.csv;
    } else if (!ratable) {
        const char *rest = strchr(row, ' ');
        same = !cli->common.csv && rest && !strcmp(rest, " invalid");
    } else { /* a CSV row has the puzzle even with --no-puzzle */
        same = (!cli->show_puzzle && !cli->common.csv)
            || row_has_puzzle(cli, row, &e->item->puzzle);
    }
    if (same) {
        if (row)
            k->next++;
        return true;
    }
    k->mismatch = true;
    if (row)
        fprintf(stderr,
            "%s:%lu: the row of entry %lu is not that of %s:%lu: the file was made from "
            "other inputs (not resuming: no row added)\n",
            cli->out, k->row[k->next].line, e->index, e->source, e->line);
    else
        fprintf(stderr,
            "%s: no row for entry %lu (%s:%lu): the file was made from other inputs "
            "(not resuming: no row added)\n",
            cli->out, e->index, e->source, e->line);
    return false;
}

/* Reads --out's file for --resume into run->kept: the rows after a start
 * equal to `settings`, in increasing index, up to a torn last row or a
 * closing "# end shard" line (both dropped: made again). A missing or empty
 * file keeps nothing. False, with a message, when the file cannot be
 * continued. */
static bool kept_read(struct rate_run *run, const char *settings, size_t settings_len)
{
    struct kept_rows *k = &run->kept;
    const char *path = run->cli->out;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT)
            return true;
        fprintf(stderr, "sudolab rate: %s: %s\n", path, strerror(errno));
        return false;
    }
    size_t size = 0, cap = 1 << 16;
    k->text = malloc(cap + 1);
    for (size_t got = 1; k->text && got;) {
        if (size == cap) {
            char *more = realloc(k->text, 2 * cap + 1);
            if (!more) {
                free(k->text);
                k->text = NULL;
                break;
            }
            k->text = more;
            cap *= 2;
        }
        got = fread(k->text + size, 1, cap - size, f);
        size += got;
    }
    const bool read_error = ferror(f);
    fclose(f);
    if (!k->text || read_error) {
        fprintf(stderr, "sudolab rate: %s: %s\n", path,
            read_error ? "read error" : "out of memory");
        return false;
    }
    k->text[size] = '\0';
    if (size == 0)
        return true;
    if (size < settings_len || memcmp(k->text, settings, settings_len) != 0) {
        const char *eol = strchr(k->text, '\n'), *now = strchr(settings, '\n');
        fprintf(stderr,
            "sudolab rate: %s was made with other settings (build, methods, budget, "
            "shard or --csv) than this run's:\n  file: %.*s\n  now:  %.*s\nnot "
            "resuming it (without --resume the run starts it over)\n",
            path, (int) (eol ? eol - k->text : (ptrdiff_t) size), k->text,
            (int) (now - settings), settings);
        return false;
    }
    unsigned long line = 1;
    for (size_t i = 0; i < settings_len; i++)
        line += settings[i] == '\n';
    k->bytes = (long) settings_len;
    unsigned long cap_rows = 0;
    for (char *p = k->text + settings_len, *end; *p; p = end + 1, line++) {
        end = strchr(p, '\n');
        if (!end) {
            fprintf(stderr, "sudolab rate: %s:%lu: a torn last row, rated again\n", path,
                line);
            break;
        }
        *end = '\0';
        if (!strncmp(p, "# end shard=", 12) && end[1] == '\0')
            break; /* the shard was complete: its closing line is written again */
        char *after;
        errno = 0;
        const unsigned long index
            = p[0] >= '0' && p[0] <= '9' ? strtoul(p, &after, 10) : 0;
        if (!index || errno || (*after != ' ' && *after != ',') || index <= k->last) {
            fprintf(stderr,
                "sudolab rate: %s:%lu: not a row of sudolab rate after the row before "
                "(not resuming)\n",
                path, line);
            return false;
        }
        if (k->n == cap_rows) {
            cap_rows = cap_rows ? 2 * cap_rows : 1024;
            struct kept_row *row = realloc(k->row, cap_rows * sizeof(*row));
            if (!row) {
                fprintf(stderr, "sudolab rate: %s: out of memory\n", path);
                return false;
            }
            k->row = row;
        }
        k->row[k->n++] = (struct kept_row) { p, index, line };
        k->last = index;
        k->bytes = end + 1 - k->text;
    }
    return true;
}

static void kept_free(struct kept_rows *k)
{
    free(k->text);
    free(k->row);
}

/* Whether --out names one of the inputs (the same file by device and inode):
 * emptying it would lose them. */
static bool out_is_input(const struct rate_cli *cli)
{
    struct stat out, in;
    if (stat(cli->out, &out) != 0)
        return false;
    for (int i = 0; i < cli->nfiles; i++)
        if (stat(cli->files[i], &in) == 0 && in.st_dev == out.st_dev
            && in.st_ino == out.st_ino) {
            fprintf(stderr,
                "sudolab rate: --out %s is the input %s: not writing over it\n", cli->out,
                cli->files[i]);
            return true;
        }
    return false;
}

/* Points stdout at --out's file, line buffered (an interrupted run leaves
 * every row it finished): emptied, or cut to the part --resume keeps. */
static bool out_open(const struct rate_run *run)
{
    const char *path = run->cli->out;
    const long keep = run->kept.bytes;
    const int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | (keep ? 0 : O_TRUNC), 0666);
    if (fd < 0 || (keep && ftruncate(fd, keep) != 0) || dup2(fd, STDOUT_FILENO) < 0) {
        fprintf(stderr, "sudolab rate: %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    close(fd);
    return true;
}

/* Rows of the file that no entry has come to (checked before the first new
 * row is written, and at the end). */
static bool kept_all_met(struct rate_run *run)
{
    struct kept_rows *k = &run->kept;
    if (k->mismatch || k->next == k->n)
        return !k->mismatch;
    fprintf(stderr,
        "sudolab rate: %s:%lu: a row for entry %lu, which is not among the inputs as "
        "rated: the file was made from other inputs (not resuming: no row added)\n",
        run->cli->out, k->row[k->next].line, k->row[k->next].index);
    k->mismatch = true;
    return false;
}

static bool rate_entry(void *ctx, const struct input_entry *e)
{
    struct rate_run *run = ctx;
    shard_fingerprint_add(&run->inputs, e->ok ? &e->item->puzzle : NULL);
    if (!shard_owns(&run->cli->shard, e->index - 1))
        return true;
    const bool ratable = entry_ratable(run, e, stderr);
    if (e->index <= run->kept.last ? !resume_check(run, e, ratable) : !kept_all_met(run))
        return false;
    if (!ratable) {
        invalid_line(run, e->index);
        return true;
    }
    if (e->index <= run->kept.last)
        return true; /* rated by the run that left the row */
    const struct grid *g = &e->item->puzzle;
    run->rows++;
    if (run->pool) {
        rate_pool_put(run->pool, g, e->index, e->item->name);
        return true;
    }
    char line[8192]; /* a 16x16 candidate line is 4096 symbols */
    rate_line(run->cli, run->tally, &run->rater, g, e->index, e->item->name, line,
        sizeof(line));
    fputs(line, stdout);
    show_progress(run, false);
    return true;
}

/* --no-puzzle: turns off what is on by default */
static int clear_flag(const struct cli_value *v)
{
    *(bool *) v->field = false;
    return CLI_VALUE_OK;
}

#define RATE_FIELD(member) offsetof(struct rate_cli, member)

static const struct cli_option rate_options[] = {
    CLI_LINE("usage: sudolab rate [options] [FILE|PUZZLE|-]..."),
    CLI_LINE("Rates the difficulty of each puzzle, one line per puzzle."),
    { .kind = CLI_CUSTOM,
        .name = "method",
        .metavar = "M",
        .help = "blanks, freedom, guesses, techniques or all (default), se,\n"
                "hodoku, or several joined by commas:",
        .field = RATE_FIELD(methods),
        .parse = cli_parse_rate_methods,
        .expected = "blanks, freedom, guesses, techniques or all" },
    CLI_LINE(
        "    blanks            seed 004: blank cells; level 40-45 1, 46-50 2, 51-55 3,\n"
        "                      56-60 4, 61-65 5, else 0"),
    CLI_LINE(
        "    freedom           seed 004: sum over blanks of the blanks in its row and\n"
        "                      column (itself included) and box (itself excluded); "
        "level\n"
        "                      1-720 1, 721-840 2, 841-960 3, 961-1080 4, 1081-2105 5,\n"
        "                      else 0"),
    CLI_LINE("    guesses           mean ln(guesses+1) of --solver (default mrv) solving "
             "to 2\n"
             "                      solutions, over --permutations random permutations"),
    CLI_LINE(
        "    techniques        hardest human technique needed (logic solver), its level\n"
        "                      (1 naked single .. 10 swordfish, 11 guessing) and the "
        "steps\n"
        "                      of each technique"),
    CLI_LINE(
        "    se                Sudoku Explainer's ER/EP/ED (serate's defaults) and the\n"
        "                      technique of ER; no-solution or multiple-solutions\n"
        "                      instead for puzzles without one solution; not in all"),
    CLI_LINE(
        "    hodoku            HoDoKu's score and level (easy, medium, hard, unfair,\n"
        "                      extreme) from its per-technique scores, over SE's path\n"
        "                      (SE's techniques and order, not HoDoKu's: each step\n"
        "                      scored as the nearest HoDoKu technique); not in all"),
    { .kind = CLI_INT,
        .name = "permutations",
        .metavar = "K",
        .help = "permutations for guesses (default 10)",
        .field = RATE_FIELD(permutations),
        .min = 1,
        .max = 100000,
        .expected = "a count from 1" },
    { .kind = CLI_U64,
        .name = "seed",
        .metavar = "S",
        .help = "permutation seed (default 0; mixed with each puzzle's cells)",
        .field = RATE_FIELD(seed),
        .expected = "a non-negative integer" },
    { .kind = CLI_INT,
        .name = "jobs",
        .letter = 'j',
        .metavar = "N",
        .help = "threads (the output does not depend on N)",
        .field = RATE_FIELD(jobs),
        .min = 1,
        .max = RATE_MAX_JOBS,
        .expected = "a thread count from 1 to 256" },
    { .kind = CLI_CUSTOM,
        .name = "no-puzzle",
        .help = "leave the puzzle off the end of each line",
        .field = RATE_FIELD(show_puzzle),
        .parse = clear_flag },
    { .kind = CLI_CUSTOM,
        .name = "shard",
        .metavar = "K/N",
        .help = "only the puzzles K-1 mod N of the run, and a closing line\n"
                "for sudolab merge",
        .field = RATE_FIELD(shard),
        .parse = cli_parse_shard },
    { .kind = CLI_STRING,
        .name = "out",
        .letter = 'o',
        .metavar = "FILE",
        .help = "write the rows to FILE (line by line) instead of stdout",
        .field = RATE_FIELD(out) },
    { .kind = CLI_FLAG,
        .name = "resume",
        .help = "continue FILE of --out: keep the rows an interrupted run of\n"
                "the same command left there (the settings line must match,\n"
                "and each row its puzzle), rate the puzzles after them",
        .field = RATE_FIELD(resume) },
    CLI_COMMON_OPTIONS_BUDGET(
        "give up after N ms per puzzle: of the rating thread's CPU\n"
        "time for se and hodoku (out-of-time; a loaded machine\n"
        "rates as a quiet one), of each solve's wall time for\n"
        "guesses (default 60000, so that nothing runs unbounded;\n"
        "0 = none)"),
    CLI_OPTION_HELP,
};

const struct cli_table rate_table = CLI_TABLE("sudolab rate", rate_options);

enum cli_parsed rate_parse(int argc, char **argv, struct rate_cli *out)
{
    memset(out, 0, sizeof(*out));
    cli_common_defaults(&out->common, 2);
    out->methods = RATE_ALL;
    out->permutations = 10;
    out->show_puzzle = true;
    out->jobs = 1;
    int first;
    const enum cli_parsed p
        = cli_parse(&rate_table, argc, argv, out, &out->common, &first);
    if (p != CLI_PARSED_RUN)
        return p;
    if (out->resume && !out->out) {
        fprintf(stderr, "sudolab rate: --resume needs --out FILE\n");
        return CLI_PARSED_ERROR;
    }
    out->nfiles = argc - first;
    out->files = argv + first;
    return CLI_PARSED_RUN;
}

/* The settings that make the numbers reproducible, as the first line of the
 * output (a comment line, before the CSV header with --csv): the rater's
 * version and revision, its methods and the options that change ratings, so
 * that a rating file says what made it. Then, with --csv, the header. */
static void print_settings(const struct rate_run *run, FILE *out)
{
    const struct rate_cli *cli = run->cli;
    char names[64];
    rate_method_names(names, sizeof(names), cli->methods);
    fprintf(out, "# sudolab rate version=%s revision=%s methods=%s", SUDOLAB_VERSION,
        bench_env_revision(), names);
    if (cli->methods & RATE_GUESSES)
        fprintf(out, " solver=%s permutations=%d seed=%llu", run->rater.solver->name,
            cli->permutations, (unsigned long long) cli->seed);
    fprintf(out, " budget_steps=%llu budget_ms=%llu",
        (unsigned long long) run->rater.budget_steps,
        (unsigned long long) run->rater.budget_ms);
    if (cli->shard.n)
        fprintf(out, " shard=%u/%u", cli->shard.k, cli->shard.n);
    fprintf(out, "\n");
    if (cli->common.csv) {
        char header[1024];
        rate_csv_header(header, sizeof(header), cli->methods);
        fprintf(out, "index%s,puzzle\n", header);
    }
}

/* print_settings' text, which --resume compares with its file's start; NULL
 * when out of memory. */
static char *settings_text(const struct rate_run *run, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    if (!f)
        return NULL;
    print_settings(run, f);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* A worker's own rater, opened like the command's. */
static void *worker_open(void *ctx)
{
    const struct rate_run *run = ctx;
    struct rater *r = malloc(sizeof(*r));
    char why[200];
    if (r
        && rater_open(r, run->cli->methods, run->rater.solver, run->cli->permutations,
               run->cli->seed, why, sizeof(why))
            != 0) {
        free(r);
        return NULL;
    }
    if (r) {
        r->budget_steps = run->rater.budget_steps;
        r->budget_ms = run->rater.budget_ms;
    }
    return r;
}

static void worker_close(void *ctx, void *state)
{
    (void) ctx;
    rater_close(state);
    free(state);
}

static void line_printed(void *ctx)
{
    show_progress(ctx, false);
}

static void worker_line(void *ctx, void *state, const struct grid *g, unsigned long index,
    const char *name, char *out, size_t len)
{
    const struct rate_run *run = ctx;
    rate_line(run->cli, run->tally, state, g, index, name, out, len);
}

/* Counts what the walk will rate, for the progress line's time left: the
 * entries of this shard after those kept. 0 (unknown) when an input is
 * standard input, which cannot be read twice. */
static bool count_entry(void *ctx, const struct input_entry *e)
{
    struct rate_run *run = ctx;
    if (shard_owns(&run->cli->shard, e->index - 1) && e->index > run->kept.last
        && entry_ratable(run, e, run->quiet))
        run->to_rate++;
    return true;
}

static unsigned long entries_to_rate(struct rate_run *run)
{
    const struct rate_cli *cli = run->cli;
    if (cli->nfiles == 0)
        return 0;
    for (int i = 0; i < cli->nfiles; i++)
        if (!strcmp(cli->files[i], "-"))
            return 0;
    run->quiet = fopen("/dev/null", "w");
    if (!run->quiet)
        return 0;
    const struct input_options in = cli_input(&cli->common, run->quiet);
    run->to_rate = 0;
    input_walk(&in, cli->nfiles, cli->files, count_entry, run);
    fclose(run->quiet);
    run->quiet = NULL;
    return run->to_rate;
}

int rate_run(const struct rate_cli *cli)
{
    struct rate_run run;
    memset(&run, 0, sizeof(run));
    run.cli = cli;
    struct rate_tally tally = { 0 };
    run.tally = &tally;
    if (cli->out)
        setvbuf(stdout, NULL, _IOLBF, 0);
    char why[200];
    if (rater_open(&run.rater, cli->methods, cli->common.solver, cli->permutations,
            cli->seed, why, sizeof(why))
        != 0) {
        fprintf(stderr, "sudolab rate: %s\n", why);
        return CLI_USAGE;
    }
    run.rater.budget_steps = cli->common.budget_steps;
    run.rater.budget_ms = cli->common.budget_ms;
    size_t settings_len = 0;
    char *settings = cli->resume ? settings_text(&run, &settings_len) : NULL;
    if (cli->resume && !settings) {
        fprintf(stderr, "sudolab rate: out of memory\n");
        rater_close(&run.rater);
        return CLI_SKIPPED;
    }
    if (cli->out
        && (out_is_input(cli) || (cli->resume && !kept_read(&run, settings, settings_len))
            || !out_open(&run))) {
        free(settings);
        kept_free(&run.kept);
        rater_close(&run.rater);
        return CLI_USAGE;
    }
    free(settings);
    if (!run.kept.bytes)
        print_settings(&run, stdout);
    fflush(stdout); /* the settings line comes before any worker's line */
    run.rows = run.kept.n;
    if (run.kept.n)
        fprintf(stderr, "sudolab rate: %s: %lu rows kept (entries up to %lu)\n", cli->out,
            run.kept.n, run.kept.last);
    run.progress = isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO);
    if (run.progress)
        run.to_rate = entries_to_rate(&run);
    run.started_ns = clock_now_ns();
    run.shown_ns = 0; /* the first rating shows a line at once */
    if (cli->jobs > 1) {
        const struct rate_pool_calls calls
            = { &run, worker_open, worker_close, worker_line, line_printed };
        run.pool = rate_pool_open(cli->jobs, &calls);
        if (!run.pool) {
            fprintf(stderr, "sudolab rate: could not start %d threads\n", cli->jobs);
            rater_close(&run.rater);
            return CLI_SKIPPED;
        }
    }
    const unsigned long problems
        = cli_walk(&cli->common, cli->nfiles, cli->files, rate_entry, &run);
    if (run.pool)
        rate_pool_close(run.pool);
    show_progress(&run, true);
    const bool resumed = kept_all_met(&run);
    kept_free(&run.kept);
    if (!resumed) {
        rater_close(&run.rater);
        return CLI_USAGE;
    }
    /* A shard that ends without this line was cut short: merge refuses it. */
    if (cli->shard.n)
        printf("# end shard=%u/%u entries=%lu inputs=%016llx rows=%lu\n", cli->shard.k,
            cli->shard.n, run.inputs.entries, (unsigned long long) run.inputs.hash,
            run.rows);
    rater_close(&run.rater);
    if (cli->out && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "sudolab rate: %s: a write failed\n", cli->out);
        return CLI_SKIPPED;
    }
    return problems || run.failures ? CLI_SKIPPED : CLI_OK;
}

int cmd_rate(int argc, char **argv)
{
    struct rate_cli cli;
    const enum cli_parsed p = rate_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&rate_table, stdout);
    return p == CLI_PARSED_RUN ? rate_run(&cli) : cli_parsed_status(p);
}
