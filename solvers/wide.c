/* wide: a bitboard back end for every grid size, vectorised, made for the
 * large grids: 12x12, 16x16 and 25x25, diagonal or not.
 *
 * Board: one candidate plane per digit, a matrix of N rows held as the lanes
 * of one vector, bit c of lane r = "the digit may go in row r, column c":
 *   N <= 16  16 lanes of 16 bits, 256 bits a digit (one AVX2 register),
 *            4,096 bits a 16x16 board;
 *   N <= 25  32 lanes of 32 bits, 1,024 bits a digit (two AVX-512 or four
 *            AVX2 registers); for 5x5 boxes, chunks of whole bands (five
 *            256-bit chunks of one band, or on AVX-512 two 512-bit chunks
 *            of three bands).
 * Rows of a unit are then lanes, columns are bits, a box is a few lanes
 * masked by its stack's columns, so every rule is a few lane-wise vector
 * operations (all rows of a digit at once) and, for columns and boxes, folds
 * of the lanes into "seen once / seen twice" counters. A cell whose value is
 * known simply keeps one candidate. A propagation round, for all digits
 * (wide_kernel.h):
 *   naked singles  per-cell counters (one / two or more candidates) over the
 *                  digits; a cell with none is a contradiction;
 *   a known cell   clears its digit from its row, column, box (and diagonals);
 *                  two known cells of one digit in a unit are a
 *                  contradiction, so a full board that survives a round is a
 *                  solution;
 *   hidden singles the only place of a digit in a row (a lane with one bit),
 *                  column, box or diagonal (the folds) takes the digit; a
 *                  unit without a place for a digit, or a cell that is the
 *                  only place of two digits, is a contradiction.
 * Rounds repeat until nothing moves; then locked candidates (pointing and
 * claiming, rows and columns) run once for every digit, and the rounds resume
 * if they cleared anything; if not, naked pairs (two cells of a unit with the
 * same two candidates d, e clear d and e from the rest of the unit; every
 * pair of digits, as planes of bivalue cells) on the shapes with a kernel of
 * their own (3x3, 3x4, 4x3, 4x4, 5x5). Pairs halve the nodes on minimal 16x16
 * puzzles and take 2.6 times fewer on dug 25x25 ones.
 * A round redoes only what may have moved: known cells not yet cleared from
 * their peers, hidden singles of the digits whose plane changed (a set of
 * "dirty" digits and a plane of "done" cells kept in each board).
 * Lookahead: at a fixpoint, every bivalue cell (up to 64) is set both ways
 * on a copy and propagated (singles only); a value that fails is ruled out,
 * and so is a candidate both copies remove (failed literals and their
 * intersection, as lookahead SAT solvers do). On the dug 25x25 puzzles this
 * takes tens to thousands of times fewer nodes and, with the rounds redone
 * incrementally, over ten times less time; most of the time now goes into
 * these copies (nine rounds in ten on 16x16 and 25x25 puzzles).
 * Search: depth first with an explicit stack of boards copied by value (no
 * recursion; the stack, ncells + 1 boards, is allocated once per instance and
 * size). It branches on the probed cell whose two values remove the most
 * candidates (its two copies become the two branches), on its lowest
 * candidate (or the one whose copy was solved); without bivalue cells on the
 * open cell with the fewest candidates (bit-sliced counts over the digits):
 * "cell = a" first, then "cell != a".
 *
 * Origin: written for sudolab. The ideas are the public ones of bitboard
 * solvers (per-digit candidate planes, JCZSolve and fsss2; data-parallel
 * rounds, tdoku); the layout and the code are our own.
 *
 * Counters:
 *   steps      propagation rounds (one data-parallel pass of singles over all
 *              cells and digits, with the locked candidates and pairs that may
 *              follow it), the lookahead's included; the unit budget_steps
 *              counts, enforced per round;
 *   nodes      boards propagated: the puzzle, then every branch entered;
 *   guesses    branch alternatives entered ("cell = a" or "cell != a"), so
 *              nodes - 1;
 *   backtracks boards abandoned on a contradiction.
 *
 * Registrations: `wide` runs the best path the CPU has (AVX-512, AVX2, else
 * portable); `wide_portable`, `wide_avx2` and `wide_avx512` force one, so the
 * cross-check covers each. A forced path the CPU lacks is unavailable, never
 * run as another path under its name. SUDOLAB_MAX_SIMD=portable|avx2|avx512
 * lowers the widest path allowed, as for `fast`. Every shape up to 25x25 and
 * the diagonal variant are handled; the portable path is the WebAssembly one. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/registry.h"
#include "solvers/simd_path.h"
#include "solvers/wide.h"

/* Vectors wider than the baseline's registers pass between the kernel's
 * helpers; they are all inlined, so the ABI note GCC and clang give for them
 * (GCC at the end of the file, hence for the whole file) does not apply. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

/* Bit count without the libgcc call a baseline x86-64 build would make. */
static inline int wide_popcount64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int) ((x * 0x0101010101010101ull) >> 56);
}

