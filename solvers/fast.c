/* fast: a bitboard back end for standard 9x9 puzzles, vectorised.
 *
 * Board: one candidate set per digit and band, 27 bits for the 3 rows x 9
 * columns of the band, bit 9r + c (r row in band, c column):
 *
 *     bit:  0  1  2 | 3  4  5 | 6  7  8      row 0 of the band
 *           9 10 11 |12 13 14 |15 16 17      row 1
 *          18 19 20 |21 22 23 |24 25 26      row 2
 *           box 0     box 1     box 2        (minirow = 3 bits of a row in a box)
 *
 * Lane 4d + b holds digit d (0..8), band b (0..2); lane 4d + 3 is padding, so
 * a 128-bit group holds one digit and a 256-bit vector two. In registers the
 * wide paths move digit 8 into padding: the 512-bit path into that of its
 * first vector, needing only two; the 256-bit path into that of its first two,
 * needing four rather than five (see FK_PACKED in fast_kernel.h). A
 * cell whose value is known simply keeps one candidate. Every rule is a
 * handful of shifts, masks and in-group lane shuffles applied to all digits
 * and bands at once, in rounds (fast_kernel.h):
 *   naked singles  per-cell counters (one / two or more candidates) over the
 *                  digits;
 *   hidden singles the only place of a digit in a row, box or column;
 *   a known cell   removes its digit from its row and column and every
 *                  other digit from itself (its box: the next round's
 *                  locked candidates);
 *   locked candidates  a digit's minirows in a band form a 3x3 permutation
 *                  matrix (one per row and box), so a minirow on no
 *                  permutation of the occupied ones goes; the same for the
 *                  minicolumns of a stack (pointing and claiming both ways),
 *                  both judged on the round's snapshot; first thing in
 *                  every round;
 *   triads         a minirow or minicolumn holds exactly three digits (see
 *                  FK(triads)); applied once the other rules are exhausted,
 *                  while 30 cells or more are open (FAST_TRIADS_MIN_OPEN),
 *                  on a puzzle with 32 givens or more only once its search
 *                  has abandoned 4 boards (FAST_DENSE_EMPTY, "descent");
 *   contradictions a cell without candidates, or a digit with an empty band
 *                  word (the locked-candidates round empties a band with an
 *                  empty row, box or column).
 * Search: depth first with an explicit stack of decisions, each the board it
 * was taken on and its alternatives not yet entered as masks (no recursion,
 * no allocation). At a fixpoint (or once a round settles few
 * more cells, see FK(propagate)) it branches on configurations, an
 * idea from tdoku's write-up: the minirows of a digit in a band form one of
 * six permutations, its minicolumns in a stack too; take the band or stack
 * whose undecided digits have the fewest configurations in all, and in it the
 * digit with the fewest (two to six); one branch per configuration, first the
 * one that keeps the fewest of the digit's candidates. On the
 * hard corpora this takes a third fewer nodes than branching on the best
 * bivalue cell we found (and half those of the first one); a puzzle with 32
 * givens or more, or 16 or fewer (many solutions), takes the most twice
 * instead (FK(branch)). When every digit has
 * one configuration everywhere, it branches on a cell instead: the bivalue
 * cell (else open cell) with the most open peers, "cell = a" then
 * "cell != a".
 *
 * Origin: written for sudolab. The ideas are the public ones of the fastest
 * solvers: per-digit band bitboards (JCZSolve, Zhou Yundong 2012; fsss2),
 * triads, band configurations and data-parallel rounds on SIMD registers
 * (tdoku, T. Dillon 2019, and its write-up); the permutation-matrix filter,
 * the layout and the code are our own.
 *
 * Counters:
 *   steps      propagation rounds (one data-parallel pass over all cells and
 *              digits); the unit budget_steps counts, enforced per round;
 *   nodes      boards propagated: the puzzle, then every branch entered;
 *   guesses    branch alternatives entered (a configuration, or a cell's value
 *              or its exclusion), so nodes - 1; a two-way decision whose both
 *              sides are searched counts 2 (tdoku counts 1);
 *   backtracks boards abandoned on a contradiction (including a full board
 *              that breaks a unit).
 * The deadline is polled at branch points only (solver_over_budget).
 *
 * Registrations: `fast` runs the best path the CPU has (AVX-512, AVX2, else
 * portable); `fast_portable`, `fast_avx2` and `fast_avx512` force one, so the
 * cross-check covers each. A forced path the CPU lacks is unavailable
 * (solver.available says why), never run as another path under its name.
 * SUDOLAB_MAX_SIMD=portable|avx2|avx512 in the environment lowers the widest
 * path allowed, to try a narrower machine on a wider one. Only 9x9 standard
 * grids: the diagonal variant is declined. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/fast.h"
#include "solvers/registry.h"
#include "solvers/simd_path.h"

enum {
    /* a board in memory: 8 digits x 4 lanes, digit 8 in the pad lanes of
     * digits 0..2 (fast_lane_of), so that the 256- and 512-bit paths load and
     * store their vectors as they are */
    FAST_LANES = 32,
    /* decisions with alternatives pending on a path: one per digit and band
     * or stack (each is decided once), one per cell decided */
    FAST_STACK = 54 + 81,
};

