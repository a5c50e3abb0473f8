/* Unit propagation, failed literals and hyper-binary resolution
 * (solvers/cnf_prop.h).
 *
 * Literals are numbered 2(v-1) for +v and 2(v-1)+1 for -v, so x ^ 1 is the
 * negation. Binary clauses live as implication lists (bins[x]: what x true
 * makes true), longer ones as clauses with two watched literals (watches[x]:
 * the clauses to visit when x becomes false). Every watch list is allocated
 * to hold every clause of x, so propagation never allocates; only the clauses
 * that hyper-binary resolution adds grow the implication lists.
 *
 * Probing walks the literals round and round and stops after a whole turn in
 * which nothing changed at level 0 (no failed literal, no added clause). With
 * failed literals alone, a literal that an earlier probe of the same turn
 * made true is not probed: its consequences are a subset of that probe's,
 * which had no conflict, so nothing has changed since for it to fail. */
#include "solvers/cnf_prop.h"

#include <stdlib.h>
#include <string.h>

struct cnf_prop_vec {
    int32_t *a;
    int n, cap;
};

struct cnf_prop {
    int nvars;
    int8_t *val; /* [nvars]: 1, -1, 0 */
    uint8_t *long_reason; /* [nvars]: made true by a clause of 3+ literals */
    int32_t *trail; /* [nvars] literals made true, in order */
    int trail_len, qhead;
    int32_t *level_start; /* [nvars + 1]: trail length at each decision */
    int nlevels;
    struct cnf_prop_vec *bins; /* [2 nvars] */
    int32_t *bins_base; /* [2 nvars]: their lengths from the formula */
    struct cnf_prop_vec *watches; /* [2 nvars] */
    int32_t *clits, *cstart; /* clauses of 3+ literals */
    int32_t *clits0; /* as the formula gave them: a reset restores them and
                        their watches, so every run from a reset is the same */
    int nlong;
    int32_t *units; /* the formula's unit clauses */
    int nunits;
    bool empty_clause; /* the formula has one */
    bool conflict; /* an assertion was already false */
    uint32_t *probed; /* [2 nvars]: stamp of the turn a probe covered it */
    uint32_t stamp;
    uint64_t steps, budget, added;
};

static const char *const cnf_prop_method_names[CNF_PROP_METHOD_COUNT] = {
    [CNF_PROP_UNIT] = "up",
    [CNF_PROP_FAILED] = "fl",
    [CNF_PROP_HBR] = "hbr",
};

const char *cnf_prop_method_name(enum cnf_prop_method m)
{
    return (unsigned) m < CNF_PROP_METHOD_COUNT ? cnf_prop_method_names[m] : NULL;
}

static int cnf_prop_lit(int dimacs)
{
    return dimacs > 0 ? 2 * (dimacs - 1) : 2 * (-dimacs - 1) + 1;
}

static int lit_value(const struct cnf_prop *p, int x)
{
    const int v = p->val[x >> 1];
    return (x & 1) ? -v : v;
}

