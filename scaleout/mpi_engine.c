/* The work exchange of sudolab-mpi (scaleout/mpi_engine.h). */
#include "scaleout/mpi_engine.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/exit_status.h"

enum {
    TAG_REQUEST = 1, /* worker -> 0: results, and how many jobs it wants */
    TAG_JOBS = 2, /* 0 -> worker: job numbers (none: no more work) */
    FLUSH_BYTES = 1 << 20, /* results sent without waiting for a request */
    /* Work a rank keeps queued: 50 ms. A rank asks for more when half is
     * left, which must outlast a round trip to rank 0 (its naps reach 2 ms,
     * and a busy machine adds scheduling delays: with 20 ms, a rank of a -np 2
     * run waited ~170 ms of 1.5 s). Requests come ~25 ms apart, or more with
     * many ranks, so rank 0 sees ~2,500 requests a second at most (it spends
     * ~10-20 us on one); near the end, guided shares keep queues short. */
    QUEUE_NS = 50000000,
    QUEUE_NS_PER_RANK = 400000,
};

/* A result record in a request: header, then len bytes. */
struct result_head {
    uint32_t job;
    int32_t rc;
    uint64_t len;
};

struct request_head {
    uint32_t want; /* jobs asked for (0: results only) */
    uint32_t final; /* the rank is done; no reply */
    uint32_t results;
    uint32_t failed; /* the rank failed (its results are dropped): the run fails */
};

void engine_init(struct engine *e, unsigned target, engine_take_fn *take, void *ctx)
{
    memset(e, 0, sizeof(*e));
    MPI_Comm_rank(MPI_COMM_WORLD, &e->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &e->size);
    e->target = target < 1               ? 1
        : target > MPI_ENGINE_MAX_TARGET ? MPI_ENGINE_MAX_TARGET
                                         : target;
    e->low = e->target;
    e->prefetch = true;
    e->queue_ns = (uint64_t) e->size * QUEUE_NS_PER_RANK > QUEUE_NS
        ? (uint64_t) e->size * QUEUE_NS_PER_RANK
        : QUEUE_NS;
    e->start_ns = clock_now_ns();
    e->take = take;
    e->ctx = ctx;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->have, NULL);
    pthread_cond_init(&e->need, NULL);
}

void engine_free(struct engine *e)
{
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->have);
    pthread_cond_destroy(&e->need);
    free(e->jobs);
    free(e->queue);
    wire_free(&e->out);
}

/* Any thread: the next job of this rank; false when there is no more. */
bool engine_next(struct engine *e, uint32_t *job)
{
    pthread_mutex_lock(&e->lock);
    bool got = false;
    if (e->rank == 0) {
        if (e->next < e->njobs && !(e->stop && atomic_load(e->stop))) {
            *job = e->jobs[e->next++];
            got = true;
        }
    } else {
        if (e->qlen == 0 && !e->no_more && !e->failed) {
            const uint64_t t0 = clock_now_ns();
            while (e->qlen == 0 && !e->no_more && !e->failed) {
                e->waiting++;
                pthread_cond_signal(&e->need);
                pthread_cond_wait(&e->have, &e->lock);
                e->waiting--;
            }
            e->idle_ns += clock_now_ns() - t0;
        }
        if (e->failed)
            e->qlen = 0;
        if (e->qlen > 0) {
            *job = e->queue[e->qhead];
            e->qhead = (e->qhead + 1) % e->qcap;
            e->qlen--;
            e->taken++;
            got = true;
            if (e->qlen < e->low)
                pthread_cond_signal(&e->need);
        }
    }
    pthread_mutex_unlock(&e->lock);
    return got;
}

/* Any thread: a result. Rank 0 takes it at once; others queue it for sending. */
void engine_result(struct engine *e, uint32_t job, int rc, const char *data, size_t len)
{
    pthread_mutex_lock(&e->lock);
    if (e->rank == 0) {
        e->take(e, 0, job, rc, data, len);
    } else {
        const struct result_head h = { job, rc, len };
        wire_put(&e->out, &h, sizeof(h));
        wire_put(&e->out, data, len);
        if (e->out.failed)
            e->failed = 1;
        e->nresults++;
        if (e->out.len >= FLUSH_BYTES)
            pthread_cond_signal(&e->need);
    }
    pthread_mutex_unlock(&e->lock);
}

