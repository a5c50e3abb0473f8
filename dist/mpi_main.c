/* sudolab-mpi: sudolab bench, count and generate over the ranks of an MPI job,
 * with work handed out as it is asked for, because puzzle difficulty varies
 * by orders of magnitude and static splits leave ranks idle.
 *
 *   mpirun -np 64 sudolab-mpi bench --solvers mrv,dlx -j 4 --out DIR corpus.txt
 *   mpirun -np 64 sudolab-mpi count --empty 2x3 --solver mrv
 *   mpirun -np 64 sudolab-mpi generate --count 100000 --seed 7
 *
 * Rank 0 hands out work and writes the output, which has the shape of the
 * plain command's (runs.csv, summary.csv and env.txt; count's rows; generate's
 * file); it also works itself, on threads beside its dispatching main thread.
 * Every rank solves on -j threads, so threads and processes compose. Only the
 * main thread of a rank calls MPI (MPI_THREAD_FUNNELED).
 *
 * bench: every rank parses the same command line and loads the same corpora
 * (files on a shared file system); the chunks of the single run (a back end,
 * a corpus, 8 consecutive puzzles) are handed out in the single run's order,
 * and the other ranks send each result back as its cell and runs.csv line.
 * Rank 0 then times the whole passes alone, cross-checks and summarises as
 * bench does.
 *
 * count and generate: the work units are shards of the run (count --shard
 * k/M: every M-th subproblem; generate --shard k/M: a run of puzzle numbers),
 * M = 16 per rank unless --chunks says otherwise; rank 0 merges their outputs
 * with `sudolab merge`'s code, so the output is the single run's.
 *
 * Waiting: Open MPI's blocking calls spin a core, so rank 0 polls for requests
 * with sleeps of up to 5 ms, and the other ranks send and wait with
 * nonblocking calls and sleeps too. They ask for more work while they still
 * have about 20 ms of it queued, so the sleeps are off the critical path.
 * SUDOLAB_MPI_STATS=1 prints what the exchange cost in CPU time. */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_csv.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "dist/dist.h"
#include "dist/merge.h"
#include "common/io.h"
#include "common/hash.h"
#include "common/clock.h"
#include "common/text.h"

enum {
    TAG_REQUEST = 1, /* worker -> 0: results, and how many jobs it wants */
    TAG_JOBS = 2, /* 0 -> worker: job numbers (none: no more work) */
    BENCH_CHUNK = 8, /* puzzles per bench job, as in bench_run.c */
    CHUNKS_PER_RANK = 16,
    FLUSH_BYTES = 1 << 20, /* results sent without waiting for a request */
    MAX_ARGS = 512,
    MAX_TARGET = 1024, /* jobs queued per rank, at most (bench: -j up to 1024) */
    /* Work a rank keeps queued: 50 ms. A rank asks for more when half is
     * left, which must outlast a round trip to rank 0 (its naps reach 2 ms,
     * and a busy machine adds scheduling delays: with 20 ms, a rank of a -np 2
     * run waited ~170 ms of 1.5 s). Requests come ~25 ms apart, or more with
     * many ranks, so rank 0 sees ~2,500 requests a second at most (it spends
     * ~10-20 us on one); near the end, guided shares keep queues short. */
    QUEUE_NS = 50000000,
    QUEUE_NS_PER_RANK = 400000,
};

/* ---- byte buffers ---- */

struct buf {
    char *data;
    size_t len, cap;
};

static int buf_add(struct buf *b, const void *data, size_t len)
{
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len)
            cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown)
            return -1;
        b->data = grown;
        b->cap = cap;
    }
    if (len) /* data may be NULL for an empty message */
        memcpy(b->data + b->len, data, len);
    b->len += len;
    return 0;
}

static void buf_free(struct buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

/* ---- the engine: jobs out, results back ---- */

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
    struct buf out;
    uint32_t nresults;

    bool compute_done;
    int compute_rc;
    int failed; /* out of memory, a bad message, a failed rank */
    atomic_int *stop; /* optional: set when the run is interrupted (no new jobs) */
    uint64_t messages; /* rank 0: requests received */
    uint64_t comm_cpu_ns; /* CPU time of this rank's main (exchanging) thread */
    uint64_t idle_ns; /* compute threads' time waiting for a job (not rank 0) */
    uint32_t reply[2 * MAX_TARGET + 1]; /* job messages: count, then job numbers */
};

