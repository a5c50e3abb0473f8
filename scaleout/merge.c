#include "scaleout/merge.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench/bench_env.h"
#include "bench/bench_run.h"
#include "bench/bench_se.h"
#include "bench/bench_summary.h"
#include "bench/out_lock.h"
#include "bench/solve_row.h"
#include "common/exit_status.h"
#include "common/io.h"
#include "common/shard.h"
#include "common/text.h"
#include "scaleout/count_merge.h"
#include "scaleout/count_text.h"
#include "scaleout/grid_text.h"
#include "scaleout/grid_walk.h"
#include "solvers/outside.h"
#include "solvers/registry.h"

static void chomp(char *s)
{
    s[strcspn(s, "\r\n")] = '\0';
}

/* Reads a line into *buf (getline); false at the end. */
static bool next_line(FILE *f, char **buf, size_t *cap)
{
    if (getline(buf, cap, f) < 0)
        return false;
    chomp(*buf);
    return true;
}

/* Cuts the " shard=K/N" token out of a header line (in place). Returns 0 and
 * the shard, 1 when there is none, -1 when it does not parse. */
static int take_shard_token(char *line, struct shard *s)
{
    char *tok = strstr(line, " shard=");
    if (!tok)
        return 1;
    char *end = tok + 7;
    end += strcspn(end, " ");
    const char saved = *end;
    *end = '\0';
    unsigned long long k, n;
    int used = 0;
    const bool ok = sscanf(tok + 7, "%llu/%llu%n", &k, &n, &used) == 2
        && tok[7 + used] == '\0' && k >= 1 && k <= n && n <= SHARD_MAX;
    *end = saved;
    if (!ok)
        return -1;
    s->k = (uint32_t) k;
    s->n = (uint32_t) n;
    memmove(tok, end, strlen(end) + 1);
    return 0;
}

/* The first space-separated token where a and b differ, for messages. */
static void first_difference(const char *a, const char *b, char *out, size_t len)
{
    size_t at = 0;
    while (a[at] && a[at] == b[at])
        at++;
    while (at > 0 && a[at - 1] != ' ')
        at--;
    const int ta = (int) strcspn(a + at, " "), tb = (int) strcspn(b + at, " ");
    snprintf(out, len, "'%.*s' against '%.*s'", ta > 80 ? 80 : ta, a + at,
        tb > 80 ? 80 : tb, b + at);
}

/* Checks that shard numbers 1..n are each present once. order[k-1] = input. */
static int check_cover(const struct shard *shards, const char *const *names, size_t count,
    const char *what, size_t *order)
{
    const uint32_t n = shards[0].n;
    for (size_t i = 0; i < count; i++) {
        if (shards[i].n != n) {
            fprintf(stderr,
                "sudolab merge: %s is shard %u/%u but %s is %u/%u: different "
                "splits\n",
                names[i], shards[i].k, shards[i].n, names[0], shards[0].k, n);
            return -1;
        }
    }
    size_t *seen = calloc(n, sizeof(*seen));
    if (!seen) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        seen[k] = SIZE_MAX;
    int rc = 0;
    for (size_t i = 0; i < count; i++) {
        const uint32_t k = shards[i].k - 1;
        if (seen[k] != SIZE_MAX) {
            fprintf(stderr,
                "sudolab merge: shard %u/%u given twice (%s and %s): duplicate "
                "rows\n",
                k + 1, n, names[seen[k]], names[i]);
            rc = -1;
        }
        seen[k] = i;
    }
    unsigned missing = 0;
    for (size_t k = 0; k < n; k++) {
        if (seen[k] != SIZE_MAX)
            continue;
        if (++missing <= 10)
            fprintf(
                stderr, "sudolab merge: %s shard %zu/%u is missing\n", what, k + 1, n);
    }
    if (missing > 10)
        fprintf(stderr, "sudolab merge: ... %u shards missing in all\n", missing);
    if (missing)
        rc = -1;
    for (size_t k = 0; rc == 0 && k < n; k++)
        order[k] = seen[k];
    free(seen);
    return rc;
}

/* ---- count ---- */

static bool parse_u64(const char *text, uint64_t *out)
{
    return text_parse_u64(text, out) == 0;
}

/* The value of key=... in an options line, copied into out. */
static bool option_value(const char *opts, const char *key, char *out, size_t len)
{
    const size_t klen = strlen(key);
    for (const char *p = opts; (p = strstr(p, key)) != NULL; p += klen) {
        if ((p == opts || p[-1] == ' ') && p[klen] == '=') {
            const char *v = p + klen + 1;
            snprintf(out, len, "%.*s", (int) strcspn(v, " "), v);
            return true;
        }
    }
    return false;
}

struct count_input {
    FILE *f;
    const char *name;
    char *opts; /* header without the shard field */
    char *columns; /* the CSV header line */
};

static void free_count_inputs(struct count_input *in, size_t n)
{
    for (size_t i = 0; in && i < n; i++) {
        free(in[i].opts);
        free(in[i].columns);
    }
    free(in);
}

/* A partial's two header lines; they must be shard 0's. Returns 0 or -1. */
static int read_count_header(
    struct count_input *ci, const struct count_input *first, struct shard *shard)
{
    size_t cap = 0;
    if (!next_line(ci->f, &ci->opts, &cap)
        || strncmp(ci->opts, COUNT_PARTIAL_MAGIC, strlen(COUNT_PARTIAL_MAGIC)) != 0) {
        fprintf(stderr, "sudolab merge: %s: not a count partial (count --shard K/N)\n",
            ci->name);
        return -1;
    }
    if (take_shard_token(ci->opts, shard) != 0) {
        fprintf(stderr, "sudolab merge: %s: no shard=K/N in the first line\n", ci->name);
        return -1;
    }
    cap = 0;
    if (!next_line(ci->f, &ci->columns, &cap)) {
        fprintf(stderr, "sudolab merge: %s: no column line\n", ci->name);
        return -1;
    }
    if (strcmp(ci->opts, first->opts) != 0 || strcmp(ci->columns, first->columns) != 0) {
        char diff[200];
        first_difference(first->opts, ci->opts, diff, sizeof(diff));
        if (strcmp(ci->opts, first->opts) == 0)
            snprintf(diff, sizeof(diff), "different columns");
        fprintf(stderr, "sudolab merge: %s and %s come from different runs: %s\n",
            first->name, ci->name, diff);
        return -1;
    }
    return 0;
}

/* Every row of one partial, into the sums; first: the name of the partial
 * whose rows came first (the others must have as many). Returns 0 or -1. */
