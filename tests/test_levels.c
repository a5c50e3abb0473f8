/* The CNF encodings (solvers/cnf.h), propagation without search
 * (solvers/cnf_prop.h) and the reasoning ladder (puzzle/levels.h).
 *
 * Clause counts: with C = N*N cells, U unit columns (3C, + 2N diagonal) and
 * P = N(N-1)/2 pairs per column, minimal = C + U*P, efficient = C + (C+U)*P,
 * extended = C + U + (C+U)*P, so 9x9 gives 81 + 243*36 = 8,829, 8,829 +
 * 81*36 = 11,745 and 11,745 + 243 = 11,988 (Lynce & Ouaknine's counts); a
 * puzzle adds one unit clause per clue. */
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/exact_cover.h"
#include "puzzle/levels.h"
#include "solvers/cnf.h"
#include "solvers/cnf_prop.h"
#include "solvers/cp.h"
#include "tests/test_util.h"

/* 9x9_dig_easy.txt's first puzzle: naked and hidden singles solve it. */
static const char singles_puzzle[]
    = "...7.5.61....24....9.3.......2..389.38..6751445719.23..34..1625..5..24....6.59183";
/* norvig_top95's first: needs pointing; no unit propagation solves it, failed
 * literals on the extended encoding do. */
static const char pointing_puzzle[]
    = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/* top1465's second: failed literals leave it open, hyper-binary resolution on
 * the extended encoding solves it. */
static const char hbr_puzzle[]
    = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........";

static void build_model(struct exact_cover *ec, struct grid *g, int box_rows,
    int box_cols, enum grid_variant variant)
{
    assert_int_equal(grid_init(g, box_rows, box_cols, variant), 0);
    assert_int_equal(exact_cover_build(ec, g), 0);
}

struct tally {
    int64_t clauses, by_len[GRID_MAX_N + 1];
};

static bool count_clause(void *ctx, const int32_t *lits, int nlits)
{
    (void) lits;
    struct tally *t = ctx;
    t->clauses++;
    t->by_len[nlits]++;
    return true;
}

static void clause_counts_9x9(void **state)
{
    (void) state;
    static const int64_t expected[CNF_ENCODING_COUNT] = { 8829, 11745, 11988 };
    /* at-least-one clauses (9 literals): cells, + units in the extended */
    static const int64_t nines[CNF_ENCODING_COUNT] = { 81, 81, 324 };
    struct exact_cover ec;
    struct grid g;
    build_model(&ec, &g, 3, 3, GRID_STANDARD);
    for (int e = 0; e < CNF_ENCODING_COUNT; e++) {
        struct tally t = { 0 };
        assert_true(cnf_rules(&ec, (enum cnf_encoding) e, count_clause, &t));
        assert_int_equal(t.clauses, expected[e]);
        assert_int_equal(cnf_rules_count(&ec, (enum cnf_encoding) e), expected[e]);
        assert_int_equal(t.by_len[9], nines[e]);
        assert_int_equal(t.by_len[2], expected[e] - nines[e]);
        struct grid p;
        test_parse(&p, test_royle, GRID_STANDARD);
        struct cnf f;
        assert_int_equal(cnf_build(&f, &ec, &p, (enum cnf_encoding) e), 0);
        assert_int_equal(f.nvars, 729);
        assert_int_equal(f.nclauses, expected[e] + grid_count_clues(&p));
        cnf_free(&f);
    }
    exact_cover_free(&ec);
}

/* The formulas of the header, worked out here apart from cnf_rules_count,
 * against the clauses enumerated, for other shapes and the diagonal. */