static void engine_init(
    struct engine *e, unsigned target, engine_take_fn *take, void *ctx)
{
    memset(e, 0, sizeof(*e));
    MPI_Comm_rank(MPI_COMM_WORLD, &e->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &e->size);
    e->target = target < 1 ? 1 : target > MAX_TARGET ? MAX_TARGET : target;
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

static void engine_free(struct engine *e)
{
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->have);
    pthread_cond_destroy(&e->need);
    free(e->jobs);
    free(e->queue);
    buf_free(&e->out);
}

/* Any thread: the next job of this rank; false when there is no more. */
static bool engine_next(struct engine *e, uint32_t *job)
{
    pthread_mutex_lock(&e->lock);
    bool got = false;
    if (e->rank == 0) {
        if (e->next < e->njobs) {
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
static void engine_result(
    struct engine *e, uint32_t job, int rc, const char *data, size_t len)
{
    pthread_mutex_lock(&e->lock);
    if (e->rank == 0) {
        e->take(e, 0, job, rc, data, len);
    } else {
        const struct result_head h = { job, rc, len };
        if (buf_add(&e->out, &h, sizeof(h)) != 0 || buf_add(&e->out, data, len) != 0)
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
            pthread_mutex_lock(&e->lock);
            if (finished == e->size - 1) {
                /* nobody left to answer: wait for this rank's own threads */
                while (!e->compute_done)
                    pthread_cond_wait(&e->need, &e->lock);
                pthread_mutex_unlock(&e->lock);
                break;
            }
            pthread_mutex_unlock(&e->lock);
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
                MPI_Abort(MPI_COMM_WORLD, CLI_SKIPPED);
                return -1;
            }
        }
        MPI_Recv(msg, count, MPI_BYTE, st.MPI_SOURCE, TAG_REQUEST, MPI_COMM_WORLD,
            MPI_STATUS_IGNORE);
        struct request_head h;
        if ((size_t) count < sizeof(h)) {
            fprintf(stderr, "sudolab-mpi: a short message from rank %d\n", st.MPI_SOURCE);
            MPI_Abort(MPI_COMM_WORLD, CLI_SKIPPED);
            return -1;
        }
        memcpy(&h, msg, sizeof(h));
        e->messages++;
        pthread_mutex_lock(&e->lock);
        parse_results(
            e, st.MPI_SOURCE, msg + sizeof(h), (size_t) count - sizeof(h), h.results);
        if (e->flush)
            e->flush(e);
        if (h.failed) {
            e->failed = 1;
            fprintf(stderr, "sudolab-mpi: rank %d failed\n", st.MPI_SOURCE);
        }
        uint32_t n = 0;
        /* Guided: at most a share of what is left, so that near the end no
         * rank sits on a long queue while the others run dry. */
        const size_t share = (e->njobs - e->next) / (2 * (size_t) e->size) + 1;
        uint32_t want = h.want < 2 * MAX_TARGET ? h.want : 2 * MAX_TARGET;
        if (want > share)
            want = (uint32_t) share;
        const bool stopping = e->failed || (e->stop && atomic_load(e->stop));
        while (!stopping && n < want && e->next < e->njobs)
            e->reply[1 + n++] = e->jobs[e->next++];
        pthread_mutex_unlock(&e->lock);
        if (h.final) {
            finished++;
        } else if (h.want > 0) {
            e->reply[0] = n;
            MPI_Send(e->reply, (int) (n + 1), MPI_UINT32_T, st.MPI_SOURCE, TAG_JOBS,
                MPI_COMM_WORLD);
        }
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
    struct buf out = e->out, msg = { 0 };
    memset(&e->out, 0, sizeof(e->out));
    e->nresults = 0;
    pthread_mutex_unlock(&e->lock);
    if (h.failed || buf_add(&msg, &h, sizeof(h)) != 0
        || buf_add(&msg, out.data, out.len) != 0) {
        h.results = 0;
        h.want = 0;
        h.failed = 1;
        MPI_Send(&h, (int) sizeof(h), MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD);
        buf_free(&msg);
        buf_free(&out);
        pthread_mutex_lock(&e->lock);
        e->failed = 1;
        e->no_more = true;
        pthread_cond_broadcast(&e->have);
        return;
    }
    buf_free(&out);
    /* Not MPI_Send: a message past the eager limit waits for rank 0 to post
     * its receive, and Open MPI spins a core while it waits. */
    MPI_Request req;
    MPI_Isend(msg.data, (int) msg.len, MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD, &req);
    wait_request(&req);
    buf_free(&msg);
    uint32_t n = 0;
    if (want > 0) {
        MPI_Irecv(e->reply, (int) (2 * MAX_TARGET + 1), MPI_UINT32_T, 0, TAG_JOBS,
            MPI_COMM_WORLD, &req);
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
            high = rate < (double) e->target ? e->target
                : rate > (double) MAX_TARGET ? MAX_TARGET
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
static int engine_run(struct engine *e, int (*fn)(void *), void *arg)
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
static void engine_report(const struct engine *e, const char *unit, uint64_t units)
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

/* ---- command lines ---- */

struct args {
    int argc;
    char *argv[MAX_ARGS];
};

static bool has_option(int argc, char **argv, const char *name)
{
    const size_t len = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strncmp(argv[i], name, len) == 0
            && (argv[i][len] == '\0' || argv[i][len] == '='))
            return true;
    }
    return false;
}

/* Copies argv, leaving out options given by name (with their value when
 * takes_value) and appending extra ones. */
static int copy_args(struct args *a, int argc, char **argv, const char *const *drop,
    const bool *takes_value, int ndrop)
{
    a->argc = 0;
    for (int i = 0; i < argc; i++) {
        bool skip = false;
        for (int k = 0; k < ndrop && !skip; k++) {
            const size_t len = strlen(drop[k]);
            if (strncmp(argv[i], drop[k], len) != 0)
                continue;
            if (argv[i][len] == '=') {
                skip = true;
            } else if (argv[i][len] == '\0') {
                skip = true;
                i += takes_value[k];
            }
        }
        if (skip)
            continue;
        if (a->argc == MAX_ARGS - 8)
            return -1;
        a->argv[a->argc++] = argv[i];
    }
    a->argv[a->argc] = NULL;
    return 0;
}

/* Adds an option right after the command name, before any "--". */
static void add_arg(struct args *a, char *arg)
{
    const int at = a->argc > 0 ? 1 : 0;
    memmove(&a->argv[at + 1], &a->argv[at], (size_t) (a->argc - at + 1) * sizeof(char *));
    a->argv[at] = arg;
    a->argc++;
}

/* ---- count and generate: shards handed out ---- */

struct shard_job_ctx {
    struct engine *e;
    const struct args *base; /* the command line, without --shard */
    uint32_t chunks;
    int (*cmd)(int, char **);
    /* rank 0 */
    struct buf *outputs; /* [chunks] */
    struct buf errors; /* stderr lines of every shard */
    int worst;
};

/* Runs a command with its stdout and stderr captured in memory. */
static int run_captured(
    int (*cmd)(int, char **), int argc, char **argv, struct buf *out, struct buf *err)
{
    fflush(stdout);
    fflush(stderr);
    FILE *fo = tmpfile(), *fe = tmpfile();
    const int so = dup(STDOUT_FILENO), se = dup(STDERR_FILENO);
    if (!fo || !fe || so < 0 || se < 0) {
        if (fo)
            fclose(fo);
        if (fe)
            fclose(fe);
        return CLI_SKIPPED;
    }
    dup2(fileno(fo), STDOUT_FILENO);
    dup2(fileno(fe), STDERR_FILENO);
    const int rc = cmd(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(so, STDOUT_FILENO);
    dup2(se, STDERR_FILENO);
    close(so);
    close(se);
    int failed = 0;
    FILE *files[2] = { fo, fe };
    struct buf *bufs[2] = { out, err };
    for (int i = 0; i < 2; i++) {
        char chunk[65536];
        rewind(files[i]);
        size_t got;
        while ((got = fread(chunk, 1, sizeof(chunk), files[i])) > 0)
            failed |= buf_add(bufs[i], chunk, got);
        fclose(files[i]);
    }
    return failed ? CLI_SKIPPED : rc;
}

static int shard_compute(void *arg)
{
    struct shard_job_ctx *ctx = arg;
    uint32_t job;
    while (engine_next(ctx->e, &job)) {
        struct args a = *ctx->base;
        char spec[48];
        snprintf(spec, sizeof(spec), "%u/%u", job + 1, ctx->chunks);
        add_arg(&a, spec);
        add_arg(&a, "--shard");
        struct buf out = { 0 }, err = { 0 }, msg = { 0 };
        const int rc = run_captured(ctx->cmd, a.argc, a.argv, &out, &err);
        const uint64_t olen = out.len;
        if (buf_add(&msg, &olen, sizeof(olen)) != 0
            || buf_add(&msg, out.data, out.len) != 0
            || buf_add(&msg, err.data, err.len) != 0) {
            buf_free(&out);
            buf_free(&err);
            buf_free(&msg);
            return -1;
        }
        engine_result(ctx->e, job, rc, msg.data, msg.len);
        buf_free(&out);
        buf_free(&err);
        buf_free(&msg);
    }
    return 0;
}

static void shard_take(
    struct engine *e, int rank, uint32_t job, int rc, const char *data, size_t len)
{
    struct shard_job_ctx *ctx = e->ctx;
    (void) rank;
    uint64_t olen;
    if (job >= ctx->chunks || len < sizeof(olen)) {
        e->failed = 1;
        return;
    }
    memcpy(&olen, data, sizeof(olen));
    if (olen > len - sizeof(olen)) {
        e->failed = 1;
        return;
    }
    struct buf *o = &ctx->outputs[job];
    o->len = 0;
    if (buf_add(o, data + sizeof(olen), (size_t) olen) != 0
        || buf_add(&ctx->errors, data + sizeof(olen) + olen, len - sizeof(olen) - olen)
            != 0)
        e->failed = 1;
    if (rc > ctx->worst)
        ctx->worst = rc;
}

/* Prints each distinct line of the shards' stderr once: every shard reads the
 * same inputs and would repeat the same warnings. */
static void print_distinct_lines(const struct buf *b)
{
    size_t start = 0;
    while (start < b->len) {
        const char *line = b->data + start;
        const char *nl = memchr(line, '\n', b->len - start);
        const size_t len = nl ? (size_t) (nl - line) : b->len - start;
        bool seen = false;
        for (size_t p = 0; p < start && !seen;) {
            const char *other = b->data + p;
            const char *onl = memchr(other, '\n', start - p);
            const size_t olen = onl ? (size_t) (onl - other) : start - p;
            seen = olen == len && memcmp(other, line, len) == 0;
            p += olen + 1;
        }
        if (!seen)
            fprintf(stderr, "%.*s\n", (int) len, line);
        start += len + 1;
    }
}

static int run_sharded(int argc, char **argv, uint32_t chunks, int rank, int size)
{
    const bool is_count = strcmp(argv[0], "count") == 0;
    if (has_option(argc, argv, "--shard")) {
        if (rank == 0)
            fprintf(stderr,
                "sudolab-mpi: --shard: sudolab-mpi splits the run itself (use "
                "sudolab for static shards)\n");
        return CLI_USAGE;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-") == 0) {
            if (rank == 0)
                fprintf(stderr,
                    "sudolab-mpi: standard input reaches rank 0 only: give "
                    "files\n");
            return CLI_USAGE;
        }
    }
    struct args base;
    if (copy_args(&base, argc, argv, NULL, NULL, 0) != 0) {
        if (rank == 0)
            fprintf(stderr, "sudolab-mpi: too many arguments\n");
        return CLI_USAGE;
    }
    /* generate: one seed for every rank, as one run has one */
    char seed_text[32];
    if (!is_count && !has_option(argc, argv, "--seed")
        && !has_option(argc, argv, "--help")) {
        uint64_t seed = clock_now_ns() ^ ((uint64_t) getpid() << 32);
        MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        snprintf(seed_text, sizeof(seed_text), "%llu", (unsigned long long) seed);
        add_arg(&base, seed_text);
        add_arg(&base, "--seed");
    }
    if (has_option(argc, argv, "--help"))
        return rank == 0 ? (is_count ? cmd_count : cmd_generate)(argc, argv) : CLI_OK;
    if (chunks == 0)
        chunks = CHUNKS_PER_RANK * (uint32_t) size;

    struct engine e;
    struct shard_job_ctx ctx
        = { &e, &base, chunks, is_count ? cmd_count : cmd_generate, NULL, { 0 }, CLI_OK };
    engine_init(&e, 1, shard_take, &ctx);
    e.prefetch = false;
    int rc = CLI_OK;
    if (rank == 0) {
        ctx.outputs = calloc(chunks, sizeof(*ctx.outputs));
        e.jobs = malloc(chunks * sizeof(*e.jobs));
        if (!ctx.outputs || !e.jobs)
            e.failed = 1;
        for (uint32_t k = 0; e.jobs && k < chunks; k++)
            e.jobs[k] = k;
        e.njobs = chunks;
    }
    if (engine_run(&e, shard_compute, &ctx) != 0)
        rc = CLI_SKIPPED;
    engine_report(&e, "shard", chunks);
    if (rank == 0 && rc == CLI_OK) {
        print_distinct_lines(&ctx.errors);
        FILE **files = calloc(chunks, sizeof(*files));
        char **names = calloc(chunks, sizeof(*names));
        char *name_buf = malloc((size_t) chunks * 32);
        if (!files || !names || !name_buf) {
            rc = CLI_SKIPPED;
        } else {
            for (uint32_t k = 0; k < chunks && rc == CLI_OK; k++) {
                snprintf(name_buf + 32 * (size_t) k, 32, "shard %u/%u", k + 1, chunks);
                names[k] = name_buf + 32 * (size_t) k;
                files[k] = ctx.outputs[k].len
                    ? fmemopen(ctx.outputs[k].data, ctx.outputs[k].len, "r")
                    : NULL;
                if (!files[k]) {
                    fprintf(stderr, "sudolab-mpi: %s: no output\n", names[k]);
                    rc = CLI_SKIPPED;
                }
            }
            if (rc == CLI_OK) {
                const int mrc = is_count
                    ? merge_count(files, (const char *const *) names, chunks,
                        has_option(argc, argv, "--csv"))
                    : merge_generate(files, (const char *const *) names, chunks, stdout);
                rc = mrc > ctx.worst ? mrc : ctx.worst;
            }
            for (uint32_t k = 0; k < chunks; k++) {
                if (files[k])
                    fclose(files[k]);
            }
        }
        free(files);
        free(names);
        free(name_buf);
    }
    for (uint32_t k = 0; ctx.outputs && k < chunks; k++)
        buf_free(&ctx.outputs[k]);
    free(ctx.outputs);
    buf_free(&ctx.errors);
    engine_free(&e);
    fflush(stdout);
    return rc;
}

/* ---- bench: chunks of the plan handed out ---- */

struct bench_mpi {
    struct engine *e;
    struct bench_plan *plan;
    struct bench_job *table; /* every chunk of the plan, in the single run's order */
    size_t ntable;
    struct buf lines; /* rank 0: the rows of the message being taken */
    int stderr_fd; /* a rank's real stderr, kept while the command's is silenced */
    unsigned long errors, write_errors, stray_rows;
};

/* What every rank must agree on before rows go between them. */
static uint64_t plan_fingerprint(const struct bench_plan *plan)
{
    uint64_t h = HASH_FNV1A_START;
    for (size_t si = 0; si < plan->nsolvers; si++)
        h = hash_bytes(h, plan->solvers[si]->name, strlen(plan->solvers[si]->name) + 1);
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        const struct bench_corpus *c = &plan->corpora[ci];
        h = hash_bytes(h, c->name, strlen(c->name) + 1);
        for (size_t pi = 0; pi < c->n; pi++) {
            const struct bench_puzzle *p = &c->puzzles[pi];
            h = hash_bytes(h, &p->index, sizeof(p->index));
            h = hash_bytes(h, &p->ok, sizeof(p->ok));
            const size_t n = (size_t) p->box_rows * p->box_cols;
            if (p->ok)
                h = hash_bytes(h, c->cells + p->cells, n * n);
        }
    }
    const struct bench_options *o = &plan->opt;
    const uint64_t v[] = { o->limit, o->budget_steps, o->budget_ms, o->repeat, o->seed,
        o->permute, o->head };
    return hash_bytes(h, v, sizeof(v));
}

static int build_table(struct bench_mpi *m)
{
    const struct bench_plan *plan = m->plan;
    size_t n = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        n += plan->nsolvers * ((plan->corpora[ci].n + BENCH_CHUNK - 1) / BENCH_CHUNK);
    m->table = malloc((n ? n : 1) * sizeof(*m->table));
    if (!m->table)
        return -1;
    m->ntable = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++) {
        const size_t np = plan->corpora[ci].n;
        for (size_t si = 0; si < plan->nsolvers; si++) {
            for (size_t start = 0; start < np; start += BENCH_CHUNK) {
                const size_t end = start + BENCH_CHUNK < np ? start + BENCH_CHUNK : np;
                m->table[m->ntable++] = (struct bench_job) { (uint32_t) si, (uint32_t) ci,
                    (uint32_t) start, (uint32_t) end };
            }
        }
    }
    return 0;
}

