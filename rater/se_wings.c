/* Sudoku Explainer's mid-range techniques: two strong links (skyscraper,
 * kite, turbot fish), XY- and XYZ-wings, unique rectangles (types 1, 2, 4)
 * and the bivalue universal grave (type 1). */
#include <stdlib.h>
#include <string.h>

#include "rater/se_internal.h"
#include "rater/se_view.h"

/* A grid on which a search found nothing (per rater and search): with it,
 * a later search on a grid g whose every cell has its candidates among the
 * memo's (as along a rating's path, where steps only remove candidates) may
 * pass over the patterns made only of unchanged cells, when such a pattern's
 * removals are among the cells with the value, which g has fewer of. On any
 * other grid (another puzzle, a hint) the search is whole. A memo is never
 * wrong, only replaced by the next grid with nothing. */
struct grid_memo {
    bool valid;
    uint16_t cand[SE_CELLS];
};

/* Whether g's candidates are, cell by cell, among the memo's (false without
 * a memo); `changed` gets the cells whose candidates differ. */
static bool memo_within(
    const struct grid_memo *m, const struct se_grid *g, struct cellset *changed)
{
    *changed = (struct cellset) { { 0, 0 } };
    if (!m->valid)
        return false;
    for (int c = 0; c < SE_CELLS; c++) {
        if (g->cand[c] & ~m->cand[c])
            return false;
        if (g->cand[c] != m->cand[c])
            set_add(changed, c);
    }
    return true;
}

static void memo_keep(struct grid_memo *m, const struct se_grid *g)
{
    m->valid = true;
    memcpy(m->cand, g->cand, sizeof(m->cand));
}

static struct grid_view *view_memo(struct se_rater *rt);

static struct grid_view *grid_view_make(struct se_rater *rt, const struct se_grid *g)
{
    struct grid_view *t = view_memo(rt);
    if (t->valid && !memcmp(t->cand, g->cand, sizeof(t->cand)))
        return t;
    memset(t->vcells, 0, sizeof(t->vcells));
    memset(t->at, 0, sizeof(t->at));
    t->bivalue = (struct cellset) { { 0, 0 } };
    t->houses = false;
    t->valid = true;
    memcpy(t->cand, g->cand, sizeof(t->cand));
    for (int c = 0; c < SE_CELLS; c++) {
        const unsigned m = g->cand[c];
        const int box = se_cell_region[c][0], row = se_cell_region[c][1];
        const int col = se_cell_region[c][2];
        const unsigned in_box = 1u << ((row - 9) % 3 * 3 + (col - 18) % 3);
        for (unsigned b = m; b; b &= b - 1) {
            const int v = __builtin_ctz(b);
            set_add(&t->vcells[v], c);
            t->at[box][v] |= (uint16_t) in_box;
            t->at[row][v] |= (uint16_t) (1u << (col - 18));
            t->at[col][v] |= (uint16_t) (1u << (row - 9));
        }
        if (se_size_of[m] == 2)
            set_add(&t->bivalue, c);
    }
    return t;
}

const struct grid_view *se_grid_view_of(struct se_rater *rt, const struct se_grid *g)
{
    return grid_view_make(rt, g);
}

/* The view of g with its houses' open cells (see grid_view). */
static const struct grid_view *grid_view_houses(
    struct se_rater *rt, const struct se_grid *g)
{
    struct grid_view *t = grid_view_make(rt, g);
    if (t->houses)
        return t;
    t->houses = true;
    for (int r = 0; r < 27; r++) {
        t->nopen[r] = 0;
        t->near[r] = (struct cellset) { { 0, 0 } };
        for (int i = 0; i < 9; i++) {
            const int c = se_region_cell[r][i];
            if (se_size_of[g->cand[c]] < 2)
                continue;
            t->open[r][t->nopen[r]++] = (uint8_t) c;
            t->near[r].w[0] |= se_peer_set[c][0];
            t->near[r].w[1] |= se_peer_set[c][1];
        }
    }
    return t;
}

static int link_rating(int r1, int r2)
{
    bool l1 = r1 >= 9, l2 = r2 >= 9;
    if (l1 && l2 && (r1 < 18) == (r2 < 18))
        return 40; /* skyscraper: two parallel lines */
    return 41; /* two-string kite, or a box link */
}

/* Links (a1,a2) and (b1,b2) joined by a2 seeing b1: v goes from cells that
 * see both a1 and b2 (vcells: the cells holding v, as bits). */
static bool turbot_pair(int v, const uint64_t *vcells, const int *l1, const int *l2,
    int rating, struct se_step *s)
{
    for (int e1 = 0; e1 < 2; e1++) {
        for (int e2 = 0; e2 < 2; e2++) {
            int a1 = l1[e1], a2 = l1[1 - e1], b1 = l2[e2], b2 = l2[1 - e2];
            if (a2 == b1 || a1 == b2 || a1 == b1 || a2 == b2 || !se_sees(a2, b1))
                continue;
            uint64_t elim[2];
            for (int w = 0; w < 2; w++)
                elim[w] = vcells[w] & se_peer_set[a1][w] & se_peer_set[b2][w];
            if (!elim[0] && !elim[1])
                continue; /* removes nothing: not useful */
            se_step_clear(s, SE_turbot_fish, rating);
            for (int w = 0; w < 2; w++)
                for (uint64_t m = elim[w]; m; m &= m - 1)
                    s->elim[w * 64 + __builtin_ctzll(m)] = (uint16_t) (1u << v);
            s->cells[0] = (uint8_t) a1, s->cells[1] = (uint8_t) a2;
            s->cells[2] = (uint8_t) b1, s->cells[3] = (uint8_t) b2;
            s->ncells = 4;
            s->digits = (uint16_t) (1u << v);
            return true;
        }
    }
    return false;
}

/* Skyscrapers first: SE's scan meets them before kites and box links. The
 * regions' links are found once per value (finding them again for every
 * pair of regions was ~9% of a generated puzzle's rating). */
/* The pairs of links in SE's order (`has`: by value, the regions with a
 * link, as bits: the pairs are visited by their bits, in region order). */
static bool turbot_scan(int links[10][27][2], const uint32_t *has, const uint32_t *fresh,
    const struct cellset *vcells, struct se_step *s)
{
    const uint32_t rows = 0x1FFu << 9, cols = 0x1FFu << 18;
    for (int pass = 0; pass < 2; pass++) {
        for (int v = 1; v <= 9; v++) {
            for (uint32_t m1 = has[v]; m1; m1 &= m1 - 1) {
                const int r1 = __builtin_ctz(m1);
                /* the regions making a skyscraper (rating 4.0) with r1 */
                const uint32_t sky = r1 < 9 ? 0 : (r1 < 18 ? rows : cols);
                uint32_t m2 = has[v] & ~((2u << r1) - 1) & (pass == 0 ? sky : ~sky)
                    & ((fresh[v] >> r1) & 1 ? ~0u : fresh[v]);
                for (; m2; m2 &= m2 - 1) {
                    const int r2 = __builtin_ctz(m2);
                    if (turbot_pair(v, vcells[v].w, links[v][r1], links[v][r2],
                            link_rating(r1, r2), s))
                        return true;
                }
            }
        }
    }
    return false;
}

/* A value's turbot fish read only its cells. Per rater, by value: its
 * cells when a whole se_turbot call found none of it; the same cells give
 * none again, and fewer give none from links of unchanged regions. A memo
 * is never wrong, only overwritten. */
