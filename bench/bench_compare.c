#include "bench/bench_compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/bench_csv.h"
#include "bench/bench_summary.h"
#include "solvers/registry.h"

const char *bench_verdict_name(enum bench_verdict v)
{
    switch (v) {
    case BENCH_VERDICT_SAME:
        return "no measurable difference";
    case BENCH_VERDICT_FASTER:
        return "faster";
    case BENCH_VERDICT_SLOWER:
        return "slower";
    case BENCH_VERDICT_TOO_FEW:
        break;
    }
    return "too few puzzles";
}

enum bench_verdict bench_compare_verdict(
    const struct bench_interval *iv, double threshold)
{
    if (isnan(iv->low) || isnan(iv->high))
        return BENCH_VERDICT_TOO_FEW;
    if (iv->low > 1 + threshold)
        return BENCH_VERDICT_SLOWER;
    if (iv->high < 1 / (1 + threshold))
        return BENCH_VERDICT_FASTER;
    return BENCH_VERDICT_SAME;
}

bool bench_compare_slower_than(const struct bench_interval *iv, double fraction)
{
    return !isnan(iv->low) && iv->low > 1 + fraction;
}

/* ---- Reading a run ---- */

/* One row of runs.csv, kept until the rows are folded into puzzles. */
struct row_record {
    size_t group;
    unsigned long index, line;
    unsigned repeat;
    int status;
    uint64_t solutions;
    unsigned known;
    struct solver_counters counters;
    bool timed;
    uint64_t time_ns;
    char *name;
};

struct reader {
    struct bench_compare_run *run;
    FILE *err;
    struct row_record *rows;
    size_t nrows, cap;
};

static void say_bad(
    struct reader *r, const char *path, unsigned long line, const char *why)
{
    fprintf(r->err, "%s:%lu: %s\n", path, line, why);
    r->run->bad_lines++;
}

/* The group of solver x corpus in run; SIZE_MAX when there is none. */
static size_t lookup_group(
    const struct bench_compare_run *run, const char *solver, const char *corpus)
{
    for (size_t g = run->ngroups; g-- > 0;) {
        if (strcmp(run->groups[g].solver, solver) == 0
            && strcmp(run->groups[g].corpus, corpus) == 0)
            return g;
    }
    return SIZE_MAX;
}

/* The group of solver x corpus, added when new; SIZE_MAX when out of memory. */
static size_t find_group(
    struct bench_compare_run *run, const char *solver, const char *corpus)
{
    const size_t found = lookup_group(run, solver, corpus);
    if (found != SIZE_MAX)
        return found;
    struct bench_compare_group *more
        = realloc(run->groups, (run->ngroups + 1) * sizeof(*more));
    if (!more)
        return SIZE_MAX;
    run->groups = more;
    struct bench_compare_group *g = &run->groups[run->ngroups];
    memset(g, 0, sizeof(*g));
    g->pass_median = g->pass_q1 = g->pass_q3 = NAN;
    g->solver = strdup(solver);
    g->corpus = strdup(corpus);
    if (!g->solver || !g->corpus) {
        free(g->solver);
        free(g->corpus);
        return SIZE_MAX;
    }
    return run->ngroups++;
}

/* Keeps one parsed row. Returns 0, or -1 when out of memory. */
static int keep_row(struct reader *r, const struct bench_row *row, unsigned long line)
{
    const size_t g = find_group(r->run, row->solver, row->corpus);
    if (g == SIZE_MAX)
        return -1;
    if (r->nrows == r->cap) {
        const size_t cap = r->cap ? 2 * r->cap : 256;
        struct row_record *more = realloc(r->rows, cap * sizeof(*more));
        if (!more)
            return -1;
        r->rows = more;
        r->cap = cap;
    }
    struct row_record *rec = &r->rows[r->nrows];
    *rec = (struct row_record) { .group = g,
        .index = row->index,
        .line = line,
        .repeat = row->repeat,
        .status = row->status,
        .solutions = row->solutions,
        .known = row->known,
        .counters = row->counters,
        .timed = row->timed,
        .time_ns = row->time_ns };
    if (row->name_column && row->name[0] && !(rec->name = strdup(row->name)))
        return -1;
    r->nrows++;
    return 0;
}

