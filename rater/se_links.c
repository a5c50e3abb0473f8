/* Sudoku Explainer's strong-link patterns beyond two plain links: grouped
 * turbot fish (links that join groups of a box) and chains of three and four
 * strong links of one value (SE's StrongLinks(3), (4)). */
#include <stdlib.h>
#include <string.h>

#include "rater/se_internal.h"
#include "rater/se_view.h"

/* ---- grouped strong links (SE: "Grouped Skyscraper", "Grouped 2-String
 * Kite", empty rectangles): a link's end may be the copies of v in one
 * box-line intersection. ---- */

struct glink {
    uint8_t a[9], b[9];
    int na, nb;
};

static void glink_add(struct glink *l, bool to_b, int cell)
{
    if (to_b)
        l->b[l->nb++] = (uint8_t) cell;
    else
        l->a[l->na++] = (uint8_t) cell;
}

/* SE's StrongLinks in a box, by configuration: 0-8 a heart (its column
 * arm, then its row arm), 9-14 two rows or two columns (only with four places
 * or more); the places must avoid the configuration's empty cells, and the
 * first configuration that does decides (SE stops there). */
static const uint16_t box_empty[15] = { 0x1B0, 0x168, 0xD8, 0x186, 0x145, 0xC3, 0x36,
    0x2D, 0x1B, 0x1C0, 0x38, 0x7, 0x124, 0x92, 0x49 };
static const uint16_t box_arm[15][2] = { { 0x48, 0x6 }, { 0x90, 0x5 }, { 0x120, 0x3 },
    { 0x41, 0x30 }, { 0x82, 0x28 }, { 0x104, 0x18 }, { 0x9, 0x180 }, { 0x12, 0x140 },
    { 0x24, 0xC0 }, { 0x7, 0x38 }, { 0x7, 0x1C0 }, { 0x38, 0x1C0 }, { 0x49, 0x92 },
    { 0x49, 0x124 }, { 0x92, 0x124 } };

/* Its one link: an arm of one place links to the heart with the other arm;
 * a heart that holds v joins each arm of two places (both ends then share
 * it, which keeps the link strong). */
static int box_links(int r, unsigned m, struct glink *out)
{
    const int n = se_popcount(m);
    for (int e = 0; e < 15; e++) {
        if ((e > 8 && n < 4) || (m & box_empty[e]))
            continue;
        const unsigned arm[2] = { m & box_arm[e][0], m & box_arm[e][1] };
        if (!arm[0] || !arm[1])
            return 0;
        struct glink *l = &out[0];
        l->na = l->nb = 0;
        const int single
            = se_popcount(arm[0]) == 1 ? 0 : (se_popcount(arm[1]) == 1 ? 1 : -1);
        if (single >= 0) {
            if (e > 8)
                return 0; /* SE has no heart there */
            glink_add(l, false, se_region_cell[r][__builtin_ctz(arm[single])]);
            /* both single, v in the heart too: SE links the two cells, which
             * is no strong link (its removals can be wrong); left out, and no
             * serate rating checked here needed it */
            if (se_popcount(arm[1 - single]) == 1)
                return 0;
            glink_add(l, true, se_region_cell[r][e]);
            for (unsigned o = arm[1 - single]; o; o &= o - 1)
                glink_add(l, true, se_region_cell[r][__builtin_ctz(o)]);
            return 1;
        }
        for (int k = 0; k < 2; k++) {
            for (unsigned o = arm[k]; o; o &= o - 1)
                glink_add(l, k, se_region_cell[r][__builtin_ctz(o)]);
            if (e < 9 && (m & (1u << e)) && se_popcount(arm[k]) == 2)
                glink_add(l, k, se_region_cell[r][e]);
        }
        return 1;
    }
    return 0;
}

/* The ends of v in region r when its copies fall in exactly two groups:
 * two box segments of a line, or in a box as box_links says. */
