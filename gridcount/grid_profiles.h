/* First-band profiles counted, sampled and classed without listing them, for
 * the shapes whose profiles are too many to list (12x12: 3x4 and 2x6 boxes).
 *
 * A profile (grid_count.h) gives, for each type t (a digit's column within
 * each stack, in the counted orientation R x C with R >= C), the number X_t
 * of digits of that type, such that every column of every stack holds R
 * digits. A walk over the types whose state is each column's digits so far
 * counts them (memoised: many prefixes leave the same columns), and the same
 * table draws one uniformly (each value of X_t with the weight of the
 * profiles that complete it).
 *
 * The classes are the orbits of the group G of stack permutations and column
 * permutations within stacks, |G| = R! C!^R. Two routes to their number:
 *
 *   exact    Burnside: classes = (1/|G|) sum over g of the profiles fixed by
 *            g, which are constant on g's cycles of types, so the same walk
 *            over those cycles counts them. Conjugate elements fix as many;
 *            a conjugacy class of the wreath product S_C wr S_R is given by,
 *            for each cycle of the stack permutation, its length and the
 *            cycle type of the column permutations' product along it, so
 *            each class is walked once.
 *   sampled  classes = P * E[1/orbit] over profiles drawn uniformly; the
 *            orbit of a drawn profile is |G| / its stabiliser, counted over G.
 */
#ifndef SUDOLAB_GRIDCOUNT_GRID_PROFILES_H
#define SUDOLAB_GRIDCOUNT_GRID_PROFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"

struct grid_profiles;

/* The walk for boxes of box_rows x box_cols (R x C counted with R >= C, R * C
 * at most 12 and C^R at most 128 types). NULL with why for another shape or
 * when memory runs out. */
struct grid_profiles *grid_profiles_new(
    int box_rows, int box_cols, char *why, size_t whylen);
void grid_profiles_free(struct grid_profiles *gp);

/* Types: C^R, the length of a profile (digits[t] for each type t). */
int grid_profiles_types(const struct grid_profiles *gp);

/* |G|, the stack and column permutations of the counted orientation. */
uint64_t grid_profiles_group_order(const struct grid_profiles *gp);

/* Every profile, counted by the walk (memoised in gp). 0 when memory runs
 * out. */
uint64_t grid_profiles_count(struct grid_profiles *gp);

/* The classes by Burnside's sum (exact), and how many conjugacy classes of G
 * were walked. Returns 0, or -1 when memory runs out or |G| does not divide
 * the sum (which would be a bug). */
int grid_profiles_classes_exact(
    struct grid_profiles *gp, uint64_t *classes, size_t *conjugacy_classes);

/* The classes estimated from `samples` profiles drawn uniformly (seeded):
 * profiles * the mean of 1/orbit, with the half width of its 95% interval
 * (1.96 standard errors), and the mean orbit of a drawn profile. */
struct grid_profiles_estimate {
    size_t samples;
    double classes;
    double half_width;
    double mean_orbit;
};
int grid_profiles_classes_sampled(struct grid_profiles *gp, size_t samples, uint64_t seed,
    struct grid_profiles_estimate *out);

/* One profile drawn uniformly (digits[t]: the digits of type t) and its
 * orbit: a class drawn with probability orbit / profiles, so that a sum over
 * classes is estimated without bias by profiles * the mean of value / orbit. */
struct grid_profiles_drawn {
    uint8_t digits[128];
    uint64_t orbit;
    uint64_t rank; /* its place in the walk's order (grid_profiles_each_class) */
};
int grid_profiles_draw(
    struct grid_profiles *gp, struct rng *r, struct grid_profiles_drawn *out);

/* The orders of a drawn profile's band (grid_count.h) by the band search a
 * full count runs: each digit's row in each stack in turn, one leaf per
 * order. Stops after `budget` nodes; returns the nodes visited, with
 * *finished false (and *orders a lower bound) when it stopped. */
uint64_t grid_profiles_orders_search(const struct grid_profiles *gp,
    const struct grid_profiles_drawn *x, uint64_t budget, uint64_t *orders,
    bool *finished);

/* Knuth's estimate of that search's nodes: the mean of `probes` random
 * descents. */
double grid_profiles_orders_nodes_estimate(const struct grid_profiles *gp,
    const struct grid_profiles_drawn *x, unsigned probes, struct rng *r);

/* --- classes one at a time, and the three-band completions ---
 *
 * A profile's canonical form: stacks and columns within stacks put in order
 * of an invariant (each (stack, column)'s histogram of digit counts over its
 * types), ties broken by every order they allow, and the least image (digits
 * per type compared in type order) kept. Every element of G that sorts the
 * invariants is tried, so two profiles share a form exactly when they share a
 * class, and the elements mapping a profile to its form number its
 * stabiliser. */

