/* The fast back ends (mrv, mrv_plain, dlx) and the exact-cover model under dlx:
 *
 *  - the model's shape for every size and the variant, and that two options
 *    share an item exactly when the rules forbid them together (checked
 *    against the rules written out here, not against the model's own code);
 *  - published counts: 288 4x4 grids, 28,200,960 6x6 grids, 576 and 161,280
 *    Latin squares of orders 4 and 5 (boxes of one row);
 *  - enumeration through on_solution yields distinct verified grids, and the
 *    same number as pure counting (which merges value-symmetric branches);
 *  - full counts of tests/data's puzzles equal across the three;
 *  - limits that cut through merged branches, state left clean between
 *    puzzles and shapes, counters on a puzzle that singles alone solve;
 *  - with SUDOLAB_DATASETS (datasets/public): the first 2,000 puzzles of every corpus
 *    there, solved by every back end with SOLVER_CAP_FAST, limit 2, every
 *    solution verified and every count as the corpus says (2 for
 *    serg_benchmark, else 1): the --corpora group (tests/test_util.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/check.h"
#include "common/corpus.h"
#include "common/exact_cover.h"
#include "common/rng.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

static const char *const fast_names[] = { "mrv", "mrv_plain", "dlx" };
enum { NFAST = sizeof(fast_names) / sizeof(fast_names[0]) };

/* --- the exact-cover model --- */

/* Whether "value va in cell a" and "value vb in cell b" break a rule together:
 * written from the rules, independently of exact_cover.c. */
static bool rules_forbid(const struct grid *g, int a, int va, int b, int vb)
{
    if (a == b)
        return va != vb;
    if (va != vb)
        return false;
    const int n = g->n, ra = a / n, ca = a % n, rb = b / n, cb = b % n;
    if (ra == rb || ca == cb)
        return true;
    if (ra / g->box_rows == rb / g->box_rows && ca / g->box_cols == cb / g->box_cols)
        return true;
    if (g->variant == GRID_DIAGONAL) {
        if (ra == ca && rb == cb)
            return true;
        if (ra + ca == n - 1 && rb + cb == n - 1)
            return true;
    }
    return false;
}

static void check_model(int br, int bc, enum grid_variant variant)
{
    struct grid g;
    assert_int_equal(grid_init(&g, br, bc, variant), 0);
    struct exact_cover ec;
    assert_int_equal(exact_cover_build(&ec, &g), 0);
    assert_true(exact_cover_fits(&ec, &g));
    const int n = g.n, cells = g.ncells;
    assert_int_equal(ec.nrows, cells * n);
    assert_int_equal(ec.ncols, 4 * cells + (variant == GRID_DIAGONAL ? 2 * n : 0));
    /* every option: 4 items, plus one per diagonal through its cell */
    for (int row = 0; row < ec.nrows; row++) {
        const int cell = exact_cover_row_cell(&ec, row),
                  v = exact_cover_row_value(&ec, row);
        assert_int_equal(exact_cover_row(&ec, cell, v), row);
        const int r = cell / n, c = cell % n;
        int want = 4;
        if (variant == GRID_DIAGONAL)
            want += (r == c) + (r + c == n - 1);
        assert_int_equal(ec.row_ncols[row], want);
        const int32_t *cols = &ec.row_col[(size_t) row * EXACT_COVER_MAX_ROW_COLS];
        for (int i = 0; i < want; i++) {
            assert_in_range(cols[i], 0, ec.ncols - 1);
            for (int j = 0; j < i; j++)
                assert_int_not_equal(cols[i], cols[j]);
        }
    }
    /* every item: covered by exactly N options, listed ascending, each of
     * which names the item among its own */
    int *seen = calloc((size_t) ec.ncols, sizeof(int));
    assert_non_null(seen);
    for (int row = 0; row < ec.nrows; row++) {
        for (int i = 0; i < ec.row_ncols[row]; i++)
            seen[ec.row_col[(size_t) row * EXACT_COVER_MAX_ROW_COLS + i]]++;
    }
    for (int col = 0; col < ec.ncols; col++) {
        assert_int_equal(seen[col], n);
        const int32_t *rows = &ec.col_row[(size_t) col * (size_t) n];
        for (int k = 0; k < n; k++) {
            if (k > 0)
                assert_true(rows[k] > rows[k - 1]);
            bool names = false;
            for (int i = 0; i < ec.row_ncols[rows[k]]; i++)
                names
                    |= ec.row_col[(size_t) rows[k] * EXACT_COVER_MAX_ROW_COLS + i] == col;
            assert_true(names);
        }
    }
    free(seen);
    /* two options share an item exactly when the rules forbid them together */
    for (int a = 0; a < ec.nrows; a++) {
        const int32_t *ca = &ec.row_col[(size_t) a * EXACT_COVER_MAX_ROW_COLS];
        for (int b = a + 1; b < ec.nrows; b++) {
            const int32_t *cb = &ec.row_col[(size_t) b * EXACT_COVER_MAX_ROW_COLS];
            bool share = false;
            for (int i = 0; i < ec.row_ncols[a]; i++) {
                for (int j = 0; j < ec.row_ncols[b]; j++)
                    share |= ca[i] == cb[j];
            }
            const bool forbid = rules_forbid(&g, exact_cover_row_cell(&ec, a),
                exact_cover_row_value(&ec, a), exact_cover_row_cell(&ec, b),
                exact_cover_row_value(&ec, b));
            if (share != forbid)
                fail_msg("%dx%d%s: options %d and %d: share %d, rules forbid %d", br, bc,
                    variant ? " diagonal" : "", a, b, share, forbid);
        }
    }
    exact_cover_free(&ec);
}

