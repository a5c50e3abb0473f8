/* The generator. Complete grids: randomised backtracking that fills the cell
 * with the fewest candidates next (ties: the first in row-major order) with
 * its values in random order, restarted after 10 * cells nodes, so 16x16 and
 * 25x25 grids come out too (the thesis fills row-major, which stalls there).
 *
 * dig (seed 000 and its web appendix): take the clues (or, with symmetric,
 * the pairs of clues mirrored through the centre) in random order and remove
 * each one whose removal keeps the solution unique, until the hole count is
 * reached. A removal needs no solve when the removed value is forced by the
 * remaining clues alone (the only value its peers leave, or the only place
 * for it in one of its units): the solutions are then the same.
 *
 * A pass often stops short of 60 holes on 9x9 (one pass leaves 56.5 on
 * average; 21 clues come up in 1 pass of 400). Then it climbs: each clue that
 * could not go keeps the second solution that showed it (its "witness"); a
 * climb puts back the removed clue that rules out the most witnesses and
 * retries only those clues (the others still have a second solution, so they
 * still cannot go), up to `climbs` times before a new grid is drawn. A
 * witness stays a second solution while clues are removed and is voided only
 * by a clue put back where it differs from the solution, so the skipped
 * clues are exactly those that need no retry; --minimal relies on it. On 9x9
 * hard it takes about 470 uniqueness solves per puzzle, against some 16,000
 * for fresh passes alone.
 *
 * seed003 (seed 003): place K random legal clues (25 on 9x9, other sizes
 * scaled like the levels, see generate.h) the seed's way (random cell, stepping on to the
 * next empty one; random value, kept when legal), solve; with no solution start again;
 * while there are two, copy in the first solution's value at the first cell
 * (column-major, MATLAB's find) where the two differ. Then draw a clue count in the
 * level's range and remove clues in random order while unique, or add values of the
 * solution at random empty cells, until it is reached. The seed's code adds
 * at cells that are already filled (a slip: it can never add) and accepts a
 * count above the range when removal stalls; here an out-of-range result
 * starts again, so every puzzle is in range. Its ranges as coded are 36-44,
 * 27-35 and 17-26 (35 + randi(9)...); its comments and SPEC say 36-45, 27-36,
 * 17-27, which is what is drawn from here. */
#include "puzzle/generate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/units.h"
#include "puzzle/logic.h"
#include "rater/se_rate.h"
#include "solvers/registry.h"

enum {
    GEN_DEFAULT_ATTEMPTS = 500,
    /* measured on 9x9 hard: fewest solves per puzzle (symmetric climbs move
     * two clues at once and need more of them) */
    GEN_DEFAULT_CLIMBS = 60,
    GEN_DEFAULT_CLIMBS_SYMMETRIC = 300,
    /* seed003's first solve may meet an unsolvable random clue set: a step
     * budget keeps a slow back end from sinking there (the set is redrawn) */
    GEN_SEED003_BUDGET = 5000000,
    GEN_WORDS = (GRID_MAX_CELLS + 63) / 64,
};

struct generator {
    struct gen_options opt;
    struct grid shape;
    struct units units;
    struct rng rng;
    struct solver_instance *solver, *verifier;
    struct grid solution, puzzle;
    uint32_t mask[UNITS_MAX]; /* values present in each unit (clues, or the fill) */
    uint32_t full;
    int lo, hi; /* dig: holes; seed003: clues */
    int clues;
    int norbits;
    uint16_t orbit[GRID_MAX_CELLS][2];
    uint8_t orbit_size[GRID_MAX_CELLS];
    int order[GRID_MAX_CELLS];
    /* dig: for each clue orbit that could not go, the cells where a second
     * solution of the puzzle without it differs from the solution */
    bool has_witness[GRID_MAX_CELLS];
    uint64_t witness[GRID_MAX_CELLS][GEN_WORDS];
    struct se_rater *se; /* with --se: the SE rater's memory */
    uint64_t fill_nodes;
    int nsol;
    struct grid sol[2];
    struct gen_stats stats;
    struct logic *logic; /* for the technique filter */
    char why[640];
};

