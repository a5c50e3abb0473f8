/* sudolab generate: seeded unique puzzles, one per line, after a `#` header
 * that records everything needed to make the same file again. The puzzles
 * are made by scaleout/gen_range.h (threads, or the ranks of sudolab-mpi) and
 * come back in puzzle order, so -j N writes the very bytes -j 1 writes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench_env.h"
#include "cli/cli.h"
#include "cli/cmd_generate.h"
#include "cli/commands.h"
#include "common/corpus.h"
#include "common/io.h"
#include "common/text.h"
#include "config.h"
#include "puzzle/rate.h"
#include "scaleout/dist.h"
#include "solvers/registry.h"

static void print_header(const struct generate_cli *a, const struct gen_range_options *r,
    const struct gen_options *o)
{
    int lo, hi;
    gen_target(o, &lo, &hi);
    printf("# sudolab generate method=%s", gen_method_name(o->method));
    if (!o->holes)
        printf(" level=%s", gen_level_name(o->level));
    printf(" %s=%d", o->method == GEN_DIG ? "holes" : "clues", lo);
    if (hi != lo)
        printf("-%d", hi);
    printf(" size=%dx%d variant=%s symmetric=%s minimal=%s seed=%llu count=%llu",
        o->box_rows, o->box_cols, o->variant == GRID_DIAGONAL ? "diagonal" : "standard",
        o->symmetric ? "yes" : "no", o->minimal ? "yes" : "no",
        (unsigned long long) o->seed, (unsigned long long) a->count);
    if (o->technique_filter)
        printf(" techniques=%s..%s", logic_technique_name(o->min_technique),
            logic_technique_name(o->max_technique));
    if (o->se_filter)
        printf(" se=%d.%d-%d.%d", o->min_se / 10, o->min_se % 10, o->max_se / 10,
            o->max_se % 10);
    if (a->shard)
        printf(" shard=%s", a->shard);
    printf(" solver=%s verifier=%s", o->solver->name, o->verifier->name);
    if (r->rate_methods) {
        char names[64];
        rate_method_names(names, sizeof(names), r->rate_methods);
        /* the rater's version with its options, as `rate` records them */
        printf(" rate=%s rate_version=%s rate_revision=%s", names, SUDOLAB_VERSION,
            bench_env_revision());
        if (r->rate_methods & RATE_GUESSES)
            printf(" rate_solver=%s permutations=%d",
                r->rate_solver ? r->rate_solver->name : "?", r->permutations);
    }
    putchar('\n');
}

/* --shard K/N: the K-th of N consecutive parts */
static int parse_shard(const struct cli_value *v)
{
    struct generate_cli *cli = v->field;
    unsigned long long a, b;
    int used = 0;
    if (sscanf(v->arg, "%llu/%llu%n", &a, &b, &used) != 2 || v->arg[used] || a < 1
        || a > b)
        return CLI_VALUE_BAD;
    cli->shard_k = a;
    cli->shard_n = b;
    cli->shard = v->arg;
    return CLI_VALUE_OK;
}

static int parse_method(const struct cli_value *v)
{
    return gen_parse_method(v->arg, v->field) == 0 ? CLI_VALUE_OK : CLI_VALUE_BAD;
}

static int parse_level(const struct cli_value *v)
{
    return gen_parse_level(v->arg, v->field) == 0 ? CLI_VALUE_OK : CLI_VALUE_BAD;
}

static int parse_size(const struct cli_value *v)
{
    struct gen_options *o = v->field;
    /* the generator's unit masks are uint32_t */
    return grid_parse_box(v->arg, &o->box_rows, &o->box_cols) == 0
            && o->box_rows * o->box_cols <= GRID_MAX_N_MASK32
        ? CLI_VALUE_OK
        : CLI_VALUE_BAD;
}

