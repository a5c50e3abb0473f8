#include "bench/bench_csv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"

enum { CSV_MAX_FIELDS = 64 };

static const char *const se_column_names[3] = { "se_er", "se_ep", "se_ed" };

/* Appends to buf at *pos; false when it does not fit. */
static bool put(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
    if (*pos >= len)
        return false;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t) n >= len - *pos)
        return false;
    *pos += (size_t) n;
    return true;
}

static bool needs_quotes(const char *s)
{
    return s[0] == '\0' || strpbrk(s, ",\"\r\n") != NULL || s[0] == ' '
        || s[strlen(s) - 1] == ' ';
}

static bool put_field(char *buf, size_t len, size_t *pos, const char *s)
{
    if (!needs_quotes(s))
        return put(buf, len, pos, "%s", s);
    if (!put(buf, len, pos, "\""))
        return false;
    for (const char *p = s; *p; p++) {
        if (!put(buf, len, pos, *p == '"' ? "\"\"" : "%c", *p))
            return false;
    }
    return put(buf, len, pos, "\"");
}

size_t bench_csv_header_with(char *buf, size_t len, bool se_columns)
{
    return bench_csv_header_seeded(buf, len, se_columns, false, false);
}

size_t bench_csv_header_seeded(
    char *buf, size_t len, bool se_columns, bool seed_column, bool name_column)
{
    size_t pos = 0;
    if (!put(buf, len, &pos, "corpus,index,solver,repeat,status,solutions"))
        return 0;
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        if (!put(buf, len, &pos, ",%s", solver_counter_names[i]))
            return 0;
    }
    if (!put(buf, len, &pos, ",time_ns"))
        return 0;
    for (int i = 0; se_columns && i < 3; i++) {
        if (!put(buf, len, &pos, ",%s", se_column_names[i]))
            return 0;
    }
    if (seed_column && !put(buf, len, &pos, ",seed"))
        return 0;
    if (name_column && !put(buf, len, &pos, ",name"))
        return 0;
    return put(buf, len, &pos, "\n") ? pos : 0;
}

size_t bench_csv_header(char *buf, size_t len)
{
    return bench_csv_header_with(buf, len, false);
}

/* ",7.1" or "," for each rating */
static bool put_se(char *buf, size_t len, size_t *pos, const struct bench_row *row)
{
    bool ok = true;
    for (int i = 0; ok && i < 3; i++) {
        if (row->se[i])
            ok = put(buf, len, pos, ",%d.%d", row->se[i] / 10, row->se[i] % 10);
        else
            ok = put(buf, len, pos, ",");
    }
    return ok;
}

size_t bench_csv_format_row(const struct bench_row *row, char *buf, size_t len)
{
    size_t pos = 0;
    bool ok = put_field(buf, len, &pos, row->corpus)
        && put(buf, len, &pos, ",%lu,", row->index)
        && put_field(buf, len, &pos, row->solver)
        && put(buf, len, &pos, ",%u,%s,%llu", row->repeat,
            solve_status_name((enum solve_status) row->status),
            (unsigned long long) row->solutions);
    for (int i = 0; ok && i < SOLVER_COUNTER_COUNT; i++) {
        if (row->known & (1u << i))
            ok = put(buf, len, &pos, ",%llu",
                (unsigned long long) solver_counter_get(&row->counters, i));
        else
            ok = put(buf, len, &pos, ",");
    }
    if (ok && row->timed)
        ok = put(buf, len, &pos, ",%llu", (unsigned long long) row->time_ns);
    else if (ok)
        ok = put(buf, len, &pos, ",");
    if (ok && row->se_columns)
        ok = put_se(buf, len, &pos, row);
    if (ok && row->seed_column)
        ok = row->seeded ? put(buf, len, &pos, ",%llu", (unsigned long long) row->seed)
                         : put(buf, len, &pos, ",");
    if (ok && row->name_column)
        ok = put(buf, len, &pos, ",")
            && (row->name[0] == '\0' || put_field(buf, len, &pos, row->name));
    return ok && put(buf, len, &pos, "\n") ? pos : 0;
}