static void clause_counts_shapes(void **state)
{
    (void) state;
    static const struct {
        int box_rows, box_cols;
        enum grid_variant variant;
    } shapes[] = {
        { 2, 2, GRID_STANDARD },
        { 2, 3, GRID_STANDARD },
        { 3, 3, GRID_DIAGONAL },
        { 4, 4, GRID_STANDARD },
    };
    for (size_t i = 0; i < TEST_COUNT(shapes); i++) {
        struct exact_cover ec;
        struct grid g;
        build_model(&ec, &g, shapes[i].box_rows, shapes[i].box_cols, shapes[i].variant);
        const int64_t n = g.n, cells = n * n, pairs = n * (n - 1) / 2;
        const int64_t units
            = 3 * cells + (shapes[i].variant == GRID_DIAGONAL ? 2 * n : 0);
        const int64_t want[CNF_ENCODING_COUNT] = {
            cells + units * pairs,
            cells + (cells + units) * pairs,
            cells + units + (cells + units) * pairs,
        };
        for (int e = 0; e < CNF_ENCODING_COUNT; e++) {
            struct tally t = { 0 };
            cnf_rules(&ec, (enum cnf_encoding) e, count_clause, &t);
            assert_int_equal(t.clauses, want[e]);
            assert_int_equal(cnf_rules_count(&ec, (enum cnf_encoding) e), want[e]);
        }
        exact_cover_free(&ec);
    }
}

/* Whether the grid (every cell filled) satisfies every clause of f. */
static bool satisfies(
    const struct exact_cover *ec, const struct cnf *f, const struct grid *g)
{
    for (int c = 0; c < f->nclauses; c++) {
        bool sat = false;
        for (int i = f->start[c]; i < f->start[c + 1] && !sat; i++) {
            const int lit = f->lits[i], var = abs(lit) - 1;
            const bool value = g->cell[exact_cover_row_cell(ec, var)]
                == exact_cover_row_value(ec, var);
            sat = (lit > 0) == value;
        }
        if (!sat)
            return false;
    }
    return true;
}

static void solution_satisfies_every_encoding(void **state)
{
    (void) state;
    struct grid p, sol, wrong;
    test_parse(&p, test_royle, GRID_STANDARD);
    test_parse(&sol, test_royle_solution, GRID_STANDARD);
    wrong = sol;
    wrong.cell[40] = (uint8_t) (wrong.cell[40] % 9 + 1); /* a clash in three units */
    struct exact_cover ec;
    assert_int_equal(exact_cover_build(&ec, &p), 0);
    for (int e = 0; e < CNF_ENCODING_COUNT; e++) {
        struct cnf f;
        assert_int_equal(cnf_build(&f, &ec, &p, (enum cnf_encoding) e), 0);
        assert_true(satisfies(&ec, &f, &sol));
        assert_false(satisfies(&ec, &f, &wrong));
        cnf_free(&f);
    }
    exact_cover_free(&ec);
}

/* --- models by search on top of unit propagation --- */

struct enumeration {
    struct cnf_prop *p;
    const struct exact_cover *ec;
    struct grid g;
    long models, wrong;
};

static void enumerate(struct enumeration *en, int var)
{
    const int nvars = cnf_prop_vars(en->p);
    while (var <= nvars && cnf_prop_value(en->p, var) != 0)
        var++;
    if (var > nvars) {
        for (int c = 0; c < en->g.ncells; c++) {
            int values = 0;
            for (int v = 1; v <= en->g.n; v++) {
                if (cnf_prop_value(en->p, cnf_var(en->ec, c, v)) > 0) {
                    en->g.cell[c] = (uint8_t) v;
                    values++;
                }
            }
            en->wrong += values != 1;
        }
        char why[160];
        en->wrong += grid_find_conflict(&en->g, why, sizeof(why));
        en->models++;
        return;
    }
    for (int sign = 1; sign >= -1; sign -= 2) {
        if (cnf_prop_decide(en->p, sign * var) == CNF_PROP_OK)
            enumerate(en, var + 1);
        cnf_prop_undo(en->p);
    }
}

/* Every encoding of the empty 4x4 grid has the 288 Shidoku grids as its
 * models and nothing else: the minimal one too, whose cells may hold two
 * values as far as its clauses go. */
static void models_are_the_grids(void **state)
{
    (void) state;
    struct exact_cover ec;
    struct grid empty;
    build_model(&ec, &empty, 2, 2, GRID_STANDARD);
    for (int e = 0; e < CNF_ENCODING_COUNT; e++) {
        struct cnf f;
        assert_int_equal(cnf_build(&f, &ec, &empty, (enum cnf_encoding) e), 0);
        struct enumeration en = { cnf_prop_new(&f), &ec, empty, 0, 0 };
        cnf_free(&f);
        assert_non_null(en.p);
        assert_int_equal(cnf_prop_run(en.p, CNF_PROP_UNIT), CNF_PROP_OK);
        enumerate(&en, 1);
        assert_int_equal(en.models, 288);
        assert_int_equal(en.wrong, 0);
        cnf_prop_free(en.p);
    }
    exact_cover_free(&ec);
}

