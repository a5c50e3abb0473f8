/* sudolab list: the registered back ends and what they handle, and the
 * outside ones (so:PATH, cmd:COMMAND) named with --solver. One this machine
 * cannot run (solver_available) keeps its line, its summary prefixed with
 * "unavailable (why): ". */
#include <stdio.h>
#include <string.h>

#include "bench/bench_csv.h"
#include "cli/cli.h"
#include "cli/cmd_list.h"
#include "cli/commands.h"
#include "common/io.h"
#include "solvers/outside.h"
#include "solvers/registry.h"

static void print_caps(const struct solver *s, char *out, size_t len)
{
    snprintf(out, len, "%s%s%s%s%s%s", s->caps & SOLVER_CAP_COUNT ? "count," : "",
        s->caps & SOLVER_CAP_DIAGONAL ? "diagonal," : "",
        s->caps & SOLVER_CAP_TRACE ? "trace," : "",
        s->caps & SOLVER_CAP_STEP_BUDGET ? "step-budget," : "",
        s->caps & SOLVER_CAP_FAST ? "fast," : "",
        s->caps & SOLVER_CAP_INCOMPLETE ? "incomplete," : "");
    const size_t n = strlen(out);
    if (n)
        out[n - 1] = '\0';
}

/* The widths of the name and family columns: the longest listed, so that an
 * outside back end's long name (cmd:python3_solver.py) keeps them aligned. */
struct widths {
    int name, family;
};

static void widen(struct widths *w, const struct solver *s)
{
    const int name = (int) strlen(s->name), family = (int) strlen(s->family);
    w->name = name > w->name ? name : w->name;
    w->family = family > w->family ? family : w->family;
}

static void print_solver(const struct solver *s, bool csv, const struct widths *w)
{
    char caps[80], sizes[16], counters[96] = "", why[120], summary[320];
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
    if (solver_available(s, why, sizeof(why)))
        snprintf(summary, sizeof(summary), "%s", s->summary);
    else
        snprintf(summary, sizeof(summary), "unavailable (%s): %s", why, s->summary);
    if (csv) {
        /* an outside back end's name and summary are free text, and caps
           holds commas: every text field goes through the one CSV quoter */
        bench_csv_put_text(stdout, s->name);
        putchar(',');
        bench_csv_put_text(stdout, s->family);
        printf(",%d,%d,", s->min_n, s->max_n);
        bench_csv_put_text(stdout, caps);
        putchar(',');
        bench_csv_put_text(stdout, counters);
        putchar(',');
        bench_csv_put_text(stdout, summary);
        putchar('\n');
    } else
        printf("%-*s %-*s %-6s %-38s %s\n", w->name, s->name, w->family, s->family, sizes,
            caps, summary);
    /* a listing longer than stdio's buffer fails inside printf, where the
       reason is lost: a flush per line keeps it for the closing message */
    io_flush_stdout();
}

static int add_named(const struct cli_value *v)
{
    struct list_cli *cli = v->field;
    if (cli->nnamed >= LIST_MAX_NAMED) {
        fprintf(stderr, "%s: at most %d --solver names\n", v->who, LIST_MAX_NAMED);
        return CLI_VALUE_SAID;
    }
    cli->named[cli->nnamed++] = v->arg;
    return CLI_VALUE_OK;
}

static const struct cli_option list_options[] = {
    CLI_LINE("usage: sudolab list [options]\n"
             "Lists the back ends built in: name, family, grid sizes, capabilities and\n"
             "summary."),
    { .kind = CLI_FLAG,
        .name = "csv",
        .help = "name,family,min_n,max_n,caps,counters,summary rows with a header",
        .field = offsetof(struct list_cli, csv) },
    { .kind = CLI_CUSTOM,
        .name = "solver",
        .metavar = "SPEC",
        .help = "also list this outside back end (so:PATH[:SYMBOL], cmd:COMMAND);\n"
                "exit status 1 when it cannot run",
        .field = CLI_WHOLE,
        .parse = add_named },
    CLI_OPTION_HELP,
};

const struct cli_table list_table = CLI_TABLE("sudolab list", list_options);

enum cli_parsed list_parse(int argc, char **argv, struct list_cli *out)
{
    memset(out, 0, sizeof(*out));
    int first;
    const enum cli_parsed p = cli_parse(&list_table, argc, argv, out, NULL, &first);
    if (p == CLI_PARSED_RUN && first < argc) {
        fprintf(stderr, "sudolab list: unexpected argument '%s'\n", argv[first]);
        return CLI_PARSED_ERROR;
    }
    return p;
}

int list_run(const struct list_cli *cli)
{
    const struct solver *named[LIST_MAX_NAMED];
    int rc = CLI_OK;
    for (int i = 0; i < cli->nnamed; i++) {
        if (!(named[i] = solver_find(cli->named[i]))) {
            fprintf(stderr, "sudolab: no solver named '%s' (see `sudolab list`)\n",
                cli->named[i]);
            return CLI_USAGE;
        }
        const char *problem = outside_problem(named[i]);
        if (problem && problem[0])
            rc = CLI_SKIPPED;
    }
    struct widths w = { 14, 10 };
    for (size_t i = 0; solver_registry[i]; i++)
        widen(&w, solver_registry[i]);
    for (int i = 0; i < cli->nnamed; i++)
        widen(&w, named[i]);
    if (cli->csv)
        puts("name,family,min_n,max_n,caps,counters,summary");
    else
        printf("%-*s %-*s %-6s %-38s %s\n", w.name, "name", w.family, "family", "sizes",
            "capabilities", "summary");
    for (size_t i = 0; solver_registry[i]; i++)
        print_solver(solver_registry[i], cli->csv, &w);
    for (int i = 0; i < cli->nnamed; i++) {
        if (outside_problem(named[i])) /* NULL for a built-in back end */
            print_solver(named[i], cli->csv, &w);
    }
    return rc;
}

int cmd_list(int argc, char **argv)
{
    struct list_cli cli;
    const enum cli_parsed p = list_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&list_table, stdout);
    return p == CLI_PARSED_RUN ? list_run(&cli) : cli_parsed_status(p);
}