/* x's canonical form into canon (types bytes) and the size of x's
 * stabiliser in G. */
void grid_profiles_canonical(
    const struct grid_profiles *gp, const uint8_t *x, uint8_t *canon, uint64_t *stab);

/* Whether x is its class's representative (its own canonical form), and
 * then its stabiliser's size: the same answer as comparing x with
 * grid_profiles_canonical's form, but the search stops at the first image
 * below x, as it does for nearly every profile. */
bool grid_profiles_is_class(
    const struct grid_profiles *gp, const uint8_t *x, uint64_t *stab);

/* Calls visit for every class whose representative (the profile equal to its
 * canonical form) has a walk rank in [first, last): profiles are ranked in
 * the walk's order, so a slice of ranks is a shard of the classes found
 * without listing the rest. rep->orbit and rep->rank are filled. Stops at visit's first
 * non-zero return and returns it; -1 when memory runs out. *visited counts the
 * profiles tested. */
int grid_profiles_each_class(struct grid_profiles *gp, uint64_t first, uint64_t last,
    int (*visit)(void *ctx, const struct grid_profiles_drawn *rep), void *ctx,
    uint64_t *visited);

/* The profile of walk rank `rank` (0 <= rank < profiles) into x, the
 * inverse of the order grid_profiles_each_class visits them in. Returns 0,
 * or -1 for a rank past the last or when memory runs out. */
int grid_profiles_unrank(struct grid_profiles *gp, uint64_t rank, uint8_t *x);

/* N! / prod_t x_t!: the labelled column-set configurations with profile x. */
uint64_t grid_profiles_labels(const struct grid_profiles *gp, const uint8_t *x);

/* Orders by class: canonical form -> orders, with a cache of recent
 * profiles in front. What a class not yet in the table gets: */
enum grid_profiles_table_mode {
    GRID_PROFILES_COUNT, /* its orders, counted by the band search */
    GRID_PROFILES_ZERO, /* orders 0: the cost of the lookups alone, as a count
                         * with the orders phase done before would pay them */
    GRID_PROFILES_GIVEN, /* nothing: every class was inserted (an orders table
                          * read back), and a lookup outside them is an error */
};
struct grid_profiles_table;
struct grid_profiles_table *grid_profiles_table_new(
    const struct grid_profiles *gp, enum grid_profiles_table_mode mode);
/* Enters a class: canon must be a canonical form. Returns 0, or -1 when
 * memory runs out. */
int grid_profiles_table_insert(
    struct grid_profiles_table *tab, const uint8_t *canon, uint64_t orders);
void grid_profiles_table_free(struct grid_profiles_table *tab);
/* Classes in the table, and lookups that missed the cache. */
size_t grid_profiles_table_classes(const struct grid_profiles_table *tab);
uint64_t grid_profiles_table_canonicalised(const struct grid_profiles_table *tab);
/* The orders of x's class (as the mode says); GRID_PROFILES_NO_CLASS for a
 * class missing from a GIVEN table, UINT64_MAX when memory runs out. */
#define GRID_PROFILES_NO_CLASS (UINT64_MAX - 1)
uint64_t grid_profiles_table_orders(struct grid_profiles_table *tab, const uint8_t *x);

/* Three bands (C = 3): the completions of a first band with profile x. The
 * middle band's column sets avoid the first's: in each stack, every digit
 * takes one of the two other columns, each column R digits; the third band's
 * are then forced. completions = sum over those choices of orders(middle) *
 * orders(third), each looked up in tab. At most `budget` choices are
 * visited, in a fixed order. */
struct grid_profiles_completions {
    uint64_t choices; /* all of them: per_stack^R */
    uint64_t per_stack;
    uint64_t visited;
    bool finished;
    bool missing; /* a lookup met a class outside a GIVEN table */
    unsigned __int128 sum; /* over the visited choices */
};
int grid_profiles_complete(const struct grid_profiles *gp,
    struct grid_profiles_table *tab, const uint8_t *x, uint64_t budget,
    struct grid_profiles_completions *out);

/* The same over the choices numbered [from, to) in that order (a choice's
 * number: its index in each stack's list, stack 0 most significant), so
 * that one class's completions can be counted in pieces and the pieces'
 * sums added; visited counts the choices run, finished says whether the
 * class's last choice was reached. Returns 0, or -1 when memory ran out,
 * a lookup missed a GIVEN table (out->missing) or x is not a profile. */
int grid_profiles_complete_range(const struct grid_profiles *gp,
    struct grid_profiles_table *tab, const uint8_t *x, uint64_t from, uint64_t to,
    struct grid_profiles_completions *out);

#endif /* SUDOLAB_GRIDCOUNT_GRID_PROFILES_H */