/* --- propagation --- */

/* Runs `method` on puzzle's CNF in `enc` with a budget; *p is kept for the
 * caller to read (free it). */
static enum cnf_prop_status propagate(const char *puzzle, enum cnf_encoding enc,
    enum cnf_prop_method method, uint64_t budget, struct exact_cover *ec,
    struct cnf_prop **p)
{
    struct grid g;
    test_parse(&g, puzzle, GRID_STANDARD);
    assert_int_equal(exact_cover_build(ec, &g), 0);
    struct cnf f;
    assert_int_equal(cnf_build(&f, ec, &g, enc), 0);
    *p = cnf_prop_new(&f);
    cnf_free(&f);
    assert_non_null(*p);
    cnf_prop_reset(*p, budget);
    return cnf_prop_run(*p, method);
}

/* What failed literals and hyper-binary resolution assert agrees with the
 * puzzle's solution, variable by variable (mrv solves it). */
static void propagation_is_sound(void **state)
{
    (void) state;
    struct grid g;
    test_parse(&g, hbr_puzzle, GRID_STANDARD);
    struct solver_instance *mrv = test_open("mrv");
    struct solve_result res;
    test_solve(mrv, &g, 2, 0, &res);
    assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
    const struct grid sol = res.solution;
    solver_close(mrv);
    for (int e = 0; e < CNF_ENCODING_COUNT; e++) {
        for (int m = 0; m < CNF_PROP_METHOD_COUNT; m++) {
            struct exact_cover ec;
            struct cnf_prop *p;
            assert_int_equal(propagate(hbr_puzzle, (enum cnf_encoding) e,
                                 (enum cnf_prop_method) m, 0, &ec, &p),
                CNF_PROP_OK);
            int assigned = 0;
            for (int var = 1; var <= cnf_prop_vars(p); var++) {
                const int v = cnf_prop_value(p, var);
                if (!v)
                    continue;
                assigned++;
                const bool in_solution = sol.cell[exact_cover_row_cell(&ec, var - 1)]
                    == exact_cover_row_value(&ec, var - 1);
                assert_int_equal(v > 0, in_solution);
            }
            assert_true(assigned >= grid_count_clues(&g));
            if (m == CNF_PROP_HBR)
                assert_true(cnf_prop_added(p) > 0);
            cnf_prop_free(p);
            exact_cover_free(&ec);
        }
    }
}

/* A budget of exactly the steps a run takes is enough; one step less is a
 * limit, and so is a tiny budget for every method. */
static void budgets_give_limit(void **state)
{
    (void) state;
    for (int m = 0; m < CNF_PROP_METHOD_COUNT; m++) {
        struct exact_cover ec;
        struct cnf_prop *p;
        assert_int_equal(propagate(pointing_puzzle, CNF_EXTENDED,
                             (enum cnf_prop_method) m, 0, &ec, &p),
            CNF_PROP_OK);
        const uint64_t steps = cnf_prop_steps(p);
        assert_true(steps > 17);
        cnf_prop_reset(p, steps);
        assert_int_equal(cnf_prop_run(p, (enum cnf_prop_method) m), CNF_PROP_OK);
        cnf_prop_reset(p, steps - 1);
        assert_int_equal(cnf_prop_run(p, (enum cnf_prop_method) m), CNF_PROP_LIMIT);
        cnf_prop_reset(p, 5);
        assert_int_equal(cnf_prop_run(p, (enum cnf_prop_method) m), CNF_PROP_LIMIT);
        cnf_prop_free(p);
        exact_cover_free(&ec);
    }
}

/* --- the ladder --- */

static struct levels *lv;

static int levels_setup(void **state)
{
    (void) state;
    lv = levels_new();
    return lv ? 0 : -1;
}

static int levels_teardown(void **state)
{
    (void) state;
    levels_free(lv);
    return 0;
}

static void run_levels(const char *puzzle, uint64_t steps, struct levels_result *r)
{
    struct grid g;
    test_parse(&g, puzzle, GRID_STANDARD);
    const struct levels_budget budget = { steps, steps, 0 };
    assert_int_equal(levels_run(lv, &g, &budget, r), 0);
}