struct compute {
    struct engine *e;
    int (*fn)(void *arg);
    void *arg;
};

static void *compute_main(void *arg)
{
    struct compute *c = arg;
    const int rc = c->fn(c->arg);
    pthread_mutex_lock(&c->e->lock);
    c->e->compute_done = true;
    c->e->compute_rc = rc;
    pthread_cond_signal(&c->e->need);
    pthread_mutex_unlock(&c->e->lock);
    return NULL;
}

static void nap(uint64_t ns)
{
    const struct timespec ts = { (time_t) (ns / 1000000000u), (long) (ns % 1000000000u) };
    nanosleep(&ts, NULL);
}

/* Waits for a request without spinning a core: MPI_Test and short sleeps. */
static void wait_request(MPI_Request *req)
{
    /* each MPI call runs Open MPI's progress engine: tens of microseconds */
    uint64_t pause = 20000;
    for (;;) {
        int done = 0;
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nap(pause);
        if (pause < 2000000)
            pause *= 2;
    }
}

static void parse_results(
    struct engine *e, int from, const char *p, size_t len, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct result_head h;
        if (len < sizeof(h)) {
            e->failed = 1;
            return;
        }
        memcpy(&h, p, sizeof(h));
        p += sizeof(h);
        len -= sizeof(h);
        if (h.len > len) {
            e->failed = 1;
            return;
        }
        e->take(e, from, h.job, h.rc, p, (size_t) h.len);
        p += h.len;
        len -= (size_t) h.len;
    }
}

/* Rank 0, lock held: jobs for a rank that asks for `want`, into e->reply.
 * Guided: at most a share of what is left, so that near the end no rank sits
 * on a long queue while the others run dry. Returns how many. */
static uint32_t pick_jobs(struct engine *e, uint32_t want)
{
    const size_t share = (e->njobs - e->next) / (2 * (size_t) e->size) + 1;
    if (want > 2 * MPI_ENGINE_MAX_TARGET)
        want = 2 * MPI_ENGINE_MAX_TARGET;
    if (want > share)
        want = (uint32_t) share;
    const bool stopping = e->failed || (e->stop && atomic_load(e->stop));
    uint32_t n = 0;
    while (!stopping && n < want && e->next < e->njobs)
        e->reply[1 + n++] = e->jobs[e->next++];
    return n;
}

/* Rank 0: one request, received: its results taken, jobs sent back unless
 * the rank is done. Returns 1 when the rank is done. */
static int answer(struct engine *e, int from, const char *msg, size_t len)
{
    struct request_head h;
    if (len < sizeof(h)) {
        fprintf(stderr, "sudolab-mpi: a short message from rank %d\n", from);
        MPI_Abort(MPI_COMM_WORLD, EXIT_STATUS_SKIPPED);
        return 1;
    }
    memcpy(&h, msg, sizeof(h));
    e->messages++;
    pthread_mutex_lock(&e->lock);
    parse_results(e, from, msg + sizeof(h), len - sizeof(h), h.results);
    if (e->flush)
        e->flush(e);
    if (h.failed) {
        e->failed = 1;
        fprintf(stderr, "sudolab-mpi: rank %d failed\n", from);
    }
    const uint32_t n = pick_jobs(e, h.want);
    pthread_mutex_unlock(&e->lock);
    if (h.final)
        return 1;
    if (h.want > 0) {
        e->reply[0] = n;
        MPI_Send(e->reply, (int) (n + 1), MPI_UINT32_T, from, TAG_JOBS, MPI_COMM_WORLD);
    }
    return 0;
}

/* Rank 0, no request waiting: true when every other rank is done and this
 * rank's own threads are too. */
