/* sudolab trace: a back end's search, event by event, or the grid as it
 * stands at chosen steps (Moler's Figures 11 and 12; scripts/moler-figures.sh
 * draws them from the --csv form).
 *
 * "The grid at step N" is the grid after every event up to step N, except
 * that the values erased when a saved grid is restored count as part of the
 * next value written: restoring is how the next tentative value begins, and
 * a dead end must still show the full grid it died on (Figure 12). */
#include <stdlib.h>
#include <string.h>

#include "bench/solve_row.h"
#include "cli/cli.h"
#include "cli/cmd_trace.h"
#include "cli/commands.h"
#include "common/text.h"
#include "solvers/registry.h"

enum trace_role {
    ROLE_EMPTY,
    ROLE_CLUE,
    ROLE_GUESS,
    ROLE_SINGLETON,
};

static const char *const role_names[] = { "empty", "clue", "guess", "singleton" };

static const char *const kind_names[] = {
    [SOLVER_EVENT_SINGLETON] = "singleton",
    [SOLVER_EVENT_GUESS] = "guess",
    [SOLVER_EVENT_UNDO] = "undo",
    [SOLVER_EVENT_DEAD] = "dead",
    [SOLVER_EVENT_SOLUTION] = "solution",
};

struct trace_run {
    const struct trace_cli *cli;
    struct solver_instance *inst;
    bool article; /* the back end reports article_steps: the step column uses it */
    unsigned long failures;

    /* per puzzle */
    const struct input_entry *entry;
    int next_at;
    struct grid g; /* the grid as shown: pending erasures not applied yet */
    uint8_t role[GRID_MAX_CELLS];
    int npending;
    uint16_t pending[GRID_MAX_CELLS]; /* cells erased since the last other event */
    int stuck; /* cell of a dead end still on show, or -1 */
    bool seen; /* an event has been shown */
    struct solver_event last; /* the last event shown */
};

static uint64_t step_of(const struct trace_run *run, const struct solver_counters *c)
{
    return run->article ? c->article_steps : c->steps;
}

static int filled_cells(const struct trace_run *run)
{
    int filled = 0;
    for (int i = 0; i < run->g.ncells; i++)
        filled += run->g.cell[i] != 0;
    return filled;
}

static void describe_cell(const struct grid *g, int cell, int *row, int *col)
{
    *row = cell >= 0 ? grid_row_of(g, cell) + 1 : 0;
    *col = cell >= 0 ? grid_col_of(g, cell) + 1 : 0;
}

static void print_grid_csv(const struct trace_run *run, uint64_t at)
{
    const struct grid *g = &run->g;
    const uint64_t step = run->seen ? step_of(run, &run->last.at) : 0;
    const uint64_t written = run->seen ? run->last.at.steps : 0;
    for (int i = 0; i < g->ncells; i++) {
        const char *role = i == run->stuck ? "stuck" : role_names[run->role[i]];
        printf("%lu,%llu,%llu,%llu,%d,%d,%d,%s\n", run->entry->index,
            (unsigned long long) at, (unsigned long long) step,
            (unsigned long long) written, grid_row_of(g, i) + 1, grid_col_of(g, i) + 1,
            g->cell[i], role);
    }
}

static void print_grid_text(const struct trace_run *run, uint64_t at, bool ended)
{
    const struct grid *g = &run->g;
    printf("# puzzle %lu at step %llu: %d of %d cells filled", run->entry->index,
        (unsigned long long) at, filled_cells(run), g->ncells);
    if (run->seen) {
        int r, c;
        describe_cell(g, run->last.cell, &r, &c);
        printf(" (last event: %s", kind_names[run->last.kind]);
        if (run->last.value)
            printf(" %c", grid_value_symbol(run->last.value));
        if (run->last.cell >= 0)
            printf(" at (%d,%d)", r, c);
        printf(", step %llu, written %llu)",
            (unsigned long long) step_of(run, &run->last.at),
            (unsigned long long) run->last.at.steps);
    }
    if (ended)
        printf(" - the search ended before this step");
    putchar('\n');
    for (int r = 0; r < g->n; r++) {
        if (r > 0 && r % g->box_rows == 0) {
            for (int c = 0; c < g->n; c++)
                fputs(c > 0 && c % g->box_cols == 0 ? "+---" : "---", stdout);
            putchar('\n');
        }
        for (int c = 0; c < g->n; c++) {
            const int i = r * g->n + c;
            const char v = grid_value_symbol(g->cell[i]);
            if (c > 0 && c % g->box_cols == 0)
                putchar('|');
            if (i == run->stuck)
                fputs(" ! ", stdout);
            else if (run->role[i] == ROLE_GUESS)
                printf("[%c]", v);
            else if (run->role[i] == ROLE_SINGLETON)
                printf("(%c)", v);
            else
                printf(" %c ", v);
        }
        putchar('\n');
    }
    puts("# legend: 5 clue, [5] tentative value, (5) singleton, . empty, ! no candidate "
         "(dead end)");
}

