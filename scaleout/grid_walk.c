/* count --grids by the profile walk, in shards of ranks (scaleout/grid_walk.h). */
#include "scaleout/grid_walk.h"

#include <stdlib.h>
#include <string.h>

#include "common/exit_status.h"
#include "gridcount/grid_count.h"
#include "gridcount/grid_profiles.h"
#include "scaleout/grid_text.h"

typedef grid_count_u128 u128;

enum phase { PHASE_ORDERS, PHASE_COMPLETIONS };
static const char *const phase_names[] = { "orders", "completions" };
static const char *const columns[]
    = { "rank orbit labels orders profile\n", "rank orbit labels orders from to sum\n" };

enum {
    WALK_MAX_TYPES = 128,
    WALK_LINE = 1024,
    WALK_PLACE = 48, /* "RANK:CHOICE" */
    BIG_LIMBS = 24, /* 768 bits: 12x12's totals are about 2^166 */
};

/* --- places: a rank, or a choice inside the class at a rank --- */

struct place {
    uint64_t rank, choice;
};

static int place_compare(struct place a, struct place b)
{
    if (a.rank != b.rank)
        return a.rank < b.rank ? -1 : 1;
    return (a.choice > b.choice) - (a.choice < b.choice);
}

static const char *place_text(struct place p, char out[WALK_PLACE])
{
    if (p.choice)
        snprintf(out, WALK_PLACE, "%llu:%llu", (unsigned long long) p.rank,
            (unsigned long long) p.choice);
    else
        snprintf(out, WALK_PLACE, "%llu", (unsigned long long) p.rank);
    return out;
}

static int parse_u64(const char *text, const char **end, uint64_t *out)
{
    u128 v = 0;
    const char *t = text;
    for (; *t >= '0' && *t <= '9'; t++) {
        v = v * 10 + (u128) (*t - '0');
        if (v > UINT64_MAX)
            return -1;
    }
    if (t == text)
        return -1;
    *out = (uint64_t) v;
    *end = t;
    return 0;
}

static int parse_place(const char *text, const char **end, struct place *p)
{
    p->choice = 0;
    if (parse_u64(text, end, &p->rank) != 0)
        return -1;
    return **end == ':' ? parse_u64(*end + 1, end, &p->choice) : 0;
}

/* "A-B" into a and b, a before b (or equal), nothing after. */
static int parse_range(const char *text, struct place *a, struct place *b)
{
    const char *t;
    if (parse_place(text, &t, a) != 0 || *t != '-' || parse_place(t + 1, &t, b) != 0
        || (*t && *t != ' ' && *t != '\n'))
        return -1;
    return place_compare(*a, *b) <= 0 ? 0 : -1;
}

/* --- numbers past 128 bits: the 12x12 totals --- */

struct big {
    uint32_t limb[BIG_LIMBS];
};

/* acc += a * b. */
static void big_add_product(struct big *acc, u128 a, u128 b)
{
    uint32_t x[4], y[4], p[8] = { 0 };
    for (int i = 0; i < 4; i++) {
        x[i] = (uint32_t) (a >> (32 * i));
        y[i] = (uint32_t) (b >> (32 * i));
    }
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            const uint64_t t = (uint64_t) x[i] * y[j] + p[i + j] + carry;
            p[i + j] = (uint32_t) t;
            carry = t >> 32;
        }
        p[i + 4] = (uint32_t) carry;
    }
    uint64_t carry = 0;
    for (int i = 0; i < BIG_LIMBS; i++) {
        const uint64_t t = (uint64_t) acc->limb[i] + (i < 8 ? p[i] : 0) + carry;
        acc->limb[i] = (uint32_t) t;
        carry = t >> 32;
    }
}

static void big_format(struct big v, char *out, size_t len)
{
    uint32_t groups[BIG_LIMBS * 2]; /* base 10^9, least first */
    int n = 0;
    bool zero;
    do {
        uint64_t rest = 0;
        zero = true;
        for (int i = BIG_LIMBS - 1; i >= 0; i--) {
            const uint64_t cur = rest << 32 | v.limb[i];
            v.limb[i] = (uint32_t) (cur / 1000000000u);
            rest = cur % 1000000000u;
            zero &= v.limb[i] == 0;
        }
        groups[n++] = (uint32_t) rest;
    } while (!zero);
    size_t at = (size_t) snprintf(out, len, "%u", groups[n - 1]);
    for (int i = n - 2; i >= 0 && at < len; i--)
        at += (size_t) snprintf(out + at, len - at, "%09u", groups[i]);
}

