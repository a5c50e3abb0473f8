/* The option tables of the commands (cli/options.h): each command's --help is
 * the text it always was (tests/data/help) and lists every option of its
 * table, the tables are well formed, and values out of range are refused
 * with the messages the commands always gave, while the limits themselves
 * are accepted into the right fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cmd_bench.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_generate.h"
#include "cli/cmd_hint.h"
#include "cli/cmd_levels.h"
#include "cli/cmd_list.h"
#include "cli/cmd_merge.h"
#include "cli/cmd_rate.h"
#include "cli/cmd_solve.h"
#include "cli/cmd_trace.h"
#include "cli/options.h"
#include "puzzle/logic.h"
#include "puzzle/rate.h"
#include "tests/test_util.h"

static const struct command {
    const char *name;
    const struct cli_table *table;
} commands[] = {
    { "solve", &solve_table },
    { "count", &count_table },
    { "bench", &bench_table },
    { "generate", &generate_table },
    { "rate", &rate_table },
    { "hint", &hint_table },
    { "levels", &levels_table },
    { "trace", &trace_table },
    { "merge", &merge_table },
    { "compare", &compare_table },
    { "list", &list_table },
};
enum { NCOMMANDS = sizeof(commands) / sizeof(commands[0]) };

static char *help_of(const struct cli_table *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    cli_help(t, f);
    assert_int_equal(fclose(f), 0);
    return text;
}

static char *read_stream(FILE *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    assert_int_equal(fclose(out), 0);
    return text;
}

static char *read_reference(const char *command)
{
    const char *dir = getenv("SUDOLAB_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof(path), "%s/help/%s.txt", dir ? dir : "tests/data", command);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("%s: cannot open", path);
    char *text = read_stream(f);
    fclose(f);
    return text;
}

/* What the commands printed for --help before their options were tables. */
static void help_is_the_reference_text(void **state)
{
    (void) state;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        char *help = help_of(commands[i].table);
        char *want = read_reference(commands[i].name);
        if (strcmp(help, want) != 0)
            fail_msg("sudolab %s --help differs from tests/data/help/%s.txt:\n%s",
                commands[i].name, commands[i].name, help);
        free(help);
        free(want);
    }
}

static bool is_option(const struct cli_option *o)
{
    return o->kind != CLI_LINE;
}

/* Options accepted but deliberately left out of --help: bench takes
 * --solver as one more pattern, and --pretty like the other commands. */
static bool undocumented(const char *command, const struct cli_option *o)
{
    return o->kind == CLI_HELP
        || (strcmp(command, "bench") == 0
            && (strcmp(o->name, "solver") == 0 || strcmp(o->name, "pretty") == 0));
}

/* An option left out of the option lines but named with its argument in a
 * line of text (bench's "--size RxC, --variant V, ...: as for solve"). */
static bool named_in_text(const struct cli_table *t, const struct cli_option *o)
{
    char named[64];
    snprintf(named, sizeof(named), "--%s %s", o->name, o->metavar ? o->metavar : "");
    for (size_t k = 0; k < t->count; k++) {
        if (t->options[k].kind == CLI_LINE && o->metavar
            && strstr(t->options[k].help, named))
            return true;
    }
    return false;
}

static void help_lists_every_option(void **state)
{
    (void) state;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const struct cli_table *t = commands[i].table;
        char *help = help_of(t);
        for (size_t k = 0; k < t->count; k++) {
            const struct cli_option *o = &t->options[k];
            if (!is_option(o) || undocumented(commands[i].name, o))
                continue;
            /* its own line, "  --name" or "  -j, --name" */
            char line[64];
            if (o->letter)
                snprintf(line, sizeof(line), "\n  -%c, --%s", o->letter, o->name);
            else
                snprintf(line, sizeof(line), "\n  --%s", o->name);
            if (o->help ? !strstr(help, line) : !named_in_text(t, o))
                fail_msg(
                    "sudolab %s --help does not list --%s", commands[i].name, o->name);
        }
        free(help);
    }
}

static bool is_number(enum cli_kind kind)
{
    return kind == CLI_U64 || kind == CLI_UNSIGNED || kind == CLI_U32 || kind == CLI_INT
        || kind == CLI_ULONG || kind == CLI_SIZE || kind == CLI_DOUBLE;
}

