#include "rater/hodoku.h"

#include <string.h>

/* HoDoKu's techniques that SE's steps are scored as: name, base score and
 * level as HoDoKu ships them. */
#define HODOKU_FULL_HOUSE                                                                \
    {                                                                                    \
        "Full House", 4, HODOKU_EASY, 0                                                  \
    }
#define HODOKU_NAKED_SINGLE                                                              \
    {                                                                                    \
        "Naked Single", 4, HODOKU_EASY, 0                                                \
    }
#define HODOKU_HIDDEN_SINGLE                                                             \
    {                                                                                    \
        "Hidden Single", 14, HODOKU_EASY, 0                                              \
    }
#define HODOKU_POINTING                                                                  \
    {                                                                                    \
        "Locked Candidates Type 1 (Pointing)", 50, HODOKU_MEDIUM, 0                      \
    }
#define HODOKU_CLAIMING                                                                  \
    {                                                                                    \
        "Locked Candidates Type 2 (Claiming)", 50, HODOKU_MEDIUM, 0                      \
    }
#define HODOKU_NAKED_PAIR                                                                \
    {                                                                                    \
        "Naked Pair", 60, HODOKU_MEDIUM, 0                                               \
    }
#define HODOKU_NAKED_TRIPLE                                                              \
    {                                                                                    \
        "Naked Triple", 80, HODOKU_MEDIUM, 0                                             \
    }
#define HODOKU_HIDDEN_PAIR                                                               \
    {                                                                                    \
        "Hidden Pair", 70, HODOKU_MEDIUM, 0                                              \
    }
#define HODOKU_HIDDEN_TRIPLE                                                             \
    {                                                                                    \
        "Hidden Triple", 100, HODOKU_MEDIUM, 0                                           \
    }
#define HODOKU_NAKED_QUAD                                                                \
    {                                                                                    \
        "Naked Quadruple", 120, HODOKU_HARD, 0                                           \
    }
#define HODOKU_HIDDEN_QUAD                                                               \
    {                                                                                    \
        "Hidden Quadruple", 150, HODOKU_HARD, 0                                          \
    }
#define HODOKU_X_WING                                                                    \
    {                                                                                    \
        "X-Wing", 140, HODOKU_HARD, 0                                                    \
    }
#define HODOKU_SWORDFISH                                                                 \
    {                                                                                    \
        "Swordfish", 150, HODOKU_HARD, 0                                                 \
    }
#define HODOKU_JELLYFISH                                                                 \
    {                                                                                    \
        "Jellyfish", 160, HODOKU_HARD, 0                                                 \
    }
#define HODOKU_BUG                                                                       \
    {                                                                                    \
        "Bivalue Universal Grave + 1", 100, HODOKU_HARD, 0                               \
    }
#define HODOKU_TURBOT                                                                    \
    {                                                                                    \
        "Turbot Fish", 120, HODOKU_HARD, 0                                               \
    }
#define HODOKU_XY_WING                                                                   \
    {                                                                                    \
        "XY-Wing", 160, HODOKU_HARD, 0                                                   \
    }
#define HODOKU_XYZ_WING                                                                  \
    {                                                                                    \
        "XYZ-Wing", 180, HODOKU_HARD, 0                                                  \
    }
#define HODOKU_UNIQUENESS                                                                \
    {                                                                                    \
        "Uniqueness Test", 100, HODOKU_HARD, 0                                           \
    }
#define HODOKU_NICE_LOOP                                                                 \
    {                                                                                    \
        "Nice Loop/AIC", 280, HODOKU_UNFAIR, 0                                           \
    }
#define HODOKU_ALS_XZ                                                                    \
    {                                                                                    \
        "Almost Locked Set XZ-Rule", 300, HODOKU_UNFAIR, 0                               \
    }
#define HODOKU_ALS_XY_WING                                                               \
    {                                                                                    \
        "Almost Locked Set XY-Wing", 320, HODOKU_UNFAIR, 0                               \
    }
#define HODOKU_DEATH_BLOSSOM                                                             \
    {                                                                                    \
        "Death Blossom", 360, HODOKU_UNFAIR, 0                                           \
    }
#define HODOKU_FORCING_CHAIN                                                             \
    {                                                                                    \
        "Forcing Chain", 500, HODOKU_EXTREME, 0                                          \
    }
#define HODOKU_FORCING_NET                                                               \
    {                                                                                    \
        "Forcing Net", 700, HODOKU_EXTREME, 0                                            \
    }

/* Indexed by enum se_technique (checked below). SE's direct techniques are
 * their pattern and then a hidden single; its WXYZ- to TUVWXYZ-wings are
 * almost locked sets with a bivalue pivot (ALS-XZ); aligned exclusions,
 * which HoDoKu lacks, are scored as the ALS steps that make the same kind
 * of eliminations; SE's cycles and forcing X/Y chains are HoDoKu's nice
 * loops and AICs; Nishio and multiple chains its forcing chains, dynamic and
 * nested ones its forcing nets. */