static bool job_pending(const struct bench_plan *plan, const struct bench_job *j)
{
    for (uint32_t pi = j->start; pi < j->end; pi++) {
        for (unsigned r = 0; r < plan->opt.repeat; r++) {
            if (bench_cell_pending(plan, j->si, j->ci, pi, r))
                return true;
        }
    }
    return false;
}

static bool bench_next_job(void *arg, struct bench_job *job)
{
    struct bench_mpi *m = arg;
    uint32_t k;
    if (!engine_next(m->e, &k))
        return false;
    if (k >= m->ntable) {
        m->e->failed = 1;
        return false;
    }
    *job = m->table[k];
    return true;
}

/* A result as it travels to rank 0: its place in the plan (the ranks' plans
 * are proven equal), the cell, then its runs.csv line. */
struct wire_row {
    uint32_t si, ci, pi, r;
    struct bench_cell cell;
};

static void bench_on_row(void *arg, size_t si, size_t ci, size_t pi, unsigned r,
    const struct bench_cell *cell, const char *line, size_t len)
{
    struct bench_mpi *m = arg;
    char buf[sizeof(struct wire_row) + BENCH_CSV_LINE_MAX];
    const struct wire_row w = { (uint32_t) si, (uint32_t) ci, (uint32_t) pi, r, *cell };
    if (len > BENCH_CSV_LINE_MAX)
        len = 0;
    memcpy(buf, &w, sizeof(w));
    memcpy(buf + sizeof(w), line, len);
    engine_result(m->e, 0, 0, buf, sizeof(w) + len);
}