/* Scratch of one solve: the kernel's private state and its board stack. */
typedef size_t wide_need_fn(int ncells);
typedef void wide_search_fn(void *mem, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res);

#define WIDE_ALIGN 128

/* The kernel instances (wide_kernel.h): per path, the small board (N <= 16,
 * rows of 16 bits) and the large one (N <= 25, rows of 32 bits), each for any
 * box shape (one chunk, box rules lane by lane) and for the shapes that
 * matter (3x3, 3x4, 4x3, 4x4, 5x5: box rules as whole-vector operations).
 * Chunks are one register wide: 256 bits on the x86 paths (a 16x16 plane,
 * a band of 25x25), 512 bits for 5x5 boxes on AVX-512 (three bands, so a
 * 25x25 plane is two chunks rather than five: 2.3 times faster), 128 bits
 * for the small boards of the portable path (the baseline's SSE2,
 * WebAssembly's SIMD). */
/* clang-format off */
#define WIDE_POPCOUNT64 wide_popcount64
#define WK_TARGET
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 16
#define WK_NB 1
#define WK_MAXN 16
#define WK_SUFFIX s_gen_portable
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 8
#define WK_RPC 6
#define WK_NB 2
#define WK_MAXN 16
#define WK_BR 3
#define WK_BC 3
#define WK_SUFFIX s_33_portable
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 8
#define WK_RPC 6
#define WK_NB 2
#define WK_MAXN 16
#define WK_BR 3
#define WK_BC 4
#define WK_SUFFIX s_34_portable
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 8
#define WK_RPC 8
#define WK_NB 2
#define WK_MAXN 16
#define WK_BR 4
#define WK_BC 3
#define WK_SUFFIX s_43_portable
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 8
#define WK_RPC 8
#define WK_NB 2
#define WK_MAXN 16
#define WK_BR 4
#define WK_BC 4
#define WK_SUFFIX s_44_portable
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 4
#define WK_ROWS 32
#define WK_RPC 32
#define WK_NB 1
#define WK_MAXN 25
#define WK_SUFFIX l_gen_portable
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 4
#define WK_ROWS 8
#define WK_RPC 5
#define WK_NB 5
#define WK_MAXN 25
#define WK_BR 5
#define WK_BC 5
#define WK_SUFFIX l_55_portable
#include "solvers/wide_kernel.h"
#undef WK_TARGET
#undef WIDE_POPCOUNT64

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define WIDE_X86 1
#include <immintrin.h>
#define WIDE_POPCOUNT64 __builtin_popcountll
#define WK_TEST256(x) (!_mm256_testz_si256((__m256i) (x), (__m256i) (x)))
#define WK_TARGET __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 16
#define WK_NB 1
#define WK_MAXN 16
#define WK_SUFFIX s_gen_avx2
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 15
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 3
#define WK_BC 3
#define WK_SUFFIX s_33_avx2
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 15
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 3
#define WK_BC 4
#define WK_SUFFIX s_34_avx2
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 16
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 4
#define WK_BC 3
#define WK_SUFFIX s_43_avx2
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 16
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 4
#define WK_BC 4
#define WK_SUFFIX s_44_avx2
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 4
#define WK_ROWS 32
#define WK_RPC 32
#define WK_NB 1
#define WK_MAXN 25
#define WK_SUFFIX l_gen_avx2
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 4
#define WK_ROWS 8
#define WK_RPC 5
#define WK_NB 5
#define WK_MAXN 25
#define WK_BR 5
#define WK_BC 5
#define WK_SUFFIX l_55_avx2
#include "solvers/wide_kernel.h"
#undef WK_TARGET
#define WK_TARGET \
    __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq,avx2,bmi,bmi2,popcnt")))
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 16
#define WK_NB 1
#define WK_MAXN 16
#define WK_SUFFIX s_gen_avx512
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 15
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 3
#define WK_BC 3
#define WK_SUFFIX s_33_avx512
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 15
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 3
#define WK_BC 4
#define WK_SUFFIX s_34_avx512
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 16
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 4
#define WK_BC 3
#define WK_SUFFIX s_43_avx512
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 2
#define WK_ROWS 16
#define WK_RPC 16
#define WK_NB 1
#define WK_MAXN 16
#define WK_BR 4
#define WK_BC 4
#define WK_SUFFIX s_44_avx512
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 4
#define WK_ROWS 32
#define WK_RPC 32
#define WK_NB 1
#define WK_MAXN 25
#define WK_SUFFIX l_gen_avx512
#include "solvers/wide_kernel.h"
#define WK_LANEBYTES 4
#define WK_ROWS 16
#define WK_RPC 15
#define WK_NB 2
#define WK_MAXN 25
#define WK_BR 5
#define WK_BC 5
#define WK_SUFFIX l_55_avx512
#include "solvers/wide_kernel.h"
#undef WK_TARGET
#undef WK_TEST256
#undef WIDE_POPCOUNT64
#else
#define WIDE_X86 0
#endif
/* clang-format on */