static int add_count_rows(struct count_input *ci, const struct solver *s, const char *box,
    struct count_merge *m, const char *first)
{
    char *line = NULL, why[200];
    size_t cap = 0, r = 0;
    int rc = 0;
    for (ssize_t len; rc == 0 && (len = getline(&line, &cap, ci->f)) >= 0; r++) {
        struct count_row row;
        const bool torn = line[len - 1] != '\n';
        chomp(line);
        if (torn) {
            /* a run killed mid-row: what is there may parse, but is cut short */
            fprintf(stderr,
                "sudolab merge: %s: row %zu is torn (no end of line): the shard is "
                "incomplete, run it again\n",
                ci->name, r + 1);
            rc = -1;
        } else if (count_partial_parse(line, s, box, &row, why, sizeof(why)) != 0) {
            fprintf(stderr, "sudolab merge: %s: row %zu: %s\n", ci->name, r + 1, why);
            rc = -1;
        } else if (count_merge_add(m, r, &row, why, sizeof(why)) != 0) {
            fprintf(stderr, "sudolab merge: %s: %s\n", ci->name, why);
            rc = -1;
        }
    }
    free(line);
    const size_t before = m->shard_rows;
    if (rc == 0 && count_merge_shard_done(m, r, why, sizeof(why)) != 0) {
        /* every shard has a row per entry: the one with fewer was cut off */
        const bool this_short = r < before;
        fprintf(stderr,
            "sudolab merge: %s is incomplete: it has %zu rows, %s has %zu (a shard cut "
            "off? run it again)\n",
            this_short ? ci->name : first, this_short ? r : before,
            this_short ? first : ci->name, this_short ? before : r);
        rc = -1;
    }
    return rc;
}

/* count's rows from the sums. Returns an exit status. */
static int print_count_rows(
    const struct count_merge *m, const struct solver *s, uint64_t limit, bool csv)
{
    const struct solve_row_style style = { s, true, csv, false };
    int rc = EXIT_STATUS_OK;
    if (csv)
        solve_row_header(stdout);
    for (size_t r = 0; r < m->nrows; r++) {
        if (count_row_report(stderr, limit, &m->rows[r]))
            rc = EXIT_STATUS_SKIPPED;
        count_row_print(stdout, &style, limit, &m->rows[r]);
    }
    io_flush_stdout();
    return rc;
}

/* The partials' headers, checked; their order by shard number. */
static int check_count_inputs(struct count_input *in, size_t n, size_t *order)
{
    struct shard *shards = calloc(n, sizeof(*shards));
    if (!shards) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        return EXIT_STATUS_SKIPPED;
    }
    int rc = EXIT_STATUS_OK;
    for (size_t i = 0; i < n && rc == EXIT_STATUS_OK; i++) {
        if (read_count_header(&in[i], &in[0], &shards[i]) != 0)
            rc = EXIT_STATUS_USAGE;
    }
    const char **names = calloc(n, sizeof(*names));
    for (size_t i = 0; names && i < n; i++)
        names[i] = in[i].name;
    if (rc == EXIT_STATUS_OK
        && (!names || check_cover(shards, names, n, "count", order) != 0))
        rc = EXIT_STATUS_USAGE;
    free(names);
    free(shards);
    return rc;
}

int merge_count(FILE *const *files, const char *const *names, size_t n, bool csv)
{
    struct count_input *in = calloc(n, sizeof(*in));
    size_t *order = calloc(n, sizeof(*order));
    int rc = EXIT_STATUS_SKIPPED;
    if (!in || !order) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        in[i] = (struct count_input) { files[i], names[i], NULL, NULL };
    rc = check_count_inputs(in, n, order);
    if (rc != EXIT_STATUS_OK)
        goto done;
    char solver_name[64] = "", limit_text[32] = "0", box[16] = "";
    option_value(in[0].opts, "solver", solver_name, sizeof(solver_name));
    option_value(in[0].opts, "limit", limit_text, sizeof(limit_text));
    option_value(in[0].opts, "size", box, sizeof(box));
    const struct solver *s = solver_find(solver_name);
    uint64_t limit;
    if (!s || !parse_u64(limit_text, &limit)) {
        fprintf(stderr, "sudolab merge: %s: solver '%s' is not in this build\n", names[0],
            solver_name);
        rc = EXIT_STATUS_USAGE;
        goto done;
    }
    /* Rows first, all of them, so a mismatch anywhere leaves stdout empty. */
    struct count_merge m;
    count_merge_init(&m);
    char why[200];
    for (size_t k = 0; k < n && rc == EXIT_STATUS_OK; k++) {
        if (add_count_rows(&in[order[k]], s, box, &m, in[order[0]].name) != 0)
            rc = EXIT_STATUS_USAGE;
    }
    if (rc == EXIT_STATUS_OK && count_merge_check(&m, why, sizeof(why)) != 0) {
        fprintf(stderr, "sudolab merge: %s\n", why);
        rc = EXIT_STATUS_USAGE;
    }
    if (rc == EXIT_STATUS_OK)
        rc = print_count_rows(&m, s, limit, csv);
    count_merge_free(&m);
done:
    free_count_inputs(in, n);
    free(order);
    return rc;
}

/* ---- generate ---- */

/* Each output's header, which must be the first's but for its shard field.
 * Returns 0, or -1 after saying why. */
static int read_generate_headers(FILE *const *files, const char *const *names, size_t n,
    char **header, struct shard *shards)
{
    for (size_t i = 0; i < n; i++) {
        size_t hcap = 0;
        if (!next_line(files[i], &header[i], &hcap)
            || strncmp(header[i], "# sudolab generate ", 19) != 0) {
            fprintf(
                stderr, "sudolab merge: %s: not a sudolab generate output\n", names[i]);
            return -1;
        }
        const int t = take_shard_token(header[i], &shards[i]);
        if (t < 0) {
            fprintf(stderr, "sudolab merge: %s: a malformed shard field\n", names[i]);
            return -1;
        }
        if (t > 0)
            shards[i] = (struct shard) { 1, 1 };
        if (strcmp(header[i], header[0]) != 0) {
            char diff[200];
            first_difference(header[0], header[i], diff, sizeof(diff));
            fprintf(stderr, "sudolab merge: %s and %s come from different runs: %s\n",
                names[0], names[i], diff);
            return -1;
        }
    }
    return 0;
}

/* Checks that every shard holds exactly its share of `total` puzzles
 * (generate's split: N consecutive near-equal runs of puzzle numbers), and
 * rewinds them for writing. Returns 0, or -1 after saying why. */
static int check_generate_shares(FILE *const *files, const char *const *names,
    const size_t *order, uint32_t n, uint64_t total)
{
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    const uint64_t rest = total % n;
    for (size_t k = 0; k < n && rc == 0; k++) {
        FILE *f = files[order[k]];
        const uint64_t want = total / n + (k < rest ? 1 : 0);
        uint64_t got = 0;
        const long start = ftell(f);
        bool torn = false;
        for (ssize_t len; (len = getline(&line, &cap, f)) >= 0;) {
            torn = line[len - 1] != '\n'; /* a run killed mid-line */
            chomp(line);
            if (line[0] != '#' && line[0] != '\0')
                got++;
        }
        if (torn) {
            fprintf(stderr,
                "sudolab merge: %s (shard %zu/%u): its last line is torn (no end of "
                "line): an incomplete shard, run it again\n",
                names[order[k]], k + 1, n);
            rc = -1;
        } else if (got != want) {
            fprintf(stderr,
                "sudolab merge: %s (shard %zu/%u) has %llu puzzles, %llu expected: %s\n",
                names[order[k]], k + 1, n, (unsigned long long) got,
                (unsigned long long) want,
                got < want ? "an incomplete shard" : "duplicate rows");
            rc = -1;
        }
        if (start < 0 || fseek(f, start, SEEK_SET) != 0) {
            fprintf(stderr, "sudolab merge: %s: cannot read it twice (a pipe?)\n",
                names[order[k]]);
            rc = -1;
        }
    }
    free(line);
    return rc;
}