/* Rank 0: a result from another rank, into the plan; its line is written
 * with the rest of its message (bench_flush). */
static void bench_take(
    struct engine *e, int rank, uint32_t job, int rc, const char *data, size_t len)
{
    struct bench_mpi *m = e->ctx;
    struct bench_plan *plan = m->plan;
    (void) job;
    (void) rc;
    struct wire_row w;
    if (len <= sizeof(w) || data[len - 1] != '\n') {
        e->failed = 1;
        return;
    }
    memcpy(&w, data, sizeof(w));
    if (w.si >= plan->nsolvers || w.ci >= plan->ncorpora || w.pi >= plan->corpora[w.ci].n
        || w.r >= plan->opt.repeat) {
        m->stray_rows++;
        return;
    }
    struct bench_cell *cell
        = &plan->cells[w.si * plan->ncorpora + w.ci][w.pi * plan->opt.repeat + w.r];
    if (cell->state != BENCH_CELL_PENDING)
        return; /* resumed here already: a chunk was only partly done */
    *cell = w.cell;
    cell->state = BENCH_CELL_DONE;
    cell->resumed = false;
    if (cell->status == SOLVE_STATUS_ERROR) {
        m->errors++;
        fprintf(stderr, "%s:%lu: %s: error (on rank %d)\n", plan->corpora[w.ci].name,
            plan->corpora[w.ci].puzzles[w.pi].line, plan->solvers[w.si]->name, rank);
    }
    if (buf_add(&m->lines, data + sizeof(w), len - sizeof(w)) != 0)
        m->write_errors++;
}

