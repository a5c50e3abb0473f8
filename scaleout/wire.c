#include "scaleout/wire.h"

#include <stdlib.h>
#include <string.h>

void wire_free(struct wire_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

void wire_put(struct wire_buf *b, const void *data, size_t len)
{
    if (b->failed)
        return;
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    if (len) /* data may be NULL for nothing */
        memcpy(b->data + b->len, data, len);
    b->len += len;
}

void wire_put_u64(struct wire_buf *b, uint64_t v)
{
    wire_put(b, &v, sizeof(v));
}

void wire_put_text(struct wire_buf *b, const char *s, size_t len)
{
    wire_put_u64(b, len);
    wire_put(b, s, len);
}

const char *wire_get(struct wire_reader *r, size_t len)
{
    if (r->bad || len > r->left) {
        r->bad = true;
        return NULL;
    }
    const char *p = r->p;
    r->p += len;
    r->left -= len;
    return p;
}

uint64_t wire_get_u64(struct wire_reader *r)
{
    uint64_t v = 0;
    const char *p = wire_get(r, sizeof(v));
    if (p)
        memcpy(&v, p, sizeof(v));
    return v;
}

void wire_get_text(struct wire_reader *r, char *out, size_t cap)
{
    const uint64_t len = wire_get_u64(r);
    const char *p = len < cap ? wire_get(r, (size_t) len) : NULL;
    if (!p) {
        r->bad = true;
        out[0] = '\0';
        return;
    }
    memcpy(out, p, (size_t) len);
    out[len] = '\0';
}

static void put_string(struct wire_buf *b, const char *s)
{
    wire_put_text(b, s, strlen(s));
}

/* Shape, then one byte a cell. */
static void put_grid(struct wire_buf *b, const struct grid *g)
{
    const uint8_t head[4] = { g->box_rows, g->box_cols, g->n, g->variant };
    wire_put(b, head, sizeof(head));
    wire_put_u64(b, g->ncells);
    wire_put(b, g->cell, g->ncells);
}

static void get_grid(struct wire_reader *r, struct grid *g)
{
    memset(g, 0, sizeof(*g));
    const uint8_t *head = (const uint8_t *) wire_get(r, 4);
    const uint64_t ncells = wire_get_u64(r);
    if (!head || ncells > GRID_MAX_CELLS || ncells != (uint64_t) head[2] * head[2]
        || head[2] != head[0] * head[1]) {
        r->bad = true;
        return;
    }
    const char *cells = wire_get(r, (size_t) ncells);
    if (!cells)
        return;
    g->box_rows = head[0];
    g->box_cols = head[1];
    g->n = head[2];
    g->variant = head[3];
    g->ncells = (uint16_t) ncells;
    memcpy(g->cell, cells, (size_t) ncells);
    for (uint64_t i = 0; i < ncells; i++)
        r->bad |= g->cell[i] > g->n;
}

static void put_tally(struct wire_buf *b, const struct shard_tally *t)
{
    wire_put_u64(b, t->solved);
    wire_put_u64(b, t->solutions);
#define X(name, doc) wire_put_u64(b, t->counters.name);
    SOLVER_COUNTERS(X)
#undef X
    wire_put_u64(b, t->time_ns);
    wire_put_u64(b,
        (uint64_t) t->budget | (uint64_t) t->error << 1 | (uint64_t) t->have_first << 2);
    wire_put_u64(b, t->first_sub);
    if (t->have_first)
        put_grid(b, &t->first);
    put_string(b, t->error_text);
}

static void get_tally(struct wire_reader *r, struct shard_tally *t)
{
    t->solved = wire_get_u64(r);
    t->solutions = wire_get_u64(r);
#define X(name, doc) t->counters.name = wire_get_u64(r);
    SOLVER_COUNTERS(X)
#undef X
    t->time_ns = wire_get_u64(r);
    const uint64_t flags = wire_get_u64(r);
    t->budget = flags & 1;
    t->error = flags & 2;
    t->have_first = flags & 4;
    r->bad |= flags > 7;
    t->first_sub = wire_get_u64(r);
    if (t->have_first)
        get_grid(r, &t->first);
    wire_get_text(r, t->error_text, sizeof(t->error_text));
}

void wire_put_count_row(struct wire_buf *b, const struct count_row *row)
{
    wire_put_u64(b, row->index);
    wire_put_u64(b, row->line);
    wire_put_u64(b, (uint64_t) row->state);
    wire_put_u64(b, row->subproblems);
    put_string(b, row->source);
    put_string(b, row->name);
    put_string(b, row->why);
    put_string(b, row->puzzle);
    put_tally(b, &row->tally);
}

bool wire_get_count_row(struct wire_reader *r, struct count_row *row)
{
    memset(row, 0, sizeof(*row));
    row->index = (unsigned long) wire_get_u64(r);
    row->line = (unsigned long) wire_get_u64(r);
    const uint64_t state = wire_get_u64(r);
    r->bad |= state > COUNT_UNSUPPORTED;
    row->state = (enum count_state) state;
    row->subproblems = wire_get_u64(r);
    wire_get_text(r, row->source, sizeof(row->source));
    wire_get_text(r, row->name, sizeof(row->name));
    wire_get_text(r, row->why, sizeof(row->why));
    wire_get_text(r, row->puzzle, sizeof(row->puzzle));
    get_tally(r, &row->tally);
    return !r->bad;
}

void wire_put_gen_result(struct wire_buf *b, const struct gen_result *g)
{
    wire_put_u64(b, g->number);
    wire_put_u64(b, g->failed);
    if (g->failed) {
        put_string(b, g->why);
        return;
    }
    put_grid(b, &g->puzzle);
    put_string(b, g->rating);
}

bool wire_get_gen_result(struct wire_reader *r, struct gen_result *g)
{
    memset(g, 0, sizeof(*g));
    g->number = wire_get_u64(r);
    const uint64_t failed = wire_get_u64(r);
    r->bad |= failed > 1;
    g->failed = failed == 1;
    if (g->failed)
        wire_get_text(r, g->why, sizeof(g->why));
    else {
        get_grid(r, &g->puzzle);
        wire_get_text(r, g->rating, sizeof(g->rating));
    }
    return !r->bad;
}
