#include "puzzle/split.h"

#include <stdlib.h>
#include <string.h>

/* ---- subproblems ---- */

/* The units of a cell as indices into a used-values table: row, column, box,
 * and the diagonals when the variant has them. */
static int cell_units(const struct grid *g, int cell, int unit[5])
{
    const int n = g->n, r = grid_row_of(g, cell), c = grid_col_of(g, cell);
    int k = 0;
    unit[k++] = r;
    unit[k++] = n + c;
    unit[k++] = 2 * n + grid_box_of(g, cell);
    if (g->variant == GRID_DIAGONAL) {
        if (r == c)
            unit[k++] = 3 * n;
        if (r + c == n - 1)
            unit[k++] = 3 * n + 1;
    }
    return k;
}

static int reserve(struct shard_split *sp, size_t bytes)
{
    if (bytes <= sp->cap)
        return 0;
    size_t cap = sp->cap ? sp->cap : 4096;
    while (cap < bytes)
        cap *= 2;
    uint8_t *grown = realloc(sp->values, cap);
    if (!grown)
        return -1;
    sp->values = grown;
    sp->cap = cap;
    return 0;
}

/* The values unit u already holds with the clues and the first d values of a
 * prefix placed. */
static void used_values(const struct grid *puzzle, const struct shard_split *sp,
    const uint8_t *prefix, int d, grid_mask *used)
{
    memset(used, 0, (size_t) (3 * GRID_MAX_N + 2) * sizeof(*used));
    int unit[5];
    for (int cell = 0; cell < puzzle->ncells; cell++) {
        if (!puzzle->cell[cell])
            continue;
        const int k = cell_units(puzzle, cell, unit);
        for (int j = 0; j < k; j++)
            used[unit[j]] |= (grid_mask) 1 << puzzle->cell[cell];
    }
    for (int i = 0; i < d; i++) {
        const int k = cell_units(puzzle, sp->cell[i], unit);
        for (int j = 0; j < k; j++)
            used[unit[j]] |= (grid_mask) 1 << prefix[i];
    }
}

int shard_split_make(struct shard_split *sp, const struct grid *puzzle, size_t min)
{
    int blanks = 0;
    for (int cell = 0; cell < puzzle->ncells; cell++) {
        if (!puzzle->cell[cell])
            sp->cell[blanks++] = (uint16_t) cell;
    }
    /* Level by level: the prefixes of depth d + 1 are those of depth d, each
     * extended by every value its next blank still admits. The new level is
     * written after the old one in the same buffer, then moved down. */
    sp->depth = 0;
    sp->count = 1;
    if (reserve(sp, 1) != 0)
        return -1;
    grid_mask used[3 * GRID_MAX_N + 2];
    int unit[5];
    while (sp->count > 0 && sp->count < min && sp->depth < blanks) {
        const int d = sp->depth;
        const size_t old_bytes = sp->count * (size_t) d;
        size_t next = 0;
        const int k = cell_units(puzzle, sp->cell[d], unit);
        for (size_t i = 0; i < sp->count; i++) {
            used_values(puzzle, sp, sp->values + i * (size_t) d, d, used);
            grid_mask taken = 0;
            for (int j = 0; j < k; j++)
                taken |= used[unit[j]];
            for (int v = 1; v <= puzzle->n; v++) {
                if (taken & ((grid_mask) 1 << v))
                    continue;
                const size_t at = old_bytes + next * (size_t) (d + 1);
                if (reserve(sp, at + (size_t) (d + 1)) != 0)
                    return -1;
                memcpy(sp->values + at, sp->values + i * (size_t) d, (size_t) d);
                sp->values[at + (size_t) d] = (uint8_t) v;
                next++;
            }
        }
        memmove(sp->values, sp->values + old_bytes, next * (size_t) (d + 1));
        sp->count = next;
        sp->depth = d + 1;
    }
    return 0;
}

void shard_split_apply(
    const struct shard_split *sp, const struct grid *puzzle, size_t i, struct grid *out)
{
    *out = *puzzle;
    const uint8_t *v = sp->values + i * (size_t) sp->depth;
    for (int j = 0; j < sp->depth; j++)
        out->cell[sp->cell[j]] = v[j];
}

void shard_split_free(struct shard_split *sp)
{
    free(sp->values);
    sp->values = NULL;
    sp->cap = 0;
}

/* ---- tallies ---- */

void shard_tally_add(struct shard_tally *t, uint64_t sub, const struct solve_result *res)
{
    t->solved++;
    if (res->status == SOLVE_STATUS_ERROR || res->status == SOLVE_STATUS_INVALID) {
        /* a subproblem of a consistent puzzle is consistent: invalid is a bug */
        if (!t->error)
            snprintf(t->error_text, sizeof(t->error_text), "%s",
                res->error[0] ? res->error : "subproblem failed");
        t->error = true;
        return;
    }
    t->solutions += res->solutions;
    solver_counters_add(&t->counters, &res->counters);
    t->time_ns += res->time_ns;
    t->budget |= res->status == SOLVE_STATUS_LIMIT;
    if (res->solutions > 0 && (!t->have_first || sub < t->first_sub)) {
        t->have_first = true;
        t->first_sub = sub;
        t->first = res->solution;
    }
}

void shard_tally_merge(struct shard_tally *into, const struct shard_tally *from)
{
    into->solved += from->solved;
    into->solutions += from->solutions;
    solver_counters_add(&into->counters, &from->counters);
    into->time_ns += from->time_ns;
    into->budget |= from->budget;
    if (from->error && !into->error)
        snprintf(into->error_text, sizeof(into->error_text), "%s", from->error_text);
    into->error |= from->error;
    if (from->have_first && (!into->have_first || from->first_sub < into->first_sub)) {
        into->have_first = true;
        into->first_sub = from->first_sub;
        into->first = from->first;
    }
}

void shard_tally_result(
    const struct shard_tally *t, uint64_t limit, struct solve_result *out)
{
    memset(out, 0, sizeof(*out));
    out->counters = t->counters;
    out->time_ns = t->time_ns;
    /* each subproblem counts up to the limit, so the capped sum is exactly the
     * capped count of the whole puzzle */
    out->solutions = limit && t->solutions > limit ? limit : t->solutions;
    if (t->have_first)
        out->solution = t->first;
    if (t->error) {
        out->outcome = SOLVE_ERROR;
        out->status = SOLVE_STATUS_ERROR;
        snprintf(out->error, sizeof(out->error), "%s", t->error_text);
    } else if (t->budget && (limit == 0 || out->solutions < limit)) {
        out->outcome = SOLVE_BUDGET;
        out->status = SOLVE_STATUS_LIMIT;
    } else if (out->solutions == 0) {
        out->status = SOLVE_STATUS_UNSOLVABLE;
    } else if (out->solutions >= 2) {
        out->status = SOLVE_STATUS_MULTIPLE;
    } else {
        out->status = limit == 1 ? SOLVE_STATUS_SOLVED : SOLVE_STATUS_UNIQUE;
    }
}