/* --- the plan --- */

struct plan {
    int box_rows, box_cols, rows, cols; /* as asked; counted R x C */
    uint64_t profiles, classes, group;
    uint64_t choices; /* middle-band choices per class (three bands), else 0 */
};

/* Middle-band choices per class: each stack's are sum over k of C(R,k)^3. */
static uint64_t choices_of(int R)
{
    uint64_t per = 0, binomial = 1;
    for (int k = 0; k <= R; k++) {
        per += binomial * binomial * binomial;
        binomial = binomial * (uint64_t) (R - k) / (uint64_t) (k + 1);
    }
    uint64_t all = 1;
    for (int s = 0; s < R; s++)
        all *= per;
    return all;
}

/* The walk and the plan of a shape (Burnside's classes included). NULL
 * after saying why. */
static struct grid_profiles *plan_of(
    int box_rows, int box_cols, struct plan *p, const char *who, FILE *err)
{
    char why[200];
    struct grid_profiles *gp = grid_profiles_new(box_rows, box_cols, why, sizeof(why));
    if (!gp) {
        fprintf(err, "%s: --grids: %s\n", who, why);
        return NULL;
    }
    memset(p, 0, sizeof(*p));
    p->box_rows = box_rows;
    p->box_cols = box_cols;
    p->rows = box_rows > box_cols ? box_rows : box_cols;
    p->cols = box_rows > box_cols ? box_cols : box_rows;
    p->profiles = grid_profiles_count(gp);
    p->group = grid_profiles_group_order(gp);
    p->choices = p->cols == 3 ? choices_of(p->rows) : 0;
    size_t conjugacy;
    if (p->profiles == 0
        || grid_profiles_classes_exact(gp, &p->classes, &conjugacy) != 0) {
        fprintf(err, "%s: --grids: out of memory\n", who);
        grid_profiles_free(gp);
        return NULL;
    }
    return gp;
}

static void print_header(
    FILE *out, enum phase ph, const struct plan *p, struct place first, struct place last)
{
    char a[WALK_PLACE], b[WALK_PLACE];
    fprintf(out,
        "%s phase=%s box=%dx%d counted=%dx%d profiles=%llu classes=%llu group=%llu "
        "choices=%llu ranks=%s-%s\n",
        GRID_WALK_MAGIC, phase_names[ph], p->box_rows, p->box_cols, p->rows, p->cols,
        (unsigned long long) p->profiles, (unsigned long long) p->classes,
        (unsigned long long) p->group, (unsigned long long) p->choices,
        place_text(first, a), place_text(last, b));
    fputs(columns[ph], out);
}

static void print_end(FILE *out, struct place first, struct place done, struct place last,
    uint64_t classes, uint64_t steps)
{
    char a[WALK_PLACE], e[WALK_PLACE], b[WALK_PLACE];
    fprintf(out, "# end done=%s-%s classes=%llu steps=%llu", place_text(first, a),
        place_text(done, e), (unsigned long long) classes, (unsigned long long) steps);
    if (place_compare(done, last) != 0)
        fprintf(out, " cut-short: the step budget ran out; resume with --ranks %s-%s", e,
            place_text(last, b));
    fputc('\n', out);
}

/* --- reading a partial back --- */

struct row {
    uint64_t rank, orbit, labels, orders, from, to;
    u128 sum;
};

struct part {
    const char *name;
    enum phase phase;
    struct plan plan;
    struct place first, last; /* asked for */
    struct place done; /* reached: [first, done) */
    uint64_t classes, steps;
    unsigned long end_line; /* the line of the end line */
    struct row *rows;
    uint8_t *profiles; /* orders: types bytes per row */
    size_t nrows, cap;
};

static void part_free(struct part *p)
{
    free(p->rows);
    free(p->profiles);
    memset(p, 0, sizeof(*p));
}

static int parse_header(const char *line, struct part *p)
{
    const size_t m = strlen(GRID_WALK_MAGIC);
    char phase[16], ranks[2 * WALK_PLACE];
    unsigned long long profiles, classes, group, choices;
    if (strncmp(line, GRID_WALK_MAGIC, m) != 0
        || sscanf(line + m,
               " phase=%15s box=%dx%d counted=%dx%d profiles=%llu classes=%llu "
               "group=%llu choices=%llu ranks=%95s",
               phase, &p->plan.box_rows, &p->plan.box_cols, &p->plan.rows, &p->plan.cols,
               &profiles, &classes, &group, &choices, ranks)
            != 10
        || parse_range(ranks, &p->first, &p->last) != 0)
        return -1;
    p->plan.profiles = profiles;
    p->plan.classes = classes;
    p->plan.group = group;
    p->plan.choices = choices;
    if (strcmp(phase, "orders") == 0)
        p->phase = PHASE_ORDERS;
    else if (strcmp(phase, "completions") == 0)
        p->phase = PHASE_COMPLETIONS;
    else
        return -1;
    return 0;
}

