/* The agreement test, after dav1d's checkasm: every registered back end (from
 * the registry, never a hand-made list) against the reference back end mrv,
 * on random puzzles of every shape the project supports (4x4 to 25x25 and
 * the diagonal variant), made here from a printed seed (SUDOLAB_TEST_SEED
 * repeats a run).
 *
 * Per shape, from random complete grids (random consistent clues completed by
 * the reference, then a random isomorph):
 *   easy    the complete grid itself; the grid with a sixth of its cells
 *           blanked at random; the same with a wrong clue added;
 *   hard    a puzzle dug from the grid while the reference proves it unique
 *           (1 solution); the same with a wrong clue that breaks no rule (its
 *           solutions are among the unique one's, so there are none: 0); the
 *           same with clues removed until the reference finds two (2+); the
 *           grid with three cells in five blanked at random (any count).
 * Every back end then gives, on every puzzle of every shape it supports
 * (a pair it declines is skipped with a note), the reference's status and
 * solution count at limit 2, first-solution status at limit 1, and on small
 * puzzles the full count at limit 0; every solution it hands out (through
 * on_solution) is verified with common/check.h against the clues and rules
 * and no solution comes twice.
 *
 * The reference's answers are checked by a second, independent one: mrv itself
 * is compared against dlx (Knuth's Algorithm X, no code shared with mrv) on
 * the same puzzles, so no back end is compared with itself.
 *
 * No clock decides a verdict. Back ends that take a step budget are bounded
 * by steps: the solves of each puzzle share its budget. A fast back end
 * running out of it fails. Back ends without SOLVER_CAP_FAST get only the
 * easy puzzles of 12x12 and larger, a smaller budget per puzzle (running out
 * of it is reported with the budget, counted as undecided and ends that shape
 * for them) and an allowance of steps in all, spent over the shapes in turn;
 * they must decide at least MIN_DECIDED_PERCENT of the puzzles they were
 * given. Back ends without a step budget (sat, milp, processes) run without
 * a deadline and are bounded by the puzzles they get instead: a slow one the
 * first UNBUDGETED_PER_SHAPE puzzles of each shape (the easy ones from 12x12
 * on), and each must decide all it is given (a hang is meson's timeout). Every
 * back end compares at least MIN_PER_SHAPE puzzles of every shape it
 * supports, and every puzzle it decides must agree.
 *
 * The puzzles of the default seed are asserted by their fingerprint, so a
 * change to the generator, to mrv's search or to the making of the puzzles is
 * seen here; SUDOLAB_TEST_SEED=20251124 SUDOLAB_TEST_SOLVERS=mrv
 * build/tests/test_agree prints it again (the line "puzzles made ...").
 *
 * SUDOLAB_TEST_SOLVERS=name,... compares chosen back ends only, outside ones
 * (so:PATH, cmd:COMMAND) included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/clock.h"
#include "common/hash.h"
#include "common/rng.h"
#include "common/symmetry.h"
#include "solvers/registry.h"
#include "tests/test_util.h"

static const char *const reference_name = "mrv";
/* The reference of the reference: compared with mrv, it checks mrv. */
static const char *const second_reference_name = "dlx";
/* The default seed's puzzles (see the top). */
static const uint64_t default_seed = 20251124u;
static const uint64_t default_fingerprint = 0xbbc3c9bad99dc56du;

/* The shapes, with how many complete grids each gets, how many of the cells
 * digging may try (percent; 100 = until no clue can go) and the share of
 * cells the "blanked" puzzle loses (percent; past about half, random 25x25
 * puzzles are out of the reference's reach, as quasigroup completion is near
 * its phase transition). */
static const struct shape_spec {
    uint8_t box_rows, box_cols, variant;
    uint8_t grids, dig_percent, blank_percent;
} shapes[] = {
    { 2, 2, GRID_STANDARD, 3, 100, 60 },
    { 2, 3, GRID_STANDARD, 3, 100, 60 },
    { 2, 4, GRID_STANDARD, 2, 100, 60 },
    { 3, 3, GRID_STANDARD, 6, 100, 60 },
    { 3, 4, GRID_STANDARD, 2, 100, 60 },
    { 4, 4, GRID_STANDARD, 2, 100, 55 },
    { 5, 5, GRID_STANDARD, 1, 50, 40 },
    { 2, 2, GRID_DIAGONAL, 2, 100, 60 },
    { 2, 3, GRID_DIAGONAL, 2, 100, 60 },
    { 3, 3, GRID_DIAGONAL, 2, 100, 60 },
    { 3, 4, GRID_DIAGONAL, 1, 100, 60 },
};

