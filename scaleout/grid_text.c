/* count --grids as text (scaleout/grid_text.h). */
#include "scaleout/grid_text.h"

#include <stdlib.h>
#include <string.h>

#include "common/exit_status.h"

static const char columns[] = "class orbit labels orders bands completions grids band\n";

void grid_plan_text_of(const struct grid_count *gc, struct grid_plan_text *out)
{
    const bool t = grid_count_transposed(gc);
    out->rows = grid_count_rows(gc);
    out->cols = grid_count_cols(gc);
    out->box_rows = t ? out->cols : out->rows;
    out->box_cols = t ? out->rows : out->cols;
    out->profiles = grid_count_profiles(gc);
    out->classes = grid_count_classes(gc);
}

void grid_text_header(FILE *out, const struct grid_plan_text *p)
{
    const int n = p->rows * p->cols;
    fprintf(out, "# complete grids of %dx%d (%dx%d boxes) by band reduction", n, n,
        p->box_rows, p->box_cols);
    if (p->box_rows != p->rows)
        fprintf(out, ", counted on the transpose (%dx%d boxes)", p->rows, p->cols);
    fprintf(out, ": %d bands of %d rows, %d stacks of %d columns\n", p->cols, p->rows,
        p->rows, p->cols);
    fprintf(out,
        "# first bands: %zu column profiles in %zu classes (stack and column "
        "permutations)\n",
        p->profiles, p->classes);
    fputs("# bands = orbit * labels * orders; grids = bands * completions\n", out);
}

void grid_text_columns(FILE *out)
{
    fputs(columns, out);
}

grid_count_u128 grid_row_bands(const struct grid_row *r)
{
    return (grid_count_u128) r->orbit * r->labels * r->orders;
}

void grid_text_row(FILE *out, const struct grid_row *r)
{
    char bands[GRID_COUNT_U128_DIGITS], completions[GRID_COUNT_U128_DIGITS],
        grids[GRID_COUNT_U128_DIGITS];
    const grid_count_u128 b = grid_row_bands(r);
    grid_count_u128_format(b, bands);
    grid_count_u128_format(r->completions, completions);
    grid_count_u128_format(b * r->completions, grids);
    fprintf(out, "%3zu %4llu %7llu %6llu %14s %11s %23s %s\n", r->klass,
        (unsigned long long) r->orbit, (unsigned long long) r->labels,
        (unsigned long long) r->orders, bands, completions, grids, r->band);
}

void grid_class_row(const struct grid_count *gc, size_t k, grid_count_u128 completions,
    struct grid_row *r)
{
    const struct grid_count_class *cl = grid_count_class_at(gc, k);
    const int cells = grid_count_rows(gc) * grid_count_rows(gc) * grid_count_cols(gc);
    r->klass = k + 1;
    r->orbit = cl->orbit;
    r->labels = cl->labels;
    r->orders = cl->orders;
    r->completions = completions;
    for (int i = 0; i < cells; i++)
        r->band[i] = grid_value_symbol(cl->band[i]);
    r->band[cells] = '\0';
}

void grid_text_totals(FILE *out, grid_count_u128 bands, grid_count_u128 grids)
{
    char b[GRID_COUNT_U128_DIGITS], g[GRID_COUNT_U128_DIGITS];
    grid_count_u128_format(bands, b);
    grid_count_u128_format(grids, g);
    fprintf(out, "bands %s\ngrids %s\n", b, g);
}

void grid_partial_header(FILE *out, const struct grid_plan_text *p, const struct shard *s)
{
    fprintf(out, "%s shard=%u/%u box=%dx%d counted=%dx%d profiles=%zu classes=%zu\n",
        GRID_PARTIAL_MAGIC, s->k, s->n, p->box_rows, p->box_cols, p->rows, p->cols,
        p->profiles, p->classes);
    fputs(columns, out);
}

/* ---- reading partials back ---- */

int grid_text_parse_u128(const char *text, grid_count_u128 *out)
{
    grid_count_u128 v = 0;
    if (!*text)
        return -1;
    for (; *text; text++) {
        if (*text < '0' || *text > '9' || v > (~(grid_count_u128) 0 - 9) / 10)
            return -1;
        v = v * 10 + (grid_count_u128) (*text - '0');
    }
    *out = v;
    return 0;
}

static int parse_u64(const char *text, uint64_t *out)
{
    grid_count_u128 v;
    if (grid_text_parse_u128(text, &v) != 0 || v > UINT64_MAX)
        return -1;
    *out = (uint64_t) v;
    return 0;
}

/* A row as grid_text_row wrote it; its bands and grids must follow from its
 * factors. Returns 0, or -1 with why. */
static int parse_row(char *line, struct grid_row *r, char *why, size_t whylen)
{
    char *field[8], *save = NULL;
    int n = 0;
    for (char *tok = strtok_r(line, " \t\r\n", &save); tok;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (n < 8)
            field[n] = tok;
        n++;
    }
    uint64_t klass;
    grid_count_u128 bands, grids;
    if (n != 8 || parse_u64(field[0], &klass) != 0 || parse_u64(field[1], &r->orbit) != 0
        || parse_u64(field[2], &r->labels) != 0 || parse_u64(field[3], &r->orders) != 0
        || grid_text_parse_u128(field[4], &bands) != 0
        || grid_text_parse_u128(field[5], &r->completions) != 0
        || grid_text_parse_u128(field[6], &grids) != 0
        || strlen(field[7]) > GRID_COUNT_MAX_BAND) {
        snprintf(why, whylen, "not a class row (8 fields: %s)", columns);
        why[strlen(why) - 1] = '\0';
        return -1;
    }
    r->klass = (size_t) klass;
    strcpy(r->band, field[7]);
    if (bands != grid_row_bands(r) || grids != bands * r->completions) {
        snprintf(why, whylen, "bands or grids do not follow from the row's factors");
        return -1;
    }
    return 0;
}

