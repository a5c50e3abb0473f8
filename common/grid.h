/* The grid model shared by every part of sudolab.
 *
 * A grid is N x N cells with boxes of box_rows x box_cols cells (N = box_rows *
 * box_cols, up to GRID_MAX_N), optionally with the diagonal (X) rule: each main
 * diagonal also holds every symbol once. Cells are stored row-major; 0 is a
 * blank and 1..N a value. Symbols in text are 1-9 then A, B, C... (so 16x16
 * uses 1-9A-G); they run out at Z (35), so the one-line text form stops at
 * GRID_MAX_LINE_N and larger grids (36x36, 49x49) are read and written as
 * numbers (Lewis's format, whitespace grids: common/corpus.h).
 *
 * A pencil-mark ("sukaku") puzzle is given by the candidates of each cell
 * rather than by clues: has_candidates is set, every cell is blank, and
 * candidates[i] holds the values still allowed at cell i (bit v-1 for value
 * v). A cell left with one candidate is not a clue: as in SukakuExplainer,
 * placing it is a naked single for the solver or the rater to find. Only
 * grids up to GRID_MAX_CAND_N have candidates (the text form of 25x25 would
 * be 15,625 characters a line). */
#ifndef SUDOLAB_COMMON_GRID_H
#define SUDOLAB_COMMON_GRID_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* GRID_MAX_N is the model's one size limit: 49 takes 7x7 boxes, the largest
 * order that Lewis's format and Lloyd & Amos's program use. Everything sized
 * by it follows (cells, units, grid_mask). Back ends and tools whose value
 * sets are uint32_t declare GRID_MAX_N_MASK32 as their limit instead. */
enum {
    GRID_MAX_N = 49,
    GRID_MAX_CELLS = GRID_MAX_N * GRID_MAX_N,
    GRID_MAX_CAND_N = 16,
    GRID_MAX_CAND_CELLS = GRID_MAX_CAND_N * GRID_MAX_CAND_N,
    GRID_MAX_LINE_N = 35, /* symbols 1-9, A-Z */
    GRID_MAX_N_MASK32 = 25, /* the largest usual size whose values fit 32 bits */
};

/* A set of values, bit v-1 for value v, wide enough for GRID_MAX_N values
 * (uint32_t would do up to 32). */
typedef uint64_t grid_mask;
static_assert(GRID_MAX_N <= 64, "grid_mask holds at most 64 values");

enum grid_variant {
    GRID_STANDARD = 0,
    GRID_DIAGONAL = 1, /* both main diagonals are units too (seed 002) */
};

/* Geometry only: what a puzzle line does not say and a corpus option may. */
struct grid_shape {
    uint8_t box_rows, box_cols; /* 0, 0 = infer from the puzzle's length */
    uint8_t variant; /* enum grid_variant */
};

struct grid {
    uint8_t box_rows, box_cols, n, variant;
    uint16_t ncells;
    bool has_candidates; /* a pencil-mark puzzle: see candidates */
    uint8_t cell[GRID_MAX_CELLS];
    /* Allowed values per cell when has_candidates (bit v-1 for v), else
     * unused; never more than GRID_MAX_CAND_N bits, so only the first
     * GRID_MAX_CAND_CELLS cells have room (a grid stays small to copy). */
    uint16_t candidates[GRID_MAX_CAND_CELLS];
};

/* Copies what src holds: its shape, its ncells cells and, when it has them,
 * its candidates. A 9x9 copy costs its 81 cells whatever GRID_MAX_N is, where
 * `*dst = *src` copies every cell of the largest grid. */
static inline void grid_copy(struct grid *dst, const struct grid *src)
{
    memcpy(dst, src, offsetof(struct grid, cell) + src->ncells);
    if (src->has_candidates)
        memcpy(
            dst->candidates, src->candidates, src->ncells * sizeof(src->candidates[0]));
}

/* Sets up an empty grid: its ncells cells blank, no candidates (the cells
 * past ncells are not written). Returns 0, or -1 when the shape is not one we
 * support (N = box_rows * box_cols from 1 to GRID_MAX_N). */
int grid_init(struct grid *g, int box_rows, int box_cols, enum grid_variant variant);

/* The usual box shape for N*N cells of a line: 16 -> 2x2, 36 -> 2x3, 64 -> 2x4,
 * 81 -> 3x3, 144 -> 3x4, 256 -> 4x4, 625 -> 5x5 (the same for N from a row of a
 * whitespace grid, which also takes 36 -> 6x6 and 49 -> 7x7; a line's symbols
 * stop at 25x25). Returns false for any other count. */
