/* What the cmocka unit tests share: where their data lives, seeds, puzzles,
 * back ends, solution checks, trace replay, and how a test program reports
 * that it could not run (meson's exit status 77).
 *
 * Results. test_main() reports each test as a TAP line on standard output
 * ("ok N - name", "not ok N - name", "ok N - name # SKIP reason"), which
 * meson reads (protocol 'tap'), so one skipped test is one skip, not the
 * whole program's; cmocka's own TAP would print a skip as "not ok", which
 * meson counts as a failure. Everything else the tests print, cmocka's report
 * of a failure included, goes to standard error. A test that cannot run
 * calls test_skip().
 *
 * Corpus parts. Tests that need the public corpora (SUDOLAB_DATASETS, datasets/public)
 * form a second group, run only when the program's first argument is
 * --corpora; tests/meson.build registers such a program twice, as <name> and
 * <name>-corpora, so the corpus part is skipped on its own (a plan of 0
 * tests, "1..0 # SKIP why") when the folder is absent and the rest still
 * counts. */
#ifndef SUDOLAB_TESTS_TEST_UTIL_H
#define SUDOLAB_TESTS_TEST_UTIL_H

/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "common/corpus.h"
#include "common/grid.h"
#include "solvers/solver.h"

/* Gordon Royle's symmetric puzzle (Moler's Figure 1) and its one solution. */
extern const char test_royle[];
extern const char test_royle_solution[];

/* --- data --- */

/* tests/data: SUDOLAB_TEST_DATA, else "tests/data" (a run from the source root). */
const char *test_data_dir(void);

/* The public corpora's folder (SUDOLAB_DATASETS), or NULL when that is
 * unset or not a folder. */
const char *test_shared_dir(void);

/* Opens the shared corpus `name`, or returns NULL after printing why not (the
 * folder or the file is missing). */
struct corpus *test_open_shared(const char *name);

/* One entry of the expected-count corpora tests/data/crosscheck*.txt. */
struct test_case {
    struct grid puzzle;
    const char *file; /* the file's name, for messages */
    unsigned long line;
    int count; /* 0, 1, 2 (= "2+"), or TEST_INVALID: the clues break a rule */
};

enum { TEST_INVALID = -1 };

/* Reads crosscheck.txt and crosscheck_diagonal.txt of test_data_dir() into a
 * new array (*cases, *n; free() it). Returns 0, or -1 after printing the
 * file, line and reason of what could not be read. Usable in group setups. */
int test_load_crosscheck(struct test_case **cases, size_t *n);

/* --- seeds --- */

/* The seed of a randomised test: SUDOLAB_TEST_SEED when set, else fallback
 * (0: the clock, a new seed every run). Always printed, with how to repeat
 * it. A SUDOLAB_TEST_SEED that is no number ends the program with status 1. */
uint64_t test_seed(const char *what, uint64_t fallback);

/* --- puzzles --- */

/* Parses a puzzle line whose length gives the shape; fails the test on error. */
void test_parse(struct grid *g, const char *text, enum grid_variant variant);
/* The same with the box shape given (6x6 has 2x3 and 3x2 boxes). */
void test_parse_shaped(struct grid *g, const char *text, int box_rows, int box_cols,
    enum grid_variant variant);

/* A complete standard grid: row r is 1..N shifted by (r % box_rows) *
 * box_cols + r / box_rows. Rows and columns are permutations and each box holds
 * box_cols values of box_rows consecutive shifts: valid, which callers
 * confirm with check_solution. */
void test_pattern_grid(struct grid *g, int box_rows, int box_cols);

/* --- back ends --- */

/* Finds and opens a registered back end; fails the test when it cannot. */
struct solver_instance *test_open(const char *name);

/* solver_run with a limit and a step budget (0: none), no deadline. */
void test_solve(struct solver_instance *inst, const struct grid *g, uint64_t limit,
    uint64_t budget_steps, struct solve_result *res);

/* Fails the test unless `solution` solves `puzzle` (common/check.h), naming
 * who returned it, the puzzle and the fault. */
void test_assert_solution(
    const struct grid *puzzle, const struct grid *solution, const char *who);

/* Whether s can run on this machine (solver_available); if not, prints
 * "# <name> unavailable (<why>): <what>" so that a run says what it left out
 * and why (what: "not tested", ...). */
bool test_available(const struct solver *s, const char *what);