static bool all_done(struct engine *e, int finished)
{
    pthread_mutex_lock(&e->lock);
    const bool done = finished == e->size - 1;
    while (done && !e->compute_done) /* nobody left to answer: wait for our own */
        pthread_cond_wait(&e->need, &e->lock);
    pthread_mutex_unlock(&e->lock);
    return done;
}

static int root_loop(struct engine *e)
{
    int finished = 0;
    uint64_t pause = 500000;
    char *msg = NULL;
    size_t msg_cap = 0;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            if (all_done(e, finished))
                break;
            nap(pause);
            if (pause < 2000000)
                pause += pause / 2;
            continue;
        }
        pause = 500000;
        int count = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        if ((size_t) count > msg_cap) {
            free(msg);
            msg_cap = (size_t) count;
            msg = malloc(msg_cap);
            if (!msg) {
                /* the message cannot even be read: no way to end the run well */
                fprintf(stderr, "sudolab-mpi: out of memory\n");
                MPI_Abort(MPI_COMM_WORLD, EXIT_STATUS_SKIPPED);
                return -1;
            }
        }
        MPI_Recv(msg, count, MPI_BYTE, st.MPI_SOURCE, TAG_REQUEST, MPI_COMM_WORLD,
            MPI_STATUS_IGNORE);
        finished += answer(e, st.MPI_SOURCE, msg, (size_t) count);
    }
    free(msg);
    return 0;
}

/* Sends the queued results (lock held on entry and exit), asking for `want`
 * jobs; waits for them when want > 0. A failed rank still sends its final
 * message (without results), so rank 0 learns of it instead of waiting. */
static void worker_exchange(struct engine *e, uint32_t want, bool final)
{
    struct request_head h = { want, final, e->nresults, (uint32_t) e->failed };
    struct wire_buf out = e->out, msg = { 0 };
    memset(&e->out, 0, sizeof(e->out));
    e->nresults = 0;
    pthread_mutex_unlock(&e->lock);
    if (!h.failed) {
        wire_put(&msg, &h, sizeof(h));
        wire_put(&msg, out.data, out.len);
    }
    if (h.failed || msg.failed) {
        h.results = 0;
        h.want = 0;
        h.failed = 1;
        MPI_Send(&h, (int) sizeof(h), MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD);
        wire_free(&msg);
        wire_free(&out);
        pthread_mutex_lock(&e->lock);
        e->failed = 1;
        e->no_more = true;
        pthread_cond_broadcast(&e->have);
        return;
    }
    wire_free(&out);
    /* Not MPI_Send: a message past the eager limit waits for rank 0 to post
     * its receive, and Open MPI spins a core while it waits. */
    MPI_Request req;
    MPI_Isend(msg.data, (int) msg.len, MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD, &req);
    wait_request(&req);
    wire_free(&msg);
    uint32_t n = 0;
    if (want > 0) {
        MPI_Irecv(e->reply, (int) (2 * MPI_ENGINE_MAX_TARGET + 1), MPI_UINT32_T, 0,
            TAG_JOBS, MPI_COMM_WORLD, &req);
        wait_request(&req);
        n = e->reply[0];
    }
    pthread_mutex_lock(&e->lock);
    if (want > 0 && n == 0)
        e->no_more = true;
    for (uint32_t i = 0; i < n; i++) {
        if (e->qlen == e->qcap) {
            /* grow the ring, unrolling it */
            const size_t cap = e->qcap ? 2 * e->qcap : 64;
            uint32_t *q = malloc(cap * sizeof(*q));
            if (!q) {
                e->failed = 1;
                break;
            }
            for (size_t k = 0; k < e->qlen; k++)
                q[k] = e->queue[(e->qhead + k) % e->qcap];
            free(e->queue);
            e->queue = q;
            e->qhead = 0;
            e->qcap = cap;
        }
        e->queue[(e->qhead + e->qlen) % e->qcap] = e->reply[1 + i];
        e->qlen++;
    }
    pthread_cond_broadcast(&e->have);
}