/* The header, then the shards' puzzles in shard order. */
static int write_generate(
    FILE *const *files, const size_t *order, uint32_t n, const char *header, FILE *out)
{
    char *line = NULL;
    size_t cap = 0;
    fprintf(out, "%s\n", header);
    for (size_t k = 0; k < n; k++) {
        FILE *f = files[order[k]];
        while (next_line(f, &line, &cap)) {
            if (line[0] != '#' && line[0] != '\0')
                fprintf(out, "%s\n", line);
        }
    }
    free(line);
    /* the caller closes out, and says what a failed write lost */
    return ferror(out) ? EXIT_STATUS_SKIPPED : EXIT_STATUS_OK;
}

int merge_generate(FILE *const *files, const char *const *names, size_t n, FILE *out)
{
    char **header = calloc(n, sizeof(*header));
    struct shard *shards = calloc(n, sizeof(*shards));
    size_t *order = calloc(n, sizeof(*order));
    int rc = EXIT_STATUS_USAGE;
    char count_text[32] = "";
    uint64_t total = 0;
    if (!header || !shards || !order) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        rc = EXIT_STATUS_SKIPPED;
    } else if (read_generate_headers(files, names, n, header, shards) != 0
        || check_cover(shards, names, n, "generate", order) != 0) {
        rc = EXIT_STATUS_USAGE;
    } else if (!option_value(header[0], "count", count_text, sizeof(count_text))
        || !parse_u64(count_text, &total)) {
        fprintf(stderr, "sudolab merge: %s: no count= in the header\n", names[0]);
    } else if (check_generate_shares(files, names, order, shards[0].n, total) == 0) {
        rc = write_generate(files, order, shards[0].n, header[0], out);
    }
    for (size_t i = 0; header && i < n; i++)
        free(header[i]);
    free(header);
    free(shards);
    free(order);
    return rc;
}

/* ---- rate ---- */

/* One rate --shard output, read whole: its header less the shard field, its
 * CSV column line (or NULL), its rows in order and its closing line's facts. */
struct rate_shard {
    char *header, *columns;
    struct shard shard;
    char **rows;
    uint64_t *index;
    size_t nrows, cap;
    bool ended;
    unsigned long entries, rows_said;
    char inputs[32];
};

static void free_rate_shard(struct rate_shard *r)
{
    for (size_t i = 0; i < r->nrows; i++)
        free(r->rows[i]);
    free(r->rows);
    free(r->index);
    free(r->header);
    free(r->columns);
}

/* A row's leading index (digits, then a space or a comma), or 0. */
static uint64_t rate_row_index(const char *line)
{
    uint64_t v = 0;
    size_t i = 0;
    for (; line[i] >= '0' && line[i] <= '9' && i < 19; i++)
        v = v * 10 + (uint64_t) (line[i] - '0');
    return i > 0 && (line[i] == ' ' || line[i] == ',') ? v : 0;
}

/* "# end shard=K/N entries=E inputs=H rows=R", checked against the header's
 * shard. Returns 0, or -1 after saying why. */
static int read_rate_end(struct rate_shard *r, const char *line, const char *name)
{
    unsigned k, n;
    int used = 0;
    if (sscanf(line, "# end shard=%u/%u entries=%lu inputs=%31s rows=%lu%n", &k, &n,
            &r->entries, r->inputs, &r->rows_said, &used)
            != 5
        || line[used] != '\0') {
        fprintf(stderr, "sudolab merge: %s: a malformed closing line: %s\n", name, line);
        return -1;
    }
    if (k != r->shard.k || n != r->shard.n) {
        fprintf(stderr,
            "sudolab merge: %s: its closing line says shard %u/%u, its header %u/%u\n",
            name, k, n, r->shard.k, r->shard.n);
        return -1;
    }
    r->ended = true;
    return 0;
}

static int add_rate_row(struct rate_shard *r, const char *line, uint64_t index)
{
    if (r->nrows == r->cap) {
        const size_t cap = r->cap ? r->cap * 2 : 1024;
        char **rows = realloc(r->rows, cap * sizeof(*rows));
        if (rows)
            r->rows = rows;
        uint64_t *ix = realloc(r->index, cap * sizeof(*ix));
        if (ix)
            r->index = ix;
        if (!rows || !ix)
            return -1;
        r->cap = cap;
    }
    if (!(r->rows[r->nrows] = strdup(line)))
        return -1;
    r->index[r->nrows++] = index;
    return 0;
}

/* The header of one output (a rate --shard one), its column line with
 * --csv. Returns 0, or -1 after saying why. */
static int read_rate_header(FILE *f, const char *name, struct rate_shard *r)
{
    size_t cap = 0;
    if (!next_line(f, &r->header, &cap)
        || strncmp(r->header, "# sudolab rate ", 15) != 0) {
        fprintf(stderr, "sudolab merge: %s: not a sudolab rate output\n", name);
        return -1;
    }
    const int t = take_shard_token(r->header, &r->shard);
    if (t != 0) {
        fprintf(stderr, "sudolab merge: %s: %s\n", name,
            t < 0 ? "a malformed shard field"
                  : "no shard field: not from rate --shard K/N, nothing to merge");
        return -1;
    }
    const int c = fgetc(f);
    if (c != EOF)
        ungetc(c, f);
    cap = 0;
    if (c == 'i' && !next_line(f, &r->columns, &cap)) /* "index,...": --csv */
        return -1;
    return 0;
}

/* The rows of one shard, each its own and in order, up to its closing line,
 * which must end the file and count them. Returns 0, or -1 after saying why. */
static int read_rate_rows(FILE *f, const char *name, struct rate_shard *r)
{
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    for (ssize_t len; rc == 0 && (len = getline(&line, &cap, f)) >= 0;) {
        const bool torn = line[len - 1] != '\n'; /* a run killed mid-line */
        chomp(line);
        if (torn || r->ended) {
            fprintf(stderr, "sudolab merge: %s: %s: an incomplete shard, run it again\n",
                name,
                torn ? "its last line is torn (no end of line)"
                     : "lines after its closing line");
            rc = -1;
        } else if (strncmp(line, "# end ", 6) == 0) {
            rc = read_rate_end(r, line, name);
        } else if (line[0] == '#' || line[0] == '\0') {
            continue;
        } else {
            const uint64_t index = rate_row_index(line);
            if (index == 0) {
                fprintf(stderr, "sudolab merge: %s: not a rate row: %.80s\n", name, line);
                rc = -1;
            } else if ((index - 1) % r->shard.n != r->shard.k - 1) {
                fprintf(stderr,
                    "sudolab merge: %s: puzzle %llu belongs to another shard than "
                    "%u/%u\n",
                    name, (unsigned long long) index, r->shard.k, r->shard.n);
                rc = -1;
            } else if (r->nrows && index <= r->index[r->nrows - 1]) {
                fprintf(stderr,
                    "sudolab merge: %s: puzzle %llu out of order: duplicate rows\n", name,
                    (unsigned long long) index);
                rc = -1;
            } else if (add_rate_row(r, line, index) != 0) {
                fprintf(stderr, "sudolab merge: out of memory\n");
                rc = -1;
            }
        }
    }
    free(line);
    if (rc == 0 && !r->ended) {
        fprintf(stderr,
            "sudolab merge: %s (shard %u/%u): no closing line: an incomplete shard, run "
            "it again\n",
            name, r->shard.k, r->shard.n);
        rc = -1;
    } else if (rc == 0 && r->rows_said != r->nrows) {
        fprintf(stderr,
            "sudolab merge: %s (shard %u/%u) has %zu rows, its closing line says %lu\n",
            name, r->shard.k, r->shard.n, r->nrows, r->rows_said);
        rc = -1;
    } else if (rc == 0 && r->nrows && r->index[r->nrows - 1] > r->entries) {
        fprintf(stderr, "sudolab merge: %s: puzzle %llu past the run's %lu\n", name,
            (unsigned long long) r->index[r->nrows - 1], r->entries);
        rc = -1;
    }
    return rc;
}