enum {
    NSHAPES = TEST_COUNT(shapes),
    PUZZLES_PER_GRID = 7,
    MAX_PUZZLES = 6 * PUZZLES_PER_GRID,
    FULL_COUNT_MAX = 1000, /* full counts compared up to this many solutions */
    SLOW_COUNT_MAX = 50, /* ... for back ends without SOLVER_CAP_FAST */
    FULL_COUNT_N = 9, /* ... on grids up to 9x9 */
    SLOW_N = 12, /* from this size on, slow back ends get easy puzzles only */
    REF_STEPS = 2000000, /* the reference's steps on any puzzle it makes or judges */
    DIG_STEPS = 50000, /* ... to prove a dug puzzle unique */
    COUNT_STEPS = 200000, /* ... to count all solutions */
    MIN_DECIDED_PERCENT = 50, /* of a slow back end's puzzles */
    UNBUDGETED_PER_SHAPE = 8, /* puzzles of a shape: slow, no step budget */
    MIN_PER_SHAPE = 3, /* puzzles compared in every shape a back end supports */
};

/* Step budgets per puzzle (all its solves) and in all, for back ends that
 * take one: naive, the slowest built-in back end, does about 15 million steps
 * a second. */
static const uint64_t fast_puzzle_steps = 200000000, slow_puzzle_steps = 2000000;
static const uint64_t slow_allowance_steps = 40000000;

/* A puzzle and what the reference says of it. */
struct agree_puzzle {
    struct grid g;
    const char *kind;
    bool easy;
    enum solve_status status; /* at limit 2 */
    uint64_t solutions; /* at limit 2 */
    struct grid solution; /* the first one, when solutions > 0 */
    uint64_t full; /* all solutions, or UINT64_MAX when not counted */
};

struct agree_set {
    struct grid shape;
    char name[48];
    size_t n;
    struct agree_puzzle p[MAX_PUZZLES];
};

static struct agree_set sets[NSHAPES];
/* The same puzzles with the second reference's answers, made for mrv's test. */
static struct agree_set second_opinion[NSHAPES];
static struct solver_instance *ref;
static uint64_t seed;

/* --- making the puzzles --- */

/* The reference's answer; steps (0: none) bound the work in a way that does
 * not depend on the machine, so a seed makes the same puzzles everywhere. */
static void ref_run(
    const struct grid *g, uint64_t limit, uint64_t steps, struct solve_result *res)
{
    const struct solve_request req = { .limit = limit, .budget_steps = steps };
    solver_run(ref, g, &req, res);
}

/* The reference's first solution of `clues` random clues that break no rule. */
static bool complete_random_clues(
    struct rng *rng, const struct grid *shape, int clues, struct grid *out)
{
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
    ref_run(&g, 1, REF_STEPS, &res);
    *out = res.solution;
    return res.status == SOLVE_STATUS_SOLVED;
}

/* A random complete grid: N random clues completed by the reference (fewer
 * when they lead nowhere, as they often do on small diagonal grids), then a
 * random isomorph. False when not even the empty grid could be completed. */
static bool random_full_grid(struct rng *rng, const struct grid *shape, struct grid *out)
{
    struct grid full;
    for (int clues = shape->n;; clues /= 2) {
        if (complete_random_clues(rng, shape, clues, &full))
            break;
        if (clues == 0)
            return false;
    }
    struct symmetry sym;
    symmetry_random(&sym, &full, rng);
    symmetry_apply(&sym, &full, out);
    return check_solution(out, out, NULL, 0);
}

static void blank_at_random(struct rng *rng, struct grid *g, unsigned percent)
{
    for (int i = 0; i < g->ncells; i++) {
        if (rng_below(rng, 100) < percent)
            g->cell[i] = 0;
    }
}

/* Removes clues in random order (trying dig_percent of the cells) as long as
 * the reference proves the puzzle unique within DIG_STEPS: past that, proofs
 * of 16x16 puzzles grow to seconds. */