static int grouped_links(int r, unsigned m, struct glink *out)
{
    int n = se_size_of[m], count = 0;
    if (n < 3 || n > 6)
        return 0;
    if (r >= 9) {
        unsigned seg[3] = { m & 7u, m & 0x38u, m & 0x1C0u };
        for (int e = 0; e < 3; e++) {
            int s1 = (e + 1) % 3, s2 = (e + 2) % 3;
            if (seg[e] || !seg[s1] || !seg[s2])
                continue;
            struct glink *l = &out[count++];
            l->na = l->nb = 0;
            for (int i = 0; i < 9; i++) {
                if (seg[s1 < s2 ? s1 : s2] & (1u << i))
                    l->a[l->na++] = se_region_cell[r][i];
                if (seg[s1 < s2 ? s2 : s1] & (1u << i))
                    l->b[l->nb++] = se_region_cell[r][i];
            }
        }
        return count;
    }
    return box_links(r, m, out);
}

static int all_links(int r, unsigned m, struct glink *out)
{
    int a, b;
    if (strong_link(r, m, &a, &b)) {
        out[0].a[0] = (uint8_t) a, out[0].b[0] = (uint8_t) b;
        out[0].na = out[0].nb = 1;
        return 1;
    }
    return grouped_links(r, m, out);
}

/* The turbot fish's grouped links in box r (SE's TurbotFish): v's places m
 * (3 to 5 of them) must avoid the four cells off the row and column of a
 * heart, the first such heart in box order, and leave places on both arms.
 * An arm with one place links to the other arm with the heart (whether the
 * heart holds v or not); otherwise arm links to arm. */
static int turbot_box_links(int r, unsigned m, struct glink *out)
{
    for (int heart = 0; heart < 9; heart++) {
        unsigned row = 0, col = 0;
        for (int i = 0; i < 9; i++) {
            if (i / 3 == heart / 3 && i != heart)
                row |= 1u << i;
            if (i % 3 == heart % 3 && i != heart)
                col |= 1u << i;
        }
        if (m & ~(row | col | 1u << heart))
            continue;
        const unsigned arm[2] = { m & row, m & col };
        if (!arm[0] || !arm[1])
            return 0;
        int count = 0;
        for (int k = 0; k < 2; k++) {
            if (se_popcount(arm[k]) != 1)
                continue;
            struct glink *l = &out[count++];
            l->na = l->nb = 0;
            glink_add(l, false, se_region_cell[r][__builtin_ctz(arm[k])]);
            glink_add(l, true, se_region_cell[r][heart]);
            for (unsigned o = arm[1 - k]; o; o &= o - 1)
                glink_add(l, true, se_region_cell[r][__builtin_ctz(o)]);
        }
        if (count)
            return count;
        out[0].na = out[0].nb = 0;
        for (int k = 0; k < 2; k++)
            for (unsigned o = arm[k]; o; o &= o - 1)
                glink_add(&out[0], k, se_region_cell[r][__builtin_ctz(o)]);
        return 1;
    }
    return 0;
}

/* The links the turbot fish pairs: SE's rule for boxes differs from the
 * strong-link chains' (grouped_links). */
static int turbot_links(int r, unsigned m, struct glink *out)
{
    const int n = se_size_of[m];
    if (r < 9 && n >= 3 && n <= 5)
        return turbot_box_links(r, m, out);
    return all_links(r, m, out);
}

/* A link with its ends as sets and the cells that see a whole end. */
struct link_ref {
    int region;
    struct glink l;
    struct cellset cells, end[2], seen[2]; /* end[0] = a, end[1] = b */
};

static void link_sets(struct link_ref *r)
{
    const uint8_t *ends[2] = { r->l.a, r->l.b };
    const int n[2] = { r->l.na, r->l.nb };
    memset(&r->cells, 0, sizeof(r->cells));
    for (int e = 0; e < 2; e++) {
        memset(&r->end[e], 0, sizeof(r->end[e]));
        r->seen[e] = (struct cellset) { { ~0ull, (1ull << (SE_CELLS - 64)) - 1 } };
        for (int i = 0; i < n[e]; i++) {
            set_add(&r->end[e], ends[e][i]);
            set_add(&r->cells, ends[e][i]);
            r->seen[e].w[0] &= se_peer_set[ends[e][i]][0];
            r->seen[e].w[1] &= se_peer_set[ends[e][i]][1];
        }
    }
}