struct turbot_memo {
    uint64_t cells[10][2];
    bool empty[10];
};
static struct turbot_memo *turbot_memo_of(struct se_rater *rt);

bool se_turbot(struct se_rater *rt, const struct se_grid *g, struct se_step *s)
{
    struct turbot_memo *const turbot_memo = turbot_memo_of(rt);
    int links[10][27][2];
    uint32_t has[10] = { 0 }, fresh[10];
    const struct grid_view *gv = se_grid_view_of(rt, g);
    const struct cellset *vcells = gv->vcells;
    for (int v = 1; v <= 9; v++) {
        /* with the memo's cells or fewer, a pair of links needs a region
         * where v lost a cell: a pair of links of the other regions was a
         * pair on the memo's cells, now seeing fewer cells with v */
        fresh[v] = ~0u;
        if (turbot_memo->empty[v] && !(vcells[v].w[0] & ~turbot_memo->cells[v][0])
            && !(vcells[v].w[1] & ~turbot_memo->cells[v][1]))
            fresh[v] = lost_regions(turbot_memo->cells[v], &vcells[v]);
        if (!fresh[v])
            continue; /* the same cells: no pair */
        for (int r = 0; r < 27; r++)
            if (strong_link(r, gv->at[r][v], &links[v][r][0], &links[v][r][1]))
                has[v] |= 1u << r;
    }
    if (turbot_scan(links, has, fresh, vcells, s))
        return true;
    for (int v = 1; v <= 9; v++) {
        memcpy(turbot_memo->cells[v], vcells[v].w, sizeof(vcells[v].w));
        turbot_memo->empty[v] = true;
    }
    return false;
}

/* z goes from the cells with it that see both pincers (and the pivot for
 * an XYZ-wing), as cell sets; false when there are none (not useful). */
static bool wing_elims(const struct se_grid *g, const struct grid_view *gv, int pivot,
    int p1, int p2, int z, bool xyz, struct se_step *s)
{
    uint64_t m[2];
    for (int w = 0; w < 2; w++)
        m[w] = gv->vcells[z].w[w] & se_peer_set[p1][w] & se_peer_set[p2][w]
            & (xyz ? se_peer_set[pivot][w] : ~0ull);
    m[pivot >> 6] &= ~(1ull << (pivot & 63));
    if (!m[0] && !m[1])
        return false;
    se_step_clear(s, xyz ? SE_xyz_wing : SE_xy_wing, xyz ? 44 : 42);
    for (int w = 0; w < 2; w++)
        for (uint64_t b = m[w]; b; b &= b - 1)
            s->elim[w * 64 + __builtin_ctzll(b)] = (uint16_t) (1u << z);
    s->cells[0] = (uint8_t) pivot, s->cells[1] = (uint8_t) p1, s->cells[2] = (uint8_t) p2;
    s->ncells = 3;
    s->digits = (uint16_t) (g->cand[pivot] | (1u << z));
    return true;
}

/* By xyz: the last grid on which se_xy_wing found no wing (see grid_memo).
 * A wing reads the candidates of its pivot and pincers, and removes z from
 * cells with it: on a grid within the memo's, a wing of three unchanged
 * cells was a wing there with the same removals or more, i.e. none. Only
 * the wings with a changed cell are tried: the same wings with removals, in
 * the same order. */
static struct grid_memo *xy_memo_of(struct se_rater *rt);

/* The pincers are a pivot's bivalue peers, in peer (cell) order: the bits of
 * its peers met with the bivalue cells; the same pairs in the same order. */
bool se_xy_wing(struct se_rater *rt, const struct se_grid *g, bool xyz, struct se_step *s)
{
    struct grid_memo *const xy_memo = xy_memo_of(rt);
    const struct grid_view *gv = se_grid_view_of(rt, g);
    struct cellset changed;
    const bool filter = memo_within(&xy_memo[xyz], g, &changed);
    /* the pivots a wing with a changed cell may have: changed cells and
     * the peers of changed bivalue cells (the pincers); all without memo */
    struct cellset pivots = { { ~0ull, ~0ull } };
    if (filter) {
        pivots = changed;
        for (int w = 0; w < 2; w++)
            for (uint64_t b = changed.w[w] & gv->bivalue.w[w]; b; b &= b - 1) {
                const int c = w * 64 + __builtin_ctzll(b);
                pivots.w[0] |= se_peer_set[c][0];
                pivots.w[1] |= se_peer_set[c][1];
            }
    }
    for (int pivot = 0; pivot < SE_CELLS; pivot++) {
        const unsigned pc = g->cand[pivot];
        if (se_size_of[pc] != (xyz ? 3 : 2) || !set_has(&pivots, pivot))
            continue;
        int pincer[20], np = 0;
        bool fresh = !filter || set_has(&changed, pivot);
        for (int w = 0; w < 2; w++)
            for (uint64_t b = se_peer_set[pivot][w] & gv->bivalue.w[w]; b; b &= b - 1)
                pincer[np++] = w * 64 + __builtin_ctzll(b);
        for (int i = 0; i < np; i++) {
            const int p1 = pincer[i];
            const unsigned c1 = g->cand[p1];
            const bool fresh1 = fresh || set_has(&changed, p1);
            for (int j = i + 1; j < np; j++) {
                const int p2 = pincer[j];
                const unsigned c2 = g->cand[p2];
                if (!fresh1 && !set_has(&changed, p2))
                    continue; /* three unchanged cells: no removal */
                /* two different pairs share one value or none */
                const unsigned z = c1 & c2;
                if (c1 == c2 || !z)
                    continue;
                bool ok
                    = xyz ? ((c1 | c2) == pc) : ((z & pc) == 0 && ((c1 | c2) & ~z) == pc);
                if (ok && wing_elims(g, gv, pivot, p1, p2, __builtin_ctz(z), xyz, s))
                    return true;
            }
        }
    }
    memo_keep(&xy_memo[xyz], g);
    return false;
}

/* ---- unique rectangles and loops: cells holding a and b, every row,
 * column and box with none or two of them, consecutive cells sharing one;
 * if only a and b were left the puzzle would have two solutions. ---- */

struct uloop {
    const struct se_grid *g;
    unsigned ab;
    uint64_t both[2]; /* the cells holding a and b, as se_peer_set */
    int cells[12], n, max;
    uint8_t unit_count[27];
    struct se_step best[12]; /* by loop length: the best hint of its loops */
    int best_type[12];
    bool have[12];
    bool loops; /* a loop of the pair's cells was found (see ur_memo) */
};

static int loop_rating(int n)
{
    return n >= 10 ? 50 : (n >= 8 ? 47 : (n >= 6 ? 46 : 45));
}

/* SE sorts its loop hints by rating, then by type (stable: then in the
 * order found). */
static void loop_offer(struct uloop *u, struct se_step *s, int type)
{
    const int n = u->n;
    if (!se_step_useful(u->g, s))
        return;
    if (!u->have[n] || s->rating < u->best[n].rating
        || (s->rating == u->best[n].rating && type < u->best_type[n])) {
        u->best[n] = *s;
        u->best_type[n] = type;
        u->have[n] = true;
    }
}

/* Type 4: two extra cells sharing a unit where a (or b) lies only in them:
 * the other value goes from both. */