/* runs.csv, every good row kept. Returns 0, or -1 after saying why. */
static int read_rows(struct reader *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(r->err, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned long lineno = 0;
    struct bench_csv_columns cols;
    bool have_header = false;
    int rc = 0;
    while (rc == 0 && (got = getline(&line, &cap, f)) > 0) {
        lineno++;
        char why[200];
        if (line[got - 1] != '\n') {
            say_bad(r, path, lineno, "a torn last row (no end of line): left out");
            break;
        }
        if (!have_header) {
            if (bench_csv_parse_header(line, &cols, why, sizeof(why)) != 0) {
                fprintf(r->err, "%s:%lu: %s: not a bench runs.csv\n", path, lineno, why);
                rc = -1;
            }
            have_header = true;
            continue;
        }
        struct bench_row row;
        if (bench_csv_parse_row(line, &cols, &row, why, sizeof(why)) != 0)
            say_bad(r, path, lineno, why);
        else if (keep_row(r, &row, lineno) != 0) {
            fprintf(r->err, "%s: out of memory\n", path);
            rc = -1;
        }
    }
    if (rc == 0 && ferror(f)) {
        fprintf(r->err, "%s: read error\n", path);
        rc = -1;
    }
    if (rc == 0 && !have_header) {
        fprintf(r->err, "%s: empty: not a bench runs.csv\n", path);
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

static int row_order(const void *a, const void *b)
{
    const struct row_record *x = a, *y = b;
    if (x->group != y->group)
        return x->group < y->group ? -1 : 1;
    if (x->index != y->index)
        return x->index < y->index ? -1 : 1;
    if (x->repeat != y->repeat)
        return x->repeat < y->repeat ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* The sorted rows [from, to) of one puzzle, folded into p: the first
 * repeat's status and counters, the median of the timed repeats. A repeat
 * given twice is a bad line. scratch has room for to - from times. */
static void fold_puzzle(struct reader *r, const char *path, struct row_record *rows,
    size_t from, size_t to, double *scratch, struct bench_compare_puzzle *p)
{
    const struct row_record *first = &rows[from];
    *p = (struct bench_compare_puzzle) { .index = first->index,
        .status = first->status,
        .solutions = first->solutions,
        .known = first->known,
        .counters = first->counters,
        .name = first->name };
    rows[from].name = NULL; /* the puzzle has it now */
    size_t n = 0;
    for (size_t k = from; k < to; k++) {
        if (k > from && rows[k].repeat == rows[k - 1].repeat) {
            char why[200];
            snprintf(why, sizeof(why),
                "entry %lu, repeat %u is there twice (line %lu first): left out",
                rows[k].index, rows[k].repeat, rows[k - 1].line);
            say_bad(r, path, rows[k].line, why);
            continue;
        }
        if (rows[k].timed)
            scratch[n++] = (double) rows[k].time_ns;
    }
    p->timed = n > 0;
    p->time_ns = n > 0 ? bench_median(scratch, n) : 0;
}

/* The kept rows into each group's puzzles. Returns 0, or -1 (out of memory). */
static int fold_rows(struct reader *r, const char *path)
{
    qsort(r->rows, r->nrows, sizeof(*r->rows), row_order);
    double *scratch = malloc((r->nrows ? r->nrows : 1) * sizeof(*scratch));
    if (!scratch)
        return -1;
    for (size_t at = 0; at < r->nrows;) {
        const size_t g = r->rows[at].group;
        size_t end = at, n = 0;
        while (end < r->nrows && r->rows[end].group == g) {
            if (end == at || r->rows[end].index != r->rows[end - 1].index)
                n++;
            end++;
        }
        struct bench_compare_group *group = &r->run->groups[g];
        group->puzzles = calloc(n, sizeof(*group->puzzles));
        if (!group->puzzles) {
            free(scratch);
            return -1;
        }
        for (size_t k = at; k < end;) {
            size_t stop = k + 1;
            while (stop < end && r->rows[stop].index == r->rows[k].index)
                stop++;
            fold_puzzle(
                r, path, r->rows, k, stop, scratch, &group->puzzles[group->npuzzles++]);
            k = stop;
        }
        at = end;
    }
    free(scratch);
    return 0;
}

/* A cell of summary.csv as a number; NAN when empty or not a number. */
static double number_at(char **fields, int nfields, int at)
{
    if (at < 0 || at >= nfields || fields[at][0] == '\0')
        return NAN;
    char *end;
    const double v = strtod(fields[at], &end);
    return *end == '\0' && v > 0 ? v : NAN;
}

enum { SUMMARY_MAX_FIELDS = 256 };

/* summary.csv's whole passes into the groups, when the file is there. */
static void read_passes(struct reader *r, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return; /* a run with no summary: no passes to compare */
    static const char *const wanted[] = { "corpus", "solver", "pass_median_puzzles_per_s",
        "pass_q1_puzzles_per_s", "pass_q3_puzzles_per_s", "pass_puzzles_per_s" };
    enum { W_CORPUS, W_SOLVER, W_MEDIAN, W_Q1, W_Q3, W_ALL, W_COUNT };
    int at[W_COUNT];
    char **fields = malloc(SUMMARY_MAX_FIELDS * sizeof(*fields));
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    unsigned long lineno = 0;
    while (fields && (got = getline(&line, &cap, f)) > 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        const int n = bench_csv_split(line, fields, SUMMARY_MAX_FIELDS);
        if (n < 0) {
            say_bad(r, path, lineno, "an unterminated quote or too many fields");
            continue;
        }
        if (lineno == 1) {
            for (int w = 0; w < W_COUNT; w++) {
                at[w] = -1;
                for (int k = 0; k < n; k++) {
                    if (strcmp(fields[k], wanted[w]) == 0)
                        at[w] = k;
                }
            }
            if (at[W_CORPUS] < 0 || at[W_SOLVER] < 0) {
                say_bad(r, path, lineno, "no corpus or solver column: not a summary.csv");
                break;
            }
            continue;
        }
        if (at[W_CORPUS] >= n || at[W_SOLVER] >= n) {
            say_bad(r, path, lineno, "fewer fields than the header");
            continue;
        }
        const size_t g = lookup_group(r->run, fields[at[W_SOLVER]], fields[at[W_CORPUS]]);
        if (g == SIZE_MAX)
            continue; /* no rows of it in runs.csv */
        struct bench_compare_group *group = &r->run->groups[g];
        group->pass_median = number_at(fields, n, at[W_MEDIAN]);
        group->pass_q1 = number_at(fields, n, at[W_Q1]);
        group->pass_q3 = number_at(fields, n, at[W_Q3]);
        if (isnan(group->pass_median))
            group->pass_median = number_at(fields, n, at[W_ALL]);
    }
    if (!fields)
        fprintf(r->err, "%s: out of memory: its passes are left out\n", path);
    free(fields);
    free(line);
    fclose(f);
}

int bench_compare_read(struct bench_compare_run *run, const char *path, FILE *err)
{
    memset(run, 0, sizeof(*run));
    struct stat sb;
    run->dir = strdup(path);
    if (!run->dir) {
        fprintf(err, "%s: out of memory\n", path);
        return -1;
    }
    if (stat(path, &sb) != 0) {
        fprintf(err, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) { /* a runs.csv: its folder is the run */
        char *slash = strrchr(run->dir, '/');
        if (slash)
            *slash = '\0';
        else
            strcpy(run->dir, ".");
    }
    const size_t len = strlen(run->dir) + 16;
    char *file = malloc(len);
    if (!file) {
        fprintf(err, "%s: out of memory\n", path);
        return -1;
    }
    snprintf(file, len, "%s/env.txt", run->dir);
    const int env = bench_env_read(&run->env, file);
    if (env != 0) {
        fprintf(err, "%s: %s\n", file,
            env == -1 ? "cannot be read: not a bench --out folder?" : "out of memory");
        free(file);
        return -1;
    }
    struct reader r = { .run = run, .err = err };
    snprintf(file, len, "%s/runs.csv", run->dir);
    int rc = read_rows(&r, file);
    if (rc == 0 && fold_rows(&r, file) != 0) {
        fprintf(err, "%s: out of memory\n", file);
        rc = -1;
    }
    for (size_t k = 0; k < r.nrows; k++)
        free(r.rows[k].name);
    free(r.rows);
    if (rc == 0) {
        snprintf(file, len, "%s/summary.csv", run->dir);
        read_passes(&r, file);
    }
    free(file);
    return rc;
}

void bench_compare_run_free(struct bench_compare_run *run)
{
    for (size_t g = 0; g < run->ngroups; g++) {
        struct bench_compare_group *group = &run->groups[g];
        for (size_t p = 0; p < group->npuzzles; p++)
            free(group->puzzles[p].name);
        free(group->puzzles);
        free(group->solver);
        free(group->corpus);
    }
    free(run->groups);
    bench_env_file_free(&run->env);
    free(run->dir);
    memset(run, 0, sizeof(*run));
}

/* ---- What may be compared ---- */

/* Appends a fact to *list. Returns 0, or -1 when out of memory. */
static int add_fact(struct bench_compare_fact **list, size_t *n, const char *key,
    const char *old_value, const char *new_value)
{
    struct bench_compare_fact *more = realloc(*list, (*n + 1) * sizeof(*more));
    if (!more)
        return -1;
    *list = more;
    struct bench_compare_fact *f = &more[(*n)++];
    snprintf(f->key, sizeof(f->key), "%s", key);
    snprintf(f->old_value, sizeof(f->old_value), "%s", old_value ? old_value : "");
    snprintf(f->new_value, sizeof(f->new_value), "%s", new_value ? new_value : "");
    return 0;
}

/* A fact of a run's env.txt: its last value, or every value of a key
 * written once per item (isa_path) joined by "; ". "" when not recorded. */
static void env_fact(
    const struct bench_compare_run *run, enum bench_env_key key, char *out, size_t len)
{
    out[0] = '\0';
    if (key != BENCH_ENV_ISA_PATH) {
        const char *v = bench_env_get(&run->env, key);
        snprintf(out, len, "%s", v ? v : "");
        return;
    }
    size_t at = 0, pos = 0;
    for (const char *v; (v = bench_env_next(&run->env, key, &at)) && pos < len;)
        pos += (size_t) snprintf(out + pos, len - pos, "%s%s", pos ? "; " : "", v);
}

/* What makes the rows of two runs time the same work: refused when both
 * state it and differ. */
static const enum bench_env_key same_work_keys[] = {
    BENCH_ENV_LIMIT,
    BENCH_ENV_BUDGET_MS,
    BENCH_ENV_BUDGET_STEPS,
    BENCH_ENV_PERMUTE,
    BENCH_ENV_TDOKU_PROTOCOL,
    BENCH_ENV_HEAD,
};

/* What may differ and still be compared, named beside the figures. */
static const enum bench_env_key named_keys[] = {
    BENCH_ENV_HOST,
    BENCH_ENV_KERNEL,
    BENCH_ENV_CPU,
    BENCH_ENV_CPU_SIMD,
    BENCH_ENV_CORES_ONLINE,
    BENCH_ENV_CORES_USABLE,
    BENCH_ENV_GOVERNOR,
    BENCH_ENV_SUDOLAB,
    BENCH_ENV_GIT_REVISION,
    BENCH_ENV_COMPILER,
    BENCH_ENV_BUILDTYPE,
    BENCH_ENV_BUILD_OPTIONS,
    BENCH_ENV_C_ARGS,
    BENCH_ENV_NATIVE,
    BENCH_ENV_ISA_PATH,
    BENCH_ENV_REPEAT,
    BENCH_ENV_THREADS,
    BENCH_ENV_WARMUP_MS,
    BENCH_ENV_PASS_MS,
    BENCH_ENV_FAST_US,
    BENCH_ENV_SEEDS,
    BENCH_ENV_QUIET,
};

static bool permuted(const struct bench_compare_run *run)
{
    const char *p = bench_env_get(&run->env, BENCH_ENV_PERMUTE);
    return p && strcmp(p, "yes") == 0;
}

/* Whether a run finished whole: a complete run (not interrupted, nothing
 * pending) of every shard, merged or never split. Says otherwise in why. */
static bool run_whole(const struct bench_compare_run *run, char *why, size_t len)
{
    const char *finished = bench_env_get(&run->env, BENCH_ENV_FINISHED);
    const char *pending = bench_env_get(&run->env, BENCH_ENV_RUNS_PENDING);
    const char *shard = bench_env_get(&run->env, BENCH_ENV_SHARD);
    if (!finished || strcmp(finished, "complete") != 0 || !pending
        || strcmp(pending, "0") != 0) {
        snprintf(why, len,
            "did not finish (%s, %s runs pending): complete it with --resume",
            finished ? finished : "no end", pending ? pending : "?");
        return false;
    }
    if (!bench_env_get(&run->env, BENCH_ENV_MERGED) && shard
        && strcmp(shard, "1/1") != 0) {
        snprintf(why, len, "shard %s of a run: merge the shards first", shard);
        return false;
    }
    snprintf(why, len, "complete");
    return true;
}

/* The length of NAME in a fingerprint "NAME ENTRIES HASH" (NAME may hold
 * spaces); 0 when it is malformed. */
static size_t fingerprint_name_len(const char *fp)
{
    const char *hash = strrchr(fp, ' ');
    if (!hash)
        return 0;
    const char *count = hash;
    while (count > fp && count[-1] != ' ')
        count--;
    return count > fp ? (size_t) (count - 1 - fp) : 0;
}

/* Each corpus both runs name, with the same entries and content: another
 * fingerprint under the same name is other puzzles. */
static int corpus_facts(const struct bench_compare_run *old,
    const struct bench_compare_run *new, struct bench_compare *cmp)
{
    size_t at = 0;
    for (const char *fo;
         (fo = bench_env_next(&old->env, BENCH_ENV_CORPUS_FINGERPRINT, &at));) {
        const size_t name_len = fingerprint_name_len(fo);
        size_t bt = 0;
        for (const char *fn; name_len
             && (fn = bench_env_next(&new->env, BENCH_ENV_CORPUS_FINGERPRINT, &bt));) {
            if (fingerprint_name_len(fn) != name_len || strncmp(fn, fo, name_len) != 0
                || strcmp(fn, fo) == 0)
                continue;
            char key[64];
            snprintf(key, sizeof(key), "corpus %.*s",
                (int) (name_len > 50 ? 50 : name_len), fo);
            bool said = false; /* a merged env.txt has each shard's lines */
            for (size_t k = 0; k < cmp->nrefusals; k++)
                said |= strcmp(cmp->refusals[k].key, key) == 0;
            if (!said
                && add_fact(&cmp->refusals, &cmp->nrefusals, key, fo + name_len + 1,
                       fn + name_len + 1)
                    != 0)
                return -1;
        }
    }
    return 0;
}

/* Why the runs cannot be compared, into cmp->refusals. Returns 0 or -1. */
static int check_refusals(const struct bench_compare_run *old,
    const struct bench_compare_run *new, struct bench_compare *cmp)
{
    char a[256], b[256];
    const bool whole_old = run_whole(old, a, sizeof(a));
    const bool whole_new = run_whole(new, b, sizeof(b));
    if ((!whole_old || !whole_new)
        && add_fact(&cmp->refusals, &cmp->nrefusals, "finished", a, b) != 0)
        return -1;
    for (size_t k = 0; k < sizeof(same_work_keys) / sizeof(same_work_keys[0]); k++) {
        const char *va = bench_env_get(&old->env, same_work_keys[k]);
        const char *vb = bench_env_get(&new->env, same_work_keys[k]);
        if (va && vb && strcmp(va, vb) != 0
            && add_fact(&cmp->refusals, &cmp->nrefusals,
                   bench_env_key_name(same_work_keys[k]), va, vb)
                != 0)
            return -1;
    }
    if (permuted(old) && permuted(new)) { /* the seed picks the permutations */
        const char *va = bench_env_get(&old->env, BENCH_ENV_SEED);
        const char *vb = bench_env_get(&new->env, BENCH_ENV_SEED);
        if (va && vb && strcmp(va, vb) != 0
            && add_fact(&cmp->refusals, &cmp->nrefusals, "seed", va, vb) != 0)
            return -1;
    }
    return corpus_facts(old, new, cmp);
}

/* Whether a back end both runs have is a built-in stochastic one, whose
 * runs the seed fixes even when puzzles are not permuted. */
static bool seed_matters(
    const struct bench_compare_run *old, const struct bench_compare_run *new)
{
    for (size_t g = 0; g < old->ngroups; g++) {
        for (const struct solver *const *s = solver_registry; *s; s++) {
            if (((*s)->caps & SOLVER_CAP_INCOMPLETE)
                && strcmp((*s)->name, old->groups[g].solver) == 0
                && lookup_group(new, old->groups[g].solver, old->groups[g].corpus)
                    != SIZE_MAX)
                return true;
        }
    }
    return false;
}

/* What differs and may be compared, into cmp->differences. quiet differs
 * when its verdict does (yes, no, unknown), not its figures. */
static int collect_differences(const struct bench_compare_run *old,
    const struct bench_compare_run *new, struct bench_compare *cmp)
{
    char a[256], b[256];
    for (size_t k = 0; k < sizeof(named_keys) / sizeof(named_keys[0]); k++) {
        env_fact(old, named_keys[k], a, sizeof(a));
        env_fact(new, named_keys[k], b, sizeof(b));
        const bool differ = named_keys[k] == BENCH_ENV_QUIET
            ? strcspn(a, " ") != strcspn(b, " ") || strncmp(a, b, strcspn(a, " ")) != 0
            : strcmp(a, b) != 0;
        if (differ
            && add_fact(&cmp->differences, &cmp->ndifferences,
                   bench_env_key_name(named_keys[k]), a, b)
                != 0)
            return -1;
    }
    if ((!permuted(old) || !permuted(new)) && seed_matters(old, new)) {
        env_fact(old, BENCH_ENV_SEED, a, sizeof(a));
        env_fact(new, BENCH_ENV_SEED, b, sizeof(b));
        if (strcmp(a, b) != 0
            && add_fact(&cmp->differences, &cmp->ndifferences, "seed", a, b) != 0)
            return -1;
    }
    return 0;
}

static bool has_solver(const struct bench_compare_run *run, const char *solver)
{
    for (size_t g = 0; g < run->ngroups; g++) {
        if (strcmp(run->groups[g].solver, solver) == 0)
            return true;
    }
    return false;
}

static bool has_corpus(const struct bench_compare_run *run, const char *corpus)
{
    for (size_t g = 0; g < run->ngroups; g++) {
        if (strcmp(run->groups[g].corpus, corpus) == 0)
            return true;
    }
    return false;
}

/* The back ends and corpora of one run that the other lacks, each once. */
static int unmatched_of(const struct bench_compare_run *run,
    const struct bench_compare_run *other, bool is_old, struct bench_compare *cmp)
{
    for (size_t g = 0; g < run->ngroups; g++) {
        const struct bench_compare_group *group = &run->groups[g];
        for (int kind = 0; kind < 2; kind++) {
            const char *what = kind ? group->corpus : group->solver;
            if (kind ? has_corpus(other, what) : has_solver(other, what))
                continue;
            char key[64];
            snprintf(key, sizeof(key), "%s %.50s", kind ? "corpus" : "solver", what);
            bool said = false;
            for (size_t k = 0; k < cmp->nunmatched; k++)
                said |= strcmp(cmp->unmatched[k].key, key) == 0;
            if (!said
                && add_fact(&cmp->unmatched, &cmp->nunmatched, key, is_old ? "yes" : "",
                       is_old ? "" : "yes")
                    != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- The figures of one back end x corpus ---- */

static bool finished(const struct bench_compare_puzzle *p)
{
    return p->timed && p->status != SOLVE_STATUS_LIMIT && p->status != SOLVE_STATUS_ERROR;
}

static bool unfinished(const struct bench_compare_puzzle *p)
{
    return p->status == SOLVE_STATUS_LIMIT || p->status == SOLVE_STATUS_ERROR;
}

static int add_change(struct bench_compare_cell *c, const struct bench_compare_puzzle *po,
    const struct bench_compare_puzzle *pn)
{
    struct bench_compare_change *more
        = realloc(c->changes, (c->nchanges + 1) * sizeof(*more));
    if (!more)
        return -1;
    c->changes = more;
    more[c->nchanges++] = (struct bench_compare_change) { .index = po->index,
        .name = pn->name ? pn->name : po->name,
        .old_status = po->status,
        .new_status = pn->status,
        .old_solutions = po->solutions,
        .new_solutions = pn->solutions };
    return 0;
}

/* The per-puzzle time ratios and counters of the puzzles both runs have,
 * joined by index (both are sorted). Returns 0, or -1 (out of memory). */
static int join_puzzles(struct bench_compare_cell *c, double *time_ratio,
    double (*counter_ratio)[SOLVER_COUNTER_COUNT])
{
    const struct bench_compare_group *go = c->old, *gn = c->new;
    for (size_t k = 0; k < SOLVER_COUNTER_COUNT; k++)
        c->counter_same[k] = true;
    for (size_t i = 0, j = 0; i < go->npuzzles && j < gn->npuzzles;) {
        const struct bench_compare_puzzle *po = &go->puzzles[i], *pn = &gn->puzzles[j];
        if (po->index != pn->index) {
            i += po->index < pn->index;
            j += pn->index < po->index;
            continue;
        }
        i++, j++;
        c->common++;
        if ((po->status != pn->status || po->solutions != pn->solutions)
            && add_change(c, po, pn) != 0)
            return -1;
        c->newly_unfinished += finished(po) && unfinished(pn);
        c->newly_finished += unfinished(po) && finished(pn);
        if (!finished(po) || !finished(pn))
            continue;
        /* a 0 ns reading is below the clock's resolution, not free */
        time_ratio[c->pairs]
            = (pn->time_ns > 1 ? pn->time_ns : 1) / (po->time_ns > 1 ? po->time_ns : 1);
        for (int k = 0; k < SOLVER_COUNTER_COUNT; k++) {
            if (!(po->known & pn->known & (1u << k)))
                continue;
            const uint64_t vo = solver_counter_get(&po->counters, k);
            const uint64_t vn = solver_counter_get(&pn->counters, k);
            counter_ratio[c->pairs][k] = ((double) vn + 1) / ((double) vo + 1);
            c->counter_same[k] &= vo == vn;
        }
        c->pairs++;
    }
    return 0;
}

/* Whether counter k is known for every pair of both runs. */
static bool counter_known(const struct bench_compare_cell *c, int k)
{
    bool any = false;
    for (size_t i = 0, j = 0; i < c->old->npuzzles && j < c->new->npuzzles;) {
        const struct bench_compare_puzzle *po = &c->old->puzzles[i],
                                          *pn = &c->new->puzzles[j];
        if (po->index != pn->index) {
            i += po->index < pn->index;
            j += pn->index < po->index;
            continue;
        }
        i++, j++;
        if (!finished(po) || !finished(pn))
            continue;
        if (!(po->known & pn->known & (1u << k)))
            return false;
        any = true;
    }
    return any;
}

static int compare_cell(struct bench_compare_cell *c, double threshold)
{
    for (size_t p = 0; p < c->old->npuzzles; p++)
        c->old_status[c->old->puzzles[p].status]++;
    for (size_t p = 0; p < c->new->npuzzles; p++)
        c->new_status[c->new->puzzles[p].status]++;
    const size_t n
        = c->old->npuzzles < c->new->npuzzles ? c->old->npuzzles : c->new->npuzzles;
    double *time_ratio = malloc((n ? n : 1) * sizeof(*time_ratio));
    double(*counter_ratio)[SOLVER_COUNTER_COUNT]
        = malloc((n ? n : 1) * sizeof(*counter_ratio));
    double *column = malloc((n ? n : 1) * sizeof(*column));
    int rc = -1;
    if (!time_ratio || !counter_ratio || !column
        || join_puzzles(c, time_ratio, counter_ratio) != 0)
        goto out;
    c->time = (struct bench_interval) { NAN, NAN, NAN };
    if (c->pairs >= BENCH_INTERVAL_MIN_PAIRS) {
        if (bench_geomean_interval(time_ratio, c->pairs, BENCH_BOOTSTRAP_RESAMPLES,
                BENCH_BOOTSTRAP_SEED, BENCH_BOOTSTRAP_LEVEL, &c->time)
            != 0)
            goto out;
    } else {
        c->time.estimate = bench_geomean(time_ratio, c->pairs);
    }
    c->verdict = bench_compare_verdict(&c->time, threshold);
    c->counters_identical = c->pairs > 0;
    bool any_counter = false;
    for (int k = 0; k < SOLVER_COUNTER_COUNT; k++) {
        c->counter_ratio[k] = NAN;
        if (!counter_known(c, k)) {
            c->counter_same[k] = false;
            continue;
        }
        any_counter = true;
        for (size_t p = 0; p < c->pairs; p++)
            column[p] = counter_ratio[p][k];
        c->counter_ratio[k] = bench_geomean(column, c->pairs);
        c->counters_identical &= c->counter_same[k];
    }
    c->counters_identical &= any_counter;
    const struct bench_compare_group *go = c->old, *gn = c->new;
    c->pass_ratio = c->pass_low = c->pass_high = NAN;
    if (!isnan(go->pass_median) && !isnan(gn->pass_median)) {
        /* the time of a pass is the inverse of its puzzles/s */
        c->pass_ratio = go->pass_median / gn->pass_median;
        if (!isnan(go->pass_q1) && !isnan(go->pass_q3) && !isnan(gn->pass_q1)
            && !isnan(gn->pass_q3)) {
            c->pass_low = go->pass_q1 / gn->pass_q3;
            c->pass_high = go->pass_q3 / gn->pass_q1;
        }
    }
    rc = 0;
out:
    free(time_ratio);
    free(counter_ratio);
    free(column);
    return rc;
}

int bench_compare_runs(const struct bench_compare_run *old,
    const struct bench_compare_run *new, double threshold, struct bench_compare *cmp)
{
    memset(cmp, 0, sizeof(*cmp));
    cmp->old = old;
    cmp->new = new;
    cmp->threshold = threshold;
    if (check_refusals(old, new, cmp) != 0 || collect_differences(old, new, cmp) != 0
        || unmatched_of(old, new, true, cmp) != 0
        || unmatched_of(new, old, false, cmp) != 0)
        return -1;
    if (cmp->nrefusals > 0)
        return 0;
    size_t ncells = 0;
    for (size_t g = 0; g < old->ngroups; g++)
        ncells += lookup_group(new, old->groups[g].solver, old->groups[g].corpus)
            != SIZE_MAX;
    if (ncells == 0)
        return add_fact(&cmp->refusals, &cmp->nrefusals, "rows",
            "no back end x corpus in common", "no back end x corpus in common");
    cmp->cells = calloc(ncells, sizeof(*cmp->cells));
    if (!cmp->cells)
        return -1;
    for (size_t g = 0; g < old->ngroups; g++) {
        const size_t h = lookup_group(new, old->groups[g].solver, old->groups[g].corpus);
        if (h == SIZE_MAX)
            continue;
        struct bench_compare_cell *c = &cmp->cells[cmp->ncells++];
        c->old = &old->groups[g];
        c->new = &new->groups[h];
        if (compare_cell(c, threshold) != 0)
            return -1;
    }
    return 0;
}

void bench_compare_free(struct bench_compare *cmp)
{
    for (size_t k = 0; k < cmp->ncells; k++)
        free(cmp->cells[k].changes);
    free(cmp->cells);
    free(cmp->refusals);
    free(cmp->differences);
    free(cmp->unmatched);
    memset(cmp, 0, sizeof(*cmp));
}

/* ---- Writing it out ---- */

/* A ratio with three significant figures at most (50.2, 0.912, 1.00). */
static void format_ratio(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (v >= 100)
        snprintf(buf, len, "%.0f", v);
    else if (v >= 10)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.3f", v);
}

/* A Markdown table cell: a '|' would end it, a line break the row. */
static void md_text(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '|')
            fputs("\\|", out);
        else
            fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
    }
}

static void md_fact_row(FILE *out, const char *label, const char *a, const char *b)
{
    fprintf(out, "| %s | ", label);
    md_text(out, a && *a ? a : "-");
    fputs(" | ", out);
    md_text(out, b && *b ? b : "-");
    fputs(" |\n", out);
}

static void md_runs(const struct bench_compare *cmp, FILE *out)
{
    static const struct {
        const char *label;
        enum bench_env_key key;
    } shown[] = {
        { "date", BENCH_ENV_DATE },
        { "revision", BENCH_ENV_GIT_REVISION },
        { "CPU", BENCH_ENV_CPU },
        { "compiler", BENCH_ENV_COMPILER },
        { "build type", BENCH_ENV_BUILDTYPE },
        { "quiet", BENCH_ENV_QUIET },
    };
    fputs("| | OLD | NEW |\n|---|---|---|\n", out);
    md_fact_row(out, "folder", cmp->old->dir, cmp->new->dir);
    char a[256], b[256];
    for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
        env_fact(cmp->old, shown[k].key, a, sizeof(a));
        env_fact(cmp->new, shown[k].key, b, sizeof(b));
        md_fact_row(out, shown[k].label, a, b);
    }
}

/* Whether a run's env.txt says it had the machine to itself. */
static bool quiet(const struct bench_compare_run *run)
{
    const char *q = bench_env_get(&run->env, BENCH_ENV_QUIET);
    return q && strncmp(q, "yes", 3) == 0;
}

static void md_method(const struct bench_compare *cmp, FILE *out)
{
    fprintf(out,
        "\nTime is NEW / OLD per puzzle (below 1: NEW is faster): the geometric mean "
        "over\n"
        "the puzzles both runs finished, with its 95%% paired bootstrap interval (%d\n"
        "resamples, seed 0x%llx, from %d puzzles). A verdict needs the whole interval\n"
        "beyond %.3g%% of 1 (above %.4g or below %.4g); the interval covers which "
        "puzzles\n"
        "the corpus holds, not the noise of one run against the other (see quiet "
        "above).\n"
        "Whole passes: NEW / OLD time of the median pass, [OLD's first quartile against\n"
        "NEW's third, OLD's third against NEW's first]. Counters: the geometric mean of\n"
        "(NEW + 1) / (OLD + 1) over the same puzzles, identical when every puzzle's "
        "is.\n",
        BENCH_BOOTSTRAP_RESAMPLES, (unsigned long long) BENCH_BOOTSTRAP_SEED,
        BENCH_INTERVAL_MIN_PAIRS, 100 * cmp->threshold, 1 + cmp->threshold,
        1 / (1 + cmp->threshold));
}

/* Load moves whole runs, which the interval does not cover: said first. */
static void md_quiet(const struct bench_compare *cmp, FILE *out)
{
    if (!quiet(cmp->old) || !quiet(cmp->new))
        fprintf(out,
            "**Not quiet**: %s shared the machine (or did not say). Load slows every "
            "puzzle of a run alike, which the interval does not see: trust a verdict "
            "from "
            "quiet runs, or one that holds when both runs are repeated.\n\n",
            !quiet(cmp->old) && !quiet(cmp->new) ? "both runs"
                : !quiet(cmp->old)               ? "OLD"
                                                 : "NEW");
}

static void md_counter(const struct bench_compare_cell *c, int k, FILE *out)
{
    char r[32];
    if (isnan(c->counter_ratio[k]))
        fputs(" - |", out);
    else if (c->counter_same[k])
        fputs(" identical |", out);
    else {
        format_ratio(r, sizeof(r), c->counter_ratio[k]);
        fprintf(out, " %s |", r);
    }
}

static void md_cell(const struct bench_compare_cell *c, FILE *out)
{
    char r[32], lo[32], hi[32];
    fputs("| ", out);
    md_text(out, c->old->solver);
    fputs(" | ", out);
    md_text(out, c->old->corpus);
    if (c->pairs == c->common)
        fprintf(out, " | %zu |", c->pairs);
    else
        fprintf(out, " | %zu of %zu |", c->pairs, c->common);
    format_ratio(r, sizeof(r), c->time.estimate);
    if (isnan(c->time.low))
        fprintf(out, " %s |", r);
    else {
        format_ratio(lo, sizeof(lo), c->time.low);
        format_ratio(hi, sizeof(hi), c->time.high);
        fprintf(out, " %s [%s, %s] |", r, lo, hi);
    }
    if (c->verdict == BENCH_VERDICT_FASTER || c->verdict == BENCH_VERDICT_SLOWER) {
        const double change = 100 * (c->time.estimate - 1);
        fprintf(out, fabs(change) >= 100 ? " **%s** (%+.0f%%) |" : " **%s** (%+.1f%%) |",
            bench_verdict_name(c->verdict), change);
    } else {
        fprintf(out, " %s |", bench_verdict_name(c->verdict));
    }
    format_ratio(r, sizeof(r), c->pass_ratio);
    if (isnan(c->pass_low))
        fprintf(out, " %s |", r);
    else {
        format_ratio(lo, sizeof(lo), c->pass_low);
        format_ratio(hi, sizeof(hi), c->pass_high);
        fprintf(out, " %s [%s, %s] |", r, lo, hi);
    }
    md_counter(c, SOLVER_COUNTER_guesses, out);
    md_counter(c, SOLVER_COUNTER_nodes, out);
    fprintf(out, " %zu |\n", c->nchanges);
}

static bool is_unfinished_status(int status)
{
    return status == SOLVE_STATUS_LIMIT || status == SOLVE_STATUS_ERROR
        || status == SOLVE_STATUS_INVALID;
}

enum { MD_CHANGES_LISTED = 20 };

/* One back end x corpus's changed puzzles, by transition: a puzzle that no
 * longer finishes (or no longer parses) is news, in bold. */
static void md_changes(const struct bench_compare_cell *c, FILE *out)
{
    fputs("\n**", out);
    md_text(out, c->old->solver);
    fputs(", ", out);
    md_text(out, c->old->corpus);
    fprintf(out, "**: %zu of %zu puzzles changed", c->nchanges, c->common);
    if (c->newly_unfinished)
        fprintf(out, ", %zu no longer finished", c->newly_unfinished);
    if (c->newly_finished)
        fprintf(out, ", %zu newly finished", c->newly_finished);
    fputs("\n", out);
    for (int run = 0; run < 2; run++) {
        const size_t *counts = run ? c->new_status : c->old_status;
        fprintf(out, "- %s:", run ? "NEW" : "OLD");
        for (int k = 0, any = 0; k < SOLVE_STATUS_COUNT; k++) {
            if (counts[k])
                fprintf(out, "%s %s %zu", any++ ? "," : "",
                    solve_status_name((enum solve_status) k), counts[k]);
        }
        fputs("\n", out);
    }
    for (int os = 0; os < SOLVE_STATUS_COUNT; os++) {
        for (int ns = 0; ns < SOLVE_STATUS_COUNT; ns++) {
            size_t count = 0, listed = 0;
            for (size_t k = 0; k < c->nchanges; k++)
                count += c->changes[k].old_status == os && c->changes[k].new_status == ns;
            if (count == 0)
                continue;
            const bool news = !is_unfinished_status(os) && is_unfinished_status(ns);
            if (os == ns)
                fprintf(out, "- %s, another solution count (%zu): ",
                    solve_status_name((enum solve_status) os), count);
            else
                fprintf(out, "- %s%s -> %s%s (%zu): ", news ? "**" : "",
                    solve_status_name((enum solve_status) os),
                    solve_status_name((enum solve_status) ns), news ? "**" : "", count);
            for (size_t k = 0; k < c->nchanges && listed < MD_CHANGES_LISTED; k++) {
                const struct bench_compare_change *ch = &c->changes[k];
                if (ch->old_status != os || ch->new_status != ns)
                    continue;
                fprintf(out, "%s%lu", listed++ ? ", " : "", ch->index);
                if (ch->name) {
                    fputs(" (", out);
                    md_text(out, ch->name);
                    fputs(")", out);
                }
                if (os == ns)
                    fprintf(out, " [%llu -> %llu solutions]",
                        (unsigned long long) ch->old_solutions,
                        (unsigned long long) ch->new_solutions);
            }
            fprintf(out, "%s\n", count > listed ? ", ..." : "");
        }
    }
}

enum { MD_SUMMARY_NAMED = 10 };

/* The answer first: how many of each verdict, the slower ones named, and
 * what changed beyond the time. */
static void md_summary(const struct bench_compare *cmp, FILE *out)
{
    size_t verdicts[4] = { 0 }, identical = 0, with_counters = 0, changed = 0;
    for (size_t k = 0; k < cmp->ncells; k++) {
        const struct bench_compare_cell *c = &cmp->cells[k];
        verdicts[c->verdict]++;
        identical += c->counters_identical;
        for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
            if (!isnan(c->counter_ratio[i])) {
                with_counters++;
                break;
            }
        }
        changed += c->nchanges;
    }
    fprintf(out,
        "**%zu back end x corpus compared**: %zu slower, %zu faster, %zu no measurable "
        "difference, %zu with too few puzzles. Counters identical in %zu of %zu; %zu "
        "puzzle%s changed status or solution count.\n",
        cmp->ncells, verdicts[BENCH_VERDICT_SLOWER], verdicts[BENCH_VERDICT_FASTER],
        verdicts[BENCH_VERDICT_SAME], verdicts[BENCH_VERDICT_TOO_FEW], identical,
        with_counters, changed, changed == 1 ? "" : "s");
    for (int v = BENCH_VERDICT_SLOWER; v >= BENCH_VERDICT_FASTER; v--) {
        size_t named = 0;
        for (size_t k = 0; k < cmp->ncells && named < MD_SUMMARY_NAMED; k++) {
            const struct bench_compare_cell *c = &cmp->cells[k];
            if (c->verdict != (enum bench_verdict) v)
                continue;
            char r[32], lo[32], hi[32];
            format_ratio(r, sizeof(r), c->time.estimate);
            format_ratio(lo, sizeof(lo), c->time.low);
            format_ratio(hi, sizeof(hi), c->time.high);
            fprintf(out, "%s",
                named++                         ? ", "
                    : v == BENCH_VERDICT_SLOWER ? "\nSlower: "
                                                : "\nFaster: ");
            md_text(out, c->old->solver);
            fputs(" on ", out);
            md_text(out, c->old->corpus);
            fprintf(out, " %s [%s, %s]", r, lo, hi);
        }
        if (named > 0)
            fprintf(out, "%s.\n", verdicts[v] > named ? ", ..." : "");
    }
    fputc('\n', out);
}

void bench_compare_write_markdown(const struct bench_compare *cmp, FILE *out)
{
    fputs("# sudolab compare: NEW against OLD\n\n", out);
    md_runs(cmp, out);
    fputc('\n', out);
    md_summary(cmp, out);
    md_quiet(cmp, out);
    fputs(
        "| solver | corpus | puzzles | time NEW/OLD [95%] | verdict | whole pass NEW/OLD "
        "[quartiles] | guesses NEW/OLD | nodes NEW/OLD | status changes |\n"
        "|---|---|---:|---:|---|---:|---:|---:|---:|\n",
        out);
    for (size_t k = 0; k < cmp->ncells; k++)
        md_cell(&cmp->cells[k], out);
    md_method(cmp, out);
    bool any = false;
    for (size_t k = 0; k < cmp->ncells; k++) {
        if (cmp->cells[k].nchanges == 0)
            continue;
        if (!any)
            fputs("\n## Status changes\n", out);
        any = true;
        md_changes(&cmp->cells[k], out);
    }
    if (cmp->ndifferences > 0) {
        fputs("\n## What differs between the runs (compared all the same)\n\n"
              "| fact | OLD | NEW |\n|---|---|---|\n",
            out);
        for (size_t k = 0; k < cmp->ndifferences; k++)
            md_fact_row(out, cmp->differences[k].key, cmp->differences[k].old_value,
                cmp->differences[k].new_value);
    }
    if (cmp->nunmatched > 0) {
        fputs("\n## Left out: in one run only\n\n", out);
        for (size_t k = 0; k < cmp->nunmatched; k++) {
            fputs("- ", out);
            md_text(out, cmp->unmatched[k].key);
            fprintf(
                out, ": only in %s\n", cmp->unmatched[k].old_value[0] ? "OLD" : "NEW");
        }
    }
}

static void csv_number(FILE *out, double v)
{
    fputc(',', out);
    if (!isnan(v))
        fprintf(out, "%.6g", v);
}

void bench_compare_write_csv(const struct bench_compare *cmp, FILE *out)
{
    fputs(
        "solver,corpus,old_puzzles,new_puzzles,pairs,ratio,ratio_low,ratio_high,verdict,"
        "pass_ratio,pass_ratio_low,pass_ratio_high,guesses_ratio,nodes_ratio,counters,"
        "status_changes,newly_unfinished,newly_finished,old_cpu,new_cpu,threshold\n",
        out);
    char cpu_old[256], cpu_new[256];
    env_fact(cmp->old, BENCH_ENV_CPU, cpu_old, sizeof(cpu_old));
    env_fact(cmp->new, BENCH_ENV_CPU, cpu_new, sizeof(cpu_new));
    for (size_t k = 0; k < cmp->ncells; k++) {
        const struct bench_compare_cell *c = &cmp->cells[k];
        bench_csv_put_text(out, c->old->solver);
        fputc(',', out);
        bench_csv_put_text(out, c->old->corpus);
        fprintf(out, ",%zu,%zu,%zu", c->old->npuzzles, c->new->npuzzles, c->pairs);
        csv_number(out, c->time.estimate);
        csv_number(out, c->time.low);
        csv_number(out, c->time.high);
        fprintf(out, ",%s", bench_verdict_name(c->verdict));
        csv_number(out, c->pass_ratio);
        csv_number(out, c->pass_low);
        csv_number(out, c->pass_high);
        csv_number(out, c->counter_ratio[SOLVER_COUNTER_guesses]);
        csv_number(out, c->counter_ratio[SOLVER_COUNTER_nodes]);
        bool known = false;
        for (int i = 0; i < SOLVER_COUNTER_COUNT; i++)
            known |= !isnan(c->counter_ratio[i]);
        fprintf(out, ",%s,%zu,%zu,%zu,",
            c->counters_identical ? "identical"
                : known           ? "changed"
                                  : "n/a",
            c->nchanges, c->newly_unfinished, c->newly_finished);
        bench_csv_put_text(out, cpu_old);
        fputc(',', out);
        bench_csv_put_text(out, cpu_new);
        fprintf(out, ",%g\n", cmp->threshold);
    }
}