/* The n space-separated numbers of a row (the last may be a u128), then for
 * orders the profile. */
static int split_fields(char *line, char **field, int most)
{
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(line, " \n", &save); tok;
         tok = strtok_r(NULL, " \n", &save)) {
        if (n < most)
            field[n] = tok;
        n++;
    }
    return n;
}

static int number(const char *text, uint64_t *out)
{
    const char *end;
    return parse_u64(text, &end, out) == 0 && *end == '\0' ? 0 : -1;
}

/* A row of p's phase into r (and x, the class's profile). Returns 0, or -1
 * with why. gp checks the rank is a class with that orbit and labels. */
static int parse_row(struct grid_profiles *gp, const struct part *p, char *line,
    struct row *r, uint8_t *x, char *why, size_t whylen)
{
    char *f[7];
    const int want = p->phase == PHASE_ORDERS ? 5 : 7;
    memset(r, 0, sizeof(*r));
    const int types = grid_profiles_types(gp);
    if (split_fields(line, f, 7) != want || number(f[0], &r->rank) != 0
        || number(f[1], &r->orbit) != 0 || number(f[2], &r->labels) != 0
        || number(f[3], &r->orders) != 0
        || (p->phase == PHASE_ORDERS && (int) strlen(f[4]) != types)
        || (p->phase == PHASE_COMPLETIONS
            && (number(f[4], &r->from) != 0 || number(f[5], &r->to) != 0
                || grid_text_parse_u128(f[6], &r->sum) != 0))) {
        snprintf(why, whylen, "not a row (%d fields: %.*s)", want,
            (int) strlen(columns[p->phase]) - 1, columns[p->phase]);
        return -1;
    }
    if (r->rank >= p->plan.profiles || grid_profiles_unrank(gp, r->rank, x) != 0) {
        snprintf(why, whylen, "rank %llu is past the last profile",
            (unsigned long long) r->rank);
        return -1;
    }
    if (p->phase == PHASE_ORDERS)
        for (int t = 0; t < types; t++)
            if (f[4][t] != '0' + x[t]) {
                snprintf(why, whylen, "the profile is not the one of rank %llu",
                    (unsigned long long) r->rank);
                return -1;
            }
    uint8_t canon[WALK_MAX_TYPES];
    uint64_t stab;
    grid_profiles_canonical(gp, x, canon, &stab);
    if (memcmp(canon, x, (size_t) types) != 0) {
        snprintf(why, whylen, "rank %llu is not a class (its profile is not canonical)",
            (unsigned long long) r->rank);
        return -1;
    }
    if (r->orbit != p->plan.group / stab || r->labels != grid_profiles_labels(gp, x)) {
        snprintf(why, whylen, "the orbit or labels do not follow from the profile");
        return -1;
    }
    if (p->phase == PHASE_COMPLETIONS && (r->from >= r->to || r->to > p->plan.choices)) {
        snprintf(why, whylen, "choices %llu-%llu are not a piece of 0-%llu",
            (unsigned long long) r->from, (unsigned long long) r->to,
            (unsigned long long) p->plan.choices);
        return -1;
    }
    return 0;
}

static int push_row(struct part *p, const struct row *r, const uint8_t *x, int types)
{
    if (p->nrows == p->cap) {
        const size_t cap = p->cap ? 2 * p->cap : 4; /* most shards hold few */
        struct row *rows = realloc(p->rows, cap * sizeof(*rows));
        if (rows)
            p->rows = rows;
        uint8_t *profiles = rows ? realloc(p->profiles, cap * (size_t) types) : NULL;
        if (!profiles)
            return -1;
        p->profiles = profiles;
        p->cap = cap;
    }
    p->rows[p->nrows] = *r;
    memcpy(p->profiles + p->nrows * (size_t) types, x, (size_t) types);
    p->nrows++;
    return 0;
}