static void singles_are_unit_propagation(void **state)
{
    (void) state;
    struct levels_result r;
    run_levels(singles_puzzle, 0, &r);
    assert_int_equal(r.human_level, LEVELS_HUMAN_singles);
    assert_string_equal(levels_human_name(r.human_level), "singles");
    assert_int_equal(r.sat[LEVELS_SAT_up_ext], LEVELS_SOLVED);
    for (int k = 0; k < LEVELS_SAT_COUNT; k++)
        assert_int_equal(r.sat[k] == LEVELS_SOLVED, k >= r.sat_level);
    /* hidden singles are domain consistency on one alldifferent */
    assert_int_equal(r.cp[CP_LEVEL_GAC], LEVELS_SOLVED);
    assert_int_equal(r.cp[CP_LEVEL_SAC], LEVELS_SOLVED);
}

static void failed_literals_beyond_unit_propagation(void **state)
{
    (void) state;
    struct levels_result r;
    run_levels(pointing_puzzle, 0, &r);
    assert_int_equal(r.human_level, LEVELS_HUMAN_intersections);
    assert_int_equal(r.sat[LEVELS_SAT_up_min], LEVELS_OPEN);
    assert_int_equal(r.sat[LEVELS_SAT_up_eff], LEVELS_OPEN);
    assert_int_equal(r.sat[LEVELS_SAT_up_ext], LEVELS_OPEN);
    assert_int_equal(r.sat[LEVELS_SAT_fl_ext], LEVELS_SOLVED);
    assert_string_equal(levels_sat_name(r.sat_level), "fl_ext");

    run_levels(hbr_puzzle, 0, &r);
    assert_int_equal(r.sat[LEVELS_SAT_fl_ext], LEVELS_OPEN);
    assert_int_equal(r.sat[LEVELS_SAT_hbr_ext], LEVELS_SOLVED);
    assert_int_equal(r.sat_level, LEVELS_SAT_hbr_ext);
    assert_int_equal(r.human[LEVELS_HUMAN_fish], LEVELS_OPEN);
}

static void ladder_budget_gives_limit(void **state)
{
    (void) state;
    struct levels_result r;
    run_levels(pointing_puzzle, 0, &r);
    const uint64_t up_steps = r.sat_steps[LEVELS_SAT_up_min];
    /* enough for unit propagation, not for probing: up levels say no, the
     * family limit (a probing level that ran out might have solved it) */
    run_levels(pointing_puzzle, up_steps + 1, &r);
    assert_int_equal(r.sat[LEVELS_SAT_up_min], LEVELS_OPEN);
    assert_int_equal(r.sat[LEVELS_SAT_fl_ext], LEVELS_LIMIT);
    assert_int_equal(r.sat_level, LEVELS_FAMILY_LIMIT);
    assert_string_equal(levels_sat_name(r.sat_level), "limit");
    run_levels(singles_puzzle, 3, &r);
    for (int k = 0; k < LEVELS_SAT_COUNT; k++)
        assert_int_equal(r.sat[k], LEVELS_LIMIT);
    assert_int_equal(r.sat_level, LEVELS_FAMILY_LIMIT);
    struct grid g;
    test_parse(&g, singles_puzzle, GRID_STANDARD);
    const struct levels_budget cp_budget = { 0, 1, 0 };
    assert_int_equal(levels_run(lv, &g, &cp_budget, &r), 0);
    assert_int_equal(r.cp[CP_LEVEL_SAC], LEVELS_LIMIT);
    assert_int_equal(r.cp_level, LEVELS_FAMILY_LIMIT);
    assert_int_equal(r.sat_level, LEVELS_SAT_up_min);
}

/* The inclusions that hold by construction: more clauses propagate more,
 * probing starts from unit propagation's fixpoint, hyper-binary resolution
 * from failed literals', and the human and CP levels are cumulative. And
 * the equalities between families that are theorems, checked across
 * implementations that share no code: forward checking and unit propagation
 * on the minimal or efficient CNF are naked singles; unit propagation on the
 * extended CNF is naked and hidden singles, the logic solver's first class. */
