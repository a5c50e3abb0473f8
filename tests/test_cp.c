/* The constraint-programming back ends (solvers/cp.c, solvers/gecode.cpp)
 * and solvers/cp.h:
 *
 *   alldifferent filter   cp_alldifferent_gac() against brute force: on
 *                         hand-made and random small constraints, every
 *                         assignment of distinct values is enumerated, the
 *                         values some assignment uses are the expected
 *                         domains, and none means a contradiction; again with
 *                         the matching kept from the last call and a value
 *                         removed, and with values spread over 32 bits;
 *   propagation alone     cp_propagate() on the cross-check corpus: a level
 *                         that solves or refutes a puzzle agrees with its
 *                         known count and every stronger level says the same,
 *                         open cells never grow with the level, a budget of
 *                         one step gives CP_LIMIT;
 *   gecode                on the puzzles of every shape the agreement test
 *                         makes (random complete grids, a sixth blanked, dug
 *                         unique, dug with a wrong clue, much blanked; seed
 *                         printed) and on the cross-check corpus: cp_gac and
 *                         gecode give the same solution counts (limit 2, and
 *                         every solution of small puzzles) and exactly the
 *                         same node counts, since both branch alike and
 *                         domain consistency has one fixpoint;
 *   stronger is smaller   on the same puzzles, cp_fc's nodes >= cp_gac's >=
 *                         cp_sac's, where all three decide within their step
 *                         budgets.
 * Budgets are steps (gecode's are nodes), so verdicts do not depend on the
 * machine. */
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "config.h"
#include "solvers/cp.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

/* --- one alldifferent against brute force --- */

/* Every assignment of distinct values: the values each variable takes in one,
 * ORed into support[]. Returns the number of assignments. */
static long brute_support(
    int k, const uint32_t *dom, int i, uint32_t used, int *chosen, uint32_t *support)
{
    if (i == k) {
        for (int x = 0; x < k; x++)
            support[x] |= 1u << chosen[x];
        return 1;
    }
    long found = 0;
    for (uint32_t left = dom[i] & ~used; left; left &= left - 1) {
        chosen[i] = __builtin_ctz(left);
        found += brute_support(k, dom, i + 1, used | (1u << chosen[i]), chosen, support);
    }
    return found;
}

/* Filters dom (k variables) with the matching in match and checks the result
 * against brute force; dom then holds the filtered domains. */
static void check_filter(int k, uint32_t *dom, int8_t *match, const char *what)
{
    uint32_t support[CP_ALLDIFF_MAX] = { 0 };
    int chosen[CP_ALLDIFF_MAX];
    const long assignments = brute_support(k, dom, 0, 0, chosen, support);
    uint32_t before[CP_ALLDIFF_MAX];
    memcpy(before, dom, (size_t) k * sizeof(*dom));
    const bool ok = cp_alldifferent_gac(k, dom, match);
    if (ok != (assignments > 0)) {
        fail_msg("%s: %d variables, %ld assignments, but the filter says %s", what, k,
            assignments, ok ? "consistent" : "contradiction");
    }
    if (!ok)
        return;
    for (int x = 0; x < k; x++) {
        if (dom[x] != support[x]) {
            fail_msg("%s: variable %d of %d: domain %#x filtered to %#x, supported %#x",
                what, x, k, before[x], dom[x], support[x]);
        }
    }
}

static void gac_hand_made(void **state)
{
    (void) state;
    /* Régin's kind of example: {1,2} {1,2} {1,2,3} {2,3,4,5} {5,6}: 1 and 2
     * belong to the first two, so 3 to the third, 4 or 5 to the fourth. */
    static const uint32_t cases[][6] = {
        { 0x3, 0x3, 0x7, 0x1e, 0x30 },
        { 0x1, 0x1 }, /* two variables, one value: contradiction */
        { 0x3, 0x3, 0x3 }, /* pigeonhole */
        { 0x6, 0x5, 0x3 }, /* an odd cycle: every value supported */
        { 0x1, 0x3, 0x7, 0xf, 0x1f, 0x3f }, /* a staircase: all fixed */
        { 0x80000001u, 0x80000000u, 0xc0000000u }, /* the top bits */
    };
    static const int sizes[] = { 5, 2, 3, 3, 6, 3 };
    for (size_t c = 0; c < TEST_COUNT(cases); c++) {
        uint32_t dom[6];
        int8_t match[6];
        memcpy(dom, cases[c], sizeof(dom));
        memset(match, -1, sizeof(match));
        check_filter(sizes[c], dom, match, "hand-made case");
    }
}

