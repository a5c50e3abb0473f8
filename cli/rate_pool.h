/* `sudolab rate -j N`: puzzles rated on N threads, their lines printed in the
 * order the puzzles came in, as one thread would print them. The walk over
 * the inputs stays on the calling thread and hands puzzles over; a window of
 * puzzles in flight bounds memory, so a corpus streams through. */
#ifndef SUDOLAB_CLI_RATE_POOL_H
#define SUDOLAB_CLI_RATE_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/grid.h"

/* The line for one puzzle (with its '\n'), made on a worker thread with that
 * worker's own state; name: the instance's name ("" for none). */
typedef void rate_pool_line_fn(void *ctx, void *state, const struct grid *g,
    unsigned long index, const char *name, char *out, size_t len);

struct rate_pool_calls {
    void *ctx;
    /* a worker's state (NULL: cannot; the pool then fails to open) */
    void *(*open)(void *ctx);
    void (*close)(void *ctx, void *state);
    rate_pool_line_fn *line;
    /* told after each line is printed, on the printing thread (may be NULL) */
    void (*printed)(void *ctx);
};

struct rate_pool;

/* Starts `threads` workers. NULL when a thread or its state cannot start. */
struct rate_pool *rate_pool_open(int threads, const struct rate_pool_calls *calls);
/* Queues a puzzle and its name (NULL or "" for none, else cut to
 * CORPUS_NAME_MAX - 1 bytes); may wait for the oldest one and print it first. */
void rate_pool_put(
    struct rate_pool *p, const struct grid *g, unsigned long index, const char *name);
/* Queues a line that needs no work (an invalid entry), kept in order. */
void rate_pool_put_line(struct rate_pool *p, const char *line);
/* Prints what is left, stops the workers and frees the pool. */
void rate_pool_close(struct rate_pool *p);

#endif /* SUDOLAB_CLI_RATE_POOL_H */
