/* Propagation on a CNF with no search, for the reasoning ladder (`sudolab
 * levels`): unit propagation, failed-literal probing and hyper-binary
 * resolution, as Lynce & Ouaknine measure them on Sudoku's encodings
 * (solvers/cnf.h). Needs no SAT library.
 *
 *   unit propagation   a clause whose literals are all false but one makes
 *                      that one true, to the fixpoint (two watched literals,
 *                      binary clauses as implication lists);
 *   failed literals    each unassigned literal in turn is made true and
 *                      propagated; a conflict means its negation holds, which
 *                      is asserted and propagated; rounds repeat until one
 *                      finds nothing (the fixpoint);
 *   hyper-binary       besides, each literal u that the probe of l made true
 *   resolution         through a clause of three or more literals gives the
 *                      binary clause (-l OR u), the resolvent of that clause
 *                      with the binaries (-l OR -x) of its false literals;
 *                      later probes propagate through the new clauses, and
 *                      rounds repeat while they add any.
 *
 * A step is one literal made true and propagated, whichever method: a budget
 * in steps bounds every call, and a call that runs out says so
 * (CNF_PROP_LIMIT) and leaves nothing to read. Free of I/O and global state. */
#ifndef SUDOLAB_SOLVERS_CNF_PROP_H
#define SUDOLAB_SOLVERS_CNF_PROP_H

#include <stdbool.h>
#include <stdint.h>

#include "solvers/cnf.h"

enum cnf_prop_status {
    CNF_PROP_OK, /* the fixpoint, with no conflict */
    CNF_PROP_CONFLICT, /* some clause is false: no model extends the assignment */
    CNF_PROP_LIMIT, /* the step budget ran out first */
};

enum cnf_prop_method {
    CNF_PROP_UNIT, /* unit propagation */
    CNF_PROP_FAILED, /* failed literals, to the fixpoint */
    CNF_PROP_HBR, /* failed literals with hyper-binary resolution */
    CNF_PROP_METHOD_COUNT
};

/* "up", "fl", "hbr"; NULL out of range. */
const char *cnf_prop_method_name(enum cnf_prop_method m);

struct cnf_prop;

/* A propagator over f's clauses (copied: f may be freed). Its unit clauses
 * are asserted by every cnf_prop_reset. NULL when out of memory. */
struct cnf_prop *cnf_prop_new(const struct cnf *f);
void cnf_prop_free(struct cnf_prop *p);

/* Forgets every assignment and every clause that probing added; asserts the
 * formula's unit clauses again (not yet propagated) and sets the step budget
 * (0: none) and the step count to 0. */
void cnf_prop_reset(struct cnf_prop *p, uint64_t budget_steps);
/* Asserts a literal (DIMACS) at the current level, propagated by the next
 * call. Returns false when it is already false (a conflict). */
bool cnf_prop_assert(struct cnf_prop *p, int lit);
/* Runs `method` to its fixpoint from what is asserted. */
enum cnf_prop_status cnf_prop_run(struct cnf_prop *p, enum cnf_prop_method method);

/* Search on top, for tests that enumerate models: opens a level, asserts lit
 * and propagates (unit propagation only); cnf_prop_undo closes the newest
 * level. Probing runs at level 0 only. */
enum cnf_prop_status cnf_prop_decide(struct cnf_prop *p, int lit);
void cnf_prop_undo(struct cnf_prop *p);

/* 1 true, -1 false, 0 unassigned. */
int cnf_prop_value(const struct cnf_prop *p, int var);
int cnf_prop_vars(const struct cnf_prop *p);
/* Steps since the reset. */
uint64_t cnf_prop_steps(const struct cnf_prop *p);
/* Binary clauses hyper-binary resolution added since the reset. */
uint64_t cnf_prop_added(const struct cnf_prop *p);

#endif /* SUDOLAB_SOLVERS_CNF_PROP_H */
