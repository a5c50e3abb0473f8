/* sudolab list: the registered back ends and what they handle. One this
 * machine cannot run (solver_available) keeps its line, its summary prefixed
 * with "unavailable (why): ". */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
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

int cmd_list(int argc, char **argv)
{
    const bool csv = argc > 1 && strcmp(argv[1], "--csv") == 0;
    if (csv)
        puts("name,family,min_n,max_n,caps,counters,summary");
    else
        printf("%-14s %-10s %-6s %-38s %s\n", "name", "family", "sizes", "capabilities",
               "summary");
    for (size_t i = 0; solver_registry[i]; i++) {
        const struct solver *s = solver_registry[i];
        char caps[80], sizes[16], counters[96] = "", why[120], summary[320];
        print_caps(s, caps, sizeof(caps));
        snprintf(sizes, sizeof(sizes), "%d-%d", s->min_n, s->max_n);
        for (int k = 0; k < SOLVER_COUNTER_COUNT; k++) {
            if (s->counters & (1u << k)) {
                strncat(counters, counters[0] ? " " : "", sizeof(counters) - strlen(counters) - 1);
                strncat(counters, solver_counter_names[k],
                        sizeof(counters) - strlen(counters) - 1);
            }
        }
        if (solver_available(s, why, sizeof(why)))
            snprintf(summary, sizeof(summary), "%s", s->summary);
        else
            snprintf(summary, sizeof(summary), "unavailable (%s): %s", why, s->summary);
        if (csv)
            printf("%s,%s,%d,%d,%s,%s,\"%s\"\n", s->name, s->family, s->min_n, s->max_n,
                   caps, counters, summary);
        else
            printf("%-14s %-10s %-6s %-38s %s\n", s->name, s->family, sizes, caps, summary);
    }
    return CLI_OK;
}