static int parse_output(const struct cli_value *v)
{
    bool *lewis = v->field;
    if (strcmp(v->arg, "lines") != 0 && strcmp(v->arg, "lewis") != 0)
        return CLI_VALUE_BAD;
    *lewis = strcmp(v->arg, "lewis") == 0;
    return CLI_VALUE_OK;
}

static int parse_variant(const struct cli_value *v)
{
    return cli_read_variant(v->arg, v->field) == 0 ? CLI_VALUE_OK : CLI_VALUE_BAD;
}

/* --climbs 0 would mean the default: the least is one */
static int parse_climbs(const struct cli_value *v)
{
    uint64_t n;
    if (cli_read_number(v, &n) != CLI_VALUE_OK)
        return CLI_VALUE_BAD;
    *(uint32_t *) v->field = n ? (uint32_t) n : 1;
    return CLI_VALUE_OK;
}

/* --min-technique and --max-technique: either one turns the filter on, with
 * the other end open */
static int parse_technique(const struct cli_value *v, bool is_min)
{
    struct gen_options *o = v->field;
    const int t = logic_parse_technique(v->arg);
    if (t < LOGIC_NONE)
        return CLI_VALUE_BAD;
    if (!o->technique_filter) {
        o->technique_filter = true;
        o->min_technique = LOGIC_NONE;
        o->max_technique = LOGIC_TECHNIQUE_COUNT;
    }
    if (is_min)
        o->min_technique = t;
    else
        o->max_technique = t;
    return CLI_VALUE_OK;
}

/* A rating in tenths: "7", "7.2"; -1 when it is not one. */
static int parse_tenths(const char *s, const char **end)
{
    if (*s < '0' || *s > '9')
        return -1;
    int t = 0;
    while (*s >= '0' && *s <= '9' && t < 1000)
        t = t * 10 + (*s++ - '0');
    t *= 10;
    if (*s == '.') {
        s++;
        if (*s < '0' || *s > '9')
            return -1;
        t += *s++ - '0';
    }
    *end = s;
    return t <= 2000 ? t : -1;
}

/* --se MIN-MAX (or one rating): Sudoku Explainer's ER, tenths kept exact */
static int parse_se(const struct cli_value *v)
{
    struct gen_options *o = v->field;
    const char *s = v->arg;
    const int lo = parse_tenths(s, &s);
    if (lo < 0)
        return CLI_VALUE_BAD;
    int hi = lo;
    if (*s == '-' && (hi = parse_tenths(s + 1, &s)) < 0)
        return CLI_VALUE_BAD;
    if (*s || hi < lo)
        return CLI_VALUE_BAD;
    o->se_filter = true;
    o->min_se = lo;
    o->max_se = hi;
    return CLI_VALUE_OK;
}

static int parse_min_technique(const struct cli_value *v)
{
    return parse_technique(v, true);
}

static int parse_max_technique(const struct cli_value *v)
{
    return parse_technique(v, false);
}

#define GEN_FIELD(member) offsetof(struct generate_cli, member)
#define GEN_EXPECT_TECHNIQUE "a technique name (see sudolab rate --help) or guessing"

