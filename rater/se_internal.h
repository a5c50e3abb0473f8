/* Shared by the Sudoku Explainer rater's files (rater/se_*.c): the driver,
 * the producers and the chain searches over the grid model (se_grid.h); not
 * part of the library's interface (see rater/se_rate.h). */
#ifndef SUDOLAB_RATER_SE_INTERNAL_H
#define SUDOLAB_RATER_SE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "common/clock.h"
#include "rater/se_grid.h"
#include "rater/se_rate.h"

/* Builds the grid model's tables and those of the producers once
 * (thread-safe: other callers wait for the first). */
void se_ensure_tables(void);
/* The tables of se_basic.c, from the grid model's. */
void se_basic_tables_init(void);
/* What each producer file keeps between calls (its memos and spares),
 * defined in that file; calloc'd (an empty memo is all zeros). */
struct se_basic_memo;
struct se_wings_memo;
struct se_links_memo;
struct se_chains_memo;
struct se_basic_memo *se_basic_memo_new(void);
void se_basic_memo_free(struct se_basic_memo *m);
struct se_wings_memo *se_wings_memo_new(void);
void se_wings_memo_free(struct se_wings_memo *m);
struct se_links_memo *se_links_memo_new(void);
void se_links_memo_free(struct se_links_memo *m);
struct se_chains_memo *se_chains_memo_new(void);
void se_chains_memo_free(struct se_chains_memo *m);

/* A rater (rater/se_rate.h): the deadline of the rating or hint under way
 * (0: none) and every cache of the searches. The memos never change a
 * result: each holds a grid (or part of one) on which a search found
 * nothing, and a search skips only what that grid proves empty. */
struct se_rater {
    uint64_t deadline;
    bool thread_cpu; /* deadline on the thread's CPU clock (the default) */
    unsigned calls; /* se_out_of_time's, to read the clock every 64th */
    struct se_basic_memo *basic;
    struct se_wings_memo *wings;
    struct se_links_memo *links;
    struct se_chains_memo *chains;
};

/* Now on rt's clock (se_rater_now). */
static inline uint64_t se_clock_read(const struct se_rater *rt)
{
    return rt->thread_cpu ? clock_thread_cpu_ns() : clock_now_ns();
}

/* True once the deadline of rt's rating has passed (it reads the clock
 * every 64th call); the chain searches end early then, and the rating is
 * dropped. */
static inline bool se_out_of_time(struct se_rater *rt)
{
    if (!rt->deadline)
        return false;
    if (++rt->calls % 64 != 0)
        return false;
    if (se_clock_read(rt) < rt->deadline)
        return false;
    rt->calls = 63; /* from now on every call reads the clock: it stays late */
    return true;
}

/* Whether the deadline of rt's rating has passed (reads the clock): a
 * search that may have been cut short keeps no memo. */
static inline bool se_deadline_passed(const struct se_rater *rt)
{
    return rt->deadline && se_clock_read(rt) >= rt->deadline;
}

/* SE's next step on g: the first producer, in SE's order, with a hint. */
bool se_next_step(struct se_rater *rt, const struct se_grid *g, struct se_step *s);

/* The producers, each finding SE's first hint of its kind (false: none). */
bool se_hidden_single(struct se_rater *rt, const struct se_grid *g, struct se_step *s);
bool se_direct_locking(struct se_rater *rt, const struct se_places *p, struct se_step *s);
bool se_direct_hidden_set(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s);
bool se_naked_single(const struct se_places *p, struct se_step *s);
bool se_locking(struct se_rater *rt, const struct se_places *p, struct se_step *s);
bool se_naked_set(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s);
bool se_hidden_set(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s);
bool se_fish(
    struct se_rater *rt, const struct se_places *p, int degree, struct se_step *s);
bool se_turbot(struct se_rater *rt, const struct se_grid *g, struct se_step *s);
/* Two strong links of which one or both join groups (4.3). */
bool se_grouped_turbot(struct se_rater *rt, const struct se_grid *g, struct se_step *s);
/* Chains of n = 3 or 4 strong links (grouped or not): the easiest. */
bool se_strong_links(
    struct se_rater *rt, const struct se_grid *g, int n, struct se_step *s);
bool se_xy_wing(
    struct se_rater *rt, const struct se_grid *g, bool xyz, struct se_step *s);
bool se_unique_rectangle(struct se_rater *rt, const struct se_grid *g, struct se_step *s);
bool se_bug(struct se_rater *rt, const struct se_grid *g, struct se_step *s);
/* Aligned pair (d = 2) and triplet (d = 3) exclusion. */
bool se_aligned(struct se_rater *rt, const struct se_grid *g, int d, struct se_step *s);
/* WXYZ- (k = 3), VWXYZ- (4), UVWXYZ- (5) and TUVWXYZ-wings (6): the easiest. */
bool se_als_wing(struct se_rater *rt, const struct se_grid *g, int k, struct se_step *s);

/* Chains: level -1 cycles and X/Y forcing chains; then Nishio, multiple,
 * dynamic, and dynamic with nesting `level` (1 = "+", 2 and 3 = nested
 * chains, 4 + k = SE's level 4 with dynamic chains of level k nested, its
 * "nesting limit"; up to SE_CH_LEVEL_MAX). The nested levels take it that
 * SE_CH_CYCLES found no hint on the same grid (se_next_step's order), and
 * skip the searches that would repeat it. */
enum se_chain_kind { SE_CH_CYCLES, SE_CH_NISHIO, SE_CH_MULTIPLE, SE_CH_DYNAMIC };
#define SE_CH_LEVEL_MAX 7
bool se_chains(struct se_rater *rt, const struct se_grid *g, enum se_chain_kind kind,
    int level, struct se_step *s);

/* Frees the memory the chain searches keep between searches (the spare
 * runs and contexts, the nested memo; the driver calls it when a rating or
 * hint is done); their small memos stay. */
void se_chains_release(struct se_chains_memo *m);

/* All hints of the rules nested in chains (locking, hidden and naked pairs,
 * X-wing) that the removals made possible, through a callback; used by
 * se_chains.c. */
typedef bool (*se_hint_fn)(void *ctx, const struct se_step *s, const uint16_t *parents);
bool se_each_locking(const struct se_reduced *r, se_hint_fn fn, void *ctx);
bool se_each_hidden_pair(const struct se_reduced *r, se_hint_fn fn, void *ctx);
bool se_each_naked_pair(const struct se_reduced *r, se_hint_fn fn, void *ctx);
bool se_each_x_wing(const struct se_reduced *r, se_hint_fn fn, void *ctx);

#endif /* SUDOLAB_RATER_SE_INTERNAL_H */
