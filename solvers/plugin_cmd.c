/* cmd:COMMAND: a back end in another process, speaking the line protocol of
 * solvers/sudolab_plugin.h over a socket pair bound to its standard input and
 * output. Each instance starts its own process (in its own process group, so
 * that killing it takes the shell and whatever it started) and keeps it for
 * the whole run. A puzzle's time is the round trip of its `solve` line; the
 * protocol's own cost, the median round trip of a `ping`, is measured when
 * the name is first resolved and reported beside the results (outside_note).
 *
 * A process that misses the time budget is killed (status `limit`, with the
 * message "no answer within the budget; killed and started again"); one that
 * exits, or answers what the protocol does not allow, gives the puzzle an
 * `error` with the reason. In each case it is started again at once, so the
 * next puzzle's time does not include its start. Counters: those its hello
 * declares; a puzzle without an answer has none (no_answer). */
#include "config.h"

#if HAVE_OUTSIDE

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/text.h"
#include "solvers/plugin.h"

enum {
    START_TIMEOUT_MS = 10000, /* for the hello of a process just started */
    FIRST_SOLUTION_MS = 60000, /* for the untimed limit-1 request */
    EXIT_WAIT_MS = 1000, /* for a process told to stop, before SIGKILL */
    PING_WARMUP = 20,
    PINGS = 200,
};

/* One running process and what it has written that was not read yet. */
struct conn {
    pid_t pid; /* 0: none */
    int fd; /* -1: none */
    size_t have, used; /* bytes in `in`; of those, consumed lines */
    char in[4096];
};

enum line_status { LINE_OK, LINE_TIMEOUT, LINE_EOF, LINE_TOO_LONG };

static void conn_reset(struct conn *c)
{
    c->pid = 0;
    c->fd = -1;
    c->have = c->used = 0;
}