/* What must agree between two shards: header (options, revision), columns
 * and inputs. Returns 0, or -1 after saying why. */
static int check_rate_pair(const struct rate_shard *a, const struct rate_shard *b,
    const char *name_a, const char *name_b)
{
    char diff[200];
    if (strcmp(a->header, b->header) != 0) {
        first_difference(a->header, b->header, diff, sizeof(diff));
        fprintf(stderr, "sudolab merge: %s and %s come from different runs: %s\n", name_a,
            name_b, diff);
        return -1;
    }
    if ((a->columns == NULL) != (b->columns == NULL)
        || (a->columns && strcmp(a->columns, b->columns) != 0)) {
        fprintf(stderr, "sudolab merge: %s and %s: one is CSV, the other not\n", name_a,
            name_b);
        return -1;
    }
    if (a->entries != b->entries || strcmp(a->inputs, b->inputs) != 0) {
        fprintf(stderr,
            "sudolab merge: %s and %s come from different inputs (%lu entries, %s "
            "against %lu, %s)\n",
            name_a, name_b, a->entries, a->inputs, b->entries, b->inputs);
        return -1;
    }
    return 0;
}

int merge_rate(FILE *const *files, const char *const *names, size_t n, FILE *out)
{
    struct rate_shard *r = calloc(n, sizeof(*r));
    struct shard *shards = calloc(n, sizeof(*shards));
    size_t *order = calloc(n, sizeof(*order));
    int rc = r && shards && order ? 0 : -1;
    if (rc != 0)
        fprintf(stderr, "sudolab merge: out of memory\n");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = read_rate_header(files[i], names[i], &r[i]);
        shards[i] = r[i].shard;
    }
    if (rc == 0)
        rc = check_cover(shards, names, n, "rate", order);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = read_rate_rows(files[i], names[i], &r[i]);
    for (size_t i = 1; rc == 0 && i < n; i++)
        rc = check_rate_pair(&r[0], &r[i], names[0], names[i]);
    int status = rc == 0 ? EXIT_STATUS_OK : EXIT_STATUS_USAGE;
    if (rc == 0) {
        /* puzzle i is shard (i - 1) mod N's: one pass in the single run's order */
        fprintf(out, "%s\n", r[0].header);
        if (r[0].columns)
            fprintf(out, "%s\n", r[0].columns);
        const uint32_t nshards = shards[0].n;
        size_t *next = calloc(nshards, sizeof(*next));
        for (uint64_t i = 1; next && i <= r[0].entries; i++) {
            struct rate_shard *s = &r[order[(i - 1) % nshards]];
            const size_t at = next[(i - 1) % nshards];
            if (at < s->nrows && s->index[at] == i) {
                fprintf(out, "%s\n", s->rows[at]);
                next[(i - 1) % nshards]++;
            }
        }
        if (!next) {
            fprintf(stderr, "sudolab merge: out of memory\n");
            status = EXIT_STATUS_SKIPPED;
        }
        free(next);
        if (ferror(out))
            status = EXIT_STATUS_SKIPPED; /* the caller says what the write lost */
    }
    for (size_t i = 0; r && i < n; i++)
        free_rate_shard(&r[i]);
    free(r);
    free(shards);
    free(order);
    return status;
}

/* ---- detection ---- */

enum merge_kind merge_detect(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return MERGE_UNKNOWN;
    if (S_ISDIR(sb.st_mode))
        return MERGE_BENCH;
    FILE *f = fopen(path, "r");
    if (!f)
        return MERGE_UNKNOWN;
    char line[256] = "";
    const bool got = fgets(line, sizeof(line), f) != NULL;
    fclose(f);
    if (!got)
        return MERGE_UNKNOWN;
    if (strncmp(line, COUNT_PARTIAL_MAGIC, strlen(COUNT_PARTIAL_MAGIC)) == 0)
        return MERGE_COUNT;
    if (strncmp(line, GRID_PARTIAL_MAGIC, strlen(GRID_PARTIAL_MAGIC)) == 0)
        return MERGE_GRIDS;
    if (strncmp(line, GRID_WALK_MAGIC, strlen(GRID_WALK_MAGIC)) == 0)
        return MERGE_GRIDS_WALK;
    if (strncmp(line, "# sudolab generate ", 19) == 0)
        return MERGE_GENERATE;
    if (strncmp(line, "# sudolab rate ", 15) == 0)
        return MERGE_RATE;
    if (strncmp(line, "corpus,", 7) == 0)
        return MERGE_BENCH;
    return MERGE_UNKNOWN;
}

/* ---- bench ---- */

/* One shard directory: its env.txt as read (a resumed run appends a section
 * per resumption; the last is the run that finished). */
struct bench_shard {
    const char *dir;
    char *dir_copy; /* dir, when it was cut from a runs.csv path */
    struct shard shard;
    struct bench_env_file env;
    char identity[16384]; /* what must agree between shards (identity_text) */
};

static void free_bench_shard(struct bench_shard *b)
{
    bench_env_file_free(&b->env);
    free(b->dir_copy);
}

static int read_env(struct bench_shard *b)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/env.txt", b->dir);
    const int rc = bench_env_read(&b->env, path);
    if (rc == -1)
        fprintf(stderr,
            "sudolab merge: %s: cannot read it: not a bench --out directory?\n", path);
    else if (rc != 0)
        fprintf(stderr, "sudolab merge: out of memory\n");
    return rc == 0 ? 0 : -1;
}

/* The last value of key in a shard's env.txt (its last section), or NULL. */
static const char *env_get(const struct bench_shard *b, enum bench_env_key key)
{
    return bench_env_get(&b->env, key);
}

/* What must agree between the shards of one run: options, revision, back
 * ends, the corpora as read. The seed matters only when puzzles are permuted. */
static const enum bench_env_key identity_keys[] = {
    BENCH_ENV_SUDOLAB,
    BENCH_ENV_GIT_REVISION,
    BENCH_ENV_SOLVERS,
    BENCH_ENV_BASELINE,
    BENCH_ENV_LIMIT,
    BENCH_ENV_BUDGET_MS,
    BENCH_ENV_BUDGET_STEPS,
    BENCH_ENV_REPEAT,
    BENCH_ENV_WARMUP_MS,
    BENCH_ENV_PASS_MS,
    BENCH_ENV_FAST_US,
    BENCH_ENV_TDOKU_PROTOCOL,
    BENCH_ENV_PERMUTE,
    BENCH_ENV_HEAD,
};

