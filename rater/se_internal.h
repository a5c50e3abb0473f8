/* Shared by the Sudoku Explainer rater's files (rater/se_*.c): the driver,
 * the producers and the chain searches over the grid model (se_grid.h); not
 * part of the library's interface (see rater/se_rate.h). */
#ifndef SUDOLAB_RATER_SE_INTERNAL_H
#define SUDOLAB_RATER_SE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "rater/se_grid.h"
#include "rater/se_rate.h"

/* Builds the grid model's tables and those of the producers once
 * (thread-safe: other callers wait for the first). */
void se_ensure_tables(void);
/* The tables of se_basic.c, from the grid model's. */
void se_basic_tables_init(void);
/* True once the deadline of this thread's rating has passed (it reads the
 * clock every 64th call); the chain searches end early then, and the rating
 * is dropped. */
bool se_out_of_time(void);
/* Whether the deadline of this thread's rating has passed (reads the
 * clock): a search that may have been cut short keeps no memo. */
bool se_deadline_passed(void);
/* SE's next step on g: the first producer, in SE's order, with a hint. */
bool se_next_step(const struct se_grid *g, struct se_step *s);

/* The producers, each finding SE's first hint of its kind (false: none). */
bool se_hidden_single(const struct se_grid *g, struct se_step *s);
bool se_direct_locking(const struct se_places *p, struct se_step *s);
bool se_direct_hidden_set(const struct se_places *p, int degree, struct se_step *s);
bool se_naked_single(const struct se_places *p, struct se_step *s);
bool se_locking(const struct se_places *p, struct se_step *s);
bool se_naked_set(const struct se_places *p, int degree, struct se_step *s);
bool se_hidden_set(const struct se_places *p, int degree, struct se_step *s);
bool se_fish(const struct se_places *p, int degree, struct se_step *s);
bool se_turbot(const struct se_grid *g, struct se_step *s);
/* Two strong links of which one or both join groups (4.3). */
bool se_grouped_turbot(const struct se_grid *g, struct se_step *s);
/* Chains of n = 3 or 4 strong links (grouped or not): the easiest. */
bool se_strong_links(const struct se_grid *g, int n, struct se_step *s);
bool se_xy_wing(const struct se_grid *g, bool xyz, struct se_step *s);
bool se_unique_rectangle(const struct se_grid *g, struct se_step *s);
bool se_bug(const struct se_grid *g, struct se_step *s);
/* Aligned pair (d = 2) and triplet (d = 3) exclusion. */
bool se_aligned(const struct se_grid *g, int d, struct se_step *s);
/* WXYZ- (k = 3), VWXYZ- (4), UVWXYZ- (5) and TUVWXYZ-wings (6): the easiest. */
bool se_als_wing(const struct se_grid *g, int k, struct se_step *s);

/* Chains: level -1 cycles and X/Y forcing chains; then Nishio, multiple,
 * dynamic, and dynamic with nesting `level` (1 = "+", 2.. = nested). The
 * nested levels take it that SE_CH_CYCLES found no hint on the same grid
 * (se_next_step's order), and skip the searches that would repeat it. */
enum se_chain_kind { SE_CH_CYCLES, SE_CH_NISHIO, SE_CH_MULTIPLE, SE_CH_DYNAMIC };
bool se_chains(
    const struct se_grid *g, enum se_chain_kind kind, int level, struct se_step *s);

/* Frees the memory the chain searches keep between searches on this thread
 * (the driver calls it when a rating or hint is done). */
void se_chains_release(void);

/* All hints of the rules nested in chains (locking, hidden and naked pairs,
 * X-wing) that the removals made possible, through a callback; used by
 * se_chains.c. */
typedef bool (*se_hint_fn)(void *ctx, const struct se_step *s, const uint16_t *parents);
bool se_each_locking(const struct se_reduced *r, se_hint_fn fn, void *ctx);
bool se_each_hidden_pair(const struct se_reduced *r, se_hint_fn fn, void *ctx);
bool se_each_naked_pair(const struct se_reduced *r, se_hint_fn fn, void *ctx);
bool se_each_x_wing(const struct se_reduced *r, se_hint_fn fn, void *ctx);

#endif /* SUDOLAB_RATER_SE_INTERNAL_H */