static int parse_end(const char *line, struct part *p)
{
    char range[2 * WALK_PLACE];
    unsigned long long classes, steps;
    struct place a;
    if (sscanf(line, "# end done=%95s classes=%llu steps=%llu", range, &classes, &steps)
            != 3
        || parse_range(range, &a, &p->done) != 0 || place_compare(a, p->first) != 0
        || place_compare(p->done, p->last) > 0
        || (place_compare(p->done, p->last) != 0 && !strstr(line, " cut-short")))
        return -1;
    p->classes = classes;
    p->steps = steps;
    return 0;
}

/* Reads p->name's rows after its header (already in p), checked against gp.
 * Returns 0, or -1 after saying why, with file and line. */
static int read_rows(
    FILE *in, struct grid_profiles *gp, struct part *p, const char *who, FILE *err)
{
    char line[WALK_LINE], why[200];
    unsigned long number = 2;
    const int types = grid_profiles_types(gp);
    if (!fgets(line, sizeof(line), in) || strcmp(line, columns[p->phase]) != 0) {
        fprintf(err, "%s: %s:2: the column names expected\n", who, p->name);
        return -1;
    }
    struct place next = p->first; /* the rows' places go up from there */
    while (fgets(line, sizeof(line), in)) {
        number++;
        if (!strchr(line, '\n')) {
            fprintf(err, "%s: %s:%lu: cut off mid-line (the run was interrupted?)\n", who,
                p->name, number);
            return -1;
        }
        if (strncmp(line, "# end ", 6) == 0) {
            p->end_line = number;
            if (parse_end(line, p) != 0) {
                fprintf(err, "%s: %s:%lu: not an end line for ranks of the header\n", who,
                    p->name, number);
                return -1;
            }
            if (p->classes != p->nrows) {
                fprintf(err, "%s: %s:%lu: the end line counts %llu rows, the file %zu\n",
                    who, p->name, number, (unsigned long long) p->classes, p->nrows);
                return -1;
            }
            if (place_compare(next, p->done) > 0) {
                fprintf(err, "%s: %s:%lu: rows past the place the end line reached\n",
                    who, p->name, number);
                return -1;
            }
            return 0;
        }
        if (line[0] == '#')
            continue;
        struct row r;
        uint8_t x[WALK_MAX_TYPES];
        if (parse_row(gp, p, line, &r, x, why, sizeof(why)) != 0) {
            fprintf(err, "%s: %s:%lu: %s\n", who, p->name, number, why);
            return -1;
        }
        const struct place at = { r.rank, r.from };
        const struct place end = p->phase == PHASE_ORDERS
            ? (struct place) { r.rank + 1, 0 }
            : (struct place) { r.rank, r.to };
        if (place_compare(at, next) < 0 || place_compare(at, p->last) >= 0
            || (p->phase == PHASE_COMPLETIONS && place_compare(end, p->last) > 0)) {
            fprintf(err,
                "%s: %s:%lu: rank %llu is out of order or outside the header's ranks\n",
                who, p->name, number, (unsigned long long) r.rank);
            return -1;
        }
        next = end;
        if (push_row(p, &r, x, types) != 0) {
            fprintf(err, "%s: out of memory\n", who);
            return -1;
        }
    }
    fprintf(err,
        "%s: %s:%lu: no end line: the run was cut off (interrupted?); rerun it\n", who,
        p->name, number + 1);
    return -1;
}

static bool same_plan(const struct plan *a, const struct plan *b)
{
    return a->box_rows == b->box_rows && a->box_cols == b->box_cols && a->rows == b->rows
        && a->cols == b->cols && a->profiles == b->profiles && a->classes == b->classes
        && a->group == b->group && a->choices == b->choices;
}

/* Reads one partial whole: header checked against the plan (or, with gp
 * NULL, the plan built from it into *gp and *plan). Returns 0, or -1 after
 * saying why. */
static int read_part(FILE *in, const char *name, struct grid_profiles **gp,
    struct plan *plan, struct part *p, const char *who, FILE *err)
{
    char line[WALK_LINE];
    memset(p, 0, sizeof(*p));
    p->name = name;
    if (!fgets(line, sizeof(line), in) || parse_header(line, p) != 0) {
        fprintf(err, "%s: %s:1: not a count --grids walk partial\n", who, name);
        return -1;
    }
    if (!*gp) {
        *gp = plan_of(p->plan.box_rows, p->plan.box_cols, plan, who, err);
        if (!*gp)
            return -1;
    }
    if (!same_plan(&p->plan, plan)) {
        fprintf(err,
            "%s: %s:1: not the plan of %dx%d boxes (%llu profiles in %llu classes by "
            "Burnside's sum, %llu choices)\n",
            who, name, plan->box_rows, plan->box_cols,
            (unsigned long long) plan->profiles, (unsigned long long) plan->classes,
            (unsigned long long) plan->choices);
        return -1;
    }
    return read_rows(in, *gp, p, who, err);
}

