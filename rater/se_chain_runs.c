/* Sudoku Explainer's implication runs (rater/se_chains.h): a run's
 * potentials and parents, the implications of one potential, the rules
 * nested in the "+" and nested levels, whole runs, the runs one dynamic
 * level keeps for the next, and the spare runs. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rater/se_chains.h"

static void run_reset(struct run *r)
{
    for (int i = 0; i < r->norder; i++)
        r->has[r->order[i]] = 0;
    r->norder = 0;
    r->narena = 0;
    r->absurd = false;
    r->keyed = false;
}

static int32_t arena_put(struct run *r, const int *parents, int n)
{
    if (r->narena + n > ARENA)
        n = ARENA - r->narena; /* beyond any real chain: keep what fits */
    int32_t at = r->narena;
    for (int i = 0; i < n; i++)
        r->arena[r->narena++] = (uint16_t) parents[i];
    return at;
}

static void run_add(struct run *r, int node, const int *parents, int n)
{
    r->has[node] = 1;
    if (r->keyed)
        r->nkey[node] = 0;
    r->ref[node].cause = 0;
    r->order[r->norder++] = (uint16_t) node;
    r->ref[node].poff = (uint16_t) arena_put(r, parents, n);
    r->ref[node].pn = (uint16_t) (r->narena - r->ref[node].poff);
}

/* The nested chain behind `node` (of the run), or 0. */
static inline uint32_t run_nkey(const struct run *r, int node)
{
    return r->keyed ? r->nkey[node] : 0;
}

/* Sets the nested chain behind `node`; the first one of a run clears the
 * others' (from the run's earlier uses). */
static void run_key(struct run *r, int node, uint32_t key, int complexity)
{
    if (!r->keyed) {
        for (int i = 0; i < r->norder; i++)
            r->nkey[r->order[i]] = 0;
        r->keyed = true;
    }
    r->nkey[node] = key;
    r->ncx[node] = complexity;
}

/* A nested chain counts once per hint (SE: its FullChain). */
static int nested_once(struct chain_ctx *x, uint32_t key, int complexity)
{
    for (int i = 0; i < x->nhint_keys; i++)
        if (x->hint_keys[i] == key)
            return 0;
    if (x->nhint_keys < 256)
        x->hint_keys[x->nhint_keys++] = key;
    return complexity;
}

/* Distinct potentials behind `self` (itself included) whose parents are the
 * given list. */
static int ancestors(
    struct chain_ctx *x, const struct run *r, int self, const uint16_t *parents, int n)
{
    uint32_t st = ++x->stamp;
    int top = 0, count = 1;
    x->seen[self] = st;
    for (int i = 0; i < n; i++)
        x->stack[top++] = parents[i];
    while (top > 0) {
        int p = x->stack[--top];
        if (x->seen[p] == st)
            continue;
        x->seen[p] = st;
        count++;
        if (run_nkey(r, p))
            count += nested_once(x, r->nkey[p], r->ncx[p]);
        for (int i = 0; i < r->ref[p].pn; i++)
            if (x->seen[r->arena[r->ref[p].poff + i]] != st)
                x->stack[top++] = r->arena[r->ref[p].poff + i];
    }
    return count;
}

int se_anc_stored(struct chain_ctx *x, const struct run *r, int node)
{
    int own = run_nkey(r, node) ? nested_once(x, r->nkey[node], r->ncx[node]) : 0;
    return own + ancestors(x, r, node, &r->arena[r->ref[node].poff], r->ref[node].pn);
}

int se_anc_absurd(struct chain_ctx *x, const struct run *r)
{
    int stored = r->virt == r->abs_on ? r->abs_off : r->abs_on;
    return se_anc_stored(x, r, stored)
        + ancestors(x, r, r->virt, &r->arena[r->virt_poff], r->virt_pn);
}

/* Offers a hint; keeps the easiest, then the shortest, then by kind order. */
void se_offer(struct chain_ctx *x, const struct se_step *s, int sort_key)
{
    if (!se_step_useful(x->grid, s))
        return;
    if (x->have) {
        const struct se_step *b = &x->best;
        if (s->rating != b->rating) {
            if (s->rating > b->rating)
                return;
        } else if (s->complexity != b->complexity) {
            if (s->complexity > b->complexity)
                return;
        } else if (sort_key >= x->best_sort)
            return;
    }
    x->best = *s;
    x->best_sort = sort_key;
    x->have = true;
}

/* A conclusion on `target`: off = the value goes, on = the others go. */
void se_conclude(const struct se_grid *g, int target, struct se_step *s)
{
    int c = node_cell(target), v = node_value(target);
    if (node_on(target))
        s->elim[c] = (uint16_t) (g->cand[c] & ~(1u << v));
    else
        s->elim[c] = (uint16_t) (1u << v);
}

void se_collect_push(struct chain_ctx *x, const struct se_step *s, int sort_key,
    const uint16_t *parents, uint32_t chain)
{
    struct nested_list *l = x->collect;
    if (!se_step_useful(x->grid, s))
        return;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        struct nested_hint *h = realloc(l->h, sizeof(*h) * (size_t) cap);
        if (!h)
            return;
        l->h = h;
        l->cap = cap;
    }
    struct nested_hint *h = &l->h[l->n++];
    memcpy(h->elim, s->elim, sizeof(h->elim));
    memcpy(h->parents, parents, sizeof(h->parents));
    h->rating = s->rating;
    h->complexity = s->complexity;
    h->sort_key = sort_key;
    h->key = chain | 1u;
    h->seq = l->n - 1;
}

