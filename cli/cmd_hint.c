/* sudolab hint: the next step of each puzzle as Sudoku Explainer takes it
 * (rater/se_rate.h), one line per puzzle: technique, rating, cells, what it
 * places or eliminates; --json prints each as a JSON object. The rater's
 * version and revision come first (a `#` line), or close each object. */
#include <stdlib.h>
#include <string.h>

#include "bench/bench_env.h"
#include "cli/cli.h"
#include "cli/cmd_hint.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "config.h"
#include "rater/se_rate.h"

struct hint_cli {
    struct cli_common common;
    bool json;
    int nfiles;
    char **files;
};

struct hint_run {
    const struct hint_cli *cli;
    struct se_rater *rater;
    unsigned long failures;
};

/* s as a JSON string, quoted, with '"', '\\' and control bytes escaped. */
static void print_json_string(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *) s; *p; p++) {
        if (*p == '"' || *p == '\\')
            printf("\\%c", *p);
        else if (*p < 0x20)
            printf("\\u%04x", *p);
        else
            putchar(*p);
    }
    putchar('"');
}

static bool hint_entry(void *ctx, const struct input_entry *e)
{
    struct hint_run *run = ctx;
    char text[2048];
    if (!e->ok) {
        run->failures++;
        printf("%lu invalid\n", e->index);
        return true;
    }
    if (grid_find_conflict(&e->item->puzzle, text, sizeof(text))) {
        fprintf(stderr, "%s:%lu: %s\n", e->source, e->line, text);
        run->failures++;
        printf("%lu invalid\n", e->index);
        return true;
    }
    const uint64_t budget = run->cli->common.budget_ms;
    bool ok = se_hint_within(run->rater, &e->item->puzzle, run->cli->json,
        budget ? se_rater_now(run->rater) + budget * 1000000u : 0, text, sizeof(text));
    if (!ok)
        run->failures++;
    /* a named instance (Lewis's) is named, as solve names it */
    const char *name = e->item->name;
    if (run->cli->json) {
        printf("{\"index\":%lu", e->index);
        if (name[0]) {
            fputs(",\"name\":", stdout);
            print_json_string(name);
        }
        if (ok)
            printf(",\"hint\":%s", text);
        else
            printf(",\"error\":\"%s\"", text);
        /* the rater's version closes every object, as the text's first line
           records it: a JSON-lines reader takes no comment line */
        printf(",\"version\":\"%s\",\"revision\":\"%s\"}\n", SUDOLAB_VERSION,
            bench_env_revision());
    } else {
        printf("%lu %s%s%s\n", e->index, text, name[0] ? " name=" : "", name);
    }
    return true;
}

#define HINT_FIELD(member) offsetof(struct hint_cli, member)

static const struct cli_option hint_options[] = {
    CLI_LINE("usage: sudolab hint [options] [FILE|PUZZLE|-]..."),
    CLI_LINE("Prints the next step of each 9x9 puzzle as Sudoku Explainer takes it:\n"
             "technique, rating, cells, and what it places or eliminates."),
    { .kind = CLI_FLAG,
        .name = "json",
        .help = "one JSON object per puzzle",
        .field = HINT_FIELD(json) },
    CLI_COMMON_OPTIONS,
    CLI_OPTION_HELP,
};

const struct cli_table hint_table = CLI_TABLE("sudolab hint", hint_options);

int cmd_hint(int argc, char **argv)
{
    struct hint_cli cli;
    memset(&cli, 0, sizeof(cli));
    cli_common_defaults(&cli.common, 2);
    int first;
    const enum cli_parsed p
        = cli_parse(&hint_table, argc, argv, &cli, &cli.common, &first);
    if (p == CLI_PARSED_HELP)
        cli_help(&hint_table, stdout);
    if (p != CLI_PARSED_RUN)
        return cli_parsed_status(p);
    cli.nfiles = argc - first;
    cli.files = argv + first;
    struct hint_run run = { &cli, se_rater_new(), 0 };
    if (!run.rater) {
        fprintf(stderr, "sudolab hint: out of memory\n");
        return CLI_SKIPPED;
    }
    se_rater_use_cpu_clock(run.rater, false); /* the user waits on the wall clock */
    /* the rater's version and budget first, as `rate` records them: a step's
       rating is that of this version of the technique table */
    if (!cli.json)
        printf("# sudolab hint version=%s revision=%s budget_ms=%llu\n", SUDOLAB_VERSION,
            bench_env_revision(), (unsigned long long) cli.common.budget_ms);
    const unsigned long problems
        = cli_walk(&cli.common, cli.nfiles, cli.files, hint_entry, &run);
    se_rater_free(run.rater);
    return problems || run.failures ? CLI_SKIPPED : CLI_OK;
}