/* --- running a shard --- */

struct orders_run {
    struct grid_profiles *gp;
    FILE *out;
    uint64_t budget, steps, classes;
    struct place reached;
};

static int orders_visit(void *ctx, const struct grid_profiles_drawn *rep)
{
    struct orders_run *o = ctx;
    const uint64_t left = o->budget ? o->budget - o->steps : UINT64_MAX;
    uint64_t orders = 0;
    bool finished = false;
    o->steps += grid_profiles_orders_search(o->gp, rep, left, &orders, &finished);
    if (!finished) {
        o->reached = (struct place) { rep->rank, 0 };
        return 1;
    }
    const int types = grid_profiles_types(o->gp);
    char profile[WALK_MAX_TYPES + 1];
    for (int t = 0; t < types; t++)
        profile[t] = (char) ('0' + rep->digits[t]);
    profile[types] = '\0';
    fprintf(o->out, "%llu %llu %llu %llu %s\n", (unsigned long long) rep->rank,
        (unsigned long long) rep->orbit,
        (unsigned long long) grid_profiles_labels(o->gp, rep->digits),
        (unsigned long long) orders, profile);
    o->classes++;
    return 0;
}

static int run_orders(struct grid_profiles *gp, const struct plan *plan,
    struct place first, struct place last, uint64_t budget, FILE *out, FILE *err)
{
    print_header(out, PHASE_ORDERS, plan, first, last);
    struct orders_run o = { gp, out, budget, 0, 0, last };
    uint64_t visited;
    const int rc
        = grid_profiles_each_class(gp, first.rank, last.rank, orders_visit, &o, &visited);
    if (rc < 0) {
        fprintf(err, "sudolab count: --grids: out of memory\n");
        return EXIT_STATUS_SKIPPED;
    }
    print_end(out, first, o.reached, last, o.classes, o.steps);
    return EXIT_STATUS_OK;
}

/* The table of a merged orders phase, into tab. Returns 0, or -1 after
 * saying why. */
static int load_table(const char *path, struct grid_profiles *gp, const struct plan *plan,
    struct part *t, struct grid_profiles_table *tab, FILE *err)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(err, "sudolab count: --orders-table %s: cannot read it\n", path);
        return -1;
    }
    struct grid_profiles *have = gp;
    struct plan want = *plan;
    int rc = read_part(in, path, &have, &want, t, "sudolab count", err);
    fclose(in);
    if (rc == 0
        && (t->phase != PHASE_ORDERS || t->first.rank != 0
            || place_compare(t->done, (struct place) { plan->profiles, 0 }) != 0
            || t->nrows != plan->classes)) {
        fprintf(err,
            "sudolab count: --orders-table %s: not the merged orders of every class "
            "(sudolab merge of the --orders partials)\n",
            path);
        rc = -1;
    }
    const int types = grid_profiles_types(gp);
    for (size_t i = 0; rc == 0 && i < t->nrows; i++)
        if (grid_profiles_table_insert(
                tab, t->profiles + i * (size_t) types, t->rows[i].orders)
            != 0) {
            fprintf(err, "sudolab count: out of memory\n");
            rc = -1;
        }
    return rc;
}

/* Place number `unit` of the completions' work, the classes' choices one
 * after another in rank order: shards of equal work, as classes cluster at
 * low ranks (their representatives are the least profiles of their orbits). */
static struct place unit_place(const struct part *t, const struct plan *plan, u128 unit)
{
    if (unit >= (u128) t->nrows * plan->choices)
        return (struct place) { plan->profiles, 0 };
    const size_t i = (size_t) (unit / plan->choices);
    const uint64_t choice = (uint64_t) (unit % plan->choices);
    return (struct place) { i == 0 && choice == 0 ? 0 : t->rows[i].rank, choice };
}

