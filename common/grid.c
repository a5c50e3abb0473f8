#include "common/grid.h"

#include <ctype.h>
#include <string.h>

int grid_init(struct grid *g, int box_rows, int box_cols, enum grid_variant variant)
{
    if (box_rows < 1 || box_cols < 1 || box_rows * box_cols > GRID_MAX_N)
        return -1;
    if (variant != GRID_STANDARD && variant != GRID_DIAGONAL)
        return -1;
    memset(g, 0, offsetof(struct grid, cell));
    g->box_rows = (uint8_t) box_rows;
    g->box_cols = (uint8_t) box_cols;
    g->n = (uint8_t) (box_rows * box_cols);
    g->ncells = (uint16_t) (g->n * g->n);
    g->variant = (uint8_t) variant;
    memset(g->cell, 0, g->ncells);
    if (g->ncells <= GRID_MAX_CAND_CELLS)
        memset(g->candidates, 0, g->ncells * sizeof(g->candidates[0]));
    return 0;
}

bool grid_shape_for_n(int n, int *box_rows, int *box_cols)
{
    /* Wide boxes (fewer rows than columns) for the non-square sizes, as in
     * the usual 6x6 (2x3) and 12x12 (3x4) puzzles. */
    static const struct {
        int n, r, c;
    } shapes[] = {
        { 4, 2, 2 },
        { 6, 2, 3 },
        { 8, 2, 4 },
        { 9, 3, 3 },
        { 12, 3, 4 },
        { 16, 4, 4 },
        { 25, 5, 5 },
        { 36, 6, 6 },
        { 49, 7, 7 },
    };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        if (shapes[i].n == n) {
            *box_rows = shapes[i].r;
            *box_cols = shapes[i].c;
            return true;
        }
    }
    return false;
}

bool grid_shape_for_cells(size_t ncells, int *box_rows, int *box_cols)
{
    for (int n = 1; n <= GRID_MAX_LINE_N; n++) {
        if ((size_t) (n * n) == ncells)
            return grid_shape_for_n(n, box_rows, box_cols);
    }
    return false;
}

int grid_parse_box(const char *text, int *box_rows, int *box_cols)
{
    int r = 0, c = 0, used = 0;
    if (sscanf(text, "%d%*[xX]%d%n", &r, &c, &used) != 2 || text[used] != '\0')
        return -1;
    if (r < 1 || c < 1 || r * c > GRID_MAX_N)
        return -1;
    *box_rows = r;
    *box_cols = c;
    return 0;
}

int grid_symbol_value(int ch)
{
    if (ch == '.' || ch == '0')
        return 0;
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 10;
    return -1;
}

char grid_value_symbol(int value)
{
    if (value <= 0)
        return '.';
    if (value <= 9)
        return (char) ('0' + value);
    if (value <= GRID_MAX_LINE_N)
        return (char) ('A' + value - 10);
    return '?';
}

bool grid_is_separator(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f'
        || ch == ',' || ch == ';' || ch == ':';
}

static void describe_byte(int ch, char *out, size_t outlen)
{
    if (isprint(ch))
        snprintf(out, outlen, "'%c'", ch);
    else
        snprintf(out, outlen, "byte 0x%02x", ch & 0xff);
}

int grid_candidate_side(size_t len)
{
    static const int sides[] = { 6, 8, 9, 16 };
    for (size_t k = 0; k < sizeof(sides) / sizeof(sides[0]); k++) {
        if (len == (size_t) (sides[k] * sides[k] * sides[k]))
            return sides[k];
    }
    return 0;
}

int grid_parse_candidates(struct grid *g, const char *text, size_t len,
    const struct grid_shape *shape, char *why, size_t whylen)
{
    int br = 0, bc = 0, n = 0;
    if (shape && shape->box_rows) {
        br = shape->box_rows;
        bc = shape->box_cols;
        n = br * bc;
    } else {
        for (int side = 1; side <= GRID_MAX_CAND_N && n == 0; side++) {
            if (len == (size_t) (side * side * side))
                n = side;
        }
        if (n == 0 || !grid_shape_for_n(n, &br, &bc)) {
            snprintf(why, whylen,
                "%zu symbols is no candidate grid size (n*n*n: 64, 216, 512, 729 or "
                "4096 expected)",
                len);
            return -1;
        }
    }
    if (n > GRID_MAX_CAND_N) {
        snprintf(why, whylen, "candidate grids go up to %dx%d, not %dx%d",
            GRID_MAX_CAND_N, GRID_MAX_CAND_N, n, n);
        return -1;
    }
    const size_t want = (size_t) n * (size_t) n * (size_t) n;
    if (len != want) {
        snprintf(why, whylen, "%zu candidate symbols expected for %dx%d, got %zu", want,
            n, n, len);
        return -1;
    }
    if (grid_init(g, br, bc, shape ? shape->variant : GRID_STANDARD) != 0) {
        snprintf(why, whylen, "unsupported shape %dx%d", br, bc);
        return -1;
    }
    g->has_candidates = true;
    for (int i = 0; i < g->ncells; i++) {
        uint16_t mask = 0;
        for (int v = 1; v <= n; v++) {
            const size_t at = (size_t) i * (size_t) n + (size_t) (v - 1);
            const int ch = (unsigned char) text[at];
            const int got = grid_symbol_value(ch);
            if (got == v) {
                mask |= (uint16_t) (1u << (v - 1));
            } else if (got != 0) {
                char sym[16];
                describe_byte(ch, sym, sizeof(sym));
                snprintf(why, whylen,
                    "%s at column %zu stands where candidate %d of r%dc%d goes", sym,
                    at + 1, v, i / n + 1, i % n + 1);
                return -1;
            }
        }
        if (mask == 0) {
            snprintf(why, whylen,
                "r%dc%d has no candidate: the puzzle is a contradiction", i / n + 1,
                i % n + 1);
            return -1;
        }
        g->candidates[i] = mask;
    }
    return 0;
}

