/* Outside back ends through the library API (solvers/outside.h): the names
 * made from specs, one descriptor per spec, labels that may not take a name,
 * malformed specs refused, and instances of a plug-in and of a process that
 * several threads use at once, each with its own state, answering as mrv does.
 * Environment: SUDOLAB_PLUGIN_DIR (the built tests/plugins), and
 * SUDOLAB_PROCESS_SOLVER with SUDOLAB_PYTHON for the process part. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "solvers/outside.h"
#include "solvers/registry.h"

static const char *plugin_dir(void)
{
    const char *dir = getenv("SUDOLAB_PLUGIN_DIR");
    return dir && dir[0] ? dir : NULL;
}

static void names_come_from_the_file_or_command(void **state)
{
    (void) state;
    const struct solver *a = solver_find("so:/nowhere/libfoo.so.1");
    const struct solver *b = solver_find("so:/elsewhere/libfoo.so");
    const struct solver *c = solver_find("so:/nowhere/libfoo.so:my_fn");
    const struct solver *d = solver_find("cmd:python3 /some/dir/solver.py --fast");
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_non_null(d);
    assert_string_equal(a->name, "so:foo");
    assert_string_equal(b->name, "so:foo~2"); /* another file, the same base name */
    assert_string_equal(c->name, "so:foo:my_fn");
    assert_string_equal(d->name, "cmd:python3_solver.py_--fast");
    /* none of them can run, and each says why */
    assert_non_null(strstr(outside_problem(a), "cannot load"));
    assert_non_null(strstr(outside_problem(d), "before answering hello"));
    assert_null(outside_problem(solver_find("mrv")));
}

static void one_descriptor_per_spec(void **state)
{
    (void) state;
    const struct solver *a = solver_find("so:/nowhere/libbar.so");
    assert_non_null(a);
    assert_ptr_equal(solver_find("so:/nowhere/libbar.so"), a);
    assert_ptr_not_equal(solver_find("so:/nowhere/libbar.so:f"), a);
}

static void labels_and_malformed_specs(void **state)
{
    (void) state;
    const struct solver *s = solver_find("mine=so:/nowhere/libbaz.so");
    assert_non_null(s);
    assert_string_equal(s->name, "mine");
    assert_null(solver_find("mrv=so:/nowhere/libbaz.so")); /* a built-in's name */
    assert_null(solver_find("mine=so:/nowhere/libqux.so")); /* taken above */
    assert_null(solver_find("so:"));
    assert_null(solver_find("so:/nowhere/lib.so:"));
    assert_null(solver_find("cmd:   "));
    assert_false(outside_is_spec("mrv"));
    assert_false(outside_is_spec("x=y"));
    assert_true(outside_is_spec("x=cmd:true"));
}

/* What each thread solves, and what mrv says about it. */
static const char *const puzzles[] = {
    ".9.6.17..5...3...64167.92.8....92.6.95....4...8.4.735...5.7....3...4.........59..",
    ".9.6.17..5...3...64167.92......92.6.95....4...8.4.735...5.7....3...4.........59..",
    "12345678.........9...............................................................",
    "43....34.1.....1",
    "...1.6.56..4..5.13...5.2.13.....24..",
};
enum { NPUZZLES = sizeof(puzzles) / sizeof(puzzles[0]), NTHREADS = 4, ROUNDS = 5 };

struct worker {
    const struct solver *s;
    int wrong; /* answers that differ from mrv's */
};

static void solve_one(
    struct solver_instance *inst, const char *text, struct solve_result *res)
{
    struct grid g;
    const struct grid_shape shape = { 0, 0, GRID_STANDARD };
    assert_int_equal(grid_parse_token(&g, text, strlen(text), &shape, NULL, 0), 0);
    const struct solve_request req = { .limit = 2 };
    solver_run(inst, &g, &req, res);
}