static void dig_unique(struct rng *rng, struct grid *g, unsigned dig_percent)
{
    int order[GRID_MAX_CELLS];
    for (int i = 0; i < g->ncells; i++)
        order[i] = i;
    rng_shuffle(rng, order, g->ncells);
    const int tries = g->ncells * (int) dig_percent / 100;
    for (int k = 0; k < tries; k++) {
        const int cell = order[k];
        const uint8_t v = g->cell[cell];
        g->cell[cell] = 0;
        struct solve_result res;
        ref_run(g, 2, DIG_STEPS, &res);
        if (res.status != SOLVE_STATUS_UNIQUE)
            g->cell[cell] = v;
    }
}

/* Adds a clue that differs from `solution` there and breaks no rule. False
 * when no such clue was found. */
static bool add_wrong_clue(struct rng *rng, struct grid *g, const struct grid *solution)
{
    for (int tries = 0; tries < 100 * g->ncells; tries++) {
        const int cell = (int) rng_below(rng, g->ncells);
        const uint8_t v = (uint8_t) (1 + rng_below(rng, g->n));
        if (g->cell[cell] || v == solution->cell[cell])
            continue;
        g->cell[cell] = v;
        if (!grid_find_conflict(g, NULL, 0))
            return true;
        g->cell[cell] = 0;
    }
    return false;
}

/* Removes random clues until the reference finds two solutions (where no
 * rectangle can be swapped: small diagonal grids). */
static bool remove_until_multiple(struct rng *rng, struct grid *g)
{
    for (int k = 0; k < g->ncells; k++) {
        g->cell[rng_below(rng, g->ncells)] = 0;
        struct solve_result res;
        ref_run(g, 2, REF_STEPS, &res);
        if (res.status == SOLVE_STATUS_MULTIPLE)
            return true;
    }
    return false;
}

/* Four cells of `full` at the corners of a rectangle, holding a b / b a,
 * whose values can be swapped with every rule kept (check_solution says so,
 * for either variant): a puzzle of full's clues without them has both grids
 * as solutions. False when the grid has none. */
static bool find_swap(const struct grid *full, int cells[4])
{
    const int n = full->n;
    for (int r1 = 0; r1 < n; r1++) {
        for (int r2 = r1 + 1; r2 < n; r2++) {
            for (int c1 = 0; c1 < n; c1++) {
                for (int c2 = c1 + 1; c2 < n; c2++) {
                    cells[0] = r1 * n + c1, cells[1] = r1 * n + c2;
                    cells[2] = r2 * n + c1, cells[3] = r2 * n + c2;
                    const uint8_t a = full->cell[cells[0]], b = full->cell[cells[1]];
                    if (full->cell[cells[2]] != b || full->cell[cells[3]] != a)
                        continue;
                    struct grid swapped = *full;
                    for (int k = 0; k < 4; k++)
                        swapped.cell[cells[k]] = full->cell[cells[k]] == a ? b : a;
                    if (check_solution(&swapped, &swapped, NULL, 0))
                        return true;
                }
            }
        }
    }
    return false;
}

/* What `judge` says of p->g, within `steps` per solve (a separate budget for
 * the full count): false when it could not decide. */
static bool judge_puzzle(struct solver_instance *judge, struct agree_puzzle *p,
    uint64_t steps, uint64_t count_steps)
{
    struct solve_result res;
    struct solve_request req = { .limit = 2, .budget_steps = steps };
    solver_run(judge, &p->g, &req, &res);
    if (res.status != SOLVE_STATUS_UNIQUE && res.status != SOLVE_STATUS_MULTIPLE
        && res.status != SOLVE_STATUS_UNSOLVABLE)
        return false;
    p->status = res.status;
    p->solutions = res.solutions;
    p->solution = res.solution;
    p->full = UINT64_MAX;
    if (p->g.n <= FULL_COUNT_N) {
        req = (struct solve_request) { .limit = FULL_COUNT_MAX + 1,
            .budget_steps = count_steps };
        solver_run(judge, &p->g, &req, &res);
        if (res.status != SOLVE_STATUS_LIMIT && res.solutions <= FULL_COUNT_MAX)
            p->full = res.solutions;
    }
    return true;
}

/* Asks the reference about p->g and adds it to the set; false (with a note)
 * when the reference could not decide it within its budget. */
