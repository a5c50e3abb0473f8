/* sudolab compare OLD NEW: two bench runs side by side (bench/bench_compare.h
 * says how), in Markdown and CSV, with an exit status for CI. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_compare.h"
#include "cli/cli.h"
#include "cli/cmd_compare.h"
#include "cli/commands.h"
#include "common/io.h"

#define COMPARE_FIELD(member) offsetof(struct compare_cli, member)
#define COMPARE_PERCENT "a percentage (such as 2 or 0.5)"

/* A percentage, 0 to 1000, with decimals: stored as a fraction. */
static int parse_percent(const struct cli_value *v)
{
    char *end;
    errno = 0;
    const double pct = strtod(v->arg, &end);
    if (errno || end == v->arg || *end != '\0' || !(pct >= 0 && pct <= 1000))
        return CLI_VALUE_BAD;
    *(double *) v->field = pct / 100;
    return CLI_VALUE_OK;
}

static const struct cli_option compare_options[] = {
    CLI_LINE(
        "usage: sudolab compare [options] OLD NEW\n"
        "Compares two bench --out folders per solver and corpus: the per-puzzle time\n"
        "ratio NEW/OLD with its 95% bootstrap interval and a verdict, whole passes,\n"
        "status changes and counters. Refuses runs that time other work (corpora,\n"
        "limit, budgets, permutation seed) and names what else differs (CPU,\n"
        "compiler, revision, build type, quiet).\n"
        "Exit status: 0 compared; 1 slower than --fail-slower, or bad lines; 2 not\n"
        "compared."),
    { .kind = CLI_STRING,
        .name = "output",
        .metavar = "FILE",
        .help = "the Markdown into FILE (default: stdout)",
        .field = COMPARE_FIELD(output) },
    { .kind = CLI_STRING,
        .name = "csv",
        .metavar = "FILE",
        .help = "also the CSV, one row per solver and corpus (- : stdout,\n"
                "instead of the Markdown); scripts/compare.gp plots it",
        .field = COMPARE_FIELD(csv) },
    { .kind = CLI_CUSTOM,
        .name = "threshold",
        .metavar = "PCT",
        .help = "a verdict needs the interval beyond PCT% of 1 (default 2)",
        .field = COMPARE_FIELD(threshold),
        .expected = COMPARE_PERCENT,
        .parse = parse_percent },
    { .kind = CLI_CUSTOM,
        .name = "fail-slower",
        .metavar = "PCT",
        .help = "exit 1 when a solver and corpus is slower by more than PCT%,\n"
                "its whole interval above 1 + PCT/100",
        .field = COMPARE_FIELD(fail_slower),
        .given = CLI_GIVEN(struct compare_cli, fail_slower_set),
        .expected = COMPARE_PERCENT,
        .parse = parse_percent },
    CLI_OPTION_HELP,
};

const struct cli_table compare_table = CLI_TABLE("sudolab compare", compare_options);

enum cli_parsed compare_parse(int argc, char **argv, struct compare_cli *out)
{
    memset(out, 0, sizeof(*out));
    out->threshold = BENCH_COMPARE_THRESHOLD;
    int first;
    const enum cli_parsed p = cli_parse(&compare_table, argc, argv, out, NULL, &first);
    if (p != CLI_PARSED_RUN)
        return p;
    if (argc - first != 2) {
        fprintf(stderr,
            "sudolab compare: two bench folders expected, OLD and NEW, %d given "
            "(see --help)\n",
            argc - first);
        return CLI_PARSED_ERROR;
    }
    out->old_dir = argv[first];
    out->new_dir = argv[first + 1];
    return CLI_PARSED_RUN;
}

/* Writes one output into path ("-" or NULL: stdout). Returns 0, or -1 after
 * saying why. */
static int write_to(const char *path, const struct bench_compare *cmp,
    void (*write)(const struct bench_compare *, FILE *))
{
    if (!path || strcmp(path, "-") == 0) {
        write(cmp, stdout);
        return 0;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "sudolab compare: %s: %s\n", path, strerror(errno));
        return -1;
    }
    write(cmp, f);
    return io_close_stream(f, "sudolab compare", path);
}

/* Why the runs cannot be compared, one line each. */
static void say_refusals(const struct compare_cli *cli, const struct bench_compare *cmp)
{
    fprintf(stderr, "sudolab compare: %s and %s cannot be compared:\n", cli->old_dir,
        cli->new_dir);
    for (size_t k = 0; k < cmp->nrefusals; k++) {
        const struct bench_compare_fact *f = &cmp->refusals[k];
        if (strcmp(f->key, "finished") == 0)
            fprintf(stderr, "  %s: %s; %s: %s\n", cli->old_dir, f->old_value,
                cli->new_dir, f->new_value);
        else if (strcmp(f->key, "rows") == 0)
            fprintf(stderr, "  %s\n", f->old_value);
        else
            fprintf(stderr, "  %s: '%s' against '%s'%s\n", f->key, f->old_value,
                f->new_value,
                strncmp(f->key, "corpus ", 7) == 0 ? " (other puzzles)" : "");
    }
}

int compare_run(const struct compare_cli *cli)
{
    struct bench_compare_run old, new;
    struct bench_compare cmp;
    memset(&cmp, 0, sizeof(cmp));
    int rc = CLI_USAGE;
    const int read_old = bench_compare_read(&old, cli->old_dir, stderr);
    const int read_new = bench_compare_read(&new, cli->new_dir, stderr);
    if (read_old != 0 || read_new != 0)
        goto out;
    if (bench_compare_runs(&old, &new, cli->threshold, &cmp) != 0) {
        fprintf(stderr, "sudolab compare: out of memory\n");
        goto out;
    }
    if (cmp.nrefusals > 0) {
        say_refusals(cli, &cmp);
        goto out;
    }
    const bool csv_stdout = cli->csv && strcmp(cli->csv, "-") == 0;
    if ((!csv_stdout || cli->output)
        && write_to(cli->output, &cmp, bench_compare_write_markdown) != 0)
        goto out;
    if (cli->csv && write_to(cli->csv, &cmp, bench_compare_write_csv) != 0)
        goto out;
    rc = old.bad_lines || new.bad_lines ? CLI_SKIPPED : CLI_OK;
    if (old.bad_lines || new.bad_lines)
        fprintf(stderr, "sudolab compare: %lu bad lines left out\n",
            old.bad_lines + new.bad_lines);
    for (size_t k = 0; cli->fail_slower_set && k < cmp.ncells; k++) {
        const struct bench_compare_cell *c = &cmp.cells[k];
        if (!bench_compare_slower_than(&c->time, cli->fail_slower))
            continue;
        fprintf(stderr,
            "sudolab compare: %s on %s is slower by more than %g%%: NEW/OLD %.3f [%.3f, "
            "%.3f]\n",
            c->old->solver, c->old->corpus, 100 * cli->fail_slower, c->time.estimate,
            c->time.low, c->time.high);
        rc = CLI_SKIPPED;
    }
out:
    bench_compare_free(&cmp);
    bench_compare_run_free(&old);
    bench_compare_run_free(&new);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    struct compare_cli cli;
    const enum cli_parsed p = compare_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&compare_table, stdout);
    return p == CLI_PARSED_RUN ? compare_run(&cli) : cli_parsed_status(p);
}
