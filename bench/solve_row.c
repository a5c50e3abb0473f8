#include "bench/solve_row.h"

#include <string.h>

#include "bench/bench_csv.h"
#include "common/text.h"

void solve_row_header(FILE *out)
{
    fputs("index,status,solutions", out);
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++)
        fprintf(out, ",%s", solver_counter_names[i]);
    fputs(",time_ns,name,solution\n", out);
}

static void print_csv(FILE *out, const struct solver *s, unsigned long index,
    const char *name, const struct solve_result *res, const char *sol)
{
    fprintf(out, "%lu,%s,%llu", index, solve_status_name(res->status),
        (unsigned long long) res->solutions);
    for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
        fputc(',', out);
        if (res->status != SOLVE_STATUS_INVALID && !res->no_answer)
            solve_row_counter(out, s, &res->counters, i, true);
    }
    fprintf(out, ",%llu,", (unsigned long long) res->time_ns);
    bench_csv_put_text(out, name);
    fprintf(out, ",%s\n", sol);
}

void solve_row_print(FILE *out, const struct solve_row_style *style, unsigned long index,
    const char *name, const struct grid *puzzle, const struct solve_result *res)
{
    if (!name)
        name = "";
    const struct solver *s = style->solver;
    char sol[GRID_MAX_CELLS + 1] = "";
    /* an error row's grid, if any, is what the checker refused: no solution */
    if (res->solutions > 0 && res->status != SOLVE_STATUS_ERROR)
        grid_format_line(&res->solution, sol);
    if (style->csv) {
        print_csv(out, s, index, name, res, sol);
        return;
    }
    if (style->counting)
        fprintf(out, "%lu %llu %s", index, (unsigned long long) res->solutions,
            solve_status_name(res->status));
    else
        fprintf(out, "%lu %s solutions=%llu", index, solve_status_name(res->status),
            (unsigned long long) res->solutions);
    if (res->status != SOLVE_STATUS_INVALID && res->status != SOLVE_STATUS_ERROR) {
        for (int i = 0; i < SOLVER_COUNTER_COUNT && !res->no_answer; i++) {
            if (!(s->counters & (1u << i)) && i == SOLVER_COUNTER_article_steps)
                continue;
            fprintf(out, " %s=", solver_counter_names[i]);
            solve_row_counter(out, s, &res->counters, i, false);
        }
        char time[32];
        text_format_ns(time, sizeof(time), res->time_ns);
        fprintf(out, " time=%s", time);
    }
    if (!style->counting && sol[0])
        fprintf(out, " %s", sol);
    if (name[0])
        fprintf(out, " name=%s", name);
    fputc('\n', out);
    if (style->pretty && !style->counting)
        grid_print_pretty(res->solutions > 0 ? &res->solution : puzzle, out);
}

void solve_row_counter(
    FILE *out, const struct solver *s, const struct solver_counters *c, int i, bool csv)
{
    if (s->counters & (1u << i))
        fprintf(out, "%llu", (unsigned long long) solver_counter_get(c, i));
    else if (!csv)
        fputs("n/a", out);
}