static int identity_text(const struct bench_shard *b, char *out, size_t len)
{
    size_t pos = 0;
    out[0] = '\0';
    for (size_t k = 0; k < sizeof(identity_keys) / sizeof(identity_keys[0]); k++) {
        const char *v = env_get(b, identity_keys[k]);
        if (!v) {
            fprintf(stderr,
                "sudolab merge: %s/env.txt: no '%s:' line (not from a sudolab "
                "bench of this version?)\n",
                b->dir, bench_env_key_name(identity_keys[k]));
            return -1;
        }
        pos += (size_t) snprintf(out + pos, pos < len ? len - pos : 0, "%s=%s ",
            bench_env_key_name(identity_keys[k]), v);
    }
    const char *sample = env_get(b, BENCH_ENV_SAMPLE); /* not before --sample */
    pos += (size_t) snprintf(out + pos, pos < len ? len - pos : 0, "sample=%s ",
        sample && strcmp(sample, "0") != 0 ? sample : "none");
    const char *permute = env_get(b, BENCH_ENV_PERMUTE);
    if (permute && strcmp(permute, "yes") == 0)
        pos += (size_t) snprintf(out + pos, pos < len ? len - pos : 0, "seed=%s ",
            env_get(b, BENCH_ENV_SEED) ? env_get(b, BENCH_ENV_SEED) : "?");
    size_t at = 0;
    for (const char *fp;
         (fp = bench_env_next(&b->env, BENCH_ENV_CORPUS_FINGERPRINT, &at));)
        pos += (size_t) snprintf(out + pos, pos < len ? len - pos : 0, "corpus=%s ", fp);
    if (pos >= len) {
        fprintf(stderr, "sudolab merge: %s/env.txt: too many facts\n", b->dir);
        return -1;
    }
    return 0;
}

struct rows_ctx {
    struct bench_plan *plan;
    const struct bench_shard *b;
    unsigned long rows;
    int failed;
};

static bool take_row(void *arg, const struct bench_row *row)
{
    struct rows_ctx *rc = arg;
    size_t ci = 0;
    struct bench_cell *cell = bench_plan_row_cell(rc->plan, row, &ci);
    rc->rows++;
    if (!cell) {
        fprintf(stderr,
            "sudolab merge: %s/runs.csv: row %lu (%s, %s, entry %lu) is not part "
            "of the run env.txt describes\n",
            rc->b->dir, rc->rows, row->corpus, row->solver, row->index);
        rc->failed = 1;
        return false;
    }
    if (!shard_owns_entry(&rc->b->shard, ci, row->index)) {
        fprintf(stderr,
            "sudolab merge: %s/runs.csv: row %lu (%s entry %lu) belongs to "
            "another shard than %u/%u\n",
            rc->b->dir, rc->rows, row->corpus, row->index, rc->b->shard.k,
            rc->b->shard.n);
        rc->failed = 1;
        return false;
    }
    if (cell->state != BENCH_CELL_PENDING) {
        fprintf(stderr,
            "sudolab merge: %s/runs.csv: row %lu (%s entry %lu, %s, repeat %u) "
            "is there twice: duplicate rows\n",
            rc->b->dir, rc->rows, row->corpus, row->index, row->solver, row->repeat);
        rc->failed = 1;
        return false;
    }
    bench_cell_take_row(cell, row);
    bench_plan_take_se(rc->plan, ci, row);
    if (bench_plan_take_name(rc->plan, ci, row) != 0) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        rc->failed = 1;
        return false;
    }
    return true;
}

/* "NAME ENTRIES HASH" (NAME may hold spaces): splits it in place. */
static bool split_fingerprint(char *value, char **name, unsigned long *entries)
{
    char *hash = strrchr(value, ' ');
    if (!hash)
        return false;
    *hash = '\0';
    char *count = strrchr(value, ' ');
    if (!count)
        return false;
    *count = '\0';
    uint64_t v;
    if (!parse_u64(count + 1, &v))
        return false;
    *name = value;
    *entries = (unsigned long) v;
    return true;
}

/* "SOLVER CORPUS PASSES PUZZLES TOTAL_NS BEST_NS" (CORPUS may hold spaces). */
static bool split_pass(char *value, char **solver, char **corpus, uint64_t v[4])
{
    for (int k = 3; k >= 0; k--) {
        char *sp = strrchr(value, ' ');
        if (!sp || !parse_u64(sp + 1, &v[k]))
            return false;
        *sp = '\0';
    }
    char *sp = strchr(value, ' ');
    if (!sp)
        return false;
    *sp = '\0';
    *solver = value;
    *corpus = sp + 1;
    return true;
}

/* Whole passes: one pass over all the puzzles at each shard's mean pass
 * speed on its own part (measured only when every shard measured it). */
static void merge_passes(
    struct bench_plan *plan, const struct bench_shard *shards, size_t n)
{
    const size_t pairs = plan->nsolvers * plan->ncorpora;
    double *per_pass = calloc(pairs ? pairs : 1, sizeof(double));
    unsigned *seen = calloc(pairs ? pairs : 1, sizeof(unsigned));
    if (!per_pass || !seen) {
        free(per_pass);
        free(seen);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t at = 0;
        for (const char *pass;
             (pass = bench_env_next(&shards[i].env, BENCH_ENV_PASS, &at));) {
            char value[512], *solver, *corpus;
            uint64_t v[4];
            snprintf(value, sizeof(value), "%s", pass);
            if (!split_pass(value, &solver, &corpus, v) || v[0] == 0)
                continue;
            size_t si = 0, ci = 0;
            while (si < plan->nsolvers && strcmp(plan->solvers[si]->name, solver) != 0)
                si++;
            while (ci < plan->ncorpora && strcmp(plan->corpora[ci].name, corpus) != 0)
                ci++;
            if (si == plan->nsolvers || ci == plan->ncorpora)
                continue;
            struct bench_pass *p = &plan->passes[si * plan->ncorpora + ci];
            p->passes = seen[si * plan->ncorpora + ci]++
                ? (p->passes < v[0] ? p->passes : (unsigned) v[0])
                : (unsigned) v[0];
            p->puzzles += (size_t) v[1];
            per_pass[si * plan->ncorpora + ci] += (double) v[2] / (double) v[0];
            p->best_ns += v[3];
        }
    }
    for (size_t k = 0; k < pairs; k++) {
        struct bench_pass *p = &plan->passes[k];
        if (seen[k] == n && p->passes > 0) {
            p->measured = true;
            p->total_ns = (uint64_t) (per_pass[k] * p->passes + 0.5);
        } else {
            memset(p, 0, sizeof(*p));
            snprintf(p->note, sizeof(p->note), "not measured in every shard");
        }
    }
    free(per_pass);
    free(seen);
}