/* ---- nested rules of the "+" level ---- */

struct adv {
    struct run *r;
    int *queue;
    int *tail;
    int found;
    bool any; /* a rule gave a hint with parents */
};

/* Whether cells c to c + 3 of a all hold 0 (read as one word; the last,
 * short group is never skipped): a rule's parents and removals lie in a
 * region or two, so most groups are skipped. */
static inline bool four_empty(const uint16_t *a, int c)
{
    uint64_t w;
    if (c + 4 > SE_CELLS)
        return false;
    memcpy(&w, a + c, sizeof(w));
    return w == 0;
}

static bool adv_hint(void *ctx, const struct se_step *s, const uint16_t *parents)
{
    struct adv *a = ctx;
    int list[256], n = 0;
    /* by cell, then digit */
    for (int c0 = 0; c0 < SE_CELLS; c0 += 4) {
        if (four_empty(parents, c0))
            continue;
        for (int c = c0; c < c0 + 4 && c < SE_CELLS; c++)
            for (unsigned m = parents[c]; m; m &= m - 1)
                if (n < 256 && a->r->has[node_of(c, __builtin_ctz(m), 0)])
                    list[n++] = node_of(c, __builtin_ctz(m), 0);
    }
    if (n == 0)
        return true;
    a->any = true;
    for (int c0 = 0; c0 < SE_CELLS; c0 += 4) {
        if (four_empty(s->elim, c0))
            continue;
        for (int c = c0; c < c0 + 4 && c < SE_CELLS; c++)
            for (unsigned m = s->elim[c]; m; m &= m - 1) {
                int off = node_of(c, __builtin_ctz(m), 0);
                if (!a->r->has[off]) {
                    run_add(a->r, off, list, n);
                    a->queue[(*a->tail)++] = off;
                    a->found++;
                }
            }
    }
    return true;
}

/* What the "+" rules saw of a run since its last stall: the first `rules`
 * of them (in advanced's order) gave every hint they had on that stall's
 * grid, and `fresh_in`, by value, holds the regions where the run's grid lost
 * a place since. Such a rule looks only in those regions (it is handed them
 * as its lost_in): every pattern of it lies in regions that lost a place of
 * one of its values or cells (locking: r1 and v, pairs: their region, X-wing:
 * v's two base lines), and one whose regions lost nothing since that stall
 * has the same places and parents as there, so it gives what it gave there:
 * no hint with parents, or one whose removals the run has all made since (a
 * stall's hints are added whole, and the run reaches its next stall only
 * after taking them out), which is no longer useful and is not given. The
 * patterns left are looked at in the same order: the same hints. */
struct plus_seen {
    uint32_t fresh_in[10];
    int rules;
};

/* `pos` and `pos0`: the places of g and src, and `lost_in` the regions
 * where each value lost a place since src, which the run keeps (the reduced
 * grid made from them, not from a scan of the cells at every stall). */
static int advanced(const struct se_grid *g, const struct se_grid *src,
    const region_places pos, const region_places pos0, const uint32_t *lost_in,
    struct plus_seen *seen, struct run *r, int *queue, int *tail)
{
    static bool (*const rules[4])(const struct se_reduced *, se_hint_fn, void *)
        = { se_each_locking, se_each_hidden_pair, se_each_naked_pair, se_each_x_wing };
    struct adv a = { r, queue, tail, 0, false };
    struct se_reduced all, fresh;
    if (seen->rules > 0)
        se_reduced_from_places(&fresh, g, src, pos, pos0, seen->fresh_in);
    int i = 0;
    for (; i < 4 && !a.any; i++) {
        if (i == seen->rules) /* the rules from here on look everywhere */
            se_reduced_from_places(&all, g, src, pos, pos0, lost_in);
        rules[i](i < seen->rules ? &fresh : &all, adv_hint, &a);
    }
    seen->rules = i;
    memset(seen->fresh_in, 0, sizeof(seen->fresh_in));
    return a.any ? a.found : -1;
}

static int nested_cmp(const void *a, const void *b)
{
    const struct nested_hint *p = a, *q = b;
    if (p->rating != q->rating)
        return p->rating - q->rating;
    if (p->complexity != q->complexity)
        return p->complexity - q->complexity;
    if (p->sort_key != q->sort_key)
        return p->sort_key - q->sort_key;
    /* SE's sort is stable: equal hints stay in the order found. An explicit
     * order makes the sorted list the same whatever qsort does, and the same
     * for the hints that count when others that cannot are left out */
    return p->seq - q->seq;
}

/* A search's context (~60 KB), kept by the rater between searches: thousands
 * of nested searches would each clear a new one, and so would each of the
 * step's searches. Only the fields before `stamp`
 * start cleared; the rest need no clearing (see struct chain_ctx). Nested
 * searches nest two deep at most (a level-4 search's nested dynamic chains
 * of level 2 or 3 nest their own searches), and se_chains does not call
 * itself: one spare for each depth of nesting and one for se_chains. */
struct chain_ctx *se_ctx_take(struct se_rater *rt, struct chain_ctx **spare)
{
    struct chain_ctx *n = *spare;
    *spare = NULL;
    if (!n)
        n = calloc(1, sizeof(*n));
    else {
        memset(n, 0, offsetof(struct chain_ctx, stamp));
        if (n->stamp >= 1u << 31) { /* long before the stamps wrap */
            n->stamp = 0;
            memset(n->seen, 0, sizeof(n->seen));
        }
    }
    if (n)
        n->rt = rt;
    return n;
}