bool grid_shape_for_cells(size_t ncells, int *box_rows, int *box_cols);
bool grid_shape_for_n(int n, int *box_rows, int *box_cols);

/* Parses "RxC" (box rows x box columns, e.g. "2x3" for 6x6). Returns 0 or -1. */
int grid_parse_box(const char *text, int *box_rows, int *box_cols);

/* Value of a symbol: '.' and '0' are 0 (blank), '1'-'9' are 1-9, 'A'/'a'.. are
 * 10.. Returns -1 for anything else. Does not check the value against N. */
int grid_symbol_value(int ch);
/* Symbol of a value 0..GRID_MAX_LINE_N ('.' for 0; '?' above). */
char grid_value_symbol(int value);

/* True for the characters that end a puzzle token: whitespace, ',', ';', ':'. */
bool grid_is_separator(int ch);

/* Parses one puzzle token (the leading part of a corpus line up to the first
 * separator; `len` bytes of `text`, not NUL-terminated). The shape comes from
 * `shape` when box_rows is non-zero, else from the token's length. On failure
 * returns -1 and writes a reason ("81 symbols expected, got 80", "symbol 'H' at
 * column 5 is not a 9x9 value") into why. Does not check the rules. */
int grid_parse_token(struct grid *g, const char *text, size_t len,
    const struct grid_shape *shape, char *why, size_t whylen);

/* The candidate (pencil-mark) text form: n*n*n characters, cell by cell, each
 * cell's n characters saying for v = 1..n the symbol of v where v is still
 * allowed and '.' or '0' where it is removed (tdoku's benchmark and
 * SukakuExplainer read 9x9 this way). grid_parse_token takes it by length for
 * 6x6, 8x8, 9x9 and 16x16 (216, 512, 729 and 4096 characters; 4x4's 64 is
 * 8x8's clue length, so 4x4 only with grid_parse_candidates). Returns 0, or
 * -1 and a reason: a symbol out of place ("'5' at column 13 stands where
 * candidate 4 of r1c2 goes") or a cell with no candidate left ("r1c2 has no
 * candidate: the puzzle is a contradiction"). */
int grid_parse_candidates(struct grid *g, const char *text, size_t len,
    const struct grid_shape *shape, char *why, size_t whylen);
/* The side n of a candidate text of len characters taken by length (6, 8, 9,
 * 16), or 0. */
int grid_candidate_side(size_t len);
/* Writes the candidate form ('.' for removed) and a NUL: out must hold
 * n*n*n + 1 bytes. For a puzzle without candidates, clues have one candidate
 * and blanks all n. */
void grid_format_candidates(const struct grid *g, char *out);
/* The values allowed at cell i: its candidates, or for a clue that value alone,
 * or all n for a blank of a clue puzzle (bit v-1 for v). */
grid_mask grid_allowed(const struct grid *g, int i);

/* Writes the line form (ncells symbols, '.' for blanks) and a NUL: `out` must
 * hold ncells + 1 bytes. A grid above GRID_MAX_LINE_N has no line form: out
 * is then "-" (grid_has_line_form says which). */
void grid_format_line(const struct grid *g, char *out);
static inline bool grid_has_line_form(const struct grid *g)
{
    return g->n <= GRID_MAX_LINE_N;
}

/* Draws the grid with box rules for people (values as numbers above
 * GRID_MAX_LINE_N). */
void grid_print_pretty(const struct grid *g, FILE *out);

/* Finds the first pair of equal values in one unit (for a pencil-mark
 * puzzle, two cells whose only candidate is the same value). Returns false
 * when the clues are consistent; else true, and describes the clash in why. */
bool grid_find_conflict(const struct grid *g, char *why, size_t whylen);

bool grid_same_shape(const struct grid *a, const struct grid *b);
int grid_count_clues(const struct grid *g);
/* "9x9", "6x6 (2x3)", "9x9 diagonal": for messages and listings. */
void grid_describe_shape(const struct grid *g, char *out, size_t outlen);

static inline int grid_row_of(const struct grid *g, int cell)
{
    return cell / g->n;
}

static inline int grid_col_of(const struct grid *g, int cell)
{
    return cell % g->n;
}

static inline int grid_box_of(const struct grid *g, int cell)
{
    const int r = cell / g->n, c = cell % g->n;
    return (r / g->box_rows) * g->box_rows + c / g->box_cols;
}

#endif /* SUDOLAB_COMMON_GRID_H */