static void model_shape(void **state)
{
    (void) state;
    const int shapes[][2] = { { 1, 1 }, { 1, 4 }, { 2, 2 }, { 2, 3 }, { 3, 2 }, { 2, 4 },
        { 3, 3 }, { 3, 4 } };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        check_model(shapes[i][0], shapes[i][1], GRID_STANDARD);
        check_model(shapes[i][0], shapes[i][1], GRID_DIAGONAL);
    }
}

/* Sizes too large for the all-pairs check: shape and counts only. */
static void model_large(void **state)
{
    (void) state;
    for (int variant = 0; variant < 2; variant++) {
        struct grid g;
        assert_int_equal(grid_init(&g, 5, 5, (enum grid_variant) variant), 0);
        struct exact_cover ec;
        assert_int_equal(exact_cover_build(&ec, &g), 0);
        assert_int_equal(ec.ncols, 4 * 625 + (variant ? 50 : 0));
        int six = 0;
        for (int row = 0; row < ec.nrows; row++)
            six += ec.row_ncols[row] == 6;
        /* the centre cell is on both diagonals: its 25 options have 6 items */
        assert_int_equal(six, variant ? 25 : 0);
        exact_cover_free(&ec);
    }
}

/* --- counting and enumeration --- */

static uint64_t count(struct solver_instance *inst, const struct grid *g, uint64_t limit,
    enum solve_status *status)
{
    const struct solve_request req = { .limit = limit };
    struct solve_result res;
    solver_run(inst, g, &req, &res);
    assert_int_not_equal(res.status, SOLVE_STATUS_ERROR);
    if (status)
        *status = res.status;
    return res.solutions;
}

static void published_counts(void **state)
{
    (void) state;
    const struct {
        int br, bc;
        uint64_t count;
    } known[] = {
        { 2, 2, 288 }, /* 4x4 Sudoku grids */
        { 2, 3, 28200960 }, /* 6x6 Sudoku grids */
        { 3, 2, 28200960 }, /* the same, transposed boxes */
        { 1, 3, 12 }, /* Latin squares of order 3 */
        { 1, 4, 576 }, /* of order 4 */
        { 1, 5, 161280 }, /* of order 5 */
    };
    for (int s = 0; s < NFAST; s++) {
        struct solver_instance *inst = test_open(fast_names[s]);
        for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
            struct grid g;
            assert_int_equal(grid_init(&g, known[i].br, known[i].bc, GRID_STANDARD), 0);
            enum solve_status status;
            const uint64_t got = count(inst, &g, 0, &status);
            if (got != known[i].count)
                fail_msg("%s: empty %dx%d: %llu solutions, expected %llu", fast_names[s],
                    known[i].br, known[i].bc, (unsigned long long) got,
                    (unsigned long long) known[i].count);
            assert_int_equal(status, SOLVE_STATUS_MULTIPLE);
        }
        solver_close(inst);
    }
}

/* Enumerates g's solutions through on_solution; checks each and that they are
 * distinct; returns their number. */