/* a1 = b1 - a2 = b2 (b1 sees all of a2): v goes from the cells that see all
 * of a1 and b2. As cell sets, a pair of links costs a few masks instead of
 * a test cell by cell; the same hints. */
static bool grouped_pair(int v, const struct cellset *vcells, const struct link_ref *l1,
    int o1, const struct link_ref *l2, int o2, struct se_step *s)
{
    const struct cellset *b1 = &l1->end[1 - o1];
    const struct cellset *a1 = &l1->seen[o1], *a2 = &l2->seen[o2],
                         *b2 = &l2->seen[1 - o2];
    if (sets_meet(b1, &l2->cells) || !set_within(b1, a2))
        return false;
    uint64_t elim[2];
    for (int w = 0; w < 2; w++)
        elim[w] = vcells->w[w] & a1->w[w] & b2->w[w] & ~l1->cells.w[w] & ~l2->cells.w[w];
    if (!elim[0] && !elim[1])
        return false;
    se_step_clear(s, SE_turbot_fish, 43);
    for (int w = 0; w < 2; w++)
        for (uint64_t m = elim[w]; m; m &= m - 1)
            s->elim[w * 64 + __builtin_ctzll(m)] = (uint16_t) (1u << v);
    s->digits = (uint16_t) (1u << v);
    return true;
}

/* Each region's links of v are found once per value, not once per pair of
 * regions (every pair would find them again); the pairs are met in the
 * same order, each in both orientations of both links. */
/* The searches of one value below (grouped turbots, strong-link chains)
 * read that value's cells alone. Per rater and search, the cells of each
 * value on which it found nothing: the same cells give nothing again, and
 * between two calls the rater's steps change the cells of a few values
 * only. A memo is never wrong, only overwritten. */
struct value_memo {
    struct cellset cells[10];
    bool empty[10];
};

static bool memo_empty(const struct value_memo *m, int v, const struct cellset *cells)
{
    return m->empty[v] && m->cells[v].w[0] == cells->w[0]
        && m->cells[v].w[1] == cells->w[1];
}

static void memo_set(struct value_memo *m, int v, const struct cellset *cells, bool empty)
{
    m->cells[v] = *cells;
    m->empty[v] = empty;
}

static struct value_memo *grouped_memo_of(struct se_rater *rt);

/* The regions where v's places may differ from a memo's grid where the
 * search found nothing, when v's cells are among those it had then: the
 * regions of the cells v lost (all regions otherwise). A link reads only
 * v's places in its region, so a pattern of links of other regions was
 * one there, now seeing fewer cells with v: it removes nothing. */
static uint32_t value_fresh(
    const struct value_memo *m, int v, const struct cellset *cells)
{
    if (!m->empty[v] || (cells->w[0] & ~m->cells[v].w[0])
        || (cells->w[1] & ~m->cells[v].w[1]))
        return ~0u;
    return lost_regions(m->cells[v].w, cells);
}

bool se_grouped_turbot(struct se_rater *rt, const struct se_grid *g, struct se_step *s)
{
    struct value_memo *const grouped_memo = grouped_memo_of(rt);
    struct link_ref links[27][9];
    int n[27];
    const struct grid_view *gv = se_grid_view_of(rt, g);
    for (int v = 1; v <= 9; v++) {
        const struct cellset vcells = gv->vcells[v];
        if (memo_empty(grouped_memo, v, &vcells))
            continue;
        /* a pair of regions needs one of these (see value_fresh) */
        const uint32_t fresh = value_fresh(grouped_memo, v, &vcells);
        /* the regions with links, and those with a grouped one, as bits:
         * a pair of regions is visited (in region order) only when one of
         * its links is grouped */
        uint32_t linked = 0, grouped = 0;
        for (int r = 0; r < 27; r++) {
            struct glink ls[9];
            n[r] = turbot_links(r, gv->at[r][v], ls);
            for (int i = 0; i < n[r]; i++) {
                links[r][i] = (struct link_ref) { .region = r, .l = ls[i] };
                link_sets(&links[r][i]);
                linked |= 1u << r;
                if (ls[i].na + ls[i].nb > 2)
                    grouped |= 1u << r;
            }
        }
        for (uint32_t m1 = linked; m1; m1 &= m1 - 1) {
            const int r1 = __builtin_ctz(m1);
            const uint32_t later = ((grouped >> r1) & 1 ? linked : grouped)
                & ~((2u << r1) - 1) & ((fresh >> r1) & 1 ? ~0u : fresh);
            for (uint32_t m2 = later; m2; m2 &= m2 - 1) {
                const int r2 = __builtin_ctz(m2);
                for (int i = 0; i < n[r1]; i++)
                    for (int j = 0; j < n[r2]; j++) {
                        const struct link_ref *l1 = &links[r1][i], *l2 = &links[r2][j];
                        if (l1->l.na + l1->l.nb + l2->l.na + l2->l.nb <= 4)
                            continue; /* two plain links: a turbot fish */
                        for (int o = 0; o < 4; o++)
                            if (grouped_pair(v, &vcells, l1, o >> 1, l2, o & 1, s))
                                return true;
                    }
            }
        }
        memo_set(grouped_memo, v, &vcells, true);
    }
    return false;
}

