/* sat, sat_assume, sat_min, sat_eff: Sudoku as CNF, solved by CaDiCaL through
 * its C API (issues 5 and 32).
 *
 * Encoding (solvers/cnf.h): the exact-cover model of common/exact_cover.h, one
 * variable per placement (row r of the model is variable r + 1: "value v in
 * cell c"). `sat` and `sat_assume` make every column (cell, row-value,
 * column-value, box-value, diagonal-value) exactly-one: one at-least-one
 * clause over its N placements plus the N(N-1)/2 pairwise at-most-one binary
 * clauses - Lynce & Ouaknine's extended encoding (the one tdoku's minisat
 * entry uses). `sat_min` and `sat_eff` are `sat` on their minimal and
 * efficient encodings, so that the three compare on the same puzzles.
 *
 * One CaDiCaL solver is built per grid shape and kept in priv across puzzles
 * (a new solver per puzzle is about 3.7x slower: building one costs ~1.4 ms
 * on 9x9). Nothing of a puzzle may stay in the formula, so everything
 * puzzle-specific hangs on a guard: a fresh activation variable `act`, with
 * -act assumed in every call of this puzzle. Once -act is no longer assumed,
 * the solver may set act true, so those clauses - the puzzle's own and all
 * CaDiCaL learned from them, which carry act too - cannot bind the next
 * puzzle; when the puzzle is done the unit clause (act) also retires them for
 * good, so CaDiCaL drops them instead of dragging them along. Clauses learned
 * without them follow from the base formula and are kept, which is sound.
 *
 * sat and sat_assume differ only in how the clues get in:
 *   sat         each clue is a guarded clause (act OR x), so the solver sees a
 *               single assumption, -act, and the clues follow by propagation
 *               on one decision level;
 *   sat_assume  each clue is an assumption, as the issue first proposed.
 * CaDiCaL gives every assumption its own decision level, and learned clauses
 * then drag along the negations of the clues they depend on (54 literals
 * before shrinking on top1465); with one guard they are shorter and `sat` was
 * 1.2-1.3x faster (first 1465 of top1465, limit 2, same run).
 *
 * Counting (limit 2 = uniqueness, 0 = all): after each model a blocking
 * clause, "not this solution", over the non-clue cells is added under the
 * same guard, (act OR -x1 OR -x2 ...), and CaDiCaL is called again.
 * Enumeration (limit 0) costs one call per solution: meant for small grids.
 * Every counted puzzle uses up one variable (every puzzle, for `sat`); the
 * solver is rebuilt after SAT_MAX_GUARDS of them so memory stays bounded.
 *
 * CaDiCaL options (besides quiet): profile=0 (no getrusage per call; the
 * default profiling costs ~40 us per call on small instances), chrono=0 (no
 * chronological backtracking) and shrinkreap=0 (shrinking with sorting
 * instead of the radix heap): together ~1.15x on top1465; lucky, stabilize,
 * phase, walk, rephase, elim, probe, subsume, vivify, restartint and
 * eagersubsume changed nothing measurable, and shrink < 3 was 2-3x slower.
 *
 * Budgets: the deadline goes through CaDiCaL's terminate callback (the clock
 * is read on every 16th poll), and is read while a CNF is built. With no counter to
 * compare, budget_steps becomes CaDiCaL's "decisions" limit (its real decisions, not
 * assumptions) for EACH call, i.e. per solution sought, and also caps the calls of a
 * puzzle, so an enumeration under a budget ends too (a count to 2 may make up
 * to 3 x budget decisions). That is not "stop once steps reach the budget",
 * so SOLVER_CAP_STEP_BUDGET is not set.
 *
 * Counters: none. CaDiCaL 1.5's C API (ccadical.h) exposes no statistics
 * (decisions, conflicts and propagations are only printed), so every counter
 * is n/a (.counters = 0); a fake 0 would mislead. */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <ccadical.h>

#include "common/exact_cover.h"
#include "solvers/cnf.h"
#include "solvers/registry.h"

/* Guard variables one solver may use up before it is rebuilt. */
enum { SAT_MAX_GUARDS = 1 << 12 };

enum sat_clues {
    SAT_CLUES_GUARDED = 0, /* sat, sat_min, sat_eff */
    SAT_CLUES_ASSUMED = 1, /* sat_assume */
};

/* A registration's variant: how the clues get in and the encoding. */
#define SAT_VARIANT(clues, encoding) ((clues) | (encoding) << 1)

struct sat_state {
    int clues; /* enum sat_clues */
    int encoding; /* enum cnf_encoding */
    struct exact_cover ec; /* the shape the solver was built for */
    CCaDiCaL *solver;
    int next_var; /* next unused variable (guards) */
    int guards; /* guard variables used since the build */
    uint64_t deadline_ns; /* of the puzzle being solved; 0 = none */
    uint32_t poll;
    struct grid sol;
};

