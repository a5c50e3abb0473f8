/* libFuzzer target: every registered back end on fuzzed puzzles.
 *
 * The first byte picks the variant (bit 0) and the back ends: with bit 1
 * set, every registered back end; otherwise the reference back end (mrv) and
 * one other picked by a hash of the whole input, so each mutation tries
 * another. The rest is read as a corpus and its first puzzle is handed to
 * the chosen back ends that support it, with a small step budget and a
 * deadline. A finding is: a back end that errs on a puzzle it claims to
 * support, returns a solution the independent checker rejects (solver_run
 * turns that into an error), or disagrees with another back end on the
 * number of solutions (up to 2) when both finished.
 *
 * Every back end costs about fourteen solves per input, milp's alone as much
 * as all the others; a pair costs two, so the fuzzer runs several times more
 * inputs. The seed corpus holds each puzzle in both forms, one of each size
 * from 4x4 to 25x25. The 25x25 seed is a puzzle of datasets/generated with
 * half its blanks filled from its solution: on a full-size 25x25 puzzle
 * nearly every back end ran out of its budget, so counts were compared
 * there almost never.
 *
 * Cost per input, which decides how many inputs a campaign gets through:
 * - Instances are kept per grid shape (and variant), as a bench run over one
 *   corpus keeps them. With one instance per back end, inputs alternating
 *   between 9x9 and 25x25 made sat, sat_assume and milp rebuild their model
 *   on almost every call (a 25x25 CNF is ~750,000 clauses, ~60 ms here).
 * - The step budget is 2,000 on grids up to 81 cells and shrinks in
 *   proportion beyond (259 on 25x25), since a step of most back ends costs
 *   time in proportion to the cells: every size gets about the same work.
 * Together they ran 2.4x as many inputs per second (UBSan build, same
 * corpus).
 * - milp joins "every back end" on grids up to 9x9 only. GLPK needs about the
 *   whole 50 ms deadline on 12x12 and larger, so there it almost never
 *   finishes (no count to compare) and took ~45% of the time; it still meets
 *   those grids as the reference's partner. 1.96x the inputs per second. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/corpus.h"
#include "solvers/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_SOLVERS = 64, MAX_SHAPES = 16 };

/* One instance of every back end per shape; when more shapes than
 * MAX_SHAPES turn up, the sets are recycled in turn. */
static struct shape_set {
    int key; /* box_rows, box_cols and variant */
    struct solver_instance *instance[MAX_SOLVERS];
} sets[MAX_SHAPES];
static size_t nsets, next_recycled;
static size_t ninstances;
static size_t reference; /* index of mrv (or of the first back end) */

static void open_all(struct shape_set *set)
{
    ninstances = 0;
    for (size_t i = 0; solver_registry[i] && i < MAX_SOLVERS; i++) {
        set->instance[i] = solver_open(solver_registry[i]);
        if (!set->instance[i])
            abort();
        if (!strcmp(solver_registry[i]->name, "mrv"))
            reference = i;
        ninstances++;
    }
}

static struct solver_instance **instances_for(const struct grid *g)
{
    const int key = (g->box_rows << 8 | g->box_cols) << 1 | g->variant;
    for (size_t s = 0; s < nsets; s++) {
        if (sets[s].key == key)
            return sets[s].instance;
    }
    struct shape_set *set;
    if (nsets < MAX_SHAPES) {
        set = &sets[nsets++];
    } else {
        set = &sets[next_recycled++ % MAX_SHAPES];
        for (size_t i = 0; i < ninstances; i++)
            solver_close(set->instance[i]);
    }
    set->key = key;
    open_all(set);
    return set->instance;
}

/* Whether back end s runs on g in "every back end" mode (see the top). */
static bool joins_every(const struct solver *s, const struct grid *g)
{
    return g->ncells <= 81 || strcmp(s->name, "milp") != 0;
}

/* About the same work per input on every grid size (see the top). */
static uint64_t step_budget(const struct grid *g)
{
    return 2000u * 81u / (g->ncells > 81 ? g->ncells : 81u);
}

/* The back end paired with the reference: FNV-1a of the input, mod n. */
static size_t partner(const uint8_t *data, size_t size)
{
    uint64_t h = 14695981039346656037u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 1099511628211u;
    return (size_t) (h % ninstances);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 17 || size > 4096)
        return 0;
    struct corpus_options opts = { 0 };
    opts.shape.variant = data[0] & 1;
    FILE *f = fmemopen((void *) (data + 1), size - 1, "rb");
    if (!f)
        return 0;
    struct corpus *c = corpus_open_stream(f, "fuzz", 1, &opts);
    static struct corpus_item item;
    const enum corpus_status st = c ? corpus_next(c, &item) : CORPUS_FAIL;
    if (c)
        corpus_close(c);
    else
        fclose(f);
    if (st != CORPUS_PUZZLE)
        return 0;
    struct solver_instance **instances = instances_for(&item.puzzle);
    const bool every = data[0] & 2;
    const size_t other = partner(data, size);
    int agreed = -1;
    const char *agreed_by = NULL;
    for (size_t i = 0; i < ninstances; i++) {
        const struct solver *s = solver_of(instances[i]);
        if (!((every && joins_every(s, &item.puzzle)) || i == reference || i == other)
            || !solver_supports(s, &item.puzzle, NULL, 0))
            continue;
        const uint64_t limit = (s->caps & SOLVER_CAP_COUNT) ? 2 : 1;
        const struct solve_request req = { .limit = limit,
            .budget_steps = step_budget(&item.puzzle),
            .deadline_ns = clock_now_ns() + 50000000u };
        struct solve_result res;
        solver_run(instances[i], &item.puzzle, &req, &res);
        if (res.status == SOLVE_STATUS_ERROR) {
            char line[GRID_MAX_CELLS + 1];
            grid_format_line(&item.puzzle, line);
            fprintf(stderr, "%s: %s\n  puzzle %s\n", s->name, res.error, line);
            abort();
        }
        if (res.status == SOLVE_STATUS_LIMIT || res.status == SOLVE_STATUS_INVALID
            || limit != 2)
            continue;
        const int count = (int) res.solutions;
        if (agreed >= 0 && count != agreed) {
            char line[GRID_MAX_CELLS + 1];
            grid_format_line(&item.puzzle, line);
            fprintf(stderr, "%s finds %d solution(s), %s %d\n  puzzle %s\n", s->name,
                count, agreed_by, agreed, line);
            abort();
        }
        agreed = count;
        agreed_by = s->name;
    }
    return 0;
}