static int run_completions(struct grid_profiles *gp, const struct plan *plan,
    const struct grid_walk_options *o, struct place first, struct place last, FILE *out,
    FILE *err)
{
    struct grid_profiles_table *tab = grid_profiles_table_new(gp, GRID_PROFILES_GIVEN);
    struct part t;
    memset(&t, 0, sizeof(t));
    if (!tab || load_table(o->orders_table, gp, plan, &t, tab, err) != 0) {
        if (!tab)
            fprintf(err, "sudolab count: out of memory\n");
        grid_profiles_table_free(tab);
        part_free(&t);
        return EXIT_STATUS_USAGE;
    }
    if (!o->ranks) {
        const u128 work = (u128) t.nrows * plan->choices;
        first = unit_place(&t, plan, work * (o->shard.k - 1) / o->shard.n);
        last = unit_place(&t, plan, work * o->shard.k / o->shard.n);
    }
    const int types = grid_profiles_types(gp);
    int rc = EXIT_STATUS_OK;
    size_t i = 0;
    while (i < t.nrows && t.rows[i].rank < first.rank)
        i++;
    if (first.choice && (i == t.nrows || t.rows[i].rank != first.rank)) {
        fprintf(err,
            "sudolab count: --ranks: rank %llu is not a class: no choice to start at\n",
            (unsigned long long) first.rank);
        rc = EXIT_STATUS_USAGE;
    }
    if (rc == EXIT_STATUS_OK)
        print_header(out, PHASE_COMPLETIONS, plan, first, last);
    uint64_t steps = 0, classes = 0;
    struct place reached = last;
    for (; rc == EXIT_STATUS_OK && i < t.nrows; i++) {
        const struct row *c = &t.rows[i];
        const uint64_t from = c->rank == first.rank ? first.choice : 0;
        uint64_t to = c->rank == last.rank ? last.choice : plan->choices;
        if (c->rank > last.rank || (c->rank == last.rank && to == 0))
            break;
        const bool cut = o->budget_steps && to - from > o->budget_steps - steps;
        if (cut)
            to = from + (o->budget_steps - steps);
        struct grid_profiles_completions done = { 0 };
        if (to > from
            && grid_profiles_complete_range(
                   gp, tab, t.profiles + i * (size_t) types, from, to, &done)
                != 0) {
            fprintf(err, "sudolab count: --grids: %s\n",
                done.missing ? "a middle band's class is not in the orders table"
                             : "out of memory");
            rc = EXIT_STATUS_SKIPPED;
            break;
        }
        if (to > from) {
            char sum[GRID_COUNT_U128_DIGITS];
            grid_count_u128_format(done.sum, sum);
            fprintf(out, "%llu %llu %llu %llu %llu %llu %s\n",
                (unsigned long long) c->rank, (unsigned long long) c->orbit,
                (unsigned long long) c->labels, (unsigned long long) c->orders,
                (unsigned long long) from, (unsigned long long) to, sum);
            steps += to - from;
            classes++;
        }
        if (cut) {
            reached = to == plan->choices ? (struct place) { c->rank + 1, 0 }
                                          : (struct place) { c->rank, to };
            if (place_compare(reached, last) > 0)
                reached = last;
            break;
        }
    }
    if (rc == EXIT_STATUS_OK)
        print_end(out, first, reached, last, classes, steps);
    grid_profiles_table_free(tab);
    part_free(&t);
    return rc;
}

bool grid_walk_wanted(int box_rows, int box_cols, bool orders, const char *orders_table)
{
    return orders || orders_table || box_rows * box_cols == 12;
}

int grid_walk_run(const struct grid_walk_options *o, FILE *out, FILE *err)
{
    struct plan plan;
    struct grid_profiles *gp
        = plan_of(o->box_rows, o->box_cols, &plan, "sudolab count", err);
    if (!gp)
        return EXIT_STATUS_USAGE;
    struct place first = { (o->shard.k - 1) * plan.profiles / o->shard.n, 0 };
    struct place last = { o->shard.k * plan.profiles / o->shard.n, 0 };
    int rc = EXIT_STATUS_OK;
    if (o->ranks
        && (parse_range(o->ranks, &first, &last) != 0 || last.rank > plan.profiles
            || (last.rank == plan.profiles && last.choice != 0)
            || (!o->orders_table && (first.choice || last.choice))
            || first.choice >= (plan.choices ? plan.choices : 1)
            || last.choice >= (plan.choices ? plan.choices : 1))) {
        fprintf(err,
            "sudolab count: --ranks %s: not A-B with A <= B <= %llu (the profiles); "
            "RANK:CHOICE only for --orders-table, CHOICE below %llu\n",
            o->ranks, (unsigned long long) plan.profiles,
            (unsigned long long) plan.choices);
        rc = EXIT_STATUS_USAGE;
    } else if (o->orders_table && plan.cols != 3) {
        fprintf(err,
            "sudolab count: --orders-table: %dx%d boxes count in two bands, whose "
            "completions are the orders: --orders alone gives the total\n",
            o->box_rows, o->box_cols);
        rc = EXIT_STATUS_USAGE;
    } else if (o->orders_table) {
        rc = run_completions(gp, &plan, o, first, last, out, err);
    } else {
        rc = run_orders(gp, &plan, first, last, o->budget_steps, out, err);
    }
    grid_profiles_free(gp);
    return rc;
}

