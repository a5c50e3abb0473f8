/* The solution checker: the oracle for every test and every benchmark row.
 * It is written apart from every solver and from the rest of common/ (it uses
 * no unit tables and no solver helper), so a bug there cannot hide here. */
#ifndef SUDOLAB_COMMON_CHECK_H
#define SUDOLAB_COMMON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "common/grid.h"

/* True when `solution` has the shape of `puzzle`, keeps every clue, fills every
 * cell with 1..N, uses one of the puzzle's candidates in each cell of a
 * pencil-mark puzzle and obeys every rule of the variant. Otherwise false, with the
 * first fault in why (may be NULL). */
bool check_solution(
    const struct grid *puzzle, const struct grid *solution, char *why, size_t whylen);

#endif /* SUDOLAB_COMMON_CHECK_H */
