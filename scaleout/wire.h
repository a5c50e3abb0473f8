/* Rows as they travel between the ranks of sudolab-mpi: count's rows and
 * generate's results packed into bytes and read back, field by field, so no
 * padding, pointer or struct layout crosses between processes. */
#ifndef SUDOLAB_DIST_WIRE_H
#define SUDOLAB_DIST_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scaleout/count_range.h"
#include "scaleout/gen_range.h"

/* A growing byte buffer; failed is set (and stays) when memory ran out. */
struct wire_buf {
    char *data;
    size_t len, cap;
    bool failed;
};

void wire_free(struct wire_buf *b);
void wire_put(struct wire_buf *b, const void *data, size_t len);
void wire_put_u64(struct wire_buf *b, uint64_t v);
/* A string, its length first. */
void wire_put_text(struct wire_buf *b, const char *s, size_t len);

/* Reads what a wire_buf holds; bad is set (and stays) when it runs short or
 * holds what no writer wrote. */
struct wire_reader {
    const char *p;
    size_t left;
    bool bad;
};

uint64_t wire_get_u64(struct wire_reader *r);
/* The next len bytes (NULL when there are fewer). */
const char *wire_get(struct wire_reader *r, size_t len);
/* A string into out (cap bytes with its terminator); bad when longer. */
void wire_get_text(struct wire_reader *r, char *out, size_t cap);

void wire_put_count_row(struct wire_buf *b, const struct count_row *row);
/* Returns false (r->bad) when the bytes are no row. */
bool wire_get_count_row(struct wire_reader *r, struct count_row *row);

void wire_put_gen_result(struct wire_buf *b, const struct gen_result *g);
bool wire_get_gen_result(struct wire_reader *r, struct gen_result *g);

#endif /* SUDOLAB_DIST_WIRE_H */
