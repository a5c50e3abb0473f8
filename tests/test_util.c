#include "tests/test_util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/check.h"
#include "common/clock.h"
#include "common/text.h"
#include "rater/se_rate.h"
#include "solvers/registry.h"

const char test_royle[]
    = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.";
const char test_royle_solution[]
    = "925631847618574293374982561749826135852413976163795482287359614491267358536148729";

/* --- data --- */

const char *test_data_dir(void)
{
    const char *dir = getenv("SUDOLAB_TEST_DATA");
    return dir ? dir : "tests/data";
}

const char *test_shared_dir(void)
{
    const char *dir = getenv("SUDOLAB_DATASETS");
    struct stat sb;
    return dir && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode) ? dir : NULL;
}

struct corpus *test_open_shared(const char *name)
{
    const char *dir = test_shared_dir();
    if (!dir) {
        printf("# %s: SUDOLAB_DATASETS is no folder\n", name);
        return NULL;
    }
    char path[4096], why[200];
    snprintf(path, sizeof(path), "%s/%s.xz", dir, name);
    const struct corpus_options opts = { 0 };
    struct corpus *c = corpus_open(path, &opts, why, sizeof(why));
    if (!c) /* the corpora ship with the project: one that does not open is a failure */
        fail_msg("%s: %s", path, why);
    return c;
}

static int parse_count(const char *extra)
{
    if (strncmp(extra, "invalid", 7) == 0)
        return TEST_INVALID;
    const int count = atoi(extra);
    return count >= 2 ? 2 : count;
}

/* Appends the entries of one file to the array; -1 after a message. */
static int load_cases(const char *name, enum grid_variant variant,
    struct test_case **cases, size_t *n, size_t *cap)
{
    char path[4096], why[200];
    snprintf(path, sizeof(path), "%s/%s", test_data_dir(), name);
    const struct corpus_options opts = { .shape = { .variant = (uint8_t) variant } };
    struct corpus *c = corpus_open(path, &opts, why, sizeof(why));
    if (!c) {
        fprintf(stderr, "%s: %s\n", path, why);
        return -1;
    }
    static struct corpus_item item;
    enum corpus_status st;
    int rc = 0;
    while (rc == 0 && (st = corpus_next(c, &item)) != CORPUS_END) {
        if (st != CORPUS_PUZZLE) {
            fprintf(stderr, "%s:%lu: %s\n", path, item.line, item.why);
            rc = -1;
            break;
        }
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 64;
            struct test_case *more = realloc(*cases, *cap * sizeof(**cases));
            if (!more) {
                fprintf(stderr, "%s: out of memory\n", path);
                rc = -1;
                break;
            }
            *cases = more;
        }
        struct test_case *k = &(*cases)[(*n)++];
        k->puzzle = item.puzzle;
        k->file = name;
        k->line = item.line;
        k->count = parse_count(item.extra);
    }
    corpus_close(c);
    return rc;
}

int test_load_crosscheck(struct test_case **cases, size_t *n)
{
    size_t cap = 0;
    *cases = NULL;
    *n = 0;
    if (load_cases("crosscheck.txt", GRID_STANDARD, cases, n, &cap) != 0
        || load_cases("crosscheck_diagonal.txt", GRID_DIAGONAL, cases, n, &cap) != 0
        || *n == 0) {
        free(*cases);
        *cases = NULL;
        return -1;
    }
    return 0;
}

/* "7.1" as tenths, or -1. */
static int parse_tenths(const char *text, const char **end)
{
    if (text[0] < '0' || text[0] > '9')
        return -1;
    int whole = 0;
    while (*text >= '0' && *text <= '9')
        whole = whole * 10 + (*text++ - '0');
    if (text[0] != '.' || text[1] < '0' || text[1] > '9')
        return -1;
    *end = text + 2;
    return whole * 10 + (text[1] - '0');
}

