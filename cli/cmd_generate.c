/* sudolab generate: seeded unique puzzles, one per line, after a `#` header
 * that records everything needed to make the same file again. The puzzles
 * are made by dist/gen_range.h (threads, or the ranks of sudolab-mpi) and
 * come back in puzzle order, so -j N writes the very bytes -j 1 writes. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_generate.h"
#include "cli/commands.h"
#include "common/text.h"
#include "dist/dist.h"
#include "puzzle/rate.h"
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
    if (a->shard)
        printf(" shard=%s", a->shard);
    printf(" solver=%s verifier=%s", o->solver->name, o->verifier->name);
    if (r->rate_methods) {
        char names[64];
        rate_method_names(names, sizeof(names), r->rate_methods);
        printf(" rate=%s", names);
        if (r->rate_methods & RATE_GUESSES)
            printf(" rate_solver=%s permutations=%d",
                r->rate_solver ? r->rate_solver->name : "?", r->permutations);
    }
    putchar('\n');
}

static const char *const usage_lines[] = {
    "usage: sudolab generate [options]",
    "Generates puzzles with a unique solution, one per line after a '#' header.",
    "  --method M          dig (seed 000: remove clues while unique; default) or",
    "                      seed003 (random clues, fixed to unique, moved into range)",
    "  --difficulty L      easy, medium (default) or hard. dig: 40/50/60 holes on 9x9;",
    "                      seed003: 36-45, 27-36, 17-27 clues on 9x9. Other sizes keep",
    "                      9x9's ratio to what one pass of digging typically leaves:",
    "                      4x4 8/10/12 holes, 6x6 18/23/27, 16x16 115/143/172 (the",
    "                      header line shows the numbers in force)",
    "  --holes N           dig: exactly N holes (with --minimal: at least N)",
    "  --count N           puzzles to make (default 1)",
    "  --seed S            random seed (default: from the clock; always printed)",
    "  --symmetric         clue pattern symmetric under 180-degree rotation",
    "  --minimal           no clue can be removed without losing uniqueness",
    "  --size RxC          box rows x box columns (default 3x3; 2x2 = 4x4, 2x3 = 6x6)",
    "  --variant V         standard or diagonal",
    "  -j, --jobs N        threads (the output does not depend on N)",
    "  --shard K/N         make only the K-th of N equal consecutive parts",
    "  --min-technique T   keep only puzzles whose hardest technique (sudolab rate",
    "                      --method techniques) is at least T: naked_single,",
    "                      hidden_single, pointing, claiming, naked_pair, hidden_pair,",
    "                      naked_triple, hidden_triple, x_wing, swordfish, guessing",
    "  --max-technique T   ... and at most T",
    "  --rate METHODS      append ratings: blanks,freedom,guesses,techniques or all",
    "  --permutations K    permutations for the guesses rating (default 10)",
    "  --solver NAME       back end for uniqueness while generating",
    "  --verifier NAME     back end for the final check (must differ)",
    "  --attempts N        fresh grids per puzzle before giving up (default 500)",
    "  --climbs N          dig: clue swaps per grid when short of holes (default 60,",
    "                      300 with --symmetric)",
    "  --stats             print work counters and the rate to stderr",
};

static void usage(FILE *out)
{
    for (size_t i = 0; i < sizeof(usage_lines) / sizeof(usage_lines[0]); i++)
        fprintf(out, "%s\n", usage_lines[i]);
}

static int parse_shard(const char *text, uint64_t *k, uint64_t *n)
{
    unsigned long long a, b;
    int used = 0;
    if (sscanf(text, "%llu/%llu%n", &a, &b, &used) != 2 || text[used] || a < 1 || a > b)
        return -1;
    *k = a;
    *n = b;
    return 0;
}

static int bad(const char *option, const char *arg, const char *expected)
{
    fprintf(stderr, "sudolab generate: --%s %s: %s expected\n", option, arg, expected);
    return -1;
}

int generate_parse(int argc, char **argv, struct generate_cli *a)
{
    memset(a, 0, sizeof(*a));
    a->opt.box_rows = 3;
    a->opt.box_cols = 3;
    a->opt.level = GEN_MEDIUM;
    a->count = 1;
    a->jobs = 1;
    a->permutations = 10;
    a->shard_k = 1;
    a->shard_n = 1;
    enum {
        OPT_METHOD = CLI_OPT_FIRST_FREE,
        OPT_DIFFICULTY,
        OPT_HOLES,
        OPT_COUNT,
        OPT_SEED,
        OPT_SYMMETRIC,
        OPT_MINIMAL,
        OPT_SIZE,
        OPT_VARIANT,
        OPT_SHARD,
        OPT_RATE,
        OPT_PERMUTATIONS,
        OPT_SOLVER,
        OPT_VERIFIER,
        OPT_ATTEMPTS,
        OPT_CLIMBS,
        OPT_STATS,
        OPT_MIN_TECHNIQUE,
        OPT_MAX_TECHNIQUE,
        OPT_HELP,
    };
    static const struct option longopts[] = {
        { "method", required_argument, NULL, OPT_METHOD },
        { "difficulty", required_argument, NULL, OPT_DIFFICULTY },
        { "level", required_argument, NULL, OPT_DIFFICULTY },
        { "holes", required_argument, NULL, OPT_HOLES },
        { "count", required_argument, NULL, OPT_COUNT },
        { "seed", required_argument, NULL, OPT_SEED },
        { "symmetric", no_argument, NULL, OPT_SYMMETRIC },
        { "minimal", no_argument, NULL, OPT_MINIMAL },
        { "size", required_argument, NULL, OPT_SIZE },
        { "variant", required_argument, NULL, OPT_VARIANT },
        { "jobs", required_argument, NULL, 'j' },
        { "shard", required_argument, NULL, OPT_SHARD },
        { "rate", required_argument, NULL, OPT_RATE },
        { "permutations", required_argument, NULL, OPT_PERMUTATIONS },
        { "solver", required_argument, NULL, OPT_SOLVER },
        { "verifier", required_argument, NULL, OPT_VERIFIER },
        { "attempts", required_argument, NULL, OPT_ATTEMPTS },
        { "climbs", required_argument, NULL, OPT_CLIMBS },
        { "stats", no_argument, NULL, OPT_STATS },
        { "min-technique", required_argument, NULL, OPT_MIN_TECHNIQUE },
        { "max-technique", required_argument, NULL, OPT_MAX_TECHNIQUE },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    int opt;
    uint64_t value;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "j:", longopts, NULL)) != -1) {
        switch (opt) {
        case OPT_METHOD:
            if (gen_parse_method(optarg, &a->opt.method) != 0)
                return bad("method", optarg, "dig or seed003");
            break;
        case OPT_DIFFICULTY:
            if (gen_parse_level(optarg, &a->opt.level) != 0)
                return bad("difficulty", optarg, "easy, medium or hard");
            break;
        case OPT_HOLES:
            if (text_parse_u64(optarg, &value) != 0 || value < 1
                || value >= GRID_MAX_CELLS)
                return bad("holes", optarg, "a hole count");
            a->opt.holes = (int) value;
            break;
        case OPT_COUNT:
            if (text_parse_u64(optarg, &a->count) != 0)
                return bad("count", optarg, "a puzzle count");
            break;
        case OPT_SEED:
            if (text_parse_u64(optarg, &a->opt.seed) != 0)
                return bad("seed", optarg, "a non-negative integer");
            a->seed_set = true;
            break;
        case OPT_SYMMETRIC:
            a->opt.symmetric = true;
            break;
        case OPT_MINIMAL:
            a->opt.minimal = true;
            break;
        case OPT_SIZE:
            if (grid_parse_box(optarg, &a->opt.box_rows, &a->opt.box_cols) != 0)
                return bad("size", optarg, "box rows x box columns, such as 3x3 or 2x3,");
            break;
        case OPT_VARIANT:
            if (strcmp(optarg, "standard") == 0)
                a->opt.variant = GRID_STANDARD;
            else if (strcmp(optarg, "diagonal") == 0 || strcmp(optarg, "x") == 0)
                a->opt.variant = GRID_DIAGONAL;
            else
                return bad("variant", optarg, "standard or diagonal");
            break;
        case 'j':
            if (text_parse_u64(optarg, &value) != 0 || value < 1 || value > GEN_MAX_JOBS)
                return bad("jobs", optarg, "a thread count from 1 to 256");
            a->jobs = (int) value;
            break;
        case OPT_SHARD:
            if (parse_shard(optarg, &a->shard_k, &a->shard_n) != 0)
                return bad("shard", optarg, "K/N with 1 <= K <= N");
            a->shard = optarg;
            break;
        case OPT_RATE:
            if (rate_parse_methods(optarg, &a->rate_methods) != 0)
                return bad("rate", optarg, "blanks, freedom, guesses, techniques or all");
            break;
        case OPT_PERMUTATIONS:
            if (text_parse_u64(optarg, &value) != 0 || value < 1 || value > 100000)
                return bad("permutations", optarg, "a count from 1");
            a->permutations = (int) value;
            break;
        case OPT_SOLVER:
        case OPT_VERIFIER: {
            const struct solver *s = solver_find(optarg);
            if (!s) {
                fprintf(stderr,
                    "sudolab generate: no solver named '%s' (see `sudolab list`)\n",
                    optarg);
                return -1;
            }
            if (opt == OPT_SOLVER)
                a->opt.solver = s;
            else
                a->opt.verifier = s;
            break;
        }
        case OPT_ATTEMPTS:
            if (text_parse_u64(optarg, &value) != 0 || value < 1 || value > UINT32_MAX)
                return bad("attempts", optarg, "a count from 1");
            a->opt.max_attempts = (uint32_t) value;
            break;
        case OPT_CLIMBS:
            if (text_parse_u64(optarg, &value) != 0 || value > UINT32_MAX)
                return bad("climbs", optarg, "a count");
            a->opt.climbs = value ? (uint32_t) value : 1;
            break;
        case OPT_STATS:
            a->stats = true;
            break;
        case OPT_MIN_TECHNIQUE:
        case OPT_MAX_TECHNIQUE: {
            const int t = logic_parse_technique(optarg);
            if (t < LOGIC_NONE)
                return bad(opt == OPT_MIN_TECHNIQUE ? "min-technique" : "max-technique",
                    optarg, "a technique name (see sudolab rate --help) or guessing");
            if (!a->opt.technique_filter) {
                a->opt.technique_filter = true;
                a->opt.min_technique = LOGIC_NONE;
                a->opt.max_technique = LOGIC_TECHNIQUE_COUNT;
            }
            if (opt == OPT_MIN_TECHNIQUE)
                a->opt.min_technique = t;
            else
                a->opt.max_technique = t;
            break;
        }
        case OPT_HELP:
            usage(stdout);
            return 1;
        default:
            fprintf(stderr, "sudolab generate: unknown option (see --help)\n");
            return -1;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "sudolab generate: unexpected argument '%s'\n", argv[optind]);
        return -1;
    }
    if (a->opt.holes && a->opt.method != GEN_DIG) {
        fprintf(stderr, "sudolab generate: --holes is for --method dig\n");
        return -1;
    }
    if ((a->rate_methods & RATE_GUESSES) && !rate_guess_solver()) {
        fprintf(
            stderr, "sudolab generate: --rate guesses: no back end reports guesses\n");
        return -1;
    }
    return 0;
}

/* generate's output: the puzzles in order, until one fails. */
struct gen_printer {
    uint64_t made;
    bool failed;
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
    char line[GRID_MAX_CELLS + 1];
    grid_format_line(&r->puzzle, line);
    printf("%s%s\n", line, r->rating);
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
    struct gen_range_options ro = { a->opt, a->rate_methods,
        a->rate_methods & RATE_GUESSES ? rate_guess_solver() : NULL, a->permutations,
        a->jobs };
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
    struct gen_printer p = { 0, false };
    struct gen_stats stats;
    const uint64_t start_ns = clock_now_ns();
    const int rc = dist_generate(g, first, count, print_puzzle, &p, &stats);
    fflush(stdout);
    if (a->stats && dist_output())
        print_stats(a, count, clock_now_ns() - start_ns, &stats);
    gen_range_close(g);
    return rc != 0 || p.failed ? CLI_SKIPPED : CLI_OK;
}

int cmd_generate(int argc, char **argv)
{
    struct generate_cli a;
    const int parsed = generate_parse(argc, argv, &a);
    if (parsed != 0)
        return parsed > 0 ? CLI_OK : CLI_USAGE;
    return generate_run(&a);
}
