/* The page's window on sudolab's C core, compiled to WebAssembly by Meson's
 * cross build (web/meson.build, web/wasm32-wasi.ini). Everything the page
 * computes goes through here and into the same common/, solvers/ and puzzle/
 * code the native build runs: the JavaScript side only moves text in and out
 * and draws.
 *
 * Calling convention: the page asks web_input(len) for a buffer, writes a
 * UTF-8 text there (a puzzle line, two lines, or a batch of lines), calls one
 * web_* function, and reads the JSON answer web_output() points at
 * (web_output_len() bytes). One module instance serves one page on one thread,
 * so the buffers, the open back ends and the two trace slots live in static
 * storage here; none of it is visible to the back ends.
 *
 * Traces are recorded into a slot (two, for the side-by-side view) as a flat
 * event array with snapshots of the grid every WEB_SNAP_EVERY events, so the
 * replay can jump anywhere on its slider in constant time. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "common/corpus.h"
#include "common/grid.h"
#include "common/units.h"
#include "config.h"
#include "puzzle/generate.h"
#include "puzzle/logic.h"
#include "puzzle/rate.h"
#include "rater/se_rate.h"
#include "solvers/registry.h"
#include "web/wasm_api.h"

#define WEB_EXPORT(name) __attribute__((export_name(#name)))

enum {
    WEB_OUT_MAX = 1 << 18,
    WEB_MAX_SOLVERS = 64,
    WEB_TRACE_SLOTS = 2,
    WEB_EV_STRIDE = 3 + SOLVER_COUNTER_COUNT, /* kind, cell, value, counters */
    WEB_SNAP_EVERY = 256,
    WEB_TRACE_MAX_EVENTS = 1 << 22, /* 128 MB: naive on Royle's puzzle fits */
    WEB_BATCH_MAX = 20000,
};

/* Cell classes of a replayed grid, as the Moler article colours them. */
enum web_class {
    WEB_BLANK = 0,
    WEB_CLUE = 1,
    WEB_TENTATIVE = 2,
    WEB_SINGLETON = 3,
};

struct web_trace {
    struct grid puzzle;
    const struct solver *solver;
    struct solve_request req; /* owned here, so a full event array can end the run */
    struct solve_result res;
    int32_t *ev;
    size_t nev, evcap;
    uint8_t *snap; /* per snapshot: ncells values then ncells classes */
    size_t nsnap, snapcap;
    size_t solution_at; /* position after the first SOLUTION event; 0 = none */
    uint8_t live_val[GRID_MAX_CELLS], live_cls[GRID_MAX_CELLS];
    bool truncated;
    bool inconsistent; /* an UNDO erased a value that was not there */
};

static char *web_in;
static size_t web_in_cap;
static char web_out[WEB_OUT_MAX];
static size_t web_out_len;
static struct solver_instance *web_inst[WEB_MAX_SOLVERS];
static struct web_trace web_traces[WEB_TRACE_SLOTS];
static struct units web_units;

/* --- output ---------------------------------------------------------------- */

static void out_reset(void)
{
    web_out_len = 0;
    web_out[0] = '\0';
}

__attribute__((format(printf, 1, 2))) static void out_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const size_t room = sizeof(web_out) - web_out_len;
    const int n = vsnprintf(web_out + web_out_len, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        web_out_len += (size_t) n < room ? (size_t) n : room - 1;
}

/* A JSON string; the texts written here are ASCII messages from sudolab. */
static void out_string(const char *s)
{
    out_printf("\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            out_printf("\\%c", *s);
        else if ((unsigned char) *s < 0x20)
            out_printf("\\u%04x", (unsigned char) *s);
        else
            out_printf("%c", *s);
    }
    out_printf("\"");
}

static void out_grid(const struct grid *g)
{
    char line[GRID_MAX_CELLS + 1];
    grid_format_line(g, line);
    out_string(line);
}

static void out_error(const char *why)
{
    out_reset();
    out_printf("{\"ok\":false,\"why\":");
    out_string(why);
    out_printf("}");
}

static void out_counters(const struct solver *s, const struct solver_counters *c)
{
    out_printf("{");
    bool first = true;
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        if (!(s->counters & (1u << i)))
            continue;
        out_printf("%s\"%s\":%llu", first ? "" : ",", solver_counter_names[i],
            (unsigned long long) solver_counter_get(c, i));
        first = false;
    }
    out_printf("}");
}

/* --- input ----------------------------------------------------------------- */

/* Parses the first puzzle token of text: leading blanks are skipped, the token
 * ends at the first separator, as in a corpus line. */
static const char *parse_puzzle(const char *text, struct grid *g,
    const struct grid_shape *shape, char *why, size_t whylen)
{
    while (*text && grid_is_separator((unsigned char) *text))
        text++;
    size_t len = 0;
    while (text[len] && !grid_is_separator((unsigned char) text[len]))
        len++;
    if (len == 0) {
        snprintf(why, whylen, "no puzzle given");
        return NULL;
    }
    if (grid_parse_token(g, text, len, shape, why, whylen) != 0)
        return NULL;
    return text + len;
}

static struct grid_shape make_shape(int box_rows, int box_cols, int variant)
{
    struct grid_shape shape = { 0, 0, GRID_STANDARD };
    if (box_rows > 0 && box_cols > 0) {
        shape.box_rows = (uint8_t) box_rows;
        shape.box_cols = (uint8_t) box_cols;
    }
    shape.variant = (uint8_t) (variant ? GRID_DIAGONAL : GRID_STANDARD);
    return shape;
}

/* Reads the page's input puzzle into g for the given shape, and when
 * consistent is set also rejects clues that break a rule. On failure the
 * output already holds the error and the export returns web_out_len. */
static bool read_input(
    struct grid *g, int box_rows, int box_cols, int variant, bool consistent)
{
    const struct grid_shape shape = make_shape(box_rows, box_cols, variant);
    char why[200];
    if (!parse_puzzle(web_in, g, &shape, why, sizeof(why))
        || (consistent && grid_find_conflict(g, why, sizeof(why)))) {
        out_error(why);
        return false;
    }
    return true;
}

static struct grid_shape shape_of(const struct grid *g)
{
    return make_shape(g->box_rows, g->box_cols, g->variant);
}

static struct solver_instance *instance(int index)
{
    if (index < 0 || (size_t) index >= solver_count() || index >= WEB_MAX_SOLVERS)
        return NULL;
    if (!web_inst[index])
        web_inst[index] = solver_open(solver_registry[index]);
    return web_inst[index];
}

