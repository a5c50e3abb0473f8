#include "solvers/solver.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"

const char *const solver_counter_names[SOLVER_COUNTER_COUNT] = {
#define X(name, doc) #name,
    SOLVER_COUNTERS(X)
#undef X
};

const char *const solver_counter_docs[SOLVER_COUNTER_COUNT] = {
#define X(name, doc) doc,
    SOLVER_COUNTERS(X)
#undef X
};

uint64_t solver_counter_get(const struct solver_counters *c, int i)
{
    switch (i) {
#define X(name, doc)                                                                     \
    case SOLVER_COUNTER_##name:                                                          \
        return c->name;
        SOLVER_COUNTERS(X)
#undef X
    default:
        return 0;
    }
}

void solver_counter_set(struct solver_counters *c, int i, uint64_t v)
{
    switch (i) {
#define X(name, doc)                                                                     \
    case SOLVER_COUNTER_##name:                                                          \
        c->name = v;                                                                     \
        break;
        SOLVER_COUNTERS(X)
#undef X
    default:
        break;
    }
}

void solver_counters_add(struct solver_counters *sum, const struct solver_counters *c)
{
#define X(name, doc) sum->name += c->name;
    SOLVER_COUNTERS(X)
#undef X
}

static const char *const status_names[SOLVE_STATUS_COUNT] = {
    [SOLVE_STATUS_UNIQUE] = "unique",
    [SOLVE_STATUS_MULTIPLE] = "multiple",
    [SOLVE_STATUS_UNSOLVABLE] = "unsolvable",
    [SOLVE_STATUS_SOLVED] = "solved",
    [SOLVE_STATUS_INVALID] = "invalid",
    [SOLVE_STATUS_LIMIT] = "limit",
    [SOLVE_STATUS_ERROR] = "error",
};

const char *solve_status_name(enum solve_status status)
{
    return (unsigned) status < SOLVE_STATUS_COUNT ? status_names[status] : "?";
}

int solve_status_parse(const char *name)
{
    for (int i = 0; i < SOLVE_STATUS_COUNT; i++) {
        if (strcmp(name, status_names[i]) == 0)
            return i;
    }
    return -1;
}

struct solver_instance {
    const struct solver *impl;
    alignas(max_align_t) unsigned char priv[];
};

struct solver_instance *solver_open(const struct solver *s)
{
    struct solver_instance *inst = calloc(1, sizeof(*inst) + s->priv_size);
    if (!inst)
        return NULL;
    inst->impl = s;
    if (s->init && s->init(inst->priv, s->variant) != 0) {
        if (s->fini)
            s->fini(inst->priv);
        free(inst);
        return NULL;
    }
    return inst;
}

const struct solver *solver_of(const struct solver_instance *inst)
{
    return inst->impl;
}

void solver_close(struct solver_instance *inst)
{
    if (!inst)
        return;
    if (inst->impl->fini)
        inst->impl->fini(inst->priv);
    free(inst);
}

bool solver_available(const struct solver *s, char *why, size_t whylen)
{
    if (whylen)
        why[0] = '\0';
    return !s->available || s->available(s->variant, why, whylen);
}

bool solver_supports(
    const struct solver *s, const struct grid *g, char *why, size_t whylen)
{
    char reason[120];
    if (!solver_available(s, reason, sizeof(reason))) {
        snprintf(why, whylen, "solver %s is unavailable here: %s", s->name, reason);
        return false;
    }
    char shape[48];
    grid_describe_shape(g, shape, sizeof(shape));
    if (g->n < s->min_n || g->n > s->max_n) {
        snprintf(why, whylen, "solver %s does not handle %s grids (sizes %dx%d to %dx%d)",
            s->name, shape, s->min_n, s->min_n, s->max_n, s->max_n);
        return false;
    }
    if (g->variant == GRID_DIAGONAL && !(s->caps & SOLVER_CAP_DIAGONAL)) {
        snprintf(why, whylen, "solver %s does not handle the diagonal variant", s->name);
        return false;
    }
    if (g->has_candidates && !(s->caps & SOLVER_CAP_CANDIDATES)) {
        snprintf(why, whylen,
            "solver %s does not start from candidates (pencil-mark puzzles)", s->name);
        return false;
    }
    return true;
}