static const struct cli_option generate_options[] = {
    CLI_LINE(
        "usage: sudolab generate [options]\n"
        "Generates puzzles with a unique solution, one per line after a '#' header."),
    { .kind = CLI_CUSTOM,
        .name = "method",
        .metavar = "M",
        .help = "dig (seed 000: remove clues while unique; default) or\n"
                "seed003 (random clues, fixed to unique, moved into range)",
        .field = GEN_FIELD(opt.method),
        .parse = parse_method,
        .expected = "dig or seed003" },
    { .kind = CLI_CUSTOM,
        .name = "difficulty",
        .alias = "level",
        .metavar = "L",
        .help = "easy, medium (default) or hard. dig: 40/50/60 holes on 9x9;\n"
                "seed003: 36-45, 27-36, 17-27 clues on 9x9. Other sizes keep\n"
                "9x9's ratio to what one pass of digging typically leaves:\n"
                "4x4 8/10/12 holes, 6x6 18/23/27, 16x16 115/143/172 (the\n"
                "header line shows the numbers in force)",
        .field = GEN_FIELD(opt.level),
        .parse = parse_level,
        .expected = "easy, medium or hard" },
    { .kind = CLI_INT,
        .name = "holes",
        .metavar = "N",
        .help = "dig: exactly N holes (with --minimal: at least N)",
        .field = GEN_FIELD(opt.holes),
        .min = 1,
        .max = GRID_MAX_N_MASK32 * GRID_MAX_N_MASK32 - 1,
        .expected = "a hole count" },
    { .kind = CLI_U64,
        .name = "count",
        .metavar = "N",
        .help = "puzzles to make (default 1)",
        .field = GEN_FIELD(count),
        .expected = "a puzzle count" },
    { .kind = CLI_U64,
        .name = "seed",
        .metavar = "S",
        .help = "random seed (default: from the clock; always printed)",
        .field = GEN_FIELD(opt.seed),
        .given = CLI_GIVEN(struct generate_cli, seed_set),
        .expected = "a non-negative integer" },
    { .kind = CLI_FLAG,
        .name = "symmetric",
        .help = "clue pattern symmetric under 180-degree rotation",
        .field = GEN_FIELD(opt.symmetric) },
    { .kind = CLI_FLAG,
        .name = "minimal",
        .help = "no clue can be removed without losing uniqueness",
        .field = GEN_FIELD(opt.minimal) },
    { .kind = CLI_CUSTOM,
        .name = "size",
        .metavar = "RxC",
        .help = "box rows x box columns (default 3x3; 2x2 = 4x4, 2x3 = 6x6;\n"
                "up to 5x5 = 25x25)",
        .field = GEN_FIELD(opt),
        .parse = parse_size,
        .expected = "box rows x box columns up to 5x5, such as 3x3 or 2x3," },
    { .kind = CLI_CUSTOM,
        .name = "variant",
        .metavar = "V",
        .help = "standard or diagonal",
        .field = GEN_FIELD(opt.variant),
        .parse = parse_variant,
        .expected = "standard or diagonal" },
    { .kind = CLI_INT,
        .name = "jobs",
        .letter = 'j',
        .metavar = "N",
        .help = "threads (the output does not depend on N)",
        .field = GEN_FIELD(jobs),
        .min = 1,
        .max = GEN_MAX_JOBS,
        .expected = "a thread count from 1 to 256" },
    { .kind = CLI_CUSTOM,
        .name = "shard",
        .metavar = "K/N",
        .help = "make only the K-th of N equal consecutive parts",
        .field = CLI_WHOLE,
        .parse = parse_shard,
        .expected = "K/N with 1 <= K <= N" },
    { .kind = CLI_CUSTOM,
        .name = "min-technique",
        .metavar = "T",
        .help = "keep only puzzles whose hardest technique (sudolab rate\n"
                "--method techniques) is at least T: naked_single,\n"
                "hidden_single, pointing, claiming, naked_pair, hidden_pair,\n"
                "naked_triple, hidden_triple, x_wing, swordfish, guessing",
        .field = GEN_FIELD(opt),
        .parse = parse_min_technique,
        .expected = GEN_EXPECT_TECHNIQUE },
    { .kind = CLI_CUSTOM,
        .name = "max-technique",
        .metavar = "T",
        .help = "... and at most T",
        .field = GEN_FIELD(opt),
        .parse = parse_max_technique,
        .expected = GEN_EXPECT_TECHNIQUE },
    { .kind = CLI_CUSTOM,
        .name = "se",
        .metavar = "MIN-MAX",
        .help = "keep only 9x9 puzzles whose Sudoku Explainer rating ER\n"
                "(sudolab rate --method se) is in MIN-MAX, e.g. 7.0-8.5",
        .field = GEN_FIELD(opt),
        .parse = parse_se,
        .expected = "MIN-MAX ratings such as 7.0-8.5 (one decimal, MIN <= MAX <= 20.0)" },
    { .kind = CLI_CUSTOM,
        .name = "rate",
        .metavar = "METHODS",
        .help = "append ratings: blanks,freedom,guesses,techniques or all",
        .field = GEN_FIELD(rate_methods),
        .parse = cli_parse_rate_methods,
        .expected = "blanks, freedom, guesses, techniques or all" },
    { .kind = CLI_INT,
        .name = "permutations",
        .metavar = "K",
        .help = "permutations for the guesses rating (default 10)",
        .field = GEN_FIELD(permutations),
        .min = 1,
        .max = 100000,
        .expected = "a count from 1" },
    { .kind = CLI_CUSTOM,
        .name = "solver",
        .metavar = "NAME",
        .help = "back end for uniqueness while generating",
        .field = GEN_FIELD(opt.solver),
        .parse = cli_parse_solver },
    { .kind = CLI_CUSTOM,
        .name = "verifier",
        .metavar = "NAME",
        .help = "back end for the final check (must differ)",
        .field = GEN_FIELD(opt.verifier),
        .parse = cli_parse_solver },
    { .kind = CLI_U32,
        .name = "attempts",
        .metavar = "N",
        .help = "fresh grids per puzzle before giving up (default 500)",
        .field = GEN_FIELD(opt.max_attempts),
        .min = 1,
        .expected = "a count from 1" },
    { .kind = CLI_CUSTOM,
        .name = "climbs",
        .metavar = "N",
        .help = "dig: clue swaps per grid when short of holes (default 60,\n"
                "300 with --symmetric)",
        .field = GEN_FIELD(opt.climbs),
        .parse = parse_climbs,
        .max = UINT32_MAX,
        .expected = "a count" },
    { .kind = CLI_FLAG,
        .name = "stats",
        .help = "print work counters and the rate to stderr",
        .field = GEN_FIELD(stats) },
    { .kind = CLI_CUSTOM,
        .name = "output",
        .metavar = "O",
        .help = "lines (default) or lewis: each puzzle in Lewis's\n"
                "instance format after a '# puzzle-N' line that\n"
                "names it (square boxes)",
        .field = GEN_FIELD(output_lewis),
        .parse = parse_output,
        .expected = "lines or lewis" },
    CLI_OPTION_HELP,
};

