/* Sudoku as CNF in the three encodings of Lynce & Ouaknine ("Sudoku as a SAT
 * problem", AIMATH 2006), for every size and the diagonal variant.
 *
 * Variables are the placements of common/exact_cover.h: variable r + 1 is
 * row r of the exact-cover model, "value v in cell c" (cnf_var). The clauses
 * come from the model's columns, each a constraint that needs exactly one
 * placement: a cell's column (the cell holds a value) and the unit columns
 * (a row, column, box - or a diagonal of the variant - holds value v). Each
 * column gives an at-least-one clause over its N placements (definedness)
 * and/or the N(N-1)/2 pairwise at-most-one binary clauses (uniqueness):
 *
 *   CNF_MINIMAL    cell definedness, unit uniqueness: the least that has
 *                  exactly the solutions as models (in a unit of N cells,
 *                  each holding a value and no value twice, each cell holds
 *                  exactly one);
 *   CNF_EFFICIENT  minimal + cell uniqueness;
 *   CNF_EXTENDED   efficient + unit definedness: every column exactly-one,
 *                  the CNF that the `sat` back end gives CaDiCaL.
 *
 * With C = N*N cells and U = 3C unit columns (+ 2N for the diagonal variant),
 * a puzzle's CNF has C*N variables and
 *
 *   minimal    C + U*N(N-1)/2
 *   efficient  C + (C + U)*N(N-1)/2
 *   extended   C + U + (C + U)*N(N-1)/2
 *
 * clauses before the clues (9x9: 8,829, 11,745 and 11,988, the paper's
 * counts), plus one unit clause per clue: the clues are unit clauses, not
 * simplified away, so that every encoding of a puzzle is the empty grid's
 * formula plus the clues. */
#ifndef SUDOLAB_SOLVERS_CNF_H
#define SUDOLAB_SOLVERS_CNF_H

#include <stdbool.h>
#include <stdint.h>

#include "common/exact_cover.h"
#include "common/grid.h"

enum cnf_encoding { CNF_MINIMAL, CNF_EFFICIENT, CNF_EXTENDED, CNF_ENCODING_COUNT };

/* "minimal", "efficient", "extended"; NULL out of range. */
const char *cnf_encoding_name(enum cnf_encoding enc);

/* A formula: clause i is lits[start[i]] .. lits[start[i + 1] - 1], each literal
 * a DIMACS one (+v or -v, v from 1 to nvars). */
struct cnf {
    int nvars;
    int nclauses;
    int32_t *lits;
    int32_t *start; /* [nclauses + 1] */
    int cap_lits, cap_clauses; /* allocated */
};

/* The variable of "value v in cell c" (both from the exact-cover model). */
static inline int cnf_var(const struct exact_cover *ec, int cell, int value)
{
    return exact_cover_row(ec, cell, value) + 1;
}

/* Told each clause; returns false to stop the enumeration. */
typedef bool cnf_clause_fn(void *ctx, const int32_t *lits, int nlits);
/* Gives fn the clauses of the rules of ec's shape in `enc` (no clues), column
 * by column of the model: its at-least-one clause, then its at-most-one
 * pairs. Returns false when fn stopped it. */
bool cnf_rules(
    const struct exact_cover *ec, enum cnf_encoding enc, cnf_clause_fn *fn, void *ctx);
/* The rules' clause count in `enc` (the formulas above). */
int64_t cnf_rules_count(const struct exact_cover *ec, enum cnf_encoding enc);

/* Builds puzzle's formula in `enc`: the rules of its shape and a unit clause
 * per clue. Returns 0, or -1 when out of memory (f is then empty). Free with
 * cnf_free. */
int cnf_build(struct cnf *f, const struct exact_cover *ec, const struct grid *puzzle,
    enum cnf_encoding enc);
void cnf_free(struct cnf *f);

#endif /* SUDOLAB_SOLVERS_CNF_H */