static bool add_puzzle(
    struct agree_set *set, const struct grid *g, const char *kind, bool easy)
{
    assert_true(set->n < MAX_PUZZLES);
    struct agree_puzzle *p = &set->p[set->n];
    p->g = *g;
    p->kind = kind;
    p->easy = easy;
    if (!judge_puzzle(ref, p, REF_STEPS, COUNT_STEPS)) {
        printf("# %s %s: the reference does not decide it within %d steps: left out\n",
            set->name, kind, REF_STEPS);
        return false;
    }
    set->n++;
    return true;
}

/* The seven puzzles of one complete grid; the first grid of a shape also
 * gives the grid itself. Fails the setup (false) only on a construction the
 * theory says cannot fail: the reference must agree with it. */
static bool add_puzzles_of_grid(struct agree_set *set, struct rng *rng,
    const struct grid *full, const struct shape_spec *spec)
{
    if (set->n == 0)
        add_puzzle(set, full, "complete grid", true);
    struct grid g = *full;
    blank_at_random(rng, &g, 17);
    add_puzzle(set, &g, "a sixth blanked", true);
    if (add_wrong_clue(rng, &g, full))
        add_puzzle(set, &g, "a sixth blanked, wrong clue", true);
    struct grid dug = *full;
    dig_unique(rng, &dug, spec->dig_percent);
    if (!add_puzzle(set, &dug, "dug unique", false) || set->p[set->n - 1].solutions != 1)
        return false;
    g = dug;
    if (add_wrong_clue(rng, &g, full)) {
        if (!add_puzzle(set, &g, "dug, wrong clue", false)
            || set->p[set->n - 1].solutions)
            return false;
    }
    /* the dug puzzle is unique, so some of the four are clues: without them
     * both grids solve it */
    int swap[4];
    g = dug;
    const bool swappable = find_swap(full, swap);
    for (int k = 0; swappable && k < 4; k++)
        g.cell[swap[k]] = 0;
    if (!(swappable || remove_until_multiple(rng, &g))
        || !add_puzzle(set, &g,
            swappable ? "dug, a swappable rectangle blanked" : "dug, clues removed",
            false)
        || set->p[set->n - 1].solutions != 2)
        return false;
    g = *full;
    blank_at_random(rng, &g, spec->blank_percent);
    add_puzzle(set, &g, "blanked", false);
    return true;
}

static int make_set(size_t i)
{
    const struct shape_spec *spec = &shapes[i];
    struct agree_set *set = &sets[i];
    grid_init(
        &set->shape, spec->box_rows, spec->box_cols, (enum grid_variant) spec->variant);
    grid_describe_shape(&set->shape, set->name, sizeof(set->name));
    /* one stream per shape: a shape's puzzles do not depend on the others */
    struct rng rng;
    rng_seed(&rng, seed ^ (0x9E3779B97F4A7C15u * (i + 1)));
    const uint64_t start = clock_now_ns();
    int made = 0;
    for (int tries = 0; made < spec->grids && tries < 10 * spec->grids; tries++) {
        struct grid full;
        if (!random_full_grid(&rng, &set->shape, &full))
            continue;
        if (!add_puzzles_of_grid(set, &rng, &full, spec)) {
            print_error("agree: %s: the reference contradicts a puzzle's construction "
                        "(seed %llu)\n",
                set->name, (unsigned long long) seed);
            return -1;
        }
        made++;
    }
    if (made < spec->grids) {
        print_error("agree: %s: no complete grid from the reference (seed %llu)\n",
            set->name, (unsigned long long) seed);
        return -1;
    }
    int count[3] = { 0 };
    for (size_t k = 0; k < set->n; k++)
        count[set->p[k].solutions]++;
    printf(
        "# %s: %zu puzzles: %d with no solution, %d unique, %d with several (%.2f s)\n",
        set->name, set->n, count[0], count[1], count[2],
        (double) (clock_now_ns() - start) * 1e-9);
    return count[0] && count[1] && count[2] ? 0 : -1;
}

