/* The reasoning ladder (puzzle/levels.h). */
#include "puzzle/levels.h"

#include <stdlib.h>
#include <string.h>

#include "common/exact_cover.h"
#include "solvers/cnf.h"
#include "solvers/cnf_prop.h"
#include "solvers/cp.h"

_Static_assert((int) LEVELS_CP_COUNT == (int) CP_LEVEL_COUNT, "the CP levels are cp.h's");

static const char *const levels_human_names[LEVELS_HUMAN_COUNT] = {
#define X(id, top) #id,
    LEVELS_HUMAN(X)
#undef X
};

static const int levels_human_top[LEVELS_HUMAN_COUNT] = {
#define X(id, top) top,
    LEVELS_HUMAN(X)
#undef X
};

static const char *const levels_sat_names[LEVELS_SAT_COUNT] = {
#define X(id, method, encoding) #id,
    LEVELS_SAT(X)
#undef X
};

static const struct {
    enum cnf_prop_method method;
    enum cnf_encoding encoding;
} levels_sat_how[LEVELS_SAT_COUNT] = {
#define X(id, m, e) { m, e },
    LEVELS_SAT(X)
#undef X
};

const char *levels_outcome_name(enum levels_outcome o)
{
    static const char *const names[LEVELS_OUTCOME_COUNT] = {
        [LEVELS_SOLVED] = "yes",
        [LEVELS_OPEN] = "no",
        [LEVELS_NO_SOLUTION] = "unsat",
        [LEVELS_LIMIT] = "limit",
        [LEVELS_NOT_RUN] = "n/a",
    };
    return (unsigned) o < LEVELS_OUTCOME_COUNT ? names[o] : "?";
}

static const char *levels_verdict_name(int level)
{
    switch (level) {
    case LEVELS_NONE:
        return "none";
    case LEVELS_FAMILY_LIMIT:
        return "limit";
    case LEVELS_FAMILY_UNSAT:
        return "unsat";
    default:
        return "n/a";
    }
}

const char *levels_human_name(int level)
{
    return level >= 0 && level < LEVELS_HUMAN_COUNT ? levels_human_names[level]
                                                    : levels_verdict_name(level);
}

const char *levels_cp_name(int level)
{
    return level >= 0 && level < LEVELS_CP_COUNT ? cp_level_name((enum cp_level) level)
                                                 : levels_verdict_name(level);
}

const char *levels_sat_name(int level)
{
    return level >= 0 && level < LEVELS_SAT_COUNT ? levels_sat_names[level]
                                                  : levels_verdict_name(level);
}

struct levels {
    struct exact_cover ec; /* the shape the propagators were built for */
    struct cnf_prop *prop[CNF_ENCODING_COUNT];
    struct logic logic;
    struct se_rater *se;
};

static void levels_drop_shape(struct levels *lv)
{
    for (int e = 0; e < CNF_ENCODING_COUNT; e++) {
        cnf_prop_free(lv->prop[e]);
        lv->prop[e] = NULL;
    }
    exact_cover_free(&lv->ec);
}

struct levels *levels_new(void)
{
    struct levels *lv = calloc(1, sizeof(*lv));
    if (lv && !(lv->se = se_rater_new())) {
        free(lv);
        return NULL;
    }
    return lv;
}

void levels_free(struct levels *lv)
{
    if (!lv)
        return;
    levels_drop_shape(lv);
    se_rater_free(lv->se);
    free(lv);
}

/* The propagators of g's shape: the rules of each encoding, without clues. */
static int levels_fit_shape(struct levels *lv, const struct grid *g)
{
    if (exact_cover_fits(&lv->ec, g))
        return 0;
    levels_drop_shape(lv);
    struct grid empty;
    if (grid_init(&empty, g->box_rows, g->box_cols, g->variant) != 0
        || exact_cover_build(&lv->ec, g) != 0)
        return -1;
    for (int e = 0; e < CNF_ENCODING_COUNT; e++) {
        struct cnf f;
        if (cnf_build(&f, &lv->ec, &empty, (enum cnf_encoding) e) != 0)
            goto fail;
        lv->prop[e] = cnf_prop_new(&f);
        cnf_free(&f);
        if (!lv->prop[e])
            goto fail;
    }
    return 0;
fail:
    levels_drop_shape(lv);
    return -1;
}

/* Every cell has exactly one value true: solved; two or more in one cell
 * are a contradiction the propagation did not meet (it is entailed: the
 * formula's models have one value per cell). */
static enum levels_outcome levels_read_sat(
    const struct levels *lv, const struct cnf_prop *p, const struct grid *g)
{
    bool open = false;
    for (int c = 0; c < g->ncells; c++) {
        int placed = 0;
        for (int v = 1; v <= g->n; v++)
            placed += cnf_prop_value(p, cnf_var(&lv->ec, c, v)) > 0;
        if (placed > 1)
            return LEVELS_NO_SOLUTION;
        open |= placed == 0;
    }
    return open ? LEVELS_OPEN : LEVELS_SOLVED;
}

