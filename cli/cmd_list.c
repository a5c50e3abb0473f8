/* sudolab list: the registered back ends and what they handle. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "solvers/outside.h"
#include "solvers/registry.h"

static void print_caps(const struct solver *s, char *out, size_t len)
{
    snprintf(out, len, "%s%s%s%s%s", s->caps & SOLVER_CAP_COUNT ? "count," : "",
             s->caps & SOLVER_CAP_DIAGONAL ? "diagonal," : "",
             s->caps & SOLVER_CAP_TRACE ? "trace," : "",
             s->caps & SOLVER_CAP_STEP_BUDGET ? "step-budget," : "",
             s->caps & SOLVER_CAP_FAST ? "fast," : "");
    const size_t n = strlen(out);
    if (n)
        out[n - 1] = '\0';
}

static void print_solver(const struct solver *s, bool csv)
{
    char caps[80], sizes[16], counters[96] = "";
    print_caps(s, caps, sizeof(caps));
    snprintf(sizes, sizeof(sizes), "%d-%d", s->min_n, s->max_n);
    for (int k = 0; k < SOLVER_COUNTER_COUNT; k++) {
        if (s->counters & (1u << k)) {
            strncat(counters, counters[0] ? " " : "",
                sizeof(counters) - strlen(counters) - 1);
            strncat(counters, solver_counter_names[k],
                sizeof(counters) - strlen(counters) - 1);
        }
    }
    if (csv)
        printf("%s,%s,%d,%d,%s,%s,\"%s\"\n", s->name, s->family, s->min_n, s->max_n, caps,
            counters, s->summary);
    else
        printf(
            "%-14s %-10s %-6s %-38s %s\n", s->name, s->family, sizes, caps, s->summary);
}

/* sudolab list [--csv] [--solver NAME]...: the registry, then each outside
 * back end named (so:PATH, cmd:COMMAND), which exists only when named. */
int cmd_list(int argc, char **argv)
{
    bool csv = false;
    const struct solver *named[64];
    int nnamed = 0, rc = CLI_OK;
    for (int i = 1; i < argc; i++) {
        const char *name = strncmp(argv[i], "--solver=", 9) == 0 ? argv[i] + 9
            : strcmp(argv[i], "--solver") == 0 && i + 1 < argc   ? argv[++i]
                                                                 : NULL;
        if (strcmp(argv[i], "--csv") == 0) {
            csv = true;
        } else if (name && nnamed < 64) { /* other arguments: ignored, as ever */
            if (!(named[nnamed] = solver_find(name))) {
                fprintf(
                    stderr, "sudolab: no solver named '%s' (see `sudolab list`)\n", name);
                return CLI_USAGE;
            }
            const char *problem = outside_problem(named[nnamed++]);
            if (problem && problem[0])
                rc = CLI_SKIPPED;
        }
    }
    if (csv)
        puts("name,family,min_n,max_n,caps,counters,summary");
    else
        printf("%-14s %-10s %-6s %-38s %s\n", "name", "family", "sizes", "capabilities",
            "summary");
    for (size_t i = 0; solver_registry[i]; i++)
        print_solver(solver_registry[i], csv);
    for (int i = 0; i < nnamed; i++) {
        if (outside_problem(named[i]))
            print_solver(named[i], csv);
    }
    return rc;
}
