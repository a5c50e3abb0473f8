/* sudolab generate: seeded unique puzzles, one per line, after a `#` header
 * that records everything needed to make the same file again. Threads take
 * puzzle numbers from a shared counter in blocks; output stays in puzzle
 * order, so -j N writes the very bytes -j 1 writes. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "puzzle/generate.h"
#include "puzzle/rate.h"
#include "solvers/registry.h"
#include "common/text.h"

enum { GEN_BLOCK = 256, GEN_MAX_JOBS = 256, GEN_RATE_TEXT = 640 };

struct gen_slot {
    struct grid puzzle;
    char rating[GEN_RATE_TEXT];
    int failed;
    char why[640];
};

struct gen_run {
    struct gen_options opt;
    uint64_t count, first; /* puzzles first .. first + count - 1 */
    unsigned rate_methods;
    int permutations;
    int jobs;
    const struct solver *rate_solver;
    /* the block being made */
    struct gen_slot *slots;
    uint64_t block_start, block_len;
    uint64_t next;
    pthread_mutex_t lock;
    struct gen_stats total;
};

struct gen_worker {
    struct gen_run *run;
    struct generator *gen;
    struct rater rater;
    bool rating;
};

static void make_one(struct gen_worker *w, uint64_t k)
{
    struct gen_run *run = w->run;
    struct gen_slot *slot = &run->slots[k - run->block_start];
    slot->failed = 0;
    slot->rating[0] = '\0';
    if (gen_make(w->gen, run->first + k, &slot->puzzle, NULL) != 0) {
        slot->failed = 1;
        snprintf(slot->why, sizeof(slot->why), "%s", gen_error(w->gen));
        return;
    }
    if (w->rating) {
        struct rate_values v;
        rater_rate(&w->rater, &slot->puzzle, &v);
        rate_format(slot->rating, sizeof(slot->rating), &v, run->rate_methods, false);
    }
}

static void *worker_main(void *arg)
{
    struct gen_worker *w = arg;
    struct gen_run *run = w->run;
    for (;;) {
        pthread_mutex_lock(&run->lock);
        const uint64_t k = run->next++;
        pthread_mutex_unlock(&run->lock);
        if (k >= run->block_start + run->block_len)
            return NULL;
        make_one(w, k);
    }
}

static int open_worker(struct gen_worker *w, struct gen_run *run)
{
    char why[200];
    memset(w, 0, sizeof(*w));
    w->run = run;
    w->gen = gen_open(&run->opt, why, sizeof(why));
    if (!w->gen) {
        fprintf(stderr, "sudolab generate: %s\n", why);
        return -1;
    }
    if (run->rate_methods) {
        if (rater_open(&w->rater, run->rate_methods, run->rate_solver, run->permutations,
                run->opt.seed, why, sizeof(why))
            != 0) {
            fprintf(stderr, "sudolab generate: --rate: %s\n", why);
            gen_close(w->gen);
            return -1;
        }
        w->rating = true;
    }
    return 0;
}

static void close_worker(struct gen_worker *w, struct gen_stats *total)
{
    const struct gen_stats *s = gen_stats(w->gen);
    total->puzzles += s->puzzles;
    total->grids += s->grids;
    total->checks += s->checks;
    total->shortcuts += s->shortcuts;
    total->climbs += s->climbs;
    total->rejected += s->rejected;
    total->verify_ns += s->verify_ns;
    if (w->rating)
        rater_close(&w->rater);
    gen_close(w->gen);
}

static void print_header(
    const struct gen_run *run, const struct generator *g, const char *shard)
{
    const struct gen_options *o = gen_options(g);
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
        (unsigned long long) o->seed, (unsigned long long) run->count);
    if (o->technique_filter)
        printf(" techniques=%s..%s", logic_technique_name(o->min_technique),
            logic_technique_name(o->max_technique));
    if (shard)
        printf(" shard=%s", shard);
    printf(" solver=%s verifier=%s", o->solver->name, o->verifier->name);
    if (run->rate_methods) {
        char names[64];
        rate_method_names(names, sizeof(names), run->rate_methods);
        printf(" rate=%s", names);
        if (run->rate_methods & RATE_GUESSES)
            printf(" rate_solver=%s permutations=%d",
                run->rate_solver ? run->rate_solver->name : "?", run->permutations);
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
    return CLI_USAGE;
}