static uint64_t enumerate(struct solver_instance *inst, const struct grid *g)
{
    struct test_solutions c = { .puzzle = g };
    const struct solve_request req
        = { .limit = 0, .on_solution = test_collect_solution, .ctx = &c };
    struct solve_result res;
    solver_run(inst, g, &req, &res);
    assert_int_not_equal(res.status, SOLVE_STATUS_ERROR);
    assert_int_equal(res.solutions, c.count);
    assert_int_equal(c.wrong, 0);
    assert_int_equal(test_solutions_repeated(&c), 0);
    test_solutions_free(&c);
    return res.solutions;
}

static void enumeration_distinct(void **state)
{
    (void) state;
    for (int s = 0; s < NFAST; s++) {
        struct solver_instance *inst = test_open(fast_names[s]);
        struct grid g;
        grid_init(&g, 2, 2, GRID_STANDARD);
        assert_int_equal(enumerate(inst, &g), 288);
        grid_init(&g, 1, 4, GRID_STANDARD);
        assert_int_equal(enumerate(inst, &g), 576);
        grid_init(&g, 2, 2, GRID_DIAGONAL);
        assert_int_equal(enumerate(inst, &g), count(inst, &g, 0, NULL));
        grid_init(&g, 2, 3, GRID_DIAGONAL);
        assert_int_equal(enumerate(inst, &g), count(inst, &g, 0, NULL));
        solver_close(inst);
    }
}

/* Puzzles whose clues use only some values, so that pure counting merges
 * branches: its count must equal full enumeration, for every back end. */
static void counting_equals_enumeration(void **state)
{
    (void) state;
    struct solver_instance *inst[NFAST];
    for (int s = 0; s < NFAST; s++)
        inst[s] = test_open(fast_names[s]);
    const uint64_t seed = test_seed("counting_equals_enumeration", 20240611u);
    struct rng rng;
    rng_seed(&rng, seed);
    const struct {
        int br, bc, variant, clues, values;
    } kinds[] = { { 2, 3, GRID_STANDARD, 9, 4 }, { 3, 2, GRID_STANDARD, 8, 3 },
        { 2, 3, GRID_DIAGONAL, 6, 4 }, { 2, 2, GRID_STANDARD, 3, 2 },
        { 2, 4, GRID_STANDARD, 22, 6 }, { 3, 3, GRID_STANDARD, 40, 7 } };
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        for (int trial = 0; trial < 4; trial++) {
            struct grid full, puzzle;
            if (kinds[k].variant == GRID_DIAGONAL) {
                /* a diagonal 6x6 solution, from the solver itself, verified */
                grid_init(&puzzle, kinds[k].br, kinds[k].bc, GRID_DIAGONAL);
                const struct solve_request first = { .limit = 1 };
                struct solve_result res;
                solver_run(inst[0], &puzzle, &first, &res);
                assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
                full = res.solution;
            } else {
                test_pattern_grid(&full, kinds[k].br, kinds[k].bc);
            }
            assert_true(check_solution(&full, &full, NULL, 0));
            puzzle = full;
            memset(puzzle.cell, 0, puzzle.ncells);
            for (int placed = 0; placed < kinds[k].clues;) {
                const int cell = (int) rng_below(&rng, full.ncells);
                if (puzzle.cell[cell] == 0 && full.cell[cell] <= kinds[k].values) {
                    puzzle.cell[cell] = full.cell[cell];
                    placed++;
                }
            }
            const uint64_t want = enumerate(inst[0], &puzzle);
            assert_true(want >= 1);
            for (int s = 0; s < NFAST; s++) {
                const uint64_t counted = count(inst[s], &puzzle, 0, NULL);
                const uint64_t listed = s == 0 ? want : enumerate(inst[s], &puzzle);
                if (counted != want || listed != want) {
                    char line[GRID_MAX_CELLS + 1];
                    grid_format_line(&puzzle, line);
                    fail_msg("%s: %s: counted %llu, enumerated %llu, mrv enumerated %llu",
                        fast_names[s], line, (unsigned long long) counted,
                        (unsigned long long) listed, (unsigned long long) want);
                }
                /* a limit inside a merged branch stops exactly at the limit */
                if (want > 3) {
                    enum solve_status status;
                    assert_int_equal(count(inst[s], &puzzle, 3, &status), 3);
                    assert_int_equal(status, SOLVE_STATUS_MULTIPLE);
                }
            }
        }
    }
    for (int s = 0; s < NFAST; s++)
        solver_close(inst[s]);
}