/* Starts `/bin/sh -c command`. Returns 0, or -1 with why. */
static int conn_start(struct conn *c, const char *command, char *why, size_t whylen)
{
    int sv[2];
    conn_reset(c);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(why, whylen, "socketpair: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, sv[1], STDOUT_FILENO);
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *argv[] = { "sh", "-c", (char *) command, NULL };
    const int rc = posix_spawn(&c->pid, "/bin/sh", &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(sv[1]);
    if (rc != 0) {
        close(sv[0]);
        c->pid = 0;
        snprintf(why, whylen, "cannot start /bin/sh: %s", strerror(rc));
        return -1;
    }
    c->fd = sv[0];
    return 0;
}

/* Ends the process: with `gentle`, closes its input and gives it
 * EXIT_WAIT_MS to exit; then kills its process group. Writes how it ended
 * into how (may be NULL). */
static void conn_stop(struct conn *c, bool gentle, char *how, size_t howlen)
{
    if (c->pid <= 0) {
        if (c->fd >= 0)
            close(c->fd);
        conn_reset(c);
        return;
    }
    int status = 0;
    pid_t done = 0;
    if (gentle) {
        if (c->fd >= 0)
            shutdown(c->fd, SHUT_WR);
        for (int waited = 0; waited < EXIT_WAIT_MS && done == 0; waited += 5) {
            done = waitpid(c->pid, &status, WNOHANG);
            if (done == 0)
                nanosleep(&(struct timespec) { 0, 5000000 }, NULL);
        }
    }
    if (done == 0) {
        kill(-c->pid, SIGKILL);
        done = waitpid(c->pid, &status, 0);
    }
    if (how && done == c->pid && WIFSIGNALED(status))
        snprintf(how, howlen, "was killed by signal %d (%s)", WTERMSIG(status),
            sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
    else if (how && done == c->pid && WEXITSTATUS(status) > 128
        && WEXITSTATUS(status) < 160)
        /* the shell's word for a command it ran that a signal ended */
        snprintf(how, howlen, "exited with status %d (signal %d, %s)",
            WEXITSTATUS(status), WEXITSTATUS(status) - 128,
            sigabbrev_np(WEXITSTATUS(status) - 128)
                ? sigabbrev_np(WEXITSTATUS(status) - 128)
                : "?");
    else if (how && done == c->pid)
        snprintf(how, howlen, "exited with status %d", WEXITSTATUS(status));
    else if (how)
        snprintf(how, howlen, "ended");
    if (c->fd >= 0)
        close(c->fd);
    conn_reset(c);
}

static int conn_send(struct conn *c, const char *text, size_t len)
{
    while (len > 0) {
        /* MSG_NOSIGNAL: a process that died must not take sudolab with it */
        const ssize_t sent = send(c->fd, text, len, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR)
            continue;
        if (sent <= 0)
            return -1;
        text += sent;
        len -= (size_t) sent;
    }
    return 0;
}

/* The next line the process writes (without its end), valid until the next
 * call; deadline_ns 0 waits for ever. */
static enum line_status conn_read_line(struct conn *c, uint64_t deadline_ns, char **line)
{
    memmove(c->in, c->in + c->used, c->have - c->used);
    c->have -= c->used;
    c->used = 0;
    for (;;) {
        char *nl = memchr(c->in, '\n', c->have);
        if (nl) {
            *nl = '\0';
            if (nl > c->in && nl[-1] == '\r')
                nl[-1] = '\0';
            c->used = (size_t) (nl + 1 - c->in);
            *line = c->in;
            return LINE_OK;
        }
        if (c->have == sizeof(c->in) - 1) {
            c->in[c->have] = '\0';
            *line = c->in;
            return LINE_TOO_LONG;
        }
        struct timespec ts, *timeout = NULL;
        if (deadline_ns) {
            const uint64_t now = clock_now_ns();
            if (now >= deadline_ns)
                return LINE_TIMEOUT;
            ts.tv_sec = (time_t) ((deadline_ns - now) / 1000000000u);
            ts.tv_nsec = (long) ((deadline_ns - now) % 1000000000u);
            timeout = &ts;
        }
        struct pollfd p = { c->fd, POLLIN, 0 };
        const int ready = ppoll(&p, 1, timeout, NULL);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            return LINE_TIMEOUT;
        const ssize_t got = ready < 0
            ? -1
            : recv(c->fd, c->in + c->have, sizeof(c->in) - 1 - c->have, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return LINE_EOF;
        c->have += (size_t) got;
    }
}

/* One request, one answer line. Returns LINE_OK with *answer, or why not
 * (LINE_EOF also when the request could not be sent). */
static enum line_status conn_ask(
    struct conn *c, const char *request, uint64_t deadline_ns, char **answer)
{
    if (conn_send(c, request, strlen(request)) != 0)
        return LINE_EOF;
    return conn_read_line(c, deadline_ns, answer);
}

/* What a process's hello says. */
struct hello {
    int min_n, max_n;
    unsigned caps, counters;
};

static int parse_list(const char *list, size_t len, const char *const *names, int nnames,
    unsigned *bits, char *why, size_t whylen)
{
    while (len > 0) {
        const size_t word = strcspn(list, ",") < len ? strcspn(list, ",") : len;
        int k = 0;
        while (k < nnames
            && !(strlen(names[k]) == word && strncmp(names[k], list, word) == 0))
            k++;
        if (k == nnames) {
            snprintf(why, whylen, "unknown word '%.*s' in its hello", (int) word, list);
            return -1;
        }
        *bits |= 1u << k;
        list += word + (word < len);
        len -= word + (word < len);
    }
    return 0;
}

static int parse_hello(const char *line, struct hello *h, char *why, size_t whylen)
{
    static const char *const caps[] = { "count", "diagonal" };
    *h = (struct hello) { 9, 9, 0, 0 };
    if (strncmp(line, "hello 1", 7) != 0 || (line[7] != '\0' && line[7] != ' ')) {
        snprintf(why, whylen, "it answered '%.80s' to 'hello 1'", line);
        return -1;
    }
    for (const char *p = line + 7; *p;) {
        p += strspn(p, " ");
        const size_t len = strcspn(p, " ");
        int a, b, end = 0;
        if (strncmp(p, "sizes=", 6) == 0) {
            if (sscanf(p + 6, "%d-%d%n", &a, &b, &end) != 2 || (size_t) end + 6 != len
                || a < 1 || a > b || b > GRID_MAX_N_MASK32) {
                snprintf(why, whylen, "bad '%.*s' in its hello", (int) len, p);
                return -1;
            }
            h->min_n = a;
            h->max_n = b;
        } else if (strncmp(p, "caps=", 5) == 0) {
            if (parse_list(p + 5, len - 5, caps, 2, &h->caps, why, whylen) != 0)
                return -1;
        } else if (strncmp(p, "counters=", 9) == 0) {
            if (parse_list(p + 9, len - 9, solver_counter_names, SOLVER_COUNTER_COUNT,
                    &h->counters, why, whylen)
                != 0)
                return -1;
        }
        p += len;
    }
    return 0;
}

/* Starts the process and reads its hello. Returns 0, or -1 with why. */
static int start_and_greet(
    struct conn *c, const char *command, struct hello *h, char *why, size_t whylen)
{
    if (conn_start(c, command, why, whylen) != 0)
        return -1;
    char *answer = NULL;
    const enum line_status st = conn_ask(
        c, "hello 1\n", clock_now_ns() + (uint64_t) START_TIMEOUT_MS * 1000000u, &answer);
    if (st == LINE_OK && parse_hello(answer, h, why, whylen) == 0)
        return 0;
    char how[80] = "";
    conn_stop(c, st == LINE_EOF, how, sizeof(how));
    if (st == LINE_EOF)
        snprintf(why, whylen, "the process %s before answering hello", how);
    else if (st == LINE_TIMEOUT)
        snprintf(why, whylen, "no hello within %d s", START_TIMEOUT_MS / 1000);
    else if (st == LINE_TOO_LONG)
        snprintf(why, whylen, "it answered hello with an endless line");
    return -1;
}

/* ---- instances ---- */

struct cmd_instance {
    const struct outside_backend *ob;
    struct conn conn;
    char problem[320]; /* why the process is not running */
};

static int cmd_init(void *priv, int variant)
{
    struct cmd_instance *ci = priv;
    ci->ob = outside_backend_at(variant);
    conn_reset(&ci->conn);
    if (!ci->ob)
        return -1;
    struct hello h;
    start_and_greet(&ci->conn, ci->ob->target, &h, ci->problem, sizeof(ci->problem));
    return 0; /* when it did not start, each puzzle says why */
}

static void cmd_fini(void *priv)
{
    struct cmd_instance *ci = priv;
    conn_stop(&ci->conn, true, NULL, 0);
}

/* After a failure: the process is ended and started again, so that the next
 * puzzle finds it ready. */
static void restart(struct cmd_instance *ci, bool gentle, char *how, size_t howlen)
{
    conn_stop(&ci->conn, gentle, how, howlen);
    struct hello h;
    char why[200];
    if (start_and_greet(&ci->conn, ci->ob->target, &h, why, sizeof(why)) != 0)
        snprintf(ci->problem, sizeof(ci->problem), "could not start it again: %s", why);
}

static void fail(struct solve_result *res, enum solve_outcome outcome, const char *fmt,
    const char *a, const char *b)
{
    res->outcome = outcome;
    snprintf(res->error, sizeof(res->error), fmt, a, b);
}

/* Sends request and returns the answer line, or NULL after recording what went
 * wrong in res (and starting the process again). */
static char *exchange(struct cmd_instance *ci, const char *request, uint64_t deadline_ns,
    struct solve_result *res)
{
    res->no_answer = true; /* until an answer comes */
    if (ci->conn.pid == 0) {
        fail(res, SOLVE_ERROR, "%.150s%s", ci->problem, "");
        return NULL;
    }
    char *answer = NULL, how[80] = "";
    switch (conn_ask(&ci->conn, request, deadline_ns, &answer)) {
    case LINE_OK:
        res->no_answer = false;
        return answer;
    case LINE_TIMEOUT:
        restart(ci, false, NULL, 0);
        res->outcome = SOLVE_BUDGET;
        if (ci->conn.pid)
            snprintf(res->error, sizeof(res->error),
                "no answer within the budget; killed and started again");
        else
            snprintf(res->error, sizeof(res->error),
                "no answer within the budget; killed, and %.110s", ci->problem);
        return NULL;
    case LINE_EOF:
        restart(ci, true, how, sizeof(how));
        fail(res, SOLVE_ERROR, "the process %s on this puzzle%s", how,
            ci->conn.pid ? "; started again" : "");
        return NULL;
    case LINE_TOO_LONG:
        break;
    }
    fail(res, SOLVE_ERROR, "the process answered an endless line ('%.40s...')%s", answer,
        "");
    restart(ci, false, NULL, 0);
    return NULL;
}

/* The request line for puzzle. */
static void format_request(
    char *out, size_t len, uint64_t limit, const struct grid *puzzle)
{
    char cells[GRID_MAX_CELLS + 1];
    grid_format_line(puzzle, cells);
    snprintf(out, len, "solve %llu %dx%d %s %s\n", (unsigned long long) limit,
        puzzle->box_rows, puzzle->box_cols,
        puzzle->variant == GRID_DIAGONAL ? "diagonal" : "standard", cells);
}

/* Reads `COUNT SOLUTION [COUNTER=VALUE]...` into res. Returns 0, or -1 with
 * what is wrong in why. */
static int parse_answer(char *answer, unsigned declared, const struct grid *puzzle,
    struct solve_result *res, char *why, size_t whylen)
{
    char *save = NULL;
    const char *count = strtok_r(answer, " ", &save);
    const char *sol = strtok_r(NULL, " ", &save);
    if (!count || !sol || text_parse_u64(count, &res->solutions) != 0) {
        snprintf(why, whylen, "no COUNT SOLUTION");
        return -1;
    }
    if (strcmp(sol, "-") != 0) {
        const struct grid_shape shape
            = { puzzle->box_rows, puzzle->box_cols, puzzle->variant };
        char bad[120];
        if (res->solutions == 0
            || grid_parse_token(
                   &res->solution, sol, strlen(sol), &shape, bad, sizeof(bad))
                != 0) {
            snprintf(why, whylen, "%s", res->solutions ? bad : "a solution with count 0");
            return -1;
        }
    }
    for (char *tok = strtok_r(NULL, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        int k = 0;
        while (eq && k < SOLVER_COUNTER_COUNT
            && strncmp(tok, solver_counter_names[k], (size_t) (eq - tok)) != 0)
            k++;
        uint64_t v;
        if (!eq || k == SOLVER_COUNTER_COUNT || !(declared & (1u << k))
            || strlen(solver_counter_names[k]) != (size_t) (eq - tok)
            || text_parse_u64(eq + 1, &v) != 0) {
            snprintf(why, whylen, "'%.40s' is no counter its hello declared", tok);
            return -1;
        }
        solver_counter_set(&res->counters, k, v);
    }
    return 0;
}

/* Takes an answer line into res; garbage ends the process (it is out of step). */
static void take_answer(struct cmd_instance *ci, char *answer, const struct grid *puzzle,
    struct solve_result *res)
{
    if (strncmp(answer, "error", 5) == 0 && (answer[5] == ' ' || answer[5] == '\0')) {
        fail(res, SOLVE_ERROR, "the process said: %.120s%s",
            answer + 5 + (answer[5] == ' '), "");
        res->no_answer = true;
        return;
    }
    char copy[64], why[160];
    snprintf(copy, sizeof(copy), "%.50s", answer);
    if (parse_answer(answer, ci->ob->solver.counters, puzzle, res, why, sizeof(why)) == 0)
        return;
    restart(ci, false, NULL, 0);
    res->solutions = 0;
    memset(&res->solution, 0, sizeof(res->solution));
    res->outcome = SOLVE_ERROR;
    res->no_answer = true;
    memset(&res->counters, 0, sizeof(res->counters));
    snprintf(
        res->error, sizeof(res->error), "the process answered '%.50s': %.80s", copy, why);
}

static void cmd_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct cmd_instance *ci = priv;
    char request[GRID_MAX_CELLS + 80];
    format_request(request, sizeof(request), req->limit, puzzle);
    char *answer = exchange(ci, request, req->deadline_ns, res);
    if (!answer)
        return;
    take_answer(ci, answer, puzzle, res);
    if (res->outcome != SOLVE_DONE || !req->on_solution || res->solutions == 0)
        return;
    if (res->solutions > 1 || res->solution.ncells == 0)
        fail(res, SOLVE_ERROR, "%s%s", "a process gives one solution, not every one",
            " (use --limit 1)");
    else
        req->on_solution(req->ctx, &res->solution);
}

static void cmd_first_solution(
    void *priv, const struct grid *puzzle, struct solve_result *res)
{
    struct cmd_instance *ci = priv;
    char request[GRID_MAX_CELLS + 80];
    format_request(request, sizeof(request), 1, puzzle);
    struct solve_result once;
    memset(&once, 0, sizeof(once));
    char *answer = exchange(
        ci, request, clock_now_ns() + (uint64_t) FIRST_SOLUTION_MS * 1000000u, &once);
    if (answer)
        take_answer(ci, answer, puzzle, &once);
    if (once.outcome == SOLVE_DONE && once.solution.ncells) {
        res->solution = once.solution;
        return;
    }
    res->outcome = SOLVE_ERROR;
    snprintf(res->error, sizeof(res->error),
        "asked with limit 1 for a solution to verify: %.110s",
        once.error[0] ? once.error : "it gave none");
}

/* ---- describing ---- */

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
    return (x > y) - (x < y);
}

/* The median round trip of a ping, or 0 when the process fails to answer. */
static uint64_t time_pings(struct conn *c)
{
    uint64_t times[PINGS];
    for (int i = 0; i < PING_WARMUP + PINGS; i++) {
        char *answer;
        const uint64_t start = clock_now_ns();
        if (conn_ask(c, "ping\n", start + (uint64_t) START_TIMEOUT_MS * 1000000u, &answer)
                != LINE_OK
            || strcmp(answer, "pong") != 0)
            return 0;
        if (i >= PING_WARMUP)
            times[i - PING_WARMUP] = clock_now_ns() - start;
    }
    qsort(times, PINGS, sizeof(times[0]), compare_u64);
    return times[PINGS / 2];
}

void plugin_cmd_describe(struct outside_backend *ob)
{
    struct conn c;
    struct hello h;
    if (start_and_greet(&c, ob->target, &h, ob->problem, sizeof(ob->problem)) != 0)
        return;
    ob->round_trip_ns = time_pings(&c);
    conn_stop(&c, true, NULL, 0);
    if (ob->round_trip_ns == 0) {
        snprintf(
            ob->problem, sizeof(ob->problem), "it did not answer 'ping' with 'pong'");
        return;
    }
    struct solver *s = &ob->solver;
    char trip[32];
    text_format_ns(trip, sizeof(trip), ob->round_trip_ns);
    snprintf(ob->family, sizeof(ob->family), "process");
    snprintf(ob->summary, sizeof(ob->summary),
        "`%.200s` (a process; protocol round trip %s)", ob->target, trip);
    snprintf(ob->note, sizeof(ob->note),
        "%s = `%.200s`: a process; the protocol's round trip, %s per puzzle (median of "
        "%d pings), is part of its times",
        ob->name, ob->target, trip, PINGS);
    s->min_n = (uint8_t) h.min_n;
    s->max_n = (uint8_t) h.max_n;
    s->caps
        = (h.caps & 1u ? SOLVER_CAP_COUNT : 0) | (h.caps & 2u ? SOLVER_CAP_DIAGONAL : 0);
    s->counters = h.counters;
    s->priv_size = sizeof(struct cmd_instance);
    s->init = cmd_init;
    s->solve = cmd_solve;
    s->fini = cmd_fini;
    s->first_solution = cmd_first_solution;
}

#endif /* HAVE_OUTSIDE */