void grid_format_candidates(const struct grid *g, char *out)
{
    const int n = g->n;
    for (int i = 0; i < g->ncells; i++) {
        const grid_mask mask = grid_allowed(g, i);
        for (int v = 1; v <= n; v++)
            *out++ = (mask >> (v - 1) & 1u) ? grid_value_symbol(v) : '.';
    }
    *out = '\0';
}

grid_mask grid_allowed(const struct grid *g, int i)
{
    if (g->cell[i])
        return (grid_mask) 1 << (g->cell[i] - 1);
    if (g->has_candidates)
        return g->candidates[i];
    return ~(grid_mask) 0 >> (64 - g->n);
}

int grid_parse_token(struct grid *g, const char *text, size_t len,
    const struct grid_shape *shape, char *why, size_t whylen)
{
    int br = 0, bc = 0;
    const enum grid_variant variant = shape ? shape->variant : GRID_STANDARD;
    if (shape && shape->box_rows) {
        br = shape->box_rows;
        bc = shape->box_cols;
        const size_t want = (size_t) (br * bc) * (size_t) (br * bc);
        if (len == want * (size_t) (br * bc) && br * bc > 1)
            return grid_parse_candidates(g, text, len, shape, why, whylen);
        if (br * bc > GRID_MAX_LINE_N) {
            snprintf(why, whylen,
                "%dx%d has no line form (symbols stop at Z = 35): use Lewis's format or "
                "a "
                "whitespace grid",
                br * bc, br * bc);
            return -1;
        }
        if (len != want) {
            snprintf(why, whylen, "%zu symbols expected for %dx%d, got %zu", want,
                br * bc, br * bc, len);
            return -1;
        }
    } else if (grid_candidate_side(len)) {
        return grid_parse_candidates(g, text, len, shape, why, whylen);
    } else if (!grid_shape_for_cells(len, &br, &bc)) {
        snprintf(why, whylen,
            "%zu symbols is no grid size (clues: 16, 36, 64, 81, 144, 256 or 625; "
            "candidates: 216, 512, 729 or 4096)",
            len);
        return -1;
    }
    if (grid_init(g, br, bc, variant) != 0) {
        snprintf(why, whylen, "unsupported shape %dx%d", br, bc);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        const int v = grid_symbol_value((unsigned char) text[i]);
        if (v < 0 || v > g->n) {
            char sym[16];
            describe_byte((unsigned char) text[i], sym, sizeof(sym));
            snprintf(why, whylen, "symbol %s at column %zu is not a %dx%d value", sym,
                i + 1, g->n, g->n);
            return -1;
        }
        g->cell[i] = (uint8_t) v;
    }
    return 0;
}

void grid_format_line(const struct grid *g, char *out)
{
    if (!grid_has_line_form(g)) {
        strcpy(out, "-");
        return;
    }
    for (int i = 0; i < g->ncells; i++)
        out[i] = grid_value_symbol(g->cell[i]);
    out[g->ncells] = '\0';
}

static void print_rule(const struct grid *g, FILE *out)
{
    const char *dashes = grid_has_line_form(g) ? "--" : "---";
    for (int c = 0; c < g->n; c++) {
        if (c % g->box_cols == 0)
            fputs("+-", out);
        fputs(dashes, out);
    }
    fputs("+\n", out);
}

void grid_print_pretty(const struct grid *g, FILE *out)
{
    for (int r = 0; r < g->n; r++) {
        if (r % g->box_rows == 0)
            print_rule(g, out);
        for (int c = 0; c < g->n; c++) {
            if (c % g->box_cols == 0)
                fputs("| ", out);
            const int v = g->cell[r * g->n + c];
            if (grid_has_line_form(g)) {
                fputc(grid_value_symbol(v), out);
                fputc(' ', out);
            } else if (v) {
                fprintf(out, "%2d ", v);
            } else {
                fputs(" . ", out);
            }
        }
        fputs("|\n", out);
    }
    print_rule(g, out);
}

/* Visits the cells of unit u: rows 0..n-1, columns n..2n-1, boxes 2n..3n-1,
 * then the two diagonals of the variant. */