static void gac_random(void **state)
{
    (void) state;
    struct rng rng;
    rng_seed(&rng, test_seed("cp alldifferent", 20261127u));
    for (int round = 0; round < 20000; round++) {
        const int k = 1 + (int) rng_below(&rng, 7);
        const int nvalues = k + (int) rng_below(&rng, 3) - (round % 5 == 0);
        if (nvalues < 1)
            continue;
        /* the values: the lowest ones, or every tenth round spread over 32 bits */
        int value_bit[32];
        for (int v = 0; v < nvalues; v++)
            value_bit[v] = v;
        if (round % 10 == 1) {
            int all[32];
            for (int b = 0; b < 32; b++)
                all[b] = b;
            rng_shuffle(&rng, all, 32);
            memcpy(value_bit, all, (size_t) nvalues * sizeof(int));
        }
        uint32_t dom[CP_ALLDIFF_MAX];
        int8_t match[CP_ALLDIFF_MAX];
        for (int x = 0; x < k; x++) {
            dom[x] = 0;
            for (int v = 0; v < nvalues; v++) {
                if (rng_below(&rng, 100) < 55)
                    dom[x] |= 1u << value_bit[v];
            }
            /* any stale matching, even nonsense, must be repaired */
            match[x] = (int8_t) ((int) rng_below(&rng, 40) - 2);
        }
        check_filter(k, dom, match, "random case");
        /* the kept matching, after a value of a variable is removed */
        const int x = (int) rng_below(&rng, (uint64_t) k);
        if (dom[x] & (dom[x] - 1)) {
            dom[x] &= dom[x] - 1;
            check_filter(k, dom, match, "random case, matching kept");
        }
    }
}

/* --- propagation without search --- */

static struct test_case *cases;
static size_t ncases;

static void propagate_levels(void **state)
{
    (void) state;
    int solved[CP_LEVEL_COUNT] = { 0 }, refuted[CP_LEVEL_COUNT] = { 0 }, limited = 0;
    for (size_t i = 0; i < ncases; i++) {
        const struct test_case *c = &cases[i];
        struct cp_propagation prev = { .verdict = CP_OPEN, .open_cells = GRID_MAX_CELLS };
        for (int level = 0; level < CP_LEVEL_COUNT; level++) {
            struct cp_propagation p;
            assert_int_equal(cp_propagate(&c->puzzle, (enum cp_level) level, 0, &p), 0);
            const char *name = cp_level_name((enum cp_level) level);
            if (p.verdict == CP_LIMIT)
                fail_msg("%s:%lu: %s: limit without a budget", c->file, c->line, name);
            if (p.verdict == CP_SOLVED && c->count != 1) {
                fail_msg("%s:%lu: %s solved a puzzle with count %d", c->file, c->line,
                    name, c->count);
            }
            if (p.verdict == CP_CONTRADICTION && c->count != 0
                && c->count != TEST_INVALID) {
                fail_msg("%s:%lu: %s refuted a puzzle with count %d", c->file, c->line,
                    name, c->count);
            }
            if (c->count == TEST_INVALID && p.verdict != CP_CONTRADICTION)
                fail_msg("%s:%lu: %s: clues that break a rule not refuted", c->file,
                    c->line, name);
            if (prev.verdict != CP_OPEN && p.verdict != prev.verdict)
                fail_msg("%s:%lu: %s undoes the verdict of a weaker level", c->file,
                    c->line, name);
            if (p.verdict == CP_OPEN && p.open_cells > prev.open_cells)
                fail_msg("%s:%lu: %s leaves %d cells open, a weaker level %d", c->file,
                    c->line, name, p.open_cells, prev.open_cells);
            solved[level] += p.verdict == CP_SOLVED;
            refuted[level] += p.verdict == CP_CONTRADICTION;
            prev = p;
        }
        /* a budget of one step: the verdict the first step gives, or limit */
        struct cp_propagation whole, one;
        assert_int_equal(cp_propagate(&c->puzzle, CP_LEVEL_GAC, 0, &whole), 0);
        assert_int_equal(cp_propagate(&c->puzzle, CP_LEVEL_GAC, 1, &one), 0);
        const enum cp_verdict want = whole.steps > 1 ? CP_LIMIT : whole.verdict;
        if (one.verdict != want || one.steps > 1)
            fail_msg("%s:%lu: a budget of one step gave verdict %d after %llu steps, "
                     "not %d",
                c->file, c->line, (int) one.verdict, (unsigned long long) one.steps,
                (int) want);
        limited += want == CP_LIMIT;
    }
    for (int level = 0; level < CP_LEVEL_COUNT; level++)
        printf("# %s: %d of %zu corpus puzzles solved, %d refuted without search\n",
            cp_level_name((enum cp_level) level), solved[level], ncases, refuted[level]);
    assert_true(limited > 0);
    /* the corpus has puzzles that forward checking leaves open and SAC settles */
    assert_true(solved[CP_LEVEL_SAC] + refuted[CP_LEVEL_SAC]
        > solved[CP_LEVEL_FC] + refuted[CP_LEVEL_FC]);
}