static int run_blocks(struct gen_run *run, struct gen_worker *workers, bool stats)
{
    pthread_t threads[GEN_MAX_JOBS];
    char line[GRID_MAX_CELLS + 1];
    const uint64_t start_ns = clock_now_ns();
    int status = CLI_OK;
    for (uint64_t b = 0; b < run->count && status == CLI_OK; b += GEN_BLOCK) {
        run->block_start = b;
        run->block_len = run->count - b < GEN_BLOCK ? run->count - b : GEN_BLOCK;
        run->next = b;
        if (run->jobs == 1) {
            worker_main(&workers[0]);
        } else {
            int started = 0;
            for (int t = 0; t < run->jobs; t++) {
                if (pthread_create(&threads[t], NULL, worker_main, &workers[t]) != 0)
                    break;
                started++;
            }
            if (started == 0)
                worker_main(&workers[0]);
            for (int t = 0; t < started; t++)
                pthread_join(threads[t], NULL);
        }
        for (uint64_t k = 0; k < run->block_len; k++) {
            const struct gen_slot *slot = &run->slots[k];
            if (slot->failed) {
                fprintf(stderr, "sudolab generate: puzzle %llu: %s\n",
                    (unsigned long long) (run->first + b + k + 1), slot->why);
                status = CLI_SKIPPED;
                break;
            }
            grid_format_line(&slot->puzzle, line);
            printf("%s%s\n", line, slot->rating);
        }
        fflush(stdout);
    }
    if (stats) {
        const double secs = (double) (clock_now_ns() - start_ns) / 1e9;
        fprintf(stderr,
            "sudolab generate: %llu puzzles in %.3f s (%.1f puzzles/s, %d thread%s)\n",
            (unsigned long long) run->count, secs,
            secs > 0 ? (double) run->count / secs : 0.0, run->jobs,
            run->jobs == 1 ? "" : "s");
    }
    return status;
}