/* ---- three and four strong links (SE's StrongLinks(3), (4)) ---- */

/* A link's kind for the rating's suffix (links_rating). */
enum { LINK_BOX = 1, LINK_ROW = 2, LINK_COL = 4, LINK_GROUPED = 8 };

/* A value's links and what follows them: they read only the value's cells,
 * and se_strong_links(3) and (4) run on the same grid at most steps, so they
 * are kept per rater and value while its cells are the same. A region has
 * one link at most (a line's copies fall in two box segments one way at
 * most, and box_links gives one): 27 of them. */
struct value_links {
    bool valid;
    struct cellset cells; /* the value's cells they were made from */
    struct link_ref links[27];
    uint8_t kind[27]; /* by link: LINK_* */
    int nlinks;
    /* by link and end: the links whose entering end (k << 1 | flip) the
     * cells seeing that whole end hold, in (k, flip) order; made on first
     * use (nnext 0xFF before) */
    uint8_t next[27][2][54];
    uint8_t nnext[27][2];
    /* with each list: the cells that see the whole leaving end of one of
     * its links, as a chain's last link would leave it */
    struct cellset reach[27][2];
    /* the same two links ahead: the union of the reaches of the list's
     * links (made on first use: has_reach2, by link and end) */
    struct cellset reach2[27][2];
    uint8_t has_reach2[27][2];
};

/* What this file keeps between calls of one rater (struct se_rater). */
struct se_links_memo {
    struct value_memo grouped_memo, links_memo[5];
    struct value_links value_links[10];
};

struct se_links_memo *se_links_memo_new(void)
{
    return calloc(1, sizeof(struct se_links_memo));
}

void se_links_memo_free(struct se_links_memo *m)
{
    free(m);
}

static struct value_memo *grouped_memo_of(struct se_rater *rt)
{
    return &rt->links->grouped_memo;
}

struct chain_search {
    const struct se_grid *g;
    int v, n;
    struct value_links *vl; /* v's */
    struct cellset vcells; /* the cells with v */
    struct cellset target; /* v's cells seeing the chain's entering end */
    int pick[4];
    bool flip[4];
    struct cellset used[5]; /* cells of the links picked before each depth */
    uint32_t regions[5]; /* and their regions */
    uint8_t kinds[5]; /* and their kinds */
    struct se_step best;
    bool have;
};

/* The end of picked link i where the chain enters it (0) or leaves it (1). */
static int end_of(const struct chain_search *c, int i, int leaving)
{
    return c->flip[i] ? !leaving : leaving;
}

/* SE's suffix rule: +0.3 with a grouped link, else +0.1 for a box link or
 * for lines of both kinds, +0.2 for both. It only grows as links join, so
 * that a partial chain's bounds its completions'. */
static int links_rating(const struct chain_search *c, unsigned kinds)
{
    static const int base[5] = { 0, 0, 40, 54, 58 };
    if (kinds & LINK_GROUPED)
        return base[c->n] + 3;
    return base[c->n] + ((kinds & LINK_BOX) ? 1 : 0)
        + ((kinds & LINK_ROW) && (kinds & LINK_COL) ? 1 : 0);
}