static const char *const method_names[] = { "dig", "seed003" };
static const char *const level_names[GEN_LEVEL_COUNT] = { "easy", "medium", "hard" };

const char *gen_method_name(enum gen_method m)
{
    return (unsigned) m < 2 ? method_names[m] : "?";
}

const char *gen_level_name(enum gen_level level)
{
    return (unsigned) level < GEN_LEVEL_COUNT ? level_names[level] : "?";
}

int gen_parse_method(const char *text, enum gen_method *m)
{
    for (int i = 0; i < 2; i++) {
        if (strcmp(text, method_names[i]) == 0) {
            *m = (enum gen_method) i;
            return 0;
        }
    }
    return -1;
}

int gen_parse_level(const char *text, enum gen_level *level)
{
    for (int i = 0; i < GEN_LEVEL_COUNT; i++) {
        if (strcmp(text, level_names[i]) == 0) {
            *level = (enum gen_level) i;
            return 0;
        }
    }
    return -1;
}

/* The holes one pass of random digging leaves (the pass in dig_pass, no
 * climbs): means over 200 puzzles per size with this generator (16x16: over
 * 5), and for other sizes a line fitted to those shares of the cells. The
 * levels of other sizes keep 9x9's ratio to it. */
static double typical_dig_holes(int n)
{
    static const struct {
        int n;
        double holes;
    } measured[] = { { 4, 11.7 }, { 6, 25.8 }, { 8, 44.7 }, { 9, 56.5 }, { 12, 96.3 },
        { 16, 162.0 } };
    for (size_t i = 0; i < sizeof(measured) / sizeof(measured[0]); i++) {
        if (measured[i].n == n)
            return measured[i].holes;
    }
    const double share = 0.762 - 0.00806 * n;
    return (share > 0.3 ? share : 0.3) * n * n;
}

static int scale_holes(int holes9, int n)
{
    return (int) (holes9 * typical_dig_holes(n) / typical_dig_holes(9) + 0.5);
}

static int scale_clues(int clues9, int n)
{
    const double clues
        = clues9 * (n * n - typical_dig_holes(n)) / (81 - typical_dig_holes(9));
    return clues < 1 ? 1 : (int) (clues + 0.5);
}

void gen_target(const struct gen_options *o, int *lo, int *hi)
{
    static const int dig_holes[GEN_LEVEL_COUNT] = { 40, 50, 60 };
    static const int clue_range[GEN_LEVEL_COUNT][2]
        = { { 36, 45 }, { 27, 36 }, { 17, 27 } };
    const int n = o->box_rows * o->box_cols, ncells = n * n;
    if (o->method == GEN_DIG) {
        *lo = o->holes > 0 ? o->holes : scale_holes(dig_holes[o->level], n);
        if (*lo >= ncells)
            *lo = ncells - 1;
        *hi = o->minimal ? ncells : *lo;
    } else {
        *lo = scale_clues(clue_range[o->level][0], n);
        *hi = scale_clues(clue_range[o->level][1], n);
    }
}

static bool usable(const struct solver *s, const struct grid *shape)
{
    char why[160];
    return s && (s->caps & SOLVER_CAP_COUNT)
        && solver_supports(s, shape, why, sizeof(why));
}

static const struct solver *first_usable(const char *const *names, size_t count,
    const struct grid *shape, const struct solver *not_this)
{
    for (size_t i = 0; i < count; i++) {
        const struct solver *s = solver_find(names[i]);
        if (s != not_this && usable(s, shape))
            return s;
    }
    for (size_t i = 0; solver_registry[i]; i++) {
        if (solver_registry[i] != not_this && usable(solver_registry[i], shape))
            return solver_registry[i];
    }
    return NULL;
}

const struct solver *gen_default_solver(const struct grid *shape)
{
    static const char *const order[] = { "mrv", "dlx", "naive" };
    return first_usable(order, sizeof(order) / sizeof(order[0]), shape, NULL);
}

const struct solver *gen_default_verifier(
    const struct grid *shape, const struct solver *not_this)
{
    static const char *const order[] = { "dlx", "mrv", "naive_stack", "naive" };
    return first_usable(order, sizeof(order) / sizeof(order[0]), shape, not_this);
}