static uint64_t deadline_after_ms(uint32_t ms)
{
    return ms ? clock_now_ns() + (uint64_t) ms * 1000000u : 0;
}

/* --- exported calls -------------------------------------------------------- */

WEB_EXPORT(web_input) char *web_input(uint32_t len)
{
    if ((size_t) len + 1 > web_in_cap) {
        char *p = realloc(web_in, (size_t) len + 1);
        if (!p)
            return NULL;
        web_in = p;
        web_in_cap = (size_t) len + 1;
    }
    web_in[len] = '\0';
    return web_in;
}

WEB_EXPORT(web_output) const char *web_output(void)
{
    return web_out;
}

WEB_EXPORT(web_output_len) uint32_t web_output_len(void)
{
    return (uint32_t) web_out_len;
}

WEB_EXPORT(web_list) uint32_t web_list(void)
{
    out_reset();
    out_printf("{\"ok\":true,\"version\":");
    out_string(SUDOLAB_VERSION);
    out_printf(",\"compiler\":");
    out_string(SUDOLAB_COMPILER);
    out_printf(",\"buildtype\":");
    out_string(SUDOLAB_BUILDTYPE);
    out_printf(",\"default\":");
    out_string(solver_default()->name);
    out_printf(",\"counters\":[");
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        out_printf("%s", i ? "," : "");
        out_string(solver_counter_names[i]);
    }
    out_printf("],\"solvers\":[");
    bool listed = false;
    for (size_t i = 0; solver_registry[i]; i++) {
        const struct solver *s = solver_registry[i];
        char why[120];
        /* a back end this build cannot run (fast_avx2 in WebAssembly) is not
         * offered; index stays the registry's, which every call takes */
        if (!solver_available(s, why, sizeof(why)))
            continue;
        out_printf("%s{\"index\":%zu,\"name\":", listed ? "," : "", i);
        listed = true;
        out_string(s->name);
        out_printf(",\"family\":");
        out_string(s->family);
        out_printf(",\"summary\":");
        out_string(s->summary);
        out_printf(",\"min_n\":%d,\"max_n\":%d,\"count\":%s,\"diagonal\":%s,\"trace\":%s,"
                   "\"fast\":%s,\"candidates\":%s,\"counters\":[",
            s->min_n, s->max_n, s->caps & SOLVER_CAP_COUNT ? "true" : "false",
            s->caps & SOLVER_CAP_DIAGONAL ? "true" : "false",
            s->caps & SOLVER_CAP_TRACE ? "true" : "false",
            s->caps & SOLVER_CAP_FAST ? "true" : "false",
            s->caps & SOLVER_CAP_CANDIDATES ? "true" : "false");
        bool first = true;
        for (int c = 0; c < SOLVER_COUNTER_COUNT; c++) {
            if (s->counters & (1u << c)) {
                out_printf("%s", first ? "" : ",");
                out_string(solver_counter_names[c]);
                first = false;
            }
        }
        out_printf("]}");
    }
    out_printf("]");
    static const enum gen_method methods[] = { GEN_DIG, GEN_SEED003 };
    out_printf(",\"generate\":{\"methods\":[");
    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        out_printf("%s{\"name\":", i ? "," : "");
        out_string(gen_method_name(methods[i]));
        out_printf("}");
    }
    out_printf("],\"levels\":[");
    for (int level = 0; level < GEN_LEVEL_COUNT; level++) {
        out_printf("%s{\"name\":", level ? "," : "");
        out_string(gen_level_name((enum gen_level) level));
        out_printf("}");
    }
    out_printf("]}");
    out_printf("}");
    return (uint32_t) web_out_len;
}

/* The first puzzle of the corpus reader (common/corpus.h) on the input: a
 * line, or a grid of whitespace-separated numbers, as `sudolab solve` reads. */
static bool parse_as_corpus(
    struct grid *g, const struct grid_shape *shape, char *why, size_t whylen)
{
    FILE *f = fmemopen(web_in, strlen(web_in), "r");
    if (!f) {
        snprintf(why, whylen, "out of memory");
        return false;
    }
    const struct corpus_options opts = { .shape = *shape, .format = CORPUS_AUTO };
    struct corpus *c = corpus_open_stream(f, "pasted text", 1, &opts);
    if (!c) {
        fclose(f);
        snprintf(why, whylen, "out of memory");
        return false;
    }
    static struct corpus_item item; /* a grid and its texts: kept off the stack */
    const enum corpus_status st = corpus_next(c, &item);
    corpus_close(c);
    if (st == CORPUS_PUZZLE) {
        *g = item.puzzle;
        return true;
    }
    snprintf(why, whylen, "%s", st == CORPUS_END ? "no puzzle given" : item.why);
    return false;
}

/* The input with the characters other sites draw boxes with (blanks, '|',
 * '+', '-') taken out, read as one puzzle line. */
static bool parse_without_layout(struct grid *g, const struct grid_shape *shape)
{
    const size_t len = strlen(web_in);
    char *flat = malloc(len + 1);
    if (!flat)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
        const unsigned char ch = (unsigned char) web_in[i];
        if (!strchr(" \t\r\n|+-", ch))
            flat[k++] = (char) ch;
    }
    char why[200];
    const bool ok = k > 0 && grid_parse_token(g, flat, k, shape, why, sizeof(why)) == 0;
    free(flat);
    return ok;
}

/* Reads a pasted puzzle in every format the CLI reads, and grids copied with
 * their box lines; on failure the output holds the corpus reader's reason. */
static bool read_pasted(struct grid *g, int box_rows, int box_cols, int variant)
{
    const struct grid_shape shape = make_shape(box_rows, box_cols, variant);
    char why[CORPUS_WHY_MAX];
    if (parse_as_corpus(g, &shape, why, sizeof(why)) || parse_without_layout(g, &shape))
        return true;
    out_error(why);
    return false;
}