void se_ctx_give_back(struct chain_ctx **spare, struct chain_ctx *n)
{
    if (*spare)
        free(n);
    else
        *spare = n;
}

/* The spare for the searches nested in x's runs: x collects when it is
 * itself nested. */
static struct chain_ctx **nested_spare(const struct chain_ctx *x)
{
    return &x->rt->chains->spare_nested[x->collect != NULL];
}

void se_spare_ctx_drop(struct se_chains_memo *m)
{
    for (int d = 0; d < 2; d++) {
        free(m->spare_nested[d]);
        m->spare_nested[d] = NULL;
    }
    free(m->spare_top);
    m->spare_top = NULL;
}

/* Every forcing chain and cycle (RULE_CYCLES), cell and region chain
 * (RULE_MULTIPLE) or dynamic chain (RULE_DYNAMIC + its level) of g, sorted
 * as SE sorts them (a stable sort: equal ones keep their order). */
static struct nested_list nested_list_of(struct chain_ctx *x, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*places)[10], int rule)
{
    struct nested_list list = { NULL, 0, 0 };
    struct chain_ctx *n = se_ctx_take(x->rt, nested_spare(x));
    if (!n)
        return list;
    n->nested_search = x->nested_search;
    n->grid = g;
    n->kind = rule >= RULE_DYNAMIC ? SE_CH_DYNAMIC
        : rule == RULE_MULTIPLE    ? SE_CH_MULTIPLE
                                   : SE_CH_CYCLES;
    n->level = rule >= RULE_DYNAMIC ? rule - RULE_DYNAMIC : 0;
    n->dynamic = rule >= RULE_DYNAMIC;
    n->y_links = true;
    n->multiple = rule >= RULE_MULTIPLE;
    n->collect = &list;
    n->src = src;
    n->places = places;
    memcpy(n->pos0, places, sizeof(n->pos0)); /* the runs' start is g */
    n->have_pos0 = true;
    x->nested_search(n, rule);
    se_ctx_give_back(nested_spare(x), n);
    if (list.n > 1) /* an empty list has no array, and qsort wants one */
        qsort(list.h, (size_t) list.n, sizeof(*list.h), nested_cmp);
    return list;
}

static uint64_t memo_hash(const struct se_grid *g, int rule)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t) rule;
    for (int c = 0; c < SE_CELLS; c++)
        h = (h ^ g->cand[c]) * 1099511628211ull;
    return h;
}

static struct nested_memo **memo_find(
    const struct memo_store *m, const struct se_grid *g, int rule)
{
    size_t i = memo_hash(g, rule) & (m->nslots - 1);
    while (m->slot[i]
        && (m->slot[i]->rule != rule
            || memcmp(m->slot[i]->cand, g->cand, sizeof(g->cand))))
        i = (i + 1) & (m->nslots - 1);
    return &m->slot[i];
}

/* Doubles the table; false without memory (the memo then stops growing). */
static bool memo_grow(struct memo_store *m)
{
    struct memo_store bigger = *m;
    bigger.nslots = m->nslots * 2;
    bigger.bytes += m->nslots * sizeof(*m->slot);
    bigger.slot = calloc(bigger.nslots, sizeof(*bigger.slot));
    if (!bigger.slot)
        return false;
    for (size_t i = 0; i < m->nslots; i++)
        if (m->slot[i]) {
            struct se_grid g;
            memcpy(g.cand, m->slot[i]->cand, sizeof(g.cand));
            *memo_find(&bigger, &g, m->slot[i]->rule) = m->slot[i];
        }
    free(m->slot);
    *m = bigger;
    return true;
}

/* The nested hints of g: from the memo when a run of this step's nested
 * searches met the same grid before, else made and kept while the memo has
 * room. *owned: the caller frees the list. */
static struct nested_list nested_hints(struct chain_ctx *x, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*places)[10], int rule, bool *owned)
{
    struct memo_store *m = x->memo;
    struct nested_memo **at = m ? memo_find(m, g, rule) : NULL;
    if (at && *at) {
        *owned = false;
        return (*at)->list;
    }
    struct nested_list list = nested_list_of(x, g, src, places, rule);
    *owned = true;
    size_t size = sizeof(struct nested_memo) + sizeof(*list.h) * (size_t) list.cap;
    if (!m || m->bytes + size > MEMO_BYTES)
        return list;
    if (m->count + 1 > m->nslots / 2) {
        if (m->bytes + size + m->nslots * sizeof(*m->slot) > MEMO_BYTES || !memo_grow(m))
            return list;
        at = memo_find(m, g, rule);
    }
    struct nested_memo *e = malloc(sizeof(*e));
    if (!e)
        return list;
    memcpy(e->cand, g->cand, sizeof(e->cand));
    e->rule = rule;
    e->list = list;
    *at = e;
    m->count++;
    m->bytes += size;
    *owned = false;
    return list;
}

void se_memo_drop(struct se_chains_memo *mem)
{
    struct memo_store *m = mem->step_memo;
    if (!m)
        return;
    for (size_t i = 0; i < m->nslots; i++)
        if (m->slot[i]) {
            free(m->slot[i]->list.h);
            free(m->slot[i]);
        }
    free(m->slot);
    free(m);
    mem->step_memo = NULL;
}