struct partial {
    struct shard shard;
    struct grid_plan_text plan;
};

static int parse_magic(const char *line, struct partial *p)
{
    const size_t m = strlen(GRID_PARTIAL_MAGIC);
    if (strncmp(line, GRID_PARTIAL_MAGIC, m) != 0)
        return -1;
    return sscanf(line + m,
               " shard=%u/%u box=%dx%d counted=%dx%d profiles=%zu classes=%zu",
               &p->shard.k, &p->shard.n, &p->plan.box_rows, &p->plan.box_cols,
               &p->plan.rows, &p->plan.cols, &p->plan.profiles, &p->plan.classes)
            == 8
        ? 0
        : -1;
}

/* Reads one partial's rows into rows[klass - 1]. Returns 0, or -1 after
 * saying why. */
static int read_rows(FILE *in, const char *name, const struct partial *p,
    struct grid_row *rows, bool *seen)
{
    char line[512], why[160];
    unsigned long number = 2;
    if (!fgets(line, sizeof(line), in) || strcmp(line, columns) != 0) {
        fprintf(stderr, "sudolab merge: %s:2: the column names expected\n", name);
        return -1;
    }
    while (fgets(line, sizeof(line), in)) {
        number++;
        if (line[0] == '#')
            continue; /* the shard's time */
        struct grid_row r;
        if (parse_row(line, &r, why, sizeof(why)) != 0) {
            fprintf(stderr, "sudolab merge: %s:%lu: %s\n", name, number, why);
            return -1;
        }
        if (r.klass < 1 || r.klass > p->plan.classes
            || !shard_owns(&p->shard, r.klass - 1) || seen[r.klass - 1]) {
            fprintf(stderr,
                "sudolab merge: %s:%lu: class %zu is not this shard's, or is there "
                "twice\n",
                name, number, r.klass);
            return -1;
        }
        seen[r.klass - 1] = true;
        rows[r.klass - 1] = r;
    }
    return 0;
}

/* Every shard read and checked against the first. Returns 0, or -1 after
 * saying why. */
static int read_partials(FILE *const *in, const char *const *names, size_t n,
    struct partial *first, struct grid_row **rows, bool **seen)
{
    char line[512];
    bool *shard_seen = NULL;
    for (size_t i = 0; i < n; i++) {
        struct partial p;
        /* real plans have hundreds of classes: a header past these bounds is
         * no partial, and would have merge allocate gigabytes for it */
        if (!fgets(line, sizeof(line), in[i]) || parse_magic(line, &p) != 0
            || p.plan.classes > 1000000 || p.shard.n > SHARD_MAX) {
            fprintf(
                stderr, "sudolab merge: %s:1: not a count --grids partial\n", names[i]);
            break;
        }
        if (i == 0) {
            *first = p;
            *rows = calloc(p.plan.classes + 1, sizeof(**rows));
            *seen = calloc(p.plan.classes + 1, sizeof(**seen));
            shard_seen = calloc(p.shard.n + 1, sizeof(*shard_seen));
            if (!*rows || !*seen || !shard_seen) {
                fprintf(stderr, "sudolab merge: out of memory\n");
                break;
            }
        }
        if (memcmp(&p.plan, &first->plan, sizeof(p.plan)) != 0
            || p.shard.n != first->shard.n || p.shard.k < 1 || p.shard.k > p.shard.n
            || shard_seen[p.shard.k]) {
            fprintf(stderr,
                "sudolab merge: %s: shard %u/%u does not belong with %s (another plan, "
                "or given twice)\n",
                names[i], p.shard.k, p.shard.n, names[0]);
            break;
        }
        shard_seen[p.shard.k] = true;
        if (read_rows(in[i], names[i], &p, *rows, *seen) != 0)
            break;
        if (i + 1 == n) {
            free(shard_seen);
            return 0;
        }
    }
    free(shard_seen);
    return -1;
}

int grid_merge(FILE *const *in, const char *const *names, size_t n, FILE *out)
{
    struct partial first;
    struct grid_row *rows = NULL;
    bool *seen = NULL;
    int rc = read_partials(in, names, n, &first, &rows, &seen) == 0 ? EXIT_STATUS_OK
                                                                    : EXIT_STATUS_USAGE;
    for (size_t k = 0; rc == EXIT_STATUS_OK && k < first.plan.classes; k++)
        if (!seen[k]) {
            fprintf(stderr,
                "sudolab merge: class %zu is in no shard (shard %zu/%u missing?)\n",
                k + 1, k % first.shard.n + 1, first.shard.n);
            rc = EXIT_STATUS_USAGE;
        }
    if (rc == EXIT_STATUS_OK) {
        grid_count_u128 bands = 0, grids = 0;
        grid_text_header(out, &first.plan);
        grid_text_columns(out);
        for (size_t k = 0; k < first.plan.classes; k++) {
            grid_text_row(out, &rows[k]);
            bands += grid_row_bands(&rows[k]);
            grids += grid_row_bands(&rows[k]) * rows[k].completions;
        }
        grid_text_totals(out, bands, grids);
    }
    free(rows);
    free(seen);
    return rc;
}