WEB_EXPORT(web_parse) uint32_t web_parse(int box_rows, int box_cols, int variant)
{
    struct grid g;
    if (!read_pasted(&g, box_rows, box_cols, variant))
        return (uint32_t) web_out_len;
    char conflict[200] = "";
    grid_find_conflict(&g, conflict, sizeof(conflict));
    char symbols[GRID_MAX_N + 1];
    for (int v = 1; v <= g.n; v++)
        symbols[v - 1] = grid_value_symbol(v);
    symbols[g.n] = '\0';
    out_reset();
    out_printf("{\"ok\":true,\"n\":%d,\"box_rows\":%d,\"box_cols\":%d,\"variant\":%d,"
               "\"clues\":%d,\"symbols\":",
        g.n, g.box_rows, g.box_cols, g.variant, grid_count_clues(&g));
    out_string(symbols);
    out_printf(",\"line\":");
    out_grid(&g);
    out_printf(",\"conflict\":");
    out_string(conflict);
    if (g.has_candidates) {
        /* a pencil-mark puzzle: each cell's given candidates, bit v-1 for v */
        out_printf(",\"candidates\":[");
        for (int i = 0; i < g.ncells; i++)
            out_printf("%s%u", i ? "," : "", (unsigned) g.candidates[i]);
        out_printf("]");
    }
    out_printf("}");
    return (uint32_t) web_out_len;
}

/* Marks every cell that shares a unit with an equal value. */
static int mark_conflicts(const struct grid *g, bool *mark)
{
    if (!units_fit(&web_units, g))
        units_build(&web_units, g);
    memset(mark, 0, (size_t) g->ncells * sizeof(*mark));
    int marked = 0;
    for (int u = 0; u < web_units.nunits; u++) {
        int seen[GRID_MAX_N + 1];
        for (int v = 0; v <= g->n; v++)
            seen[v] = -1;
        for (int k = 0; k < g->n; k++) {
            const int cell = web_units.unit_cell[u][k], v = g->cell[cell];
            if (v == 0)
                continue;
            if (seen[v] >= 0) {
                marked += !mark[cell] + !mark[seen[v]];
                mark[cell] = mark[seen[v]] = true;
            } else {
                seen[v] = cell;
            }
        }
    }
    return marked;
}

static void out_cell_list(const bool *mark, int ncells)
{
    out_printf("[");
    bool first = true;
    for (int i = 0; i < ncells; i++) {
        if (mark[i]) {
            out_printf("%s%d", first ? "" : ",", i);
            first = false;
        }
    }
    out_printf("]");
}

WEB_EXPORT(web_conflicts) uint32_t web_conflicts(int box_rows, int box_cols, int variant)
{
    struct grid g;
    if (!read_input(&g, box_rows, box_cols, variant, false))
        return (uint32_t) web_out_len;
    bool mark[GRID_MAX_CELLS];
    mark_conflicts(&g, mark);
    out_reset();
    out_printf("{\"ok\":true,\"cells\":");
    out_cell_list(mark, g.ncells);
    out_printf("}");
    return (uint32_t) web_out_len;
}

static void solve_one(int solver_index, const struct grid *puzzle, uint64_t limit,
    uint32_t budget_ms, uint64_t budget_steps, struct solve_result *res)
{
    struct solver_instance *inst = instance(solver_index);
    memset(res, 0, sizeof(*res));
    if (!inst) {
        res->status = SOLVE_STATUS_ERROR;
        snprintf(res->error, sizeof(res->error), "no back end number %d", solver_index);
        return;
    }
    const struct solver *s = solver_of(inst);
    if (limit != 1 && !(s->caps & SOLVER_CAP_COUNT))
        limit = 1;
    const struct solve_request req = { .limit = limit,
        .budget_steps = budget_steps,
        .deadline_ns = deadline_after_ms(budget_ms) };
    solver_run(inst, puzzle, &req, res);
}

/* Solves the puzzle in the input buffer: limit 1 = first solution, 2 =
 * uniqueness, 0 = count them all (within budget_ms). */
WEB_EXPORT(web_solve)
uint32_t web_solve(int solver_index, int box_rows, int box_cols, int variant,
    uint32_t limit, uint32_t budget_ms, uint32_t budget_steps)
{
    struct grid g;
    if (!read_input(&g, box_rows, box_cols, variant, false))
        return (uint32_t) web_out_len;
    struct solve_result res;
    solve_one(solver_index, &g, limit, budget_ms, budget_steps, &res);
    out_reset();
    out_printf("{\"ok\":true,\"solver\":");
    out_string(solver_index >= 0 && (size_t) solver_index < solver_count()
            ? solver_registry[solver_index]->name
            : "?");
    out_printf(",\"status\":");
    out_string(solve_status_name(res.status));
    out_printf(",\"solutions\":%llu,\"time_ns\":%llu,\"error\":",
        (unsigned long long) res.solutions, (unsigned long long) res.time_ns);
    out_string(res.error);
    if (res.solutions > 0) {
        out_printf(",\"solution\":");
        out_grid(&res.solution);
    }
    if (res.status != SOLVE_STATUS_INVALID && res.status != SOLVE_STATUS_ERROR) {
        out_printf(",\"counters\":");
        out_counters(solver_registry[solver_index], &res.counters);
    }
    out_printf("}");
    return (uint32_t) web_out_len;
}

/* The puzzle's solutions as far as a check or a hint needs them (up to two,
 * with the default back end, within 2 s; the page runs this in a worker). */
static void solve_reference(const struct grid *puzzle, struct solve_result *ref)
{
    const struct solver *s = solver_default();
    int index = 0;
    while (solver_registry[index] != s)
        index++;
    solve_one(index, puzzle, 2, 2000, 0, ref);
}

/* Checks an answer: the input holds the puzzle line, then the answer line
 * (clues plus the player's entries, '.' where blank). Wrong entries are the
 * ones that differ from the unique solution (when the puzzle has one) or
 * clash with another value; a full grid is judged by common/check.h. */