static bool grid_within(const uint16_t *cand, const struct se_grid *g)
{
    for (int c = 0; c < SE_CELLS; c++)
        if (cand[c] & ~g->cand[c])
            return false;
    return true;
}

static void memo_entry_free(struct memo_store *m, struct nested_memo *e)
{
    m->bytes -= sizeof(*e) + sizeof(*e->list.h) * (size_t) e->list.cap;
    m->count--;
    free(e->list.h);
    free(e);
}

/* Keeps the entries of m whose grid lies within g (a later step's search
 * stalls only on grids within its own), rehashed in place: the others are
 * freed. */
static void memo_keep_within(struct memo_store *m, const struct se_grid *g)
{
    struct nested_memo **kept = malloc(m->count * sizeof(*kept) + 1);
    size_t n = 0;
    for (size_t i = 0; i < m->nslots; i++) {
        struct nested_memo *e = m->slot[i];
        m->slot[i] = NULL;
        if (e && kept && grid_within(e->cand, g))
            kept[n++] = e;
        else if (e)
            memo_entry_free(m, e);
    }
    for (size_t i = 0; i < n; i++) {
        struct se_grid h;
        memcpy(h.cand, kept[i]->cand, sizeof(h.cand));
        *memo_find(m, &h, kept[i]->rule) = kept[i];
    }
    free(kept);
}

/* The memo of the nested searches from g (NULL without memory: no memo).
 * The nested hints of a stall grid depend on the search's start grid
 * (`src`) only through their rule parents, the candidates of src the stall
 * grid lacks, and the filters that leave out searches without such parents.
 * A later grid g within src has fewer of them: the hints that count from g
 * are those from src, with the same data, in the same order, and a hint
 * whose parents all lie outside g has none in a run from g (its runs hold
 * "off" potentials of g's candidates only), which nested_chains skips.
 * So levels 2 and 3 of later steps keep the memo (less the grids outside g)
 * while it stays under half its cap; level 4's nested dynamic chains start
 * their own. */
struct memo_store *se_memo_for(
    struct se_chains_memo *mem, const struct se_grid *g, int level)
{
    struct memo_store *m = mem->step_memo;
    if (m && level <= 3 && m->level <= 3 && m->bytes <= MEMO_BYTES / 2) {
        struct se_grid src;
        memcpy(src.cand, m->src, sizeof(src.cand));
        if (grid_within(g->cand, &src)) {
            if (memcmp(m->src, g->cand, sizeof(g->cand))) {
                memo_keep_within(m, g);
                memcpy(m->src, g->cand, sizeof(m->src));
            }
            return m;
        }
    }
    se_memo_drop(mem);
    m = malloc(sizeof(*m));
    if (!m)
        return NULL;
    memcpy(m->src, g->cand, sizeof(m->src));
    m->level = level;
    m->nslots = MEMO_SLOTS;
    m->count = 0;
    m->bytes = m->nslots * sizeof(*m->slot);
    m->slot = calloc(m->nslots, sizeof(*m->slot));
    if (!m->slot) {
        free(m);
        return NULL;
    }
    return mem->step_memo = m;
}

/* Adds the eliminations of the nested hints of g with their rule parents;
 * -1 when no hint has parents in the run. */
static int nested_chains(struct chain_ctx *x, const struct se_grid *g,
    const struct se_grid *src, const uint16_t (*places)[10], struct run *r, int *queue,
    int *tail, int rule)
{
    bool owned;
    struct nested_list list = nested_hints(x, g, src, places, rule, &owned);
    int found = 0;
    bool any = false;
    for (int i = 0; i < list.n; i++) {
        const struct nested_hint *h = &list.h[i];
        int plist[256], np = 0;
        /* candidates by cell, then digit (set bits: most cells have none) */
        for (int c = 0; c < SE_CELLS; c++)
            for (unsigned m = h->parents[c]; m; m &= m - 1)
                if (np < 256 && r->has[node_of(c, __builtin_ctz(m), 0)])
                    plist[np++] = node_of(c, __builtin_ctz(m), 0);
        if (np == 0)
            continue;
        any = true;
        for (int c = 0; c < SE_CELLS; c++)
            for (unsigned m = h->elim[c]; m; m &= m - 1) {
                int off = node_of(c, __builtin_ctz(m), 0);
                if (r->has[off])
                    continue;
                run_add(r, off, plist, np);
                run_key(r, off, h->key, h->complexity);
                queue[(*tail)++] = off;
                found++;
            }
    }
    if (owned)
        free(list.h);
    return any ? found : -1;
}

/* ---- a whole run ---- */

/* The rules of x's level that a stalled run tries, from rule `first` on:
 * levels 1 to 3 the rules up to their own (RULE_PLUS, RULE_CYCLES,
 * RULE_MULTIPLE), level 4 RULE_PLUS then nested dynamic chains of level
 * nest_limit (SE's level 4 nests neither cycles nor multiple chains, which
 * the dynamic chains cover); each only when those before gave no hint with
 * parents (-1); returns what the last one tried gave. */
static int stall_rules(struct chain_ctx *x, int first, const struct se_grid *g,
    const struct se_grid *start, const region_places pos, const uint32_t *lost_in,
    struct plus_seen *seen, struct run *r, int *qoff, int *toff)
{
    int found = -1;
    const int last = x->level < 4 ? x->level : RULE_CYCLES;
    for (int i = first; found < 0 && i <= last; i++) {
        int rule = x->level < 4 || i == RULE_PLUS ? i : RULE_DYNAMIC + x->nest_limit;
        found = rule == RULE_PLUS
            ? advanced(g, start, pos, x->pos0, lost_in, seen, r, qoff, toff)
            : nested_chains(x, g, start, pos, r, qoff, toff, rule);
    }
    return found;
}

