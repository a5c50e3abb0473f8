/* sudolab levels: the reasoning ladder (puzzle/levels.h), one CSV row per
 * puzzle. The walk gathers the puzzles of one input in batches; the -j
 * workers of the common pool take a batch's puzzles, each with its own
 * struct levels, and the rows are printed in input order, so the output does
 * not depend on -j. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_levels.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/pool.h"
#include "puzzle/levels.h"

enum { LEVELS_BATCH = 1024, LEVELS_MAX_JOBS = 256, LEVELS_LINE = 1024 };

/* Per SAT level and puzzle, unless --budget-steps says otherwise: far above
 * what any level takes on 9x9 (hbr_ext, the dearest, stays below 10^6 on the
 * hardest corpora), a guard for large grids. */
#define LEVELS_DEFAULT_BUDGET_STEPS 100000000u

struct levels_cli {
    struct cli_common common;
    int jobs;
    bool show_puzzle;
    int nfiles;
    char **files;
};

struct levels_item {
    struct grid g;
    unsigned long index;
    bool ok;
    char line[LEVELS_LINE];
};

struct levels_run {
    const struct levels_cli *cli;
    struct levels_budget budget;
    struct pool *pool;
    struct levels **lv; /* [workers] */
    struct levels_item *batch; /* [LEVELS_BATCH] */
    size_t nbatch;
    char corpus[256]; /* the batch's input, its last path component */
    unsigned long failures;
};

static const char *levels_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

static void levels_header(const struct levels_cli *cli)
{
    printf("corpus,index,human,cp,sat");
    for (int k = 0; k < LEVELS_HUMAN_COUNT; k++)
        printf(",%s", levels_human_name(k));
    for (int k = 0; k < LEVELS_CP_COUNT; k++)
        printf(",%s", levels_cp_name(k));
    for (int k = 0; k < LEVELS_SAT_COUNT; k++)
        printf(",%s", levels_sat_name(k));
    printf(",logic,se_er,se_technique%s\n", cli->show_puzzle ? ",puzzle" : "");
}

static void levels_format(const struct levels_run *run, const struct levels_item *it,
    const struct levels_result *r, char *out, size_t len)
{
    size_t n = (size_t) snprintf(out, len, "%s,%lu,%s,%s,%s", run->corpus, it->index,
        levels_human_name(r->human_level), levels_cp_name(r->cp_level),
        levels_sat_name(r->sat_level));
    for (int k = 0; k < LEVELS_HUMAN_COUNT && n < len; k++)
        n += (size_t) snprintf(out + n, len - n, ",%s", levels_outcome_name(r->human[k]));
    for (int k = 0; k < LEVELS_CP_COUNT && n < len; k++)
        n += (size_t) snprintf(out + n, len - n, ",%s", levels_outcome_name(r->cp[k]));
    for (int k = 0; k < LEVELS_SAT_COUNT && n < len; k++)
        n += (size_t) snprintf(out + n, len - n, ",%s", levels_outcome_name(r->sat[k]));
    char er[16] = "";
    const char *tech = "";
    if (r->se.verdict == SE_RATED) {
        snprintf(er, sizeof(er), "%d.%d", r->se.er / 10, r->se.er % 10);
        tech = se_technique_name(r->se.er_tech);
    }
    if (n < len)
        n += (size_t) snprintf(out + n, len - n, ",%s,%s,%s",
            logic_technique_name(r->logic.hardest), er, tech);
    if (run->cli->show_puzzle && n < len) {
        char line[GRID_MAX_CELLS + 1];
        grid_format_line(&it->g, line);
        n += (size_t) snprintf(out + n, len - n, ",%s", line);
    }
    if (n + 1 < len) {
        out[n] = '\n';
        out[n + 1] = '\0';
    }
}

static bool levels_item_run(void *ctx, unsigned worker, size_t i)
{
    struct levels_run *run = ctx;
    struct levels_item *it = &run->batch[i];
    if (!it->ok)
        return true;
    struct levels_result r;
    if (levels_run(run->lv[worker], &it->g, &run->budget, &r) != 0) {
        snprintf(
            it->line, sizeof(it->line), "%s,%lu,out of memory\n", run->corpus, it->index);
        return true;
    }
    levels_format(run, it, &r, it->line, sizeof(it->line));
    return true;
}

static void levels_flush(struct levels_run *run)
{
    pool_for_each(run->pool, run->nbatch, levels_item_run, run);
    for (size_t i = 0; i < run->nbatch; i++) {
        if (run->batch[i].ok)
            fputs(run->batch[i].line, stdout);
    }
    fflush(stdout);
    run->nbatch = 0;
}

static bool levels_entry(void *ctx, const struct input_entry *e)
{
    struct levels_run *run = ctx;
    const char *corpus = levels_base_name(e->source);
    if (run->nbatch == LEVELS_BATCH || (run->nbatch && strcmp(corpus, run->corpus) != 0))
        levels_flush(run);
    snprintf(run->corpus, sizeof(run->corpus), "%s", corpus);
    if (!e->ok) {
        run->failures++;
        return true;
    }
    char why[160];
    if (grid_find_conflict(&e->item->puzzle, why, sizeof(why))) {
        fprintf(stderr, "%s:%lu: %s\n", e->source, e->line, why);
        run->failures++;
        return true;
    }
    if (e->item->puzzle.n > GRID_MAX_N_MASK32) {
        /* the CP and human families' value sets are uint32_t */
        fprintf(stderr, "%s:%lu: levels go up to %dx%d, not %dx%d\n", e->source, e->line,
            GRID_MAX_N_MASK32, GRID_MAX_N_MASK32, e->item->puzzle.n, e->item->puzzle.n);
        run->failures++;
        return true;
    }
    struct levels_item *it = &run->batch[run->nbatch++];
    it->g = e->item->puzzle;
    it->index = e->index;
    it->ok = true;
    return true;
}