static void loop_type4(struct uloop *u, const int *extra, struct se_step *s)
{
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[extra[0]][t];
        if (se_cell_region[extra[1]][t] != r)
            continue;
        for (int k = 0; k < 2; k++) {
            unsigned bits = u->ab;
            int a = __builtin_ctz(bits), b = 31 - __builtin_clz(bits);
            int locked = k ? b : a, other = k ? a : b;
            unsigned m = se_positions(u->g, r, locked);
            if (se_popcount(m) != 2)
                continue;
            se_step_clear(s, SE_unique_rectangle, loop_rating(u->n));
            s->elim[extra[0]] = s->elim[extra[1]] = (uint16_t) (1u << other);
            loop_offer(u, s, 4);
        }
    }
}

/* Type 3 (naked): the extra values of two extra cells sharing a unit, with
 * k-1 other cells of that unit, make a naked set of k values: they go from
 * the unit's other cells (+0.1 per value beyond one). */
static void loop_type3(struct uloop *u, const int *extra, struct se_step *s)
{
    const struct se_grid *g = u->g;
    unsigned e = (g->cand[extra[0]] | g->cand[extra[1]]) & ~u->ab;
    for (int t = 0; t < 3; t++) {
        int r = se_cell_region[extra[0]][t];
        if (se_cell_region[extra[1]][t] != r)
            continue;
        int others[9], no = 0;
        for (int i = 0; i < 9; i++) {
            int c = se_region_cell[r][i];
            if (c != extra[0] && c != extra[1] && g->cand[c])
                others[no++] = c;
        }
        for (unsigned pick = 1; pick < (1u << no); pick++) {
            int k = se_popcount(pick) + 1;
            unsigned vals = e;
            for (int i = 0; i < no; i++)
                if (pick & (1u << i))
                    vals |= g->cand[others[i]];
            if (k > 4 || se_popcount(vals) != k)
                continue;
            se_step_clear(s, SE_unique_rectangle, loop_rating(u->n) + k - 1);
            for (int i = 0; i < no; i++)
                if (!(pick & (1u << i)))
                    s->elim[others[i]] = (uint16_t) (g->cand[others[i]] & vals);
            loop_offer(u, s, 3);
        }
    }
}

static void loop_found(struct uloop *u)
{
    const struct se_grid *g = u->g;
    int extra[12], ne = 0;
    unsigned extras = 0;
    for (int i = 0; i < u->n; i++)
        if (g->cand[u->cells[i]] != u->ab) {
            extra[ne++] = u->cells[i];
            extras |= g->cand[u->cells[i]] & ~u->ab;
        }
    for (int r = 0; r < 27; r++)
        if (u->unit_count[r] != 0 && u->unit_count[r] != 2)
            return;
    if (ne == u->n)
        return; /* SE starts its loops from cells of the two values only */
    u->loops = true;
    struct se_step s;
    se_step_clear(&s, SE_unique_rectangle, loop_rating(u->n));
    for (int i = 0; i < u->n; i++)
        s.cells[s.ncells++] = (uint8_t) u->cells[i];
    s.digits = (uint16_t) u->ab;
    if (ne == 1) {
        s.elim[extra[0]] = (uint16_t) u->ab;
        loop_offer(u, &s, 1);
        return;
    }
    if (ne >= 2 && se_popcount(extras) == 1) {
        for (int o = 0; o < SE_CELLS; o++) {
            bool sees = (g->cand[o] & extras) != 0;
            for (int i = 0; i < ne && sees; i++)
                sees = o != extra[i] && se_sees(o, extra[i]);
            if (sees)
                s.elim[o] = (uint16_t) extras;
        }
        loop_offer(u, &s, 2);
    }
    if (ne == 2) {
        loop_type3(u, extra, &s);
        loop_type4(u, extra, &s);
    }
}

static bool loop_add(struct uloop *u, int c)
{
    for (int t = 0; t < 3; t++)
        if (u->unit_count[se_cell_region[c][t]] >= 2)
            return false;
    for (int t = 0; t < 3; t++)
        u->unit_count[se_cell_region[c][t]]++;
    u->cells[u->n++] = c;
    return true;
}

static void loop_drop(struct uloop *u)
{
    int c = u->cells[--u->n];
    for (int t = 0; t < 3; t++)
        u->unit_count[se_cell_region[c][t]]--;
}

/* `extras`: the loop's cells with more than the two values so far, `exvals`
 * their other values. As in SE, a cell of more values joins while there
 * are fewer than two such cells, or while they all have one same other
 * value (type 2 takes any number of those). */
static void loop_extend(struct uloop *u, int extras, unsigned exvals)
{
    int last = u->cells[u->n - 1], first = u->cells[0];
    if (u->n >= 4 && u->n % 2 == 0 && se_sees(last, first))
        loop_found(u);
    if (u->n == u->max)
        return;
    /* the peers of the last cell after the first holding a and b, in peer
     * (cell) order: by their bits, not peer by peer */
    uint64_t next[2]
        = { se_peer_set[last][0] & u->both[0], se_peer_set[last][1] & u->both[1] };
    next[0] &= first < 63 ? ~0ull << (first + 1) : 0;
    next[1] &= first < 64 ? ~0ull : ~0ull << (first - 63);
    for (int w = 0; w < 2; w++)
        for (uint64_t m = next[w]; m; m &= m - 1) {
            const int c = w * 64 + __builtin_ctzll(m);
            const unsigned ex = exvals | (u->g->cand[c] & ~u->ab);
            const bool more = u->g->cand[c] != u->ab;
            if ((more && extras >= 2 && se_size_of[ex] != 1) || !loop_add(u, c))
                continue;
            loop_extend(u, extras + more, ex);
            loop_drop(u);
        }
}

/* The search of a pair of values a, b reads only the cells holding both
 * and their candidates until it finds a loop (loop_found past its tests):
 * the hints read more. Per rater, by pair: those cells and candidates when
 * the search found no loop; the same ones give no loop again, and so do
 * some of them with the same candidates (a cell that lost a or b since):
 * a loop of these would have been a loop of the memo's cells, met by the
 * same steps. So with some of them changed, a loop must hold a changed
 * cell, and a loop starts at its first cell: no start after the last
 * changed cell needs a search. A memo is never wrong, only overwritten. */
struct ur_memo {
    bool none[10][10];
    uint64_t cells[10][10][2];
    uint16_t cand[10][10][SE_CELLS]; /* of `cells` only */
};
static struct ur_memo *ur_memo_of(struct se_rater *rt);

/* The cells from which the pair's loops start (see ur_memo): all of them
 * without a memo that tells, else those up to the last changed cell (the
 * result: the first start not needed; 0 for none). */
static int ur_starts(const struct ur_memo *ur_memo, const struct se_grid *g, int a, int b,
    const uint64_t *both)
{
    if (!ur_memo->none[a][b] || (both[0] & ~ur_memo->cells[a][b][0])
        || (both[1] & ~ur_memo->cells[a][b][1]))
        return SE_CELLS;
    int end = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t m = both[w]; m; m &= m - 1) {
            int c = w * 64 + __builtin_ctzll(m);
            if (ur_memo->cand[a][b][c] != g->cand[c])
                end = c + 1;
        }
    return end;
}

static void ur_remember(
    struct ur_memo *ur_memo, const struct se_grid *g, int a, int b, const uint64_t *both)
{
    ur_memo->none[a][b] = true;
    ur_memo->cells[a][b][0] = both[0];
    ur_memo->cells[a][b][1] = both[1];
    for (int w = 0; w < 2; w++)
        for (uint64_t m = both[w]; m; m &= m - 1) {
            int c = w * 64 + __builtin_ctzll(m);
            ur_memo->cand[a][b][c] = g->cand[c];
        }
}