/* One line "source<TAB>puzzle<TAB>ER/EP/ED" into r; a reason when it is not. */
static const char *parse_se_line(char *text, struct test_se_rated *r)
{
    text[strcspn(text, "\r\n")] = '\0';
    char *puzzle = strchr(text, '\t');
    char *rating = puzzle ? strchr(puzzle + 1, '\t') : NULL;
    if (!rating || strchr(rating + 1, '\t'))
        return "not three tab-separated fields";
    *puzzle++ = '\0';
    *rating++ = '\0';
    if (!*text || strlen(text) >= sizeof(r->source))
        return "the source is empty or too long";
    strcpy(r->source, text);
    if ((strlen(puzzle) != 81 && strlen(puzzle) != 729)
        || grid_parse_token(&r->puzzle, puzzle, strlen(puzzle), NULL, NULL, 0) != 0)
        return "the puzzle is not 81 cells of 1-9 and . nor 729 candidates";
    const char *at = rating;
    int *const field[3] = { &r->er, &r->ep, &r->ed };
    for (int i = 0; i < 3; i++) {
        *field[i] = parse_tenths(at, &at);
        if (*field[i] < 0 || *at != (i < 2 ? '/' : '\0'))
            return "the rating is not ER/EP/ED with one decimal each";
        at += i < 2;
    }
    snprintf(r->serate, sizeof(r->serate), "%s", rating);
    return NULL;
}