enum { FAST_CONTRA, FAST_SOLVED, FAST_OPEN, FAST_BUDGET };

#define FAST_ALL 0x7FFFFFFu
#define FAST_ROW0 0x1FFu
#define FAST_G0 0x1249249u /* column 0 of every minirow */
#define FAST_G1 (FAST_G0 << 1)
#define FAST_G2 (FAST_G0 << 2)
#define FAST_K0 0x1C0E07u /* box 0 of the band */
#define FAST_K1 (FAST_K0 << 3)
#define FAST_K2 (FAST_K0 << 6)

struct fast_board {
    uint32_t lane[FAST_LANES];
};

/* A branch alternative: and-masks for the three band lanes of one digit. */
struct fast_alt {
    uint32_t mask[3];
};

/* A decision whose other alternatives are still to be searched: the board
 * it was taken on and the alternatives next..nalt-1 for `digit`. One board
 * per decision rather than one per alternative: at limits 1 and 2 most
 * alternatives are never entered, and a wide configuration branch has up to
 * six. */
struct fast_frame {
    struct fast_board board;
    struct fast_alt alt[6];
    int8_t digit, next, nalt;
};

typedef void fast_search_fn(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res);

struct fast_priv {
    fast_search_fn *search;
    struct fast_frame stack[FAST_STACK];
};

/* The lane of digit's band in a board in memory: 4 digit + band, but digit
 * 8's band b in the pad lane 4b + 3 of digit b. */
static inline int fast_lane_of(int digit, int band)
{
    return digit < 8 ? 4 * digit + band : 4 * band + 3;
}

static inline int fast_lane(int digit, int cell)
{
    return fast_lane_of(digit, cell / 27);
}

static inline uint32_t fast_bit(int cell)
{
    return 1u << (cell % 27);
}

static void fast_board_from_grid(struct fast_board *b, const struct grid *g)
{
    uint32_t given[10][3] = { { 0 } };
    for (int band = 0; band < 3; band++) {
        const uint8_t *cell = g->cell + 27 * band;
        for (int pos = 0; pos < 27; pos++)
            given[cell[pos]][band] |= 1u << pos;
    }
    memset(b, 0, sizeof(*b));
    for (int band = 0; band < 3; band++) {
        uint32_t any = 0;
        for (int v = 1; v <= 9; v++)
            any |= given[v][band];
        for (int d = 0; d < 9; d++)
            b->lane[fast_lane_of(d, band)] = (FAST_ALL & ~any) | given[d + 1][band];
    }
}

static void fast_board_to_grid(
    const struct fast_board *b, const struct grid *puzzle, struct grid *g)
{
    grid_copy(g, puzzle);
    for (int d = 0; d < 9; d++) {
        for (int band = 0; band < 3; band++) {
            uint32_t w = b->lane[fast_lane_of(d, band)];
            while (w) {
                g->cell[27 * band + __builtin_ctz(w)] = (uint8_t) (d + 1);
                w &= w - 1;
            }
        }
    }
}

static void fast_board_set(struct fast_board *b, int cell, int digit)
{
    const uint32_t keep = ~fast_bit(cell);
    for (int d = 0; d < 9; d++) {
        if (d != digit)
            b->lane[fast_lane(d, cell)] &= keep;
    }
}

/* Bit count without the libgcc call a baseline x86-64 build would make. */
static inline int fast_popcount(uint32_t x)
{
    x -= (x >> 1) & 0x55555555u;
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int) ((x * 0x01010101u) >> 24);
}

