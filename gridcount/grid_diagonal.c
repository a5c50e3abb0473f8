/* Diagonal grids of two-band shapes (grid_count.h): the first band with its
 * first row 1..N, every one; the second band from its column sets. */
#include <stdio.h>
#include <string.h>

#include "gridcount/grid_count.h"

enum { DG_MAX_N = 6 };

/* Rows 0..R-1 are the first band, R..2R-1 the second. */
struct diag_fill {
    int n, R, C;
    uint8_t x[DG_MAX_N * DG_MAX_N];
    unsigned row[DG_MAX_N], col[DG_MAX_N], box[DG_MAX_N];
    unsigned main_used, anti_used; /* digits on each diagonal so far */
    struct grid_count_diagonal *out;
};

static int dg_box(const struct diag_fill *f, int r, int c)
{
    return r / f->R * f->R + c / f->C;
}

/* Whether v may go at (r, c), and its bit on each diagonal through (r, c). */
static bool dg_fits(
    const struct diag_fill *f, int r, int c, int v, unsigned *on_main, unsigned *on_anti)
{
    const unsigned bit = 1u << v;
    *on_main = r == c ? bit : 0;
    *on_anti = r + c == f->n - 1 ? bit : 0;
    return !((f->row[r] | f->col[c] | f->box[dg_box(f, r, c)]) & bit)
        && !(f->main_used & *on_main) && !(f->anti_used & *on_anti);
}

static void dg_toggle(struct diag_fill *f, int r, int c, int v, unsigned m, unsigned a)
{
    const unsigned bit = 1u << v;
    f->row[r] ^= bit;
    f->col[c] ^= bit;
    f->box[dg_box(f, r, c)] ^= bit;
    f->main_used ^= m;
    f->anti_used ^= a;
    f->x[r * f->n + c] = f->x[r * f->n + c] ? 0 : (uint8_t) v;
}

/* Fills cells p.. up to `end`; at the end of the first band it counts the
 * second band's fillings, at the end of the second it counts one. */
static uint64_t dg_search(struct diag_fill *f, int p, int end)
{
    if (p == end) {
        if (end == f->n * f->n)
            return 1;
        f->out->first_bands++;
        const uint64_t c = dg_search(f, end, f->n * f->n);
        f->out->completions += c;
        f->out->diagonal_bands += c != 0;
        return c;
    }
    const int r = p / f->n, c = p % f->n;
    uint64_t count = 0;
    for (int v = 1; v <= f->n; v++) {
        unsigned m, a;
        if (!dg_fits(f, r, c, v, &m, &a))
            continue;
        dg_toggle(f, r, c, v, m, a);
        count += dg_search(f, p + 1, end);
        dg_toggle(f, r, c, v, m, a);
    }
    return count;
}

int grid_count_diagonal(
    int box_rows, int box_cols, struct grid_count_diagonal *out, char *why, size_t whylen)
{
    const int n = box_rows * box_cols;
    const int R = box_rows > box_cols ? box_rows : box_cols;
    if (n > DG_MAX_N || n / R != 2) {
        snprintf(why, whylen,
            "%dx%d boxes: diagonal grids are counted for 2x2, 2x3 and 3x3 (3x3 by "
            "grid_sudoku_x.h)",
            box_rows, box_cols);
        return -1;
    }
    memset(out, 0, sizeof(*out));
    struct diag_fill f = { .n = n, .R = R, .C = n / R, .out = out };
    out->relabellings = 1;
    for (int v = 1; v <= n; v++) {
        unsigned m, a;
        dg_fits(&f, 0, v - 1, v, &m, &a);
        dg_toggle(&f, 0, v - 1, v, m, a);
        out->relabellings *= (uint64_t) v;
    }
    dg_search(&f, n, R * n);
    out->total = (grid_count_u128) out->relabellings * out->completions;
    return 0;
}