static void *work(void *arg)
{
    struct worker *w = arg;
    struct solver_instance *inst = solver_open(w->s);
    struct solver_instance *ref = solver_open(solver_find("mrv"));
    for (int round = 0; round < ROUNDS && inst && ref; round++) {
        for (int i = 0; i < NPUZZLES; i++) {
            struct solve_result got, want;
            solve_one(inst, puzzles[i], &got);
            solve_one(ref, puzzles[i], &want);
            w->wrong += got.status != want.status || got.solutions != want.solutions;
        }
    }
    w->wrong += !inst || !ref;
    solver_close(inst);
    solver_close(ref);
    return NULL;
}

static void threads_share_nothing(const char *spec)
{
    const struct solver *s = solver_find(spec);
    assert_non_null(s);
    assert_string_equal(outside_problem(s), "");
    struct worker w[NTHREADS];
    pthread_t t[NTHREADS];
    for (int k = 0; k < NTHREADS; k++) {
        w[k] = (struct worker) { s, 0 };
        assert_int_equal(pthread_create(&t[k], NULL, work, &w[k]), 0);
    }
    for (int k = 0; k < NTHREADS; k++) {
        pthread_join(t[k], NULL);
        assert_int_equal(w[k].wrong, 0);
    }
}

static void plugin_instances_in_threads(void **state)
{
    (void) state;
    if (!plugin_dir())
        skip();
    char spec[4200];
    snprintf(spec, sizeof(spec), "so:%s/plugin_native.so", plugin_dir());
    threads_share_nothing(spec);
}

static void process_instances_in_threads(void **state)
{
    (void) state;
    const char *script = getenv("SUDOLAB_PROCESS_SOLVER");
    const char *python = getenv("SUDOLAB_PYTHON");
    if (!script || !python || !script[0] || !python[0])
        skip();
    char spec[4200];
    snprintf(spec, sizeof(spec), "cmd:%s %s", python, script);
    threads_share_nothing(spec);
}

/* A tdoku-ABI function gives a solution only at limit 1, so solver_run asks
 * for it through first_solution after the timed call (solvers/solver.h):
 * the time of a limit-2 solve is the count alone. Checked by order, not by a
 * clock: a first_solution that marks time_ns finds its mark kept, where one
 * inside the timed window would have it written over. */
enum { FIRST_SOLUTION_MARK = 123456789 };

static void counts_two_gives_none(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    (void) priv;
    (void) puzzle;
    (void) req;
    res->outcome = SOLVE_DONE;
    res->solutions = 2;
}

static void marks_the_time(
    void *priv, const struct grid *puzzle, struct solve_result *res)
{
    (void) priv;
    res->solution = *puzzle;
    static const char filled[] = "1234341221434321";
    for (int i = 0; i < 16; i++)
        res->solution.cell[i] = (uint8_t) (filled[i] - '0');
    res->time_ns = FIRST_SOLUTION_MARK;
}

static void the_solution_to_verify_is_fetched_untimed(void **state)
{
    (void) state;
    static const struct solver counting_only = { .name = "counting_only",
        .family = "tdoku-abi",
        .summary = "counts, and gives a solution only when asked apart",
        .min_n = 4,
        .max_n = 4,
        .caps = SOLVER_CAP_COUNT,
        .solve = counts_two_gives_none,
        .first_solution = marks_the_time };
    struct solver_instance *inst = solver_open(&counting_only);
    assert_non_null(inst);
    struct grid empty;
    grid_init(&empty, 2, 2, GRID_STANDARD);
    const struct solve_request req = { .limit = 2 };
    struct solve_result res;
    solver_run(inst, &empty, &req, &res);
    solver_close(inst);
    assert_int_equal(res.status, SOLVE_STATUS_MULTIPLE); /* the solution verified */
    assert_int_equal(res.time_ns, FIRST_SOLUTION_MARK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_come_from_the_file_or_command),
        cmocka_unit_test(one_descriptor_per_spec),
        cmocka_unit_test(labels_and_malformed_specs),
        cmocka_unit_test(plugin_instances_in_threads),
        cmocka_unit_test(process_instances_in_threads),
        cmocka_unit_test(the_solution_to_verify_is_fetched_untimed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