/* --- the puzzles of the agreement test's shapes --- */

static const struct shape_spec {
    uint8_t box_rows, box_cols, variant, grids, blank_percent;
} shapes[] = {
    { 2, 2, GRID_STANDARD, 3, 60 },
    { 2, 3, GRID_STANDARD, 3, 60 },
    { 2, 4, GRID_STANDARD, 2, 60 },
    { 3, 3, GRID_STANDARD, 6, 60 },
    { 3, 4, GRID_STANDARD, 2, 60 },
    { 4, 4, GRID_STANDARD, 2, 55 },
    { 5, 5, GRID_STANDARD, 1, 40 },
    { 2, 2, GRID_DIAGONAL, 2, 60 },
    { 2, 3, GRID_DIAGONAL, 2, 60 },
    { 3, 3, GRID_DIAGONAL, 2, 60 },
    { 3, 4, GRID_DIAGONAL, 1, 60 },
};

enum {
    MAX_PUZZLES = 400,
    MAKER_STEPS = 2000000, /* mrv's steps to complete or judge a puzzle */
    DIG_STEPS = 50000, /* ... to prove a dug puzzle unique */
    FULL_COUNT_N = 9, /* every solution compared up to 9x9 ... */
    FULL_COUNT_MAX = 1000, /* ... up to this many */
    CP_STEPS = 2000000, /* a cp back end's propagator runs per puzzle */
    GECODE_NODES = 2000000, /* gecode's budget (its steps are nodes) */
};

struct made_puzzle {
    struct grid g;
    char what[64];
};

static struct made_puzzle *made;
static size_t nmade;
static struct solver_instance *maker;

static void add_made(const struct grid *g, const char *shape, const char *kind)
{
    if (nmade == MAX_PUZZLES)
        return;
    made[nmade].g = *g;
    snprintf(made[nmade].what, sizeof(made[nmade].what), "%s %s", shape, kind);
    nmade++;
}

static bool random_full_grid(struct rng *rng, const struct grid *shape, struct grid *out)
{
    for (int clues = shape->n;; clues /= 2) {
        struct grid g = *shape;
        for (int placed = 0, tries = 0; placed < clues && tries < 100 * g.n; tries++) {
            const int cell = (int) rng_below(rng, g.ncells);
            if (g.cell[cell])
                continue;
            g.cell[cell] = (uint8_t) (1 + rng_below(rng, g.n));
            if (grid_find_conflict(&g, NULL, 0))
                g.cell[cell] = 0;
            else
                placed++;
        }
        struct solve_result res;
        test_solve(maker, &g, 1, MAKER_STEPS, &res);
        if (res.status == SOLVE_STATUS_SOLVED) {
            *out = res.solution;
            return true;
        }
        if (clues == 0)
            return false;
    }
}