bool se_unique_rectangle(struct se_rater *rt, const struct se_grid *g, struct se_step *s)
{
    struct ur_memo *const ur_memo = ur_memo_of(rt);
    /* One search up to 10 cells meets the loops of each length in the
     * order a search up to that length would; the best of each length is
     * kept, and SE's order decides between them: rating, then type, then
     * the shorter loop (longer loops rate as high or higher). */
    struct uloop u;
    memset(&u, 0, sizeof(u));
    u.g = g;
    u.max = 10;
    const struct cellset *vcells = se_grid_view_of(rt, g)->vcells;
    for (int a = 1; a <= 9; a++)
        for (int b = a + 1; b <= 9; b++) {
            const uint64_t both[2]
                = { vcells[a].w[0] & vcells[b].w[0], vcells[a].w[1] & vcells[b].w[1] };
            const int starts = ur_starts(ur_memo, g, a, b, both);
            if (!starts)
                continue;
            u.ab = (1u << a) | (1u << b);
            u.both[0] = both[0], u.both[1] = both[1];
            u.loops = false;
            for (int c = 0; c < starts; c++) {
                if (!((both[c >> 6] >> (c & 63)) & 1))
                    continue;
                loop_add(&u, c);
                loop_extend(&u, g->cand[c] != u.ab, g->cand[c] & ~u.ab);
                loop_drop(&u);
            }
            if (!u.loops)
                ur_remember(ur_memo, g, a, b, both);
            else
                ur_memo->none[a][b] = false;
        }
    int pick = -1;
    for (int len = 4; len <= 10; len += 2)
        if (u.have[len]
            && (pick < 0 || u.best[len].rating < u.best[pick].rating
                || (u.best[len].rating == u.best[pick].rating
                    && u.best_type[len] < u.best_type[pick])))
            pick = len;
    if (pick < 0)
        return false;
    *s = u.best[pick];
    return true;
}

/* SE's BUG cells (with lkSudoku's fix): for each region and value seen
 * other than twice, the cells of three or more candidates there; a value
 * met in one such cell is a BUG value of it; when every odd count is of one
 * value, all its cells of three or more candidates are BUG cells. Without
 * the BUG values every empty cell must have two candidates and every value
 * two places per region. Returns the number of BUG cells (0: no BUG). */
static int bug_cells(struct se_rater *rt, const struct se_grid *g, uint16_t *bugv)
{
    const struct grid_view *gv = se_grid_view_of(rt, g);
    memset(bugv, 0, sizeof(uint16_t) * SE_CELLS);
    uint8_t extra[SE_CELLS] = { 0 };
    int only = 0;
    bool one_value = true;
    for (int r = 0; r < 27; r++)
        for (int v = 1; v <= 9; v++) {
            unsigned m = gv->at[r][v];
            int n = se_size_of[m], nb = 0, last = -1;
            if (n == 0 || n == 2)
                continue;
            for (int i = 0; i < 9; i++) {
                int c = se_region_cell[r][i];
                if ((m & (1u << i)) && se_popcount(g->cand[c]) >= 3) {
                    nb++, last = c;
                    if (only == 0 || only == v)
                        extra[c] = 1;
                }
            }
            if (only == 0)
                only = v;
            else if (only != v)
                one_value = false;
            if (nb == 0)
                return 0;
            if (nb == 1)
                bugv[last] |= (uint16_t) (1u << v);
        }
    if (one_value && only)
        for (int c = 0; c < SE_CELLS; c++)
            if (extra[c])
                bugv[c] |= (uint16_t) (1u << only);
    struct se_grid t = *g;
    int n = 0;
    for (int c = 0; c < SE_CELLS; c++) {
        t.cand[c] &= (uint16_t) ~bugv[c];
        n += bugv[c] != 0;
        if (!t.value[c] && se_popcount(t.cand[c]) != 2)
            return 0;
    }
    for (int r = 0; r < 27; r++)
        for (int v = 1; v <= 9; v++) {
            int k = se_popcount(se_positions(&t, r, v));
            if (k != 0 && k != 2)
                return 0;
        }
    return n;
}

/* BUG type 1 (one BUG cell: its BUG value is the one, 5.6) and type 2 (all
 * BUG cells share one BUG value: it goes from cells seeing them all, 5.7). */
bool se_bug(struct se_rater *rt, const struct se_grid *g, struct se_step *s)
{
    uint16_t bugv[SE_CELLS];
    int n = bug_cells(rt, g, bugv);
    unsigned all = 0;
    for (int c = 0; c < SE_CELLS; c++)
        all |= bugv[c];
    if (n == 0 || se_popcount(all) != 1)
        return false;
    se_step_clear(s, SE_bug, n == 1 ? 56 : 57);
    s->digits = (uint16_t) all;
    for (int c = 0; c < SE_CELLS; c++) {
        if (!bugv[c])
            continue;
        if (s->ncells < 32)
            s->cells[s->ncells++] = (uint8_t) c;
        if (n == 1)
            s->elim[c] = (uint16_t) (g->cand[c] & ~all);
    }
    for (int o = 0; n > 1 && o < SE_CELLS; o++) {
        if (bugv[o] || !(g->cand[o] & all))
            continue;
        bool sees = true;
        for (int c = 0; c < SE_CELLS && sees; c++)
            if (bugv[c] && !se_sees(o, c))
                sees = false;
        if (sees)
            s->elim[o] = (uint16_t) all;
    }
    return se_step_useful(g, s);
}

/* ---- aligned exclusion (pairs 6.2, triplets 7.5): of the value
 * combinations of d cells, those putting one value in two cells that see
 * each other, or taking all values of a common peer of at most d values, are
 * impossible; a value of a cell in no possible combination goes. ---- */

struct aligned {
    const struct se_grid *g;
    int d, cells[3];
    uint64_t emask[SE_CELLS][2]; /* the excluders: peers of 2..d candidates */
    /* aligned_possible's tables of the last common excluders (`key`) */
    bool have_tables;
    uint64_t key[2];
    uint16_t other[10], third[10][10];
    bool base[SE_CELLS];
};

/* The values of the set's cells that some allowed combination uses. A
 * combination is out when two cells that see each other get one value, or
 * when it takes every value of a common excluder. Stops as soon as every
 * value of every cell is used: nothing can go then.
 *
 * The third cell's values are not tried one by one: once the first two are
 * chosen, an excluder with no value left beyond them rules the pair out, and
 * one with a single value left rules out that value for the third cell, so
 * the third cell's allowed values are one mask (~2.5x fewer steps than the
 * combinations, the same sets).
 *
 * Nor are the excluders tried one by one for each pair of values b0, b1: an
 * excluder has 2..3 values, so it leaves none only when it is {b0, b1}
 * (b0 != b1), and one only when it is {b0 or b1, y} (y goes) or {b0, b1, z}
 * with b0 != b1 (z goes). Tables by value of those y and z, made once per
 * set, give the same verdicts as the excluders one by one. */