static bool absurd_off(struct run *r, int on_stored, int p, int off)
{
    r->absurd = true;
    r->abs_on = on_stored;
    r->abs_off = r->virt = off;
    int par = p;
    r->virt_poff = (uint16_t) arena_put(r, &par, 1);
    r->virt_pn = 1;
    r->virt_cause = 0;
    return true;
}

static bool absurd_on(struct run *r, const struct on_item *it, int off_stored)
{
    r->absurd = true;
    r->abs_off = off_stored;
    r->abs_on = r->virt = it->node;
    r->virt_poff = (uint16_t) arena_put(r, it->parents, it->np);
    r->virt_pn = (uint16_t) (r->narena - r->virt_poff);
    r->virt_cause = it->cause;
    return true;
}

/* Takes p's candidate out of a run's grid g, its places pos and lost_in
 * and fresh_in (by value, the regions where it lost a place). */
static inline void remove_candidate(
    struct se_grid *g, region_places pos, uint32_t *lost_in, uint32_t *fresh_in, int p)
{
    int c = node_cell(p), v = node_value(p);
    g->cand[c] &= (uint16_t) ~(1u << v);
    for (int t = 0; t < 3; t++)
        pos[se_cell_region[c][t]][v] &= (uint16_t) ~(1u << region_index(c, t));
    lost_in[v] |= cell_regions[c];
    fresh_in[v] |= cell_regions[c];
}

/* The "off" potentials that "on" p forces on g, a run's grid (on_to_off).
 * At level 0 they are those of the search's grid, made once per potential:
 * the run's grid differs from it (dynamic kinds) only by candidates whose
 * "off" potential the run holds, with no "on" one (a run that gets both
 * stops), and for those the run's loop does nothing (no contradiction, no
 * new potential); the others come in the same order. The "+" and nested
 * levels add "off" potentials from rules without that test: they ask g. */
const uint16_t *se_on_offs(struct chain_ctx *x, const struct se_grid *g,
    const region_places pos, int p, uint16_t *buf, int *n)
{
    int list[32];
    uint8_t causes[32];
    if (x->level == 0) {
        int slot = p >> 1;
        if (!x->on_n[slot]) {
            int k = on_to_off(x->grid, x->pos0, p, x->y_links, list, causes);
            for (int i = 0; i < k; i++)
                x->on_list[slot][i] = (uint16_t) list[i];
            x->on_n[slot] = (uint8_t) (k + 1);
        }
        *n = x->on_n[slot] - 1;
        return x->on_list[slot];
    }
    *n = on_to_off(g, pos, p, x->y_links, list, causes);
    for (int i = 0; i < *n; i++)
        buf[i] = (uint16_t) list[i];
    return buf;
}

/* ---- runs kept from one dynamic level for the next ----
 *
 * se_next_step tries the dynamic levels 0 to 3 in turn on the same grid,
 * and a level-k run from an assumption is the level-(k-1) run from it until
 * a stall where the rules of level k-1 all give no hint with parents (-1):
 * the rules before k give -1 again there (the same run and grid), and
 * level k goes on with its own rule. A run that ended otherwise (a
 * contradiction, or a rule that gave hints with parents but nothing new)
 * ends the same at level k. So each level keeps its runs' final states,
 * and the next restores them: an open one goes on from its stall with the
 * level's own rule, a final one is final. Kept compactly (a run is ~70 KB,
 * its used part a few KB), in the rater for one step. */
struct snap {
    bool open, absurd, keyed;
    int norder, narena, abs_on, abs_off, virt;
    uint16_t virt_poff, virt_pn;
    uint8_t virt_cause;
    /* nkey and ncx (when keyed), then poff, pn, order and arena, then
     * cause: norder entries each, arena narena */
    _Alignas(uint32_t) unsigned char data[];
};

#define SNAP_BYTES ((size_t) 32 << 20)

/* The runs of levels 0 and 1 also serve the next step's search of the same
 * level. Its grid g' is the grid g of the step before less the candidates
 * removed since (the set D; each step only removes), and a run that reads
 * nothing D changed is the same run on g' as on g (the same reads in the
 * same order give the same potentials, parents, order and end, and the
 * run's own removals are the same).
 * A level-0 run reads the grid at its potentials alone: an "on" potential
 * (c, v) reads c's candidates and v's places in c's regions (on_to_off), an
 * "off" one the same (off_to_on, and its parents: the candidates of c and
 * the places of v in those regions gone since the start). A level-1 run
 * reads those, and at each stall its "+" rules read, in the regions where
 * it took out a candidate (se_reduced's lost), every cell and every
 * digit's places (pairs, and locking's and X-wing's base regions), and for
 * each digit it took out a place of, that digit's places everywhere
 * (locking's crossing regions, X-wing's lines and its count of the digit's
 * placed cells, which a placement in D changes along with the digit's
 * places); its "off" potentials tell those regions and digits (the ones
 * it took out, and any it had not yet when it met a contradiction: more,
 * never less). D changes a cell's candidates where it removed one, and the
 * places of v in the regions of each (d, v) it removed: a run whose reads
 * meet neither (snap_stale) is taken from g's store (`earlier`), the
 * others are made again. */
