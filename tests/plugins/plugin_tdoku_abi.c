/* Shared-library functions with tdoku's C ABI for the tests (see
 * solvers/sudolab_plugin.h): sudolab's own mrv behind
 *   size_t f(const char *puzzle, size_t limit, uint32_t configuration,
 *            char *solution, size_t *guesses)
 * returning a solution only when limit is 1, as tdoku does. The variants are
 * what sudolab must survive or catch:
 *   TdokuSolverDpllTriadSimd  correct (the name sudolab looks for by default)
 *   tdoku_abi_crash           abort()s on the puzzle in $SUDOLAB_TEST_CRASH_ON
 *   tdoku_abi_wrong           returns a solution with two cells swapped
 *   tdoku_abi_slow_first      sleeps 300 ms when asked with limit 1 (that call
 *                             must not be part of a limit-2 time) */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solvers/registry.h"
#include "solvers/sudolab_plugin.h"

sudolab_tdoku_fn TdokuSolverDpllTriadSimd, tdoku_abi_crash, tdoku_abi_wrong,
    tdoku_abi_slow_first;

static size_t solve_with_mrv(
    const char *puzzle, size_t limit, char *solution, size_t *guesses)
{
    struct grid g;
    grid_init(&g, 3, 3, GRID_STANDARD);
    for (int i = 0; i < 81; i++)
        g.cell[i] = puzzle[i] == '.' ? 0 : (uint8_t) (puzzle[i] - '0');
    struct solver_instance *inst = solver_open(solver_find("mrv"));
    if (!inst)
        abort();
    const struct solve_request req
        = { limit == SIZE_MAX ? 0 : limit, 0, 0, NULL, NULL, NULL };
    struct solve_result res;
    solver_run(inst, &g, &req, &res);
    solver_close(inst);
    *guesses = (size_t) res.counters.guesses;
    if (limit == 1 && res.solutions > 0) {
        for (int i = 0; i < 81; i++)
            solution[i] = (char) ('0' + res.solution.cell[i]);
    }
    return (size_t) res.solutions;
}

size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit, uint32_t configuration,
    char *solution, size_t *guesses)
{
    (void) configuration;
    return solve_with_mrv(puzzle, limit, solution, guesses);
}

size_t tdoku_abi_crash(const char *puzzle, size_t limit, uint32_t configuration,
    char *solution, size_t *guesses)
{
    const char *victim = getenv("SUDOLAB_TEST_CRASH_ON");
    if (victim && strncmp(victim, puzzle, 81) == 0)
        abort();
    return TdokuSolverDpllTriadSimd(puzzle, limit, configuration, solution, guesses);
}

size_t tdoku_abi_wrong(const char *puzzle, size_t limit, uint32_t configuration,
    char *solution, size_t *guesses)
{
    const size_t found
        = TdokuSolverDpllTriadSimd(puzzle, limit, configuration, solution, guesses);
    if (limit == 1 && found > 0) {
        const char first = solution[0];
        solution[0] = solution[1];
        solution[1] = first;
    }
    return found;
}

size_t tdoku_abi_slow_first(const char *puzzle, size_t limit, uint32_t configuration,
    char *solution, size_t *guesses)
{
    if (limit == 1)
        nanosleep(&(struct timespec) { 0, 300000000 }, NULL);
    return TdokuSolverDpllTriadSimd(puzzle, limit, configuration, solution, guesses);
}