static void aligned_possible(
    struct aligned *a, const uint64_t *common, const unsigned *cand, unsigned *possible)
{
    const int d = a->d;
    bool sees01 = se_sees(a->cells[0], a->cells[1]);
    bool sees02 = d == 3 && se_sees(a->cells[0], a->cells[2]);
    bool sees12 = d == 3 && se_sees(a->cells[1], a->cells[2]);
    /* other[x]: the other values of the two-value excluders holding x;
     * third[x][y]: the third values of the three-value ones holding x, y;
     * made again only for other common excluders (sets sharing a unit
     * often have the same) */
    uint16_t *other = a->other, (*third)[10] = a->third;
    const bool same = a->have_tables && a->key[0] == common[0] && a->key[1] == common[1];
    if (!same) {
        a->have_tables = true;
        a->key[0] = common[0], a->key[1] = common[1];
        memset(a->other, 0, sizeof(a->other));
        if (d == 3) /* a pair's excluders have two values: no third */
            memset(a->third, 0, sizeof(a->third));
    }
    for (int w = 0; w < 2 && !same; w++)
        for (uint64_t m = common[w]; m; m &= m - 1) {
            const unsigned e = a->g->cand[w * 64 + __builtin_ctzll(m)];
            for (unsigned xs = e; xs; xs &= xs - 1) {
                const int x = __builtin_ctz(xs);
                if (se_size_of[e] == 2) {
                    other[x] |= (uint16_t) (e & ~(1u << x));
                    continue;
                }
                for (unsigned ys = e & ~(1u << x); ys; ys &= ys - 1)
                    third[x][__builtin_ctz(ys)]
                        |= (uint16_t) (e & ~(1u << x) & ~(ys & -ys));
            }
        }
    for (unsigned m0 = cand[0]; m0; m0 &= m0 - 1) {
        const unsigned b0 = m0 & -m0;
        const int x0 = __builtin_ctz(m0);
        for (unsigned m1 = cand[1]; m1; m1 &= m1 - 1) {
            const unsigned b1 = m1 & -m1;
            const int x1 = __builtin_ctz(m1);
            if (b0 == b1 ? sees01 : (other[x0] & b1) != 0)
                continue; /* one value twice in sight, or an excluder taken */
            /* with two cells the third is a placeholder: the pair is allowed */
            unsigned left = cand[2];
            if (d == 3) {
                const unsigned blocked = ((other[x0] | other[x1]) & ~(b0 | b1))
                    | (b0 != b1 ? third[x0][x1] : 0);
                left &= ~(blocked | (sees02 ? b0 : 0) | (sees12 ? b1 : 0));
            }
            if (!left)
                continue;
            possible[0] |= b0, possible[1] |= b1, possible[2] |= left;
            if (possible[0] == cand[0] && possible[1] == cand[1]
                && possible[2] == cand[2])
                return;
        }
    }
}

/* Whether the cell set {m0, m1} has two cells or more (no popcount: it is a
 * library call without -mpopcnt, and this runs for every pair). */
static inline bool two_or_more(uint64_t m0, uint64_t m1)
{
    return (m0 & (m0 - 1)) || (m1 & (m1 - 1)) || (m0 && m1);
}

static bool aligned_set(struct aligned *a, struct se_step *s)
{
    uint64_t common[2] = { a->emask[a->cells[0]][0], a->emask[a->cells[0]][1] };
    for (int i = 1; i < a->d; i++)
        common[0] &= a->emask[a->cells[i]][0], common[1] &= a->emask[a->cells[i]][1];
    /* fewer than two common excluders: none goes */
    if (!two_or_more(common[0], common[1]))
        return false;
    unsigned cand[3] = { a->g->cand[a->cells[0]], a->g->cand[a->cells[1]],
        a->d == 3 ? a->g->cand[a->cells[2]] : 2u };
    /* an excluder with a value none of the cells has is never taken whole:
     * it rules nothing out (and changes no table entry that is read) */
    const unsigned in_cells = cand[0] | cand[1] | (a->d == 3 ? cand[2] : 0);
    for (int w = 0; w < 2; w++)
        for (uint64_t m = common[w]; m; m &= m - 1)
            if (a->g->cand[w * 64 + __builtin_ctzll(m)] & ~in_cells)
                common[w] &= ~(m & -m);
    unsigned possible[3] = { 0, 0, 0 };
    aligned_possible(a, common, cand, possible);
    if (possible[0] == cand[0] && possible[1] == cand[1] && possible[2] == cand[2])
        return false;
    se_step_clear(s, SE_aligned_pair, a->d == 2 ? 62 : 75);
    if (a->d == 3)
        s->tech = SE_aligned_triplet;
    for (int i = 0; i < a->d; i++) {
        s->elim[a->cells[i]] = (uint16_t) (a->g->cand[a->cells[i]] & ~possible[i]);
        s->cells[s->ncells++] = (uint8_t) a->cells[i];
    }
    return se_step_useful(a->g, s);
}

/* A cell of 2 values or more is a base cell when it has an excluder and no
 * peer of one value. As cell sets: the cells of 2..d values and those of
 * one, met with each cell's peers (not peer by peer). */
static void aligned_tables(struct aligned *a)
{
    uint64_t small[2] = { 0, 0 }, single[2] = { 0, 0 };
    for (int c = 0; c < SE_CELLS; c++) {
        const int n = se_size_of[a->g->cand[c]];
        if (n >= 2 && n <= a->d)
            small[c >> 6] |= 1ull << (c & 63);
        else if (n == 1)
            single[c >> 6] |= 1ull << (c & 63);
    }
    for (int c = 0; c < SE_CELLS; c++) {
        const uint64_t *peers = se_peer_set[c];
        a->emask[c][0] = peers[0] & small[0];
        a->emask[c][1] = peers[1] & small[1];
        a->base[c] = se_size_of[a->g->cand[c]] >= 2 && (a->emask[c][0] || a->emask[c][1])
            && !(peers[0] & single[0]) && !(peers[1] & single[1]);
        if (se_size_of[a->g->cand[c]] < 2)
            a->emask[c][0] = a->emask[c][1] = 0;
    }
}

/* The last grid on which se_aligned(d) found nothing, with this rater (see
 * aligned_changes). */
struct aligned_memo {
    bool valid;
    uint16_t cand[SE_CELLS];
};
static struct aligned_memo *aligned_memo_of(struct se_rater *rt);

/* A set's test reads only the candidates of its cells and of their common
 * excluders (peers of 2..d candidates), and which peers are excluders. So
 * on a grid whose set S gave nothing, a set of unchanged cells none of whose
 * common peers changed while it had, or has, 2..d candidates gives nothing
 * either: it is the same test (a set not tried on S had no excluder there,
 * and none now). `changed` gets the cells that differ from the memo's grid,
 * `excl` those of them with 2..d candidates before or after: the sets that
 * need a test. Everything differs without a memo. Most steps of a path
 * change a few cells, and most sets need no test again. */
static void aligned_changes(const struct aligned_memo *memo, const struct se_grid *g,
    int d, uint64_t *changed, uint64_t *excl)
{
    for (int w = 0; w < 2; w++)
        changed[w] = excl[w] = memo->valid ? 0 : ~0ull;
    for (int c = 0; memo->valid && c < SE_CELLS; c++) {
        if (memo->cand[c] == g->cand[c])
            continue;
        const int before = se_popcount(memo->cand[c]), now = se_popcount(g->cand[c]);
        changed[c >> 6] |= 1ull << (c & 63);
        if ((before >= 2 && before <= d) || (now >= 2 && now <= d))
            excl[c >> 6] |= 1ull << (c & 63);
    }
}