static const struct {
    const char *name;
    int value;
} sat_options[] = {
    { "quiet", 1 },
    { "profile", 0 },
    { "chrono", 0 },
    { "shrinkreap", 0 },
};

static int sat_var(int row)
{
    return row + 1;
}

static int sat_init(void *priv, int variant)
{
    struct sat_state *st = priv;
    st->clues = variant & 1;
    st->encoding = variant >> 1;
    return 0;
}

static int sat_terminate(void *ctx)
{
    struct sat_state *st = ctx;
    if (!st->deadline_ns || (++st->poll & 15u) != 0)
        return 0;
    return clock_now_ns() >= st->deadline_ns;
}

static void sat_release(struct sat_state *st)
{
    if (st->solver)
        ccadical_release(st->solver);
    st->solver = NULL;
}

/* Feeds CaDiCaL the rules' clauses, reading the clock every 4096 of them. */
struct sat_adder {
    CCaDiCaL *solver;
    uint64_t deadline_ns; /* 0 = none */
    uint32_t clauses;
};

static bool sat_add_clause(void *ctx, const int32_t *lits, int nlits)
{
    struct sat_adder *a = ctx;
    if (a->deadline_ns && (++a->clauses & 4095u) == 0 && clock_now_ns() >= a->deadline_ns)
        return false;
    for (int i = 0; i < nlits; i++)
        ccadical_add(a->solver, lits[i]);
    ccadical_add(a->solver, 0);
    return true;
}

/* Builds the CNF of g's shape. Returns 0, -1 when out of memory, or 1 when
 * deadline_ns (0 = none) passed first: an empty 25x25 CNF is ~750,000
 * clauses, longer to add than a 50 ms budget under a sanitizer, so the clock
 * is read every 4096 clauses; the half-built solver is dropped and the next
 * call starts again. */
static int sat_build(struct sat_state *st, const struct grid *g, uint64_t deadline_ns)
{
    sat_release(st);
    if (!exact_cover_fits(&st->ec, g)) {
        exact_cover_free(&st->ec);
        if (exact_cover_build(&st->ec, g) != 0)
            return -1;
    }
    const struct exact_cover *ec = &st->ec;
    CCaDiCaL *s = ccadical_init();
    if (!s)
        return -1;
    for (size_t i = 0; i < sizeof(sat_options) / sizeof(sat_options[0]); i++)
        ccadical_set_option(s, sat_options[i].name, sat_options[i].value);
    struct sat_adder adder = { s, deadline_ns, 0 };
    if (!cnf_rules(ec, (enum cnf_encoding) st->encoding, sat_add_clause, &adder)) {
        ccadical_release(s);
        return 1;
    }
    ccadical_set_terminate(s, st, sat_terminate);
    st->solver = s;
    st->next_var = ec->nrows + 1;
    st->guards = 0;
    return 0;
}

static void sat_fini(void *priv)
{
    struct sat_state *st = priv;
    sat_release(st);
    exact_cover_free(&st->ec);
}

static int sat_new_guard(struct sat_state *st)
{
    st->guards++;
    return st->next_var++;
}

static int sat_clue_var(const struct sat_state *st, const struct grid *puzzle, int cell)
{
    return sat_var(exact_cover_row(&st->ec, cell, puzzle->cell[cell]));
}

static void sat_add_guarded_clues(
    struct sat_state *st, const struct grid *puzzle, int act)
{
    for (int c = 0; c < puzzle->ncells; c++) {
        if (puzzle->cell[c]) {
            ccadical_add(st->solver, act);
            ccadical_add(st->solver, sat_clue_var(st, puzzle, c));
            ccadical_add(st->solver, 0);
        }
    }
}

/* Assumptions and limits of one call; CaDiCaL forgets both after the call. */
static void sat_prepare_call(struct sat_state *st, const struct grid *puzzle, int act,
    const struct solve_request *req)
{
    if (st->clues == SAT_CLUES_ASSUMED) {
        for (int c = 0; c < puzzle->ncells; c++) {
            if (puzzle->cell[c])
                ccadical_assume(st->solver, sat_clue_var(st, puzzle, c));
        }
    }
    if (act)
        ccadical_assume(st->solver, -act);
    if (req->budget_steps)
        ccadical_limit(st->solver, "decisions",
            req->budget_steps > INT_MAX ? INT_MAX : (int) req->budget_steps);
}