static void check_entry(const char *command, const struct cli_option *o)
{
    if (!is_option(o)) {
        if (!o->help || o->name)
            fail_msg("%s: a text line without text, or with a name", command);
        return;
    }
    if (!o->name)
        fail_msg("%s: an option without a name", command);
    if ((o->kind == CLI_FLAG || o->kind == CLI_HELP) && o->metavar)
        fail_msg("%s --%s: a flag with an argument", command, o->name);
    if ((is_number(o->kind) || o->kind == CLI_STRING) && !o->metavar)
        fail_msg("%s --%s: a value without an argument name", command, o->name);
    if (is_number(o->kind) && !o->expected)
        fail_msg("%s --%s: a number without the message for a bad one", command, o->name);
    if (o->kind == CLI_CUSTOM && !o->parse)
        fail_msg("%s --%s: custom without a parser", command, o->name);
    if (o->max && o->min > o->max)
        fail_msg("%s --%s: an empty range", command, o->name);
    if (o->say_letter && !o->letter)
        fail_msg("%s --%s: named by a letter it does not have", command, o->name);
}

/* Names, aliases and letters are each taken once; one --help; getopt's
 * array has room. */
static void tables_are_well_formed(void **state)
{
    (void) state;
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const struct cli_table *t = commands[i].table;
        const char *names[2 * CLI_MAX_OPTIONS];
        size_t nnames = 0, nhelp = 0;
        char letters[CLI_MAX_OPTIONS];
        size_t nletters = 0;
        for (size_t k = 0; k < t->count; k++) {
            const struct cli_option *o = &t->options[k];
            check_entry(commands[i].name, o);
            if (!is_option(o))
                continue;
            nhelp += o->kind == CLI_HELP;
            const char *own[2] = { o->name, o->alias };
            for (int a = 0; a < 2 && own[a]; a++) {
                for (size_t m = 0; m < nnames; m++)
                    if (strcmp(names[m], own[a]) == 0)
                        fail_msg("%s: --%s twice", commands[i].name, own[a]);
                assert_true(nnames < CLI_MAX_OPTIONS);
                names[nnames++] = own[a];
            }
            if (o->letter) {
                assert_null(memchr(letters, o->letter, nletters));
                letters[nletters++] = o->letter;
            }
        }
        assert_int_equal(nhelp, 1);
        assert_true(strncmp(t->who, "sudolab ", 8) == 0);
    }
}

/* Runs a parse with stderr caught; returns what it wrote (to free). */
static char *parse_caught(enum cli_parsed (*parse)(int, char **, void *), char **argv,
    void *out, enum cli_parsed *result)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stderr);
    FILE *caught = tmpfile();
    assert_non_null(caught);
    const int saved = dup(STDERR_FILENO);
    assert_true(saved >= 0);
    assert_true(dup2(fileno(caught), STDERR_FILENO) >= 0);
    *result = parse(argc, argv, out);
    fflush(stderr);
    assert_true(dup2(saved, STDERR_FILENO) >= 0);
    close(saved);
    rewind(caught);
    char *text = read_stream(caught);
    fclose(caught);
    return text;
}

/* The command parsers under one signature, for the tables of cases. */
static enum cli_parsed any_solve(int argc, char **argv, void *out)
{
    return solve_parse(argc, argv, out);
}
static enum cli_parsed any_count(int argc, char **argv, void *out)
{
    return count_parse(argc, argv, out);
}
static enum cli_parsed any_bench(int argc, char **argv, void *out)
{
    const enum cli_parsed p = bench_parse(argc, argv, out);
    bench_cli_free(out);
    return p;
}
static enum cli_parsed any_generate(int argc, char **argv, void *out)
{
    return generate_parse(argc, argv, out);
}
static enum cli_parsed any_rate(int argc, char **argv, void *out)
{
    return rate_parse(argc, argv, out);
}
static enum cli_parsed any_trace(int argc, char **argv, void *out)
{
    return trace_parse(argc, argv, out);
}
static enum cli_parsed any_merge(int argc, char **argv, void *out)
{
    return merge_parse(argc, argv, out);
}
static enum cli_parsed any_list(int argc, char **argv, void *out)
{
    return list_parse(argc, argv, out);
}