static inline bool in_set(const uint64_t *set, int c)
{
    return (set[c >> 6] >> (c & 63)) & 1;
}

/* The memo keeps g when se_aligned found nothing on it, and when no cell has
 * one candidate (those make their peers' sets untried, see aligned_tables;
 * the singles come first in SE's order, so it does not happen on a path). */
static void aligned_remember(struct aligned_memo *memo, const struct se_grid *g)
{
    memo->valid = true;
    for (int c = 0; c < SE_CELLS; c++)
        memo->valid = memo->valid && se_popcount(g->cand[c]) != 1;
    memcpy(memo->cand, g->cand, sizeof(memo->cand));
}

/* The sets in SE's order (pairs of base cells, then a third cell among
 * their excluders), tested when they need it; true at the first that
 * removes a candidate. */
/* The cells c1 after c0 whose sets with c0 may need a test (see
 * aligned_scan); false for none. c1 or c0 changed, or a common peer in
 * excl (c1 a peer of an excl cell that c0 sees); with a third cell (d = 3)
 * also a changed excluder of c0 or of c1 (`touched`: the peers of changed
 * cells with 2..d candidates). Visiting only these, the sets that need a
 * test are the same, in the same order (the others were passed over). */
static bool pair_partners(const struct aligned *a, int c0, const uint64_t *changed,
    const uint64_t *excl, const uint64_t *touched, uint64_t *out)
{
    const bool all = in_set(changed, c0)
        || (a->d == 3
            && ((a->emask[c0][0] & changed[0]) || (a->emask[c0][1] & changed[1])));
    for (int w = 0; w < 2; w++)
        out[w] = all ? ~0ull : changed[w] | (a->d == 3 ? touched[w] : 0);
    for (int w = 0; w < 2 && !all; w++)
        for (uint64_t m = excl[w] & se_peer_set[c0][w]; m; m &= m - 1) {
            const int e = w * 64 + __builtin_ctzll(m);
            out[0] |= se_peer_set[e][0];
            out[1] |= se_peer_set[e][1];
        }
    out[0] &= c0 < 63 ? ~0ull << (c0 + 1) : 0;
    out[1] &= c0 < 64 ? ~0ull : ~0ull << (c0 - 63);
    return out[0] || out[1];
}

/* Whether the triplet {c0, c1, t} (c0 < c1, t the third cell) was met
 * before in the scan: the same three cells as a pair before (c0, c1) with
 * the other as its third cell (an excluder of either). A set's test reads
 * the three cells and their common excluders, in any order: it gave
 * nothing then (the scan would have ended), and needed a test then if it
 * needs one now (see aligned_changes: "changed" and "a common peer in
 * excl" are the same for the three cells in any order). */
static bool triplet_met(const struct aligned *a, int c0, int c1, int t)
{
    if (t > c1) /* (c0, c1) is the set's first pair */
        return false;
    if (t > c0) /* met at (c0, t) with c1 third? */
        return in_set(a->emask[c0], c1) || in_set(a->emask[t], c1);
    /* met at (t, c0) with c1 third, or at (t, c1) with c0 third? */
    return in_set(a->emask[t], c1) || in_set(a->emask[c0], c1) || in_set(a->emask[t], c0)
        || in_set(a->emask[c1], c0);
}

static bool aligned_scan(
    struct aligned *a, const uint64_t *changed, const uint64_t *excl, struct se_step *s)
{
    const int d = a->d;
    uint64_t base[2] = { 0, 0 }, touched[2] = { 0, 0 };
    for (int c = 0; c < SE_CELLS; c++) {
        if (a->base[c])
            base[c >> 6] |= 1ull << (c & 63);
        const int n = se_popcount(a->g->cand[c]);
        if (in_set(changed, c) && n >= 2 && n <= d)
            for (int w = 0; w < 2; w++)
                touched[w] |= se_peer_set[c][w];
    }
    for (int c0 = 0; c0 < SE_CELLS; c0++) {
        uint64_t later[2];
        if (!a->base[c0] || !pair_partners(a, c0, changed, excl, touched, later))
            continue;
        /* the later base cells (pair_partners keeps cells after c0), in
         * cell order */
        for (uint64_t pm = later[0] & base[0], qm = later[1] & base[1]; pm || qm;) {
            const int c1 = pm ? __builtin_ctzll(pm) : 64 + __builtin_ctzll(qm);
            if (pm)
                pm &= pm - 1;
            else
                qm &= qm - 1;
            a->cells[0] = c0, a->cells[1] = c1;
            /* a set needs two common excluders (aligned_set): a pair without
             * them, and then a third cell without them, are passed over here
             * (most calls would find none) */
            const uint64_t both[2] = { a->emask[c0][0] & a->emask[c1][0],
                a->emask[c0][1] & a->emask[c1][1] };
            if (!two_or_more(both[0], both[1]))
                continue;
            /* whether the set needs a test (see aligned_changes): a changed
             * cell, or a common peer in excl */
            const bool moved = in_set(changed, c0) || in_set(changed, c1);
            const uint64_t near[2] = { excl[0] & se_peer_set[c0][0] & se_peer_set[c1][0],
                excl[1] & se_peer_set[c0][1] & se_peer_set[c1][1] };
            if (d == 2) {
                if ((moved || near[0] || near[1]) && aligned_set(a, s))
                    return true;
                continue;
            }
            /* the third cell: an excluder of either, in cell order; only a
             * changed one can make the set need a test when the pair does not */
            uint64_t third[2] = { a->emask[c0][0] | a->emask[c1][0],
                a->emask[c0][1] | a->emask[c1][1] };
            if (!moved && !near[0] && !near[1])
                third[0] &= changed[0], third[1] &= changed[1];
            /* base cells only; and when c1 is an excluder of c0 (or c0 of
             * c1), the thirds before c1 (before c0) make triplets met
             * before (see triplet_met), passed over here as a mask */
            const int from = in_set(a->emask[c0], c1) ? c1 + 1
                : in_set(a->emask[c1], c0)            ? c0 + 1
                                                      : 0;
            third[0] &= base[0] & (from < 64 ? ~0ull << from : 0);
            third[1] &= base[1] & (from <= 64 ? ~0ull : ~0ull << (from - 64));
            for (int w = 0; w < 2; w++)
                for (uint64_t m = third[w]; m; m &= m - 1) {
                    int t = w * 64 + __builtin_ctzll(m);
                    if (t == c0 || t == c1
                        || !two_or_more(
                            both[0] & a->emask[t][0], both[1] & a->emask[t][1]))
                        continue;
                    const bool dirty = moved || in_set(changed, t)
                        || (near[0] & se_peer_set[t][0]) || (near[1] & se_peer_set[t][1]);
                    a->cells[2] = t;
                    if (dirty && !triplet_met(a, c0, c1, t) && aligned_set(a, s))
                        return true;
                }
        }
    }
    return false;
}

bool se_aligned(struct se_rater *rt, const struct se_grid *g, int d, struct se_step *s)
{
    struct aligned a;
    a.g = g;
    a.d = d;
    a.have_tables = false;
    aligned_tables(&a);
    uint64_t changed[2], excl[2];
    struct aligned_memo *const memo = &aligned_memo_of(rt)[d];
    aligned_changes(memo, g, d, changed, excl);
    if (aligned_scan(&a, changed, excl, s))
        return true;
    aligned_remember(memo, g);
    return false;
}