/* Band and stack configurations, found by FK(configs): per lane 4d + b, the
 * permutations of the digit's minirows in the band (one per row and box)
 * whose three minirows all hold a candidate, and in lane 4d the same for the
 * minicolumns of each stack (one per band and column). A permutation is
 * named by where row 0 (band 0) goes, k, and its kind: "up" takes k+1, k+2
 * for the next two, "down" k+2, k+1. Bit layout of `raw`, and of `count`
 * (the number of bits of each byte of raw):
 *   byte 0      band: up k at bit 3k, down k at bit 3k + 1;
 *   byte 1 + s  stack s: up k at bit k, down k at bit 3 + k.
 * Band configuration bit -> the mask of its three minirows: */
/* clang-format off */
static const uint32_t fast_band_conf[8] = {
    0x7007007u, 0x0E38007u, 0, 0x01F8038u, 0x7000E38u, 0, 0x0E00FC0u, 0x01C71C0u,
};

/* clang-format on */

/* Stack s, configuration bit -> the masks of bands 0, 1, 2: everything
 * outside the stack, and in it the column of each band (columns 0..2 in the
 * stack: 012, 120, 201, 021, 102, 210 for bits 0..5). */
#define FAST_STACK_COL(s, c)                                                             \
    ((FAST_ALL & ~(FAST_K0 << (3 * (s)))) | 0x40201u << (3 * (s) + (c)))
#define FAST_STACK_CONF(s, a, b, c)                                                      \
    {                                                                                    \
        FAST_STACK_COL(s, a), FAST_STACK_COL(s, b), FAST_STACK_COL(s, c)                 \
    }
#define FAST_STACK_CONFS(s)                                                              \
    {                                                                                    \
        FAST_STACK_CONF(s, 0, 1, 2), FAST_STACK_CONF(s, 1, 2, 0),                        \
            FAST_STACK_CONF(s, 2, 0, 1), FAST_STACK_CONF(s, 0, 2, 1),                    \
            FAST_STACK_CONF(s, 1, 0, 2), FAST_STACK_CONF(s, 2, 1, 0),                    \
    }
static const uint32_t fast_stack_mask[3][6][3] = {
    FAST_STACK_CONFS(0),
    FAST_STACK_CONFS(1),
    FAST_STACK_CONFS(2),
};

/* The branch (after tdoku's write-up: branch on the band with the fewest
 * configurations, on its digit with the fewest): the band or stack whose
 * undecided digits have the fewest configurations in all, then its digit with
 * the fewest (two or more); one alternative per configuration. `score` holds
 * the sums (see FK(configs)). With `widest`, the most instead of the fewest
 * twice: the emptiest band and its least decided digit (see FK(branch)).
 * Returns the digit, or -1 when every digit has one configuration in every
 * band and stack; `unit` gets the band (0..2) or 3 + the stack. */
static inline __attribute__((always_inline)) int fast_choose_config(
    const uint32_t raw[FAST_LANES], const uint32_t count[FAST_LANES],
    const uint32_t score[3], bool widest, struct fast_alt alt[6], int *nalt, int *unit)
{
    /* branch-free minimum searches: keys hold the score (0 = decided, made
     * the largest; with `widest` an open one's complement) above the index */
    const uint32_t keys[6] = { score[0] & 0xFF, score[1] & 0xFF, score[2] & 0xFF,
        (score[0] >> 8) & 0xFF, (score[0] >> 16) & 0xFF, score[0] >> 24 };
    uint32_t key = UINT32_MAX;
    for (int u = 0; u < 6; u++) {
        const uint32_t s = widest && keys[u] ? 0x100 - keys[u] : keys[u];
        const uint32_t k = ((s - 1) & 0x1FF) << 4 | (uint32_t) u;
        key = k < key ? k : key;
    }
    if ((key >> 4) == 0x1FF)
        return -1;
    const int best = (int) (key & 15);
    *unit = best;
    const int b = best < 3 ? best : 0, shift = best < 3 ? 0 : 8 * (best - 2);
    key = UINT32_MAX;
    for (int d = 0; d < 9; d++) {
        const uint32_t n = (count[fast_lane_of(d, b)] >> shift) & 0xFF;
        const uint32_t m = widest && n >= 2 ? 8 - n : n; /* 2..6 reversed */
        const uint32_t k = ((m - 2) & 0x1FF) << 4 | (uint32_t) d;
        key = k < key ? k : key;
    }
    const int digit = (int) (key & 15);
    uint32_t bits = (raw[fast_lane_of(digit, b)] >> shift) & 0xFF;
    int n = 0;
    for (; bits; bits &= bits - 1, n++) {
        const int bit = __builtin_ctz(bits);
        uint32_t *m = alt[n].mask;
        if (best < 3) {
            m[0] = m[1] = m[2] = FAST_ALL;
            m[best] = fast_band_conf[bit];
        } else {
            for (int band = 0; band < 3; band++)
                m[band] = fast_stack_mask[best - 3][bit][band];
        }
    }
    *nalt = n;
    return digit;
}

