#include "puzzle/rate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/rng.h"
#include "common/symmetry.h"
#include "solvers/registry.h"

int rate_blanks(const struct grid *g)
{
    int blanks = 0;
    for (int c = 0; c < g->ncells; c++)
        blanks += g->cell[c] == 0;
    return blanks;
}

int rate_blanks_level(int blanks)
{
    if (blanks >= 40 && blanks <= 45)
        return 1;
    if (blanks >= 46 && blanks <= 50)
        return 2;
    if (blanks >= 51 && blanks <= 55)
        return 3;
    if (blanks >= 56 && blanks <= 60)
        return 4;
    if (blanks >= 61 && blanks <= 65)
        return 5;
    return 0;
}

/* Seed 004's loops, cell by cell, rather than a closed form: the thesis
 * counts this way and the tests check it against the closed form. */
int rate_freedom(const struct grid *g)
{
    const int n = g->n;
    int sum = 0;
    for (int cell = 0; cell < g->ncells; cell++) {
        if (g->cell[cell])
            continue;
        const int r = cell / n, c = cell % n;
        for (int k = 0; k < n; k++) {
            sum += g->cell[r * n + k] == 0;
            sum += g->cell[k * n + c] == 0;
        }
        const int top = r - r % g->box_rows, left = c - c % g->box_cols;
        for (int i = top; i < top + g->box_rows; i++) {
            for (int j = left; j < left + g->box_cols; j++)
                sum += g->cell[i * n + j] == 0 && i * n + j != cell;
        }
    }
    return sum;
}

int rate_freedom_level(int freedom)
{
    if (freedom >= 1 && freedom <= 720)
        return 1;
    if (freedom >= 721 && freedom <= 840)
        return 2;
    if (freedom >= 841 && freedom <= 960)
        return 3;
    if (freedom >= 961 && freedom <= 1080)
        return 4;
    if (freedom >= 1081 && freedom <= 2105)
        return 5;
    return 0;
}

int rate_parse_methods(const char *text, unsigned *methods)
{
    static const struct {
        const char *name;
        unsigned bits;
    } names[] = {
        { "blanks", RATE_BLANKS },
        { "freedom", RATE_FREEDOM },
        { "guesses", RATE_GUESSES },
        { "techniques", RATE_TECHNIQUES },
        { "all", RATE_ALL },
        { "se", RATE_SE },
        { "hodoku", RATE_HODOKU },
    };
    unsigned bits = 0;
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, ",");
        bool known = false;
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            if (strlen(names[i].name) == len && strncmp(p, names[i].name, len) == 0) {
                bits |= names[i].bits;
                known = true;
            }
        }
        if (!known)
            return -1;
        p += len;
        if (*p == ',')
            p++;
    }
    if (!bits)
        return -1;
    *methods = bits;
    return 0;
}

void rate_method_names(char *out, size_t len, unsigned methods)
{
    static const char *const names[]
        = { "blanks", "freedom", "guesses", "techniques", "se", "hodoku" };
    size_t used = 0;
    if (len)
        out[0] = '\0';
    for (int i = 0; i < 6; i++) {
        if (!(methods & (1u << i)))
            continue;
        const int w = snprintf(out + used, len - used, "%s%s", used ? "," : "", names[i]);
        if (w < 0 || (size_t) w >= len - used)
            return;
        used += (size_t) w;
    }
}

const struct solver *rate_guess_solver(void)
{
    const struct solver *candidates[] = { solver_find("mrv"), solver_default() };
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
        const struct solver *s = candidates[i];
        if (s && (s->counters & SOLVER_HAS(guesses)) && (s->caps & SOLVER_CAP_COUNT))
            return s;
    }
    return NULL;
}

