/* sudolab-mpi's work exchange: rank 0 hands out numbered jobs as the other
 * ranks ask for them, because puzzle difficulty varies by orders of magnitude
 * and static splits leave ranks idle; the ranks send each job's result back
 * as bytes. Every rank also computes, on a thread beside its main thread,
 * which alone calls MPI (MPI_THREAD_FUNNELED).
 *
 * Waiting: Open MPI's blocking calls spin a core, so rank 0 polls for requests
 * with sleeps of up to 5 ms, and the other ranks send and wait with
 * nonblocking calls and sleeps too. They ask for more work while they still
 * have about 20 ms of it queued, so the sleeps are off the critical path.
 * SUDOLAB_MPI_STATS=1 prints what the exchange cost in CPU time. */
#ifndef SUDOLAB_DIST_MPI_ENGINE_H
#define SUDOLAB_DIST_MPI_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scaleout/wire.h"

enum {
    MPI_ENGINE_MAX_TARGET
    = 1024, /* jobs queued per rank, at most (bench: -j up to 1024) */
};

struct engine;
/* Rank 0, lock held: after the results of one message. */
typedef void engine_flush_fn(struct engine *e);
/* Rank 0, lock held: one result, from `rank` (0 for its own threads). */
typedef void engine_take_fn(
    struct engine *e, int rank, uint32_t job, int rc, const char *data, size_t len);

struct engine {
    int rank, size;
    unsigned target; /* jobs a rank keeps queued beside the ones running, at least */
    engine_take_fn *take;
    engine_flush_fn *flush; /* optional, rank 0: after the results of a message */
    void *ctx;

    pthread_mutex_t lock;
    pthread_cond_t have; /* compute threads wait for jobs */
    pthread_cond_t need; /* the main thread waits for a reason to talk */

    /* rank 0: the jobs to hand out, in order */
    uint32_t *jobs;
    size_t njobs, next;

    /* other ranks: the local queue and the results not yet sent */
    uint32_t *queue;
    size_t qhead, qlen, qcap;
    bool no_more;
    bool prefetch; /* queue work ahead (small jobs), or ask only when idle */
    unsigned waiting; /* compute threads waiting for a job */
    size_t low; /* ask for more below this many queued jobs */
    uint64_t queue_ns; /* work to keep queued */
    uint64_t taken; /* jobs started here, for the rate */
    uint64_t start_ns;
    struct wire_buf out;
    uint32_t nresults;

    bool compute_done;
    int compute_rc;
    int failed; /* out of memory, a bad message, a failed rank */
    atomic_int *stop; /* optional: set when the run is cut short (no new jobs) */
    uint64_t messages; /* rank 0: requests received */
    uint64_t comm_cpu_ns; /* CPU time of this rank's main (exchanging) thread */
    uint64_t idle_ns; /* compute threads' time waiting for a job (not rank 0) */
    uint32_t reply[2 * MPI_ENGINE_MAX_TARGET + 1]; /* job messages: count, then numbers */
};

/* target: jobs a rank keeps queued beside the running ones, at least (its
 * compute threads). take gets rank 0's results. Rank 0 then fills jobs/njobs. */
void engine_init(struct engine *e, unsigned target, engine_take_fn *take, void *ctx);
void engine_free(struct engine *e);

/* Any thread: the next job of this rank; false when there is no more. */
bool engine_next(struct engine *e, uint32_t *job);

/* Any thread: a job's result. Rank 0 takes it at once; others queue it for
 * sending. */
void engine_result(struct engine *e, uint32_t job, int rc, const char *data, size_t len);

/* Every rank: runs fn(arg) on a compute thread while the main thread hands out
 * jobs (rank 0) or fetches them (the others). Returns fn's result, or -1 when
 * the exchange failed. */
int engine_run(struct engine *e, int (*fn)(void *), void *arg);

/* Every rank: the exchange's own cost, summed over the ranks; rank 0 prints
 * it when SUDOLAB_MPI_STATS is set (`units` of work done, named `unit`). */
void engine_report(const struct engine *e, const char *unit, uint64_t units);

#endif /* SUDOLAB_DIST_MPI_ENGINE_H */