/* Rank 0, after each message: its rows in one write (whole lines, so a
 * killed run still leaves whole rows). */
static void bench_flush(struct engine *e)
{
    struct bench_mpi *m = e->ctx;
    const struct bench_plan *plan = m->plan;
    if (m->lines.len == 0)
        return;
    if (plan->out_fd >= 0 && !io_write_all(plan->out_fd, m->lines.data, m->lines.len))
        m->write_errors++;
    if (plan->csv_fd >= 0 && !io_write_all(plan->csv_fd, m->lines.data, m->lines.len))
        m->write_errors++;
    m->lines.len = 0;
}

static int bench_compute(void *arg)
{
    return bench_plan_run(((struct bench_mpi *) arg)->plan);
}

static int mpi_bench_run(void *arg, struct bench_plan *plan)
{
    struct bench_mpi *m = arg;
    m->plan = plan;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* The ranks built their plans alone: prove they are the same plan. */
    uint64_t mine = plan_fingerprint(plan), root = mine;
    MPI_Bcast(&root, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int bad = mine != root, any_bad = 0;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_bad) {
        if (bad && m->stderr_fd >= 0)
            dprintf(m->stderr_fd,
                "sudolab-mpi: rank %d read other puzzles or options than "
                "rank 0 (are the files the same on every node?)\n",
                rank);
        return -1;
    }
    if (build_table(m) != 0)
        return -1;

    struct engine e;
    const unsigned threads = plan->opt.threads ? plan->opt.threads : 1;
    engine_init(&e, threads, bench_take, m);
    e.flush = bench_flush;
    e.stop = plan->stop;
    m->e = &e;
    if (rank == 0) {
        e.jobs = malloc((m->ntable ? m->ntable : 1) * sizeof(*e.jobs));
        if (!e.jobs) {
            engine_free(&e);
            return -1;
        }
        for (size_t k = 0; k < m->ntable; k++) {
            if (job_pending(plan, &m->table[k]))
                e.jobs[e.njobs++] = (uint32_t) k;
        }
    }
    /* The rows first, everywhere; then rank 0 alone times the whole passes,
     * which check their answers against every row. */
    const uint64_t pass_ms = plan->opt.pass_ms;
    const bool progress = plan->opt.progress;
    plan->opt.pass_ms = 0;
    plan->opt.progress = false;
    plan->next_job = bench_next_job;
    plan->on_row = rank == 0 ? NULL : bench_on_row;
    plan->hook_ctx = m;
    int rc = engine_run(&e, bench_compute, m);
    size_t cells = 0;
    for (size_t ci = 0; ci < plan->ncorpora; ci++)
        cells += plan->corpora[ci].n * plan->nsolvers * plan->opt.repeat;
    engine_report(&e, "row", cells);
    plan->next_job = NULL;
    plan->on_row = NULL;
    plan->opt.pass_ms = pass_ms;
    plan->opt.progress = progress;
    if (rank == 0) {
        plan->errors += m->errors;
        plan->write_errors += m->write_errors;
        if (m->stray_rows)
            fprintf(stderr, "sudolab-mpi: %lu rows matched no puzzle of rank 0's plan\n",
                m->stray_rows);
        if (rc == 0 && pass_ms > 0 && !(plan->stop && atomic_load(plan->stop)))
            rc = bench_plan_run(plan);
    }
    engine_free(&e);
    free(m->table);
    m->table = NULL;
    buf_free(&m->lines);
    return rc;
}

