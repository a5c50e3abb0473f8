#include "common/check.h"

#include <stdarg.h>
#include <stdio.h>

static bool fail(char *why, size_t whylen, const char *fmt, ...)
{
    if (why && whylen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, whylen, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Why the unit `cells` (n indices into s) does not hold each value once: the
 * first value it holds twice, and where (the values are known to be 1..n). */
static bool repeated(
    const struct grid *s, const int *cells, const char *unit, char *why, size_t whylen)
{
    int first_at[GRID_MAX_N + 1];
    for (int v = 0; v <= s->n; v++)
        first_at[v] = -1;
    for (int k = 0; k < s->n; k++) {
        const int i = cells[k], v = s->cell[i];
        if (first_at[v] >= 0)
            return fail(why, whylen, "value %d appears twice in %s (r%dc%d and r%dc%d)",
                v, unit, first_at[v] / s->n + 1, first_at[v] % s->n + 1, i / s->n + 1,
                i % s->n + 1);
        first_at[v] = i;
    }
    return fail(why, whylen, "%s does not hold every value once", unit);
}

bool check_solution(
    const struct grid *puzzle, const struct grid *solution, char *why, size_t whylen)
{
    const int n = puzzle->n;
    if (solution->n != n || solution->box_rows != puzzle->box_rows
        || solution->box_cols != puzzle->box_cols || solution->ncells != puzzle->ncells)
        return fail(why, whylen, "solution has another shape than the puzzle");
    for (int i = 0; i < n * n; i++) {
        if (solution->cell[i] < 1 || solution->cell[i] > n)
            return fail(why, whylen, "r%dc%d holds %d, not 1..%d", i / n + 1, i % n + 1,
                solution->cell[i], n);
        if (puzzle->cell[i] && puzzle->cell[i] != solution->cell[i])
            return fail(why, whylen, "r%dc%d changes clue %d to %d", i / n + 1, i % n + 1,
                puzzle->cell[i], solution->cell[i]);
        if (puzzle->has_candidates
            && !(puzzle->candidates[i] >> (solution->cell[i] - 1) & 1u))
            return fail(why, whylen, "r%dc%d holds %d, not one of its candidates",
                i / n + 1, i % n + 1, solution->cell[i]);
    }
    /* Each row, column and box holds n distinct values of 1..n, so it holds
     * each exactly once. */
    for (int a = 0; a < n; a++) {
        unsigned long row = 0, col = 0, box = 0;
        const int br = puzzle->box_rows, bc = puzzle->box_cols;
        const int top = (a / br) * br, left = (a % br) * bc;
        for (int b = 0; b < n; b++) {
            row |= 1ul << solution->cell[a * n + b];
            col |= 1ul << solution->cell[b * n + a];
            box |= 1ul << solution->cell[(top + b / bc) * n + left + b % bc];
        }
        const unsigned long all = ((1ul << n) - 1) << 1;
        if (row == all && col == all && box == all)
            continue;
        int cells[GRID_MAX_N];
        char unit[32];
        const char *kind = row != all ? "row" : col != all ? "column" : "box";
        for (int b = 0; b < n; b++)
            cells[b] = row != all ? a * n + b
                : col != all      ? b * n + a
                                  : (top + b / bc) * n + left + b % bc;
        snprintf(unit, sizeof(unit), "%s %d", kind, a + 1);
        return repeated(solution, cells, unit, why, whylen);
    }
    if (puzzle->variant == GRID_DIAGONAL || solution->variant == GRID_DIAGONAL) {
        unsigned long down = 0, up = 0;
        for (int k = 0; k < n; k++) {
            down |= 1ul << solution->cell[k * n + k];
            up |= 1ul << solution->cell[k * n + n - 1 - k];
        }
        const unsigned long all = ((1ul << n) - 1) << 1;
        int cells[GRID_MAX_N];
        for (int k = 0; k < n; k++)
            cells[k] = down != all ? k * n + k : k * n + n - 1 - k;
        if (down != all || up != all)
            return repeated(solution, cells,
                down != all ? "the main diagonal" : "the anti-diagonal", why, whylen);
    }
    return true;
}
