/* A native plug-in for the tests (solvers/sudolab_plugin.h): sudolab's own mrv
 * back end behind the plug-in ABI, so that its answers, counters and traces
 * can be compared with mrv's. Built several times by tests/plugins/meson.build:
 *   PLUGIN_ABI=N          declares ABI version N (sudolab must refuse it)
 *   PLUGIN_WRONG_COUNT    says "one solution" where there are more (the bench
 *                         cross-check must catch it)
 *   PLUGIN_REPEAT=K       solves each puzzle K times and answers the last: the
 *                         same answers and counters, K times the work (a
 *                         slowed back end that compare must flag) */
#include <stdio.h>
#include <string.h>

#include "solvers/registry.h"
#include "solvers/sudolab_plugin.h"

#ifndef PLUGIN_REPEAT
#define PLUGIN_REPEAT 1
#endif

#ifndef PLUGIN_ABI
#define PLUGIN_ABI SUDOLAB_PLUGIN_ABI_VERSION
#endif

/* What sudolab's request asked for, for the trampolines below. */
struct call {
    const struct sudolab_plugin_request *request;
};

static void plugin_counters(const struct solver_counters *c, uint64_t *slots)
{
    slots[SUDOLAB_PLUGIN_STEPS] = c->steps;
    slots[SUDOLAB_PLUGIN_GUESSES] = c->guesses;
    slots[SUDOLAB_PLUGIN_BACKTRACKS] = c->backtracks;
    slots[SUDOLAB_PLUGIN_NODES] = c->nodes;
}

static void on_event(void *ctx, const struct solver_event *ev)
{
    const struct call *call = ctx;
    struct sudolab_plugin_event out = { (uint32_t) ev->kind, ev->cell, ev->value, { 0 } };
    plugin_counters(&ev->at, out.counters);
    call->request->trace(call->request->ctx, &out);
}

static bool on_solution(void *ctx, const struct grid *solution)
{
    const struct call *call = ctx;
    return call->request->on_solution(call->request->ctx, solution->cell) != 0;
}

static void *mrv_open(char *error, size_t error_len)
{
    struct solver_instance *inst = solver_open(solver_find("mrv"));
    if (!inst)
        snprintf(error, error_len, "mrv did not open");
    return inst;
}

static void mrv_close(void *state)
{
    solver_close(state);
}

static void mrv_solve(void *state, const struct sudolab_plugin_puzzle *puzzle,
    const struct sudolab_plugin_request *request, struct sudolab_plugin_result *result)
{
    struct grid g;
    if (grid_init(&g, (int) puzzle->box_rows, (int) puzzle->box_cols,
            puzzle->diagonal ? GRID_DIAGONAL : GRID_STANDARD)
        != 0) {
        result->outcome = SUDOLAB_PLUGIN_ERROR;
        snprintf(result->error, sizeof(result->error), "bad shape");
        return;
    }
    memcpy(g.cell, puzzle->cells, g.ncells);
    struct call call = { request };
    const struct solve_request req = {
        request->limit,
        request->budget_steps,
        request->deadline_ns,
        request->trace ? on_event : NULL,
        request->on_solution ? on_solution : NULL,
        &call,
    };
    struct solve_result res;
    const struct solve_request quiet_req
        = { req.limit, req.budget_steps, req.deadline_ns, NULL, NULL, NULL, req.seed };
    for (int k = 1; k < PLUGIN_REPEAT; k++)
        solver_run(state, &g, &quiet_req, &res);
    solver_run(state, &g, &req, &res);
    result->outcome = res.outcome == SOLVE_BUDGET ? SUDOLAB_PLUGIN_BUDGET
        : res.outcome == SOLVE_ERROR              ? SUDOLAB_PLUGIN_ERROR
                                                  : SUDOLAB_PLUGIN_DONE;
    result->solutions = res.solutions;
#ifdef PLUGIN_WRONG_COUNT
    if (result->solutions > 1)
        result->solutions = 1;
#endif
    plugin_counters(&res.counters, result->counters);
    snprintf(result->error, sizeof(result->error), "%s", res.error);
    if (res.solutions > 0) {
        memcpy(result->solution, res.solution.cell, g.ncells);
        result->has_solution = 1;
    }
}

/* The one object sudolab looks for. */
extern const struct sudolab_plugin sudolab_plugin;
const struct sudolab_plugin sudolab_plugin = {
    PLUGIN_ABI,
    sizeof(struct sudolab_plugin),
    "mrv_plugin",
    "bitmask",
    "sudolab's mrv behind the plug-in ABI (a test)",
    1,
    25,
    SUDOLAB_PLUGIN_CAP_COUNT | SUDOLAB_PLUGIN_CAP_DIAGONAL | SUDOLAB_PLUGIN_CAP_TRACE
        | SUDOLAB_PLUGIN_CAP_STEP_BUDGET,
    (1u << SUDOLAB_PLUGIN_STEPS) | (1u << SUDOLAB_PLUGIN_GUESSES)
        | (1u << SUDOLAB_PLUGIN_BACKTRACKS) | (1u << SUDOLAB_PLUGIN_NODES),
    mrv_open,
    mrv_close,
    mrv_solve,
};