/* ---- the WXYZ-wing family (SukakuExplainer): `k` cells that all see each
 * other holding k+1 values, and a bivalue cell sharing both its values with
 * them; a value whose every copy in the group sees the bivalue cell links
 * them, and the other value goes from cells seeing all its copies. ---- */

struct als_wing {
    int k, cells[6], yz;
    unsigned values;
    int biggest; /* the largest candidate count in the group */
};

static int wing_rating(const struct als_wing *w)
{
    int d = 3 - w->biggest;
    d = d < 0 ? -d : d;
    switch (w->k) {
    case 3:
        return 55 + (1 - d);
    case 4:
        return 62 + (2 - d);
    case 5:
        return 66;
    default:
        return 75;
    }
}

/* Whether every group cell with v sees cell o (o outside the group). */
static bool sees_all_with(const struct se_grid *g, const struct als_wing *w, int v, int o)
{
    for (int i = 0; i < w->k; i++)
        if ((g->cand[w->cells[i]] & (1u << v)) && !se_sees(o, w->cells[i]))
            return false;
    return true;
}

static bool in_wing(const struct als_wing *w, int c)
{
    for (int i = 0; i < w->k; i++)
        if (w->cells[i] == c)
            return true;
    return c == w->yz;
}

/* v goes from the cells outside the wing that see all its copies (in the
 * group, and in yz when `with_yz`): `vcells` are the cells with v. */
static int wing_elim(const struct se_grid *g, const struct als_wing *w,
    const struct cellset *vcells, int v, bool with_yz, struct se_step *s)
{
    struct cellset m = *vcells;
    for (int i = 0; i < w->k; i++) {
        const int c = w->cells[i];
        m.w[c >> 6] &= ~(1ull << (c & 63));
        if (g->cand[c] & (1u << v))
            for (int k = 0; k < 2; k++)
                m.w[k] &= se_peer_set[c][k];
    }
    m.w[w->yz >> 6] &= ~(1ull << (w->yz & 63));
    for (int k = 0; with_yz && k < 2; k++)
        m.w[k] &= se_peer_set[w->yz][k];
    for (int k = 0; k < 2; k++)
        for (uint64_t b = m.w[k]; b; b &= b - 1)
            s->elim[k * 64 + __builtin_ctzll(b)] |= (uint16_t) (1u << v);
    return set_count(&m);
}

static int wing_step(const struct se_grid *g, const struct als_wing *w,
    const struct cellset *vcells, struct se_step *s)
{
    unsigned yzc = g->cand[w->yz];
    int x = __builtin_ctz(yzc), z = 31 - __builtin_clz(yzc);
    bool rx = sees_all_with(g, w, x, w->yz), rz = sees_all_with(g, w, z, w->yz);
    if (!rx && !rz)
        return -1;
    static const enum se_technique techs[7]
        = { 0, 0, 0, SE_wxyz_wing, SE_vwxyz_wing, SE_uvwxyz_wing, SE_tuvwxyz_wing };
    se_step_clear(s, techs[w->k], wing_rating(w));
    int n = 0;
    if (rx) /* x links: z is in yz or in the group */
        n += wing_elim(g, w, &vcells[z], z, true, s);
    if (rz)
        n += wing_elim(g, w, &vcells[x], x, true, s);
    if (rx && rz)
        for (int v = 1; v <= 9; v++)
            if ((w->values & (1u << v)) && !(yzc & (1u << v)))
                n += wing_elim(g, w, &vcells[v], v, false, s);
    for (int i = 0; i < w->k; i++)
        s->cells[s->ncells++] = (uint8_t) w->cells[i];
    s->cells[s->ncells++] = (uint8_t) w->yz;
    s->digits = (uint16_t) w->values;
    return n;
}

struct wing_best {
    struct se_step step;
    int elims;
    bool have;
};

/* One search for ALS wings of k cells: g's cells by value and its bivalue
 * cells by pair of values (where the yz cells of a group come from), the
 * house being searched and the group being built. */
struct wing_search {
    const struct se_grid *g;
    const struct grid_view *t;
    int k;
    struct wing_best *best;
    const uint8_t *open; /* the house being searched: its open cells */
    int nopen;
    uint16_t ocand[9]; /* their candidates */
    uint8_t ocount[9]; /* and how many */
    unsigned ochanged; /* which changed (see wing_memo), bits by index */

    struct als_wing w;
    /* with a memo (see wing_memo): the cells changed since its grid, and
     * those of them now bivalue (the yz cells that may be new) */
    bool filter;
    struct cellset changed, fresh_yz;
};

/* The group's cells, and by value the cells outside it that see all its
 * cells with the value (made when first needed: `done`, by value): what
 * wing_count reads of the group. */
struct wing_group {
    const struct se_grid *g;
    const struct als_wing *w;
    struct cellset cells, seeall[10];
    unsigned done;
};

static void wing_group_init(
    const struct se_grid *g, const struct als_wing *w, struct wing_group *gr)
{
    gr->g = g;
    gr->w = w;
    gr->done = 0;
    gr->cells = (struct cellset) { { 0, 0 } };
    for (int i = 0; i < w->k; i++)
        set_add(&gr->cells, w->cells[i]);
}

static const struct cellset *wing_seeall(struct wing_group *gr, int v)
{
    struct cellset *m = &gr->seeall[v];
    if ((gr->done >> v) & 1)
        return m;
    gr->done |= 1u << v;
    *m = (struct cellset) { { ~gr->cells.w[0], ~gr->cells.w[1] } };
    for (int i = 0; i < gr->w->k; i++) {
        const int c = gr->w->cells[i];
        if (gr->g->cand[c] & (1u << v))
            for (int k = 0; k < 2; k++)
                m->w[k] &= se_peer_set[c][k];
    }
    return m;
}

static int cells_count(uint64_t a, uint64_t b)
{
    return se_popcount((unsigned) a) + se_popcount((unsigned) (a >> 32))
        + se_popcount((unsigned) b);
}

/* wing_step's count for yz (bivalue, values yzc) without making the step:
 * -1 when neither value of yz links (every group cell with it sees yz),
 * else the removals as (cell, value) pairs, the same masks: a value's
 * cells seeing all its group cells (and yz when it links through yz),
 * outside the group and yz. */
static int wing_count(const struct als_wing *w, struct wing_group *gr,
    const struct cellset *vcells, int yz, unsigned yzc)
{
    const int x = __builtin_ctz(yzc), z = 31 - __builtin_clz(yzc);
    const uint64_t *py = se_peer_set[yz];
    const bool rx = !(gr->cells.w[0] & vcells[x].w[0] & ~py[0])
        && !(gr->cells.w[1] & vcells[x].w[1] & ~py[1]);
    const bool rz = !(gr->cells.w[0] & vcells[z].w[0] & ~py[0])
        && !(gr->cells.w[1] & vcells[z].w[1] & ~py[1]);
    if (!rx && !rz)
        return -1;
    int n = 0;
    if (rx) {
        const struct cellset *sz = wing_seeall(gr, z);
        n += cells_count(
            vcells[z].w[0] & sz->w[0] & py[0], vcells[z].w[1] & sz->w[1] & py[1]);
    }
    if (rz) {
        const struct cellset *sx = wing_seeall(gr, x);
        n += cells_count(
            vcells[x].w[0] & sx->w[0] & py[0], vcells[x].w[1] & sx->w[1] & py[1]);
    }
    if (rx && rz) {
        uint64_t not_yz[2] = { ~0ull, ~0ull };
        not_yz[yz >> 6] &= ~(1ull << (yz & 63));
        for (unsigned vs = w->values & ~yzc; vs; vs &= vs - 1) {
            const int v = __builtin_ctz(vs);
            const struct cellset *sv = wing_seeall(gr, v);
            n += cells_count(vcells[v].w[0] & sv->w[0] & not_yz[0],
                vcells[v].w[1] & sv->w[1] & not_yz[1]);
        }
    }
    return n;
}