int test_load_se_ratings(const char *name, struct test_se_rated **rated, size_t *n)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", test_data_dir(), name);
    *rated = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return -1;
    }
    size_t cap = 0;
    char text[1024]; /* a pencil-mark puzzle is 729 characters */
    unsigned long line = 0;
    const char *why = NULL;
    while (!why && fgets(text, sizeof(text), f)) {
        line++;
        if (*n == cap) {
            cap = cap ? 2 * cap : 64;
            struct test_se_rated *more = realloc(*rated, cap * sizeof(**rated));
            if (!more) {
                why = "out of memory";
                break;
            }
            *rated = more;
        }
        struct test_se_rated *r = &(*rated)[*n];
        r->line = line;
        if (!(why = parse_se_line(text, r)))
            (*n)++;
    }
    fclose(f);
    if (!why && *n == 0)
        why = "no ratings";
    if (why) {
        fprintf(stderr, "%s:%lu: %s\n", path, line, why);
        free(*rated);
        *rated = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

/* --- seeds --- */

uint64_t test_seed(const char *what, uint64_t fallback)
{
    const char *text = getenv("SUDOLAB_TEST_SEED");
    uint64_t seed = fallback ? fallback : clock_now_ns();
    if (text && text_parse_u64(text, &seed) != 0) {
        fprintf(stderr, "%s: SUDOLAB_TEST_SEED=%s: a non-negative integer expected\n",
            what, text);
        exit(1);
    }
    printf("# %s: seed %llu (SUDOLAB_TEST_SEED=%llu repeats it)\n", what,
        (unsigned long long) seed, (unsigned long long) seed);
    return seed;
}

/* --- puzzles --- */

void test_parse_shaped(struct grid *g, const char *text, int box_rows, int box_cols,
    enum grid_variant variant)
{
    char why[200];
    const struct grid_shape shape
        = { (uint8_t) box_rows, (uint8_t) box_cols, (uint8_t) variant };
    if (grid_parse_token(g, text, strlen(text), &shape, why, sizeof(why)) != 0)
        fail_msg("%s: %s", text, why);
}

void test_parse(struct grid *g, const char *text, enum grid_variant variant)
{
    test_parse_shaped(g, text, 0, 0, variant);
}

void test_pattern_grid(struct grid *g, int box_rows, int box_cols)
{
    assert_int_equal(grid_init(g, box_rows, box_cols, GRID_STANDARD), 0);
    for (int r = 0; r < g->n; r++) {
        for (int c = 0; c < g->n; c++)
            g->cell[r * g->n + c]
                = (uint8_t) ((r % box_rows * box_cols + r / box_rows + c) % g->n + 1);
    }
}

/* --- back ends --- */

struct solver_instance *test_open(const char *name)
{
    const struct solver *s = solver_find(name);
    if (!s)
        fail_msg("no back end named %s is registered", name);
    struct solver_instance *inst = solver_open(s);
    if (!inst)
        fail_msg("back end %s failed to open", name);
    return inst;
}

void test_solve(struct solver_instance *inst, const struct grid *g, uint64_t limit,
    uint64_t budget_steps, struct solve_result *res)
{
    const struct solve_request req = { .limit = limit, .budget_steps = budget_steps };
    solver_run(inst, g, &req, res);
}

void test_assert_solution(
    const struct grid *puzzle, const struct grid *solution, const char *who)
{
    char why[200];
    if (!check_solution(puzzle, solution, why, sizeof(why))) {
        char line[GRID_MAX_CELLS + 1];
        grid_format_line(puzzle, line);
        fail_msg("%s: a wrong solution of %s: %s", who, line, why);
    }
}

bool test_available(const struct solver *s, const char *what)
{
    char why[160];
    if (solver_available(s, why, sizeof(why)))
        return true;
    printf("# %s unavailable (%s): %s\n", s->name, why, what);
    return false;
}

const struct solver **test_solvers(const char *what)
{
    const char *names = getenv("SUDOLAB_TEST_SOLVERS");
    const size_t nregistered = solver_count();
    size_t cap = nregistered + 1, n = 0;
    for (const char *c = names; c && *c; c++)
        cap += *c == ',' ? nregistered : 0; /* each name: one, or registered ones */
    const struct solver **out = calloc(cap, sizeof(*out));
    if (!out)
        return NULL;
    if (!names || !names[0]) {
        for (size_t i = 0; i < nregistered; i++) {
            if (test_available(solver_registry[i], what))
                out[n++] = solver_registry[i];
        }
        return out;
    }
    printf("# SUDOLAB_TEST_SOLVERS=%s\n", names);
    for (const char *p = names; *p;) {
        const size_t len = strcspn(p, ",");
        char name[1024];
        snprintf(name, sizeof(name), "%.*s", (int) len, p);
        p += len + (p[len] == ',');
        if (!name[0])
            continue;
        const struct solver *found = solver_find(name);
        size_t matched = found != NULL;
        if (found && test_available(found, what))
            out[n++] = found;
        for (size_t i = 0; !found && i < nregistered; i++) {
            if (solver_name_matches(name, solver_registry[i]->name)) {
                matched++;
                if (test_available(solver_registry[i], what))
                    out[n++] = solver_registry[i];
            }
        }
        if (!matched) {
            print_error(
                "SUDOLAB_TEST_SOLVERS: %s: no such back end (sudolab list)\n", name);
            free(out);
            return NULL;
        }
    }
    return out;
}

/* --- trace replay --- */

void test_replay_start(struct test_replay *r, const struct grid *puzzle)
{
    memset(r, 0, sizeof(*r));
    r->g = *puzzle;
}

void test_replay_event(void *ctx, const struct solver_event *ev)
{
    struct test_replay *r = ctx;
    const bool on_grid = ev->cell >= 0 && ev->cell < r->g.ncells;
    if (ev->at.steps < r->last_steps)
        r->errors++;
    r->last_steps = ev->at.steps;
    switch (ev->kind) {
    case SOLVER_EVENT_SINGLETON:
    case SOLVER_EVENT_GUESS:
        if (!on_grid || r->g.cell[ev->cell] != 0)
            r->errors++;
        else
            r->g.cell[ev->cell] = (uint8_t) ev->value;
        break;
    case SOLVER_EVENT_UNDO:
        if (!on_grid || r->g.cell[ev->cell] != ev->value)
            r->errors++;
        else
            r->g.cell[ev->cell] = 0;
        break;
    case SOLVER_EVENT_SOLUTION:
        if (r->solutions++ == 0)
            r->first = r->g;
        break;
    case SOLVER_EVENT_DEAD:
        break;
    }
}

/* --- the command line --- */

FILE *test_sudolab(const char *args)
{
    const char *bin = getenv("SUDOLAB_BIN");
    if (!bin)
        return NULL;
    char cmd[4096];
    snprintf(cmd, sizeof(cmd), "'%s' %s", bin, args);
    return popen(cmd, "r");
}

/* --- skips and main --- */

static int skips;
static char skip_reason[300];

void test_note_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(skip_reason, sizeof(skip_reason), fmt, ap);
    va_end(ap);
    printf("# SKIP %s\n", skip_reason);
    skips++;
}