static int run_bench(int argc, char **argv, int rank)
{
    if (has_option(argc, argv, "--help"))
        return rank == 0 ? cmd_bench(argc, argv) : CLI_OK;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-") == 0) {
            if (rank == 0)
                fprintf(stderr,
                    "sudolab-mpi: standard input reaches rank 0 only: give "
                    "files\n");
            return CLI_USAGE;
        }
    }
    /* one seed for every rank (--permute solves the same isomorphs) */
    struct args a;
    static const char *const drop[] = { "--out", "--resume", "--csv" };
    static const bool takes_value[] = { true, false, false };
    const int failed = rank == 0 ? copy_args(&a, argc, argv, NULL, NULL, 0)
                                 : copy_args(&a, argc, argv, drop, takes_value, 3);
    if (failed) {
        if (rank == 0)
            fprintf(stderr, "sudolab-mpi: too many arguments\n");
        return CLI_USAGE;
    }
    char seed_text[32];
    if (!has_option(argc, argv, "--seed")) {
        uint64_t seed = clock_now_ns() ^ ((uint64_t) getpid() << 32);
        MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
        snprintf(seed_text, sizeof(seed_text), "%llu", (unsigned long long) seed);
        add_arg(&a, seed_text);
        add_arg(&a, "--seed");
    }
    struct bench_mpi m;
    memset(&m, 0, sizeof(m));
    m.stderr_fd = -1;
    const struct dist_runner hooks = { .bench = mpi_bench_run, .output = true, .ctx = &m };
    dist_install(&hooks);
    int rc;
    if (rank == 0) {
        rc = cmd_bench(a.argc, a.argv);
    } else {
        /* The other ranks run the same command, silently: rank 0 speaks. */
        add_arg(&a, "--quiet");
        fflush(stdout);
        fflush(stderr);
        m.stderr_fd = dup(STDERR_FILENO);
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            dup2(null, STDERR_FILENO);
            close(null);
        }
        rc = cmd_bench(a.argc, a.argv);
        fflush(stdout);
        fflush(stderr);
        if (m.stderr_fd >= 0) {
            dup2(m.stderr_fd, STDERR_FILENO);
            close(m.stderr_fd);
        }
    }
    dist_install(NULL);
    return rc;
}