/* --- merge --- */

static int part_place_compare(const void *a, const void *b)
{
    const struct part *x = a, *y = b;
    return place_compare(x->first, y->first);
}

/* The parts, sorted, must do every place once. Returns 0, or -1 after
 * saying why. */
static int check_places(
    const struct part *parts, size_t n, const struct plan *plan, FILE *err)
{
    char a[WALK_PLACE], b[WALK_PLACE];
    struct place at = { 0, 0 };
    const struct part *before = NULL;
    for (size_t i = 0; i <= n; i++) {
        const struct place next
            = i < n ? parts[i].first : (struct place) { plan->profiles, 0 };
        const int c = place_compare(next, at);
        if (c < 0) {
            fprintf(err, "sudolab merge: %s:1: ranks %s-%s were done by %s too\n",
                parts[i].name, place_text(next, a), place_text(at, b), before->name);
            return -1;
        }
        if (c > 0 && before)
            fprintf(err,
                "sudolab merge: %s:%lu: ranks %s-%s are in no partial (a shard missing, "
                "or this one cut short and not resumed)\n",
                before->name, before->end_line, place_text(at, a), place_text(next, b));
        else if (c > 0)
            fprintf(err,
                "sudolab merge: %s:1: ranks %s-%s are in no partial (a shard missing)\n",
                parts[i].name, place_text(at, a), place_text(next, b));
        if (c > 0)
            return -1;
        if (i < n) {
            at = parts[i].done;
            before = &parts[i];
        }
    }
    return 0;
}

static void print_table(
    FILE *out, const struct part *parts, size_t n, const struct plan *plan, int types)
{
    const struct place all = { plan->profiles, 0 }, zero = { 0, 0 };
    print_header(out, PHASE_ORDERS, plan, zero, all);
    struct big bands = { { 0 } }, grids = { { 0 } };
    uint64_t steps = 0;
    for (size_t i = 0; i < n; i++) {
        steps += parts[i].steps;
        for (size_t j = 0; j < parts[i].nrows; j++) {
            const struct row *r = &parts[i].rows[j];
            char profile[WALK_MAX_TYPES + 1];
            for (int t = 0; t < types; t++)
                profile[t] = (char) ('0' + parts[i].profiles[j * (size_t) types + t]);
            profile[types] = '\0';
            fprintf(out, "%llu %llu %llu %llu %s\n", (unsigned long long) r->rank,
                (unsigned long long) r->orbit, (unsigned long long) r->labels,
                (unsigned long long) r->orders, profile);
            const u128 b = (u128) r->orbit * r->labels * r->orders;
            big_add_product(&bands, b, 1);
            big_add_product(&grids, b, r->orders);
        }
    }
    print_end(out, zero, all, all, plan->classes, steps);
    char text[BIG_LIMBS * 10 + 1];
    big_format(bands, text, sizeof(text));
    fprintf(out, "bands %s\n", text);
    if (plan->cols == 2) {
        big_format(grids, text, sizeof(text));
        fprintf(out, "grids %s\n", text);
    }
}

/* Every class's pieces do its choices once; the total. Returns 0, or -1
 * after saying why. */