static enum cli_parsed (*parser_of(const char *command))(int, char **, void *)
{
    static const struct {
        const char *name;
        enum cli_parsed (*parse)(int, char **, void *);
    } parsers[] = {
        { "solve", any_solve },
        { "count", any_count },
        { "bench", any_bench },
        { "generate", any_generate },
        { "rate", any_rate },
        { "trace", any_trace },
        { "merge", any_merge },
        { "list", any_list },
    };
    for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++)
        if (strcmp(parsers[i].name, command) == 0)
            return parsers[i].parse;
    fail_msg("no parser for %s", command);
    return NULL;
}

/* Big enough for any command's struct. */
union any_cli {
    struct solve_cli solve;
    struct bench_cli bench;
    struct generate_cli generate;
    struct rate_cli rate;
    struct trace_cli trace;
    struct merge_cli merge;
    struct list_cli list;
};

enum { MAX_ARGS = 10 };

struct refusal {
    const char *argv[MAX_ARGS]; /* argv[0] is the command */
    const char *message; /* all of stderr, as the commands always wrote it */
};

/* Each message is what the command printed before its options were a
 * table (checked against the program of that time). */
static const struct refusal refusals[] = {
    { { "count", "-j", "257" }, "sudolab count: -j 257: a number from 1 expected\n" },
    { { "count", "--jobs", "0" }, "sudolab count: -j 0: a number from 1 expected\n" },
    { { "count", "--split", "16777217" },
        "sudolab count: --split 16777217: a number from 1 expected\n" },
    { { "count", "--split", "0" },
        "sudolab count: --split 0: a number from 1 expected\n" },
    { { "count", "--shard", "0/2" },
        "sudolab count: --shard 0/2: K/N expected, 1 <= K <= N <= 1000000\n" },
    { { "count", "--print", "-j", "2", "x" },
        "sudolab count: --print does not combine with -j or --shard\n" },
    { { "solve", "--limit", "x" }, "sudolab: --limit x: a count (0 = all) expected\n" },
    { { "solve", "--budget-ms", "z" },
        "sudolab: --budget-ms z: milliseconds expected\n" },
    { { "solve", "--size", "4" },
        "sudolab: --size 4: box rows x box columns, such as 3x3 or 2x3, expected\n" },
    { { "rate", "--variant", "q" },
        "sudolab: --variant q: standard or diagonal expected\n" },
    { { "trace", "--format", "q" },
        "sudolab: --format q: auto, lines, grids, lewis or sukaku expected\n" },
    { { "solve", "--solver", "nosuch" },
        "sudolab: no solver named 'nosuch' (see `sudolab list`)\n" },
    { { "bench", "--repeat", "1000001", "x" },
        "sudolab bench: --repeat 1000001: a number expected\n" },
    { { "bench", "--repeat", "0", "x" },
        "sudolab bench: --repeat 0: a number expected\n" },
    { { "bench", "-j", "1025", "x" }, "sudolab bench: --jobs 1025: a number expected\n" },
    { { "bench", "--seed", "x", "x" }, "sudolab bench: --seed x: a number expected\n" },
    { { "bench", "--shard", "3/2", "x" },
        "sudolab bench: --shard 3/2: K/N expected, 1 <= K <= N <= 1000000\n" },
    { { "bench", "--solver", "nosuch", "x" },
        "sudolab bench: no solver matches 'nosuch' (see `sudolab list`)\n" },
    { { "generate", "--holes", "625" },
        "sudolab generate: --holes 625: a hole count expected\n" },
    { { "generate", "--holes", "0" },
        "sudolab generate: --holes 0: a hole count expected\n" },
    { { "generate", "-j", "257" },
        "sudolab generate: --jobs 257: a thread count from 1 to 256 expected\n" },
    { { "generate", "--permutations", "100001" },
        "sudolab generate: --permutations 100001: a count from 1 expected\n" },
    { { "generate", "--attempts", "4294967296" },
        "sudolab generate: --attempts 4294967296: a count from 1 expected\n" },
    { { "generate", "--climbs", "4294967296" },
        "sudolab generate: --climbs 4294967296: a count expected\n" },
    { { "generate", "--level", "qq" },
        "sudolab generate: --difficulty qq: easy, medium or hard expected\n" },
    { { "generate", "--shard", "2/1" },
        "sudolab generate: --shard 2/1: K/N with 1 <= K <= N expected\n" },
    { { "generate", "--verifier", "qq" },
        "sudolab generate: no solver named 'qq' (see `sudolab list`)\n" },
    { { "generate", "--max-technique", "qq" },
        "sudolab generate: --max-technique qq: a technique name (see sudolab rate "
        "--help) "
        "or guessing expected\n" },
    { { "generate", "extra" }, "sudolab generate: unexpected argument 'extra'\n" },
    { { "rate", "--permutations", "0" },
        "sudolab rate: --permutations 0: a count from 1 expected\n" },
    { { "rate", "--method", "q" },
        "sudolab rate: --method q: blanks, freedom, guesses, techniques or all "
        "expected\n" },
    { { "trace", "--at", "x" }, "sudolab trace: --at x: step numbers expected\n" },
    { { "merge", "--bogus" },
        "merge: unrecognized option '--bogus'\nsudolab merge: unknown option (see "
        "--help)\n" },
    { { "merge" }, "sudolab merge: no shards to merge (see --help)\n" },
};