const struct cli_table generate_table = CLI_TABLE("sudolab generate", generate_options);

enum cli_parsed generate_parse(int argc, char **argv, struct generate_cli *out)
{
    memset(out, 0, sizeof(*out));
    out->opt.box_rows = 3;
    out->opt.box_cols = 3;
    out->opt.level = GEN_MEDIUM;
    out->count = 1;
    out->jobs = 1;
    out->permutations = 10;
    out->shard_k = out->shard_n = 1;
    int first;
    const enum cli_parsed p = cli_parse(&generate_table, argc, argv, out, NULL, &first);
    if (p != CLI_PARSED_RUN)
        return p;
    if (first < argc) {
        fprintf(stderr, "sudolab generate: unexpected argument '%s'\n", argv[first]);
        return CLI_PARSED_ERROR;
    }
    if (out->output_lewis && out->opt.box_rows != out->opt.box_cols) {
        fprintf(stderr,
            "sudolab generate: --output lewis needs square boxes (2x2, 3x3, 4x4 or "
            "5x5), not %dx%d\n",
            out->opt.box_rows, out->opt.box_cols);
        return CLI_PARSED_ERROR;
    }
    if (out->opt.holes && out->opt.method != GEN_DIG) {
        fprintf(stderr, "sudolab generate: --holes is for --method dig\n");
        return CLI_PARSED_ERROR;
    }
    return CLI_PARSED_RUN;
}

/* generate's output: the puzzles in order, until one fails. */
struct gen_printer {
    uint64_t made;
    bool failed;
    bool lewis; /* --output lewis */
};