/* ---- main ---- */

static void usage(FILE *out)
{
    fputs("usage: mpirun [-np P] sudolab-mpi [--chunks M] COMMAND [options] FILE...\n"
          "Runs sudolab bench, count or generate over the ranks of an MPI job: rank 0\n"
          "hands out work as it is asked for and writes what the command writes.\n"
          "Options and inputs are the command's (see `sudolab COMMAND --help`); input\n"
          "files must be readable by every rank. -j N runs N threads in each rank.\n"
          "  --chunks M   count and generate: split the run into M shards (default 16\n"
          "               per rank)\n",
        out);
}

int main(int argc, char **argv)
{
    int provided = 0;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "sudolab-mpi: MPI_Init_thread failed\n");
        return CLI_SKIPPED;
    }
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rc = CLI_USAGE;
    uint32_t chunks = 0;
    int first = 1;
    if (first + 1 < argc && strcmp(argv[first], "--chunks") == 0) {
        uint64_t v;
        if (text_parse_u64(argv[first + 1], &v) != 0 || v < 1 || v > 1000000) {
            if (rank == 0)
                fprintf(stderr, "sudolab-mpi: --chunks %s: a number from 1 expected\n",
                    argv[first + 1]);
            MPI_Finalize();
            return CLI_USAGE;
        }
        chunks = (uint32_t) v;
        first += 2;
    }
    if (provided < MPI_THREAD_FUNNELED) {
        if (rank == 0)
            fprintf(stderr, "sudolab-mpi: the MPI library does not allow threads\n");
        rc = CLI_SKIPPED;
    } else if (first >= argc) {
        if (rank == 0)
            usage(stderr);
    } else if (strcmp(argv[first], "--help") == 0) {
        if (rank == 0)
            usage(stdout);
        rc = CLI_OK;
    } else if (strcmp(argv[first], "bench") == 0) {
        rc = run_bench(argc - first, argv + first, rank);
    } else if (strcmp(argv[first], "count") == 0
        || strcmp(argv[first], "generate") == 0) {
        rc = run_sharded(argc - first, argv + first, chunks, rank, size);
    } else {
        if (rank == 0)
            fprintf(stderr, "sudolab-mpi: '%s': bench, count or generate expected\n",
                argv[first]);
    }
    fflush(stdout);
    MPI_Finalize();
    return rc;
}