static const struct hodoku_technique table[SE_TECHNIQUE_COUNT] = {
    [SE_full_house] = HODOKU_FULL_HOUSE,
    [SE_hidden_single] = HODOKU_HIDDEN_SINGLE,
    [SE_direct_pointing]
    = { "Locked Candidates Type 1 (Pointing)", 50, HODOKU_MEDIUM, 1 },
    [SE_direct_claiming]
    = { "Locked Candidates Type 2 (Claiming)", 50, HODOKU_MEDIUM, 1 },
    [SE_direct_hidden_pair] = { "Hidden Pair", 70, HODOKU_MEDIUM, 1 },
    [SE_naked_single] = HODOKU_NAKED_SINGLE,
    [SE_direct_hidden_triplet] = { "Hidden Triple", 100, HODOKU_MEDIUM, 1 },
    [SE_pointing] = HODOKU_POINTING,
    [SE_claiming] = HODOKU_CLAIMING,
    [SE_naked_pair] = HODOKU_NAKED_PAIR,
    [SE_x_wing] = HODOKU_X_WING,
    [SE_hidden_pair] = HODOKU_HIDDEN_PAIR,
    [SE_naked_triplet] = HODOKU_NAKED_TRIPLE,
    [SE_swordfish] = HODOKU_SWORDFISH,
    [SE_hidden_triplet] = HODOKU_HIDDEN_TRIPLE,
    [SE_turbot_fish] = HODOKU_TURBOT,
    [SE_xy_wing] = HODOKU_XY_WING,
    [SE_xyz_wing] = HODOKU_XYZ_WING,
    [SE_unique_rectangle] = HODOKU_UNIQUENESS,
    [SE_naked_quad] = HODOKU_NAKED_QUAD,
    [SE_jellyfish] = HODOKU_JELLYFISH,
    [SE_hidden_quad] = HODOKU_HIDDEN_QUAD,
    [SE_wxyz_wing] = HODOKU_ALS_XZ,
    [SE_bug] = HODOKU_BUG,
    [SE_vwxyz_wing] = HODOKU_ALS_XZ,
    [SE_aligned_pair] = HODOKU_ALS_XY_WING,
    [SE_uvwxyz_wing] = HODOKU_ALS_XZ,
    [SE_cycle] = HODOKU_NICE_LOOP,
    [SE_forcing_chain] = HODOKU_NICE_LOOP,
    [SE_tuvwxyz_wing] = HODOKU_ALS_XZ,
    [SE_aligned_triplet] = HODOKU_DEATH_BLOSSOM,
    [SE_nishio] = HODOKU_FORCING_CHAIN,
    [SE_multiple_chains] = HODOKU_FORCING_CHAIN,
    [SE_dynamic_chains] = HODOKU_FORCING_NET,
    [SE_dynamic_plus] = HODOKU_FORCING_NET,
    [SE_nested_chains] = HODOKU_FORCING_NET,
};

/* HoDoKu's "give up": the path ends without the grid solved. */
static const struct hodoku_technique give_up = { "Give Up", 20000, HODOKU_EXTREME, 0 };

/* The highest score of each level; extreme has none. */
static const int level_max[] = { [HODOKU_EASY] = 800,
    [HODOKU_MEDIUM] = 1000,
    [HODOKU_HARD] = 1600,
    [HODOKU_UNFAIR] = 1800 };

const char *hodoku_level_name(enum hodoku_level level)
{
    static const char *const names[]
        = { "?", "easy", "medium", "hard", "unfair", "extreme" };
    return level >= HODOKU_EASY && level <= HODOKU_EXTREME ? names[level] : "?";
}

enum hodoku_level hodoku_level_for(enum hodoku_level highest, int score)
{
    while (highest < HODOKU_EXTREME && score > level_max[highest])
        highest++;
    return highest;
}

const struct hodoku_technique *hodoku_technique_of(enum se_technique t)
{
    return (unsigned) t < SE_TECHNIQUE_COUNT ? &table[t] : &give_up;
}

static void add_step(struct hodoku_rating *r, const struct hodoku_technique *h)
{
    r->score += h->score;
    r->steps++;
    if (h->level > r->level || (h->level == r->level && h->score > r->hardest_score)) {
        r->hardest = h->name;
        r->hardest_score = h->score;
    }
    if (h->level > r->level)
        r->level = h->level;
    if (h->hidden_single_too)
        add_step(r, &table[SE_hidden_single]);
}

static void on_step(void *ctx, enum se_technique tech, int rating)
{
    (void) rating;
    add_step(ctx, hodoku_technique_of(tech));
}

void hodoku_rate_within(struct se_rater *rt, const struct grid *g, uint64_t deadline_ns,
    struct hodoku_rating *out, struct se_rating *se)
{
    struct se_rating own;
    if (!se)
        se = &own;
    memset(out, 0, sizeof(*out));
    out->level = HODOKU_EASY;
    out->hardest = table[SE_full_house].name;
    se_rate_steps(rt, g, deadline_ns, se, on_step, out);
    out->verdict = se->verdict;
    if (se->verdict == SE_BEYOND)
        add_step(out, &give_up);
    else if (se->verdict != SE_RATED) {
        memset(out, 0, sizeof(*out)); /* no rating, not a partial one */
        out->verdict = se->verdict;
        return;
    }
    out->level = hodoku_level_for(out->level, out->score);
}