static void blank_at_random(struct rng *rng, struct grid *g, unsigned percent)
{
    for (int i = 0; i < g->ncells; i++) {
        if (rng_below(rng, 100) < percent)
            g->cell[i] = 0;
    }
}

static void dig_unique(struct rng *rng, struct grid *g)
{
    int order[GRID_MAX_CELLS];
    for (int i = 0; i < g->ncells; i++)
        order[i] = i;
    rng_shuffle(rng, order, g->ncells);
    for (int k = 0; k < g->ncells; k++) {
        const uint8_t v = g->cell[order[k]];
        g->cell[order[k]] = 0;
        struct solve_result res;
        test_solve(maker, g, 2, DIG_STEPS, &res);
        if (res.status != SOLVE_STATUS_UNIQUE)
            g->cell[order[k]] = v;
    }
}

static bool add_wrong_clue(struct rng *rng, struct grid *g, const struct grid *full)
{
    for (int tries = 0; tries < 100 * g->ncells; tries++) {
        const int cell = (int) rng_below(rng, g->ncells);
        const uint8_t v = (uint8_t) (1 + rng_below(rng, g->n));
        if (g->cell[cell] || v == full->cell[cell])
            continue;
        g->cell[cell] = v;
        if (!grid_find_conflict(g, NULL, 0))
            return true;
        g->cell[cell] = 0;
    }
    return false;
}

static int make_puzzles(void **state)
{
    (void) state;
    const uint64_t seed = test_seed("cp puzzles", 20251124u);
    const struct solver *s = solver_find("mrv");
    maker = s ? solver_open(s) : NULL;
    made = calloc(MAX_PUZZLES, sizeof(*made));
    if (!maker || !made || test_load_crosscheck(&cases, &ncases) != 0)
        return -1;
    for (size_t i = 0; i < TEST_COUNT(shapes); i++) {
        const struct shape_spec *spec = &shapes[i];
        struct grid shape;
        char name[48];
        grid_init(
            &shape, spec->box_rows, spec->box_cols, (enum grid_variant) spec->variant);
        grid_describe_shape(&shape, name, sizeof(name));
        struct rng rng;
        rng_seed(&rng, seed ^ (0x9E3779B97F4A7C15u * (i + 1)));
        for (int k = 0; k < spec->grids; k++) {
            struct grid full, g;
            if (!random_full_grid(&rng, &shape, &full))
                continue;
            g = full;
            blank_at_random(&rng, &g, 17);
            add_made(&g, name, "a sixth blanked");
            g = full;
            dig_unique(&rng, &g);
            add_made(&g, name, "dug unique");
            if (add_wrong_clue(&rng, &g, &full))
                add_made(&g, name, "dug, wrong clue");
            g = full;
            blank_at_random(&rng, &g, spec->blank_percent);
            add_made(&g, name, "blanked");
        }
    }
    for (size_t i = 0; i < ncases; i++) {
        if (cases[i].count != TEST_INVALID)
            add_made(&cases[i].puzzle, cases[i].file, "corpus");
    }
    printf("# %zu puzzles of %zu shapes and the cross-check corpus\n", nmade,
        TEST_COUNT(shapes));
    return 0;
}

static int free_puzzles(void **state)
{
    (void) state;
    solver_close(maker);
    free(made);
    free(cases);
    return 0;
}

/* A back end's answer within its budget: false when the budget ran out. */
static bool run(struct solver_instance *inst, const struct grid *g, uint64_t limit,
    uint64_t budget, struct solve_result *res)
{
    test_solve(inst, g, limit, budget, res);
    if (res->status == SOLVE_STATUS_ERROR || res->status == SOLVE_STATUS_INVALID)
        fail_msg("%s: status %s (%s)", solver_of(inst)->name,
            solve_status_name(res->status), res->error);
    return res->status != SOLVE_STATUS_LIMIT;
}