static int write_outputs(struct bench_plan *plan, const struct bench_shard *shards,
    size_t n, const char *out_dir, size_t baseline, unsigned long disagreements)
{
    char path[4200];
    int rc = 0;
    /* runs.csv in the single run's order (-j 1): corpus, back end, puzzle, repeat */
    snprintf(path, sizeof(path), "%s/runs.csv", out_dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "sudolab merge: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[BENCH_CSV_LINE_MAX];
    size_t len = bench_plan_csv_header(plan, line, sizeof(line));
    fwrite(line, 1, len, f);
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        for (size_t si = 0; si < plan->nsolvers; si++) {
            for (size_t pi = 0; pi < plan->corpora[ci].n; pi++) {
                for (unsigned r = 0; r < plan->opt.repeat; r++) {
                    const struct bench_cell *cell = &plan->cells[si * plan->ncorpora
                        + ci][pi * plan->opt.repeat + r];
                    if (cell->state != BENCH_CELL_DONE)
                        continue;
                    len = bench_plan_format_row(plan, si, ci, pi, r, line, sizeof(line));
                    if (len == 0 || fwrite(line, 1, len, f) != len)
                        rc = -1;
                }
            }
        }
    }
    /* a failed write: the close names the file and the reason */
    bool said = io_close_stream(f, "sudolab merge", path) != 0;
    rc = said ? -1 : rc;

    snprintf(path, sizeof(path), "%s/summary.csv", out_dir);
    f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "sudolab merge: %s: %s\n", path, strerror(errno));
    if (!f || bench_summary_write_csv(plan, baseline, f) != 0)
        rc = -1;
    said = (f ? io_close_stream(f, "sudolab merge", path) != 0 : true) || said;
    rc = said ? -1 : rc;

    snprintf(path, sizeof(path), "%s/env.txt", out_dir);
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "sudolab merge: %s: %s\n", path, strerror(errno));
        return -1;
    }
    const time_t now = time(NULL);
    struct tm tm;
    char date[64];
    gmtime_r(&now, &tm);
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
    bench_env_put(f, BENCH_ENV_MERGED, "%zu shards by sudolab merge, %s", n, date);
    /* the facts every shard shares, then each shard's own env.txt */
    for (size_t k = 0; k < sizeof(identity_keys) / sizeof(identity_keys[0]); k++)
        bench_env_put(f, identity_keys[k], "%s", env_get(&shards[0], identity_keys[k]));
    const char *seed = env_get(&shards[0], BENCH_ENV_SEED);
    bench_env_put(f, BENCH_ENV_SEED, "%s", seed ? seed : "");
    const char *sample = env_get(&shards[0], BENCH_ENV_SAMPLE);
    if (sample)
        bench_env_put(f, BENCH_ENV_SAMPLE, "%s", sample);
    bench_env_put(f, BENCH_ENV_SEEDS, "%u", plan->opt.seeds);
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        bench_env_put(f, BENCH_ENV_CORPUS, "%s (%zu puzzles)", plan->corpora[ci].name,
            plan->corpora[ci].n);
    for (size_t k = 0; k < n; k++) {
        fprintf(f, "--- shard %u/%u (%s/env.txt) ---\n", shards[k].shard.k,
            shards[k].shard.n, shards[k].dir);
        fwrite(shards[k].env.text, 1, shards[k].env.text_len, f);
    }
    fprintf(f, "--- merged ---\n");
    bench_env_put(f, BENCH_ENV_RUNS_PENDING, "0");
    bench_env_put(f, BENCH_ENV_DISAGREEMENTS, "%lu", disagreements);
    bench_env_put(f, BENCH_ENV_ERRORS, "%lu", plan->errors);
    bench_env_put(f, BENCH_ENV_FINISHED, "complete");
    if (io_close_stream(f, "sudolab merge", path) != 0)
        return -1;
    if (rc != 0 && !said)
        fprintf(stderr, "sudolab merge: writing %s failed\n", out_dir);
    return rc;
}

/* A shard's directory (a runs.csv names its own), its env.txt read and
 * checked: a shard of the same run as `first` (NULL: this is the first),
 * finished. Returns 0, or -1 after saying why. */
/* The build beyond its revision: a shard run by another compiler or with
 * other flags would time something else. Compared when both env.txt files
 * say it (older ones did not). Returns 0, or -1 after naming the difference. */
static int check_same_build(const struct bench_shard *a, const struct bench_shard *b)
{
    static const enum bench_env_key keys[]
        = { BENCH_ENV_COMPILER, BENCH_ENV_BUILDTYPE, BENCH_ENV_C_ARGS, BENCH_ENV_NATIVE };
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        const char *va = env_get(a, keys[k]), *vb = env_get(b, keys[k]);
        if (va && vb && strcmp(va, vb) != 0) {
            fprintf(stderr,
                "sudolab merge: %s and %s come from different builds: '%s=%s' against "
                "'%s=%s'\n",
                a->dir, b->dir, bench_env_key_name(keys[k]), va,
                bench_env_key_name(keys[k]), vb);
            return -1;
        }
    }
    return 0;
}

/* The seeds of a --seeds run: its shards share them, as the seed column is
 * seed + run (a run without --seeds draws a seed of its own per shard, which
 * only a permuted order uses). Returns 0, or -1 after naming the difference. */
static int check_same_seeds(const struct bench_shard *a, const struct bench_shard *b)
{
    const char *na = env_get(a, BENCH_ENV_SEEDS), *nb = env_get(b, BENCH_ENV_SEEDS);
    const bool seeded_a = na && strcmp(na, "1") != 0,
               seeded_b = nb && strcmp(nb, "1") != 0;
    if (!seeded_a && !seeded_b)
        return 0;
    static const enum bench_env_key keys[] = { BENCH_ENV_SEEDS, BENCH_ENV_SEED };
    for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
        const char *va = env_get(a, keys[k]), *vb = env_get(b, keys[k]);
        if (!va || !vb || strcmp(va, vb) != 0) {
            fprintf(stderr,
                "sudolab merge: %s and %s come from different runs: '%s=%s' against "
                "'%s=%s'\n",
                a->dir, b->dir, bench_env_key_name(keys[k]), va ? va : "?",
                bench_env_key_name(keys[k]), vb ? vb : "?");
            return -1;
        }
    }
    return 0;
}