/* Full counts (limit 0, past the cross-check's limit of 2) of every puzzle
 * in tests/data: mrv, mrv_plain and dlx must agree, and on unique puzzles
 * return the same grid. */
static void counts_agree_on_test_data(void **state)
{
    (void) state;
    struct test_case *cases;
    size_t ncases;
    assert_int_equal(test_load_crosscheck(&cases, &ncases), 0);
    struct solver_instance *inst[NFAST];
    for (int s = 0; s < NFAST; s++)
        inst[s] = test_open(fast_names[s]);
    int compared = 0;
    for (size_t i = 0; i < ncases; i++) {
        const struct test_case *k = &cases[i];
        if (k->count == TEST_INVALID)
            continue;
        struct solve_result res[NFAST];
        bool finished = true;
        for (int s = 0; s < NFAST; s++) {
            /* a step budget leaves out the grids with astronomically many
             * solutions (the empty 9x9 of the corpus) */
            test_solve(inst[s], &k->puzzle, 0, 3000000, &res[s]);
            assert_int_not_equal(res[s].status, SOLVE_STATUS_ERROR);
            finished &= res[s].status != SOLVE_STATUS_LIMIT;
        }
        if (!finished)
            continue;
        for (int s = 1; s < NFAST; s++) {
            if (res[s].solutions != res[0].solutions)
                fail_msg("%s:%lu: %s counts %llu, %s %llu", k->file, k->line,
                    fast_names[s], (unsigned long long) res[s].solutions, fast_names[0],
                    (unsigned long long) res[0].solutions);
            if (res[0].solutions == 1)
                assert_memory_equal(
                    res[s].solution.cell, res[0].solution.cell, k->puzzle.ncells);
        }
        compared++;
    }
    printf("# %d puzzles counted in full by all three\n", compared);
    assert_true(compared >= 20);
    for (int s = 0; s < NFAST; s++)
        solver_close(inst[s]);
    free(cases);
}

static void limits_on_empty_grids(void **state)
{
    (void) state;
    for (int s = 0; s < NFAST; s++) {
        struct solver_instance *inst = test_open(fast_names[s]);
        struct grid g;
        grid_init(&g, 2, 3, GRID_STANDARD);
        enum solve_status status;
        assert_int_equal(count(inst, &g, 2, &status), 2);
        assert_int_equal(status, SOLVE_STATUS_MULTIPLE);
        assert_int_equal(count(inst, &g, 1000, NULL), 1000);
        assert_int_equal(count(inst, &g, 1, &status), 1);
        assert_int_equal(status, SOLVE_STATUS_SOLVED);
        grid_init(&g, 5, 5, GRID_DIAGONAL);
        assert_int_equal(count(inst, &g, 2, &status), 2);
        solver_close(inst);
    }
}

/* The same puzzle on a fresh instance and on one that has just stopped early
 * on other puzzles and shapes: every result and counter equal. */
static void state_is_clean(void **state)
{
    (void) state;
    const char *hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5."
                       ".2.....1.4......";
    struct grid puzzle, empty4, empty9d, full;
    test_parse(&puzzle, hard, GRID_STANDARD);
    grid_init(&empty4, 2, 2, GRID_STANDARD);
    grid_init(&empty9d, 3, 3, GRID_DIAGONAL);
    test_pattern_grid(&full, 3, 3);
    for (int s = 0; s < NFAST; s++) {
        struct solver_instance *fresh = test_open(fast_names[s]);
        struct solver_instance *used = test_open(fast_names[s]);
        const struct solve_request two = { .limit = 2 }, one = { .limit = 1 };
        const struct solve_request budget = { .limit = 0, .budget_steps = 777 };
        struct solve_result a, b;
        solver_run(fresh, &puzzle, &two, &a);
        solver_run(used, &empty9d, &budget, &b);
        assert_int_equal(b.status, SOLVE_STATUS_LIMIT);
        solver_run(used, &empty4, &one, &b);
        solver_run(used, &full, &two, &b);
        assert_int_equal(b.status, SOLVE_STATUS_UNIQUE);
        solver_run(used, &puzzle, &one, &b);
        solver_run(used, &puzzle, &two, &b);
        assert_int_equal(a.status, SOLVE_STATUS_UNIQUE);
        assert_int_equal(b.status, a.status);
        assert_int_equal(b.solutions, a.solutions);
        assert_memory_equal(&a.counters, &b.counters, sizeof(a.counters));
        assert_memory_equal(a.solution.cell, b.solution.cell, 81);
        solver_close(fresh);
        solver_close(used);
    }
}