int rater_open(struct rater *r, unsigned methods, const struct solver *solver,
    int permutations, uint64_t seed, char *why, size_t whylen)
{
    memset(r, 0, sizeof(*r));
    r->methods = methods;
    r->permutations = permutations > 0 ? permutations : 1;
    r->seed = seed;
    if (methods & RATE_GUESSES) {
        r->solver = solver ? solver : rate_guess_solver();
        if (!r->solver) {
            snprintf(why, whylen, "no registered back end reports guesses");
            return -1;
        }
        if (!(r->solver->counters & SOLVER_HAS(guesses))) {
            snprintf(why, whylen, "solver %s does not count guesses", r->solver->name);
            return -1;
        }
        r->inst = solver_open(r->solver);
        if (!r->inst) {
            snprintf(why, whylen, "solver %s failed to start", r->solver->name);
            return -1;
        }
    }
    if (methods & RATE_TECHNIQUES) {
        r->logic = calloc(1, sizeof(*r->logic));
        if (!r->logic) {
            rater_close(r);
            snprintf(why, whylen, "out of memory");
            return -1;
        }
    }
    if ((methods & (RATE_SE | RATE_HODOKU)) && !(r->se = se_rater_new())) {
        rater_close(r);
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    return 0;
}

void rater_close(struct rater *r)
{
    solver_close(r->inst);
    free(r->logic);
    se_rater_free(r->se);
    r->inst = NULL;
    r->logic = NULL;
    r->se = NULL;
}

/* FNV-1a over the cells: the permutations of a puzzle depend on the puzzle,
 * not on where it sits in a file. */
static uint64_t grid_hash(const struct grid *g)
{
    const uint8_t shape[4] = { g->box_rows, g->box_cols, g->variant, 0 };
    return hash_bytes(
        hash_bytes(HASH_FNV1A_START, shape, sizeof(shape)), g->cell, (size_t) g->ncells);
}

static void rate_guesses(struct rater *r, const struct grid *g, struct rate_values *v)
{
    struct rng rng;
    rng_seed(&rng, r->seed ^ grid_hash(g));
    double log_sum = 0, raw_sum = 0;
    uint64_t time_sum = 0;
    int status = -1;
    for (int i = 0; i < r->permutations; i++) {
        struct symmetry sym;
        struct grid permuted;
        symmetry_random(&sym, g, &rng);
        symmetry_apply(&sym, g, &permuted);
        const struct solve_request req = { .limit = 2,
            .budget_steps = r->budget_steps,
            .deadline_ns = r->budget_ms ? clock_now_ns() + r->budget_ms * 1000000u : 0 };
        struct solve_result res;
        solver_run(r->inst, &permuted, &req, &res);
        log_sum += log((double) res.counters.guesses + 1.0);
        raw_sum += (double) res.counters.guesses;
        time_sum += res.time_ns;
        /* the least settled outcome wins: limit and error over the rest */
        if (status < 0 || res.status == SOLVE_STATUS_LIMIT
            || res.status == SOLVE_STATUS_ERROR)
            status = (int) res.status;
    }
    v->guesses = log_sum / r->permutations;
    v->guesses_raw = raw_sum / r->permutations;
    v->time_ns = time_sum / (uint64_t) r->permutations;
    v->guesses_status = status;
}

void rater_rate(struct rater *r, const struct grid *g, struct rate_values *v)
{
    memset(v, 0, sizeof(*v));
    v->logic.hardest = LOGIC_NONE;
    if (r->methods & RATE_BLANKS) {
        v->blanks = rate_blanks(g);
        v->blanks_level = rate_blanks_level(v->blanks);
    }
    if (r->methods & RATE_FREEDOM) {
        v->freedom = rate_freedom(g);
        v->freedom_level = rate_freedom_level(v->freedom);
    }
    if (r->methods & RATE_GUESSES)
        rate_guesses(r, g, v);
    if (r->methods & RATE_TECHNIQUES)
        logic_rate(r->logic, g, &v->logic);
    /* one SE path gives both scales; its budget is the thread's CPU time */
    const uint64_t deadline
        = r->se && r->budget_ms ? se_rater_now(r->se) + r->budget_ms * 1000000u : 0;
    if (r->methods & RATE_HODOKU)
        hodoku_rate_within(r->se, g, deadline, &v->hodoku, &v->se);
    else if (r->methods & RATE_SE)
        se_rate_within(r->se, g, deadline, &v->se);
}

/* Appends to out like snprintf, keeping the running length. */
__attribute__((format(printf, 4, 5))) static void append(
    char *out, size_t len, int *used, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const size_t at = (size_t) *used < len ? (size_t) *used : len;
    const int w = vsnprintf(out + at, len - at, fmt, ap);
    va_end(ap);
    if (w > 0)
        *used += w;
}

/* Technique level: 0 nothing needed, 1.. the techniques, then guessing. */
static int technique_level(const struct logic_result *lr)
{
    return lr->hardest + 1;
}

static const char *se_verdict_name(enum se_verdict v)
{
    switch (v) {
    case SE_NO_SOLUTION:
        return "no-solution";
    case SE_MULTIPLE:
        return "multiple-solutions";
    case SE_NOT_9X9:
        return "not-9x9";
    case SE_OUT_OF_TIME:
        return "out-of-time";
    default:
        return "beyond";
    }
}

/* ER/EP/ED as serate prints them, and the technique of ER with spaces as
 * underscores; a verdict instead of a rating for puzzles without exactly
 * one solution, out of time, or beyond the techniques (serate's 20.0 is no
 * difficulty: a reader that took it for one would draw it as the hardest). */
static void se_format(
    char *out, size_t len, int *used, const struct se_rating *se, bool csv)
{
    if (se->verdict != SE_RATED) {
        append(out, len, used, csv ? ",,,,%s" : " se=%s", se_verdict_name(se->verdict));
        return;
    }
    char tech[64];
    snprintf(tech, sizeof(tech), "%s", se_technique_name(se->er_tech));
    for (char *c = tech; *c; c++)
        if (*c == ' ')
            *c = '_';
    append(out, len, used,
        csv ? ",%d.%d,%d.%d,%d.%d,%s" : " se=%d.%d/%d.%d/%d.%d se_technique=%s",
        se->er / 10, se->er % 10, se->ep / 10, se->ep % 10, se->ed / 10, se->ed % 10,
        tech);
}

/* HoDoKu's score and level, and the technique that set the level, with
 * spaces as underscores; SE's verdict for puzzles without a rating. */
static void hodoku_format(
    char *out, size_t len, int *used, const struct hodoku_rating *h, bool csv)
{
    if (h->verdict != SE_RATED && h->verdict != SE_BEYOND) {
        append(out, len, used, csv ? ",,%s," : " hodoku=%s", se_verdict_name(h->verdict));
        return;
    }
    char tech[64];
    snprintf(tech, sizeof(tech), "%s", h->hardest);
    for (char *c = tech; *c; c++)
        if (*c == ' ')
            *c = '_';
    append(out, len, used,
        csv ? ",%d,%s,%s" : " hodoku_score=%d hodoku_level=%s hodoku_technique=%s",
        h->score, hodoku_level_name(h->level), tech);
}

int rate_format(
    char *out, size_t len, const struct rate_values *v, unsigned methods, bool csv)
{
    int used = 0;
    if (len)
        out[0] = '\0';
    if (methods & RATE_BLANKS)
        append(out, len, &used, csv ? ",%d,%d" : " blanks=%d blanks_level=%d", v->blanks,
            v->blanks_level);
    if (methods & RATE_FREEDOM)
        append(out, len, &used, csv ? ",%d,%d" : " freedom=%d freedom_level=%d",
            v->freedom, v->freedom_level);
    if (methods & RATE_GUESSES)
        append(out, len, &used,
            csv ? ",%.4f,%.2f,%s" : " guesses=%.4f guesses_mean=%.2f guesses_status=%s",
            v->guesses, v->guesses_raw,
            solve_status_name((enum solve_status) v->guesses_status));
    if (methods & RATE_TECHNIQUES) {
        const struct logic_result *lr = &v->logic;
        const char *verdict = lr->status == LOGIC_CONTRADICTION
            ? "contradiction"
            : logic_technique_name(lr->hardest);
        if (csv) {
            append(out, len, &used, ",%s,%d", verdict, technique_level(lr));
            for (int t = 0; t < LOGIC_TECHNIQUE_COUNT; t++)
                append(out, len, &used, ",%u", lr->used[t]);
        } else {
            append(out, len, &used, " technique=%s technique_level=%d used=", verdict,
                technique_level(lr));
            bool any = false;
            for (int t = 0; t < LOGIC_TECHNIQUE_COUNT; t++) {
                if (lr->used[t]) {
                    append(out, len, &used, "%s%s:%u", any ? "," : "",
                        logic_technique_name(t), lr->used[t]);
                    any = true;
                }
            }
            if (!any)
                append(out, len, &used, "-");
        }
    }
    if (methods & RATE_SE)
        se_format(out, len, &used, &v->se, csv);
    if (methods & RATE_HODOKU)
        hodoku_format(out, len, &used, &v->hodoku, csv);
    return used;
}

int rate_csv_header(char *out, size_t len, unsigned methods)
{
    int used = 0;
    if (len)
        out[0] = '\0';
    if (methods & RATE_BLANKS)
        append(out, len, &used, ",blanks,blanks_level");
    if (methods & RATE_FREEDOM)
        append(out, len, &used, ",freedom,freedom_level");
    if (methods & RATE_GUESSES)
        append(out, len, &used, ",guesses,guesses_mean,guesses_status");
    if (methods & RATE_TECHNIQUES) {
        append(out, len, &used, ",technique,technique_level");
        for (int t = 0; t < LOGIC_TECHNIQUE_COUNT; t++)
            append(out, len, &used, ",%s", logic_technique_name(t));
    }
    if (methods & RATE_SE)
        append(out, len, &used, ",se_er,se_ep,se_ed,se_technique");
    if (methods & RATE_HODOKU)
        append(out, len, &used, ",hodoku_score,hodoku_level,hodoku_technique");
    return used;
}