static void print_grid(const struct trace_run *run, uint64_t at, bool ended)
{
    if (run->cli->common.csv)
        print_grid_csv(run, at);
    else
        print_grid_text(run, at, ended);
}

static void print_event(const struct trace_run *run, const struct solver_event *ev)
{
    int r, c;
    describe_cell(&run->g, ev->cell, &r, &c);
    if (run->cli->common.csv)
        printf("%lu,%llu,%llu,%d,%d,%d,%s\n", run->entry->index,
            (unsigned long long) step_of(run, &ev->at), (unsigned long long) ev->at.steps,
            r, c, ev->value, kind_names[ev->kind]);
    else
        printf("%llu %d %d %d %s %llu\n", (unsigned long long) step_of(run, &ev->at), r,
            c, ev->value, kind_names[ev->kind], (unsigned long long) ev->at.steps);
}

static void on_event(void *ctx, const struct solver_event *ev)
{
    struct trace_run *run = ctx;
    if (ev->kind == SOLVER_EVENT_UNDO) {
        if (ev->cell >= 0 && run->npending < GRID_MAX_CELLS)
            run->pending[run->npending++] = (uint16_t) ev->cell;
        if (run->cli->undo && run->cli->nat == 0)
            print_event(run, ev);
        return;
    }
    const uint64_t step = step_of(run, &ev->at);
    while (run->next_at < run->cli->nat && run->cli->at[run->next_at] < step)
        print_grid(run, run->cli->at[run->next_at++], false);
    for (int k = 0; k < run->npending; k++) {
        run->g.cell[run->pending[k]] = 0;
        run->role[run->pending[k]] = ROLE_EMPTY;
    }
    run->npending = 0;
    run->stuck = -1;
    switch (ev->kind) {
    case SOLVER_EVENT_SINGLETON:
    case SOLVER_EVENT_GUESS:
        if (ev->cell >= 0 && ev->cell < run->g.ncells) {
            run->g.cell[ev->cell] = (uint8_t) ev->value;
            run->role[ev->cell]
                = ev->kind == SOLVER_EVENT_GUESS ? ROLE_GUESS : ROLE_SINGLETON;
        }
        break;
    case SOLVER_EVENT_DEAD:
        run->stuck = ev->cell;
        break;
    default:
        break;
    }
    run->last = *ev;
    run->seen = true;
    if (run->cli->nat == 0)
        print_event(run, ev);
}

static bool trace_entry(void *ctx, const struct input_entry *e)
{
    struct trace_run *run = ctx;
    if (!e->ok) {
        run->failures++;
        return true;
    }
    const struct grid *puzzle = &e->item->puzzle;
    run->entry = e;
    run->next_at = 0;
    run->g = *puzzle;
    for (int i = 0; i < puzzle->ncells; i++)
        run->role[i] = puzzle->cell[i] ? ROLE_CLUE : ROLE_EMPTY;
    run->npending = 0;
    run->stuck = -1;
    run->seen = false;
    if (!run->cli->common.csv) {
        char line[GRID_MAX_CELLS + 1];
        grid_format_line(puzzle, line);
        printf("# puzzle %lu (%s:%lu) %s, solver %s", e->index, e->source, e->line, line,
            solver_of(run->inst)->name);
        if (e->item->name[0])
            printf(", name %s", e->item->name); /* as solve names Lewis's instances */
        putchar('\n');
        if (run->cli->nat == 0)
            printf("# step row col value kind written (step: %s)\n",
                run->article ? "the article's step number" : "the back end's steps");
    }
    struct solve_request req = cli_request(&run->cli->common);
    req.trace = on_event;
    req.ctx = run;
    struct solve_result res;
    solver_run(run->inst, puzzle, &req, &res);
    while (run->next_at < run->cli->nat)
        print_grid(run, run->cli->at[run->next_at++], true);
    if (res.status == SOLVE_STATUS_INVALID || res.status == SOLVE_STATUS_ERROR) {
        fprintf(stderr, "%s:%lu: %s\n", e->source, e->line, res.error);
        run->failures++;
    }
    if (!run->cli->common.csv) {
        const struct solver *s = solver_of(run->inst);
        printf("# %s solutions=%llu", solve_status_name(res.status),
            (unsigned long long) res.solutions);
        for (int i = 0; i < SOLVER_COUNTER_COUNT; i++) {
            if (s->counters & (1u << i)) {
                printf(" %s=", solver_counter_names[i]);
                solve_row_counter(stdout, s, &res.counters, i, false);
            }
        }
        putchar('\n');
    }
    return true;
}

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return x < y ? -1 : x > y;
}

/* --at N,M,...: each number may use '_' as a digit separator; several --at
 * add up. */