/* Reads the model into st->sol (clue cells are copied from the puzzle). */
static void sat_read_model(struct sat_state *st, const struct grid *puzzle)
{
    st->sol = *puzzle;
    for (int c = 0; c < puzzle->ncells; c++) {
        if (puzzle->cell[c])
            continue;
        for (int v = 1; v <= puzzle->n; v++) {
            if (ccadical_val(st->solver, sat_var(exact_cover_row(&st->ec, c, v))) > 0) {
                st->sol.cell[c] = (uint8_t) v;
                break;
            }
        }
    }
}

static void sat_block_model(struct sat_state *st, const struct grid *puzzle, int act)
{
    ccadical_add(st->solver, act);
    for (int c = 0; c < puzzle->ncells; c++) {
        if (!puzzle->cell[c])
            ccadical_add(st->solver, -sat_clue_var(st, &st->sol, c));
    }
    ccadical_add(st->solver, 0);
}

static void sat_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct sat_state *st = priv;
    if (!st->solver || !exact_cover_fits(&st->ec, puzzle)
        || st->guards >= SAT_MAX_GUARDS) {
        const int built = sat_build(st, puzzle, req->deadline_ns);
        if (built == 1) {
            res->outcome = SOLVE_BUDGET;
            return;
        }
        if (built != 0) {
            sat_release(st);
            exact_cover_free(&st->ec);
            res->outcome = SOLVE_ERROR;
            strcpy(res->error, "sat: out of memory building the CNF");
            return;
        }
    }
    st->deadline_ns = req->deadline_ns;
    st->poll = 0;
    int act = 0;
    if (st->clues == SAT_CLUES_GUARDED) {
        act = sat_new_guard(st);
        sat_add_guarded_clues(st, puzzle, act);
    }
    for (uint64_t calls = 0;; calls++) {
        if ((req->deadline_ns && clock_now_ns() >= req->deadline_ns)
            || (req->budget_steps && calls >= req->budget_steps)) {
            res->outcome = SOLVE_BUDGET;
            break;
        }
        sat_prepare_call(st, puzzle, act, req);
        const int answer = ccadical_solve(st->solver);
        if (answer == 20)
            break;
        if (answer != 10) {
            res->outcome = SOLVE_BUDGET; /* decision limit or deadline */
            break;
        }
        sat_read_model(st, puzzle);
        if (solver_record_solution(req, res, &st->sol))
            break;
        if (!act)
            act = sat_new_guard(st);
        sat_block_model(st, puzzle, act);
    }
    if (act) {
        ccadical_add(st->solver, act);
        ccadical_add(st->solver, 0);
    }
    st->deadline_ns = 0;
}

const struct solver solver_sat = {
    .name = "sat",
    .family = "sat",
    .summary
    = "exact-cover (extended) CNF on CaDiCaL: guarded clues, blocking clauses to count",
    .min_n = 1,
    .max_n = GRID_MAX_N,
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL,
    .counters = 0,
    .variant = SAT_VARIANT(SAT_CLUES_GUARDED, CNF_EXTENDED),
    .priv_size = sizeof(struct sat_state),
    .init = sat_init,
    .solve = sat_solve,
    .fini = sat_fini,
};

const struct solver solver_sat_assume = {
    .name = "sat_assume",
    .family = "sat",
    .summary = "the same CNF and solver with the clues passed as CaDiCaL assumptions",
    .min_n = 1,
    .max_n = GRID_MAX_N,
    /* learnt clauses that carry a clue's negation stay (no guard retires them):
     * a 16x16_dig_hard puzzle solved again right after takes 3 to 10 times less
     * (`sat`, whose clauses retire, shows no such gain) */
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_LEARNS,
    .counters = 0,
    .variant = SAT_VARIANT(SAT_CLUES_ASSUMED, CNF_EXTENDED),
    .priv_size = sizeof(struct sat_state),
    .init = sat_init,
    .solve = sat_solve,
    .fini = sat_fini,
};

const struct solver solver_sat_min = {
    .name = "sat_min",
    .family = "sat",
    .summary
    = "sat on Lynce & Ouaknine's minimal CNF: cell at-least-one, unit at-most-one",
    .min_n = 1,
    .max_n = GRID_MAX_N,
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL,
    .counters = 0,
    .variant = SAT_VARIANT(SAT_CLUES_GUARDED, CNF_MINIMAL),
    .priv_size = sizeof(struct sat_state),
    .init = sat_init,
    .solve = sat_solve,
    .fini = sat_fini,
};

const struct solver solver_sat_eff = {
    .name = "sat_eff",
    .family = "sat",
    .summary = "sat on the efficient CNF: the minimal one plus cell at-most-one",
    .min_n = 1,
    .max_n = GRID_MAX_N,
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL,
    .counters = 0,
    .variant = SAT_VARIANT(SAT_CLUES_GUARDED, CNF_EFFICIENT),
    .priv_size = sizeof(struct sat_state),
    .init = sat_init,
    .solve = sat_solve,
    .fini = sat_fini,
};