struct generator *gen_open(const struct gen_options *o, char *why, size_t whylen)
{
    struct grid shape;
    if (grid_init(&shape, o->box_rows, o->box_cols, (enum grid_variant) o->variant)
        != 0) {
        snprintf(why, whylen, "unsupported grid shape %dx%d", o->box_rows, o->box_cols);
        return NULL;
    }
    if (shape.n > GRID_MAX_N_MASK32) { /* the unit masks are uint32_t */
        snprintf(why, whylen, "the generator goes up to %dx%d, not %dx%d",
            GRID_MAX_N_MASK32, GRID_MAX_N_MASK32, shape.n, shape.n);
        return NULL;
    }
    if ((unsigned) o->level >= GEN_LEVEL_COUNT
        || (o->method != GEN_DIG && o->method != GEN_SEED003)) {
        snprintf(why, whylen, "unknown method or level");
        return NULL;
    }
    if (o->holes < 0 || o->holes >= shape.ncells) {
        snprintf(why, whylen, "--holes must be below the %d cells", shape.ncells);
        return NULL;
    }
    struct generator *g = calloc(1, sizeof(*g));
    if (!g) {
        snprintf(why, whylen, "out of memory");
        return NULL;
    }
    g->opt = *o;
    g->shape = shape;
    if (!g->opt.solver)
        g->opt.solver = gen_default_solver(&shape);
    if (!g->opt.verifier)
        g->opt.verifier = gen_default_verifier(&shape, g->opt.solver);
    if (!g->opt.max_attempts)
        g->opt.max_attempts = GEN_DEFAULT_ATTEMPTS;
    if (!g->opt.climbs)
        g->opt.climbs = o->symmetric ? GEN_DEFAULT_CLIMBS_SYMMETRIC : GEN_DEFAULT_CLIMBS;
    char shape_name[48];
    grid_describe_shape(&shape, shape_name, sizeof(shape_name));
    if (!usable(g->opt.solver, &shape) || !usable(g->opt.verifier, &shape)) {
        snprintf(why, whylen, "no back end that counts solutions handles %s grids",
            shape_name);
        gen_close(g);
        return NULL;
    }
    if (g->opt.solver == g->opt.verifier) {
        snprintf(why, whylen,
            "the verifier must differ from the generating back end (%s)",
            g->opt.solver->name);
        gen_close(g);
        return NULL;
    }
    g->solver = solver_open(g->opt.solver);
    g->verifier = solver_open(g->opt.verifier);
    if (!g->solver || !g->verifier) {
        snprintf(why, whylen, "back end %s or %s failed to start", g->opt.solver->name,
            g->opt.verifier->name);
        gen_close(g);
        return NULL;
    }
    if (o->se_filter && (shape.n != 9 || shape.box_rows != 3 || shape.variant != 0)) {
        snprintf(why, whylen, "--se rates 9x9 classic puzzles only, not %s", shape_name);
        gen_close(g);
        return NULL;
    }
    if (o->se_filter && !(g->se = se_rater_new())) {
        snprintf(why, whylen, "out of memory");
        gen_close(g);
        return NULL;
    }
    if (o->technique_filter) {
        g->logic = calloc(1, sizeof(*g->logic));
        if (!g->logic) {
            snprintf(why, whylen, "out of memory");
            gen_close(g);
            return NULL;
        }
    }
    units_build(&g->units, &shape);
    g->full = (uint32_t) ((1ull << shape.n) - 1);
    gen_target(&g->opt, &g->lo, &g->hi);
    for (int c = 0; c < shape.ncells; c++) {
        const int m = o->symmetric ? shape.ncells - 1 - c : c;
        if (m < c)
            continue;
        g->orbit[g->norbits][0] = (uint16_t) c;
        g->orbit[g->norbits][1] = (uint16_t) m;
        g->orbit_size[g->norbits] = (uint8_t) (m == c ? 1 : 2);
        g->norbits++;
    }
    return g;
}

void gen_close(struct generator *g)
{
    if (!g)
        return;
    solver_close(g->solver);
    solver_close(g->verifier);
    free(g->logic);
    se_rater_free(g->se);
    free(g);
}

