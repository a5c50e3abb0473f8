/* sudolab merge: shard outputs in, the single run's output out (bench/merge.h
 * says what is checked). The kind of shard is told by the inputs themselves. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_merge.h"
#include "cli/commands.h"
#include "common/io.h"
#include "scaleout/grid_text.h"
#include "scaleout/grid_walk.h"
#include "scaleout/merge.h"

#define MERGE_FIELD(member) offsetof(struct merge_cli, member)

static const struct cli_option merge_options[] = {
    CLI_LINE(
        "usage: sudolab merge [options] SHARD...\n"
        "Combines the outputs of --shard K/N runs into the output of one run, after\n"
        "checking they come from the same options, revision and inputs, and that "
        "shards\n"
        "1..N are each there once and complete.\n"
        "  count partials (count --shard K/N > FILE): count's rows on stdout\n"
        "  count --grids partials (count --grids --shard K/N > FILE): the classes and\n"
        "  the totals of one whole count\n"
        "  count --grids walk partials (count --grids --orders or --orders-table,\n"
        "  any --shard or --ranks): the orders table (and a two-band total), or the\n"
        "  three-band total\n"
        "  generate outputs (generate --shard K/N > FILE): the puzzles in order\n"
        "  rate outputs (rate --shard K/N > FILE): the rows in puzzle order\n"
        "  bench directories (bench --shard K/N --out DIR): runs.csv, summary.csv and\n"
        "  env.txt written into --out DIR"),
    { .kind = CLI_STRING,
        .name = "out",
        .metavar = "PATH",
        .help = "the merged bench directory (required for bench), or a file\n"
                "for count and generate (default: stdout)",
        .field = MERGE_FIELD(out) },
    { .kind = CLI_STRING,
        .name = "list",
        .metavar = "FILE",
        .help = "more shards, named one a line in FILE (- reads stdin):\n"
                "for more than a command line holds (count --grids walk\n"
                "partials are read one at a time)",
        .field = MERGE_FIELD(list) },
    { .kind = CLI_FLAG,
        .name = "csv",
        .help = "count: CSV rows, as count --csv prints them",
        .field = MERGE_FIELD(csv) },
    { .kind = CLI_FLAG,
        .name = "quiet",
        .help = "bench: no summary table",
        .field = MERGE_FIELD(quiet) },
    CLI_OPTION_HELP,
};

const struct cli_table merge_table = CLI_TABLE("sudolab merge", merge_options);

static const char *const kind_names[]
    = { "unknown", "count partial", "generate output", "bench directory",
          "count --grids partial", "count --grids walk partial", "rate output" };

void merge_free(struct merge_cli *cli)
{
    if (cli->owned) {
        for (int i = 0; i < cli->nshards; i++)
            if (cli->owned[i] != cli->shards[i])
                free(cli->shards[i]);
        free(cli->shards);
        free(cli->owned);
    }
    cli->owned = NULL;
}

/* The operands, then the names --list gives (blank lines skipped). Returns
 * 0, or -1 after saying why. */
static int read_list(struct merge_cli *out)
{
    FILE *in = strcmp(out->list, "-") == 0 ? stdin : fopen(out->list, "r");
    if (!in) {
        fprintf(stderr, "sudolab merge: --list %s: %s\n", out->list, strerror(errno));
        return -1;
    }
    size_t n = (size_t) out->nshards, cap = n + 64;
    char **shards = malloc(cap * sizeof(*shards));
    char **owned = malloc(cap * sizeof(*owned));
    int rc = shards && owned ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        shards[i] = owned[i] = out->shards[i];
    char *line = NULL;
    size_t len = 0;
    ssize_t got;
    while (rc == 0 && (got = getline(&line, &len, in)) >= 0) {
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = '\0';
        if (got == 0)
            continue;
        if (n == cap) {
            cap *= 2;
            char **s = realloc(shards, cap * sizeof(*s));
            char **o = s ? realloc(owned, cap * sizeof(*o)) : NULL;
            shards = s ? s : shards;
            owned = o ? o : owned;
            if (!s || !o) {
                rc = -1;
                break;
            }
        }
        shards[n] = strdup(line);
        owned[n] = NULL;
        if (!shards[n++])
            rc = -1;
    }
    free(line);
    if (in != stdin)
        fclose(in);
    out->shards = shards;
    out->owned = owned;
    out->nshards = (int) n;
    if (rc != 0 || n > INT32_MAX)
        fprintf(stderr, "sudolab merge: out of memory\n");
    return rc;
}

enum cli_parsed merge_parse(int argc, char **argv, struct merge_cli *out)
{
    memset(out, 0, sizeof(*out));
    int first;
    const enum cli_parsed p = cli_parse(&merge_table, argc, argv, out, NULL, &first);
    if (p != CLI_PARSED_RUN)
        return p;
    out->nshards = argc - first;
    out->shards = argv + first;
    if (out->list && read_list(out) != 0)
        return CLI_PARSED_ERROR;
    if (out->nshards < 1) {
        fprintf(stderr, "sudolab merge: no shards to merge (see --help)\n");
        return CLI_PARSED_ERROR;
    }
    return CLI_PARSED_RUN;
}