int cmd_generate(int argc, char **argv)
{
    struct gen_run run;
    memset(&run, 0, sizeof(run));
    run.opt.box_rows = 3;
    run.opt.box_cols = 3;
    run.opt.level = GEN_MEDIUM;
    run.count = 1;
    run.jobs = 1;
    run.permutations = 10;
    bool seed_set = false, stats = false;
    const char *shard = NULL;
    uint64_t shard_k = 1, shard_n = 1;
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
            if (gen_parse_method(optarg, &run.opt.method) != 0)
                return bad("method", optarg, "dig or seed003");
            break;
        case OPT_DIFFICULTY:
            if (gen_parse_level(optarg, &run.opt.level) != 0)
                return bad("difficulty", optarg, "easy, medium or hard");
            break;
        case OPT_HOLES:
            if (text_parse_u64(optarg, &value) != 0 || value < 1
                || value >= GRID_MAX_CELLS)
                return bad("holes", optarg, "a hole count");
            run.opt.holes = (int) value;
            break;
        case OPT_COUNT:
            if (text_parse_u64(optarg, &run.count) != 0)
                return bad("count", optarg, "a puzzle count");
            break;
        case OPT_SEED:
            if (text_parse_u64(optarg, &run.opt.seed) != 0)
                return bad("seed", optarg, "a non-negative integer");
            seed_set = true;
            break;
        case OPT_SYMMETRIC:
            run.opt.symmetric = true;
            break;
        case OPT_MINIMAL:
            run.opt.minimal = true;
            break;
        case OPT_SIZE:
            if (grid_parse_box(optarg, &run.opt.box_rows, &run.opt.box_cols) != 0)
                return bad("size", optarg, "box rows x box columns, such as 3x3 or 2x3,");
            break;
        case OPT_VARIANT:
            if (strcmp(optarg, "standard") == 0)
                run.opt.variant = GRID_STANDARD;
            else if (strcmp(optarg, "diagonal") == 0 || strcmp(optarg, "x") == 0)
                run.opt.variant = GRID_DIAGONAL;
            else
                return bad("variant", optarg, "standard or diagonal");
            break;
        case 'j':
            if (text_parse_u64(optarg, &value) != 0 || value < 1 || value > GEN_MAX_JOBS)
                return bad("jobs", optarg, "a thread count from 1 to 256");
            run.jobs = (int) value;
            break;
        case OPT_SHARD:
            if (parse_shard(optarg, &shard_k, &shard_n) != 0)
                return bad("shard", optarg, "K/N with 1 <= K <= N");
            shard = optarg;
            break;
        case OPT_RATE:
            if (rate_parse_methods(optarg, &run.rate_methods) != 0)
                return bad("rate", optarg, "blanks, freedom, guesses, techniques or all");
            break;
        case OPT_PERMUTATIONS:
            if (text_parse_u64(optarg, &value) != 0 || value < 1 || value > 100000)
                return bad("permutations", optarg, "a count from 1");
            run.permutations = (int) value;
            break;
        case OPT_SOLVER:
        case OPT_VERIFIER: {
            const struct solver *s = solver_find(optarg);
            if (!s) {
                fprintf(stderr,
                    "sudolab generate: no solver named '%s' (see `sudolab list`)\n",
                    optarg);
                return CLI_USAGE;
            }
            if (opt == OPT_SOLVER)
                run.opt.solver = s;
            else
                run.opt.verifier = s;
            break;
        }
        case OPT_ATTEMPTS:
            if (text_parse_u64(optarg, &value) != 0 || value < 1 || value > UINT32_MAX)
                return bad("attempts", optarg, "a count from 1");
            run.opt.max_attempts = (uint32_t) value;
            break;
        case OPT_CLIMBS:
            if (text_parse_u64(optarg, &value) != 0 || value > UINT32_MAX)
                return bad("climbs", optarg, "a count");
            run.opt.climbs = value ? (uint32_t) value : 1;
            break;
        case OPT_STATS:
            stats = true;
            break;
        case OPT_MIN_TECHNIQUE:
        case OPT_MAX_TECHNIQUE: {
            const int t = logic_parse_technique(optarg);
            if (t < LOGIC_NONE)
                return bad(opt == OPT_MIN_TECHNIQUE ? "min-technique" : "max-technique",
                    optarg, "a technique name (see sudolab rate --help) or guessing");
            if (!run.opt.technique_filter) {
                run.opt.technique_filter = true;
                run.opt.min_technique = LOGIC_NONE;
                run.opt.max_technique = LOGIC_TECHNIQUE_COUNT;
            }
            if (opt == OPT_MIN_TECHNIQUE)
                run.opt.min_technique = t;
            else
                run.opt.max_technique = t;
            break;
        }
        case OPT_HELP:
            usage(stdout);
            return CLI_OK;
        default:
            fprintf(stderr, "sudolab generate: unknown option (see --help)\n");
            return CLI_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "sudolab generate: unexpected argument '%s'\n", argv[optind]);
        return CLI_USAGE;
    }
    if (run.opt.holes && run.opt.method != GEN_DIG) {
        fprintf(stderr, "sudolab generate: --holes is for --method dig\n");
        return CLI_USAGE;
    }
    if (!seed_set)
        run.opt.seed = clock_now_ns() ^ ((uint64_t) getpid() << 32);
    if (run.rate_methods & RATE_GUESSES) {
        run.rate_solver = rate_guess_solver();
        if (!run.rate_solver) {
            fprintf(stderr,
                "sudolab generate: --rate guesses: no back end reports guesses\n");
            return CLI_USAGE;
        }
    }
    /* shard K/N: the K-th of N consecutive, near-equal runs of puzzle numbers */
    const uint64_t total = run.count;
    const uint64_t rest = total % shard_n, k0 = shard_k - 1;
    run.first = total / shard_n * k0 + (k0 < rest ? k0 : rest);
    run.count = total / shard_n + (k0 < rest ? 1 : 0);

    struct gen_worker *workers = calloc((size_t) run.jobs, sizeof(*workers));
    run.slots = calloc(GEN_BLOCK, sizeof(*run.slots));
    if (!workers || !run.slots) {
        fprintf(stderr, "sudolab generate: out of memory\n");
        free(workers);
        free(run.slots);
        return CLI_SKIPPED;
    }
    int opened = 0;
    while (opened < run.jobs && open_worker(&workers[opened], &run) == 0)
        opened++;
    int status = CLI_USAGE;
    if (opened == run.jobs) {
        /* the workers agree on the back ends: print the options in force */
        run.opt = *gen_options(workers[0].gen);
        const uint64_t saved = run.count;
        run.count = total;
        print_header(&run, workers[0].gen, shard);
        run.count = saved;
        pthread_mutex_init(&run.lock, NULL);
        status = run_blocks(&run, workers, stats);
        pthread_mutex_destroy(&run.lock);
    }
    for (int t = 0; t < opened; t++)
        close_worker(&workers[t], &run.total);
    if (stats && opened == run.jobs) {
        const struct gen_stats *s = &run.total;
        fprintf(stderr,
            "sudolab generate: %llu grids/clue sets, %llu uniqueness solves, %llu "
            "removals "
            "without a solve, %llu climbs, %llu rejected by technique, verification "
            "%.3f ms in all\n",
            (unsigned long long) s->grids, (unsigned long long) s->checks,
            (unsigned long long) s->shortcuts, (unsigned long long) s->climbs,
            (unsigned long long) s->rejected, (double) s->verify_ns / 1e6);
    }
    free(workers);
    free(run.slots);
    return status;
}