WEB_EXPORT(web_check) uint32_t web_check(int box_rows, int box_cols, int variant)
{
    const struct grid_shape shape = make_shape(box_rows, box_cols, variant);
    struct grid puzzle, answer;
    char why[200] = "";
    const char *rest = parse_puzzle(web_in, &puzzle, &shape, why, sizeof(why));
    if (!rest) {
        out_error(why);
        return (uint32_t) web_out_len;
    }
    const struct grid_shape same = shape_of(&puzzle);
    if (!parse_puzzle(rest, &answer, &same, why, sizeof(why))) {
        out_error(why);
        return (uint32_t) web_out_len;
    }
    bool conflict[GRID_MAX_CELLS], wrong[GRID_MAX_CELLS];
    const int nconflicts = mark_conflicts(&answer, conflict);
    memset(wrong, 0, sizeof(wrong));
    int nwrong = 0, blanks = 0;
    for (int i = 0; i < answer.ncells; i++)
        blanks += answer.cell[i] == 0;

    struct solve_result ref;
    solve_reference(&puzzle, &ref);
    const bool unique = ref.status == SOLVE_STATUS_UNIQUE;
    /* Only the player's entries can be wrong: a clue in a clash makes the
     * puzzle invalid, which is said as such. */
    for (int i = 0; i < answer.ncells; i++) {
        const bool differs
            = unique && answer.cell[i] && answer.cell[i] != ref.solution.cell[i];
        const bool clue_changed = puzzle.cell[i] && answer.cell[i] != puzzle.cell[i];
        if (clue_changed || (!puzzle.cell[i] && (differs || conflict[i]))) {
            wrong[i] = true;
            nwrong++;
        }
    }
    const char *verdict;
    if (ref.status == SOLVE_STATUS_INVALID || ref.status == SOLVE_STATUS_UNSOLVABLE) {
        verdict = "unsolvable";
        snprintf(why, sizeof(why), "%s",
            ref.status == SOLVE_STATUS_INVALID ? "the clues themselves clash"
                                               : "this puzzle has no solution at all");
    } else if (blanks == 0) {
        verdict
            = check_solution(&puzzle, &answer, why, sizeof(why)) ? "correct" : "wrong";
    } else if (nwrong > 0) {
        verdict = "wrong";
        snprintf(why, sizeof(why), "%d entr%s wrong or clashing", nwrong,
            nwrong == 1 ? "y is" : "ies are");
    } else {
        /* without a unique solution to compare with, only clashes are seen */
        verdict = "incomplete";
        snprintf(why, sizeof(why), "%d blank%s left, %s", blanks, blanks == 1 ? "" : "s",
            unique ? "no mistake so far"
                : ref.status == SOLVE_STATUS_MULTIPLE
                ? "no clash so far (this puzzle has "
                  "more than one solution)"
                : "no clash so far (its solution "
                  "was not found within 2 s)");
    }
    out_reset();
    out_printf("{\"ok\":true,\"verdict\":");
    out_string(verdict);
    out_printf(",\"why\":");
    out_string(why);
    out_printf(",\"blanks\":%d,\"conflicts\":%d,\"puzzle_status\":", blanks, nconflicts);
    out_string(solve_status_name(ref.status));
    out_printf(",\"wrong\":");
    out_cell_list(wrong, answer.ncells);
    out_printf("}");
    return (uint32_t) web_out_len;
}

/* Solves every puzzle line of the input `passes` times, as `sudolab solve`
 * times them (solver_run around the back end's solve): the fastest pass (one
 * clock read per pass, parsing outside), the sum of per-puzzle times in that
 * pass, and each puzzle's fastest time over the passes. */
/* The puzzles of a batch, parsed from the input's lines. */
struct batch {
    struct grid *puzzles;
    size_t npuzzles, cap, bad, dropped;
};

static void batch_parse(struct batch *b, const struct grid_shape *shape)
{
    for (const char *line = web_in; *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t) (end - line) : strlen(line);
        const char *text = line;
        line = end ? end + 1 : line + len;
        if (len == 0 || text[0] == '#' || grid_is_separator((unsigned char) text[0]))
            continue;
        if (b->npuzzles == b->cap) {
            size_t more = b->cap ? 2 * b->cap : 128;
            if (more > WEB_BATCH_MAX)
                more = WEB_BATCH_MAX;
            struct grid *p
                = more > b->cap ? realloc(b->puzzles, more * sizeof(*p)) : NULL;
            if (!p) {
                b->dropped++;
                continue;
            }
            b->puzzles = p;
            b->cap = more;
        }
        char why[200];
        if (parse_puzzle(text, &b->puzzles[b->npuzzles], shape, why, sizeof(why)))
            b->npuzzles++;
        else
            b->bad++;
    }
}

/* What the passes over a batch measured. */
struct batch_times {
    uint64_t deadline_ns; /* the whole call's budget */
    uint32_t passes_done; /* whole passes within it */
    size_t done; /* puzzles of the first pass solved within it */
    uint64_t best, solve_sum, status[SOLVE_STATUS_COUNT];
    struct solver_counters total;
    uint64_t *fastest; /* per puzzle, over the passes */
};

static void batch_run(struct solver_instance *inst, const struct batch *b, uint32_t limit,
    uint32_t passes, struct batch_times *t)
{
    t->best = UINT64_MAX;
    const struct solve_request req = { .limit = limit, .deadline_ns = t->deadline_ns };
    for (uint32_t p = 0; p < passes; p++) {
        uint64_t sum = 0;
        const uint64_t start = clock_now_ns();
        for (size_t i = 0; i < b->npuzzles; i++) {
            /* out of budget: this pass does not count, and no other follows */
            if (clock_now_ns() >= t->deadline_ns)
                return;
            if (p == 0)
                t->done = i + 1;
            struct solve_result res;
            solver_run(inst, &b->puzzles[i], &req, &res);
            sum += res.time_ns;
            if (p == 0 || res.time_ns < t->fastest[i])
                t->fastest[i] = res.time_ns;
            if (p == 0) {
                t->status[res.status]++;
                solver_counters_add(&t->total, &res.counters);
            }
        }
        const uint64_t pass_ns = clock_now_ns() - start;
        t->passes_done = p + 1;
        if (pass_ns < t->best) {
            t->best = pass_ns;
            t->solve_sum = sum;
        }
    }
}

static void batch_report(const struct solver *s, const struct batch *b, uint32_t passes,
    const struct batch_times *t)
{
    out_reset();
    out_printf("{\"ok\":true,\"solver\":");
    out_string(s->name);
    out_printf(",\"puzzles\":%zu,\"bad\":%zu,\"dropped\":%zu,\"max_puzzles\":%d,"
               "\"passes\":%u,\"passes_done\":%u,\"done\":%zu,"
               "\"best_pass_ns\":%llu,\"solve_sum_ns\":%llu,\"status\":{",
        b->npuzzles, b->bad, b->dropped, WEB_BATCH_MAX, passes, t->passes_done, t->done,
        (unsigned long long) (t->passes_done ? t->best : 0),
        (unsigned long long) t->solve_sum);
    bool first = true;
    for (int st = 0; st < SOLVE_STATUS_COUNT; st++) {
        if (t->status[st]) {
            out_printf("%s\"%s\":%llu", first ? "" : ",", solve_status_name(st),
                (unsigned long long) t->status[st]);
            first = false;
        }
    }
    out_printf("},\"counters\":");
    out_counters(s, &t->total);
    /* per-puzzle times only while they surely fit the output buffer */
    if (t->passes_done && b->npuzzles <= WEB_OUT_MAX / 32) {
        out_printf(",\"times\":[");
        for (size_t i = 0; i < b->npuzzles; i++)
            out_printf("%s%llu", i ? "," : "", (unsigned long long) t->fastest[i]);
        out_printf("]");
    }
    out_printf("}");
}