const char *gen_error(const struct generator *g)
{
    return g->why;
}

const struct gen_stats *gen_stats(const struct generator *g)
{
    return &g->stats;
}

const struct gen_options *gen_options(const struct generator *g)
{
    return &g->opt;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* --- unit masks --- */

static uint32_t cell_seen(const struct generator *g, int cell)
{
    const struct units *u = &g->units;
    uint32_t seen = 0;
    for (int i = 0; i < u->cell_nunits[cell]; i++)
        seen |= g->mask[u->cell_unit[cell][i]];
    return seen;
}

static void mask_set(struct generator *g, int cell, int value)
{
    const struct units *u = &g->units;
    for (int i = 0; i < u->cell_nunits[cell]; i++)
        g->mask[u->cell_unit[cell][i]] |= 1u << (value - 1);
}

static void mask_clear(struct generator *g, int cell, int value)
{
    const struct units *u = &g->units;
    for (int i = 0; i < u->cell_nunits[cell]; i++)
        g->mask[u->cell_unit[cell][i]] &= ~(1u << (value - 1));
}

static void masks_from(struct generator *g, const struct grid *p)
{
    memset(g->mask, 0, sizeof(g->mask));
    g->clues = 0;
    for (int c = 0; c < p->ncells; c++) {
        if (p->cell[c]) {
            mask_set(g, c, p->cell[c]);
            g->clues++;
        }
    }
}

/* --- complete grids --- */

/* Returns true when grid is full; false at a dead end or when the node
 * budget is spent (fill_nodes tells which). */
static bool fill_search(struct generator *g, struct grid *grid, uint64_t budget)
{
    if (++g->fill_nodes > budget)
        return false;
    int best = -1, best_count = GRID_MAX_N + 1;
    uint32_t best_cand = 0;
    for (int c = 0; c < grid->ncells; c++) {
        if (grid->cell[c])
            continue;
        const uint32_t cand = g->full & ~cell_seen(g, c);
        const int count = __builtin_popcount(cand);
        if (count == 0)
            return false;
        if (count < best_count) {
            best = c;
            best_count = count;
            best_cand = cand;
            if (count == 1)
                break;
        }
    }
    if (best < 0)
        return true;
    int values[GRID_MAX_N], nv = 0;
    for (uint32_t t = best_cand; t; t &= t - 1)
        values[nv++] = __builtin_ctz(t) + 1;
    rng_shuffle(&g->rng, values, nv);
    for (int i = 0; i < nv; i++) {
        grid->cell[best] = (uint8_t) values[i];
        mask_set(g, best, values[i]);
        if (fill_search(g, grid, budget))
            return true;
        mask_clear(g, best, values[i]);
        grid->cell[best] = 0;
        if (g->fill_nodes > budget)
            return false;
    }
    return false;
}

static bool fill_grid(struct generator *g)
{
    for (int tries = 0; tries < 1000; tries++) {
        g->solution = g->shape;
        memset(g->mask, 0, sizeof(g->mask));
        g->fill_nodes = 0;
        if (fill_search(g, &g->solution, 10u * (uint64_t) g->shape.ncells))
            return true;
    }
    snprintf(g->why, sizeof(g->why), "could not fill a complete grid");
    return false;
}

/* --- uniqueness --- */

static bool keep_solution(void *ctx, const struct grid *solution)
{
    struct generator *g = ctx;
    if (g->nsol < 2)
        g->sol[g->nsol] = *solution;
    g->nsol++;
    return true;
}

/* 1: unique; 0: not (several, none, or the budget ran out); -1: back-end
 * failure (why is set). keep: the solutions found land in g->sol. */
static int check_unique(
    struct generator *g, const struct grid *p, bool keep, uint64_t budget)
{
    struct solve_request req = { .limit = 2 };
    if (budget && (g->opt.solver->caps & SOLVER_CAP_STEP_BUDGET))
        req.budget_steps = budget;
    if (keep) {
        req.on_solution = keep_solution;
        req.ctx = g;
        g->nsol = 0;
    }
    struct solve_result res;
    solver_run(g->solver, p, &req, &res);
    g->stats.checks++;
    switch (res.status) {
    case SOLVE_STATUS_UNIQUE:
        return 1;
    case SOLVE_STATUS_MULTIPLE:
    case SOLVE_STATUS_UNSOLVABLE:
    case SOLVE_STATUS_LIMIT:
        return 0;
    default:
        snprintf(g->why, sizeof(g->why), "back end %s: %s (%s)", g->opt.solver->name,
            solve_status_name(res.status), res.error);
        return -1;
    }
}

/* Whether value, just removed from cell, is still implied by the clues alone:
 * the only value its peers leave, or the only place for it in one of its
 * units. */
static bool forced(const struct generator *g, int cell, int value)
{
    const struct units *u = &g->units;
    const uint32_t bit = 1u << (value - 1);
    if ((g->full & ~cell_seen(g, cell)) == bit)
        return true;
    for (int i = 0; i < u->cell_nunits[cell]; i++) {
        const int unit = u->cell_unit[cell][i];
        bool elsewhere = false;
        for (int k = 0; k < u->n && !elsewhere; k++) {
            const int e = u->unit_cell[unit][k];
            if (e != cell && !g->puzzle.cell[e] && !(cell_seen(g, e) & bit))
                elsewhere = true;
        }
        if (!elsewhere)
            return true;
    }
    return false;
}

static void remove_clue(struct generator *g, int cell)
{
    mask_clear(g, cell, g->puzzle.cell[cell]);
    g->puzzle.cell[cell] = 0;
    g->clues--;
}

static void add_clue(struct generator *g, int cell)
{
    g->puzzle.cell[cell] = g->solution.cell[cell];
    mask_set(g, cell, g->puzzle.cell[cell]);
    g->clues++;
}

static bool orbit_is_clue(const struct generator *g, int o)
{
    return g->puzzle.cell[g->orbit[o][0]] != 0;
}

/* Removes orbit o if the puzzle stays unique. 1 removed, 0 kept, -1 error. */
static int try_remove(struct generator *g, int o)
{
    bool implied = true;
    for (int i = 0; i < g->orbit_size[o]; i++) {
        const int cell = g->orbit[o][i];
        const int value = g->puzzle.cell[cell];
        remove_clue(g, cell);
        implied = implied && forced(g, cell, value);
    }
    g->has_witness[o] = false;
    if (implied) {
        g->stats.shortcuts++;
        return 1;
    }
    const int r = check_unique(g, &g->puzzle, true, 0);
    if (r != 1) {
        for (int i = 0; i < g->orbit_size[o]; i++)
            add_clue(g, g->orbit[o][i]);
    }
    if (r == 0 && g->nsol > 0) {
        const struct grid *other = &g->sol[0];
        if (g->nsol > 1
            && memcmp(other->cell, g->solution.cell, (size_t) g->shape.ncells) == 0)
            other = &g->sol[1];
        memset(g->witness[o], 0, sizeof(g->witness[o]));
        for (int c = 0; c < g->shape.ncells; c++) {
            if (other->cell[c] != g->solution.cell[c])
                g->witness[o][c / 64] |= 1ull << (c % 64);
        }
        g->has_witness[o] = true;
    }
    return r;
}

/* Whether orbit o's witness differs from the solution at a cell of orbit h:
 * putting h back then rules that second solution out. */
static bool witness_hits(const struct generator *g, int o, int h)
{
    if (!g->has_witness[o])
        return true;
    for (int i = 0; i < g->orbit_size[h]; i++) {
        const int c = g->orbit[h][i];
        if (g->witness[o][c / 64] & (1ull << (c % 64)))
            return true;
    }
    return false;
}

static void shuffle_orbits(struct generator *g)
{
    for (int i = 0; i < g->norbits; i++)
        g->order[i] = i;
    rng_shuffle(&g->rng, g->order, g->norbits);
}

/* With symmetric and minimal: removable orbits are gone; also no single clue
 * may go. 1 strictly minimal, 0 not, -1 error. */
static int strictly_minimal(struct generator *g)
{
    if (!g->opt.symmetric)
        return 1;
    for (int c = 0; c < g->shape.ncells; c++) {
        if (!g->puzzle.cell[c])
            continue;
        const int value = g->puzzle.cell[c];
        remove_clue(g, c);
        const int r = forced(g, c, value) ? 1 : check_unique(g, &g->puzzle, false, 0);
        add_clue(g, c);
        if (r != 0)
            return r < 0 ? -1 : 0;
    }
    return 1;
}

/* --- dig --- */

/* One pass over the clue orbits in random order (skipping `skip`), removing
 * what can go while short of the target. */
static int dig_pass(struct generator *g, int skip)
{
    const int ncells = g->shape.ncells;
    shuffle_orbits(g);
    for (int i = 0; i < g->norbits; i++) {
        const int o = g->order[i];
        const int holes = ncells - g->clues;
        if (!g->opt.minimal && holes >= g->lo)
            break;
        if (o == skip || !orbit_is_clue(g, o) || holes + g->orbit_size[o] > g->hi)
            continue;
        if (try_remove(g, o) < 0)
            return -1;
    }
    return 0;
}

/* One climb: put back a removed orbit that rules out the second solutions of
 * as many kept clues as possible, then retry just those clues (the others
 * keep their second solutions, so they still cannot go) and the orbit put
 * back. Returns -1 on error, else 0. */
static int climb(struct generator *g)
{
    int holes[GRID_MAX_CELLS], nholes = 0, best = 0;
    int score[GRID_MAX_CELLS];
    for (int h = 0; h < g->norbits; h++) {
        if (orbit_is_clue(g, h))
            continue;
        score[h] = 0;
        for (int o = 0; o < g->norbits; o++) {
            if (orbit_is_clue(g, o) && witness_hits(g, o, h))
                score[h]++;
        }
        if (score[h] > best) {
            best = score[h];
            nholes = 0;
        }
        if (score[h] == best)
            holes[nholes++] = h;
    }

    if (nholes == 0)
        return 0;
    const int back = holes[rng_below(&g->rng, (uint64_t) nholes)];
    for (int i = 0; i < g->orbit_size[back]; i++)
        add_clue(g, g->orbit[back][i]);
    g->stats.climbs++;
    int retry[GRID_MAX_CELLS], nretry = 0, removed = 0;
    for (int o = 0; o < g->norbits; o++) {
        if (o != back && orbit_is_clue(g, o) && witness_hits(g, o, back)) {
            g->has_witness[o] = false; /* ruled out: retried or, if skipped, unknown */
            retry[nretry++] = o;
        }
    }
    rng_shuffle(&g->rng, retry, nretry);
    for (int i = 0; i < nretry; i++) {
        const int now = g->shape.ncells - g->clues;
        if (!g->opt.minimal && now >= g->lo)
            break;
        if (now + g->orbit_size[retry[i]] > g->hi)
            continue;
        const int r = try_remove(g, retry[i]);
        if (r < 0)
            return -1;
        removed += r;
    }
    /* back again: free when nothing else went (the puzzle is the one before) */
    const int now = g->shape.ncells - g->clues;
    if ((g->opt.minimal || now < g->lo) && now + g->orbit_size[back] <= g->hi) {
        if (removed == 0) {
            for (int i = 0; i < g->orbit_size[back]; i++)
                remove_clue(g, g->orbit[back][i]);
        } else if (try_remove(g, back) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Minimal: every clue orbit either has a second solution without it or is
 * tried once more. Returns -1 on error, else 0. */
static int finish_minimal(struct generator *g)
{
    for (int o = 0; o < g->norbits; o++) {
        if (orbit_is_clue(g, o) && !g->has_witness[o] && try_remove(g, o) < 0)
            return -1;
    }
    return 0;
}

/* 1 done, 0 this grid failed, -1 error. */
static int dig(struct generator *g)
{
    const int ncells = g->shape.ncells;
    g->puzzle = g->solution;
    masks_from(g, &g->puzzle);
    memset(g->has_witness, 0, sizeof(g->has_witness));
    if (dig_pass(g, -1) < 0)
        return -1;
    for (uint32_t round = 0;; round++) {
        if (g->opt.minimal && finish_minimal(g) < 0)
            return -1;
        const int holes = ncells - g->clues;
        if (holes >= g->lo && holes <= g->hi)
            return g->opt.minimal ? strictly_minimal(g) : 1;
        if (round == g->opt.climbs)
            return 0;
        if (climb(g) < 0)
            return -1;
    }
}

/* --- seed003 --- */

static int mirror(const struct generator *g, int cell)
{
    return g->opt.symmetric ? g->shape.ncells - 1 - cell : cell;
}

static int random_legal_value(struct generator *g, int cell)
{
    const uint32_t cand = g->full & ~cell_seen(g, cell);
    const int count = __builtin_popcount(cand);
    if (count == 0)
        return 0;
    uint32_t t = cand;
    for (int k = (int) rng_below(&g->rng, (uint64_t) count); k > 0; k--)
        t &= t - 1;
    return __builtin_ctz(t) + 1;
}

/* The seed's random clue set: K legal clues (with symmetric, in mirrored
 * pairs). Leaves it in g->puzzle; false when the grid jams. */
static bool seed003_clues(struct generator *g, int k)
{
    const int ncells = g->shape.ncells;
    g->puzzle = g->shape;
    masks_from(g, &g->puzzle);
    int count = 0;
    for (int tries = 0; count < k; tries++) {
        if (tries > 100 * ncells)
            return false;
        int n = (int) rng_below(&g->rng, (uint64_t) ncells);
        const int t = 1 + (int) rng_below(&g->rng, g->shape.n);
        while (g->puzzle.cell[n])
            n = (n + 1) % ncells;
        if (cell_seen(g, n) & (1u << (t - 1)))
            continue;
        g->puzzle.cell[n] = (uint8_t) t;
        mask_set(g, n, t);
        count++;
        const int m = mirror(g, n);
        if (m == n)
            continue;
        const int v = random_legal_value(g, m);
        if (v) {
            g->puzzle.cell[m] = (uint8_t) v;
            mask_set(g, m, v);
            count++;
        } else {
            mask_clear(g, n, t);
            g->puzzle.cell[n] = 0;
            count--;
        }
    }
    return true;
}

/* First cell, column-major, where the two solutions differ. */
static int first_difference(const struct generator *g)
{
    const int n = g->shape.n;
    for (int c = 0; c < n; c++) {
        for (int r = 0; r < n; r++) {
            if (g->sol[0].cell[r * n + c] != g->sol[1].cell[r * n + c])
                return r * n + c;
        }
    }
    return -1;
}

static int seed003(struct generator *g)
{
    if (!seed003_clues(g, scale_clues(25, g->shape.n)))
        return 0;
    int r = check_unique(g, &g->puzzle, true, GEN_SEED003_BUDGET);
    if (r < 0)
        return -1;
    if (g->nsol == 0)
        return 0; /* no solution (or the budget ran out): draw again */
    while (g->nsol >= 2) {
        const int d = first_difference(g);
        g->puzzle.cell[d] = g->sol[0].cell[d];
        g->puzzle.cell[mirror(g, d)] = g->sol[0].cell[mirror(g, d)];
        r = check_unique(g, &g->puzzle, true, GEN_SEED003_BUDGET);
        if (r < 0)
            return -1;
        if (g->nsol == 0)
            return 0;
    }
    g->solution = g->sol[0];
    masks_from(g, &g->puzzle);
    memset(g->has_witness, 0, sizeof(g->has_witness));
    if (g->opt.minimal) {
        shuffle_orbits(g);
        for (int i = 0; i < g->norbits; i++) {
            if (orbit_is_clue(g, g->order[i]) && try_remove(g, g->order[i]) < 0)
                return -1;
        }
        if (g->clues < g->lo || g->clues > g->hi)
            return 0;
        return strictly_minimal(g);
    }
    const int target = g->lo + (int) rng_below(&g->rng, (uint64_t) (g->hi - g->lo + 1));
    shuffle_orbits(g);
    for (int i = 0; i < g->norbits; i++) {
        const int o = g->order[i];
        if (g->clues > target && orbit_is_clue(g, o)
            && g->clues - g->orbit_size[o] >= g->lo) {
            if (try_remove(g, o) < 0)
                return -1;
        } else if (g->clues < target && !orbit_is_clue(g, o)
            && g->clues + g->orbit_size[o] <= g->hi) {
            for (int k = 0; k < g->orbit_size[o]; k++)
                add_clue(g, g->orbit[o][k]);
        }
    }
    return g->clues >= g->lo && g->clues <= g->hi;
}

/* --- one puzzle --- */

static int verify(struct generator *g)
{
    const struct solve_request req = { .limit = 2 };
    struct solve_result res;
    solver_run(g->verifier, &g->puzzle, &req, &res);
    g->stats.verify_ns += res.time_ns;
    if (res.status == SOLVE_STATUS_UNIQUE
        && memcmp(res.solution.cell, g->solution.cell, (size_t) g->shape.ncells) == 0)
        return 0;
    char line[GRID_MAX_CELLS + 1];
    grid_format_line(&g->puzzle, line);
    snprintf(g->why, sizeof(g->why),
        "verifier %s disagrees with %s (status %s%s%s) on %.*s", g->opt.verifier->name,
        g->opt.solver->name, solve_status_name(res.status), res.error[0] ? ": " : "",
        res.error, 100, line);
    return -1;
}

static bool in_se_band(const struct generator *g, const struct grid *puzzle)
{
    const uint64_t ms = g->opt.se_budget_ms ? g->opt.se_budget_ms : 60000;
    struct se_rating r;
    se_rate_within(g->se, puzzle, se_rater_now(g->se) + ms * 1000000u, &r);
    return r.verdict == SE_RATED && r.er >= g->opt.min_se && r.er <= g->opt.max_se;
}

bool gen_filters_keep(struct generator *g, const struct grid *puzzle)
{
    if (g->opt.technique_filter) {
        struct logic_result lr;
        logic_rate(g->logic, puzzle, &lr);
        if (lr.hardest < g->opt.min_technique || lr.hardest > g->opt.max_technique)
            return false;
    }
    return !g->opt.se_filter || in_se_band(g, puzzle);
}

int gen_make(
    struct generator *g, uint64_t index, struct grid *puzzle, struct grid *solution)
{
    rng_seed(&g->rng, mix64(g->opt.seed ^ mix64(index + 0x9e3779b97f4a7c15u)));
    g->why[0] = '\0';
    for (uint32_t attempt = 0; attempt < g->opt.max_attempts; attempt++) {
        g->stats.grids++;
        int r;
        if (g->opt.method == GEN_DIG) {
            if (!fill_grid(g))
                return -1;
            r = dig(g);
        } else {
            r = seed003(g);
        }
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        if (!gen_filters_keep(g, &g->puzzle)) {
            g->stats.rejected++;
            continue;
        }
        if (verify(g) != 0)
            return -1;
        *puzzle = g->puzzle;
        if (solution)
            *solution = g->solution;
        g->stats.puzzles++;
        return 0;
    }
    const bool dig_method = g->opt.method == GEN_DIG;
    if (g->opt.se_filter) {
        snprintf(g->why, sizeof(g->why),
            "no puzzle rated SE %d.%d-%d.%d among %u attempts (%s, %s %d-%d%s%s): the "
            "band is "
            "out of reach this way; widen it, raise --attempts or change --level/--holes",
            g->opt.min_se / 10, g->opt.min_se % 10, g->opt.max_se / 10,
            g->opt.max_se % 10, g->opt.max_attempts, gen_method_name(g->opt.method),
            dig_method ? "holes" : "clues", g->lo, g->hi,
            g->opt.symmetric ? ", symmetric" : "", g->opt.minimal ? ", minimal" : "");
        return -1;
    }
    snprintf(g->why, sizeof(g->why),
        "no puzzle found in %u attempts (%s, %s %d-%d%s%s%s): too few %s for this size?",
        g->opt.max_attempts, gen_method_name(g->opt.method),
        dig_method ? "holes" : "clues", g->lo, g->hi,
        g->opt.symmetric ? ", symmetric" : "", g->opt.minimal ? ", minimal" : "",
        g->opt.technique_filter ? ", technique range" : "",
        dig_method ? "clues" : "clues in range");
    return -1;
}
