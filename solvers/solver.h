/* THE solver interface: one `const struct solver` per back end, reached only
 * through the registry (solvers/registry.h) and the instance wrapper below.
 *
 * A back end is a file solvers/<name>.c that defines `const struct solver
 * solver_<name>` (and nothing else non-static), plus one X(<name>) line in
 * SOLVER_REGISTRY_BUILTIN (solvers/registry.h) and one in solvers/meson.build.
 * The CLI, the bench driver, the generator and the tests then pick it up
 * (ARCHITECTURE.md, "Adding a back end").
 *
 * Life of a call: solver_open() allocates and zeroes priv_size bytes and calls
 * init(); solver_run() checks that the back end is available on this machine,
 * the puzzle's shape against the capabilities and its clues against the rules
 * (inconsistent clues never reach a back end), zeroes the result, times
 * solve(), verifies the first solution with the independent checker
 * (common/check.h) and derives the status. */
#ifndef SUDOLAB_SOLVERS_SOLVER_H
#define SUDOLAB_SOLVERS_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/clock.h"
#include "common/grid.h"

/* The counters, listed once (kissat's X-macro): the struct, the CSV columns and
 * the printers all come from this list. What each back end counts is written
 * at the top of its file; the meanings below are the contract. */
#define SOLVER_COUNTERS(X)                                                               \
    X(steps,                                                                             \
        "the back end's own unit of work (naive: values placed; documented per file)")   \
    X(guesses, "values tried at a cell that had two or more candidates")                 \
    X(backtracks, "dead ends: states abandoned because no value fits somewhere")         \
    X(nodes, "search nodes entered (recursive calls, DLX levels, B&B nodes)")            \
    X(article_steps, "Moler's 2009 article step number (moler back ends only)")

enum solver_counter_index {
#define X(name, doc) SOLVER_COUNTER_##name,
    SOLVER_COUNTERS(X)
#undef X
        SOLVER_COUNTER_COUNT
};

/* Bit of a counter in solver.counters: SOLVER_HAS(steps) | SOLVER_HAS(nodes). */
#define SOLVER_HAS(name) (1u << SOLVER_COUNTER_##name)

struct solver_counters {
#define X(name, doc) uint64_t name;
    SOLVER_COUNTERS(X)
#undef X
};

/* Names and meanings of the counters, in SOLVER_COUNTERS order. */
extern const char *const solver_counter_names[SOLVER_COUNTER_COUNT];
extern const char *const solver_counter_docs[SOLVER_COUNTER_COUNT];
/* The value of counter i of c. */
uint64_t solver_counter_get(const struct solver_counters *c, int i);
/* Sets counter i of c to v (nothing for an index out of range). */
void solver_counter_set(struct solver_counters *c, int i, uint64_t v);
/* Adds every counter of c to sum (subproblems and passes add up). */
void solver_counters_add(struct solver_counters *sum, const struct solver_counters *c);

enum solver_caps {
    SOLVER_CAP_COUNT = 1u << 0, /* counts past the first solution (limit > 1, 0) */
    SOLVER_CAP_DIAGONAL = 1u << 1, /* supports the diagonal variant */
    SOLVER_CAP_TRACE = 1u << 2, /* calls solve_request.trace */
    SOLVER_CAP_STEP_BUDGET = 1u << 3, /* honours budget_steps (else time only) */
    SOLVER_CAP_FAST = 1u << 4, /* microseconds on hard 9x9 puzzles: whole-corpus tests
                                  and whole-pass timing are meant for it */
    SOLVER_CAP_LEARNS = 1u << 5, /* an instance keeps what it learnt from a puzzle's
                                    clues, so it re-solves a puzzle it has met faster:
                                    the bench times each puzzle once per instance */
    SOLVER_CAP_INCOMPLETE = 1u << 6, /* stochastic search: finds a solution or runs out
                                        of budget, never proves that there is none or
                                        only one; runs at limit 1 with a budget, and
                                        solve_request.seed fixes its run */
    SOLVER_CAP_CANDIDATES = 1u << 7, /* starts from a pencil-mark puzzle's candidates
                                        (grid.has_candidates); the others refuse one */
};

/* A search event for solve_request.trace. Back ends that trace emit an UNDO for
 * every value they erase, so a viewer can replay the grid from events alone. */