static int make_sets(void **state)
{
    (void) state;
    seed = test_seed("agree", default_seed);
    const struct solver *s = solver_find(reference_name);
    ref = s ? solver_open(s) : NULL;
    if (!ref) {
        print_error("agree: the reference back end %s is not there\n", reference_name);
        return -1;
    }
    const uint64_t start = clock_now_ns();
    for (size_t i = 0; i < NSHAPES; i++) {
        if (make_set(i) != 0)
            return -1;
    }
    /* the same seed makes the same puzzles on any machine */
    uint64_t h = HASH_FNV1A_START;
    for (size_t i = 0; i < NSHAPES; i++) {
        for (size_t k = 0; k < sets[i].n; k++)
            h = hash_bytes(h, sets[i].p[k].g.cell, sets[i].p[k].g.ncells);
    }
    printf("# puzzles made in %.2f s, fingerprint %016llx\n",
        (double) (clock_now_ns() - start) * 1e-9, (unsigned long long) h);
    if (seed == default_seed && h != default_fingerprint) {
        print_error("agree: seed %llu made puzzles of fingerprint %016llx, not %016llx: "
                    "the generator, mrv or the making of the puzzles changed (if on "
                    "purpose, put the new one in default_fingerprint)\n",
            (unsigned long long) seed, (unsigned long long) h,
            (unsigned long long) default_fingerprint);
        return -1;
    }
    return 0;
}

/* The second reference's answers on every puzzle, for mrv's test: false
 * (with a note) when it leaves one undecided, which a fast back end must
 * not. */
static bool second_opinion_made(void)
{
    if (second_opinion[0].n)
        return true;
    const struct solver *s = solver_find(second_reference_name);
    struct solver_instance *judge = s ? solver_open(s) : NULL;
    if (!judge) {
        print_error(
            "agree: the second reference %s is not there\n", second_reference_name);
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < NSHAPES && ok; i++) {
        second_opinion[i] = sets[i];
        for (size_t k = 0; k < sets[i].n && ok; k++) {
            ok = judge_puzzle(
                judge, &second_opinion[i].p[k], fast_puzzle_steps, fast_puzzle_steps);
            if (!ok)
                print_error("agree: %s leaves %s (%s) undecided within %llu steps\n",
                    second_reference_name, sets[i].name, sets[i].p[k].kind,
                    (unsigned long long) fast_puzzle_steps);
        }
    }
    solver_close(judge);
    return ok;
}

static int close_reference(void **state)
{
    (void) state;
    solver_close(ref);
    return 0;
}

/* --- comparing --- */

/* One back end's run over the sets. */
struct run {
    const struct solver *s;
    struct solver_instance *inst;
    bool by_steps; /* it takes a step budget */
    uint64_t puzzle_steps; /* its step budget per puzzle (by_steps) */
    uint64_t steps_left; /* of the puzzle being compared */
    uint64_t steps_spent; /* over all puzzles */
    const struct agree_set *against; /* the answers it is compared with */
    int failures, compared, undecided;
    int compared_in[NSHAPES];
    char undecided_why[80]; /* the budget that ran out, for the last undecided */
};

enum verdict { AGREES, DIFFERS, UNDECIDED };

static enum verdict differs(struct run *r, const struct agree_set *set,
    const struct agree_puzzle *p, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum verdict differs(struct run *r, const struct agree_set *set,
    const struct agree_puzzle *p, const char *fmt, ...)
{
    if (r->failures++ < 10) {
        char what[400], line[GRID_MAX_CELLS + 1];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof(what), fmt, ap);
        va_end(ap);
        grid_format_line(&p->g, line);
        print_error("agree: %s on %s (%s) %s: %s (seed %llu)\n", r->s->name, set->name,
            p->kind, line, what, (unsigned long long) seed);
    }
    return DIFFERS;
}

/* One solve at `limit`, with or without on_solution; checks the status and
 * count against the reference and every solution handed out. */