static void check_ladder(const struct levels_result *r)
{
    static const int implies[][2] = {
        { LEVELS_SAT_up_min, LEVELS_SAT_up_eff },
        { LEVELS_SAT_up_eff, LEVELS_SAT_up_ext },
        { LEVELS_SAT_fl_min, LEVELS_SAT_fl_eff },
        { LEVELS_SAT_fl_eff, LEVELS_SAT_fl_ext },
        { LEVELS_SAT_hbr_min, LEVELS_SAT_hbr_eff },
        { LEVELS_SAT_hbr_eff, LEVELS_SAT_hbr_ext },
        { LEVELS_SAT_up_min, LEVELS_SAT_fl_min },
        { LEVELS_SAT_up_ext, LEVELS_SAT_fl_ext },
        { LEVELS_SAT_fl_min, LEVELS_SAT_hbr_min },
        { LEVELS_SAT_fl_ext, LEVELS_SAT_hbr_ext },
    };
    for (size_t i = 0; i < TEST_COUNT(implies); i++) {
        if (r->sat[implies[i][0]] == LEVELS_SOLVED)
            assert_int_equal(r->sat[implies[i][1]], LEVELS_SOLVED);
    }
    for (int k = 1; k < LEVELS_HUMAN_COUNT; k++) {
        if (r->human[k - 1] == LEVELS_SOLVED)
            assert_int_equal(r->human[k], LEVELS_SOLVED);
    }
    for (int k = 1; k < LEVELS_CP_COUNT; k++) {
        if (r->cp[k - 1] == LEVELS_SOLVED)
            assert_int_equal(r->cp[k], LEVELS_SOLVED);
    }
    assert_int_equal(r->cp[CP_LEVEL_FC], r->sat[LEVELS_SAT_up_min]);
    assert_int_equal(r->sat[LEVELS_SAT_up_min], r->sat[LEVELS_SAT_up_eff]);
    assert_int_equal(r->sat[LEVELS_SAT_up_ext], r->human[LEVELS_HUMAN_singles]);
}

/* Every level on the first `head` puzzles of a public corpus (0: all);
 * returns how many puzzles the extended CNF's unit propagation solved. */
static int ladder_over(const char *name, int head, int *puzzles)
{
    struct corpus *c = test_open_shared(name);
    if (!c)
        test_skip("%s not found", name);
    struct corpus_item it;
    int up_ext = 0;
    *puzzles = 0;
    const struct levels_budget budget = { 0, 0, 0 };
    while ((head == 0 || *puzzles < head) && corpus_next(c, &it) == CORPUS_PUZZLE) {
        struct levels_result r;
        assert_int_equal(levels_run(lv, &it.puzzle, &budget, &r), 0);
        check_ladder(&r);
        up_ext += r.sat[LEVELS_SAT_up_ext] == LEVELS_SOLVED;
        (*puzzles)++;
    }
    corpus_close(c);
    return up_ext;
}

static void ladder_inclusions(void **state)
{
    (void) state;
    int puzzles;
    assert_int_equal(ladder_over("norvig_top95", 0, &puzzles), 0);
    assert_int_equal(puzzles, 95);
    /* 17-clue puzzles: a good part are singles, so the equalities are met
     * on both sides */
    const int singles = ladder_over("puzzles2_17_clue", 300, &puzzles);
    assert_int_equal(puzzles, 300);
    assert_true(singles > 0 && singles < puzzles);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(clause_counts_9x9),
        cmocka_unit_test(clause_counts_shapes),
        cmocka_unit_test(solution_satisfies_every_encoding),
        cmocka_unit_test(models_are_the_grids),
        cmocka_unit_test(propagation_is_sound),
        cmocka_unit_test(budgets_give_limit),
        cmocka_unit_test(singles_are_unit_propagation),
        cmocka_unit_test(failed_literals_beyond_unit_propagation),
        cmocka_unit_test(ladder_budget_gives_limit),
    };
    static const struct CMUnitTest corpora[] = {
        cmocka_unit_test(ladder_inclusions),
    };
    const struct test_group plain
        = { "levels", tests, TEST_COUNT(tests), levels_setup, levels_teardown };
    const struct test_group shared = { "levels-corpora", corpora, TEST_COUNT(corpora),
        levels_setup, levels_teardown };
    return test_main(argc, argv, &plain, &shared);
}
