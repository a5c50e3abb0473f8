/* The Sudoku Explainer rater's driver: SE's order of producers, the step
 * loop that gives ER/EP/ED, the solution check and the hint text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "rater/se_internal.h"
#include "solvers/registry.h"

static const char *const tech_names[] = {
#define SE_TECH_NAME(id, name) name,
    SE_TECHNIQUES(SE_TECH_NAME)
#undef SE_TECH_NAME
};

const char *se_technique_name(enum se_technique t)
{
    return (unsigned) t < SE_TECHNIQUE_COUNT ? tech_names[t] : "?";
}

/* 0: not built, 1: being built, 2: ready. Raters run on several threads
 * (rate -j, generate --se -j): one builds, the others wait for it. */
static int tables_state;

void se_ensure_tables(void)
{
    if (__atomic_load_n(&tables_state, __ATOMIC_ACQUIRE) == 2)
        return;
    int none = 0;
    if (__atomic_compare_exchange_n(
            &tables_state, &none, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        se_grid_tables_init();
        se_basic_tables_init();
        __atomic_store_n(&tables_state, 2, __ATOMIC_RELEASE);
        return;
    }
    while (__atomic_load_n(&tables_state, __ATOMIC_ACQUIRE) != 2)
        continue; /* a few microseconds, once */
}

/* SE's producers before chains, in its order (serate defaults). */
static bool basic_step(struct se_rater *rt, const struct se_grid *g, struct se_step *s)
{
    if (se_hidden_single(rt, g, s))
        return true;
    struct se_places p;
    se_places_init(&p, g);
    return se_direct_locking(rt, &p, s) || se_direct_hidden_set(rt, &p, 2, s)
        || se_naked_single(&p, s) || se_direct_hidden_set(rt, &p, 3, s)
        || se_locking(rt, &p, s) || se_naked_set(rt, &p, 2, s) || se_fish(rt, &p, 2, s)
        || se_hidden_set(rt, &p, 2, s) || se_naked_set(rt, &p, 3, s)
        || se_fish(rt, &p, 3, s) || se_hidden_set(rt, &p, 3, s) || se_turbot(rt, g, s)
        || se_grouped_turbot(rt, g, s) || se_xy_wing(rt, g, false, s)
        || se_xy_wing(rt, g, true, s) || se_unique_rectangle(rt, g, s)
        || se_naked_set(rt, &p, 4, s) || se_fish(rt, &p, 4, s)
        || se_hidden_set(rt, &p, 4, s) || se_strong_links(rt, g, 3, s)
        || se_als_wing(rt, g, 3, s) || se_bug(rt, g, s) || se_strong_links(rt, g, 4, s)
        || se_als_wing(rt, g, 4, s) || se_aligned(rt, g, 2, s)
        || se_als_wing(rt, g, 5, s);
}

bool se_next_step(struct se_rater *rt, const struct se_grid *g, struct se_step *s)
{
    return basic_step(rt, g, s) || se_chains(rt, g, SE_CH_CYCLES, 0, s)
        || se_als_wing(rt, g, 6, s) || se_aligned(rt, g, 3, s)
        || se_chains(rt, g, SE_CH_NISHIO, 0, s) || se_chains(rt, g, SE_CH_MULTIPLE, 0, s)
        || se_chains(rt, g, SE_CH_DYNAMIC, 0, s) || se_chains(rt, g, SE_CH_DYNAMIC, 1, s)
        || se_chains(rt, g, SE_CH_DYNAMIC, 2, s) || se_chains(rt, g, SE_CH_DYNAMIC, 3, s)
        || se_chains(rt, g, SE_CH_DYNAMIC, 4, s) || se_chains(rt, g, SE_CH_DYNAMIC, 5, s)
        || se_chains(rt, g, SE_CH_DYNAMIC, 6, s) || se_chains(rt, g, SE_CH_DYNAMIC, 7, s);
}

struct se_rater *se_rater_new(void)
{
    se_ensure_tables();
    struct se_rater *rt = calloc(1, sizeof(*rt));
    if (!rt)
        return NULL;
    rt->thread_cpu = true;
    rt->basic = se_basic_memo_new();
    rt->wings = se_wings_memo_new();
    rt->links = se_links_memo_new();
    rt->chains = se_chains_memo_new();
    if (!rt->basic || !rt->wings || !rt->links || !rt->chains) {
        se_rater_free(rt);
        return NULL;
    }
    return rt;
}

void se_rater_use_cpu_clock(struct se_rater *rt, bool cpu)
{
    rt->thread_cpu = cpu;
}

uint64_t se_rater_now(const struct se_rater *rt)
{
    return se_clock_read(rt);
}

void se_rater_free(struct se_rater *rt)
{
    if (!rt)
        return;
    se_basic_memo_free(rt->basic);
    se_wings_memo_free(rt->wings);
    se_links_memo_free(rt->links);
    se_chains_memo_free(rt->chains);
    free(rt);
}

/* Solutions of in, up to 2, by the fast back end (its portable path serves
 * every machine and the page): a search without propagation is a share of
 * a rating. The SE API has no error channel
 * and a wrong verdict must never pass silently, so a back end that cannot
 * start (out of memory) ends the process. */
static int count_up_to_two(const struct grid *in)
{
    /* fast does not start from candidates; dlx does, and is built everywhere */
    struct solver_instance *inst
        = solver_open(solver_find(in->has_candidates ? "dlx" : "fast"));
    struct solve_result res;
    if (inst) {
        const struct solve_request req = { .limit = 2 };
        solver_run(inst, in, &req, &res);
        solver_close(inst);
    }
    if (!inst || res.status == SOLVE_STATUS_ERROR) {
        fprintf(stderr, "sudolab: the SE rater's uniqueness check failed: %s\n",
            inst ? res.error : "out of memory");
        abort();
    }
    return (int) res.solutions;
}

static bool solved(const struct se_grid *g)
{
    for (int c = 0; c < SE_CELLS; c++)
        if (!g->value[c])
            return false;
    return true;
}

static void rate_path(struct se_rater *rt, struct se_grid *g, struct se_rating *out,
    se_step_fn *on_step, void *ctx)
{
    int er = 0;
    enum se_technique er_tech = SE_full_house;
    bool have_ed = false, have_ep = false;
    while (!solved(g)) {
        struct se_step s;
        /* the clock is read once a step: reading it before the step too is
         * a share of an easy puzzle's rating (a late step ends early: the chain
         * searches read the deadline). A step rated 2.3 or less (singles,
         * direct intersections and pairs) comes from the first searches,
         * which the deadline cannot cut short and which take a microsecond
         * or less: after those only every 16th step reads it */
        const bool found = se_next_step(rt, g, &s);
        const bool quick = found && s.rating <= 23;
        if ((!quick || out->steps % 16 == 15) && se_deadline_passed(rt)) {
            out->verdict = SE_OUT_OF_TIME;
            return;
        }
        if (!found) {
            out->verdict = SE_BEYOND;
            out->er = 200;
            return;
        }
        out->steps++;
        if (on_step)
            on_step(ctx, s.tech, s.rating);
        if (s.rating > er) {
            er = s.rating;
            er_tech = s.tech;
        }
        se_apply(g, &s);
        if (!have_ep) {
            if (!have_ed) {
                out->ed = er, out->ed_tech = er_tech, have_ed = true;
            }
            if (s.place_cell >= 0) {
                out->ep = er, out->ep_tech = er_tech, have_ep = true;
            }
        }
    }
    out->er = er;
    out->er_tech = er_tech;
}

static void rate_grid(struct se_rater *rt, const struct grid *in, struct se_rating *out,
    se_step_fn *on_step, void *ctx)
{
    memset(out, 0, sizeof(*out));
    se_ensure_tables();
    if (in->n != 9 || in->box_rows != 3 || in->variant != 0) {
        out->verdict = SE_NOT_9X9;
        return;
    }
    struct se_grid g;
    if (!se_load(in, &g)) {
        out->verdict = SE_NO_SOLUTION;
        return;
    }
    const int n = count_up_to_two(in);
    if (n != 1) {
        out->verdict = n == 0 ? SE_NO_SOLUTION : SE_MULTIPLE;
        return;
    }
    rate_path(rt, &g, out, on_step, ctx);
}

void se_rate_steps(struct se_rater *rt, const struct grid *in, uint64_t deadline_ns,
    struct se_rating *out, se_step_fn *on_step, void *ctx)
{
    rt->deadline = deadline_ns;
    rt->calls = 0;
    rate_grid(rt, in, out, on_step, ctx);
    se_chains_release(rt->chains);
    rt->deadline = 0; /* hints and later ratings with rt have their own */
}

void se_rate_within(struct se_rater *rt, const struct grid *in, uint64_t deadline_ns,
    struct se_rating *out)
{
    se_rate_steps(rt, in, deadline_ns, out, NULL, NULL);
}

void se_rate(struct se_rater *rt, const struct grid *in, struct se_rating *out)
{
    se_rate_within(rt, in, 0, out);
}

static int put_cell(char *out, size_t len, int c)
{
    return snprintf(out, len, "r%dc%d", c / 9 + 1, c % 9 + 1);
}

/* "r1c2-5 r3c4-57": the eliminations. */
static size_t put_elims(char *out, size_t len, const struct se_step *s, bool json)
{
    size_t n = 0;
    for (int c = 0; c < SE_CELLS && n < len; c++) {
        if (!s->elim[c])
            continue;
        if (json)
            n += (size_t) snprintf(
                out + n, len - n, "%s{\"cell\":%d,\"digits\":\"", n ? "," : "", c);
        else {
            n += (size_t) snprintf(out + n, len - n, "%s", n ? " " : "");
            n += (size_t) put_cell(out + n, len - n, c);
            n += (size_t) snprintf(out + n, len - n, "-");
        }
        for (int v = 1; v <= 9 && n < len; v++)
            if (s->elim[c] & (1u << v))
                n += (size_t) snprintf(out + n, len - n, "%d", v);
        if (json && n < len)
            n += (size_t) snprintf(out + n, len - n, "\"}");
    }
    return n < len ? n : len - 1;
}

static void hint_text(const struct se_step *s, bool json, char *out, size_t len)
{
    char el[1024] = "";
    char cells[256] = "";
    size_t cn = 0;
    for (int i = 0; i < s->ncells && cn < sizeof(cells) - 16; i++) {
        cn += (size_t) snprintf(
            cells + cn, sizeof(cells) - cn, "%s", i ? (json ? "," : " ") : "");
        cn += json ? (size_t) snprintf(cells + cn, sizeof(cells) - cn, "%d", s->cells[i])
                   : (size_t) put_cell(cells + cn, sizeof(cells) - cn, s->cells[i]);
    }
    put_elims(el, sizeof(el), s, json);
    char place[32] = "";
    if (s->place_cell >= 0)
        snprintf(place, sizeof(place), "r%dc%d=%d", s->place_cell / 9 + 1,
            s->place_cell % 9 + 1, s->place_value);
    if (json)
        snprintf(out, len,
            "{\"technique\":\"%s\",\"rating\":%d.%d,\"cells\":[%s],\"place\":"
            "{\"cell\":%d,\"digit\":%d},\"eliminate\":[%s]}",
            se_technique_name(s->tech), s->rating / 10, s->rating % 10, cells,
            s->place_cell, s->place_value, el);
    else
        snprintf(out, len, "%s (%d.%d)%s%s%s%s%s%s", se_technique_name(s->tech),
            s->rating / 10, s->rating % 10, cn ? ": " : "", cells,
            *place ? " places " : "", place, *el ? " eliminates " : "", el);
}

/* Why g has no hint (false), or true when it can have one. */
static bool hint_possible(const struct grid *in, struct se_grid *g, char *out, size_t len)
{
    if (in->n != 9 || in->box_rows != 3 || in->variant != 0) {
        snprintf(out, len, "SE hints are for 9x9 classic grids only");
        return false;
    }
    if (!se_load(in, g)) {
        snprintf(out, len, "no solution: two equal digits see each other");
        return false;
    }
    if (solved(g)) {
        snprintf(out, len, "the grid is already full");
        return false;
    }
    const int n = count_up_to_two(in);
    if (n != 1) {
        snprintf(out, len, n == 0 ? "no solution" : "more than one solution");
        return false;
    }
    return true;
}

bool se_hint_within(struct se_rater *rt, const struct grid *in, bool json,
    uint64_t deadline_ns, char *out, size_t len)
{
    se_ensure_tables();
    struct se_grid g;
    if (!hint_possible(in, &g, out, len))
        return false;
    rt->deadline = deadline_ns;
    rt->calls = 0;
    struct se_step s;
    const bool found = !se_deadline_passed(rt) && se_next_step(rt, &g, &s);
    const bool spent = se_deadline_passed(rt);
    rt->deadline = 0;
    se_chains_release(rt->chains);
    if (spent)
        snprintf(out, len, "out of time: the budget ran out before the next step");
    else if (!found)
        snprintf(out, len, "beyond the rater's techniques");
    else
        hint_text(&s, json, out, len);
    return found && !spent;
}

bool se_hint(struct se_rater *rt, const struct grid *in, bool json, char *out, size_t len)
{
    return se_hint_within(rt, in, json, 0, out, len);
}