static enum verdict compare_at(struct run *r, const struct agree_set *set,
    const struct agree_puzzle *p, uint64_t limit, bool enumerate)
{
    struct test_solutions c = { .puzzle = &p->g };
    const struct solve_request req = { .limit = limit,
        .budget_steps = r->by_steps ? r->steps_left : 0,
        .on_solution = enumerate ? test_collect_solution : NULL,
        .ctx = &c };
    struct solve_result res;
    solver_run(r->inst, &p->g, &req, &res);
    const uint64_t used
        = res.counters.steps < r->steps_left ? res.counters.steps : r->steps_left;
    r->steps_left -= used;
    r->steps_spent += used;
    const uint64_t all = limit == 0 ? p->full : p->solutions;
    const uint64_t want = limit && all > limit ? limit : all;
    const enum solve_status want_status = limit == 1
        ? (want ? SOLVE_STATUS_SOLVED : SOLVE_STATUS_UNSOLVABLE)
        : want == 0 ? SOLVE_STATUS_UNSOLVABLE
        : want == 1 ? SOLVE_STATUS_UNIQUE
                    : SOLVE_STATUS_MULTIPLE;
    enum verdict v = AGREES;
    const size_t twice = enumerate ? test_solutions_repeated(&c) : 0;
    test_solutions_free(&c);
    if (res.status == SOLVE_STATUS_LIMIT && !(r->s->caps & SOLVER_CAP_FAST)) {
        if (r->by_steps && r->steps_left == 0)
            snprintf(r->undecided_why, sizeof(r->undecided_why),
                "its budget of %llu steps", (unsigned long long) r->puzzle_steps);
        else
            snprintf(r->undecided_why, sizeof(r->undecided_why),
                "no budget: it gave up by itself");
        return UNDECIDED;
    }
    if (res.status != want_status || res.solutions != want)
        v = differs(r, set, p,
            "limit %llu%s: %s with %llu solution(s), the reference %s with %llu%s%s",
            (unsigned long long) limit, enumerate ? " (on_solution)" : "",
            solve_status_name(res.status), (unsigned long long) res.solutions,
            solve_status_name(want_status), (unsigned long long) want,
            res.error[0] ? ": " : "", res.error);
    else if (enumerate && (c.count != res.solutions || c.wrong || twice))
        v = differs(r, set, p,
            "limit %llu: %zu solutions handed out for %llu, %zu twice%s%s",
            (unsigned long long) limit, c.count, (unsigned long long) res.solutions,
            twice, c.wrong ? ", a wrong one: " : "", c.wrong ? c.why : "");
    else if (want == 1 && limit != 1
        && memcmp(res.solution.cell, p->solution.cell, p->g.ncells) != 0)
        v = differs(r, set, p, "limit %llu: not the reference's one solution",
            (unsigned long long) limit);
    return v;
}

/* Whether s hands every solution to on_solution past the first. Outside back
 * ends cannot when they are processes (the line protocol carries one
 * solution) or tdoku-ABI functions (solvers/sudolab_plugin.h). */
static bool lists_solutions(const struct solver *s)
{
    return strcmp(s->family, "process") != 0 && strcmp(s->family, "tdoku-abi") != 0;
}

/* Limit 2 with and without on_solution (counting may take other paths than
 * enumerating), limit 1, and the full count where it is small; on_solution
 * past the first solution only where the back end lists solutions. */
static enum verdict compare_puzzle(
    struct run *r, const struct agree_set *set, const struct agree_puzzle *p)
{
    const bool counts = (r->s->caps & SOLVER_CAP_COUNT) != 0;
    const bool lists = counts && lists_solutions(r->s);
    r->steps_left = r->puzzle_steps;
    const uint64_t full_max
        = (r->s->caps & SOLVER_CAP_FAST) ? FULL_COUNT_MAX : SLOW_COUNT_MAX;
    const struct {
        uint64_t limit;
        bool enumerate, when;
    } modes[] = {
        { 2, true, lists },
        { 2, false, counts },
        { 1, true, true },
        { 0, false, counts && p->full <= full_max },
        { 0, true, lists && p->full <= full_max },
    };
    for (size_t m = 0; m < TEST_COUNT(modes); m++) {
        if (!modes[m].when)
            continue;
        const enum verdict v = compare_at(r, set, p, modes[m].limit, modes[m].enumerate);
        if (v != AGREES)
            return v;
    }
    return AGREES;
}

/* Compares the puzzles of the shapes in `active`, the first of every shape,
 * then the second..., so that a slow back end whose allowance runs out has
 * seen every shape. A shape where it leaves a puzzle undecided is left. */
static void compare_sets(struct run *r, bool active[NSHAPES])
{
    const bool slow = !(r->s->caps & SOLVER_CAP_FAST);
    int given[NSHAPES] = { 0 };
    for (size_t k = 0; k < MAX_PUZZLES; k++) {
        for (size_t i = 0; i < NSHAPES; i++) {
            const struct agree_set *set = &r->against[i];
            if (!active[i] || k >= set->n
                || (slow && !set->p[k].easy && set->shape.n >= SLOW_N)
                || (slow && !r->by_steps && given[i] >= UNBUDGETED_PER_SHAPE))
                continue;
            if (slow && r->by_steps && r->steps_spent >= slow_allowance_steps) {
                printf(
                    "# %s: its %llu steps are spent: puzzles %zu on of each shape left "
                    "out\n",
                    r->s->name, (unsigned long long) slow_allowance_steps, k + 1);
                return;
            }
            given[i]++;
            if (compare_puzzle(r, set, &set->p[k]) == UNDECIDED) {
                printf("# %s on %s (%s): undecided within %s: the rest of %s left out\n",
                    r->s->name, set->name, set->p[k].kind, r->undecided_why, set->name);
                active[i] = false;
                r->undecided++;
            } else {
                r->compared++;
                r->compared_in[i]++;
            }
        }
    }
}