WEB_EXPORT(web_batch)
uint32_t web_batch(int solver_index, int box_rows, int box_cols, int variant,
    uint32_t limit, uint32_t passes, uint32_t budget_ms)
{
    const struct grid_shape shape = make_shape(box_rows, box_cols, variant);
    struct batch b = { 0 };
    batch_parse(&b, &shape);
    struct solver_instance *inst = instance(solver_index);
    struct batch_times t = { 0 };
    t.fastest = b.npuzzles ? malloc(b.npuzzles * sizeof(*t.fastest)) : NULL;
    if (!inst || !t.fastest) {
        free(b.puzzles);
        free(t.fastest);
        out_error(!inst      ? "no such back end"
                : b.npuzzles ? "out of memory"
                             : "no puzzle in the batch");
        return (uint32_t) web_out_len;
    }
    const struct solver *s = solver_of(inst);
    if (limit != 1 && !(s->caps & SOLVER_CAP_COUNT))
        limit = 1;
    if (passes == 0)
        passes = 1;
    t.deadline_ns = budget_ms ? deadline_after_ms(budget_ms) : UINT64_MAX;
    batch_run(inst, &b, limit, passes, &t);
    free(b.puzzles);
    batch_report(s, &b, passes, &t);
    free(t.fastest);
    return (uint32_t) web_out_len;
}

/* --- traces ---------------------------------------------------------------- */

static void trace_reset(struct web_trace *t)
{
    free(t->ev);
    free(t->snap);
    memset(t, 0, sizeof(*t));
}

/* Applies one recorded event to a grid of values and classes; false when the
 * event does not fit the grid (an UNDO of a value that is not there, a write
 * over a clue), which would make the replay lie. */
static bool replay_event(uint8_t *val, uint8_t *cls, int ncells, const int32_t *e)
{
    const int kind = e[0], cell = e[1], value = e[2];
    if (cell < 0 || cell >= ncells)
        return true;
    switch (kind) {
    case SOLVER_EVENT_SINGLETON:
    case SOLVER_EVENT_GUESS: {
        const bool fits = cls[cell] != WEB_CLUE;
        val[cell] = (uint8_t) value;
        cls[cell] = kind == SOLVER_EVENT_GUESS ? WEB_TENTATIVE : WEB_SINGLETON;
        return fits;
    }
    case SOLVER_EVENT_UNDO: {
        const bool fits = val[cell] == value && cls[cell] != WEB_CLUE;
        val[cell] = 0;
        cls[cell] = WEB_BLANK;
        return fits;
    }
    default:
        return true;
    }
}

static bool trace_grow(void **p, size_t *cap, size_t need, size_t unit)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * unit);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

static void trace_event(void *ctx, const struct solver_event *ev)
{
    struct web_trace *t = ctx;
    const size_t ncells = t->puzzle.ncells;
    if (t->truncated)
        return;
    if (t->nev >= WEB_TRACE_MAX_EVENTS
        || !trace_grow(
            (void **) &t->ev, &t->evcap, t->nev + 1, WEB_EV_STRIDE * sizeof(int32_t))
        || (t->nev % WEB_SNAP_EVERY == 0
            && !trace_grow((void **) &t->snap, &t->snapcap, t->nsnap + 1, 2 * ncells))) {
        /* Full: make the back end stop at its next budget check. */
        t->truncated = true;
        t->req.budget_steps = 1;
        return;
    }
    if (t->nev % WEB_SNAP_EVERY == 0) {
        memcpy(t->snap + t->nsnap * 2 * ncells, t->live_val, ncells);
        memcpy(t->snap + t->nsnap * 2 * ncells + ncells, t->live_cls, ncells);
        t->nsnap++;
    }
    int32_t *e = t->ev + t->nev * WEB_EV_STRIDE;
    e[0] = (int32_t) ev->kind;
    e[1] = ev->cell;
    e[2] = ev->value;
    for (int c = 0; c < SOLVER_COUNTER_COUNT; c++) {
        const uint64_t v = solver_counter_get(&ev->at, c);
        e[3 + c] = v > INT32_MAX ? INT32_MAX : (int32_t) v;
    }
    t->nev++;
    if (ev->kind == SOLVER_EVENT_SOLUTION && t->solution_at == 0)
        t->solution_at = t->nev;
    if (!replay_event(t->live_val, t->live_cls, t->puzzle.ncells, e))
        t->inconsistent = true;
}

static struct web_trace *trace_slot(int slot)
{
    return slot >= 0 && slot < WEB_TRACE_SLOTS ? &web_traces[slot] : NULL;
}

/* Runs a back end with SOLVER_CAP_TRACE on the puzzle of the input buffer
 * (first solution) and keeps its events in a slot for web_trace_state. */