static int print_total(
    FILE *out, const struct part *parts, size_t n, const struct plan *plan, FILE *err)
{
    const int N = plan->rows * plan->cols;
    fprintf(out,
        "# complete grids of %dx%d (%dx%d boxes) by the profile walk, counted as %dx%d: "
        "%llu classes, %llu middle-band choices each\n",
        N, N, plan->box_rows, plan->box_cols, plan->rows, plan->cols,
        (unsigned long long) plan->classes, (unsigned long long) plan->choices);
    fputs("# bands = orbit * labels * orders; grids = bands * completions\n", out);
    fputs("rank orbit labels orders completions\n", out);
    struct big bands = { { 0 } }, grids = { { 0 } };
    uint64_t classes = 0;
    const struct row *open = NULL;
    u128 sum = 0;
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j < (i < n ? parts[i].nrows : 1); j++) {
            const struct row *r = i < n ? &parts[i].rows[j] : NULL;
            if (open && (!r || r->rank != open->rank)) {
                if (open->to != plan->choices) {
                    fprintf(err,
                        "sudolab merge: class %llu: choices %llu-%llu are in no row\n",
                        (unsigned long long) open->rank, (unsigned long long) open->to,
                        (unsigned long long) plan->choices);
                    return -1;
                }
                char c[GRID_COUNT_U128_DIGITS];
                grid_count_u128_format(sum, c);
                fprintf(out, "%llu %llu %llu %llu %s\n", (unsigned long long) open->rank,
                    (unsigned long long) open->orbit, (unsigned long long) open->labels,
                    (unsigned long long) open->orders, c);
                const u128 b = (u128) open->orbit * open->labels * open->orders;
                big_add_product(&bands, b, 1);
                big_add_product(&grids, b, sum);
                classes++;
                open = NULL;
            }
            if (!r)
                break;
            const bool starts = !open;
            const uint64_t expect = starts ? 0 : open->to;
            if (r->from != expect
                || (!starts
                    && (r->orbit != open->orbit || r->labels != open->labels
                        || r->orders != open->orders))) {
                fprintf(err,
                    "sudolab merge: %s: class %llu: choices from %llu expected, or its "
                    "factors differ between pieces\n",
                    parts[i].name, (unsigned long long) r->rank,
                    (unsigned long long) expect);
                return -1;
            }
            if (starts)
                sum = 0;
            if (sum + r->sum < sum) {
                fprintf(err, "sudolab merge: class %llu: completions past 128 bits\n",
                    (unsigned long long) r->rank);
                return -1;
            }
            sum += r->sum;
            open = r;
        }
    if (classes != plan->classes) {
        fprintf(err,
            "sudolab merge: %llu classes completed, Burnside's sum counts %llu (a "
            "partial left classes out)\n",
            (unsigned long long) classes, (unsigned long long) plan->classes);
        return -1;
    }
    char text[BIG_LIMBS * 10 + 1];
    big_format(bands, text, sizeof(text));
    fprintf(out, "bands %s\n", text);
    big_format(grids, text, sizeof(text));
    fprintf(out, "grids %s\n", text);
    return 0;
}

int grid_walk_merge(const char *const *names, size_t n, FILE *out, FILE *err)
{
    struct part *parts = calloc(n, sizeof(*parts));
    struct grid_profiles *gp = NULL;
    struct plan plan;
    int rc = parts ? EXIT_STATUS_OK : EXIT_STATUS_SKIPPED;
    for (size_t i = 0; rc == EXIT_STATUS_OK && i < n; i++) {
        FILE *in = fopen(names[i], "r");
        if (!in) {
            fprintf(err, "sudolab merge: %s: cannot read it\n", names[i]);
            rc = EXIT_STATUS_USAGE;
            break;
        }
        const int read
            = read_part(in, names[i], &gp, &plan, &parts[i], "sudolab merge", err);
        fclose(in);
        if (read != 0)
            rc = EXIT_STATUS_USAGE;
        else if (parts[i].phase != parts[0].phase) {
            fprintf(err, "sudolab merge: %s:1: phase %s, but %s is of phase %s\n",
                names[i], phase_names[parts[i].phase], names[0],
                phase_names[parts[0].phase]);
            rc = EXIT_STATUS_USAGE;
        }
    }
    if (rc == EXIT_STATUS_OK) {
        qsort(parts, n, sizeof(*parts), part_place_compare);
        if (check_places(parts, n, &plan, err) != 0)
            rc = EXIT_STATUS_USAGE;
    }
    if (rc == EXIT_STATUS_OK && parts[0].phase == PHASE_ORDERS) {
        size_t classes = 0;
        for (size_t i = 0; i < n; i++)
            classes += parts[i].nrows;
        if (classes != plan.classes) {
            fprintf(err,
                "sudolab merge: %zu classes listed, Burnside's sum counts %llu\n",
                classes, (unsigned long long) plan.classes);
            rc = EXIT_STATUS_USAGE;
        } else {
            print_table(out, parts, n, &plan, grid_profiles_types(gp));
        }
    } else if (rc == EXIT_STATUS_OK) {
        /* checked while written: nothing reaches out unless every class holds */
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        rc = !mem                                         ? EXIT_STATUS_SKIPPED
            : print_total(mem, parts, n, &plan, err) != 0 ? EXIT_STATUS_USAGE
                                                          : EXIT_STATUS_OK;
        if (mem)
            fclose(mem);
        if (rc == EXIT_STATUS_OK)
            fwrite(text, 1, len, out);
        free(text);
    }
    for (size_t i = 0; parts && i < n; i++)
        part_free(&parts[i]);
    free(parts);
    grid_profiles_free(gp);
    return rc;
}
