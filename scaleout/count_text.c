/* count's rows as text (scaleout/count_text.h). */
#include "scaleout/count_text.h"

#include <string.h>

#include "bench/bench_env.h"
#include "common/text.h"

enum { FIXED_COLS = 6 }; /* index,puzzle,subproblems,solved,outcome,solutions */

bool count_row_report(FILE *err, uint64_t limit, const struct count_row *row)
{
    struct solve_result res;
    count_row_result(row, limit, &res);
    const bool failed
        = res.status == SOLVE_STATUS_INVALID || res.status == SOLVE_STATUS_ERROR;
    if (failed && row->state != COUNT_UNPARSABLE && row->source[0])
        fprintf(err, "%s:%lu: %s\n", row->source, row->line, res.error);
    return failed;
}

void count_row_print(FILE *out, const struct solve_row_style *style, uint64_t limit,
    const struct count_row *row)
{
    static const struct grid none; /* count's line never draws the puzzle */
    struct solve_result res;
    count_row_result(row, limit, &res);
    solve_row_print(out, style, row->index, row->name, &none, &res);
}

void count_partial_options(const struct count_options *o, char *out, size_t len)
{
    const struct corpus_options *c = o->input.corpus;
    char size[16] = "auto";
    if (c->shape.box_rows)
        snprintf(size, sizeof(size), "%dx%d", c->shape.box_rows, c->shape.box_cols);
    static const char *const formats[] = { "auto", "lines", "grids", "lewis" };
    snprintf(out, len,
        "solver=%s limit=%llu budget_steps=%llu budget_ms=%llu split=%zu size=%s "
        "variant=%s format=%s revision=%s",
        o->solver->name, (unsigned long long) o->limit,
        (unsigned long long) o->budget_steps, (unsigned long long) o->budget_ms, o->split,
        size, c->shape.variant == GRID_DIAGONAL ? "diagonal" : "standard",
        formats[c->format], bench_env_revision());
}

void count_partial_header(
    FILE *out, const struct count_options *o, const struct shard *shard)
{
    char opts[512];
    count_partial_options(o, opts, sizeof(opts));
    fprintf(out, "%s shard=%u/%u %s\n", COUNT_PARTIAL_MAGIC, shard->k, shard->n, opts);
    fputs("index,puzzle,subproblems,solved,outcome,solutions", out);
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++)
        fprintf(out, ",%s", solver_counter_names[i]);
    fputs(",time_ns,first_sub,solution\n", out);
}

static const char *const outcomes[] = { "done", "limit", "error", "invalid" };

static int outcome_of(const struct count_row *row)
{
    if (row->state == COUNT_UNPARSABLE || row->state == COUNT_INVALID)
        return 3;
    if (row->state == COUNT_UNSUPPORTED || row->tally.error)
        return 2;
    return row->tally.budget ? 1 : 0;
}

void count_partial_row(FILE *out, const struct solver *s, const struct count_row *row)
{
    const struct shard_tally *t = &row->tally;
    fprintf(out, "%lu,%s,%llu,%llu,%s,%llu", row->index, row->puzzle,
        (unsigned long long) (row->state == COUNT_SOLVED ? row->subproblems : 0),
        (unsigned long long) t->solved, outcomes[outcome_of(row)],
        (unsigned long long) t->solutions);
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        fputc(',', out);
        solve_row_counter(out, s, &t->counters, i, true);
    }
    char first[GRID_MAX_CELLS + 1] = "";
    if (t->have_first)
        grid_format_line(&t->first, first);
    fprintf(out, ",%llu,", (unsigned long long) t->time_ns);
    if (t->have_first)
        fprintf(out, "%llu", (unsigned long long) t->first_sub);
    fprintf(out, ",%s\n", first);
}