static void agrees_with_reference(void **state)
{
    const struct solver *s = *state;
    const bool fast = (s->caps & SOLVER_CAP_FAST) != 0;
    const bool is_reference = strcmp(s->name, reference_name) == 0;
    if (is_reference && !second_opinion_made())
        fail_msg("no second opinion on the reference's answers");
    struct run r = { .s = s,
        .inst = solver_open(s),
        .by_steps = (s->caps & SOLVER_CAP_STEP_BUDGET) != 0,
        .puzzle_steps = fast ? fast_puzzle_steps : slow_puzzle_steps,
        .against = is_reference ? second_opinion : sets };
    assert_non_null(r.inst);
    char declined[512] = "";
    bool active[NSHAPES];
    for (size_t i = 0; i < NSHAPES; i++) {
        active[i] = solver_supports(s, &sets[i].shape, NULL, 0);
        if (!active[i])
            snprintf(declined + strlen(declined), sizeof(declined) - strlen(declined),
                "%s%s", declined[0] ? ", " : "", sets[i].name);
    }
    const uint64_t start = clock_now_ns();
    compare_sets(&r, active);
    solver_close(r.inst);
    const int given = r.compared + r.undecided;
    const int need
        = fast || !r.by_steps ? given : (given * MIN_DECIDED_PERCENT + 99) / 100;
    printf("# %s against %s: %d puzzles compared in %.2f s, %d undecided (%d decided "
           "needed)%s%s\n",
        s->name, is_reference ? second_reference_name : reference_name, r.compared,
        (double) (clock_now_ns() - start) * 1e-9, r.undecided, need,
        declined[0] ? "; declines " : "", declined);
    if (given == 0)
        test_skip("%s supports none of the shapes", s->name);
    assert_int_equal(r.failures, 0);
    if (r.compared < need)
        fail_msg(
            "%s decided %d of the %d puzzles it was given; it must decide at least %d",
            s->name, r.compared, given, need);
    for (size_t i = 0; i < NSHAPES; i++) {
        if (solver_supports(s, &sets[i].shape, NULL, 0)
            && r.compared_in[i] < MIN_PER_SHAPE)
            fail_msg("%s compared %d puzzles of %s; at least %d are needed", s->name,
                r.compared_in[i], sets[i].name, MIN_PER_SHAPE);
    }
}

int main(int argc, char **argv)
{
    const struct solver **solvers = test_solvers("not compared");
    if (!solvers)
        return 1;
    size_t nsolvers = 0;
    while (solvers[nsolvers])
        nsolvers++;
    struct CMUnitTest *tests = calloc(nsolvers + 1, sizeof(*tests));
    char(*names)[128] = calloc(nsolvers + 1, sizeof(*names));
    if (!tests || !names)
        return 1;
    size_t t = 0;
    for (size_t i = 0; i < nsolvers; i++) {
        if (solvers[i]->caps & SOLVER_CAP_INCOMPLETE) {
            /* no count to compare, and no end without a budget: test_crosscheck
               checks its answers, test_stochastic the rest */
            printf(
                "# %s: incomplete (stochastic search), not compared\n", solvers[i]->name);
            continue;
        }
        snprintf(names[t], sizeof(names[t]), "%s agrees with %s", solvers[i]->name,
            strcmp(solvers[i]->name, reference_name) == 0 ? second_reference_name
                                                          : reference_name);
        tests[t] = (struct CMUnitTest) { .name = names[t],
            .test_func = agrees_with_reference,
            .initial_state = (void *) solvers[i] };
        t++;
    }
    const struct test_group plain = { "agree", tests, t, make_sets, close_reference };
    const int status = test_main(argc, argv, &plain, NULL);
    free(tests);
    free(names);
    free(solvers);
    return status;
}