/* The TAP stream is the program's standard output as it started; from then
 * on the tests' own output (cmocka's report with each failure's file and
 * line, the tests' notes) goes to standard error, so that nothing but TAP
 * reaches meson's parser. NULL when that could not be arranged. */
static FILE *open_tap(void)
{
    fflush(stdout);
    const int fd = dup(STDOUT_FILENO);
    FILE *tap = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!tap || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        perror("test_main: standard output");
        return NULL;
    }
    return tap;
}

int test_main(int argc, char **argv, const struct test_group *plain,
    const struct test_group *corpora)
{
    const struct test_group *group = plain;
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--corpora") != 0)) {
        fprintf(stderr, "usage: %s [--corpora]\n", argv[0]);
        return 2;
    }
    FILE *tap = open_tap();
    if (!tap)
        return 1;
    if (argc == 2) {
        const char *dir = getenv("SUDOLAB_DATASETS");
        if (!corpora) {
            fprintf(tap, "1..0 # SKIP %s has no corpus tests\n", argv[0]);
            return 0;
        }
        if (!test_shared_dir()) {
            fprintf(tap,
                "1..0 # SKIP %s: %s is no folder: the public corpora are absent\n",
                corpora->name, dir ? dir : "SUDOLAB_DATASETS (unset)");
            return 0;
        }
        group = corpora;
    }
    /* The group's fixtures once around the whole group, as cmocka runs them;
     * each test as a group of its own, so that each gets its own line. */
    void *state = NULL;
    if (group->setup && group->setup(&state) != 0) {
        fprintf(tap, "Bail out! %s: the group's setup failed\n", group->name);
        return 1;
    }
    size_t n = 0;
    int failed = 0;
    for (size_t i = 0; i < group->count; i++) {
        const int skips_before = skips;
        const int rc
            = _cmocka_run_group_tests(group->name, &group->tests[i], 1, NULL, NULL);
        fflush(stdout);
        if (rc) {
            failed++;
            fprintf(tap, "not ok %zu - %s\n", ++n, group->tests[i].name);
        } else if (skips != skips_before) {
            fprintf(
                tap, "ok %zu - %s # SKIP %s\n", ++n, group->tests[i].name, skip_reason);
        } else {
            fprintf(tap, "ok %zu - %s\n", ++n, group->tests[i].name);
        }
        fflush(tap);
    }
    if (group->teardown && group->teardown(&state) != 0) {
        failed++;
        fprintf(tap, "not ok %zu - %s: the group's teardown\n", ++n, group->name);
    }
    fprintf(tap, "1..%zu\n", n);
    fclose(tap);
    return failed ? 1 : 0;
}

bool test_collect_solution(void *ctx, const struct grid *solution)
{
    struct test_solutions *c = ctx;
    if (!check_solution(
            c->puzzle, solution, c->wrong ? NULL : c->why, c->wrong ? 0 : sizeof(c->why)))
        c->wrong++;
    if (c->count == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->cells = realloc(c->cells, c->cap * (size_t) solution->ncells);
        assert_non_null(c->cells);
    }
    memcpy(c->cells + c->count * (size_t) solution->ncells, solution->cell,
        (size_t) solution->ncells);
    c->count++;
    return true;
}

static size_t solution_cells; /* qsort has no context argument */

static int compare_solutions(const void *a, const void *b)
{
    return memcmp(a, b, solution_cells);
}

size_t test_solutions_repeated(struct test_solutions *c)
{
    if (c->count < 2)
        return 0;
    const size_t len = (size_t) c->puzzle->ncells;
    solution_cells = len;
    qsort(c->cells, c->count, len, compare_solutions);
    size_t repeated = 0;
    for (size_t i = 1; i < c->count; i++)
        repeated += memcmp(c->cells + (i - 1) * len, c->cells + i * len, len) == 0;
    return repeated;
}

void test_solutions_free(struct test_solutions *c)
{
    free(c->cells);
    c->cells = NULL;
    c->cap = 0;
}

struct se_rater *test_rater;

int test_rater_setup(void **state)
{
    (void) state;
    test_rater = se_rater_new();
    return test_rater ? 0 : -1;
}

int test_rater_teardown(void **state)
{
    (void) state;
    se_rater_free(test_rater);
    test_rater = NULL;
    return 0;
}