static int split_fields(char *line, char **field, int max)
{
    int n = 0;
    for (char *p = line;;) {
        if (n == max)
            return -1;
        field[n++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p++ = '\0';
    }
    return n;
}

static bool parse_u64(const char *text, uint64_t *out)
{
    return text_parse_u64(text, out) == 0;
}

/* The fixed columns: the entry, its split and its outcome. */
static int parse_fixed(char **f, struct count_row *row, char *why, size_t whylen)
{
    uint64_t v;
    if (!parse_u64(f[0], &v) || strlen(f[1]) > GRID_MAX_CELLS
        || !parse_u64(f[2], &row->subproblems) || !parse_u64(f[3], &row->tally.solved)
        || !parse_u64(f[5], &row->tally.solutions)) {
        snprintf(why, whylen, "a malformed row");
        return -1;
    }
    row->index = (unsigned long) v;
    snprintf(row->puzzle, sizeof(row->puzzle), "%s", f[1]);
    int outcome = -1;
    for (int i = 0; i < 4; i++) {
        if (strcmp(f[4], outcomes[i]) == 0)
            outcome = i;
    }
    if (outcome < 0) {
        snprintf(why, whylen, "unknown outcome '%s'", f[4]);
        return -1;
    }
    if (outcome == 3)
        row->state = row->puzzle[0] ? COUNT_INVALID : COUNT_UNPARSABLE;
    row->tally.budget = outcome == 1;
    row->tally.error = outcome == 2;
    if (row->tally.error)
        snprintf(
            row->tally.error_text, sizeof(row->tally.error_text), "failed in a shard");
    return 0;
}

static int parse_counters(
    char **f, const struct solver *s, struct count_row *row, char *why, size_t whylen)
{
    uint64_t counters[SOLVER_COUNTER_COUNT] = { 0 };
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        const char *cell = f[FIXED_COLS + i];
        if (*cell == '\0')
            continue;
        if (!(s->counters & (1u << i)) || !parse_u64(cell, &counters[i])) {
            snprintf(why, whylen, "bad %s '%s'", solver_counter_names[i], cell);
            return -1;
        }
    }
#define X(name, doc) row->tally.counters.name = counters[SOLVER_COUNTER_##name];
    SOLVER_COUNTERS(X)
#undef X
    return 0;
}

/* time_ns, first_sub and the first solution. */
static int parse_first(
    char **f, const char *box, struct count_row *row, char *why, size_t whylen)
{
    struct shard_tally *t = &row->tally;
    if (!parse_u64(f[0], &t->time_ns)) {
        snprintf(why, whylen, "bad time_ns");
        return -1;
    }
    if (f[1][0] == '\0')
        return 0;
    if (!parse_u64(f[1], &t->first_sub) || f[2][0] == '\0') {
        snprintf(why, whylen, "bad first solution");
        return -1;
    }
    /* the solution has the puzzle's shape: --size when given, else its length */
    struct grid_shape shape = { 0, 0, 0 };
    int br, bc;
    if (grid_parse_box(box, &br, &bc) == 0) {
        shape.box_rows = (uint8_t) br;
        shape.box_cols = (uint8_t) bc;
    }
    if (grid_parse_token(&t->first, f[2], strlen(f[2]), &shape, NULL, 0) != 0) {
        snprintf(why, whylen, "bad solution '%.40s'", f[2]);
        return -1;
    }
    t->have_first = true;
    return 0;
}

int count_partial_parse(char *line, const struct solver *s, const char *box,
    struct count_row *row, char *why, size_t whylen)
{
    enum { MAXF = FIXED_COLS + SOLVER_COUNTER_COUNT + 3 };
    char *f[MAXF + 1];
    const int nf = split_fields(line, f, MAXF + 1);
    if (nf != MAXF) {
        snprintf(why, whylen, "%d fields, %d expected", nf, MAXF);
        return -1;
    }
    memset(row, 0, sizeof(*row));
    if (parse_fixed(f, row, why, whylen) != 0
        || parse_counters(f, s, row, why, whylen) != 0
        || parse_first(f + FIXED_COLS + SOLVER_COUNTER_COUNT, box, row, why, whylen) != 0)
        return -1;
    return 0;
}