static bool print_puzzle(void *ctx, const struct gen_result *r)
{
    struct gen_printer *p = ctx;
    if (r->failed) {
        fprintf(stderr, "sudolab generate: puzzle %llu: %s\n",
            (unsigned long long) (r->number + 1), r->why);
        p->failed = true;
        return false;
    }
    if (p->lewis) {
        char name[CORPUS_NAME_MAX + GEN_RATE_TEXT];
        snprintf(name, sizeof(name), "puzzle-%llu%s",
            (unsigned long long) (r->number + 1), r->rating);
        corpus_write_lewis(stdout, &r->puzzle, name);
    } else {
        char line[GRID_MAX_CELLS + 1];
        grid_format_line(&r->puzzle, line);
        printf("%s%s\n", line, r->rating);
    }
    p->made++;
    return true;
}

static void print_stats(
    const struct generate_cli *a, uint64_t count, uint64_t ns, const struct gen_stats *s)
{
    const double secs = (double) ns / 1e9;
    const int jobs = a->jobs;
    fprintf(stderr,
        "sudolab generate: %llu puzzles in %.3f s (%.1f puzzles/s, %d thread%s)\n",
        (unsigned long long) count, secs, secs > 0 ? (double) count / secs : 0.0, jobs,
        jobs == 1 ? "" : "s");
    fprintf(stderr,
        "sudolab generate: %llu grids/clue sets, %llu uniqueness solves, %llu "
        "removals "
        "without a solve, %llu climbs, %llu rejected by technique, verification "
        "%.3f ms in all\n",
        (unsigned long long) s->grids, (unsigned long long) s->checks,
        (unsigned long long) s->shortcuts, (unsigned long long) s->climbs,
        (unsigned long long) s->rejected, (double) s->verify_ns / 1e6);
}

int generate_run(const struct generate_cli *a)
{
    struct gen_range_options ro
        = { a->opt, a->rate_methods, NULL, a->permutations, a->jobs };
    if (a->rate_methods & RATE_GUESSES) {
        ro.rate_solver = rate_guess_solver();
        if (!ro.rate_solver) {
            fprintf(dist_messages(),
                "sudolab generate: --rate guesses: no back end reports guesses\n");
            return CLI_USAGE;
        }
    }
    if (!a->seed_set)
        ro.gen.seed = clock_now_ns() ^ ((uint64_t) getpid() << 32);
    /* shard K/N: the K-th of N consecutive, near-equal runs of puzzle numbers */
    const uint64_t n = a->shard_n, k0 = a->shard_k - 1, rest = a->count % n;
    const uint64_t first = a->count / n * k0 + (k0 < rest ? k0 : rest);
    const uint64_t count = a->count / n + (k0 < rest ? 1 : 0);
    char why[640];
    struct gen_range *g = gen_range_open(&ro, why, sizeof(why));
    if (!g) {
        fprintf(dist_messages(), "sudolab generate: %s\n", why);
        return CLI_USAGE;
    }
    if (dist_output())
        print_header(a, &ro, gen_range_options(g));
    struct gen_printer p = { 0, false, a->output_lewis };
    struct gen_stats stats;
    const uint64_t start_ns = clock_now_ns();
    const int rc = dist_generate(g, first, count, print_puzzle, &p, &stats);
    io_flush_stdout();
    if (a->stats && dist_output())
        print_stats(a, count, clock_now_ns() - start_ns, &stats);
    gen_range_close(g);
    return rc != 0 || p.failed ? CLI_SKIPPED : CLI_OK;
}

int cmd_generate(int argc, char **argv)
{
    struct generate_cli cli;
    const enum cli_parsed p = generate_parse(argc, argv, &cli);
    if (p == CLI_PARSED_HELP)
        cli_help(&generate_table, stdout);
    return p == CLI_PARSED_RUN ? generate_run(&cli) : cli_parsed_status(p);
}