/* The yz cells of the group, in cell order: bivalue cells outside it with
 * both values among its values, seeing one of its cells (as cell sets: the
 * test cell by cell over every bivalue cell costs more for every group).
 * A group rated above the best wing found cannot replace it. Each yz cell
 * is counted with the group's sets (made once per group), and the step is
 * made only for a wing that replaces the best. */
static void wing_try_yz(struct wing_search *ws, bool dirty)
{
    const struct se_grid *g = ws->g;
    struct als_wing *w = &ws->w;
    struct wing_best *b = ws->best;
    if (b->have && wing_rating(w) > b->step.rating)
        return;
    /* the bivalue cells with no value outside the group's: fewer masks
     * than the group's pairs of values */
    struct cellset yzs = ws->t->bivalue, near = { { 0, 0 } };
    for (unsigned out = SE_ALL & ~w->values; out; out &= out - 1)
        for (int k = 0; k < 2; k++)
            yzs.w[k] &= ~ws->t->vcells[__builtin_ctz(out)].w[k];
    /* a group of unchanged cells gives a hint only with a changed yz cell
     * (see wing_memo) */
    for (int k = 0; ws->filter && !dirty && k < 2; k++)
        yzs.w[k] &= ws->fresh_yz.w[k];
    for (int i = 0; i < w->k; i++)
        for (int k = 0; k < 2; k++)
            near.w[k] |= se_peer_set[w->cells[i]][k];
    struct wing_group gr;
    bool made = false;
    const int rating = wing_rating(w);
    for (int k = 0; k < 2; k++)
        for (uint64_t m = yzs.w[k] & near.w[k]; m; m &= m - 1) {
            const int yz = k * 64 + __builtin_ctzll(m);
            if (in_wing(w, yz))
                continue;
            if (!made)
                wing_group_init(g, w, &gr), made = true;
            const int n = wing_count(w, &gr, ws->t->vcells, yz, g->cand[yz]);
            if (n <= 0)
                continue;
            if (!b->have || rating < b->step.rating
                || (rating == b->step.rating && n > b->elims)) {
                w->yz = yz;
                b->elims = wing_step(g, w, ws->t->vcells, &b->step);
                b->have = true;
            }
        }
    w->yz = -1;
}

/* The groups of k of the house's open cells from open[from], in the order of
 * the house; a partial group with more than k+1 values has no completion.
 * `dirty`: the group so far has a changed cell (see wing_memo). */
static void wing_extend(
    struct wing_search *ws, int from, int depth, unsigned values, int biggest, bool dirty)
{
    if (depth == ws->k) {
        if (se_size_of[values] != ws->k + 1)
            return;
        ws->w.values = values;
        ws->w.biggest = biggest;
        wing_try_yz(ws, dirty);
        return;
    }
    for (int i = from; i <= ws->nopen - (ws->k - depth); i++) {
        const unsigned v = values | ws->ocand[i];
        if (se_size_of[v] > ws->k + 1)
            continue;
        const int n = ws->ocount[i];
        ws->w.cells[depth] = ws->open[i];
        wing_extend(ws, i + 1, depth + 1, v, n > biggest ? n : biggest,
            dirty || ((ws->ochanged >> i) & 1));
    }
}

/* Groups of k unsolved cells of one house (a group in two houses is met
 * twice; the best hint is the same). Searched depth first with the union of
 * values bounded, not as every k of 9 cells: a group whose values are
 * already too many is not extended. */
static void wing_groups(struct wing_search *ws)
{
    const struct grid_view *t = ws->t;
    for (int k = 0; k < 2; k++)
        ws->fresh_yz.w[k] = ws->changed.w[k] & t->bivalue.w[k];
    for (int r = 0; r < 27; r++) {
        /* no bivalue cell sees the house's open cells: no yz cell for its
         * groups */
        if (!sets_meet(&t->near[r], &t->bivalue))
            continue;
        ws->open = t->open[r];
        ws->nopen = t->nopen[r];
        ws->ochanged = 0;
        for (int i = 0; i < ws->nopen; i++) {
            ws->ocand[i] = ws->g->cand[ws->open[i]];
            ws->ocount[i] = se_size_of[ws->ocand[i]];
            ws->ochanged |= (unsigned) set_has(&ws->changed, ws->open[i]) << i;
        }
        /* a house of unchanged cells with no changed yz cell in reach has
         * no group that may give a hint (see wing_memo) */
        if (ws->filter && !ws->ochanged && !sets_meet(&t->near[r], &ws->fresh_yz))
            continue;
        ws->w = (struct als_wing) { .k = ws->k, .yz = -1 };
        wing_extend(ws, 0, 0, 0, 0, false);
    }
}

/* By k, the last grid on which se_als_wing found no wing (see grid_memo). A
 * wing's hint reads the candidates of its group and yz cells, and its
 * removals are cells with the value: on a grid within the memo's, a wing of
 * unchanged cells is the memo grid's wing with the same removals or fewer,
 * hence none. So only the groups with a changed cell, and the others with a
 * changed yz cell, are tried: the same wings with removals, in the same
 * order, and the same best. */
static struct grid_memo *wing_memo_of(struct se_rater *rt);

bool se_als_wing(struct se_rater *rt, const struct se_grid *g, int k, struct se_step *s)
{
    struct grid_memo *const wing_memo = wing_memo_of(rt);
    struct wing_best b = { .have = false };
    struct wing_search ws = { .g = g, .t = grid_view_houses(rt, g), .k = k, .best = &b };
    ws.filter = memo_within(&wing_memo[k], g, &ws.changed);
    wing_groups(&ws);
    if (b.have)
        *s = b.step;
    else
        memo_keep(&wing_memo[k], g);
    return b.have;
}

/* What this file keeps between calls of one rater (struct se_rater). */
struct se_wings_memo {
    struct grid_view grid_view;
    struct turbot_memo turbot_memo;
    struct grid_memo xy_memo[2];
    struct ur_memo ur_memo;
    struct aligned_memo aligned_memo[4];
    struct grid_memo wing_memo[7];
};

struct se_wings_memo *se_wings_memo_new(void)
{
    return calloc(1, sizeof(struct se_wings_memo));
}

void se_wings_memo_free(struct se_wings_memo *m)
{
    free(m);
}

static struct grid_view *view_memo(struct se_rater *rt)
{
    return &rt->wings->grid_view;
}

static struct turbot_memo *turbot_memo_of(struct se_rater *rt)
{
    return &rt->wings->turbot_memo;
}

static struct grid_memo *xy_memo_of(struct se_rater *rt)
{
    return rt->wings->xy_memo;
}

static struct ur_memo *ur_memo_of(struct se_rater *rt)
{
    return &rt->wings->ur_memo;
}

static struct aligned_memo *aligned_memo_of(struct se_rater *rt)
{
    return rt->wings->aligned_memo;
}

static struct grid_memo *wing_memo_of(struct se_rater *rt)
{
    return rt->wings->wing_memo;
}
