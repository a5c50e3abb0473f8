/* Ordered rating on threads (cli/rate_pool.h): a ring of slots, filled in
 * input order by the walk, taken in that order by the workers, printed in
 * that order by the walk as each oldest slot is done. The walk is worker 0
 * of the common pool; workers 1..N rate. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/rate_pool.h"
#include "common/corpus.h"
#include "common/pool.h"

enum { POOL_LINE = 8192, SLOTS_PER_THREAD = 32 };

struct slot {
    struct grid g;
    unsigned long index;
    char name[CORPUS_NAME_MAX];
    bool work; /* to be rated (else the line is ready) */
    bool done;
    char line[POOL_LINE];
};

struct rate_pool {
    pthread_mutex_t lock;
    pthread_cond_t work_cv, done_cv;
    struct slot *slots;
    unsigned long nslots;
    /* sequence numbers: printed < head, handed out < next, queued < tail */
    unsigned long head, next, tail;
    bool stopping;
    struct rate_pool_calls calls;
    int nworkers;
    void **states; /* [nworkers]: worker w's is states[w - 1] */
    struct pool *threads; /* NULL until they all started */
};

static void work(void *ctx, unsigned worker)
{
    struct rate_pool *p = ctx;
    void *state = p->states[worker - 1];
    pthread_mutex_lock(&p->lock);
    for (;;) {
        /* the walk prints ready lines past the workers; their slots may
         * hold newer puzzles by now */
        if (p->next < p->head)
            p->next = p->head;
        while (p->next < p->tail && !p->slots[p->next % p->nslots].work)
            p->next++;
        if (p->next == p->tail) {
            if (p->stopping)
                break;
            pthread_cond_wait(&p->work_cv, &p->lock);
            continue;
        }
        struct slot *s = &p->slots[p->next++ % p->nslots];
        pthread_mutex_unlock(&p->lock);
        p->calls.line(
            p->calls.ctx, state, &s->g, s->index, s->name, s->line, sizeof(s->line));
        pthread_mutex_lock(&p->lock);
        s->done = true;
        pthread_cond_broadcast(&p->done_cv);
    }
    pthread_mutex_unlock(&p->lock);
}

/* Prints the oldest slots that are done; with `wait`, waits for the oldest
 * one first. Called with the lock held. */
static void print_done(struct rate_pool *p, bool wait)
{
    while (wait && p->head < p->tail && !p->slots[p->head % p->nslots].done)
        pthread_cond_wait(&p->done_cv, &p->lock);
    while (p->head < p->tail && p->slots[p->head % p->nslots].done) {
        fputs(p->slots[p->head++ % p->nslots].line, stdout);
        if (p->calls.printed)
            p->calls.printed(p->calls.ctx);
    }
}

static void pool_free(struct rate_pool *p)
{
    for (int i = 0; i < p->nworkers; i++)
        if (p->states[i])
            p->calls.close(p->calls.ctx, p->states[i]);
    pthread_cond_destroy(&p->work_cv);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->lock);
    free(p->states);
    free(p->slots);
    free(p);
}

struct rate_pool *rate_pool_open(int threads, const struct rate_pool_calls *calls)
{
    struct rate_pool *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    p->calls = *calls;
    p->nslots = (unsigned long) threads * SLOTS_PER_THREAD;
    p->slots = calloc(p->nslots, sizeof(*p->slots));
    p->states = calloc((size_t) threads, sizeof(*p->states));
    if (!p->slots || !p->states) {
        pool_free(p);
        return NULL;
    }
    p->nworkers = threads;
    for (int i = 0; i < threads; i++) {
        p->states[i] = calls->open(calls->ctx);
        if (!p->states[i]) {
            pool_free(p);
            return NULL;
        }
    }
    struct pool *pool = pool_create((unsigned) threads + 1);
    if (!pool || pool_workers(pool) != (unsigned) threads + 1) {
        pool_destroy(pool);
        pool_free(p);
        return NULL;
    }
    p->threads = pool;
    pool_start(p->threads, work, p);
    return p;
}

/* The next free slot, after printing what is done (and waiting for the
 * oldest when the ring is full). Called with the lock held. */
static struct slot *claim(struct rate_pool *p)
{
    print_done(p, p->tail - p->head == p->nslots);
    struct slot *s = &p->slots[p->tail % p->nslots];
    s->done = false;
    return s;
}

void rate_pool_put(
    struct rate_pool *p, const struct grid *g, unsigned long index, const char *name)
{
    pthread_mutex_lock(&p->lock);
    struct slot *s = claim(p);
    s->g = *g;
    s->index = index;
    snprintf(s->name, sizeof(s->name), "%s", name ? name : "");
    s->work = true;
    p->tail++;
    pthread_cond_signal(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
}

void rate_pool_put_line(struct rate_pool *p, const char *line)
{
    pthread_mutex_lock(&p->lock);
    struct slot *s = claim(p);
    snprintf(s->line, sizeof(s->line), "%s", line);
    s->work = false;
    s->done = true;
    p->tail++;
    print_done(p, false);
    pthread_mutex_unlock(&p->lock);
}

void rate_pool_close(struct rate_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_broadcast(&p->work_cv);
    while (p->head < p->tail)
        print_done(p, true);
    pthread_mutex_unlock(&p->lock);
    pool_wait(p->threads);
    pool_destroy(p->threads);
    pool_free(p);
}
