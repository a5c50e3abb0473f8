/* gecode: the model of cp_gac (solvers/cp.c) on the Gecode constraint solver
 * (https://www.gecode.org, MIT licence), through its C++ API. The project's
 * one C++ file: the rest of sudolab reaches it only as `solver_gecode`.
 *
 * Model. One integer variable per cell with domain 1..N, a clue fixes its
 * variable (rel with IRT_EQ), and one distinct constraint with IPL_DOM
 * (domain consistency) per unit of common/units.h: rows, columns, boxes and,
 * in the diagonal variant, the two diagonals. Branching INT_VAR_SIZE_MIN
 * (the first variable in row-major order among those of smallest domain)
 * with INT_VAL_MIN (left: the smallest value, right: not that value), depth
 * first with Gecode's DFS engine, one thread, solutions counted up to the
 * request's limit. cp_gac branches the same way, and domain consistency has
 * one fixpoint, so both explore the same tree: tests/test_cp.c checks that
 * the node counts are equal.
 *
 * Counters (from Gecode's search statistics):
 *   steps      search nodes, as nodes below: the engine asks its stop object
 *              for the budget before each node and cannot stop inside a
 *              node's propagation, so a budget in propagator executions (the
 *              unit of cp_gac's steps) could not be kept exactly;
 *   backtracks failed nodes (`fail`), the root included when its clues
 *              already fail;
 *   nodes      search nodes entered (`node`), plus the root when propagation
 *              of the clues fails: Gecode's engine decides that before its
 *              node count starts, and cp_gac counts the root as a node.
 * Gecode reports no count of left branches, so there are no guesses. */
#include <cstdint>
#include <cstdio>
#include <exception>

#include <gecode/int.hh>
#include <gecode/search.hh>

extern "C" {
#include "common/units.h"
#include "solvers/registry.h"
}

namespace {

class SudokuSpace : public Gecode::Space {
public:
    Gecode::IntVarArray cell;

    SudokuSpace(const struct units &u, const struct grid &puzzle)
        : cell(*this, u.ncells, 1, u.n)
    {
        for (int c = 0; c < u.ncells; c++) {
            if (puzzle.cell[c])
                Gecode::rel(*this, cell[c], Gecode::IRT_EQ, puzzle.cell[c]);
        }
        for (int unit = 0; unit < u.nunits; unit++) {
            Gecode::IntVarArgs members(u.n);
            for (int i = 0; i < u.n; i++)
                members[i] = cell[u.unit_cell[unit][i]];
            Gecode::distinct(*this, members, Gecode::IPL_DOM);
        }
        Gecode::branch(*this, cell, Gecode::INT_VAR_SIZE_MIN(), Gecode::INT_VAL_MIN());
    }

    SudokuSpace(SudokuSpace &other)
        : Gecode::Space(other)
    {
        cell.update(*this, other.cell);
    }

    Gecode::Space *copy() override
    {
        return new SudokuSpace(*this);
    }
};

/* The request's step budget and deadline, asked before each node. */
class BudgetStop : public Gecode::Search::Stop {
public:
    BudgetStop(const struct solve_request *req)
        : req_(req)
    {
    }

    bool stop(
        const Gecode::Search::Statistics &s, const Gecode::Search::Options &) override
    {
        if (req_->budget_steps && s.node >= req_->budget_steps)
            return true;
        return req_->deadline_ns && (++poll_ & 63u) == 0
            && clock_now_ns() >= req_->deadline_ns;
    }

private:
    const struct solve_request *req_;
    unsigned poll_ = 0;
};

struct gecode_state {
    struct units u; /* u.n == 0 until the first puzzle */
};

void gecode_search(struct gecode_state *st, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    if (!units_fit(&st->u, puzzle))
        units_build(&st->u, puzzle);
    SudokuSpace *root = new SudokuSpace(st->u, *puzzle);
    BudgetStop budget(req);
    Gecode::Search::Options options;
    options.threads = 1;
    options.stop = &budget;
    Gecode::DFS<SudokuSpace> engine(root, options);
    delete root;
    struct grid solution = *puzzle;
    while (SudokuSpace *found = engine.next()) {
        bool stop;
        if (solver_wants_grid(req, res)) {
            for (int c = 0; c < st->u.ncells; c++)
                solution.cell[c] = (uint8_t) found->cell[c].val();
            stop = solver_record_solution(req, res, &solution);
        } else {
            stop = solver_count_solution(req, res);
        }
        delete found;
        if (stop)
            break;
    }
    if (engine.stopped() && !(req->limit && res->solutions >= req->limit))
        res->outcome = SOLVE_BUDGET;
    const Gecode::Search::Statistics stats = engine.statistics();
    res->counters.backtracks = stats.fail;
    res->counters.nodes = stats.node;
    if (stats.node == 0 && stats.fail == 1)
        res->counters.nodes = 1; /* the root, failed at the clues */
    res->counters.steps = res->counters.nodes;
}

void gecode_solve(void *priv, const struct grid *puzzle, const struct solve_request *req,
    struct solve_result *res)
{
    try {
        gecode_search(static_cast<struct gecode_state *>(priv), puzzle, req, res);
    } catch (const std::exception &e) {
        res->outcome = SOLVE_ERROR;
        std::snprintf(res->error, sizeof(res->error), "Gecode: %s", e.what());
    } catch (...) {
        res->outcome = SOLVE_ERROR;
        std::snprintf(res->error, sizeof(res->error), "Gecode: unknown exception");
    }
}

} // namespace

extern "C" const struct solver solver_gecode = {
    .name = "gecode",
    .family = "cp",
    .summary = "Gecode: distinct with domain propagation, cp_gac's model and branching",
    .min_n = 1,
    .max_n = GRID_MAX_N_MASK32, /* not tried beyond 25x25 */
    .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_STEP_BUDGET,
    .counters = SOLVER_HAS(steps) | SOLVER_HAS(backtracks) | SOLVER_HAS(nodes),
    .variant = 0,
    .available = nullptr,
    .priv_size = sizeof(struct gecode_state),
    .init = nullptr,
    .solve = gecode_solve,
    .fini = nullptr,
    .first_solution = nullptr,
};
