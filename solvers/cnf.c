/* The CNF encodings of solvers/cnf.h. */
#include "solvers/cnf.h"

#include <stdlib.h>
#include <string.h>

static const char *const cnf_encoding_names[CNF_ENCODING_COUNT] = {
    [CNF_MINIMAL] = "minimal",
    [CNF_EFFICIENT] = "efficient",
    [CNF_EXTENDED] = "extended",
};

const char *cnf_encoding_name(enum cnf_encoding enc)
{
    return (unsigned) enc < CNF_ENCODING_COUNT ? cnf_encoding_names[enc] : NULL;
}

/* Which halves of exactly-one a column gets in `enc`: cell columns come
 * first in the model ([0, ncells)), unit columns after. */
static bool cnf_wants_at_least(enum cnf_encoding enc, bool cell_column)
{
    return cell_column || enc == CNF_EXTENDED;
}

static bool cnf_wants_at_most(enum cnf_encoding enc, bool cell_column)
{
    return !cell_column || enc != CNF_MINIMAL;
}

bool cnf_rules(
    const struct exact_cover *ec, enum cnf_encoding enc, cnf_clause_fn *fn, void *ctx)
{
    int32_t lits[GRID_MAX_N], pair[2];
    for (int col = 0; col < ec->ncols; col++) {
        const bool cell_column = col < ec->ncells;
        const int32_t *rows = &ec->col_row[(size_t) col * ec->n];
        if (cnf_wants_at_least(enc, cell_column)) {
            for (int i = 0; i < ec->n; i++)
                lits[i] = rows[i] + 1;
            if (!fn(ctx, lits, ec->n))
                return false;
        }
        if (!cnf_wants_at_most(enc, cell_column))
            continue;
        for (int i = 0; i < ec->n; i++) {
            for (int j = i + 1; j < ec->n; j++) {
                pair[0] = -(rows[i] + 1);
                pair[1] = -(rows[j] + 1);
                if (!fn(ctx, pair, 2))
                    return false;
            }
        }
    }
    return true;
}

int64_t cnf_rules_count(const struct exact_cover *ec, enum cnf_encoding enc)
{
    const int64_t cells = ec->ncells, units = ec->ncols - ec->ncells;
    const int64_t pairs = (int64_t) ec->n * (ec->n - 1) / 2;
    switch (enc) {
    case CNF_MINIMAL:
        return cells + units * pairs;
    case CNF_EFFICIENT:
        return cells + (cells + units) * pairs;
    case CNF_EXTENDED:
        return cells + units + (cells + units) * pairs;
    default:
        return 0;
    }
}

static bool cnf_reserve(struct cnf *f, int more_lits)
{
    if (f->nclauses + 2 > f->cap_clauses) {
        const int cap = f->cap_clauses ? 2 * f->cap_clauses : 1024;
        int32_t *start = realloc(f->start, (size_t) cap * sizeof(*start));
        if (!start)
            return false;
        f->start = start;
        f->cap_clauses = cap;
    }
    const int used = f->start[f->nclauses];
    if (used + more_lits > f->cap_lits) {
        int cap = f->cap_lits ? 2 * f->cap_lits : 4096;
        while (cap < used + more_lits)
            cap *= 2;
        int32_t *lits = realloc(f->lits, (size_t) cap * sizeof(*lits));
        if (!lits)
            return false;
        f->lits = lits;
        f->cap_lits = cap;
    }
    return true;
}

static bool cnf_append(void *ctx, const int32_t *lits, int nlits)
{
    struct cnf *f = ctx;
    if (!cnf_reserve(f, nlits))
        return false;
    const int used = f->start[f->nclauses];
    memcpy(&f->lits[used], lits, (size_t) nlits * sizeof(*lits));
    f->start[++f->nclauses] = used + nlits;
    return true;
}

void cnf_free(struct cnf *f)
{
    free(f->lits);
    free(f->start);
    memset(f, 0, sizeof(*f));
}

int cnf_build(struct cnf *f, const struct exact_cover *ec, const struct grid *puzzle,
    enum cnf_encoding enc)
{
    memset(f, 0, sizeof(*f));
    f->nvars = ec->nrows;
    f->start = malloc(sizeof(*f->start));
    if (!f->start)
        return -1;
    f->cap_clauses = 1;
    f->start[0] = 0;
    if (!cnf_rules(ec, enc, cnf_append, f))
        goto fail;
    for (int c = 0; c < puzzle->ncells; c++) {
        if (!puzzle->cell[c])
            continue;
        const int32_t unit = cnf_var(ec, c, puzzle->cell[c]);
        if (!cnf_append(f, &unit, 1))
            goto fail;
    }
    return 0;
fail:
    cnf_free(f);
    return -1;
}
