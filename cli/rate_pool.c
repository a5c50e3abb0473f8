/* Ordered rating on threads (cli/rate_pool.h): a ring of slots, filled in
 * input order by the walk, taken in that order by the workers, printed in
 * that order by the walk as each oldest slot is done. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/rate_pool.h"

enum { POOL_LINE = 2048, SLOTS_PER_THREAD = 32 };

struct slot {
    struct grid g;
    unsigned long index;
    bool work; /* to be rated (else the line is ready) */
    bool done;
    char line[POOL_LINE];
};

struct worker {
    struct rate_pool *pool;
    void *state;
    pthread_t tid;
    bool started;
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
    struct worker *workers;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    struct rate_pool *p = w->pool;
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
        p->calls.line(p->calls.ctx, w->state, &s->g, s->index, s->line, sizeof(s->line));
        pthread_mutex_lock(&p->lock);
        s->done = true;
        pthread_cond_broadcast(&p->done_cv);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Prints the oldest slots that are done; with `wait`, waits for the oldest
 * one first. Called with the lock held. */
static void print_done(struct rate_pool *p, bool wait)
{
    while (wait && p->head < p->tail && !p->slots[p->head % p->nslots].done)
        pthread_cond_wait(&p->done_cv, &p->lock);
    while (p->head < p->tail && p->slots[p->head % p->nslots].done)
        fputs(p->slots[p->head++ % p->nslots].line, stdout);
}

static void pool_free(struct rate_pool *p)
{
    for (int i = 0; i < p->nworkers; i++)
        if (p->workers[i].state)
            p->calls.close(p->calls.ctx, p->workers[i].state);
    pthread_cond_destroy(&p->work_cv);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->lock);
    free(p->workers);
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
    p->workers = calloc((size_t) threads, sizeof(*p->workers));
    if (!p->slots || !p->workers) {
        pool_free(p);
        return NULL;
    }
    p->nworkers = threads;
    for (int i = 0; i < threads; i++) {
        p->workers[i].pool = p;
        p->workers[i].state = calls->open(calls->ctx);
        if (!p->workers[i].state) {
            pool_free(p);
            return NULL;
        }
    }
    for (int i = 0; i < threads; i++) {
        struct worker *w = &p->workers[i];
        w->started = pthread_create(&w->tid, NULL, work, w) == 0;
        if (!w->started) {
            rate_pool_close(p);
            return NULL;
        }
    }
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

void rate_pool_put(struct rate_pool *p, const struct grid *g, unsigned long index)
{
    pthread_mutex_lock(&p->lock);
    struct slot *s = claim(p);
    s->g = *g;
    s->index = index;
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
    bool all_started = true;
    for (int i = 0; i < p->nworkers; i++)
        all_started = all_started && p->workers[i].started;
    if (all_started)
        while (p->head < p->tail)
            print_done(p, true);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nworkers; i++)
        if (p->workers[i].started)
            pthread_join(p->workers[i].tid, NULL);
    pool_free(p);
}