/* Open cells below which triads are skipped: with few open cells a triad
 * round rarely removes anything that the next guess would not, so it costs
 * more than the guesses it saves. The same on every path, so that the paths
 * search alike and their counters agree. */
enum { FAST_TRIADS_MIN_OPEN = 30 };

/* Empty cells below which a puzzle is dense: it takes the widest
 * configuration branch (FK(branch)), and until its search has abandoned
 * FAST_DESCENT_DEAD_ENDS boards (its descent) it branches on bands only,
 * skips triads and stops propagating sooner (FK(propagate)). Triads and rounds to the
 * fixpoint prune dead ends, and a dense puzzle that needs guesses at all mostly has many
 * solutions and few dead ends (serg's puzzles, about 35 givens, meet a contradiction
 * once in many guesses), so that work is mostly spent for nothing there. Puzzles with
 * 50 empty cells or more keep the full propagation. */
enum { FAST_DENSE_EMPTY = 50 };

/* In a descent, propagation stops after a round that settled at most this
 * many cells more than the round before (else at most one). */
enum { FAST_DESCENT_MORE = 3 };

/* The dead ends that end a dense puzzle's descent: the widest branches of a
 * puzzle with many solutions meet a few; a dense puzzle with few solutions
 * meets more, and gets triads back. A few rather than one, so that the odd
 * dead end of a puzzle with many solutions does not end its cheap descent. */
enum { FAST_DESCENT_DEAD_ENDS = 4 };

/* Givens below which a puzzle is sparse: no puzzle with fewer than 17 givens
 * has one solution (McGuire, Tugemann and Civario, 2012), so a sparse one has
 * several, mostly many, and takes the widest configuration branch as a dense
 * one does (FK(branch)). Unlike a dense one it keeps the full propagation,
 * triads included: its branches meet dead ends often enough that they pay. */
enum { FAST_SPARSE_GIVENS = 17 };

static int fast_empty_cells(const struct grid *puzzle)
{
    int empty = 0;
    for (int c = 0; c < 81; c++)
        empty += puzzle->cell[c] == 0;
    return empty;
}

#define FK_VL 4
#define FK_SUFFIX portable
#define FK_TARGET
#define FK_POPCOUNT fast_popcount
#include "solvers/fast_kernel.h"
#undef FK_POPCOUNT
#undef FK_VL
#undef FK_SUFFIX
#undef FK_TARGET

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FAST_X86 1
#include <immintrin.h>

/* GCC folds the spreading multiplications into shifts, clang keeps them as
 * multiplications (see FK(spreaders)): with GCC, hide the constants. */
#if !defined(__clang__)
#define FK_OPAQUE
#endif
#define FK_POPCOUNT __builtin_popcount
#define FK_X86_BYTES
#define FK_VL 8
#define FK_SUFFIX avx2
#define FK_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define FK_TEST(x) (!_mm256_testz_si256((__m256i) (x), (__m256i) (x)))
#include "solvers/fast_kernel.h"
#undef FK_VL
#undef FK_SUFFIX
#undef FK_TARGET
#undef FK_TEST

#define FK_VL 16
#define FK_SUFFIX avx512
#define FK_TARGET                                                                        \
    __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,bmi,bmi2,popcnt")))
#define FK_TEST(x) (_mm512_test_epi32_mask((__m512i) (x), (__m512i) (x)) != 0)
#include "solvers/fast_kernel.h"
#undef FK_VL
#undef FK_SUFFIX
#undef FK_TARGET
#undef FK_TEST
#undef FK_OPAQUE
#undef FK_POPCOUNT
#undef FK_X86_BYTES
#else
#define FAST_X86 0
#endif

enum { FAST_BEST, FAST_PORTABLE, FAST_AVX2, FAST_AVX512 };

static void search_portable(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    fast_search_portable(priv, puzzle, req, res);
}