static void links_conclude(struct chain_search *c)
{
    const struct link_ref *last = &c->vl->links[c->pick[c->n - 1]];
    const struct cellset *b = &last->seen[end_of(c, c->n - 1, 1)];
    uint64_t elim[2];
    for (int w = 0; w < 2; w++)
        elim[w] = c->target.w[w] & b->w[w] & ~c->used[c->n].w[w];
    if (!elim[0] && !elim[1])
        return;
    struct se_step s;
    se_step_clear(&s, SE_turbot_fish, links_rating(c, c->kinds[c->n]));
    for (int w = 0; w < 2; w++)
        for (uint64_t m = elim[w]; m; m &= m - 1)
            s.elim[w * 64 + __builtin_ctzll(m)] = (uint16_t) (1u << c->v);
    s.digits = (uint16_t) (1u << c->v);
    if (!c->have || s.rating < c->best.rating) {
        c->best = s;
        c->have = true;
    }
}

/* The links that can follow link k left by its end e (see next). */
static void links_next(struct chain_search *c, int k, int e)
{
    struct value_links *vl = c->vl;
    struct cellset reach = { { 0, 0 } };
    int n = 0;
    for (int k2 = 0; k2 < vl->nlinks; k2++)
        for (int f = 0; f < 2; f++)
            if (set_within(&vl->links[k2].end[f], &vl->links[k].seen[e])) {
                vl->next[k][e][n++] = (uint8_t) (k2 << 1 | f);
                reach.w[0] |= vl->links[k2].seen[1 - f].w[0];
                reach.w[1] |= vl->links[k2].seen[1 - f].w[1];
            }
    vl->nnext[k][e] = (uint8_t) n;
    vl->reach[k][e] = reach;
}

/* Whether a chain whose link before last is link k, left by its end e,
 * may still remove a cell: its removals see the last link's leaving end,
 * hence lie in the list's reach (and in the target, outside the chain);
 * with `two` links left, in the reach of one of the list's links. */
static bool links_may_end(
    struct chain_search *c, int k, int e, bool two, const struct cellset *used)
{
    struct value_links *vl = c->vl;
    if (vl->nnext[k][e] == 0xFF)
        links_next(c, k, e);
    const struct cellset *r = &vl->reach[k][e];
    if (two) {
        if (!vl->has_reach2[k][e]) {
            struct cellset u = { { 0, 0 } };
            for (int i = 0; i < vl->nnext[k][e]; i++) {
                const int k2 = vl->next[k][e][i] >> 1, e2 = !(vl->next[k][e][i] & 1);
                if (vl->nnext[k2][e2] == 0xFF)
                    links_next(c, k2, e2);
                u.w[0] |= vl->reach[k2][e2].w[0];
                u.w[1] |= vl->reach[k2][e2].w[1];
            }
            vl->reach2[k][e] = u;
            vl->has_reach2[k][e] = 1;
        }
        r = &vl->reach2[k][e];
    }
    return (c->target.w[0] & r->w[0] & ~used->w[0])
        || (c->target.w[1] & r->w[1] & ~used->w[1]);
}

/* Every chain of c->n links in pick order, each link's entering end seen
 * whole by the previous link's leaving end, no region or cell twice. Only
 * the links that can follow the previous one are tried (a list per link
 * end), and a partial chain stops when no cell with v that sees its
 * entering end is left outside it, or when its rating cannot beat the best
 * one found: the same best hint, a few times faster.
 *
 * A chain read backwards (links in reverse order, each entered by its other
 * end) is a chain too, with the same regions, cells, rating and removals:
 * "the cells of one end all see the cells of the other" is symmetric. Pick
 * order is the order of the (link, end) sequences, and the two readings
 * differ at their first link, so the one starting with the lower link is
 * met first; the later one cannot replace it (a replacement rates lower).
 * So only chains whose last link comes after their first are completed:
 * the same best hint, with about half the chains concluded. */