static bool vec_push(struct cnf_prop_vec *v, int32_t x)
{
    if (v->n == v->cap) {
        const int cap = v->cap ? 2 * v->cap : 4;
        int32_t *a = realloc(v->a, (size_t) cap * sizeof(*a));
        if (!a)
            return false;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = x;
    return true;
}

static void cnf_prop_free_vecs(struct cnf_prop_vec *v, int n)
{
    if (!v)
        return;
    for (int i = 0; i < n; i++)
        free(v[i].a);
    free(v);
}

void cnf_prop_free(struct cnf_prop *p)
{
    if (!p)
        return;
    free(p->val);
    free(p->long_reason);
    free(p->trail);
    free(p->level_start);
    cnf_prop_free_vecs(p->bins, 2 * p->nvars);
    free(p->bins_base);
    cnf_prop_free_vecs(p->watches, 2 * p->nvars);
    free(p->clits);
    free(p->clits0);
    free(p->cstart);
    free(p->units);
    free(p->probed);
    free(p);
}

/* Sizes every watch list for all the long clauses of its literal. */
static bool cnf_prop_size_watches(struct cnf_prop *p, const struct cnf *f)
{
    const int nlits = 2 * p->nvars;
    for (int c = 0; c < f->nclauses; c++) {
        if (f->start[c + 1] - f->start[c] < 3)
            continue;
        for (int i = f->start[c]; i < f->start[c + 1]; i++)
            p->watches[cnf_prop_lit(f->lits[i])].cap++;
    }
    for (int x = 0; x < nlits; x++) {
        if (p->watches[x].cap
            && !(p->watches[x].a = malloc((size_t) p->watches[x].cap * sizeof(int32_t))))
            return false;
    }
    return true;
}

static bool cnf_prop_load(struct cnf_prop *p, const struct cnf *f)
{
    int nlong_lits = 0;
    for (int c = 0; c < f->nclauses; c++) {
        const int len = f->start[c + 1] - f->start[c];
        if (len >= 3) {
            p->nlong++;
            nlong_lits += len;
        } else if (len == 1) {
            p->nunits++;
        }
    }
    p->clits = malloc((size_t) (nlong_lits ? nlong_lits : 1) * sizeof(int32_t));
    p->clits0 = malloc((size_t) (nlong_lits ? nlong_lits : 1) * sizeof(int32_t));
    p->cstart = malloc((size_t) (p->nlong + 1) * sizeof(int32_t));
    p->units = malloc((size_t) (p->nunits ? p->nunits : 1) * sizeof(int32_t));
    if (!p->clits || !p->clits0 || !p->cstart || !p->units
        || !cnf_prop_size_watches(p, f))
        return false;
    int nl = 0, nu = 0, used = 0;
    p->cstart[0] = 0;
    for (int c = 0; c < f->nclauses; c++) {
        const int32_t *l = &f->lits[f->start[c]];
        const int len = f->start[c + 1] - f->start[c];
        if (len == 0) {
            p->empty_clause = true;
        } else if (len == 1) {
            p->units[nu++] = cnf_prop_lit(l[0]);
        } else if (len == 2) {
            const int a = cnf_prop_lit(l[0]), b = cnf_prop_lit(l[1]);
            if (!vec_push(&p->bins[a ^ 1], b) || !vec_push(&p->bins[b ^ 1], a))
                return false;
        } else {
            for (int i = 0; i < len; i++)
                p->clits0[used + i] = cnf_prop_lit(l[i]);
            used += len;
            p->cstart[++nl] = used;
        }
    }
    for (int x = 0; x < 2 * p->nvars; x++)
        p->bins_base[x] = p->bins[x].n;
    return true;
}

struct cnf_prop *cnf_prop_new(const struct cnf *f)
{
    struct cnf_prop *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    const size_t nvars = (size_t) f->nvars, nlits = 2 * nvars;
    p->nvars = f->nvars;
    p->val = calloc(nvars + 1, sizeof(*p->val));
    p->long_reason = calloc(nvars + 1, sizeof(*p->long_reason));
    p->trail = malloc((nvars + 1) * sizeof(*p->trail));
    p->level_start = malloc((nvars + 1) * sizeof(*p->level_start));
    p->bins = calloc(nlits + 1, sizeof(*p->bins));
    p->bins_base = calloc(nlits + 1, sizeof(*p->bins_base));
    p->watches = calloc(nlits + 1, sizeof(*p->watches));
    p->probed = calloc(nlits + 1, sizeof(*p->probed));
    if (!p->val || !p->long_reason || !p->trail || !p->level_start || !p->bins
        || !p->bins_base || !p->watches || !p->probed || !cnf_prop_load(p, f)) {
        cnf_prop_free(p);
        return NULL;
    }
    cnf_prop_reset(p, 0);
    return p;
}

static void cnf_prop_backtrack(struct cnf_prop *p, int mark)
{
    while (p->trail_len > mark)
        p->val[p->trail[--p->trail_len] >> 1] = 0;
    p->qhead = mark;
}

static void cnf_prop_set(struct cnf_prop *p, int x, bool long_reason)
{
    p->val[x >> 1] = (x & 1) ? -1 : 1;
    p->long_reason[x >> 1] = long_reason;
    p->trail[p->trail_len++] = x;
}

static bool cnf_prop_assert_lit(struct cnf_prop *p, int x)
{
    const int v = lit_value(p, x);
    if (v < 0)
        p->conflict = true;
    else if (v == 0)
        cnf_prop_set(p, x, false);
    return v >= 0;
}

void cnf_prop_reset(struct cnf_prop *p, uint64_t budget_steps)
{
    cnf_prop_backtrack(p, 0);
    for (int x = 0; x < 2 * p->nvars; x++) {
        p->bins[x].n = p->bins_base[x];
        p->watches[x].n = 0;
    }
    if (p->nlong)
        memcpy(p->clits, p->clits0, (size_t) p->cstart[p->nlong] * sizeof(*p->clits));
    for (int c = 0; c < p->nlong; c++) {
        for (int i = 0; i < 2; i++) {
            struct cnf_prop_vec *w = &p->watches[p->clits[p->cstart[c] + i]];
            w->a[w->n++] = c;
        }
    }
    p->nlevels = 0;
    p->steps = 0;
    p->added = 0;
    p->budget = budget_steps;
    p->conflict = p->empty_clause;
    for (int i = 0; i < p->nunits; i++)
        cnf_prop_assert_lit(p, p->units[i]);
}

bool cnf_prop_assert(struct cnf_prop *p, int lit)
{
    return cnf_prop_assert_lit(p, cnf_prop_lit(lit));
}

/* Unit propagation of the trail from qhead to the fixpoint. */
static enum cnf_prop_status cnf_prop_propagate(struct cnf_prop *p)
{
    while (p->qhead < p->trail_len) {
        if (p->budget && p->steps >= p->budget)
            return CNF_PROP_LIMIT;
        p->steps++;
        const int t = p->trail[p->qhead++];
        const struct cnf_prop_vec *b = &p->bins[t];
        for (int i = 0; i < b->n; i++) {
            const int v = lit_value(p, b->a[i]);
            if (v < 0)
                return CNF_PROP_CONFLICT;
            if (v == 0)
                cnf_prop_set(p, b->a[i], false);
        }
        const int f = t ^ 1;
        struct cnf_prop_vec *w = &p->watches[f];
        int i = 0, j = 0;
        while (i < w->n) {
            const int c = w->a[i++];
            int32_t *l = &p->clits[p->cstart[c]];
            const int len = p->cstart[c + 1] - p->cstart[c];
            if (l[0] == f) {
                l[0] = l[1];
                l[1] = f;
            }
            if (lit_value(p, l[0]) > 0) {
                w->a[j++] = c;
                continue;
            }
            int k = 2;
            while (k < len && lit_value(p, l[k]) < 0)
                k++;
            if (k < len) {
                l[1] = l[k];
                l[k] = f;
                struct cnf_prop_vec *nw = &p->watches[l[1]];
                nw->a[nw->n++] = c;
                continue;
            }
            w->a[j++] = c;
            if (lit_value(p, l[0]) < 0) {
                while (i < w->n)
                    w->a[j++] = w->a[i++];
                w->n = j;
                return CNF_PROP_CONFLICT;
            }
            cnf_prop_set(p, l[0], true);
        }
        w->n = j;
    }
    return CNF_PROP_OK;
}

/* Adds (-x OR u) for every u the probe of x (trail from mark) made true
 * through a long clause. Returns the clauses added, or -1 out of memory. */
static int cnf_prop_hyper_binary(struct cnf_prop *p, int x, int mark)
{
    int added = 0;
    for (int k = mark + 1; k < p->trail_len; k++) {
        const int u = p->trail[k];
        if (!p->long_reason[u >> 1])
            continue;
        if (!vec_push(&p->bins[x], u) || !vec_push(&p->bins[u ^ 1], x ^ 1))
            return -1;
        added++;
    }
    return added;
}

/* Failed literals (with hyper-binary resolution when hbr) at level 0. */
static enum cnf_prop_status cnf_prop_probe(struct cnf_prop *p, bool hbr)
{
    enum cnf_prop_status st = cnf_prop_propagate(p);
    const int nlits = 2 * p->nvars;
    if (st != CNF_PROP_OK || nlits == 0)
        return st;
    p->stamp++;
    for (int x = 0, quiet = 0; quiet < nlits; x = (x + 1) % nlits, quiet++) {
        if (lit_value(p, x) != 0 || (!hbr && p->probed[x] == p->stamp))
            continue;
        const int mark = p->trail_len;
        cnf_prop_set(p, x, false);
        st = cnf_prop_propagate(p);
        if (st == CNF_PROP_LIMIT)
            return st;
        if (st == CNF_PROP_CONFLICT) {
            cnf_prop_backtrack(p, mark);
            cnf_prop_set(p, x ^ 1, false);
            st = cnf_prop_propagate(p);
            if (st != CNF_PROP_OK)
                return st;
            quiet = 0;
            p->stamp++;
            continue;
        }
        for (int k = mark; k < p->trail_len; k++)
            p->probed[p->trail[k]] = p->stamp;
        if (hbr) {
            const int added = cnf_prop_hyper_binary(p, x, mark);
            if (added < 0) {
                cnf_prop_backtrack(p, mark);
                return CNF_PROP_LIMIT;
            }
            if (added > 0) {
                p->added += (uint64_t) added;
                quiet = 0;
            }
        }
        cnf_prop_backtrack(p, mark);
    }
    return CNF_PROP_OK;
}

enum cnf_prop_status cnf_prop_run(struct cnf_prop *p, enum cnf_prop_method method)
{
    if (p->conflict)
        return CNF_PROP_CONFLICT;
    switch (method) {
    case CNF_PROP_FAILED:
        return cnf_prop_probe(p, false);
    case CNF_PROP_HBR:
        return cnf_prop_probe(p, true);
    default:
        return cnf_prop_propagate(p);
    }
}

enum cnf_prop_status cnf_prop_decide(struct cnf_prop *p, int lit)
{
    p->level_start[p->nlevels++] = p->trail_len;
    const int x = cnf_prop_lit(lit), v = lit_value(p, x);
    if (v < 0)
        return CNF_PROP_CONFLICT;
    if (v == 0)
        cnf_prop_set(p, x, false);
    return cnf_prop_propagate(p);
}

void cnf_prop_undo(struct cnf_prop *p)
{
    if (p->nlevels > 0)
        cnf_prop_backtrack(p, p->level_start[--p->nlevels]);
}

int cnf_prop_value(const struct cnf_prop *p, int var)
{
    return var >= 1 && var <= p->nvars ? p->val[var - 1] : 0;
}

int cnf_prop_vars(const struct cnf_prop *p)
{
    return p->nvars;
}

uint64_t cnf_prop_steps(const struct cnf_prop *p)
{
    return p->steps;
}

uint64_t cnf_prop_added(const struct cnf_prop *p)
{
    return p->added;
}