/* The paths, narrowest first, and what each needs. */
enum wide_isa {
    WIDE_ISA_PORTABLE = SIMD_PORTABLE,
    WIDE_ISA_AVX2 = SIMD_AVX2,
    WIDE_ISA_AVX512 = SIMD_AVX512,
    WIDE_ISA_COUNT = SIMD_PATH_COUNT
};
enum { WIDE_BEST = -1 };

/* Per path, the kernels in the order of enum wide_board. */
enum wide_board {
    WIDE_S_GEN,
    WIDE_S_33,
    WIDE_S_34,
    WIDE_S_43,
    WIDE_S_44,
    WIDE_L_GEN,
    WIDE_L_55,
    WIDE_BOARDS
};

struct wide_kernel {
    wide_need_fn *need[WIDE_BOARDS];
    wide_search_fn *search[WIDE_BOARDS];
};

/* clang-format off */
#define WIDE_KERNEL(isa)                                                                 \
    {                                                                                    \
        { wide_need_s_gen_##isa, wide_need_s_33_##isa, wide_need_s_34_##isa,             \
            wide_need_s_43_##isa, wide_need_s_44_##isa, wide_need_l_gen_##isa,           \
            wide_need_l_55_##isa },                                                      \
        { search_s_gen_##isa, search_s_33_##isa, search_s_34_##isa, search_s_43_##isa,   \
            search_s_44_##isa, search_l_gen_##isa, search_l_55_##isa }                   \
    }
/* clang-format on */

/* The kernel for a shape. */
static enum wide_board wide_board_for(const struct grid *g)
{
    const int br = g->box_rows, bc = g->box_cols;
    if (g->n > 16)
        return br == 5 && bc == 5 ? WIDE_L_55 : WIDE_L_GEN;
    if (br == 3)
        return bc == 3 ? WIDE_S_33 : bc == 4 ? WIDE_S_34 : WIDE_S_GEN;
    if (br == 4)
        return bc == 3 ? WIDE_S_43 : bc == 4 ? WIDE_S_44 : WIDE_S_GEN;
    return WIDE_S_GEN;
}

static const struct wide_kernel wide_kernels[WIDE_ISA_COUNT] = {
    WIDE_KERNEL(portable),
#if WIDE_X86
    WIDE_KERNEL(avx2),
    WIDE_KERNEL(avx512),
#endif
};

struct wide_priv {
    const struct wide_kernel *kernel; /* NULL: the path was unavailable when opened */
    void *mem; /* the kernel's scratch, WIDE_ALIGN-aligned */
    size_t mem_size;
};

/* The path a registration runs: its forced one (variant), or the widest
 * allowed. */
static int wide_variant_isa(int variant, int allowed)
{
    return variant == WIDE_BEST ? allowed : variant;
}

static bool wide_available(int variant, char *why, size_t whylen)
{
    bool lowered;
    const int allowed = simd_allowed_path(&lowered, why, whylen);
    return allowed >= 0
        && simd_path_runs(
            wide_variant_isa(variant, allowed), allowed, lowered, why, whylen);
}

static int wide_init(void *priv, int variant)
{
    struct wide_priv *p = priv;
    bool lowered;
    char why[120];
    const int allowed = simd_allowed_path(&lowered, why, sizeof(why));
    const int isa = wide_variant_isa(variant, allowed < 0 ? WIDE_ISA_PORTABLE : allowed);
    p->kernel = allowed < 0 || isa > allowed ? NULL : &wide_kernels[isa];
    return 0;
}

static void wide_fini(void *priv)
{
    struct wide_priv *p = priv;
    free(p->mem);
    p->mem = NULL;
}

static void wide_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct wide_priv *p = priv;
    if (!p->kernel) {
        /* opened unavailable, and solver_run's check let the puzzle through
         * after all (the environment changed) */
        res->outcome = SOLVE_ERROR;
        snprintf(
            res->error, sizeof(res->error), "this SIMD path was unavailable when opened");
        return;
    }
    const enum wide_board size = wide_board_for(puzzle);
    /* aligned_alloc wants a multiple of the alignment (C11) */
    const size_t need = (p->kernel->need[size](puzzle->ncells) + WIDE_ALIGN - 1)
        / WIDE_ALIGN * WIDE_ALIGN;
    if (p->mem_size < need) {
        free(p->mem);
        p->mem_size = 0;
        p->mem = aligned_alloc(WIDE_ALIGN, need);
        if (!p->mem) {
            res->outcome = SOLVE_ERROR;
            snprintf(res->error, sizeof(res->error), "out of memory for the board stack");
            return;
        }
        p->mem_size = need;
    }
    p->kernel->search[size](p->mem, puzzle, req, res);
}

#define WIDE_SOLVER(id, suffix, variant_, summary_)                                      \
    const struct solver id = {                                                           \
        .name = "wide" suffix,                                                           \
        .family = "bitmask",                                                             \
        .summary = summary_,                                                             \
        .min_n = 1,                                                                      \
        .max_n = GRID_MAX_N_MASK32, /* 32-bit lanes */                                   \
        .caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_FAST                 \
            | SOLVER_CAP_STEP_BUDGET,                                                    \
        .counters = SOLVER_HAS(steps) | SOLVER_HAS(guesses) | SOLVER_HAS(backtracks)     \
            | SOLVER_HAS(nodes),                                                         \
        .variant = variant_,                                                             \
        .available = wide_available,                                                     \
        .priv_size = sizeof(struct wide_priv),                                           \
        .init = wide_init,                                                               \
        .solve = wide_solve,                                                             \
        .fini = wide_fini,                                                               \
    }

WIDE_SOLVER(solver_wide, "", WIDE_BEST,
    "SIMD bitboards for every size to 25x25: singles, locked candidates, pairs, "
    "failed-literal lookahead (best path)");
WIDE_SOLVER(solver_wide_portable, "_portable", WIDE_ISA_PORTABLE,
    "wide with the portable C path (GNU vector extensions, no ISA flags)");
WIDE_SOLVER(solver_wide_avx2, "_avx2", WIDE_ISA_AVX2, "wide with the AVX2 path");
WIDE_SOLVER(solver_wide_avx512, "_avx512", WIDE_ISA_AVX512, "wide with the AVX-512 path");

const char *wide_isa_path(const struct solver *s)
{
    if (s != &solver_wide && s != &solver_wide_portable && s != &solver_wide_avx2
        && s != &solver_wide_avx512)
        return NULL;
    bool lowered;
    char why[120];
    const int allowed = simd_allowed_path(&lowered, why, sizeof(why));
    if (allowed < 0)
        return "unavailable";
    const int isa = wide_variant_isa(s->variant, allowed);
    return isa <= allowed ? simd_path_names[isa] : "unavailable";
}
