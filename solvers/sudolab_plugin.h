/* sudolab_plugin.h: how a solver built outside sudolab's tree takes part in
 * its runs, version 1. This header stands alone (C99 or C++, no other sudolab
 * header) so it can be copied into another project.
 *
 * sudolab names an outside back end on the command line wherever it takes a
 * solver name (`--solver`, `--solvers`, `sudolab list --solver`):
 *
 *   so:PATH            a shared library: its `sudolab_plugin` (below) if it
 *                      exports one, else tdoku's C function
 *                      TdokuSolverDpllTriadSimd
 *   so:PATH:SYMBOL     a shared library's function SYMBOL with tdoku's C ABI
 *   cmd:COMMAND        a process started with /bin/sh -c COMMAND, speaking the
 *                      line protocol at the end of this file
 *   LABEL=so:...       any of the above, named LABEL in tables and runs.csv
 *   LABEL=cmd:...      (otherwise a name is made from the file or command)
 *
 * A leading ~/ in PATH is the home directory. Each sudolab thread opens its
 * own instance: its own dlopen() handle and plug-in state, or its own process.
 * Every solution an outside back end returns is verified by sudolab's checker
 * and every count is cross-checked, as for the built-in back ends. */
#ifndef SUDOLAB_PLUGIN_H
#define SUDOLAB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- 1. tdoku's C ABI (so:PATH[:SYMBOL]) ----
 *
 * size_t f(const char *puzzle, size_t limit, uint32_t configuration,
 *          char *solution, size_t *guesses);
 *
 * puzzle: 81 characters, '1'-'9' or '.', then a NUL (9x9 standard only).
 * limit: stop after this many solutions; sudolab passes SIZE_MAX for "all".
 * configuration: 0. solution: 81 characters to fill, or left alone (tdoku
 * fills it only when limit is 1; sudolab then asks again with limit 1, untimed,
 * to have a solution to verify). guesses: the `guesses` counter. Returns the
 * number of solutions found, at most limit. A call cannot be interrupted: the
 * time budget applies between calls. tdoku's own libtdoku_shared.so loads as it
 * is built by tdoku's CMake. */
typedef size_t sudolab_tdoku_fn(const char *puzzle, size_t limit, uint32_t configuration,
    char *solution, size_t *guesses);

/* ---- 2. Native plug-ins (so:PATH) ----
 *
 * The library exports one object, named by SUDOLAB_PLUGIN_SYMBOL:
 *
 *   const struct sudolab_plugin sudolab_plugin = {
 *       SUDOLAB_PLUGIN_ABI_VERSION, sizeof(struct sudolab_plugin), ...
 *   };
 *
 * Its first two fields never move, so sudolab can refuse, with a message, a
 * plug-in built against another version of this header. Everything sudolab's
 * own back ends do is open to a plug-in: any grid size from 1x1 to 25x25, the
 * diagonal variant, counting, counters, search traces, step and time budgets. */

#define SUDOLAB_PLUGIN_ABI_VERSION 1u
#define SUDOLAB_PLUGIN_SYMBOL "sudolab_plugin"

/* Counter slots of sudolab_plugin_result.counters and events; a plug-in says
 * which it reports in sudolab_plugin.counters (bit i = slot i). */
enum sudolab_plugin_counter {
    SUDOLAB_PLUGIN_STEPS = 0, /* the plug-in's own unit of work */
    SUDOLAB_PLUGIN_GUESSES = 1, /* values tried at a cell with two or more candidates */
    SUDOLAB_PLUGIN_BACKTRACKS = 2, /* dead ends */
    SUDOLAB_PLUGIN_NODES = 3, /* search nodes entered */
    SUDOLAB_PLUGIN_ARTICLE_STEPS = 4, /* Moler's 2009 article numbering */
    SUDOLAB_PLUGIN_MAX_COUNTERS = 8, /* slots 5-7: reserved, leave 0 */
};

enum sudolab_plugin_caps {
    SUDOLAB_PLUGIN_CAP_COUNT = 1u << 0, /* counts past the first solution */
    SUDOLAB_PLUGIN_CAP_DIAGONAL = 1u << 1, /* handles the diagonal variant */
    SUDOLAB_PLUGIN_CAP_TRACE = 1u << 2, /* calls request.trace */
    SUDOLAB_PLUGIN_CAP_STEP_BUDGET = 1u << 3, /* honours request.budget_steps */
    SUDOLAB_PLUGIN_CAP_FAST = 1u << 4, /* microseconds per hard 9x9 puzzle: the
                                          benchmark times it in whole passes */
};

enum sudolab_plugin_event_kind {
    SUDOLAB_PLUGIN_EVENT_SINGLETON = 0, /* value forced */
    SUDOLAB_PLUGIN_EVENT_GUESS = 1, /* tentative value at a branch point */
    SUDOLAB_PLUGIN_EVENT_UNDO = 2, /* value erased while backing up: one per value */
    SUDOLAB_PLUGIN_EVENT_DEAD
    = 3, /* dead end; cell = the cell with no candidate, or -1 */
    SUDOLAB_PLUGIN_EVENT_SOLUTION = 4, /* the grid is full; cell = -1 */
};

enum sudolab_plugin_outcome {
    SUDOLAB_PLUGIN_DONE
    = 0, /* search exhausted, or stopped at the limit or by on_solution */
    SUDOLAB_PLUGIN_BUDGET = 1, /* a budget ran out: solutions is a lower bound */
    SUDOLAB_PLUGIN_ERROR = 2, /* the plug-in failed: error says why */
};