WEB_EXPORT(web_trace)
uint32_t web_trace(int slot, int solver_index, int box_rows, int box_cols, int variant,
    uint32_t budget_ms, uint32_t budget_steps)
{
    struct web_trace *t = trace_slot(slot);
    struct solver_instance *inst = instance(solver_index);
    if (!t || !inst) {
        out_error(t ? "no such back end" : "no such trace slot");
        return (uint32_t) web_out_len;
    }
    trace_reset(t);
    const struct grid_shape shape = make_shape(box_rows, box_cols, variant);
    char why[200];
    if (!parse_puzzle(web_in, &t->puzzle, &shape, why, sizeof(why))) {
        out_error(why);
        return (uint32_t) web_out_len;
    }
    const struct solver *s = solver_of(inst);
    if (!(s->caps & SOLVER_CAP_TRACE)) {
        snprintf(why, sizeof(why), "%s does not trace its search", s->name);
        out_error(why);
        return (uint32_t) web_out_len;
    }
    t->solver = s;
    for (int i = 0; i < t->puzzle.ncells; i++) {
        t->live_val[i] = t->puzzle.cell[i];
        t->live_cls[i] = t->puzzle.cell[i] ? WEB_CLUE : WEB_BLANK;
    }
    t->req.limit = 1;
    t->req.budget_steps = budget_steps;
    t->req.deadline_ns = deadline_after_ms(budget_ms);
    t->req.trace = trace_event;
    t->req.ctx = t;
    solver_run(inst, &t->puzzle, &t->req, &t->res);
    out_reset();
    out_printf("{\"ok\":true,\"slot\":%d,\"solver\":", slot);
    out_string(s->name);
    out_printf(",\"status\":");
    out_string(solve_status_name(t->res.status));
    /* Back ends that unwind after a solution erase it again: the viewer
     * jumps to solution_at to show it. */
    out_printf(",\"events\":%zu,\"solution_at\":%zu,\"truncated\":%s,\"inconsistent\":%s,"
               "\"time_ns\":%llu,\"error\":",
        t->nev, t->solution_at, t->truncated ? "true" : "false",
        t->inconsistent ? "true" : "false", (unsigned long long) t->res.time_ns);
    out_string(t->res.error);
    if (t->res.solutions > 0) {
        out_printf(",\"solution\":");
        out_grid(&t->res.solution);
    }
    out_printf(",\"counters\":");
    out_counters(s, &t->res.counters);
    out_printf("}");
    return (uint32_t) web_out_len;
}

static const char *const event_names[] = {
    [SOLVER_EVENT_SINGLETON] = "singleton",
    [SOLVER_EVENT_GUESS] = "guess",
    [SOLVER_EVENT_UNDO] = "undo",
    [SOLVER_EVENT_DEAD] = "dead",
    [SOLVER_EVENT_SOLUTION] = "solution",
};

/* The grid after the first k events of a slot's trace: values, classes
 * (0 blank, 1 clue, 2 tentative, 3 singleton), the last event and the
 * counters after it. */
WEB_EXPORT(web_trace_state) uint32_t web_trace_state(int slot, uint32_t k)
{
    struct web_trace *t = trace_slot(slot);
    if (!t || !t->solver) {
        out_error("no trace in this slot");
        return (uint32_t) web_out_len;
    }
    if (k > t->nev)
        k = (uint32_t) t->nev;
    const size_t ncells = t->puzzle.ncells;
    uint8_t val[GRID_MAX_CELLS], cls[GRID_MAX_CELLS];
    size_t at = 0;
    if (t->nsnap > 0) {
        size_t s = k / WEB_SNAP_EVERY;
        if (s >= t->nsnap)
            s = t->nsnap - 1;
        memcpy(val, t->snap + s * 2 * ncells, ncells);
        memcpy(cls, t->snap + s * 2 * ncells + ncells, ncells);
        at = s * WEB_SNAP_EVERY;
    } else {
        for (size_t i = 0; i < ncells; i++) {
            val[i] = t->puzzle.cell[i];
            cls[i] = t->puzzle.cell[i] ? WEB_CLUE : WEB_BLANK;
        }
    }
    for (; at < k; at++)
        replay_event(val, cls, (int) ncells, t->ev + at * WEB_EV_STRIDE);
    out_reset();
    out_printf("{\"ok\":true,\"k\":%u,\"events\":%zu,\"values\":\"", k, t->nev);
    for (size_t i = 0; i < ncells; i++)
        out_printf("%c", grid_value_symbol(val[i]));
    out_printf("\",\"classes\":\"");
    for (size_t i = 0; i < ncells; i++)
        out_printf("%c", '0' + cls[i]);
    out_printf("\"");
    if (k > 0) {
        const int32_t *e = t->ev + (k - 1) * WEB_EV_STRIDE;
        out_printf(",\"event\":{\"kind\":\"%s\",\"cell\":%d,\"value\":%d}",
            (size_t) e[0] < sizeof(event_names) / sizeof(event_names[0])
                ? event_names[e[0]]
                : "?",
            (int) e[1], (int) e[2]);
        out_printf(",\"counters\":{");
        bool first = true;
        for (int c = 0; c < SOLVER_COUNTER_COUNT; c++) {
            if (t->solver->counters & (1u << c)) {
                out_printf("%s\"%s\":%d", first ? "" : ",", solver_counter_names[c],
                    (int) e[3 + c]);
                first = false;
            }
        }
        out_printf("}");
    }
    out_printf("}");
    return (uint32_t) web_out_len;
}

/* The position just after the first event whose counter `counter` (index in
 * SOLVER_COUNTERS) reaches value, or -1 when none does. */
WEB_EXPORT(web_trace_find) int32_t web_trace_find(int slot, int counter, uint32_t value)
{
    const struct web_trace *t = trace_slot(slot);
    if (!t || !t->solver || counter < 0 || counter >= SOLVER_COUNTER_COUNT)
        return -1;
    size_t lo = 0, hi = t->nev; /* counters never decrease along a trace */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if ((uint32_t) t->ev[mid * WEB_EV_STRIDE + 3 + counter] >= value)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo < t->nev ? (int32_t) (lo + 1) : -1;
}

/* The position just after the first event past position k of the given kind
 * (enum solver_event_kind), or -1 when none follows. */
WEB_EXPORT(web_trace_next) int32_t web_trace_next(int slot, uint32_t k, int kind)
{
    const struct web_trace *t = trace_slot(slot);
    if (!t || !t->solver)
        return -1;
    for (size_t at = k; at < t->nev; at++) {
        if (t->ev[at * WEB_EV_STRIDE] == kind)
            return (int32_t) (at + 1);
    }
    return -1;
}

/* The candidates of every blank cell of the input board: the values that no
 * peer (row, column, box, diagonal) holds. */
WEB_EXPORT(web_candidates)
uint32_t web_candidates(int box_rows, int box_cols, int variant)
{
    struct grid g;
    if (!read_input(&g, box_rows, box_cols, variant, false))
        return (uint32_t) web_out_len;
    if (!units_fit(&web_units, &g))
        units_build(&web_units, &g);
    out_reset();
    out_printf("{\"ok\":true,\"cells\":[");
    for (int i = 0; i < g.ncells; i++) {
        bool taken[GRID_MAX_N + 1] = { false };
        for (int p = 0; !g.cell[i] && p < web_units.npeers[i]; p++)
            taken[g.cell[web_units.peer[i][p]]] = true;
        out_printf("%s\"", i ? "," : "");
        for (int v = 1; !g.cell[i] && v <= g.n; v++) {
            if (!taken[v])
                out_printf("%c", grid_value_symbol(v));
        }
        out_printf("\"");
    }
    out_printf("]}");
    return (uint32_t) web_out_len;
}