static int load_bench_shard(
    struct bench_shard *b, const char *path, const struct bench_shard *first)
{
    struct stat sb;
    b->dir = path;
    if (stat(path, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        b->dir_copy = strdup(path);
        char *slash = b->dir_copy ? strrchr(b->dir_copy, '/') : NULL;
        if (slash)
            *slash = '\0';
        else if (b->dir_copy)
            strcpy(b->dir_copy, ".");
        b->dir = b->dir_copy ? b->dir_copy : path;
    }
    if (read_env(b) != 0)
        return -1;
    const char *sh = env_get(b, BENCH_ENV_SHARD);
    if (!sh || sscanf(sh, "%u/%u", &b->shard.k, &b->shard.n) != 2 || b->shard.k < 1
        || b->shard.k > b->shard.n) {
        fprintf(stderr, "sudolab merge: %s/env.txt: no 'shard: K/N' line\n", b->dir);
        return -1;
    }
    if (identity_text(b, b->identity, sizeof(b->identity)) != 0)
        return -1;
    if (first && strcmp(b->identity, first->identity) != 0) {
        char diff[200];
        first_difference(first->identity, b->identity, diff, sizeof(diff));
        const bool build = strncmp(diff, "'sudolab=", 9) == 0
            || strncmp(diff, "'git_revision=", 14) == 0;
        fprintf(stderr, "sudolab merge: %s and %s come from different %s: %s\n",
            first->dir, b->dir, build ? "builds" : "runs", diff);
        return -1;
    }
    if (first && (check_same_build(first, b) != 0 || check_same_seeds(first, b) != 0))
        return -1;
    const char *finished = env_get(b, BENCH_ENV_FINISHED),
               *pending = env_get(b, BENCH_ENV_RUNS_PENDING);
    const char *failure
        = env_get(b, BENCH_ENV_FAILURE); /* what its run said went wrong */
    if (failure && strcmp(failure, "none") == 0)
        failure = NULL;
    if (!finished || strcmp(finished, "complete") != 0 || !pending
        || strcmp(pending, "0") != 0 || failure) {
        fprintf(stderr,
            "sudolab merge: %s: the shard did not finish (%s, %s runs pending)%s%s%s: "
            "complete it with --resume first\n",
            b->dir, finished ? finished : "no end", pending ? pending : "?",
            failure ? "; its run said: \"" : "", failure ? failure : "",
            failure ? "\"" : "");
        return -1;
    }
    return 0;
}

/* The spec env.txt records for the outside back end called name (a
 * "solver_spec: NAME SPEC" line), copied into spec; false when there is none. */
static bool spec_from_env(
    const struct bench_shard *b0, const char *name, char *spec, size_t len)
{
    const size_t nlen = strlen(name);
    bool found = false;
    size_t at = 0;
    for (const char *v; (v = bench_env_next(&b0->env, BENCH_ENV_SOLVER_SPEC, &at));) {
        if (strncmp(v, name, nlen) == 0 && v[nlen] == ' ') {
            snprintf(spec, len, "%s", v + nlen + 1);
            found = true;
        }
    }
    return found;
}

/* The back end env.txt calls name: a built-in one by its name, an outside
 * one through the spec recorded beside it. An outside back end that cannot
 * be opened here (a library moved, a command missing) is refused rather
 * than merged: its counters are known only to it, so its rows would lose
 * them; refused, the shards are left whole for a merge where it opens. NULL
 * after saying why. */
static const struct solver *solver_from_env(
    const struct bench_shard *b0, const char *name)
{
    char spec[1024];
    if (!spec_from_env(b0, name, spec, sizeof(spec))) {
        /* a derived name such as so:x is not a spec: opened, it would be another */
        const struct solver *s = outside_is_spec(name) ? NULL : solver_find(name);
        if (!s)
            fprintf(stderr,
                "sudolab merge: %s/env.txt: solver %s is not in this build, and no "
                "'solver_spec: %s' line says how to open it as an outside back end\n",
                b0->dir, name, name);
        return s;
    }
    const struct solver *s = outside_is_spec(spec) ? solver_find(spec) : NULL;
    const char *why = "not a spec of an outside back end";
    if (s && outside_problem(s) && outside_problem(s)[0])
        why = outside_problem(s);
    else if (s && outside_problem(s) && strcmp(s->name, name) != 0)
        why = "it opens under another name";
    else if (s && outside_problem(s))
        return s;
    fprintf(stderr,
        "sudolab merge: %s/env.txt: back end %s (%s) cannot be opened here: %s; not "
        "merging, as its rows would lose their counters (merge where it opens)\n",
        b0->dir, name, spec, why);
    return NULL;
}

/* The back ends shard 1 names, into solvers (allocated). Returns their
 * number, or -1 after saying why. */
static long solvers_from_env(const struct bench_shard *b0, const struct solver ***solvers)
{
    char names[4096];
    snprintf(names, sizeof(names), "%s", env_get(b0, BENCH_ENV_SOLVERS));
    *solvers = calloc(strlen(names) / 2 + 2, sizeof(**solvers));
    if (!*solvers) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        return -1;
    }
    long n = 0;
    for (char *save = NULL, *tok = strtok_r(names, " ", &save); tok;
         tok = strtok_r(NULL, " ", &save)) {
        (*solvers)[n] = solver_from_env(b0, tok);
        if (!(*solvers)[n])
            return -1;
        n++;
    }
    return n;
}

static void options_from_env(const struct bench_shard *b0, struct bench_options *opt)
{
    memset(opt, 0, sizeof(*opt));
    uint64_t v;
    opt->limit = parse_u64(env_get(b0, BENCH_ENV_LIMIT), &v) ? v : 0;
    opt->budget_ms = parse_u64(env_get(b0, BENCH_ENV_BUDGET_MS), &v) ? v : 0;
    opt->budget_steps = parse_u64(env_get(b0, BENCH_ENV_BUDGET_STEPS), &v) ? v : 0;
    opt->repeat
        = parse_u64(env_get(b0, BENCH_ENV_REPEAT), &v) && v > 0 ? (unsigned) v : 1;
    opt->pass_ms = parse_u64(env_get(b0, BENCH_ENV_PASS_MS), &v) ? v : 0;
    opt->head = parse_u64(env_get(b0, BENCH_ENV_HEAD), &v) ? (unsigned long) v : 0;
    /* runs from before --sample have no sample: line, and sampled nothing */
    opt->sample = parse_u64(env_get(b0, BENCH_ENV_SAMPLE), &v) ? (unsigned long) v : 0;
    opt->permute = strcmp(env_get(b0, BENCH_ENV_PERMUTE), "yes") == 0;
    /* the seeds make the seed column of a --seeds run (seed + run for an
       incomplete back end), so the merged rows keep it */
    opt->seed = parse_u64(env_get(b0, BENCH_ENV_SEED), &v) ? v : 0;
    opt->seeds = parse_u64(env_get(b0, BENCH_ENV_SEEDS), &v) && v > 0 ? (unsigned) v : 1;
    opt->threads = 1;
}

/* The corpora of the run, every entry a placeholder numbered as the shards
 * numbered them: the rows carry the results, not the puzzles. Returns an exit
 * status. */
static int corpora_from_env(const struct bench_shard *b0, struct bench_plan *plan)
{
    struct corpus_item blank;
    memset(&blank, 0, sizeof(blank));
    size_t at = 0;
    for (const char *fp;
         (fp = bench_env_next(&b0->env, BENCH_ENV_CORPUS_FINGERPRINT, &at));) {
        char value[512], *name;
        unsigned long entries;
        snprintf(value, sizeof(value), "%s", fp);
        if (!split_fingerprint(value, &name, &entries)) {
            fprintf(stderr, "sudolab merge: %s/env.txt: a malformed corpus_fingerprint\n",
                b0->dir);
            return EXIT_STATUS_USAGE;
        }
        const int ci = bench_plan_add_corpus(plan, name);
        if (ci < 0)
            return EXIT_STATUS_SKIPPED;
        for (unsigned long e = 0; e < entries; e++) {
            if (bench_plan_add_puzzle(plan, (size_t) ci, &blank, false) != 0)
                return EXIT_STATUS_SKIPPED;
        }
    }
    return bench_plan_finish(plan) != 0 ? EXIT_STATUS_SKIPPED : EXIT_STATUS_OK;
}