static void out_of_range_is_refused_as_before(void **state)
{
    (void) state;
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
        const struct refusal *r = &refusals[i];
        char *argv[MAX_ARGS + 1] = { NULL };
        for (int k = 0; k < MAX_ARGS && r->argv[k]; k++)
            argv[k] = (char *) r->argv[k];
        union any_cli out;
        enum cli_parsed p;
        char *said = parse_caught(parser_of(r->argv[0]), argv, &out, &p);
        if (p != CLI_PARSED_ERROR || strcmp(said, r->message) != 0)
            fail_msg("sudolab %s %s %s: result %d, said \"%s\", not \"%s\"", r->argv[0],
                r->argv[1] ? r->argv[1] : "", r->argv[2] ? r->argv[2] : "", (int) p, said,
                r->message);
        free(said);
    }
}

static enum cli_parsed parse_quietly(const char *const *args, void *out)
{
    char *argv[MAX_ARGS + 1] = { NULL };
    for (int k = 0; k < MAX_ARGS && args[k]; k++)
        argv[k] = (char *) args[k];
    enum cli_parsed p;
    char *said = parse_caught(parser_of(args[0]), argv, out, &p);
    if (said[0])
        fail_msg("sudolab %s: unexpected message \"%s\"", args[0], said);
    free(said);
    return p;
}

/* The ends of each range are accepted, into the fields the tables name. */
static void range_ends_are_accepted(void **state)
{
    (void) state;
    union any_cli out;
    const char *count[] = { "count", "-j", "256", "--split", "16777216", "x", NULL };
    assert_int_equal(parse_quietly(count, &out), CLI_PARSED_RUN);
    assert_int_equal(out.solve.split.threads, 256);
    assert_int_equal(out.solve.split.split, 16777216);
    assert_true(out.solve.use_split);
    assert_false(out.solve.split.partial);
    assert_int_equal(out.solve.nfiles, 1);

    const char *one_thread[] = { "count", "-j", "1", "--print", NULL };
    assert_int_equal(parse_quietly(one_thread, &out), CLI_PARSED_RUN);
    assert_false(out.solve.use_split);
    assert_true(out.solve.print_all);

    const char *bench[] = { "bench", "--repeat", "1000000", "-j", "1024", "--solvers",
        "naive,dlx", "x", NULL };
    assert_int_equal(parse_quietly(bench, &out), CLI_PARSED_RUN);
    assert_int_equal(out.bench.opt.repeat, 1000000);
    assert_int_equal(out.bench.opt.threads, 1024);
    assert_int_equal(out.bench.nsolvers, 2);

    const char *gen[]
        = { "generate", "--holes", "624", "-j", "256", "--attempts", "4294967295", NULL };
    assert_int_equal(parse_quietly(gen, &out), CLI_PARSED_RUN);
    assert_int_equal(out.generate.opt.holes, 624);
    assert_int_equal(out.generate.jobs, 256);
    assert_int_equal(out.generate.opt.max_attempts, UINT32_MAX);

    const char *rate[] = { "rate", "--permutations", "100000", "--no-puzzle", NULL };
    assert_int_equal(parse_quietly(rate, &out), CLI_PARSED_RUN);
    assert_int_equal(out.rate.permutations, 100000);
    assert_false(out.rate.show_puzzle);
    assert_int_equal(out.rate.methods, RATE_ALL);
}