int bench_csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        if (n == max)
            return -1;
        if (*p == '"') {
            /* unquote in place: read from p + 1, write from p */
            char *w = p, *r = p + 1;
            fields[n++] = w;
            for (;;) {
                if (*r == '\0')
                    return -1;
                if (*r == '"' && r[1] == '"') {
                    *w++ = '"';
                    r += 2;
                } else if (*r == '"') {
                    r++;
                    break;
                } else {
                    *w++ = *r++;
                }
            }
            if (*r != ',' && *r != '\0' && *r != '\n' && *r != '\r')
                return -1;
            const char end = *r;
            *w = '\0';
            if (end != ',')
                return n;
            p = r + 1;
        } else {
            fields[n++] = p;
            p += strcspn(p, ",\r\n");
            const char end = *p;
            *p = '\0';
            if (end != ',')
                return n;
            p++;
        }
    }
}

static void set_why(char *why, size_t whylen, const char *fmt, ...)
{
    if (!why || whylen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

int bench_csv_parse_header(
    const char *line, struct bench_csv_columns *cols, char *why, size_t whylen)
{
    char copy[BENCH_CSV_LINE_MAX];
    char *fields[CSV_MAX_FIELDS];
    if (strlen(line) >= sizeof(copy)) {
        set_why(why, whylen, "header line too long");
        return -1;
    }
    strcpy(copy, line);
    const int n = bench_csv_split(copy, fields, CSV_MAX_FIELDS);
    if (n < 0) {
        set_why(why, whylen, "header is not a CSV line");
        return -1;
    }
    struct {
        const char *name;
        int *at;
    } const named[] = {
        { "corpus", &cols->corpus },
        { "index", &cols->index },
        { "solver", &cols->solver },
        { "repeat", &cols->repeat },
        { "status", &cols->status },
        { "solutions", &cols->solutions },
        { "time_ns", &cols->time_ns },
    };
    const size_t nnamed = sizeof(named) / sizeof(named[0]);
    for (size_t k = 0; k < nnamed; k++)
        *named[k].at = -1;
    for (int k = 0; k < SOLVER_COUNTER_COUNT; k++)
        cols->counter[k] = -1;
    for (int k = 0; k < 3; k++)
        cols->se[k] = -1;
    cols->name = -1;
    cols->ncols = n;
    for (int i = 0; i < n; i++) {
        for (size_t k = 0; k < nnamed; k++) {
            if (strcmp(fields[i], named[k].name) == 0)
                *named[k].at = i;
        }
        for (int k = 0; k < SOLVER_COUNTER_COUNT; k++) {
            if (strcmp(fields[i], solver_counter_names[k]) == 0)
                cols->counter[k] = i;
        }
        for (int k = 0; k < 3; k++) {
            if (strcmp(fields[i], se_column_names[k]) == 0)
                cols->se[k] = i;
        }
        if (strcmp(fields[i], "name") == 0)
            cols->name = i;
    }
    for (size_t k = 0; k < nnamed; k++) {
        if (*named[k].at < 0 && named[k].at != &cols->repeat) {
            set_why(why, whylen, "no '%s' column in the header", named[k].name);
            return -1;
        }
    }
    return 0;
}

/* "7.1" -> 71: one decimal, 0.1 to 25.5 (SE's scale ends at 20.0). */
static bool parse_tenths(const char *text, uint8_t *out)
{
    const size_t len = strlen(text);
    if (len < 3 || len > 4 || text[len - 2] != '.')
        return false;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (i == len - 2)
            continue;
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (text[i] - '0');
    }
    if (v == 0 || v > 255)
        return false;
    *out = (uint8_t) v;
    return true;
}

/* The SE columns of a row, when its file has them. */
static int parse_se(char **fields, const struct bench_csv_columns *cols,
    struct bench_row *row, char *why, size_t whylen)
{
    row->se_columns = cols->se[0] >= 0;
    for (int k = 0; k < 3; k++) {
        const int at = cols->se[k];
        if (at < 0 || fields[at][0] == '\0')
            continue;
        if (!parse_tenths(fields[at], &row->se[k])) {
            set_why(why, whylen, "bad %s '%s'", se_column_names[k], fields[at]);
            return -1;
        }
    }
    return 0;
}

static int parse_count(const char *text, uint64_t *out)
{
    /* text_parse_u64 accepts separators; a CSV we wrote never has them, but a
     * spreadsheet round trip may */
    return text_parse_u64(text, out);
}

int bench_csv_parse_row(const char *line, const struct bench_csv_columns *cols,
    struct bench_row *row, char *why, size_t whylen)
{
    char copy[BENCH_CSV_LINE_MAX];
    char *fields[CSV_MAX_FIELDS];
    if (strlen(line) >= sizeof(copy)) {
        set_why(why, whylen, "line too long");
        return -1;
    }
    strcpy(copy, line);
    const int n = bench_csv_split(copy, fields, CSV_MAX_FIELDS);
    if (n != cols->ncols) {
        set_why(why, whylen, "%d fields, the header has %d", n, cols->ncols);
        return -1;
    }
    memset(row, 0, sizeof(*row));
    if (strlen(fields[cols->corpus]) >= sizeof(row->corpus)
        || strlen(fields[cols->solver]) >= sizeof(row->solver)) {
        set_why(why, whylen, "corpus or solver name too long");
        return -1;
    }
    strcpy(row->corpus, fields[cols->corpus]);
    strcpy(row->solver, fields[cols->solver]);
    if (cols->name >= 0) {
        if (strlen(fields[cols->name]) >= sizeof(row->name)) {
            set_why(why, whylen, "name too long");
            return -1;
        }
        row->name_column = true;
        strcpy(row->name, fields[cols->name]);
    }
    uint64_t v;
    if (parse_count(fields[cols->index], &v) != 0 || v == 0 || v > 0xffffffffu) {
        set_why(why, whylen, "bad index '%s'", fields[cols->index]);
        return -1;
    }
    row->index = (unsigned long) v;
    row->repeat = 1;
    if (cols->repeat >= 0) {
        if (parse_count(fields[cols->repeat], &v) != 0 || v == 0 || v > 0xffffffu) {
            set_why(why, whylen, "bad repeat '%s'", fields[cols->repeat]);
            return -1;
        }
        row->repeat = (unsigned) v;
    }
    row->status = solve_status_parse(fields[cols->status]);
    if (row->status < 0) {
        set_why(why, whylen, "unknown status '%s'", fields[cols->status]);
        return -1;
    }
    if (parse_count(fields[cols->solutions], &row->solutions) != 0) {
        set_why(why, whylen, "bad solution count '%s'", fields[cols->solutions]);
        return -1;
    }
    for (int k = 0; k < SOLVER_COUNTER_COUNT; k++) {
        const int at = cols->counter[k];
        if (at < 0 || fields[at][0] == '\0')
            continue;
        if (parse_count(fields[at], &v) != 0) {
            set_why(why, whylen, "bad %s '%s'", solver_counter_names[k], fields[at]);
            return -1;
        }
        row->known |= 1u << k;
        solver_counter_set(&row->counters, k, v);
    }
    if (fields[cols->time_ns][0] != '\0') {
        if (parse_count(fields[cols->time_ns], &row->time_ns) != 0) {
            set_why(why, whylen, "bad time_ns '%s'", fields[cols->time_ns]);
            return -1;
        }
        row->timed = true;
    }
    return parse_se(fields, cols, row, why, whylen);
}

long bench_csv_read(
    FILE *f, bench_csv_row_fn *fn, void *ctx, long *valid_bytes, char *why, size_t whylen)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    long rows = 0, valid = 0, lineno = 0;
    struct bench_csv_columns cols;
    bool have_header = false, stopped = false;
    while (!stopped && (got = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (line[got - 1] != '\n')
            break; /* torn: the run was killed while writing it */
        if (!have_header) {
            if (bench_csv_parse_header(line, &cols, why, whylen) != 0) {
                free(line);
                return -1;
            }
            have_header = true;
        } else {
            struct bench_row row;
            char reason[160];
            if (bench_csv_parse_row(line, &cols, &row, reason, sizeof(reason)) != 0) {
                set_why(why, whylen, "line %ld: %s", lineno, reason);
                free(line);
                return -1;
            }
            rows++;
            stopped = !fn(ctx, &row);
        }
        valid += (long) got;
    }
    free(line);
    if (ferror(f)) {
        set_why(why, whylen, "read error");
        return -1;
    }
    if (valid_bytes)
        *valid_bytes = valid;
    return rows;
}

void bench_csv_put_text(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}