enum solver_event_kind {
    SOLVER_EVENT_SINGLETON, /* value forced (only candidate, or hidden single) */
    SOLVER_EVENT_GUESS, /* tentative value at a branch point */
    SOLVER_EVENT_UNDO, /* value erased while backing up */
    SOLVER_EVENT_DEAD, /* dead end; cell = the cell with no candidate, or -1 */
    SOLVER_EVENT_SOLUTION, /* the grid is full; cell = -1 */
};

struct solver_event {
    enum solver_event_kind kind;
    int cell; /* row-major index, -1 when none */
    int value; /* 1..N, 0 when none */
    struct solver_counters at; /* the counters after this event */
};

typedef void solver_trace_fn(void *ctx, const struct solver_event *ev);
/* Called for every solution found (enumeration); return false to stop. */
typedef bool solver_solution_fn(void *ctx, const struct grid *solution);

struct solve_request {
    uint64_t limit; /* stop after this many solutions; 1 first, 2 uniqueness, 0 all */
    uint64_t budget_steps; /* 0 = none; stop with status limit once steps reach it */
    uint64_t deadline_ns; /* 0 = none; absolute clock_now_ns() time to give up */
    solver_trace_fn *trace; /* NULL = no trace */
    solver_solution_fn *on_solution; /* NULL = keep only the first solution */
    void *ctx; /* handed to trace and on_solution */
    uint64_t seed; /* of the random choices of SOLVER_CAP_INCOMPLETE back ends: the
                      same seed, the same run */
};

/* What a back end fills in. */
enum solve_outcome {
    SOLVE_DONE = 0, /* search exhausted, or stopped at req->limit or by on_solution */
    SOLVE_BUDGET, /* budget_steps or the deadline was hit: solutions is a lower bound */
    SOLVE_ERROR, /* the back end failed (library error); error says why */
};

enum solve_status {
    SOLVE_STATUS_UNIQUE, /* exactly one solution, proven */
    SOLVE_STATUS_MULTIPLE, /* two or more solutions found */
    SOLVE_STATUS_UNSOLVABLE, /* no solution, proven */
    SOLVE_STATUS_SOLVED, /* first-solution mode (limit 1): one found */
    SOLVE_STATUS_INVALID, /* clues break a rule, or the entry did not parse */
    SOLVE_STATUS_LIMIT, /* a budget ran out */
    SOLVE_STATUS_ERROR, /* unsupported shape, back-end failure or wrong answer */
    SOLVE_STATUS_COUNT
};

struct solve_result {
    enum solve_outcome outcome;
    enum solve_status status; /* set by solver_run */
    uint64_t solutions; /* found, never more than a non-zero limit */
    struct grid solution; /* the first solution found, when solutions > 0 */
    struct solver_counters counters;
    uint64_t time_ns; /* the back end's solve() call, set by solver_run */
    uint32_t poll; /* back-end scratch for solver_over_budget() */
    /* The back end gave no answer (a process killed, crashed or out of step, a
     * library that crashed or did not load): its counters are unknown, and
     * printed empty, never as 0. */
    bool no_answer;
    char error[160];
};

struct solver {
    const char *name; /* unique, stable: CLI and CSV */
    const char *family; /* taxonomy: backtrack, singles, bitmask, dlx, sat, milp,
                           stochastic */
    const char *summary; /* one line for `sudolab list` */
    uint8_t min_n, max_n; /* grid sizes N handled */
    unsigned caps; /* enum solver_caps */
    unsigned counters; /* SOLVER_HAS(...) of the counters it reports; others are n/a */
    int variant; /* handed to init(): one file may register several entries */
    /* Optional (NULL = always): whether this machine can run the entry, e.g.
     * a forced SIMD path needs its instructions. When false, why says so
     * ("this CPU lacks AVX-512"): solver_supports() then declines every
     * puzzle with that reason (so bench rows say unsupported rather than
     * carry a label that ran another path) and `sudolab list` marks it. */
    bool (*available)(int variant, char *why, size_t whylen);
    size_t priv_size; /* private state, allocated and zeroed by the caller */
    int (*init)(void *priv, int variant); /* optional; 0 = ok */
    /* Solves puzzle (consistent clues, supported shape) per req into res
     * (zeroed by the caller). Must honour req->limit and the budgets. */
    void (*solve)(void *priv, const struct grid *puzzle, const struct solve_request *req,
        struct solve_result *res);
    void (*fini)(void *priv); /* optional; frees what init or solve allocated */
    /* Optional, for back ends that may count without returning a solution
     * (outside solvers with tdoku's ABI give one only at limit 1): called by
     * solver_run(), untimed, when solve() found solutions but left
     * res->solution empty, to fill it in (or set outcome SOLVE_ERROR and
     * error) so that the answer is verified like every other. */
    void (*first_solution)(
        void *priv, const struct grid *puzzle, struct solve_result *res);
};

