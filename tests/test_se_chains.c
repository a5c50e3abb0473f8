/* The chain searches' filters (rater/se_chains.h): a filtered search of the
 * multiple kind (the reach of every potential) and of Nishio and dynamic
 * chains (what the runs imply) gives the same hint as the plain search,
 * which makes every run, on the grids of SE's path where those kinds are
 * asked. */
#include <string.h>

#include "rater/se_chains.h"
#include "tests/test_util.h"

struct found {
    bool have;
    struct se_step step;
    bool filtered; /* the filter was on (it may decline a grid) */
};

/* One level-0 search of `kind` on g, as se_chains makes it, with the kind's
 * filter when `filter` and the grid allows one, else with every run. */
static struct found search(const struct se_grid *g, enum se_chain_kind kind, bool filter)
{
    struct found f = { 0 };
    struct chain_ctx *x = se_ctx_take(test_rater, &test_rater->chains->spare_top);
    assert_non_null(x);
    x->grid = g;
    x->kind = kind;
    x->dynamic = kind == SE_CH_NISHIO || kind == SE_CH_DYNAMIC;
    x->y_links = kind != SE_CH_NISHIO;
    x->multiple = kind == SE_CH_MULTIPLE || kind == SE_CH_DYNAMIC;
    x->off_run = se_run_alloc(test_rater->chains);
    assert_non_null(x->off_run);
    const bool filtered = filter && se_filter_begin(x);
    const bool implied = filter && !filtered && se_implied_begin(x);
    for (int cell = 0; cell < SE_CELLS; cell++) {
        const int card = se_popcount(g->cand[cell]);
        if (g->value[cell] || !(card > 2 || (card > 1 && x->dynamic)))
            continue;
        if (filtered)
            se_cell_chains_filtered(x, cell);
        else if (implied)
            se_cell_chains_implied(x, cell);
        else
            se_cell_chains(x, cell);
    }
    if (filtered)
        se_filter_end(x);
    se_implied_end(x);
    se_run_free(test_rater->chains, x->off_run);
    x->off_run = NULL;
    for (int i = 0; i < SE_CELLS * 9; i++) {
        se_run_free(test_rater->chains, x->on_runs[i]);
        x->on_runs[i] = NULL;
    }
    assert_false(x->run_failed);
    f.have = x->have;
    if (f.have)
        f.step = x->best;
    f.filtered = filtered || implied;
    se_ctx_give_back(&test_rater->chains->spare_top, x);
    return f;
}

static void same_hint(const struct found *a, const struct found *b, int kind, int step)
{
    if (a->have != b->have || a->step.rating != b->step.rating
        || a->step.complexity != b->step.complexity
        || a->step.place_cell != b->step.place_cell
        || a->step.place_value != b->step.place_value
        || memcmp(a->step.elim, b->step.elim, sizeof(a->step.elim)) != 0)
        fail_msg("kind %d at step %d: filtered %s %d.%d, plain %s %d.%d", kind, step,
            a->have ? "hint" : "none", a->step.rating / 10, a->step.rating % 10,
            b->have ? "hint" : "none", b->step.rating / 10, b->step.rating % 10);
}

/* Multiple forcing chains (8.3) and dynamic forcing chains (9.0) on their
 * paths (se_dev.tsv, ratings of serate). */
static const char *const puzzles[] = {
    ".6.4...8.9.7.3...6....9....5.......4.....37...3.5..16.4......5..8.......35.2.6..9",
    ".6.....4.1......72.5.78........6.9.....5..8..9.3..1.....1......28.3....1.7...4...",
};

static void filters_keep_the_hints(void **state)
{
    (void) state;
    int compared = 0, filtered = 0;
    for (size_t i = 0; i < TEST_COUNT(puzzles); i++) {
        struct grid in;
        char why[200];
        assert_int_equal(
            grid_parse_token(&in, puzzles[i], strlen(puzzles[i]), NULL, why, sizeof(why)),
            0);
        struct se_grid g;
        assert_true(se_load(&in, &g));
        struct se_step s;
        int asked = 0;
        for (int step = 0; step < 400 && asked < 4 && se_next_step(test_rater, &g, &s);
             step++) {
            if (s.tech >= SE_nishio) {
                asked++;
                static const enum se_chain_kind kinds[]
                    = { SE_CH_NISHIO, SE_CH_MULTIPLE, SE_CH_DYNAMIC };
                for (size_t k = 0; k < TEST_COUNT(kinds); k++) {
                    const struct found with = search(&g, kinds[k], true);
                    const struct found without = search(&g, kinds[k], false);
                    same_hint(&with, &without, (int) kinds[k], step);
                    compared++;
                    filtered += with.filtered;
                }
            }
            se_apply(&g, &s);
        }
        assert_true(asked > 0);
    }
    print_message("%d searches compared, %d of them filtered\n", compared, filtered);
    assert_true(compared > 0);
    assert_true(filtered > 0); /* the filters were tried, not only declined */
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(filters_keep_the_hints),
    };
    const struct test_group plain = { "se_chains", tests, TEST_COUNT(tests),
        test_rater_setup, test_rater_teardown };
    return test_main(argc, argv, &plain, NULL);
}
