/* The worker pool (common/pool.h): the threads sleep on `wake` until the
 * generation changes, run the generation's function, and the last one to
 * finish signals `done`. */
#include "common/pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

struct pool_thread {
    struct pool *pool;
    unsigned worker;
    pthread_t tid;
};

struct pool {
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    unsigned long generation; /* one per pool_start */
    pool_worker_fn *fn;
    void *ctx;
    unsigned running; /* threads that have not finished this generation */
    bool quit;
    unsigned nworkers; /* the threads + 1: this one */
    struct pool_thread *threads; /* [nworkers - 1] */
};

static void *thread_main(void *arg)
{
    struct pool_thread *t = arg;
    struct pool *p = t->pool;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        pool_worker_fn *fn = p->fn;
        void *ctx = p->ctx;
        pthread_mutex_unlock(&p->lock);
        fn(ctx, t->worker);
        pthread_mutex_lock(&p->lock);
        if (--p->running == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

struct pool *pool_create(unsigned workers)
{
    struct pool *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    const unsigned want = workers > 1 ? workers - 1 : 0;
    p->threads = calloc(want ? want : 1, sizeof(*p->threads));
    if (!p->threads) {
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    p->nworkers = 1;
    for (unsigned i = 0; i < want; i++) {
        struct pool_thread *t = &p->threads[i];
        t->pool = p;
        t->worker = i + 1;
        if (pthread_create(&t->tid, NULL, thread_main, t) != 0)
            break; /* fewer workers: the ones running do the work */
        p->nworkers++;
    }
    return p;
}

unsigned pool_workers(const struct pool *p)
{
    return p->nworkers;
}

void pool_start(struct pool *p, pool_worker_fn *fn, void *ctx)
{
    pthread_mutex_lock(&p->lock);
    p->fn = fn;
    p->ctx = ctx;
    p->running = p->nworkers - 1;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void pool_wait(struct pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->running > 0)
        pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void pool_run(struct pool *p, pool_worker_fn *fn, void *ctx)
{
    pool_start(p, fn, ctx);
    fn(ctx, 0);
    pool_wait(p);
}

struct for_each {
    pool_item_fn *fn;
    void *ctx;
    size_t n;
    atomic_size_t next;
    atomic_bool stopped;
};

static void for_each_worker(void *arg, unsigned worker)
{
    struct for_each *e = arg;
    while (!atomic_load_explicit(&e->stopped, memory_order_relaxed)) {
        const size_t item = atomic_fetch_add(&e->next, 1);
        if (item >= e->n)
            return;
        if (!e->fn(e->ctx, worker, item))
            atomic_store(&e->stopped, true);
    }
}

void pool_for_each(struct pool *p, size_t n, pool_item_fn *fn, void *ctx)
{
    if (n == 0)
        return;
    struct for_each e = { .fn = fn, .ctx = ctx, .n = n };
    atomic_init(&e.next, 0);
    atomic_init(&e.stopped, false);
    pool_run(p, for_each_worker, &e);
}

void pool_destroy(struct pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i + 1 < p->nworkers; i++)
        pthread_join(p->threads[i].tid, NULL);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->lock);
    free(p->threads);
    free(p);
}