static void gecode_same_tree(void **state)
{
    (void) state;
#if HAVE_GECODE
    struct solver_instance *gac = test_open("cp_gac"), *gecode = test_open("gecode");
    int compared = 0, undecided = 0;
    for (size_t i = 0; i < nmade; i++) {
        const struct made_puzzle *p = &made[i];
        for (int full = 0; full < 2; full++) {
            if (full && p->g.n > FULL_COUNT_N)
                continue;
            const uint64_t limit = full ? FULL_COUNT_MAX + 1 : 2;
            struct solve_result a, b;
            if (!run(gac, &p->g, limit, CP_STEPS, &a)
                || !run(gecode, &p->g, limit, GECODE_NODES, &b)) {
                undecided++;
                continue;
            }
            compared++;
            if (a.solutions != b.solutions || a.counters.nodes != b.counters.nodes
                || a.counters.backtracks != b.counters.backtracks) {
                fail_msg("%s (puzzle %zu, limit %llu): cp_gac %llu solutions, %llu "
                         "nodes, %llu failed; gecode %llu, %llu, %llu",
                    p->what, i, (unsigned long long) limit,
                    (unsigned long long) a.solutions,
                    (unsigned long long) a.counters.nodes,
                    (unsigned long long) a.counters.backtracks,
                    (unsigned long long) b.solutions,
                    (unsigned long long) b.counters.nodes,
                    (unsigned long long) b.counters.backtracks);
            }
        }
    }
    printf("# cp_gac and gecode: %d searches compared, %d undecided within the budgets\n",
        compared, undecided);
    solver_close(gac);
    solver_close(gecode);
    assert_true(undecided * 10 <= compared);
#else
    /* CI installs libgecode-dev: there a build without gecode is a fault */
    if (getenv("SUDOLAB_CI"))
        fail_msg("gecode is not built, and SUDOLAB_CI is set (libgecode-dev, g++)");
    test_skip("gecode is not built (-Dgecode, libgecode-dev)");
#endif
}

static void stronger_smaller(void **state)
{
    (void) state;
    static const char *const names[] = { "cp_fc", "cp_gac", "cp_sac" };
    struct solver_instance *inst[3];
    for (int k = 0; k < 3; k++)
        inst[k] = test_open(names[k]);
    int compared = 0, undecided = 0;
    for (size_t i = 0; i < nmade; i++) {
        const struct made_puzzle *p = &made[i];
        struct solve_result res[3];
        bool decided = true;
        for (int k = 0; k < 3; k++)
            decided = run(inst[k], &p->g, 2, CP_STEPS, &res[k]) && decided;
        if (!decided) {
            undecided++;
            continue;
        }
        compared++;
        for (int k = 1; k < 3; k++) {
            if (res[k].solutions != res[0].solutions)
                fail_msg("%s (puzzle %zu): %s finds %llu solutions, %s %llu", p->what, i,
                    names[k], (unsigned long long) res[k].solutions, names[0],
                    (unsigned long long) res[0].solutions);
            if (res[k].counters.nodes > res[k - 1].counters.nodes)
                fail_msg("%s (puzzle %zu): %s %llu nodes, more than %s's %llu", p->what,
                    i, names[k], (unsigned long long) res[k].counters.nodes, names[k - 1],
                    (unsigned long long) res[k - 1].counters.nodes);
        }
    }
    printf("# cp_fc, cp_gac, cp_sac: %d puzzles compared, %d undecided within %d steps\n",
        compared, undecided, CP_STEPS);
    for (int k = 0; k < 3; k++)
        solver_close(inst[k]);
    assert_true(undecided * 10 <= compared);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(gac_hand_made),
        cmocka_unit_test(gac_random),
        cmocka_unit_test(propagate_levels),
        cmocka_unit_test(gecode_same_tree),
        cmocka_unit_test(stronger_smaller),
    };
    static const struct test_group group
        = { "cp", tests, TEST_COUNT(tests), make_puzzles, free_puzzles };
    return test_main(argc, argv, &group, NULL);
}