/* Five cells missing from a complete grid, no two in one unit: each is a
 * naked single, so the counters are known exactly. */
static void counters_on_singles(void **state)
{
    (void) state;
    struct grid full, puzzle;
    test_pattern_grid(&full, 3, 3);
    puzzle = full;
    const int holes[] = { 0 * 9 + 0, 1 * 9 + 3, 2 * 9 + 6, 3 * 9 + 1, 4 * 9 + 4 };
    for (int i = 0; i < 5; i++)
        puzzle.cell[holes[i]] = 0;
    const struct {
        const char *name;
        uint64_t nodes;
    } expect[] = {
        { "mrv", 1 }, /* propagation fills all five in the root */
        { "mrv_plain", 6 }, /* one node per forced cell, then the full grid */
        { "dlx", 6 }, /* one level per chosen option, then the leaf */
    };
    for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        struct solver_instance *inst = test_open(expect[i].name);
        const struct solve_request req = { .limit = 2 };
        struct solve_result res;
        solver_run(inst, &puzzle, &req, &res);
        assert_int_equal(res.status, SOLVE_STATUS_UNIQUE);
        assert_memory_equal(res.solution.cell, full.cell, 81);
        assert_int_equal(res.counters.steps, 5);
        assert_int_equal(res.counters.guesses, 0);
        assert_int_equal(res.counters.backtracks, 0);
        assert_int_equal(res.counters.nodes, expect[i].nodes);
        solver_close(inst);
    }
}

/* --- traces beyond 9x9 (the cross-check replays 9x9 and smaller) --- */

/* 16x16 and diagonal 12x12 puzzles with enough blanks for guesses and undos
 * (55% and 60% blanks: at 25x25 and about half blanks the search explodes, as
 * quasigroup completion does near its phase transition). */
static void traces_replay_large(void **state)
{
    (void) state;
    struct rng rng;
    rng_seed(&rng, 7);
    struct grid full[2];
    test_pattern_grid(&full[0], 4, 4);
    struct solver_instance *mrv = test_open("mrv");
    grid_init(&full[1], 3, 4, GRID_DIAGONAL);
    const struct solve_request first = { .limit = 1 };
    struct solve_result res;
    solver_run(mrv, &full[1], &first, &res);
    assert_int_equal(res.status, SOLVE_STATUS_SOLVED);
    full[1] = res.solution;
    solver_close(mrv);
    const int blanks[2] = { 55, 60 };
    for (int f = 0; f < 2; f++) {
        for (int trial = 0; trial < 3; trial++) {
            struct grid puzzle = full[f];
            for (int i = 0; i < puzzle.ncells; i++) {
                if (rng_below(&rng, 100) < (uint64_t) blanks[f])
                    puzzle.cell[i] = 0;
            }
            for (int s = 0; s < NFAST; s++) {
                struct solver_instance *inst = test_open(fast_names[s]);
                struct test_replay r;
                test_replay_start(&r, &puzzle);
                const struct solve_request req
                    = { .limit = 2, .trace = test_replay_event, .ctx = &r };
                solver_run(inst, &puzzle, &req, &res);
                assert_true(res.status == SOLVE_STATUS_UNIQUE
                    || res.status == SOLVE_STATUS_MULTIPLE);
                assert_int_equal(r.errors, 0);
                assert_int_equal(r.solutions, res.solutions);
                assert_memory_equal(r.first.cell, res.solution.cell, puzzle.ncells);
                solver_close(inst);
            }
        }
    }
}

/* --- the shared corpora --- */

enum { CORPUS_FIRST = 2000, MAX_FAST = 32, MAX_CORPORA = 64 };

/* The back ends that are fast, count and take 9x9 puzzles, opened. */
struct fast_set {
    int n;
    const struct solver *s[MAX_FAST];
    struct solver_instance *inst[MAX_FAST];
    uint64_t spent[MAX_FAST];
};

