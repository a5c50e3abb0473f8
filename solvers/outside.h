/* Outside back ends: solvers in a shared library or in another process, named
 * on the command line (so:PATH[:SYMBOL], cmd:COMMAND, LABEL=...; the forms
 * and the plug-in ABIs are in solvers/sudolab_plugin.h). They are resolved
 * here, by name prefix, and nowhere else: solver_find() hands such names to
 * outside_find(). The registry stays the only list of built-in back ends.
 *
 * A descriptor (a struct solver) is made once per name and lives until the
 * program ends, as the registry's entries do; it holds what was learnt when
 * the name was first resolved (capabilities, the protocol's cost, or why the
 * back end cannot run). Everything that runs -- the dlopen() handle, a plug-in's
 * state, a process -- belongs to a solver instance (solver_open()), one per
 * thread. */
#ifndef SUDOLAB_SOLVERS_OUTSIDE_H
#define SUDOLAB_SOLVERS_OUTSIDE_H

#include <stdbool.h>

#include "solvers/solver.h"

/* Whether name has the form of an outside back end (it may still be unusable). */
bool outside_is_spec(const char *name);

/* The descriptor for spec, made on first use (the same pointer for the same
 * spec afterwards). A back end that cannot run (a missing file or symbol, a
 * wrong ABI version, a command that does not start) still gets a descriptor:
 * its problem is printed once on stderr here and every puzzle it is given
 * ends as an `error` row saying why, so the rest of a run goes on. NULL, after
 * saying why on stderr, only for a malformed spec or a name already taken. */
const struct solver *outside_find(const char *spec);

/* For an outside back end: why it cannot run, or "" when it can. NULL for a
 * built-in one. */
const char *outside_problem(const struct solver *s);

/* For an outside back end: what to print beside its results (the process
 * protocol's cost per puzzle, the library loaded), or NULL. */
const char *outside_note(const struct solver *s);

/* For an outside back end: its spec as given (so:..., cmd:..., LABEL=...),
 * which outside_find() resolves again to a back end of the same name, as
 * sudolab merge does for the back ends a bench's env.txt names. NULL for a
 * built-in one. */
const char *outside_spec(const struct solver *s);

#endif /* SUDOLAB_SOLVERS_OUTSIDE_H */