static enum levels_outcome levels_sat_one(struct levels *lv, const struct grid *g,
    enum levels_sat level, uint64_t budget_steps, uint64_t *steps)
{
    struct cnf_prop *p = lv->prop[levels_sat_how[level].encoding];
    cnf_prop_reset(p, budget_steps);
    for (int c = 0; c < g->ncells; c++) {
        if (g->cell[c])
            cnf_prop_assert(p, cnf_var(&lv->ec, c, g->cell[c]));
    }
    const enum cnf_prop_status st = cnf_prop_run(p, levels_sat_how[level].method);
    *steps = cnf_prop_steps(p);
    if (st == CNF_PROP_LIMIT)
        return LEVELS_LIMIT;
    if (st == CNF_PROP_CONFLICT)
        return LEVELS_NO_SOLUTION;
    return levels_read_sat(lv, p, g);
}

/* The family's level: the first that solves, unless one before it ran out
 * or found no solution. */
static int levels_family(const enum levels_outcome *o, int count)
{
    bool not_run = true;
    for (int i = 0; i < count; i++) {
        switch (o[i]) {
        case LEVELS_SOLVED:
            return i;
        case LEVELS_LIMIT:
            return LEVELS_FAMILY_LIMIT;
        case LEVELS_NO_SOLUTION:
            return LEVELS_FAMILY_UNSAT;
        case LEVELS_OPEN:
            not_run = false;
            break;
        default:
            break;
        }
    }
    return not_run ? LEVELS_FAMILY_NOT_RUN : LEVELS_NONE;
}

/* The logic solver's class of a technique: 0 singles .. 3 fish. */
static int levels_logic_class(int technique)
{
    switch (technique) {
    case LOGIC_NONE:
    case LOGIC_naked_single:
    case LOGIC_hidden_single:
        return LEVELS_HUMAN_singles;
    case LOGIC_pointing:
    case LOGIC_claiming:
        return LEVELS_HUMAN_intersections;
    case LOGIC_naked_pair:
    case LOGIC_hidden_pair:
    case LOGIC_naked_triple:
    case LOGIC_hidden_triple:
        return LEVELS_HUMAN_subsets;
    default:
        return LEVELS_HUMAN_fish;
    }
}

static void levels_human(struct levels *lv, const struct grid *g,
    const struct levels_budget *budget, struct levels_result *out)
{
    logic_rate(&lv->logic, g, &out->logic);
    const bool logic_solved = out->logic.status == LOGIC_SOLVED;
    const int logic_class = logic_solved ? levels_logic_class(out->logic.hardest) : -1;
    memset(&out->se, 0, sizeof(out->se));
    out->se.verdict = SE_NOT_9X9;
    const bool se_applies = g->n == 9 && g->variant == GRID_STANDARD;
    if (se_applies && !logic_solved) {
        const uint64_t deadline
            = budget->se_ms ? se_rater_now(lv->se) + budget->se_ms * 1000000u : 0;
        se_rate_within(lv->se, g, deadline, &out->se);
    }
    for (int k = 0; k < LEVELS_HUMAN_COUNT; k++) {
        enum levels_outcome *o = &out->human[k];
        if (levels_human_top[k] == 0)
            *o = logic_solved && logic_class <= k          ? LEVELS_SOLVED
                : out->logic.status == LOGIC_CONTRADICTION ? LEVELS_NO_SOLUTION
                                                           : LEVELS_OPEN;
        else if (logic_solved)
            *o = LEVELS_SOLVED;
        else if (!se_applies)
            *o = LEVELS_NOT_RUN;
        else if (out->se.verdict == SE_OUT_OF_TIME)
            *o = LEVELS_LIMIT;
        else if (out->se.verdict == SE_NO_SOLUTION)
            *o = LEVELS_NO_SOLUTION;
        else
            *o = out->se.verdict == SE_RATED && out->se.er < levels_human_top[k]
                ? LEVELS_SOLVED
                : LEVELS_OPEN;
    }
    out->human_level = levels_family(out->human, LEVELS_HUMAN_COUNT);
}

static int levels_cp(
    const struct grid *g, uint64_t budget_steps, struct levels_result *out)
{
    for (int k = 0; k < LEVELS_CP_COUNT; k++) {
        struct cp_propagation prop;
        if (cp_propagate(g, (enum cp_level) k, budget_steps, &prop) != 0)
            return -1;
        out->cp_steps[k] = prop.steps;
        switch (prop.verdict) {
        case CP_SOLVED:
            out->cp[k] = LEVELS_SOLVED;
            break;
        case CP_CONTRADICTION:
            out->cp[k] = LEVELS_NO_SOLUTION;
            break;
        case CP_LIMIT:
            out->cp[k] = LEVELS_LIMIT;
            break;
        default:
            out->cp[k] = LEVELS_OPEN;
            break;
        }
    }
    out->cp_level = levels_family(out->cp, LEVELS_CP_COUNT);
    return 0;
}

int levels_run(struct levels *lv, const struct grid *g,
    const struct levels_budget *budget, struct levels_result *out)
{
    memset(out, 0, sizeof(*out));
    if (levels_fit_shape(lv, g) != 0)
        return -1;
    for (int k = 0; k < LEVELS_SAT_COUNT; k++)
        out->sat[k] = levels_sat_one(
            lv, g, (enum levels_sat) k, budget->sat_steps, &out->sat_steps[k]);
    out->sat_level = levels_family(out->sat, LEVELS_SAT_COUNT);
    if (levels_cp(g, budget->cp_steps, out) != 0)
        return -1;
    levels_human(lv, g, budget, out);
    return 0;
}
