/* libFuzzer target: every registered back end on fuzzed puzzles.
 *
 * The first byte picks the variant; the rest is read as a corpus and its
 * first puzzle is handed to every back end that supports it, with a small
 * step budget and a deadline. A finding is: a back end that errs on a puzzle
 * it claims to support, returns a solution the independent checker rejects
 * (solver_run turns that into an error), or disagrees with another back end
 * on the number of solutions (up to 2) when both finished. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/corpus.h"
#include "solvers/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_SOLVERS = 64 };

static struct solver_instance *instances[MAX_SOLVERS];
static size_t ninstances;

static void open_all(void)
{
    for (size_t i = 0; solver_registry[i] && i < MAX_SOLVERS; i++) {
        instances[ninstances] = solver_open(solver_registry[i]);
        if (!instances[ninstances])
            abort();
        ninstances++;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 17 || size > 4096)
        return 0;
    if (!ninstances)
        open_all();
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
    int agreed = -1;
    const char *agreed_by = NULL;
    for (size_t i = 0; i < ninstances; i++) {
        const struct solver *s = solver_of(instances[i]);
        if (!solver_supports(s, &item.puzzle, NULL, 0))
            continue;
        const uint64_t limit = (s->caps & SOLVER_CAP_COUNT) ? 2 : 1;
        const struct solve_request req = { .limit = limit,
                                           .budget_steps = 2000,
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
            fprintf(stderr, "%s finds %d solution(s), %s %d\n  puzzle %s\n", s->name, count,
                    agreed_by, agreed, line);
            abort();
        }
        agreed = count;
        agreed_by = s->name;
    }
    return 0;
}