struct snap_store {
    uint16_t grid[SE_CELLS]; /* the grid of the step */
    int level;
    size_t bytes;
    /* an earlier step's store of the same level: what D changed, as the
     * runs read it: the potentials of D's cells and, for each (d, v) of D,
     * v's in d's peers (`stale`); the digits of D, and the regions of its
     * cells */
    uint64_t stale[(NODES + 63) / 64];
    unsigned gone_digits;
    uint32_t gone_regions;
    struct snap *root[NODES]; /* by starting potential */
};

static size_t snap_size(const struct snap *s)
{
    const size_t n = (size_t) s->norder;
    return sizeof(struct snap) + n * (s->keyed ? 8 : 0) + n * 7 + (size_t) s->narena * 2;
}

void se_snap_store_free(struct snap_store *st)
{
    for (int i = 0; st && i < NODES; i++)
        free(st->root[i]);
    free(st);
}

static void snap_save(struct snap_store *st, int node, const struct run *r, bool open)
{
    const size_t n = (size_t) r->norder;
    const struct snap head
        = { .keyed = r->keyed, .norder = r->norder, .narena = r->narena };
    const size_t size = snap_size(&head);
    if (st->root[node] || st->bytes + size > SNAP_BYTES)
        return; /* started twice, or no room: the next level makes it again */
    struct snap *s = malloc(size);
    if (!s)
        return;
    *s = (struct snap) { open, r->absurd, r->keyed, r->norder, r->narena, r->abs_on,
        r->abs_off, r->virt, r->virt_poff, r->virt_pn, r->virt_cause };
    uint32_t *nkey = (uint32_t *) (void *) s->data;
    int32_t *ncx = (int32_t *) (void *) (nkey + (r->keyed ? n : 0));
    uint16_t *poff = (uint16_t *) (void *) (ncx + (r->keyed ? n : 0));
    uint16_t *pn = poff + n, *order = pn + n, *arena = order + n;
    uint8_t *cause = (uint8_t *) (arena + r->narena);
    for (size_t i = 0; i < n; i++) {
        int p = r->order[i];
        order[i] = (uint16_t) p;
        poff[i] = r->ref[p].poff;
        pn[i] = r->ref[p].pn;
        cause[i] = r->ref[p].cause;
        if (r->keyed)
            nkey[i] = r->nkey[p], ncx[i] = r->ncx[p];
    }
    memcpy(arena, r->arena, (size_t) r->narena * sizeof(*arena));
    st->root[node] = s;
    st->bytes += size;
}

/* Whether the run of an earlier step's snap s read something that the
 * removals since changed (see struct snap_store): a stale potential, or at
 * level 1 an "off" one of a digit of D or in a region of a cell of D. */
static bool snap_stale(const struct snap_store *st, const struct snap *s)
{
    const uint16_t *order
        = (const uint16_t *) (const void *) s->data + (s->keyed ? 6 : 2) * s->norder;
    for (int i = 0; i < s->norder; i++) {
        const int p = order[i];
        if ((st->stale[p >> 6] >> (p & 63)) & 1)
            return true;
        if (st->level == 1 && !node_on(p)
            && (((st->gone_digits >> node_value(p)) & 1)
                || (cell_regions[node_cell(p)] & st->gone_regions)))
            return true;
    }
    return false;
}

/* Moves the snap of `node` from an earlier step's store to this search's:
 * the same run (see struct snap_store), so the same bytes. */
static void snap_move(struct snap_store *from, struct snap_store *to, int node)
{
    struct snap *s = from->root[node];
    const size_t size = snap_size(s);
    if (to->root[node] || to->bytes + size > SNAP_BYTES)
        return;
    from->root[node] = NULL;
    from->bytes -= size;
    to->root[node] = s;
    to->bytes += size;
}

static void snap_restore(struct run *r, const struct snap *s)
{
    const size_t n = (size_t) s->norder;
    const uint32_t *nkey = (const uint32_t *) (const void *) s->data;
    const int32_t *ncx = (const int32_t *) (const void *) (nkey + (s->keyed ? n : 0));
    const uint16_t *poff = (const uint16_t *) (const void *) (ncx + (s->keyed ? n : 0));
    const uint16_t *pn = poff + n, *order = pn + n, *arena = order + n;
    const uint8_t *cause = (const uint8_t *) (arena + s->narena);
    memset(r->has, 0, sizeof(r->has));
    for (size_t i = 0; i < n; i++) {
        int p = order[i];
        r->has[p] = 1;
        r->order[i] = (uint16_t) p;
        r->ref[p].poff = poff[i];
        r->ref[p].pn = pn[i];
        r->ref[p].cause = cause[i];
        if (s->keyed)
            r->nkey[p] = nkey[i], r->ncx[p] = ncx[i];
    }
    memcpy(r->arena, arena, (size_t) s->narena * sizeof(*arena));
    r->norder = s->norder;
    r->narena = s->narena;
    r->keyed = s->keyed;
    r->absurd = s->absurd;
    r->abs_on = s->abs_on;
    r->abs_off = s->abs_off;
    r->virt = s->virt;
    r->virt_poff = s->virt_poff;
    r->virt_pn = s->virt_pn;
    r->virt_cause = s->virt_cause;
}

/* The grid where the dynamic run r stalled: the start less the run's "off"
 * potentials (each is taken out when its turn comes, and at a stall every
 * one has had its turn). */