/* An open back end with its private state. Not shared between threads: open
 * one per thread. */
struct solver_instance;

struct solver_instance *solver_open(const struct solver *s);
const struct solver *solver_of(const struct solver_instance *inst);
/* Runs one puzzle: shape and clue checks, timing, verification, status. */
void solver_run(struct solver_instance *inst, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res);
/* The back end's solve() alone, on a zeroed res: no shape or clue checks, no
 * timing, no verification, no status. Only for puzzles solver_run() has
 * already accepted and verified: the bench driver's whole-pass throughput,
 * where the checks would be timed too. */
void solver_solve_unchecked(struct solver_instance *inst, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res);
void solver_close(struct solver_instance *inst);

/* Whether req is a request an incomplete back end (SOLVER_CAP_INCOMPLETE) can
 * answer: limit 1, and a step or time budget. If not, why says so (the
 * message the commands print); always true for complete back ends. */
bool solver_incomplete_request_ok(
    const struct solver *s, const struct solve_request *req, char *why, size_t whylen);

/* Whether s can run on this machine (solver.available); if not, why says so. */
bool solver_available(const struct solver *s, char *why, size_t whylen);

/* Whether s is available and handles the shape and variant of g; if not, why
 * says so. */
bool solver_supports(
    const struct solver *s, const struct grid *g, char *why, size_t whylen);

const char *solve_status_name(enum solve_status status);
/* Parses a status name; returns -1 for an unknown one. */
int solve_status_parse(const char *name);

/* --- helpers for back ends --- */

/* Records a solution found by the search: counts it, keeps the first, hands
 * it to on_solution. Returns true when the search must stop (limit reached or
 * on_solution said so). Back ends that keep their own representation can ask
 * solver_wants_grid() first and skip building a grid when it is not needed. */
bool solver_record_solution(const struct solve_request *req, struct solve_result *res,
    const struct grid *solution);

static inline bool solver_wants_grid(
    const struct solve_request *req, const struct solve_result *res)
{
    return res->solutions == 0 || req->on_solution != NULL;
}

/* Records a solution without building a grid (only valid when
 * solver_wants_grid() is false). Returns true when the search must stop. */
static inline bool solver_count_solution(
    const struct solve_request *req, struct solve_result *res)
{
    res->solutions++;
    return req->limit != 0 && res->solutions >= req->limit;
}

/* Counts `more` further solutions at once (a back end that merges branches
 * differing only by interchangeable values), saturating at UINT64_MAX and
 * capped at a non-zero limit. Returns true when the search must stop. */
static inline bool solver_count_solutions(
    const struct solve_request *req, struct solve_result *res, uint64_t more)
{
    res->solutions = res->solutions + more < more ? UINT64_MAX : res->solutions + more;
    if (req->limit && res->solutions >= req->limit) {
        res->solutions = req->limit;
        return true;
    }
    return false;
}

/* a * b, or UINT64_MAX when that overflows (weights of merged branches). */
static inline uint64_t solver_mul_saturated(uint64_t a, uint64_t b)
{
    uint64_t product;
    return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

/* Budget check, cheap enough to call at every step: compares steps with the
 * step budget, and reads the clock once every 1024 calls. Sets the outcome to
 * SOLVE_BUDGET and returns true when a budget is spent. */
static inline bool solver_over_budget(
    const struct solve_request *req, struct solve_result *res)
{
    if (req->budget_steps && res->counters.steps >= req->budget_steps) {
        res->outcome = SOLVE_BUDGET;
        return true;
    }
    if (req->deadline_ns && (++res->poll & 1023u) == 0
        && clock_now_ns() >= req->deadline_ns) {
        res->outcome = SOLVE_BUDGET;
        return true;
    }
    return false;
}

static inline void solver_emit(const struct solve_request *req,
    const struct solve_result *res, enum solver_event_kind kind, int cell, int value)
{
    if (req->trace) {
        const struct solver_event ev = { kind, cell, value, res->counters };
        req->trace(req->ctx, &ev);
    }
}

#endif /* SUDOLAB_SOLVERS_SOLVER_H */