static int unit_cell(const struct grid *g, int u, int k)
{
    const int n = g->n;
    if (u < n)
        return u * n + k;
    if (u < 2 * n)
        return k * n + (u - n);
    if (u < 3 * n) {
        const int b = u - 2 * n;
        const int r0 = (b / g->box_rows) * g->box_rows,
                  c0 = (b % g->box_rows) * g->box_cols;
        return (r0 + k / g->box_cols) * n + c0 + k % g->box_cols;
    }
    if (u == 3 * n)
        return k * n + k;
    return k * n + (n - 1 - k);
}

static void describe_unit(const struct grid *g, int u, char *out, size_t outlen)
{
    const int n = g->n;
    if (u < n)
        snprintf(out, outlen, "row %d", u + 1);
    else if (u < 2 * n)
        snprintf(out, outlen, "column %d", u - n + 1);
    else if (u < 3 * n)
        snprintf(out, outlen, "box %d", u - 2 * n + 1);
    else
        snprintf(out, outlen, "%s diagonal", u == 3 * n ? "main" : "anti");
}

/* One pass over the cells with a bit per value in each unit. Every solve
 * starts with this check (solver_run), and the scan below, which can name
 * the conflict, cost 3-9% of a microsecond solve; it now runs only when this
 * pass has found something to name. */
static bool grid_has_conflict(const struct grid *g)
{
    const int n = g->n, box_cols = g->box_cols;
    const int boxes_per_band = n / box_cols;
    const bool diagonal = g->variant == GRID_DIAGONAL;
    grid_mask col[GRID_MAX_N], box[GRID_MAX_N], main_diag = 0, anti_diag = 0;
    memset(col, 0, (size_t) n * sizeof(col[0]));
    memset(box, 0, (size_t) n * sizeof(box[0]));
    for (int r = 0; r < n; r++) {
        const uint8_t *cells = &g->cell[r * n];
        const int band = r / g->box_rows * boxes_per_band;
        grid_mask row = 0;
        for (int c = 0; c < n; c++) {
            if (!cells[c])
                continue;
            const grid_mask bit = (grid_mask) 1 << (cells[c] - 1);
            const int b = band + c / box_cols;
            if ((row | col[c] | box[b]) & bit)
                return true;
            row |= bit;
            col[c] |= bit;
            box[b] |= bit;
            if (diagonal && r == c) {
                if (main_diag & bit)
                    return true;
                main_diag |= bit;
            }
            if (diagonal && r + c == n - 1) {
                if (anti_diag & bit)
                    return true;
                anti_diag |= bit;
            }
        }
    }
    return false;
}

/* The value of a cell's only candidate (bit v-1 for v), or 0 when it has
 * several: two such cells of one value in a unit clash as two clues do. */
static int lone_candidate(uint32_t mask)
{
    return mask && !(mask & (mask - 1)) ? __builtin_ctz(mask) + 1 : 0;
}

bool grid_find_conflict(const struct grid *g, char *why, size_t whylen)
{
    if (!g->has_candidates && !grid_has_conflict(g))
        return false;
    const int nunits = 3 * g->n + (g->variant == GRID_DIAGONAL ? 2 : 0);
    for (int u = 0; u < nunits; u++) {
        int seen_at[GRID_MAX_N + 1];
        for (int v = 0; v <= g->n; v++)
            seen_at[v] = -1;
        for (int k = 0; k < g->n; k++) {
            const int cell = unit_cell(g, u, k);
            const int v
                = g->has_candidates ? lone_candidate(g->candidates[cell]) : g->cell[cell];
            if (v == 0)
                continue;
            if (seen_at[v] >= 0) {
                char unit[32];
                describe_unit(g, u, unit, sizeof(unit));
                char value[8];
                if (grid_has_line_form(g))
                    snprintf(value, sizeof(value), "%c", grid_value_symbol(v));
                else
                    snprintf(value, sizeof(value), "%d", v);
                snprintf(why, whylen, "%s %s appears twice in %s (r%dc%d and r%dc%d)",
                    g->has_candidates ? "lone candidate" : "clue", value, unit,
                    seen_at[v] / g->n + 1, seen_at[v] % g->n + 1, cell / g->n + 1,
                    cell % g->n + 1);
                return true;
            }
            seen_at[v] = cell;
        }
    }
    return false;
}

bool grid_same_shape(const struct grid *a, const struct grid *b)
{
    return a->box_rows == b->box_rows && a->box_cols == b->box_cols
        && a->variant == b->variant;
}

int grid_count_clues(const struct grid *g)
{
    int clues = 0;
    for (int i = 0; i < g->ncells; i++)
        clues += g->cell[i] != 0;
    return clues;
}

void grid_describe_shape(const struct grid *g, char *out, size_t outlen)
{
    int br, bc;
    const bool usual
        = grid_shape_for_n(g->n, &br, &bc) && br == g->box_rows && bc == g->box_cols;
    char box[16] = "";
    if (!usual || br != bc)
        snprintf(box, sizeof(box), " (%dx%d)", g->box_rows, g->box_cols);
    snprintf(out, outlen, "%dx%d%s%s", g->n, g->n, box,
        g->variant == GRID_DIAGONAL ? " diagonal" : "");
}