static void stall_grid(const struct run *r, struct se_grid *g, region_places pos,
    uint32_t *lost_in, uint32_t *fresh_in)
{
    for (int i = 0; i < r->norder; i++)
        if (!node_on(r->order[i]))
            remove_candidate(g, pos, lost_in, fresh_in, r->order[i]);
}

/* An earlier step's store with grid `was` for the search of g, with what
 * the removals since changed, or NULL (g does not lie within `was`). */
static struct snap_store *snaps_earlier(struct snap_store *was, const struct se_grid *g)
{
    if (!was)
        return NULL;
    struct se_grid old;
    memcpy(old.cand, was->grid, sizeof(old.cand));
    if (!grid_within(g->cand, &old)) {
        se_snap_store_free(was);
        return NULL;
    }
    memset(was->stale, 0, sizeof(was->stale));
    was->gone_digits = was->gone_regions = 0;
    for (int d = 0; d < SE_CELLS; d++) {
        const unsigned gone = was->grid[d] & ~g->cand[d] & SE_ALL;
        if (!gone)
            continue;
        was->gone_digits |= gone;
        was->gone_regions |= cell_regions[d];
        for (int v = 1; v <= 9; v++) {
            const int on = node_of(d, v, 1); /* "off" is on - 1, in the same word */
            was->stale[on >> 6] |= 3ull << ((on - 1) & 63);
            if (!((gone >> v) & 1))
                continue;
            for (int i = 0; i < 20; i++) {
                const int p = node_of(se_peer[d][i], v, 1);
                was->stale[p >> 6] |= 3ull << ((p - 1) & 63);
            }
        }
    }
    return was;
}

/* A dynamic search of `level` on g: the runs of level - 1 on g to go on
 * from, those of an earlier step's search of the same level (levels 0 and
 * 1, see struct snap_store), and a store for this level's (none for level
 * 3, the last). The stores of levels 0 and 1 stay in the rater for the
 * next level and the next step. */
void se_snaps_begin(struct chain_ctx *x, const struct se_grid *g, int level)
{
    struct se_chains_memo *const mem = x->rt->chains;
    struct snap_store **const kept = level == 0 ? &mem->snap_level0
        : level == 1                            ? &mem->snap_level1
                                                : NULL;
    if (kept) {
        x->earlier = snaps_earlier(*kept, g);
        *kept = NULL;
    }
    struct snap_store *const before = level == 1 ? mem->snap_level0
        : level == 2                             ? mem->snap_level1
                                                 : mem->snap_last;
    if (level > 0 && before && before->level == level - 1
        && !memcmp(before->grid, g->cand, sizeof(g->cand)))
        x->resume = before;
    if (mem->snap_last != x->resume)
        se_snap_store_free(mem->snap_last);
    mem->snap_last = NULL;
    if (level < 3 && (x->save = calloc(1, sizeof(*x->save)))) {
        memcpy(x->save->grid, g->cand, sizeof(x->save->grid));
        x->save->level = level;
    }
}

void se_snaps_end(struct chain_ctx *x)
{
    struct se_chains_memo *const mem = x->rt->chains;
    if (x->resume != mem->snap_level0 && x->resume != mem->snap_level1)
        se_snap_store_free(x->resume);
    se_snap_store_free(x->earlier);
    x->resume = x->earlier = NULL;
    struct snap_store **const to = x->level == 0 ? &mem->snap_level0
        : x->level == 1                          ? &mem->snap_level1
                                                 : &mem->snap_last;
    se_snap_store_free(*to);
    *to = x->save;
    x->save = NULL;
}

/* Completes run r (its starting potentials already added) on g; stops at a
 * contradiction. */
static void do_chaining(struct chain_ctx *x, const struct se_grid *start, struct run *r)
{
    struct se_grid g = *start;
    region_places pos;
    if (!x->have_pos0) {
        places_of(start, x->pos0);
        x->have_pos0 = true;
    }
    memcpy(pos, x->pos0, sizeof(pos));
    uint32_t lost_in[10] = { 0 };
    int qon[NODES], qoff[NODES]; /* not static: nested rules run chains too */
    int hon = 0, ton = 0, hoff = 0, toff = 0;
    int first_rule = x->resume_rule ? x->resume_rule : 1;
    x->run_end = -1;
    struct plus_seen seen = { { 0 }, 0 };
    if (x->resume_rule) { /* r stalled there: its queues are empty */
        stall_grid(r, &g, pos, lost_in, seen.fresh_in);
        /* the level before gave no hint with parents there, from every
         * rule up to its own: all the "+" ones, when it had them */
        memset(seen.fresh_in, 0, sizeof(seen.fresh_in));
        seen.rules = first_rule > RULE_PLUS ? 4 : 0;
    }
    for (int i = 0; !x->resume_rule && i < r->norder; i++) {
        int n = r->order[i];
        if (node_on(n))
            qon[ton++] = n;
        else
            qoff[toff++] = n;
    }
    x->resume_rule = 0;
    uint16_t buf[32];
    struct on_item items[4];
    /* the clock once a run and before each nested round, not once a
     * potential (a potential costs little more than reading it): a run without rules
     * takes microseconds, and the nested searches check for themselves */
    if (se_out_of_time(x->rt))
        return;
    for (;;) {
        if (hon < ton) {
            int p = qon[hon++], n;
            const uint16_t *list = se_on_offs(x, &g, pos, p, buf, &n);
            for (int i = 0; i < n; i++) {
                if (r->has[list[i] | 1] && absurd_off(r, list[i] | 1, p, list[i]))
                    return;
                if (!r->has[list[i]]) {
                    run_add(r, list[i], &p, 1);
                    qoff[toff++] = list[i];
                }
            }
            continue;
        }
        if (hoff < toff) {
            int p = qoff[hoff++];
            int n = off_to_on(&g, start, pos, x->pos0, p, x->y_links, true, items);
            if (x->dynamic)
                remove_candidate(&g, pos, lost_in, seen.fresh_in, p);
            for (int i = 0; i < n; i++) {
                int off = items[i].node & ~1;
                if (r->has[off] && absurd_on(r, &items[i], off))
                    return;
                if (!r->has[items[i].node]) {
                    run_add(r, items[i].node, items[i].parents, items[i].np);
                    r->ref[items[i].node].cause = items[i].cause;
                    qon[ton++] = items[i].node;
                }
            }
            continue;
        }
        int found = -1; /* level 0 has no rules: the next level's first applies */
        if (x->level > 0) {
            if (se_out_of_time(x->rt))
                return;
            found = stall_rules(
                x, first_rule, &g, start, pos, lost_in, &seen, r, qoff, &toff);
            first_rule = 1;
            if (found > 0)
                continue;
        }
        x->run_end = found < 0;
        break;
    }
}