static int parse_at(const struct cli_value *v)
{
    struct trace_cli *cli = v->field;
    char buf[1024];
    if (strlen(v->arg) >= sizeof(buf)) {
        fprintf(stderr, "%s: --at list too long\n", v->who);
        return CLI_VALUE_SAID;
    }
    strcpy(buf, v->arg);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (cli->nat == TRACE_MAX_AT) {
            fprintf(stderr, "%s: at most %d steps in --at\n", v->who, TRACE_MAX_AT);
            return CLI_VALUE_SAID;
        }
        if (text_parse_u64(tok, &cli->at[cli->nat]) != 0)
            return CLI_VALUE_BAD;
        cli->nat++;
    }
    if (cli->nat == 0)
        return CLI_VALUE_BAD;
    qsort(cli->at, (size_t) cli->nat, sizeof(cli->at[0]), compare_u64);
    return CLI_VALUE_OK;
}

static const struct cli_option trace_options[] = {
    CLI_LINE("usage: sudolab trace [options] [FILE|PUZZLE|-]...\n"
             "Prints the search of a back end that traces (default: moler, first "
             "solution),\n"
             "one line per event:\n"
             "  step row col value kind written\n"
             "  step     Moler's 2009 article step number for back ends that count it "
             "(moler,\n"
             "           moler_exm), else the back end's steps counter\n"
             "  row col  1-based cell; 0 0 when the event has none\n"
             "  value    the value written or erased; 0 when none\n"
             "  kind     singleton, guess (a tentative value), dead (row col: the cell "
             "left\n"
             "           with no candidate), solution, and undo with --undo\n"
             "  written  values written so far (the steps counter)\n"
             "Lines starting with '#' name the puzzle and give the result.\n"
             "Options:"),
    { .kind = CLI_CUSTOM,
        .name = "at",
        .metavar = "N,M,...",
        .help = "print the grid at these steps instead of the events: clues\n"
                "plain, [v] tentative values, (v) singletons, ! the cell\n"
                "with no candidate at a dead end (erasures by a restore\n"
                "count with the next value written, so a dead end shows\n"
                "the grid it died on)",
        .field = CLI_WHOLE,
        .parse = parse_at,
        .expected = "step numbers" },
    { .kind = CLI_FLAG,
        .name = "undo",
        .help = "also print the values erased when a saved grid is restored",
        .field = offsetof(struct trace_cli, undo) },
    CLI_LINE(
        "With --csv: events as index,step,written,row,col,value,kind; with --at, one\n"
        "row per cell as index,at,step,written,row,col,value,role (role: clue, guess,\n"
        "singleton, empty or stuck).\n"
        "Common options:"),
    CLI_COMMON_OPTIONS,
    CLI_OPTION_HELP,
};

const struct cli_table trace_table = CLI_TABLE("sudolab trace", trace_options);

enum cli_parsed trace_parse(int argc, char **argv, struct trace_cli *out)
{
    memset(out, 0, sizeof(*out));
    cli_common_defaults(&out->common, 1);
    int first;
    const enum cli_parsed p
        = cli_parse(&trace_table, argc, argv, out, &out->common, &first);
    if (p != CLI_PARSED_RUN)
        return p;
    out->nfiles = argc - first;
    out->files = argv + first;
    if (!out->common.solver)
        out->common.solver = solver_find("moler");
    if (cli_common_finish(&out->common) != 0)
        return CLI_PARSED_ERROR;
    const struct solver *s = out->common.solver;
    if (!(s->caps & SOLVER_CAP_TRACE)) {
        fprintf(stderr, "sudolab trace: solver %s does not trace its search\n", s->name);
        return CLI_PARSED_ERROR;
    }
    return CLI_PARSED_RUN;
}

int trace_run(const struct trace_cli *cli)
{
    struct trace_run *run = calloc(1, sizeof(*run));
    if (!run)
        return CLI_SKIPPED;
    run->cli = cli;
    const struct solver *s = cli->common.solver;
    run->article = (s->counters & SOLVER_HAS(article_steps)) != 0;
    run->inst = solver_open(s);
    if (!run->inst) {
        fprintf(stderr, "sudolab: solver %s failed to start\n", s->name);
        free(run);
        return CLI_SKIPPED;
    }
    if (cli->common.csv)
        puts(cli->nat ? "index,at,step,written,row,col,value,role"
                      : "index,step,written,row,col,value,kind");
    const unsigned long problems
        = cli_walk(&cli->common, cli->nfiles, cli->files, trace_entry, run);
    solver_close(run->inst);
    const int status = problems || run->failures ? CLI_SKIPPED : CLI_OK;
    free(run);
    return status;
}

int cmd_trace(int argc, char **argv)
{
    struct trace_cli cli;
    const enum cli_parsed p = trace_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&trace_table, stdout);
    return p == CLI_PARSED_RUN ? trace_run(&cli) : cli_parsed_status(p);
}