/* Options that set more than one field, or set it their own way. */
static void options_set_their_fields(void **state)
{
    (void) state;
    union any_cli out;
    const char *gen[] = { "generate", "--level", "hard", "--climbs", "0", "--shard",
        "2/3", "--max-technique", "x_wing", NULL };
    assert_int_equal(parse_quietly(gen, &out), CLI_PARSED_RUN);
    assert_int_equal(out.generate.opt.level, GEN_HARD);
    assert_int_equal(out.generate.opt.climbs, 1); /* 0 would mean the default */
    assert_int_equal(out.generate.shard_k, 2);
    assert_int_equal(out.generate.shard_n, 3);
    assert_string_equal(out.generate.shard, "2/3");
    assert_true(out.generate.opt.technique_filter);
    assert_int_equal(out.generate.opt.min_technique, LOGIC_NONE);
    assert_int_equal(out.generate.opt.max_technique, logic_parse_technique("x_wing"));
    assert_false(out.generate.seed_set);

    /* --variant after --empty turns the grids already added diagonal too */
    const char *solve[]
        = { "solve", "--empty", "2x2", "--variant", "x", "--limit", "1", NULL };
    assert_int_equal(parse_quietly(solve, &out), CLI_PARSED_RUN);
    assert_int_equal(out.solve.common.nempty, 1);
    assert_int_equal(out.solve.common.empty[0].variant, GRID_DIAGONAL);
    assert_false(out.solve.common.corpus.variant_from_header);
    assert_true(out.solve.common.limit_set);
    assert_int_equal(out.solve.common.limit, 1);

    const char *bench[]
        = { "bench", "--tdoku-protocol", "--seed", "7", "--solver", "mrv", "x", NULL };
    assert_int_equal(parse_quietly(bench, &out), CLI_PARSED_RUN);
    assert_true(out.bench.opt.tdoku_protocol && out.bench.opt.permute);
    assert_true(out.bench.seed_set);
    assert_int_equal(out.bench.opt.seed, 7);
    assert_int_equal(out.bench.nsolvers, 1);
    assert_int_equal(out.bench.opt.budget_ms, 10000);

    const char *count[] = { "count", "--shard", "2/5", NULL };
    assert_int_equal(parse_quietly(count, &out), CLI_PARSED_RUN);
    assert_true(out.solve.split.partial && out.solve.use_split);
    assert_int_equal(out.solve.split.shard.k, 2);

    const char *trace[] = { "trace", "--at", "30,1_0", "--at", "20", NULL };
    assert_int_equal(parse_quietly(trace, &out), CLI_PARSED_RUN);
    assert_int_equal(out.trace.nat, 3);
    assert_int_equal(out.trace.at[0], 10);
    assert_int_equal(out.trace.at[2], 30);
    assert_string_equal(out.trace.common.solver->name, "moler");

    const char *merge[] = { "merge", "--out", "m", "--csv", "a", "b", NULL };
    assert_int_equal(parse_quietly(merge, &out), CLI_PARSED_RUN);
    assert_string_equal(out.merge.out, "m");
    assert_true(out.merge.csv);
    assert_int_equal(out.merge.nshards, 2);

    const char *help[] = { "list", "--csv", "--help", NULL };
    assert_int_equal(parse_quietly(help, &out), CLI_PARSED_HELP);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_is_the_reference_text),
        cmocka_unit_test(help_lists_every_option),
        cmocka_unit_test(tables_are_well_formed),
        cmocka_unit_test(out_of_range_is_refused_as_before),
        cmocka_unit_test(range_ends_are_accepted),
        cmocka_unit_test(options_set_their_fields),
    };
    const struct test_group plain = { "options", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