/* A shard's runs.csv against what its env.txt says the run wrote ("rows:",
 * when recorded): a torn last row or rows lost since are named. */
static int check_shard_rows(
    const struct bench_shard *b, const char *path, long got, bool torn)
{
    if (torn) {
        fprintf(stderr,
            "sudolab merge: %s: its last row is torn (no end of line): the shard is "
            "incomplete (complete it with --resume)\n",
            path);
        return -1;
    }
    const char *want = env_get(b, BENCH_ENV_ROWS);
    if (want && strtol(want, NULL, 10) != got) {
        fprintf(stderr,
            "sudolab merge: %s has %ld rows, its env.txt says the run wrote %s: the "
            "shard "
            "is %s\n",
            path, got, want,
            strtol(want, NULL, 10) > got ? "truncated" : "not its run's");
        return -1;
    }
    return 0;
}

/* Every shard's runs.csv into the plan, in shard order. Returns 0 or -1. */
static int read_shard_rows(struct bench_plan *plan, const struct bench_shard *shards,
    const size_t *order, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const struct bench_shard *b = &shards[order[k]];
        char path[4200], why[200];
        snprintf(path, sizeof(path), "%s/runs.csv", b->dir);
        FILE *f = fopen(path, "r");
        if (!f) {
            fprintf(stderr, "sudolab merge: %s: %s\n", path, strerror(errno));
            return -1;
        }
        struct rows_ctx rc_ctx = { plan, b, 0, 0 };
        long valid = 0;
        struct stat sb;
        const long got = bench_csv_read(f, take_row, &rc_ctx, &valid, why, sizeof(why));
        const bool torn = fstat(fileno(f), &sb) == 0 && got >= 0 && valid < sb.st_size;
        fclose(f);
        if (got < 0) {
            fprintf(stderr, "sudolab merge: %s: %s\n", path, why);
            return -1;
        }
        if (rc_ctx.failed || check_shard_rows(b, path, got, torn) != 0)
            return -1;
    }
    return 0;
}

/* Complete shards write a row for every cell but those of shapes a back end
 * does not handle; the cells left are those. Failed runs are counted. */
static void settle_cells(struct bench_plan *plan)
{
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        for (size_t si = 0; si < plan->nsolvers; si++) {
            struct bench_cell *cells = plan->cells[si * plan->ncorpora + ci];
            for (size_t k = 0; k < plan->corpora[ci].n * plan->opt.repeat; k++) {
                if (cells[k].state == BENCH_CELL_PENDING)
                    cells[k].state = BENCH_CELL_UNSUPPORTED;
                else if (cells[k].status == SOLVE_STATUS_ERROR)
                    plan->errors++;
            }
        }
        for (size_t pi = 0; pi < plan->corpora[ci].n; pi++)
            plan->corpora[ci].puzzles[pi].ok = true; /* unknown here: the rows say */
    }
}

/* The merged plan's passes, cross-check and files. Returns an exit status. */
static int write_merged(struct bench_plan *plan, const struct bench_shard *shards,
    size_t n, const char *out_dir, FILE *info)
{
    merge_passes(plan, shards, n);
    size_t baseline = 0;
    const char *base_name = env_get(&shards[0], BENCH_ENV_BASELINE);
    while (baseline < plan->nsolvers
        && strcmp(plan->solvers[baseline]->name, base_name) != 0)
        baseline++;
    const unsigned long disagreements = bench_plan_crosscheck(plan, stderr);
    if (io_make_dirs(out_dir) != 0) {
        fprintf(stderr, "sudolab merge: %s: %s\n", out_dir, strerror(errno));
        return EXIT_STATUS_SKIPPED;
    }
    struct out_lock lock; /* one run per output, as for bench --out */
    if (out_lock_take(&lock, out_dir, "sudolab merge", stderr) != 0)
        return EXIT_STATUS_SKIPPED;
    const int wrote = write_outputs(plan, shards, n, out_dir, baseline, disagreements);
    out_lock_release(&lock);
    if (wrote != 0)
        return EXIT_STATUS_SKIPPED;
    if (info) {
        bench_summary_print(plan, baseline, info);
        fprintf(info, "\nmerged %zu shards into %s/runs.csv, summary.csv and env.txt\n",
            n, out_dir);
    }
    if (disagreements)
        fprintf(stderr, "sudolab merge: %lu puzzle%s with disagreeing answers\n",
            disagreements, disagreements == 1 ? "" : "s");
    return disagreements || plan->errors ? EXIT_STATUS_SKIPPED : EXIT_STATUS_OK;
}

/* The shards loaded and checked, in shard order. Returns an exit status. */
static int load_bench_shards(
    struct bench_shard *shards, const char *const *dirs, size_t n, size_t *order)
{
    struct shard *nums = calloc(n, sizeof(*nums));
    if (!nums) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        return EXIT_STATUS_SKIPPED;
    }
    int rc = EXIT_STATUS_OK;
    for (size_t i = 0; i < n && rc == EXIT_STATUS_OK; i++) {
        if (load_bench_shard(&shards[i], dirs[i], i ? &shards[0] : NULL) != 0)
            rc = EXIT_STATUS_USAGE;
        nums[i] = shards[i].shard;
    }
    if (rc == EXIT_STATUS_OK && check_cover(nums, dirs, n, "bench", order) != 0)
        rc = EXIT_STATUS_USAGE;
    free(nums);
    return rc;
}

int merge_bench(const char *const *dirs, size_t n, const char *out_dir, FILE *info)
{
    struct bench_shard *shards = calloc(n, sizeof(*shards));
    size_t *order = calloc(n, sizeof(*order));
    const struct solver **solvers = NULL;
    struct bench_plan plan;
    memset(&plan, 0, sizeof(plan));
    int rc = EXIT_STATUS_SKIPPED;
    if (!shards || !order)
        fprintf(stderr, "sudolab merge: out of memory\n");
    else
        rc = load_bench_shards(shards, dirs, n, order);
    /* the run's plan, rebuilt from shard 1's facts */
    const long nsolvers
        = rc == EXIT_STATUS_OK ? solvers_from_env(&shards[0], &solvers) : 0;
    if (nsolvers < 0)
        rc = solvers ? EXIT_STATUS_USAGE : EXIT_STATUS_SKIPPED;
    if (rc == EXIT_STATUS_OK) {
        struct bench_options opt;
        options_from_env(&shards[0], &opt);
        bench_plan_init(&plan, &opt, solvers, (size_t) nsolvers);
        rc = corpora_from_env(&shards[0], &plan);
    }
    if (rc == EXIT_STATUS_OK && read_shard_rows(&plan, shards, order, n) != 0)
        rc = EXIT_STATUS_USAGE;
    if (rc == EXIT_STATUS_OK) {
        settle_cells(&plan);
        rc = write_merged(&plan, shards, n, out_dir, info);
    }
    bench_plan_free(&plan);
    free(solvers);
    for (size_t i = 0; shards && i < n; i++)
        free_bench_shard(&shards[i]);
    free(shards);
    free(order);
    return rc;
}