static int worker_loop(struct engine *e)
{
    pthread_mutex_lock(&e->lock);
    for (;;) {
        /* Keep about queue_ns of work queued at the rate jobs are taken here:
         * few messages for small jobs, little left over for big ones. The
         * rate counts working time only: with the time spent waiting for
         * jobs in it, a starved rank would measure its own starvation and
         * keep its queue too short to cover a round trip to rank 0 (idle_ns
         * adds up the waits of target threads). */
        size_t high = e->target;
        const uint64_t now = clock_now_ns(), idle = e->idle_ns / e->target;
        const uint64_t elapsed = now - e->start_ns > idle ? now - e->start_ns - idle : 0;
        if (e->taken > 0 && elapsed > 0) {
            const double rate
                = (double) e->taken * (double) e->queue_ns / (double) elapsed;
            high = rate < (double) e->target            ? e->target
                : rate > (double) MPI_ENGINE_MAX_TARGET ? MPI_ENGINE_MAX_TARGET
                                                        : (size_t) rate;
        }
        e->low = high / 2 > e->target ? high / 2 : e->target;
        if (e->failed && !e->compute_done) {
            /* let the compute threads run dry, then say so */
            e->no_more = true;
            pthread_cond_broadcast(&e->have);
            pthread_cond_wait(&e->need, &e->lock);
        } else if (!e->failed && !e->no_more && e->prefetch && e->qlen < e->low) {
            worker_exchange(e, (uint32_t) (2 * high - e->qlen), false);
        } else if (!e->failed && !e->no_more && !e->prefetch && e->qlen < e->waiting) {
            /* big jobs: none held back while another rank could run it */
            worker_exchange(e, (uint32_t) (e->waiting - e->qlen), false);
        } else if (e->compute_done) {
            worker_exchange(e, 0, true);
            break;
        } else if (e->out.len >= FLUSH_BYTES) {
            worker_exchange(e, 0, false);
        } else {
            pthread_cond_wait(&e->need, &e->lock);
        }
    }
    const int failed = e->failed;
    pthread_mutex_unlock(&e->lock);
    return failed ? -1 : 0;
}

/* Runs fn(arg) on a compute thread of every rank while the main thread hands
 * out jobs (rank 0) or fetches them (the others). Returns fn's result, or -1
 * when the exchange failed. */
int engine_run(struct engine *e, int (*fn)(void *), void *arg)
{
    struct compute c = { e, fn, arg };
    pthread_t th;
    if (pthread_create(&th, NULL, compute_main, &c) != 0)
        return -1;
    struct timespec t0, t1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    const int rc = e->rank == 0 ? root_loop(e) : worker_loop(e);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    e->comm_cpu_ns = (uint64_t) (t1.tv_sec - t0.tv_sec) * 1000000000u
        + (uint64_t) t1.tv_nsec - (uint64_t) t0.tv_nsec;
    pthread_join(th, NULL);
    if (rc != 0 || e->failed) {
        fprintf(stderr,
            "sudolab-mpi: rank %d: the work exchange failed (out of memory or "
            "a bad message)\n",
            e->rank);
        return -1;
    }
    return e->compute_rc;
}

/* Every rank: the launcher's own cost, summed over the ranks; rank 0 prints it
 * when SUDOLAB_MPI_STATS is set (the figure "overhead per puzzle"). */
void engine_report(const struct engine *e, const char *unit, uint64_t units)
{
    uint64_t mine[2] = { e->comm_cpu_ns, e->idle_ns }, total[2] = { 0, 0 };
    MPI_Reduce(mine, total, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (e->rank != 0 || !getenv("SUDOLAB_MPI_STATS"))
        return;
    fprintf(stderr,
        "sudolab-mpi: %d ranks; %llu requests to rank 0; the exchanging threads used "
        "%.3f ms of CPU, %.3f us per %s (%llu); compute threads waited %.3f ms for "
        "jobs\n",
        e->size, (unsigned long long) e->messages, (double) total[0] / 1e6,
        units ? (double) total[0] / 1e3 / (double) units : 0.0, unit,
        (unsigned long long) units, (double) total[1] / 1e6);
}