bool solver_incomplete_request_ok(
    const struct solver *s, const struct solve_request *req, char *why, size_t whylen)
{
    if (!(s->caps & SOLVER_CAP_INCOMPLETE))
        return true;
    if (req->limit != 1) {
        snprintf(why, whylen,
            "%s is incomplete (stochastic search): it can find a solution but not prove "
            "uniqueness; use --limit 1",
            s->name);
        return false;
    }
    if (!req->budget_steps && !req->deadline_ns) {
        snprintf(why, whylen,
            "%s is incomplete (stochastic search): it needs a step or time budget to "
            "stop on a puzzle without a solution",
            s->name);
        return false;
    }
    return true;
}

static enum solve_status derive_status(const struct solver *s,
    const struct solve_request *req, const struct solve_result *res)
{
    switch (res->outcome) {
    case SOLVE_BUDGET:
        return SOLVE_STATUS_LIMIT;
    case SOLVE_ERROR:
        return SOLVE_STATUS_ERROR;
    case SOLVE_DONE:
        break;
    }
    if (res->solutions == 0)
        return s->caps & SOLVER_CAP_INCOMPLETE ? SOLVE_STATUS_LIMIT
                                               : SOLVE_STATUS_UNSOLVABLE;
    if (res->solutions >= 2)
        return SOLVE_STATUS_MULTIPLE;
    return req->limit == 1 ? SOLVE_STATUS_SOLVED : SOLVE_STATUS_UNIQUE;
}

/* Zeroes res but the solution's cells: solution.ncells 0 says there is none,
 * and a 9x9 solve does not pay for clearing the cells of the largest grid. */
static void clear_result(struct solve_result *res)
{
    const size_t cells
        = offsetof(struct solve_result, solution) + offsetof(struct grid, cell);
    const size_t after = offsetof(struct solve_result, solution) + sizeof(struct grid);
    memset(res, 0, cells);
    memset((char *) res + after, 0, sizeof(*res) - after);
}

void solver_run(struct solver_instance *inst, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    const struct solver *s = inst->impl;
    clear_result(res);
    if (!solver_supports(s, puzzle, res->error, sizeof(res->error))) {
        res->outcome = SOLVE_ERROR;
        res->status = SOLVE_STATUS_ERROR;
        return;
    }
    if (grid_find_conflict(puzzle, res->error, sizeof(res->error))) {
        res->status = SOLVE_STATUS_INVALID;
        return;
    }
    if (!solver_incomplete_request_ok(s, req, res->error, sizeof(res->error))) {
        res->outcome = SOLVE_ERROR;
        res->status = SOLVE_STATUS_ERROR;
        return;
    }
    const uint64_t start = clock_now_ns();
    s->solve(inst->priv, puzzle, req, res);
    res->time_ns = clock_now_ns() - start;
    if (res->solutions > 0 && res->outcome != SOLVE_ERROR && res->solution.ncells == 0
        && s->first_solution)
        s->first_solution(inst->priv, puzzle, res);
    if (req->limit && res->solutions > req->limit && res->outcome != SOLVE_ERROR) {
        snprintf(res->error, sizeof(res->error),
            "solver %s found %llu solutions past limit %llu", s->name,
            (unsigned long long) res->solutions, (unsigned long long) req->limit);
        res->outcome = SOLVE_ERROR;
    }
    if (res->solutions > 0 && res->outcome != SOLVE_ERROR) {
        char why[120];
        if (!check_solution(puzzle, &res->solution, why, sizeof(why))) {
            snprintf(res->error, sizeof(res->error),
                "solver %s returned a wrong solution: %s", s->name, why);
            res->outcome = SOLVE_ERROR;
        }
    }
    res->status = derive_status(s, req, res);
}

void solver_solve_unchecked(struct solver_instance *inst, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    clear_result(res);
    inst->impl->solve(inst->priv, puzzle, req, res);
}

bool solver_record_solution(const struct solve_request *req, struct solve_result *res,
    const struct grid *solution)
{
    res->solutions++;
    if (res->solutions == 1)
        grid_copy(&res->solution, solution);
    if (req->on_solution && !req->on_solution(req->ctx, solution))
        return true;
    return req->limit != 0 && res->solutions >= req->limit;
}