#define LEVELS_FIELD(member) offsetof(struct levels_cli, member)

/* --no-puzzle: turns off what is on by default */
static int clear_flag(const struct cli_value *v)
{
    *(bool *) v->field = false;
    return CLI_VALUE_OK;
}

static const struct cli_option levels_options[] = {
    CLI_LINE("usage: sudolab levels [options] [FILE|PUZZLE|-]..."),
    CLI_LINE(
        "For each puzzle and each family of reasoning, the weakest level that solves\n"
        "it with no search; one CSV row per puzzle (docs/levels.md):"),
    CLI_LINE("  human  singles, intersections, subsets, fish (the logic solver), then\n"
             "         Sudoku Explainer's ER bands se_patterns (< 6.5), se_chains\n"
             "         (< 8.5), se_dynamic (< 9.5), se_nested"),
    CLI_LINE("  cp     forward checking (fc), domain consistency (gac), singleton arc\n"
             "         consistency (sac) on the alldifferent model"),
    CLI_LINE("  sat    unit propagation (up), failed literals (fl), hyper-binary\n"
             "         resolution (hbr), each on the minimal, efficient and extended\n"
             "         CNF: up_min .. hbr_ext"),
    CLI_LINE("Then yes/no/limit for every level, the logic solver's hardest technique,\n"
             "SE's ER and its technique (when the logic solver does not solve it)."),
    { .kind = CLI_INT,
        .name = "jobs",
        .letter = 'j',
        .metavar = "N",
        .help = "threads (the output does not depend on N)",
        .field = LEVELS_FIELD(jobs),
        .min = 1,
        .max = LEVELS_MAX_JOBS,
        .expected = "a thread count from 1 to 256" },
    { .kind = CLI_CUSTOM,
        .name = "no-puzzle",
        .help = "leave the puzzle off the end of each row",
        .field = LEVELS_FIELD(show_puzzle),
        .parse = clear_flag },
    CLI_OPTION_BUDGET_STEPS("give up (limit) after N steps per level and puzzle:\n"
                            "propagations (sat), propagator runs (cp); default\n"
                            "100000000, 0 = none"),
    CLI_OPTION_BUDGET_MS("give up (limit) on SE's levels after N ms of the\n"
                         "thread's CPU time per puzzle (default 60000; 0 = none)"),
    CLI_OPTION_SIZE("box shape (2x3 = 6x6); default: from each puzzle's length"),
    CLI_OPTION_VARIANT("standard or diagonal; default: what a file's header\n"
                       "comment says (variant=diagonal), else standard"),
    CLI_OPTION_FORMAT("auto, lines, grids (whitespace grids, seed 002) or\n"
                      "lewis (Rhydian Lewis's instance files), sukaku (candidates)"),
    CLI_OPTION_EMPTY("add the empty grid with RxC boxes as an input"),
    CLI_OPTION_HELP,
};

const struct cli_table levels_table = CLI_TABLE("sudolab levels", levels_options);

static int levels_go(const struct levels_cli *cli)
{
    struct levels_run run;
    memset(&run, 0, sizeof(run));
    run.cli = cli;
    run.budget.sat_steps = cli->common.budget_steps;
    run.budget.cp_steps = cli->common.budget_steps;
    run.budget.se_ms = cli->common.budget_ms;
    run.pool = pool_create((unsigned) cli->jobs);
    run.batch = calloc(LEVELS_BATCH, sizeof(*run.batch));
    const unsigned workers = run.pool ? pool_workers(run.pool) : 0;
    run.lv = calloc(workers ? workers : 1, sizeof(*run.lv));
    bool ok = run.pool && run.batch && run.lv;
    for (unsigned w = 0; ok && w < workers; w++)
        ok = (run.lv[w] = levels_new()) != NULL;
    int status = CLI_SKIPPED;
    if (!ok) {
        fprintf(stderr, "sudolab levels: out of memory\n");
    } else {
        levels_header(cli);
        const unsigned long problems
            = cli_walk(&cli->common, cli->nfiles, cli->files, levels_entry, &run);
        if (run.nbatch)
            levels_flush(&run);
        status = problems || run.failures ? CLI_SKIPPED : CLI_OK;
    }
    for (unsigned w = 0; run.lv && w < workers; w++)
        levels_free(run.lv[w]);
    free(run.lv);
    free(run.batch);
    pool_destroy(run.pool);
    return status;
}

int cmd_levels(int argc, char **argv)
{
    struct levels_cli cli;
    memset(&cli, 0, sizeof(cli));
    cli_common_defaults(&cli.common, 1);
    cli.common.budget_steps = LEVELS_DEFAULT_BUDGET_STEPS;
    cli.jobs = 1;
    cli.show_puzzle = true;
    int first;
    const enum cli_parsed p
        = cli_parse(&levels_table, argc, argv, &cli, &cli.common, &first);
    if (p == CLI_PARSED_HELP)
        cli_help(&levels_table, stdout);
    if (p != CLI_PARSED_RUN)
        return cli_parsed_status(p);
    cli.nfiles = argc - first;
    cli.files = argv + first;
    return levels_go(&cli);
}