void se_start_run(struct chain_ctx *x, struct run *r, int node)
{
    struct snap_store *const e = x->earlier;
    if (e && e->root[node] && !snap_stale(e, e->root[node])) {
        const struct snap *s = e->root[node];
        /* as do_chaining ended it: open at its stall, final, or late (-1)
         * with a contradiction */
        snap_restore(r, s);
        x->run_end = s->open ? 1 : s->absurd ? -1 : 0;
        if (x->save)
            snap_move(e, x->save, node);
        return;
    }
    const struct snap *was = x->resume ? x->resume->root[node] : NULL;
    if (was) {
        snap_restore(r, was);
        if (was->open) {
            x->resume_rule = x->level;
            do_chaining(x, x->grid, r);
        } else
            x->run_end = 0;
    } else {
        run_reset(r);
        run_add(r, node, NULL, 0);
        do_chaining(x, x->grid, r);
    }
    if (x->save && (x->run_end >= 0 || r->absurd))
        snap_save(x->save, node, r, x->run_end > 0 && !r->absurd);
}

/* A run from the rater's spares (see SPARE_RUNS), else a new one. */
struct run *se_run_alloc(struct se_chains_memo *m)
{
    if (m->nspare_runs)
        return m->spare_runs[--m->nspare_runs];
    struct run *r = malloc(sizeof(struct run));
    if (r) {
        memset(r->has, 0, sizeof(r->has));
        r->norder = 0;
    }
    return r;
}

void se_run_free(struct se_chains_memo *m, struct run *r)
{
    if (r && m->nspare_runs < SPARE_RUNS)
        m->spare_runs[m->nspare_runs++] = r;
    else
        free(r);
}

/* The run of "v is in cell", made on first use (NULL without memory). */
struct run *se_on_run(struct chain_ctx *x, int cell, int v)
{
    struct run **slot = &x->on_runs[cell * 9 + v - 1];
    if (!*slot) {
        *slot = se_run_alloc(x->rt->chains);
        if (*slot)
            se_start_run(x, *slot, node_of(cell, v, 1));
    }
    return *slot;
}

/* ---- strongly connected components (both kinds of filters) ---- */

/* Tarjan's depth-first search from `root` (not visited yet), without
 * recursion: every component it reaches is completed and popped, so the
 * stack is empty again at its end. `counter`: the visiting order so far. */
void se_tarjan_root(
    const struct tarjan *T, int root, int *counter, tarjan_pop_fn *pop, void *ctx)
{
    int depth = 0, top = 0;
    if (T->visit)
        T->visit(T->visit_ctx, root);
    T->frame[0] = (uint16_t) root;
    T->frame_edge[0] = T->first[root];
    T->index[root] = T->low[root] = (int16_t) (*counter)++;
    T->stack[top++] = (uint16_t) root;
    T->comp[root] = -1;
    while (depth >= 0) {
        int u = T->frame[depth];
        if (T->frame_edge[depth] < T->end[u]) {
            int w = T->to[T->frame_edge[depth]++];
            if (T->index[w] < 0) {
                if (T->visit)
                    T->visit(T->visit_ctx, w);
                T->index[w] = T->low[w] = (int16_t) (*counter)++;
                T->stack[top++] = (uint16_t) w;
                T->comp[w] = -1;
                T->frame[++depth] = (uint16_t) w;
                T->frame_edge[depth] = T->first[w];
            } else if (T->comp[w] < 0 && T->index[w] < T->low[u])
                T->low[u] = T->index[w];
            continue;
        }
        if (T->low[u] == T->index[u]) {
            int bottom = top;
            while (T->stack[--bottom] != u)
                ;
            pop(ctx, bottom, top);
            top = bottom;
        }
        if (--depth >= 0 && T->low[u] < T->low[T->frame[depth]])
            T->low[T->frame[depth]] = T->low[u];
    }
}

/* Tarjan's strongly connected components of the whole graph. */
void se_tarjan(const struct tarjan *T, tarjan_pop_fn *pop, void *ctx)
{
    int counter = 0;
    for (int i = 0; i < T->n; i++)
        T->index[i] = -1;
    for (int root = 0; root < T->n; root++)
        if (T->index[root] < 0)
            se_tarjan_root(T, root, &counter, pop, ctx);
}