/* The kind of shards given, all the same; MERGE_UNKNOWN after saying which
 * shard is missing, unreadable or of another kind. */
static enum merge_kind detect_kind(const struct merge_cli *cli)
{
    char **paths = cli->shards;
    const enum merge_kind kind = merge_detect(paths[0]);
    for (int i = 0; i < cli->nshards; i++) {
        const enum merge_kind k = merge_detect(paths[i]);
        struct stat sb;
        if (k == MERGE_UNKNOWN && stat(paths[i], &sb) != 0) {
            fprintf(stderr, "sudolab merge: %s: %s (a shard that did not finish?)\n",
                paths[i], strerror(errno));
            return MERGE_UNKNOWN;
        }
        if (k == MERGE_UNKNOWN) {
            fprintf(stderr,
                "sudolab merge: %s: not a shard output (unreadable, or not from "
                "count, generate, rate or bench)\n",
                paths[i]);
            return MERGE_UNKNOWN;
        }
        if (k != kind) {
            fprintf(stderr, "sudolab merge: %s is a %s but %s is a %s\n", paths[0],
                kind_names[kind], paths[i], kind_names[k]);
            return MERGE_UNKNOWN;
        }
    }
    return kind;
}

/* stdout into path, created or truncated. Returns 0, or -1 with errno and
 * stdout as it was (freopen would leave it closed, and the final check of
 * stdout with it). */
static int redirect_stdout(const char *path)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return -1;
    fflush(stdout);
    const int moved = dup2(fd, STDOUT_FILENO);
    const int saved = errno;
    close(fd);
    errno = saved;
    return moved < 0 ? -1 : 0;
}

/* Count partials and generate outputs: opened, merged to stdout or --out. */
static int merge_streams(const struct merge_cli *cli, enum merge_kind kind)
{
    const int n = cli->nshards;
    char **paths = cli->shards;
    FILE **files = calloc((size_t) n, sizeof(*files));
    if (!files) {
        fprintf(stderr, "sudolab merge: out of memory\n");
        return CLI_SKIPPED;
    }
    int rc = CLI_OK;
    for (int i = 0; i < n && rc == CLI_OK; i++) {
        files[i] = fopen(paths[i], "r");
        if (!files[i]) {
            fprintf(stderr, "sudolab merge: %s: %s\n", paths[i], strerror(errno));
            rc = CLI_SKIPPED;
        }
    }
    if (rc == CLI_OK && cli->out && redirect_stdout(cli->out) != 0) {
        fprintf(stderr, "sudolab merge: %s: %s\n", cli->out, strerror(errno));
        rc = CLI_SKIPPED;
    }
    if (rc == CLI_OK) {
        if (kind == MERGE_COUNT)
            rc = merge_count(files, (const char *const *) paths, (size_t) n, cli->csv);
        else if (kind == MERGE_GRIDS)
            rc = grid_merge(files, (const char *const *) paths, (size_t) n, stdout);
        else if (kind == MERGE_RATE)
            rc = merge_rate(files, (const char *const *) paths, (size_t) n, stdout);
        else
            rc = merge_generate(files, (const char *const *) paths, (size_t) n, stdout);
    }
    for (int i = 0; i < n; i++) {
        if (files[i])
            fclose(files[i]);
    }
    free(files);
    /* --out FILE is stdout reopened: the message names the file */
    if (io_close_stdout("sudolab merge", cli->out) != 0 && rc == CLI_OK)
        rc = CLI_SKIPPED;
    return rc;
}

/* count --grids walk partials: read one at a time, as there may be a
 * million of them. */
static int merge_walk(const struct merge_cli *cli)
{
    if (cli->out && redirect_stdout(cli->out) != 0) {
        fprintf(stderr, "sudolab merge: %s: %s\n", cli->out, strerror(errno));
        return CLI_SKIPPED;
    }
    int rc = grid_walk_merge(
        (const char *const *) cli->shards, (size_t) cli->nshards, stdout, stderr);
    if (io_close_stdout("sudolab merge", cli->out) != 0 && rc == CLI_OK)
        rc = CLI_SKIPPED;
    return rc;
}

int merge_run(const struct merge_cli *cli)
{
    const enum merge_kind kind = detect_kind(cli);
    if (kind == MERGE_UNKNOWN)
        return CLI_USAGE;
    if (kind == MERGE_GRIDS_WALK)
        return merge_walk(cli);
    if (kind != MERGE_BENCH)
        return merge_streams(cli, kind);
    if (!cli->out) {
        fprintf(stderr, "sudolab merge: bench shards need --out DIR\n");
        return CLI_USAGE;
    }
    return merge_bench((const char *const *) cli->shards, (size_t) cli->nshards, cli->out,
        cli->quiet ? NULL : stdout);
}

int cmd_merge(int argc, char **argv)
{
    struct merge_cli cli;
    const enum cli_parsed p = merge_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&merge_table, stdout);
    const int rc = p == CLI_PARSED_RUN ? merge_run(&cli) : cli_parsed_status(p);
    merge_free(&cli);
    return rc;
}