/* The back ends a suite over every back end runs (the cross-check, the
 * agreement test): those SUDOLAB_TEST_SOLVERS names, comma-separated
 * (registered names, wildcards as in --solvers, or outside back ends so:PATH
 * and cmd:COMMAND), else every registered one; available ones only (the others
 * are named, as test_available does, with `what`). Returns a new
 * NULL-terminated array (free() it), or NULL after printing a name that
 * matches nothing. */
const struct solver **test_solvers(const char *what);

/* 1 in a build with AddressSanitizer (the sanitizer build, meson's
 * b_sanitize=address,undefined), where the SE rater's chains run about three
 * times slower: the rating tests take a stride of their slowest puzzles
 * there and say so. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

/* The serate ratings the rating tests take under TEST_SANITIZED: every
 * rating below 10.0, and one in TEST_HARD_STRIDE of 10.0 and up (the hardest
 * list's 22, 0.1-0.2 s each in a plain build); every one otherwise. */
enum { TEST_HARD_STRIDE = TEST_SANITIZED ? 4 : 1 };

/* One line of the serate ratings tests/data/se_*.tsv (their provenance:
 * tests/data/se_dev.README.md): source, puzzle, and ER/EP/ED as serate
 * printed it, also in tenths. */
struct test_se_rated {
    struct grid puzzle;
    char source[32];
    char serate[16];
    int er, ep, ed;
    unsigned long line;
};

/* Reads tests/data/`name` (test_data_dir()) into a new array (*rated, *n;
 * free() it). Returns 0, or -1 after printing "file:line: reason" for the
 * first line that is not source, puzzle and rating. */
int test_load_se_ratings(const char *name, struct test_se_rated **rated, size_t *n);

/* --- trace replay --- */

/* A grid rebuilt from trace events alone, with every inconsistency counted:
 * a value placed on a filled cell or off the grid, an undo of a value that is
 * not there, step counters that go back. */
struct test_replay {
    struct grid g; /* the grid so far */
    struct grid first; /* the grid at the first SOLVER_EVENT_SOLUTION */
    int solutions;
    int errors;
    uint64_t last_steps;
};

/* Starts a replay of a search on puzzle: pass test_replay_event as the
 * request's trace and r as its ctx. */
void test_replay_start(struct test_replay *r, const struct grid *puzzle);
void test_replay_event(void *ctx, const struct solver_event *ev);

/* --- the command line --- */

/* Starts `$SUDOLAB_BIN args` with its standard output to read (pclose it), or
 * returns NULL when SUDOLAB_BIN is unset (meson sets it). */
FILE *test_sudolab(const char *args);

/* --- skips and main --- */

/* Records a skip with its reason (printed as "# SKIP <reason>"), then leaves
 * the current test through cmocka's skip(). */
#define test_skip(...)                                                                   \
    do {                                                                                 \
        test_note_skip(__VA_ARGS__);                                                     \
        skip();                                                                          \
    } while (0)
void test_note_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A group of cmocka tests with its fixtures. */
struct test_group {
    const char *name;
    const struct CMUnitTest *tests;
    size_t count;
    CMFixtureFunction setup, teardown;
};

/* main() of a test program. Without arguments it runs `plain`; with
 * --corpora it runs `corpora` (may be NULL for programs without one), or
 * reports it skipped when test_shared_dir() is NULL. Prints TAP (see the top)
 * and returns the exit status: 1 when a test or a fixture failed, 0
 * otherwise; 2 for an unknown argument. */
int test_main(int argc, char **argv, const struct test_group *plain,
    const struct test_group *corpora);

/* The rater of a test program that rates (rater/se_rate.h): made by
 * test_rater_setup and freed by test_rater_teardown, a group's fixtures, so
 * its caches carry over from test to test as they do over a file's puzzles. */
struct se_rater;
extern struct se_rater *test_rater;
int test_rater_setup(void **state);
int test_rater_teardown(void **state);

/* The number of elements of a true array. */
#define TEST_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Every solution a back end hands to on_solution, each verified against the
 * puzzle's clues and rules and kept, so that a test can check they differ. */
struct test_solutions {
    const struct grid *puzzle;
    size_t count, cap;
    uint8_t *cells; /* count * ncells */
    int wrong; /* solutions the checker refused; why says why for the first */
    char why[200];
};

/* solve_request.on_solution for a struct test_solutions (ctx). */
bool test_collect_solution(void *ctx, const struct grid *solution);
/* The number of solutions that came more than once (sorts them). */
size_t test_solutions_repeated(struct test_solutions *c);
/* Frees the kept cells; count and wrong stay for the verdict. */
void test_solutions_free(struct test_solutions *c);

#endif /* SUDOLAB_TESTS_TEST_UTIL_H */