/* A puzzle: N x N cells, N = box_rows * box_cols (1..25), row-major, 0 for a
 * blank and 1..N for a value. sudolab hands over only puzzles whose shape the
 * plug-in declared and whose clues break no rule. */
struct sudolab_plugin_puzzle {
    uint32_t box_rows, box_cols;
    uint32_t diagonal; /* 1: both main diagonals hold every value once too */
    const uint8_t *cells;
};

struct sudolab_plugin_event {
    uint32_t kind; /* enum sudolab_plugin_event_kind */
    int32_t cell; /* row-major index, -1 when none */
    int32_t value; /* 1..N, 0 when none */
    uint64_t counters[SUDOLAB_PLUGIN_MAX_COUNTERS]; /* the counters after this event */
};

struct sudolab_plugin_request {
    uint64_t limit; /* stop after this many solutions: 1 first, 2 uniqueness, 0 all */
    uint64_t budget_steps; /* 0 = none: stop (outcome BUDGET) once steps reach it */
    uint64_t deadline_ns; /* 0 = none: CLOCK_MONOTONIC time at which to give up */
    /* NULL = no trace. Called for each search event. */
    void (*trace)(void *ctx, const struct sudolab_plugin_event *event);
    /* NULL = keep the first solution only. Else called with every solution
     * found (N*N cells); return 0 to stop the search. */
    int (*on_solution)(void *ctx, const uint8_t *cells);
    void *ctx; /* handed to trace and on_solution */
};

/* Zeroed by sudolab before each call, except solution, which points at N*N
 * bytes for the first solution found. */
struct sudolab_plugin_result {
    uint32_t outcome; /* enum sudolab_plugin_outcome */
    uint32_t has_solution; /* 1 when solution holds the first solution */
    uint64_t solutions; /* found; never more than a non-zero limit */
    uint8_t *solution;
    uint64_t counters[SUDOLAB_PLUGIN_MAX_COUNTERS];
    char error[160]; /* why, for outcome ERROR */
};

struct sudolab_plugin {
    uint32_t abi_version; /* SUDOLAB_PLUGIN_ABI_VERSION: never moves */
    uint32_t size; /* sizeof(struct sudolab_plugin): never moves */
    /* shown in `sudolab list`'s summary and env.txt; tables and runs.csv name
     * the plug-in by its file (so:<file>) or by the LABEL= given */
    const char *name;
    const char *family; /* backtrack, bitmask, dlx, sat, ... */
    const char *summary; /* one line for `sudolab list` */
    uint32_t min_n, max_n; /* grid sizes N handled, 1..25 */
    uint32_t caps; /* enum sudolab_plugin_caps */
    uint32_t counters; /* bit i: counter slot i is reported */
    /* Per-instance state (one per sudolab thread; calls on one state never
     * overlap). Returns NULL on failure after writing why into error. */
    void *(*open)(char *error, size_t error_len);
    void (*close)(void *state);
    /* Solves puzzle per request into result (see above). */
    void (*solve)(void *state, const struct sudolab_plugin_puzzle *puzzle,
        const struct sudolab_plugin_request *request,
        struct sudolab_plugin_result *result);
};

/* ---- 3. Processes (cmd:COMMAND): the line protocol, version 1 ----
 *
 * sudolab starts `/bin/sh -c COMMAND` with the process's standard input and
 * output connected to sudolab (standard error is passed through), one
 * process per sudolab thread, and keeps it for the whole run. Every message
 * is one line ending in '\n' (a '\r' before it is ignored); fields are
 * separated by single spaces. The process must flush its output after each
 * answer, and exit when its input ends.
 *
 *   sudolab sends                     the process answers
 *   hello 1                           hello 1 [sizes=MIN-MAX] [caps=LIST] [counters=LIST]
 *   ping                              pong
 *   solve LIMIT BOX VARIANT PUZZLE    COUNT SOLUTION [COUNTER=VALUE]...
 *                                     or: error REASON
 *
 * hello: sizes defaults to 9-9. caps is a comma list of `count` (finds more
 *   than one solution: LIMIT may be 0 or above 1) and `diagonal`; none by
 *   default. counters lists the counters the answers carry, out of steps,
 *   guesses, backtracks, nodes; none by default. Unknown keys are ignored.
 * ping: answered at once. sudolab times 200 pings when it first starts the
 *   process and reports their median as the protocol's own cost per puzzle:
 *   a time of this back end is the whole round trip of its `solve`.
 * solve: LIMIT as in the request above (0 = all); BOX is the box shape, such
 *   as 3x3 or 2x3; VARIANT is standard or diagonal; PUZZLE is N*N symbols,
 *   '.' for a blank, 1-9 then A, B, ... for the values. COUNT is the number
 *   of solutions found, at most a non-zero LIMIT. SOLUTION is the first one
 *   in the same form, or `-` for none (then sudolab sends the puzzle again
 *   with LIMIT 1, untimed, for a solution to verify). `error REASON` gives
 *   the puzzle an `error` row with that reason.
 *
 * A process that does not answer within the time budget is killed (status
 * `limit`); one that exits or answers anything else is an `error` with the
 * reason. Either way it is started again for the next puzzle. */

#ifdef __cplusplus
}
#endif

#endif /* SUDOLAB_PLUGIN_H */