/* --- the logic solver: hints and grading ------------------------------------ */

static struct logic web_logic; /* ~170 KB: kept, not on the stack */

static void out_unit(const struct grid *g, int unit)
{
    const int n = g->n;
    if (unit < 0)
        out_printf("\"\"");
    else if (unit < n)
        out_printf("\"row %d\"", unit + 1);
    else if (unit < 2 * n)
        out_printf("\"column %d\"", unit - n + 1);
    else if (unit < 3 * n)
        out_printf("\"box %d\"", unit - 2 * n + 1);
    else
        out_printf("\"%s\"", unit == 3 * n ? "main diagonal" : "anti-diagonal");
}

/* The first of the player's entries (cells of board that are blank in the
 * puzzle) that differs from the puzzle's unique solution, or -1: when the
 * puzzle has no unique solution, there is no answer to measure against. */
static int first_mistake(const struct grid *puzzle, const struct grid *board)
{
    struct solve_result ref;
    solve_reference(puzzle, &ref);
    if (ref.status != SOLVE_STATUS_UNIQUE)
        return -1;
    for (int i = 0; i < board->ncells; i++) {
        if (!puzzle->cell[i] && board->cell[i] && board->cell[i] != ref.solution.cell[i])
            return i;
    }
    return -1;
}

/* The next step of the logic solver (puzzle/logic.h): the hint for the
 * shapes Sudoku Explainer does not rate (other sizes, diagonal). */
static uint32_t out_logic_hint(const struct grid *board)
{
    struct grid g = *board;
    struct logic_step step;
    const bool found = logic_hint(&web_logic, &g, &step);
    out_reset();
    out_printf("{\"ok\":true,\"found\":%s", found ? "true" : "false");
    if (!found) {
        int blanks = 0;
        for (int i = 0; i < g.ncells; i++)
            blanks += g.cell[i] == 0;
        out_printf(",\"why\":");
        out_string(blanks == 0 ? "the grid is full"
                : web_logic.contradiction
                ? "the entries contradict each other: some cell or value has no place"
                : "no technique applies: the next step needs a guess");
        out_printf("}");
        return (uint32_t) web_out_len;
    }
    out_printf(",\"technique\":");
    out_string(logic_technique_name(step.technique));
    out_printf(",\"label\":");
    out_string(logic_technique_label(step.technique));
    out_printf(",\"cell\":%d,\"value\":%d,\"unit\":", step.cell, step.value);
    out_unit(&g, step.unit);
    out_printf(",\"values\":[");
    bool first = true;
    for (int v = 1; v <= g.n; v++) {
        if (step.values & (1u << (v - 1))) {
            out_printf("%s%d", first ? "" : ",", v);
            first = false;
        }
    }
    out_printf("],\"pattern\":[");
    for (int i = 0; i < step.npattern; i++)
        out_printf("%s%d", i ? "," : "", step.pattern[i]);
    out_printf("],\"elim\":[");
    for (int i = 0; i < step.nelim; i++)
        out_printf("%s[%d,%d]", i ? "," : "", step.elim[i].cell, step.elim[i].value);
    out_printf("]}");
    return (uint32_t) web_out_len;
}

/* The next step as Sudoku Explainer takes it (rater/se_rate.h) from a 9x9
 * classic board: "se" holds se_hint's JSON object (technique, rating, cells,
 * placement, eliminations) and "line" the same step as `sudolab hint` prints
 * it, so that the page and the command can be compared word for word. The SE
 * engine has no budget of its own: the page runs it in the edit worker. */
static uint32_t out_se_hint(const struct grid *g)
{
    static char json[4096], line[4096];
    /* the page's one rater, kept for its lifetime: its caches serve the
     * next hint, which is mostly the same grid a step later */
    static struct se_rater *web_se;
    if (!web_se && !(web_se = se_rater_new())) {
        out_error("out of memory");
        return (uint32_t) web_out_len;
    }
    const bool found = se_hint(web_se, g, true, json, sizeof(json));
    out_reset();
    out_printf("{\"ok\":true,\"found\":%s,", found ? "true" : "false");
    if (!found) {
        out_printf("\"why\":");
        out_string(json);
        out_printf("}");
        return (uint32_t) web_out_len;
    }
    se_hint(web_se, g, false, line, sizeof(line));
    out_printf("\"technique\":\"se\",\"se\":%s,\"line\":", json);
    out_string(line);
    out_printf("}");
    return (uint32_t) web_out_len;
}

/* The next logical step from the position in the input: the puzzle line,
 * then the board (clues and entries; without it, the puzzle itself). An entry
 * that contradicts the solution comes first, since every step built on it
 * would mislead; otherwise the technique, where it applies and what it places
 * or removes: Sudoku Explainer's step on 9x9 classic boards, since that is
 * the scale the page's grade and `sudolab hint` use, the logic solver's on
 * the other shapes. */
WEB_EXPORT(web_hint) uint32_t web_hint(int box_rows, int box_cols, int variant)
{
    const struct grid_shape shape = make_shape(box_rows, box_cols, variant);
    struct grid puzzle, g;
    char why[200];
    const char *rest = parse_puzzle(web_in, &puzzle, &shape, why, sizeof(why));
    if (!rest) {
        out_error(why);
        return (uint32_t) web_out_len;
    }
    const struct grid_shape same = shape_of(&puzzle);
    if (!parse_puzzle(rest, &g, &same, why, sizeof(why)))
        g = puzzle;
    if (grid_find_conflict(&g, why, sizeof(why))) {
        out_error(why);
        return (uint32_t) web_out_len;
    }
    const int mistake = first_mistake(&puzzle, &g);
    if (mistake >= 0) {
        out_reset();
        out_printf("{\"ok\":true,\"found\":true,\"technique\":\"mistake\",\"cell\":%d,"
                   "\"value\":%d}",
            mistake, g.cell[mistake]);
        return (uint32_t) web_out_len;
    }
    if (g.n == 9 && g.box_rows == 3 && g.variant == 0)
        return out_se_hint(&g);
    return out_logic_hint(&g);
}

/* --- generation and rating ---------------------------------------------------- */

/* Generates puzzle number 0 of `sudolab generate` with the same options: the
 * input is "METHOD LEVEL SEED [symmetric] [minimal]", the shape comes from the
 * arguments (0, 0 = 9x9). */
