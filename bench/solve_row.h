/* The result line of solve and count, as text or CSV: one function prints it
 * for the plain commands, count's split path, sudolab merge and sudolab-mpi,
 * so their rows cannot drift apart. */
#ifndef SUDOLAB_BENCH_SOLVE_ROW_H
#define SUDOLAB_BENCH_SOLVE_ROW_H

#include <stdbool.h>
#include <stdio.h>

#include "common/grid.h"
#include "solvers/solver.h"

struct solve_row_style {
    const struct solver *solver; /* whose counters the row shows */
    bool counting; /* count's form: the solution count leads the line */
    bool csv; /* comma-separated, under solve_row_header */
    bool pretty; /* solve: the grid drawn with boxes after the line */
};

/* The CSV header line. */
void solve_row_header(FILE *out);

/* The row of puzzle number index (its grid is drawn with pretty). name: the
 * entry's own name (corpus_item.name: a Lewis instance's file name), NULL or
 * "" for none; the text row ends with " name=NAME" when there is one, the
 * CSV row always has the name column, before the solution (which stays
 * last, where scripts take it from). */
void solve_row_print(FILE *out, const struct solve_row_style *style, unsigned long index,
    const char *name, const struct grid *puzzle, const struct solve_result *res);

/* Writes counter i of a result, or "n/a" (empty in CSV) when s does not report it. */
void solve_row_counter(
    FILE *out, const struct solver *s, const struct solver_counters *c, int i, bool csv);

#endif /* SUDOLAB_BENCH_SOLVE_ROW_H */