static void open_fast_set(struct fast_set *fs)
{
    memset(fs, 0, sizeof(*fs));
    struct grid probe;
    grid_init(&probe, 3, 3, GRID_STANDARD);
    for (size_t i = 0; solver_registry[i] && fs->n < MAX_FAST; i++) {
        const struct solver *s = solver_registry[i];
        if ((s->caps & SOLVER_CAP_FAST) && (s->caps & SOLVER_CAP_COUNT)
            && test_available(s, "not run on the corpora")
            && solver_supports(s, &probe, NULL, 0)) {
            fs->s[fs->n] = s;
            fs->inst[fs->n] = solver_open(s);
            assert_non_null(fs->inst[fs->n]);
            fs->n++;
        }
    }
    assert_true(fs->n >= 2);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* The regular files of dir but its README, sorted; returns how many (free
 * each name). */
static int list_corpora(const char *dir, char *names[MAX_CORPORA])
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_CORPORA) {
        char path[4096];
        struct stat sb;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        const size_t len = strlen(e->d_name); /* the corpora are the .xz files */
        if (e->d_name[0] != '.' && len > 3 && strcmp(e->d_name + len - 3, ".xz") == 0
            && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t) n, sizeof(names[0]), compare_names);
    return n;
}

/* The first puzzles of one corpus, limit 2, on every back end of fs: every
 * count as the corpus says (serg_benchmark is built of puzzles with two or
 * more solutions, the others of unique ones). Returns the failures. */
static int run_corpus(struct fast_set *fs, const char *dir, const char *name)
{
    const uint64_t want = strstr(name, "serg_benchmark") ? 2 : 1;
    char path[4096], why[200];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    const struct corpus_options opts = { 0 };
    struct corpus *c = corpus_open(path, &opts, why, sizeof(why));
    if (!c)
        fail_msg("%s: %s", path, why);
    static struct corpus_item item;
    int solved = 0, failures = 0;
    enum corpus_status st;
    while (solved < CORPUS_FIRST && (st = corpus_next(c, &item)) != CORPUS_END) {
        if (st != CORPUS_PUZZLE) {
            print_error("%s:%lu: %s\n", name, item.line, item.why);
            failures++;
            continue;
        }
        for (int s = 0; s < fs->n; s++) {
            struct solve_result res;
            test_solve(fs->inst[s], &item.puzzle, 2, 0, &res);
            fs->spent[s] += res.time_ns;
            if ((res.status == SOLVE_STATUS_ERROR || res.status == SOLVE_STATUS_LIMIT
                    || res.solutions != want)
                && failures++ < 20)
                print_error("%s: %s:%lu: %llu solution(s), expected %llu (%s%s%s)\n",
                    fs->s[s]->name, name, item.line, (unsigned long long) res.solutions,
                    (unsigned long long) want, solve_status_name(res.status),
                    res.error[0] ? ": " : "", res.error);
        }
        solved++;
    }
    corpus_close(c);
    printf("# %s: %d puzzles, %d back ends\n", name, solved, fs->n);
    return failures;
}

static void shared_corpora(void **state)
{
    (void) state;
    const char *dir = test_shared_dir();
    assert_non_null(dir);
    static struct fast_set fs;
    open_fast_set(&fs);
    char *names[MAX_CORPORA];
    const int nnames = list_corpora(dir, names);
    int failures = 0;
    for (int f = 0; f < nnames; f++)
        failures += run_corpus(&fs, dir, names[f]);
    for (int s = 0; s < fs.n; s++) {
        printf("# %s: %.3f s in solve()\n", fs.s[s]->name, (double) fs.spent[s] * 1e-9);
        solver_close(fs.inst[s]);
    }
    for (int f = 0; f < nnames; f++)
        free(names[f]);
    assert_true(nnames > 0);
    assert_int_equal(failures, 0);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(model_shape),
        cmocka_unit_test(model_large),
        cmocka_unit_test(published_counts),
        cmocka_unit_test(enumeration_distinct),
        cmocka_unit_test(counting_equals_enumeration),
        cmocka_unit_test(counts_agree_on_test_data),
        cmocka_unit_test(limits_on_empty_grids),
        cmocka_unit_test(state_is_clean),
        cmocka_unit_test(counters_on_singles),
        cmocka_unit_test(traces_replay_large),
    };
    static const struct CMUnitTest corpus_tests[] = {
        cmocka_unit_test(shared_corpora),
    };
    const struct test_group plain = { "mrv_dlx", tests, TEST_COUNT(tests), NULL, NULL };
    const struct test_group corpora
        = { "mrv_dlx corpora", corpus_tests, TEST_COUNT(corpus_tests), NULL, NULL };
    return test_main(argc, argv, &plain, &corpora);
}
