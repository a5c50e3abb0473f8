#include "common/symmetry.h"

#include <string.h>

void symmetry_identity(struct symmetry *s, const struct grid *g)
{
    memset(s, 0, sizeof(*s));
    s->n = g->n;
    for (int i = 0; i < g->n; i++) {
        s->row_map[i] = (uint8_t) i;
        s->col_map[i] = (uint8_t) i;
    }
    for (int v = 0; v <= g->n; v++)
        s->value_map[v] = (uint8_t) v;
}

/* Shuffles the blocks of `size` lines and the lines inside each block. */
static void shuffle_blocks(uint8_t *map, int n, int size, struct rng *rng)
{
    int blocks[GRID_MAX_N], inner[GRID_MAX_N];
    const int nblocks = n / size;
    for (int b = 0; b < nblocks; b++)
        blocks[b] = b;
    rng_shuffle(rng, blocks, nblocks);
    for (int b = 0; b < nblocks; b++) {
        for (int i = 0; i < size; i++)
            inner[i] = i;
        rng_shuffle(rng, inner, size);
        for (int i = 0; i < size; i++)
            map[b * size + i] = (uint8_t) (blocks[b] * size + inner[i]);
    }
}

void symmetry_random(struct symmetry *s, const struct grid *g, struct rng *rng)
{
    symmetry_identity(s, g);
    const int n = g->n;
    int values[GRID_MAX_N];
    for (int i = 0; i < n; i++)
        values[i] = i + 1;
    rng_shuffle(rng, values, n);
    for (int i = 0; i < n; i++)
        s->value_map[i + 1] = (uint8_t) values[i];
    const bool square = g->box_rows == g->box_cols;
    if (g->variant == GRID_DIAGONAL) {
        /* Flips swap the two diagonals and transposing keeps each: the set of
         * diagonal constraints stays the same. */
        if (rng_below(rng, 2))
            for (int i = 0; i < n; i++)
                s->row_map[i] = (uint8_t) (n - 1 - i);
        if (rng_below(rng, 2))
            for (int i = 0; i < n; i++)
                s->col_map[i] = (uint8_t) (n - 1 - i);
        s->transpose = square && rng_below(rng, 2);
        return;
    }
    shuffle_blocks(s->row_map, n, g->box_rows, rng);
    shuffle_blocks(s->col_map, n, g->box_cols, rng);
    s->transpose = square && rng_below(rng, 2);
}

void symmetry_apply(const struct symmetry *s, const struct grid *in, struct grid *out)
{
    const int n = in->n;
    *out = *in;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            const int sr = s->row_map[r], sc = s->col_map[c];
            const int src = s->transpose ? sc * n + sr : sr * n + sc;
            out->cell[r * n + c] = s->value_map[in->cell[src]];
        }
    }
}

void symmetry_invert(const struct symmetry *s, const struct grid *in, struct grid *out)
{
    const int n = in->n;
    uint8_t inverse[GRID_MAX_N + 1];
    for (int v = 0; v <= n; v++)
        inverse[s->value_map[v]] = (uint8_t) v;
    *out = *in;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            const int sr = s->row_map[r], sc = s->col_map[c];
            const int dst = s->transpose ? sc * n + sr : sr * n + sc;
            out->cell[dst] = inverse[in->cell[r * n + c]];
        }
    }
}
