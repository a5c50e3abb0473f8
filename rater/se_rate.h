/* Difficulty on Sudoku Explainer's scale (SE 1.2.1 as its batch rater
 * `serate` applies it with default settings, SukakuExplainer 1.18 lineage).
 *
 * The rater repeats: find the first hint of the first technique, in SE's order
 * of preference, that makes progress; apply it; until the grid is full. ER is
 * the hardest step of that path, EP the hardest step up to the first
 * placement, ED the first step's rating. Chains (6.5 and up) take the easiest
 * of all hints of their kind, rated by base plus a length increment.
 *
 * A pencil-mark puzzle (grid.has_candidates) is rated from its candidates
 * as SukakuExplainer rates a 729-character line: no candidate is removed for
 * it, a lone candidate that no peer still has counts as a given, other lone
 * candidates are singles on the path, and a solution must keep to the
 * candidates.
 *
 * Only 9x9 classic grids. Free of I/O and global state apart from constant
 * tables built once: the caches that make a path fast (the grids each search
 * found nothing on, the chain runs' memory) live in a struct se_rater that
 * the caller makes, passes to every call and frees. */
#ifndef SUDOLAB_RATER_SE_RATE_H
#define SUDOLAB_RATER_SE_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/grid.h"

/* X(id, name) in SE's order of preference. */
#define SE_TECHNIQUES(X)                                                                 \
    X(full_house, "Last value")                                                          \
    X(hidden_single, "Hidden Single")                                                    \
    X(direct_pointing, "Direct Pointing")                                                \
    X(direct_claiming, "Direct Claiming")                                                \
    X(direct_hidden_pair, "Direct Hidden Pair")                                          \
    X(naked_single, "Naked Single")                                                      \
    X(direct_hidden_triplet, "Direct Hidden Triplet")                                    \
    X(pointing, "Pointing")                                                              \
    X(claiming, "Claiming")                                                              \
    X(naked_pair, "Naked Pair")                                                          \
    X(x_wing, "X-Wing")                                                                  \
    X(hidden_pair, "Hidden Pair")                                                        \
    X(naked_triplet, "Naked Triplet")                                                    \
    X(swordfish, "Swordfish")                                                            \
    X(hidden_triplet, "Hidden Triplet")                                                  \
    X(turbot_fish, "Turbot Fish")                                                        \
    X(xy_wing, "XY-Wing")                                                                \
    X(xyz_wing, "XYZ-Wing")                                                              \
    X(unique_rectangle, "Unique Rectangle")                                              \
    X(naked_quad, "Naked Quad")                                                          \
    X(jellyfish, "Jellyfish")                                                            \
    X(hidden_quad, "Hidden Quad")                                                        \
    X(wxyz_wing, "WXYZ-Wing")                                                            \
    X(bug, "Bivalue Universal Grave")                                                    \
    X(vwxyz_wing, "VWXYZ-Wing")                                                          \
    X(aligned_pair, "Aligned Pair Exclusion")                                            \
    X(uvwxyz_wing, "UVWXYZ-Wing")                                                        \
    X(cycle, "Bidirectional Cycle")                                                      \
    X(forcing_chain, "Forcing Chain")                                                    \
    X(tuvwxyz_wing, "TUVWXYZ-Wing")                                                      \
    X(aligned_triplet, "Aligned Triplet Exclusion")                                      \
    X(nishio, "Nishio Forcing Chains")                                                   \
    X(multiple_chains, "Multiple Forcing Chains")                                        \
    X(dynamic_chains, "Dynamic Forcing Chains")                                          \
    X(dynamic_plus, "Dynamic Forcing Chains (+)")                                        \
    X(nested_chains, "Nested Forcing Chains")

enum se_technique {
#define SE_TECH_ENUM(id, name) SE_##id,
    SE_TECHNIQUES(SE_TECH_ENUM)
#undef SE_TECH_ENUM
        SE_TECHNIQUE_COUNT
};

const char *se_technique_name(enum se_technique t);

enum se_verdict {
    SE_RATED, /* er/ep/ed hold the rating */
    SE_NO_SOLUTION, /* SE: "No solution" */
    SE_MULTIPLE, /* SE: more than one solution */
    SE_BEYOND, /* no technique applies: SE's 20.0 */
    SE_NOT_9X9,
    SE_OUT_OF_TIME, /* the time budget ran out before the path was rated */
};

struct se_rating {
    enum se_verdict verdict;
    int er, ep, ed; /* tenths: 72 = 7.2 */
    enum se_technique er_tech, ep_tech, ed_tech;
    int steps;
};

/* A rater's memory: the caches its searches keep from one step (and one
 * puzzle) to the next, and the deadline of the rating under way. One rater
 * serves one call at a time: a thread that rates keeps its own. The caches
 * never change a result. NULL when out of memory. */
struct se_rater;
struct se_rater *se_rater_new(void);
void se_rater_free(struct se_rater *rt);
/* A new rater reads its deadlines on the calling thread's CPU time
 * (clock_thread_cpu_ns): a rating's budget counts only the rating's own
 * work, so that a loaded machine (a shared node, other shards, -j above the
 * core count) gives the same verdicts as a quiet one. With cpu false it reads
 * the monotonic clock instead, for an interactive hint whose user waits on
 * the wall clock. */
void se_rater_use_cpu_clock(struct se_rater *rt, bool cpu);
/* Now on rt's clock: a deadline for rt is this plus the budget. */
uint64_t se_rater_now(const struct se_rater *rt);

/* Rates g (its givens, or its candidates). */
void se_rate(struct se_rater *rt, const struct grid *g, struct se_rating *out);
/* The same, giving up with SE_OUT_OF_TIME at deadline_ns (on rt's clock,
 * se_rater_now; 0: none): nested chains can take seconds a step, and every run has a
 * time budget. A rating is either complete or not given. */
void se_rate_within(struct se_rater *rt, const struct grid *g, uint64_t deadline_ns,
    struct se_rating *out);
/* Told each step of the path as it is taken: its technique and rating. */
typedef void se_step_fn(void *ctx, enum se_technique tech, int rating);
/* se_rate_within, calling on_step (when not NULL) for every step: other
 * scales (rater/hodoku.h) are computed from the same path. */
void se_rate_steps(struct se_rater *rt, const struct grid *g, uint64_t deadline_ns,
    struct se_rating *out, se_step_fn *on_step, void *ctx);

/* The next step as SE takes it from g (givens and filled cells), in one line
 * of text (`json`: a JSON object). Returns false with a reason in `out` when
 * the grid is full, invalid or beyond the techniques. */
bool se_hint(struct se_rater *rt, const struct grid *g, bool json, char *out, size_t len);
/* The same, giving up at deadline_ns (as se_rate_within) with "out of time"
 * in `out`: one step of nested chains can take seconds. */
bool se_hint_within(struct se_rater *rt, const struct grid *g, bool json,
    uint64_t deadline_ns, char *out, size_t len);

#endif /* SUDOLAB_RATER_SE_RATE_H */
