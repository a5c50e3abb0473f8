/* A native plug-in as one is written outside sudolab's tree: it includes
 * sudolab_plugin.h and nothing else of sudolab, and builds with
 *
 *   cc -O2 -shared -fPIC -I sudolab/solvers -o lastcell.so plugin_lastcell.c
 *
 * It is plain backtracking from the other end of naive: the last empty cell,
 * values descending, no propagation, so it is correct and, on sparse 9x9
 * puzzles, slow; the tests run the cross-check and agreement suites with it
 * (SUDOLAB_TEST_SOLVERS=so:...) to show that such a back end is reported
 * undecided where its step budget ends and passes. Built with
 * -DLASTCELL_WRONG it reports one solution where it found more, which the
 * same suites must fail.
 *
 * Counters: steps = values placed, nodes = search calls, guesses = values
 * tried at a cell with two or more candidates, backtracks = cells with no
 * value left. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c99 and later */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sudolab_plugin.h"

enum { MAX_N = 25, MAX_CELLS = MAX_N * MAX_N };

/* One search: the grid, each unit's values in use, and the request's budgets. */
struct search {
    const struct sudolab_plugin_request *request;
    struct sudolab_plugin_result *result;
    int n, ncells;
    uint8_t cells[MAX_CELLS];
    uint8_t units_of[MAX_CELLS][5]; /* row, column, box, the diagonals it is on */
    uint8_t nunits_of[MAX_CELLS];
    uint32_t used[3 * MAX_N + 2];
    unsigned polls;
    int stopped; /* a budget ran out, the limit was reached or on_solution said stop */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static int over_budget(struct search *s)
{
    const struct sudolab_plugin_request *rq = s->request;
    if ((rq->budget_steps
            && s->result->counters[SUDOLAB_PLUGIN_STEPS] >= rq->budget_steps)
        || (rq->deadline_ns && (++s->polls & 1023u) == 0
            && now_ns() >= rq->deadline_ns)) {
        s->result->outcome = SUDOLAB_PLUGIN_BUDGET;
        return 1;
    }
    return 0;
}

static void found(struct search *s)
{
    struct sudolab_plugin_result *r = s->result;
    if (r->solutions == 0) {
        memcpy(r->solution, s->cells, (size_t) s->ncells);
        r->has_solution = 1;
    }
    r->solutions++;
    if (s->request->on_solution && !s->request->on_solution(s->request->ctx, s->cells))
        s->stopped = 1;
    if (s->request->limit && r->solutions >= s->request->limit)
        s->stopped = 1;
}

/* Fills the empty cells below `last` (exclusive), from the highest down. */
static void search(struct search *s, int last)
{
    uint64_t *counters = s->result->counters;
    counters[SUDOLAB_PLUGIN_NODES]++;
    int cell = last - 1;
    while (cell >= 0 && s->cells[cell])
        cell--;
    if (cell < 0) {
        found(s);
        return;
    }
    uint32_t taken = 0;
    for (int u = 0; u < s->nunits_of[cell]; u++)
        taken |= s->used[s->units_of[cell][u]];
    const int choices = s->n - __builtin_popcount(taken);
    if (choices == 0) {
        counters[SUDOLAB_PLUGIN_BACKTRACKS]++;
        return;
    }
    for (int v = s->n; v >= 1 && !s->stopped; v--) {
        const uint32_t bit = 1u << (v - 1);
        if (taken & bit)
            continue;
        if (over_budget(s)) {
            s->stopped = 1;
            return;
        }
        counters[SUDOLAB_PLUGIN_STEPS]++;
        if (choices > 1)
            counters[SUDOLAB_PLUGIN_GUESSES]++;
        s->cells[cell] = (uint8_t) v;
        for (int u = 0; u < s->nunits_of[cell]; u++)
            s->used[s->units_of[cell][u]] |= bit;
        search(s, cell);
        for (int u = 0; u < s->nunits_of[cell]; u++)
            s->used[s->units_of[cell][u]] &= ~bit;
        s->cells[cell] = 0;
    }
}

static void *lastcell_open(char *error, size_t error_len)
{
    struct search *s = malloc(sizeof(*s));
    if (!s)
        snprintf(error, error_len, "out of memory");
    return s;
}

static void lastcell_close(void *state)
{
    free(state);
}

static void lastcell_solve(void *state, const struct sudolab_plugin_puzzle *puzzle,
    const struct sudolab_plugin_request *request, struct sudolab_plugin_result *result)
{
    struct search *s = state;
    const int br = (int) puzzle->box_rows, bc = (int) puzzle->box_cols, n = br * bc;
    memset(s, 0, sizeof(*s));
    s->request = request;
    s->result = result;
    s->n = n;
    s->ncells = n * n;
    memcpy(s->cells, puzzle->cells, (size_t) s->ncells);
    for (int i = 0; i < s->ncells; i++) {
        const int r = i / n, c = i % n;
        uint8_t *u = s->units_of[i];
        int k = 0;
        u[k++] = (uint8_t) r;
        u[k++] = (uint8_t) (n + c);
        u[k++] = (uint8_t) (2 * n + (r / br) * br + c / bc);
        if (puzzle->diagonal && r == c)
            u[k++] = (uint8_t) (3 * n);
        if (puzzle->diagonal && r + c == n - 1)
            u[k++] = (uint8_t) (3 * n + 1);
        s->nunits_of[i] = (uint8_t) k;
        for (int j = 0; j < k && s->cells[i]; j++)
            s->used[u[j]] |= 1u << (s->cells[i] - 1);
    }
    search(s, s->ncells);
#ifdef LASTCELL_WRONG
    if (result->solutions > 1)
        result->solutions = 1;
#endif
}

/* The one object sudolab looks for. */
extern const struct sudolab_plugin sudolab_plugin;
const struct sudolab_plugin sudolab_plugin = {
    SUDOLAB_PLUGIN_ABI_VERSION,
    sizeof(struct sudolab_plugin),
    "lastcell",
    "backtrack",
    "last empty cell first, values descending, no propagation",
    1,
    MAX_N,
    SUDOLAB_PLUGIN_CAP_COUNT | SUDOLAB_PLUGIN_CAP_DIAGONAL
        | SUDOLAB_PLUGIN_CAP_STEP_BUDGET,
    (1u << SUDOLAB_PLUGIN_STEPS) | (1u << SUDOLAB_PLUGIN_GUESSES)
        | (1u << SUDOLAB_PLUGIN_BACKTRACKS) | (1u << SUDOLAB_PLUGIN_NODES),
    lastcell_open,
    lastcell_close,
    lastcell_solve,
};