#if FAST_X86
static void search_avx2(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    fast_search_avx2(priv, puzzle, req, res);
}

static void search_avx512(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    fast_search_avx512(priv, puzzle, req, res);
}
#endif

/* The paths, narrowest first, and what each needs. */
enum fast_isa {
    FAST_ISA_PORTABLE = SIMD_PORTABLE,
    FAST_ISA_AVX2 = SIMD_AVX2,
    FAST_ISA_AVX512 = SIMD_AVX512,
    FAST_ISA_COUNT = SIMD_PATH_COUNT
};

/* The path a registration runs: its forced one, or for `fast` the widest
 * allowed. */
static int fast_variant_isa(int variant, int allowed)
{
    switch (variant) {
    case FAST_AVX512:
        return FAST_ISA_AVX512;
    case FAST_AVX2:
        return FAST_ISA_AVX2;
    case FAST_PORTABLE:
        return FAST_ISA_PORTABLE;
    default:
        return allowed;
    }
}

/* solver.available: a forced path the CPU lacks is unavailable, never
 * replaced by another one (its results would carry the wrong name). */
static bool fast_available(int variant, char *why, size_t whylen)
{
    bool lowered;
    const int allowed = simd_allowed_path(&lowered, why, whylen);
    return allowed >= 0
        && simd_path_runs(
            fast_variant_isa(variant, allowed), allowed, lowered, why, whylen);
}

/* Reached only when the back end was opened unavailable and solver_run's
 * check let the puzzle through after all (the environment changed). */
static void search_unavailable(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    (void) priv;
    (void) puzzle;
    (void) req;
    res->outcome = SOLVE_ERROR;
    snprintf(
        res->error, sizeof(res->error), "this SIMD path was unavailable when opened");
}

static int fast_init(void *priv, int variant)
{
    struct fast_priv *p = priv;
    bool lowered;
    char why[120];
    const int allowed = simd_allowed_path(&lowered, why, sizeof(why));
    const int isa = fast_variant_isa(variant, allowed < 0 ? FAST_ISA_PORTABLE : allowed);
    p->search = search_unavailable;
    if (allowed < 0 || isa > allowed)
        return 0;
    p->search = search_portable;
#if FAST_X86
    if (isa == FAST_ISA_AVX512)
        p->search = search_avx512;
    else if (isa == FAST_ISA_AVX2)
        p->search = search_avx2;
#endif
    return 0;
}

static void fast_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    const struct fast_priv *p = priv;
    p->search(priv, puzzle, req, res);
}

#define FAST_SOLVER(id, suffix, variant_, summary_)                                      \
    const struct solver id = {                                                           \
        .name = "fast" suffix,                                                           \
        .family = "bitmask",                                                             \
        .summary = summary_,                                                             \
        .min_n = 9,                                                                      \
        .max_n = 9,                                                                      \
        .caps = SOLVER_CAP_COUNT | SOLVER_CAP_FAST | SOLVER_CAP_STEP_BUDGET,             \
        .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)     \
            | SOLVER_HAS(nodes),                                                         \
        .variant = variant_,                                                             \
        .available = fast_available,                                                     \
        .priv_size = sizeof(struct fast_priv),                                           \
        .init = fast_init,                                                               \
        .solve = fast_solve,                                                             \
    }

FAST_SOLVER(solver_fast, "", FAST_BEST,
    "9x9 SIMD bitboards: singles, locked candidates, triads; branches on band/stack "
    "configurations, then cells (best path)");
FAST_SOLVER(solver_fast_portable, "_portable", FAST_PORTABLE,
    "fast with the portable C path (GNU vector extensions, no ISA flags)");
FAST_SOLVER(solver_fast_avx2, "_avx2", FAST_AVX2, "fast with the 256-bit AVX2 path");
FAST_SOLVER(
    solver_fast_avx512, "_avx512", FAST_AVX512, "fast with the 512-bit AVX-512 path");

const char *fast_isa_path(const struct solver *s)
{
    if (s != &solver_fast && s != &solver_fast_portable && s != &solver_fast_avx2
        && s != &solver_fast_avx512)
        return NULL;
    bool lowered;
    char why[120];
    const int allowed = simd_allowed_path(&lowered, why, sizeof(why));
    if (allowed < 0)
        return "unavailable";
    const int isa = fast_variant_isa(s->variant, allowed);
    return isa <= allowed ? simd_path_names[isa] : "unavailable";
}
