/* The one pool of worker threads behind every parallel command (count, count
 * --grids, generate, rate, bench and its SE ratings).
 *
 * A pool has N workers numbered 0..N-1. Worker 0 is the thread that created
 * the pool, and it works too in pool_run and pool_for_each, so -j N keeps N
 * threads busy and -j 1 starts no thread at all. Workers 1..N-1 are threads
 * that live as long as the pool and wait between runs; worker w is always the
 * same thread, so a caller keeps per-worker state in an array indexed by the
 * worker number, and state that must be created, used and freed by one thread
 * (a back end's library state such as GLPK's) is opened and closed in a
 * pool_run of its own before and after the work. Only the creating thread
 * calls the functions below, one run at a time. */
#ifndef SUDOLAB_COMMON_POOL_H
#define SUDOLAB_COMMON_POOL_H

#include <stdbool.h>
#include <stddef.h>

struct pool;

/* What every worker runs once in pool_run (or each of 1..N-1 in pool_start). */
typedef void pool_worker_fn(void *ctx, unsigned worker);

/* One item of pool_for_each. Returns false to hand out no further items, to
 * any worker (an interrupt): the items already taken still finish. */
typedef bool pool_item_fn(void *ctx, unsigned worker, size_t item);

/* A pool of `workers` workers (at least 1). When the system refuses a thread,
 * the pool has fewer workers (pool_workers) and those do the work; NULL only
 * when out of memory. */
struct pool *pool_create(unsigned workers);
/* The workers the pool has: at most the number asked for, at least 1. */
unsigned pool_workers(const struct pool *p);

/* Runs fn(ctx, w) on every worker w (worker 0 on this thread) and returns
 * when all have returned. */
void pool_run(struct pool *p, pool_worker_fn *fn, void *ctx);

/* Calls fn(ctx, w, item) once for each item in 0..n-1, on whichever worker
 * is free, each worker taking the next item in increasing order; returns
 * when every item handed out is done. Nothing runs when n is 0. */
void pool_for_each(struct pool *p, size_t n, pool_item_fn *fn, void *ctx);

/* pool_run in two halves, for a caller that has work of its own meanwhile
 * (feeding the workers, say): pool_start runs fn on workers 1..N-1 and
 * returns at once; pool_wait returns when they have all returned. */
void pool_start(struct pool *p, pool_worker_fn *fn, void *ctx);
void pool_wait(struct pool *p);

/* Ends the threads (after the run in progress) and frees the pool; NULL is
 * ignored. */
void pool_destroy(struct pool *p);

#endif /* SUDOLAB_COMMON_POOL_H */