WEB_EXPORT(web_generate) uint32_t web_generate(int box_rows, int box_cols, int variant)
{
    char method[32] = "", level[32] = "", seedtext[32] = "", flags[2][32] = { "", "" };
    const int got = sscanf(
        web_in, "%31s %31s %31s %31s %31s", method, level, seedtext, flags[0], flags[1]);
    /* The seed is any 64-bit unsigned decimal, as --seed takes it; a sign or
     * anything past 2^64-1 is refused rather than wrapped. */
    char *end = NULL;
    errno = 0;
    const unsigned long long seed = strtoull(seedtext, &end, 10);
    if (got >= 3 && (seedtext[0] < '0' || seedtext[0] > '9' || *end || errno == ERANGE)) {
        out_error("the seed must be a whole number from 0 to 18446744073709551615");
        return (uint32_t) web_out_len;
    }
    struct gen_options o;
    memset(&o, 0, sizeof(o));
    o.box_rows = box_rows > 0 ? box_rows : 3;
    o.box_cols = box_cols > 0 ? box_cols : 3;
    o.variant = variant ? GRID_DIAGONAL : GRID_STANDARD;
    o.seed = seed;
    if (got < 3 || gen_parse_method(method, &o.method) != 0
        || gen_parse_level(level, &o.level) != 0) {
        out_error("expected: method level seed [symmetric] [minimal]");
        return (uint32_t) web_out_len;
    }
    for (int i = 0; i + 3 < got; i++) {
        if (strcmp(flags[i], "symmetric") == 0)
            o.symmetric = true;
        else if (strcmp(flags[i], "minimal") == 0)
            o.minimal = true;
    }
    char why[200];
    struct generator *gen = gen_open(&o, why, sizeof(why));
    if (!gen) {
        out_error(why);
        return (uint32_t) web_out_len;
    }
    struct grid puzzle, solution;
    const uint64_t start = clock_now_ns();
    const int failed = gen_make(gen, 0, &puzzle, &solution);
    const uint64_t took = clock_now_ns() - start;
    if (failed) {
        out_error(gen_error(gen));
        gen_close(gen);
        return (uint32_t) web_out_len;
    }
    const struct gen_options *used = gen_options(gen);
    int lo, hi;
    gen_target(used, &lo, &hi);
    out_reset();
    out_printf("{\"ok\":true,\"method\":");
    out_string(gen_method_name(used->method));
    out_printf(",\"level\":");
    out_string(gen_level_name(used->level));
    out_printf(",\"seed\":\"%llu\",\"symmetric\":%s,\"minimal\":%s,\"target\":\"%s %d",
        (unsigned long long) used->seed, used->symmetric ? "true" : "false",
        used->minimal ? "true" : "false", used->method == GEN_DIG ? "holes" : "clues",
        lo);
    if (hi != lo)
        out_printf("-%d", hi);
    out_printf("\",\"clues\":%d,\"time_ns\":%llu,\"solver\":", grid_count_clues(&puzzle),
        (unsigned long long) took);
    out_string(used->solver->name);
    out_printf(",\"verifier\":");
    out_string(used->verifier->name);
    out_printf(",\"puzzle\":");
    out_grid(&puzzle);
    out_printf(",\"solution\":");
    out_grid(&solution);
    out_printf("}");
    gen_close(gen);
    return (uint32_t) web_out_len;
}

/* A pencil-mark puzzle's grade: Sudoku Explainer's ER/EP/ED in the words of
 * `sudolab rate --method se` ("se=2.3/2.3/2.3 se_technique=Naked_Single");
 * the other raters would grade the empty grid. */
static uint32_t rate_candidates(const struct grid *g)
{
    struct se_rater *rt = se_rater_new();
    if (!rt) {
        out_error("out of memory");
        return (uint32_t) web_out_len;
    }
    struct rate_values v;
    memset(&v, 0, sizeof(v));
    se_rate(rt, g, &v.se);
    se_rater_free(rt);
    char text[256];
    rate_format(text, sizeof(text), &v, RATE_SE, false);
    out_reset();
    out_printf("{\"ok\":true,\"pencil\":true,\"se\":");
    out_string(text[0] == ' ' ? text + 1 : text);
    out_printf("}");
    return (uint32_t) web_out_len;
}

/* All of `sudolab rate`'s raters on the input puzzle: seed 004's blank count
 * and degree of freedom, search effort over random permutations, and the
 * hardest technique the logic solver needs. */
WEB_EXPORT(web_rate)
uint32_t web_rate(int box_rows, int box_cols, int variant, uint32_t permutations)
{
    struct grid g;
    if (!read_input(&g, box_rows, box_cols, variant, true))
        return (uint32_t) web_out_len;
    if (g.has_candidates)
        return rate_candidates(&g);
    struct rater r;
    char why[200];
    if (rater_open(&r, RATE_ALL, NULL, (int) permutations, 1, why, sizeof(why)) != 0) {
        out_error(why);
        return (uint32_t) web_out_len;
    }
    struct rate_values v;
    rater_rate(&r, &g, &v);
    out_reset();
    out_printf("{\"ok\":true,\"blanks\":%d,\"blanks_level\":%d,\"freedom\":%d,"
               "\"freedom_level\":%d,\"guesses\":%.4f,\"guesses_raw\":%.2f,"
               "\"permutations\":%d,\"guess_solver\":",
        v.blanks, v.blanks_level, v.freedom, v.freedom_level, v.guesses, v.guesses_raw,
        r.permutations);
    out_string(r.solver ? r.solver->name : "");
    out_printf(",\"guesses_status\":");
    out_string(solve_status_name(v.guesses_status));
    out_printf(",\"logic\":{\"status\":\"%s\",\"hardest\":",
        v.logic.status == LOGIC_SOLVED      ? "solved"
            : v.logic.status == LOGIC_STUCK ? "stuck"
                                            : "contradiction");
    out_string(logic_technique_name(v.logic.hardest));
    out_printf(",\"label\":");
    out_string(logic_technique_label(v.logic.hardest));
    out_printf(",\"placed\":%d,\"empty\":%d,\"used\":{", v.logic.placed, v.logic.empty);
    for (int t = 0; t < LOGIC_TECHNIQUE_COUNT; t++)
        out_printf("%s\"%s\":%u", t ? "," : "", logic_technique_name(t), v.logic.used[t]);
    out_printf("}}}");
    rater_close(&r);
    return (uint32_t) web_out_len;
}