static void links_extend(struct chain_search *c, int depth)
{
    /* the bound also tells gcc -O3 that pick[depth] stays in range */
    if (depth == c->n || depth >= (int) (sizeof(c->pick) / sizeof(c->pick[0]))) {
        links_conclude(c);
        return;
    }
    const uint8_t *list = NULL;
    int count = c->vl->nlinks * 2;
    if (depth > 0) {
        const int prev = c->pick[depth - 1], e = end_of(c, depth - 1, 1);
        if (c->vl->nnext[prev][e] == 0xFF)
            links_next(c, prev, e);
        list = c->vl->next[prev][e];
        count = c->vl->nnext[prev][e];
    }
    int i = 0;
    /* the last link comes after the first (the lists are in link order) */
    while (depth == c->n - 1 && i < count && (list[i] >> 1) < c->pick[0])
        i++;
    for (; i < count; i++) {
        const int kf = list ? list[i] : i, k = kf >> 1;
        const struct link_ref *l = &c->vl->links[k];
        const unsigned kinds = c->kinds[depth] | c->vl->kind[k];
        if ((c->regions[depth] & (1u << l->region))
            || sets_meet(&l->cells, &c->used[depth])
            || (c->have && links_rating(c, kinds) >= c->best.rating))
            continue;
        c->pick[depth] = k;
        c->flip[depth] = kf & 1;
        c->regions[depth + 1] = c->regions[depth] | 1u << l->region;
        c->kinds[depth + 1] = (uint8_t) kinds;
        for (int w = 0; w < 2; w++) {
            c->used[depth + 1].w[w] = c->used[depth].w[w] | l->cells.w[w];
            if (depth == 0)
                c->target.w[w] = c->vcells.w[w] & l->seen[kf & 1].w[w];
        }
        if (depth >= c->n - 3
                ? links_may_end(c, k, !(kf & 1), depth == c->n - 3, &c->used[depth + 1])
                : (c->target.w[0] & ~c->used[depth + 1].w[0])
                    || (c->target.w[1] & ~c->used[depth + 1].w[1]))
            links_extend(c, depth + 1);
    }
}

static uint8_t link_kind(const struct link_ref *r)
{
    return (uint8_t) ((r->region < 9           ? LINK_BOX
                              : r->region < 18 ? LINK_ROW
                                               : LINK_COL)
        | (r->l.na + r->l.nb > 2 ? LINK_GROUPED : 0));
}

static struct value_links *value_links_of(
    struct se_rater *rt, int v, const struct cellset *cells, const struct grid_view *gv)
{
    struct value_links *vl = &rt->links->value_links[v];
    if (vl->valid && vl->cells.w[0] == cells->w[0] && vl->cells.w[1] == cells->w[1])
        return vl;
    vl->valid = true;
    vl->cells = *cells;
    vl->nlinks = 0;
    for (int r = 0; r < 27; r++) {
        struct glink ls[9];
        const int k = all_links(r, gv->at[r][v], ls);
        for (int i = 0; i < k && vl->nlinks < 27; i++) {
            struct link_ref *l = &vl->links[vl->nlinks];
            *l = (struct link_ref) { .region = r, .l = ls[i] };
            link_sets(l);
            vl->kind[vl->nlinks] = link_kind(l);
            vl->nnext[vl->nlinks][0] = vl->nnext[vl->nlinks][1] = 0xFF;
            vl->has_reach2[vl->nlinks][0] = vl->has_reach2[vl->nlinks][1] = 0;
            vl->nlinks++;
        }
    }
    return vl;
}

bool se_strong_links(
    struct se_rater *rt, const struct se_grid *g, int n, struct se_step *s)
{
    struct value_memo *const links_memo = rt->links->links_memo;
    struct chain_search search, *c = &search;
    c->g = g;
    c->n = n;
    c->have = false;
    c->regions[0] = 0;
    c->kinds[0] = 0;
    c->used[0] = (struct cellset) { { 0, 0 } };
    const struct grid_view *gv = se_grid_view_of(rt, g);
    for (int v = 1; v <= 9; v++) {
        c->v = v;
        c->vcells = gv->vcells[v];
        if (memo_empty(&links_memo[n], v, &c->vcells))
            continue;
        /* once a chain is found, later values search only for better ones */
        const bool whole = !c->have;
        c->vl = value_links_of(rt, v, &c->vcells, gv);
        links_extend(c, 0);
        if (whole)
            memo_set(&links_memo[n], v, &c->vcells, !c->have);
    }
    if (c->have)
        *s = c->best;
    return c->have;
}
