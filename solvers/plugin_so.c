/* so:PATH[:SYMBOL]: back ends in a shared library, loaded with dlopen(), either
 * a function with tdoku's C ABI or a native plug-in (solvers/sudolab_plugin.h).
 *
 * Each instance loads the library for itself (dlopen() counts references) and,
 * for a native plug-in, opens its own plug-in state. Counters: a tdoku-ABI
 * function reports `guesses`; a native plug-in the slots it declares.
 *
 * A crash inside the library (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) while
 * it solves a puzzle ends that puzzle as an `error` saying which signal, and
 * the run goes on: the signal handler jumps back out of the call. The library
 * is called again for the next puzzle (its answers are verified like every
 * other), but a crash that damaged sudolab's own memory cannot be undone: run
 * a solver you do not trust as a process (cmd:) instead. */
#include "config.h"

#if HAVE_OUTSIDE

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "solvers/plugin.h"
#include "solvers/sudolab_plugin.h"

#define TDOKU_DEFAULT_SYMBOL "TdokuSolverDpllTriadSimd"

/* The plug-in header's numbers are sudolab's own, so they pass through as
 * they are; these fail to compile if either side changes. */
_Static_assert((int) SUDOLAB_PLUGIN_CAP_COUNT == (int) SOLVER_CAP_COUNT
        && (int) SUDOLAB_PLUGIN_CAP_DIAGONAL == (int) SOLVER_CAP_DIAGONAL
        && (int) SUDOLAB_PLUGIN_CAP_TRACE == (int) SOLVER_CAP_TRACE
        && (int) SUDOLAB_PLUGIN_CAP_STEP_BUDGET == (int) SOLVER_CAP_STEP_BUDGET
        && (int) SUDOLAB_PLUGIN_CAP_FAST == (int) SOLVER_CAP_FAST,
    "plug-in capability bits");
_Static_assert((int) SUDOLAB_PLUGIN_STEPS == (int) SOLVER_COUNTER_steps
        && (int) SUDOLAB_PLUGIN_GUESSES == (int) SOLVER_COUNTER_guesses
        && (int) SUDOLAB_PLUGIN_BACKTRACKS == (int) SOLVER_COUNTER_backtracks
        && (int) SUDOLAB_PLUGIN_NODES == (int) SOLVER_COUNTER_nodes
        && (int) SUDOLAB_PLUGIN_ARTICLE_STEPS == (int) SOLVER_COUNTER_article_steps
        && (int) SOLVER_COUNTER_COUNT <= (int) SUDOLAB_PLUGIN_MAX_COUNTERS,
    "plug-in counter slots");
_Static_assert(SUDOLAB_PLUGIN_EVENT_SINGLETON == (int) SOLVER_EVENT_SINGLETON
        && SUDOLAB_PLUGIN_EVENT_GUESS == (int) SOLVER_EVENT_GUESS
        && SUDOLAB_PLUGIN_EVENT_UNDO == (int) SOLVER_EVENT_UNDO
        && SUDOLAB_PLUGIN_EVENT_DEAD == (int) SOLVER_EVENT_DEAD
        && SUDOLAB_PLUGIN_EVENT_SOLUTION == (int) SOLVER_EVENT_SOLUTION,
    "plug-in event kinds");

/* ---- the crash guard ---- */

static const int guarded_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
enum { NGUARDED = sizeof(guarded_signals) / sizeof(guarded_signals[0]) };

/* The handlers that were there before ours, for signals outside a guarded
 * call; and, per thread, where a guarded call jumps back to. A signal handler
 * can reach nothing else. */
static struct sigaction previous_actions[NGUARDED];
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
static _Thread_local sigjmp_buf *guard_jump;
static _Thread_local volatile sig_atomic_t guard_signal;

static void on_crash(int sig, siginfo_t *info, void *uctx)
{
    if (guard_jump) {
        sigjmp_buf *jump = guard_jump;
        guard_jump = NULL;
        guard_signal = sig;
        sigset_t unblock;
        sigemptyset(&unblock);
        sigaddset(&unblock, sig);
        pthread_sigmask(SIG_UNBLOCK, &unblock, NULL);
        siglongjmp(*jump, 1);
    }
    /* not ours: what would have happened without us */
    for (int i = 0; i < NGUARDED; i++) {
        if (guarded_signals[i] != sig)
            continue;
        const struct sigaction *old = &previous_actions[i];
        if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
            old->sa_sigaction(sig, info, uctx);
            return;
        }
        if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
            old->sa_handler(sig);
            return;
        }
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_guard(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_crash;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NGUARDED; i++)
        sigaction(guarded_signals[i], &sa, &previous_actions[i]);
}

typedef void guarded_fn(void *arg);

/* Runs fn(arg). Returns 0, or the signal that ended it. */
static int guarded_call(guarded_fn *fn, void *arg)
{
    sigjmp_buf jump;
    /* no signal mask saved: a system call per puzzle would be timed */
    if (sigsetjmp(jump, 0) != 0)
        return guard_signal;
    guard_jump = &jump;
    fn(arg);
    guard_jump = NULL;
    return 0;
}

static void crashed(struct solve_result *res, int sig, const char *what)
{
    res->outcome = SOLVE_ERROR;
    res->no_answer = true;
    snprintf(res->error, sizeof(res->error), "the library crashed (signal %d, %s) %s",
        sig, sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", what);
}

/* ---- instances ---- */

struct so_instance {
    const struct outside_backend *ob;
    void *handle;
    sudolab_tdoku_fn *tdoku;
    const struct sudolab_plugin *plugin;
    void *state;
    char problem[320]; /* why this instance cannot run */
};

/* Loads what ob names. Returns 0, or -1 with why. Used when describing (then
 * the handle is closed again) and by each instance. */
static int load(const struct outside_backend *ob, void **handle, sudolab_tdoku_fn **tdoku,
    const struct sudolab_plugin **plugin, char *why, size_t whylen)
{
    *tdoku = NULL;
    *plugin = NULL;
    dlerror();
    *handle = dlopen(ob->target, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        const char *err = dlerror();
        snprintf(why, whylen, "cannot load %.300s", err ? err : ob->target);
        return -1;
    }
    if (ob->symbol[0]) {
        *(void **) tdoku = dlsym(*handle, ob->symbol);
        if (!*tdoku)
            snprintf(
                why, whylen, "%.200s has no function %.100s", ob->target, ob->symbol);
    } else {
        *plugin = dlsym(*handle, SUDOLAB_PLUGIN_SYMBOL);
        if (!*plugin)
            *(void **) tdoku = dlsym(*handle, TDOKU_DEFAULT_SYMBOL);
        if (!*plugin && !*tdoku)
            snprintf(why, whylen,
                "%.200s exports neither " SUDOLAB_PLUGIN_SYMBOL
                " nor " TDOKU_DEFAULT_SYMBOL " (name a function: so:PATH:SYMBOL)",
                ob->target);
    }
    if (!*plugin && !*tdoku) {
        dlclose(*handle);
        *handle = NULL;
        return -1;
    }
    return 0;
}

/* Whether a native plug-in's declaration is one this sudolab can use. */
static bool plugin_acceptable(
    const struct sudolab_plugin *p, const char *path, char *why, size_t whylen)
{
    if (p->abi_version != SUDOLAB_PLUGIN_ABI_VERSION) {
        snprintf(why, whylen,
            "%.200s is a plug-in of ABI version %u; this sudolab loads version %u "
            "(rebuild "
            "it against solvers/sudolab_plugin.h)",
            path, p->abi_version, SUDOLAB_PLUGIN_ABI_VERSION);
        return false;
    }
    if (p->size < sizeof(*p) || !p->solve || p->min_n < 1 || p->min_n > p->max_n
        || p->max_n > GRID_MAX_N_MASK32) {
        snprintf(why, whylen,
            "%.200s: a malformed sudolab_plugin (size %u, sizes %u-%u, solve %s)", path,
            p->size, p->min_n, p->max_n, p->solve ? "set" : "missing");
        return false;
    }
    return true;
}

static int so_init(void *priv, int variant)
{
    struct so_instance *si = priv;
    si->ob = outside_backend_at(variant);
    if (!si->ob)
        return -1;
    pthread_once(&guard_once, install_guard);
    if (load(si->ob, &si->handle, &si->tdoku, &si->plugin, si->problem,
            sizeof(si->problem))
        != 0)
        return 0; /* each puzzle will say why */
    if (si->plugin && si->plugin->open) {
        char why[160] = "";
        si->state = si->plugin->open(why, sizeof(why));
        if (!si->state)
            snprintf(si->problem, sizeof(si->problem), "the plug-in did not open: %s",
                why[0] ? why : "no reason given");
    }
    return 0;
}

static void so_fini(void *priv)
{
    struct so_instance *si = priv;
    if (si->plugin && si->plugin->close && si->state)
        si->plugin->close(si->state);
    if (si->handle)
        dlclose(si->handle);
}

static bool so_usable(const struct so_instance *si, struct solve_result *res)
{
    if (!si->problem[0])
        return true;
    res->outcome = SOLVE_ERROR;
    res->no_answer = true;
    snprintf(res->error, sizeof(res->error), "%.150s", si->problem);
    return false;
}

/* ---- tdoku's ABI ---- */

struct tdoku_call {
    sudolab_tdoku_fn *fn;
    char puzzle[82];
    char solution[82];
    size_t limit, guesses, found;
};

static void call_tdoku(void *arg)
{
    struct tdoku_call *c = arg;
    c->found = c->fn(c->puzzle, c->limit, 0, c->solution, &c->guesses);
}

/* Reads the solution a call left, if it left one. Returns -1 when what it
 * left is no 9x9 grid. */
static int take_tdoku_solution(
    const struct tdoku_call *c, const struct grid *puzzle, struct solve_result *res)
{
    if (c->solution[0] == '\0')
        return 0;
    struct grid g = *puzzle;
    for (int i = 0; i < 81; i++) {
        if (c->solution[i] < '1' || c->solution[i] > '9') {
            res->outcome = SOLVE_ERROR;
            snprintf(res->error, sizeof(res->error),
                "the library returned a malformed solution ('%.81s')", c->solution);
            return -1;
        }
        g.cell[i] = (uint8_t) (c->solution[i] - '0');
    }
    res->solution = g;
    return 0;
}

static int tdoku_run(
    struct so_instance *si, const struct grid *puzzle, size_t limit, struct tdoku_call *c)
{
    c->fn = si->tdoku;
    for (int i = 0; i < 81; i++)
        c->puzzle[i] = puzzle->cell[i] ? (char) ('0' + puzzle->cell[i]) : '.';
    c->puzzle[81] = '\0';
    c->solution[0] = '\0';
    c->solution[81] = '\0';
    c->limit = limit;
    c->guesses = 0;
    c->found = 0;
    return guarded_call(call_tdoku, c);
}

static void tdoku_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct so_instance *si = priv;
    if (!so_usable(si, res))
        return;
    struct tdoku_call c;
    const int sig = tdoku_run(si, puzzle, req->limit ? req->limit : SIZE_MAX, &c);
    if (sig) {
        crashed(res, sig, "on this puzzle");
        return;
    }
    res->solutions = c.found;
    res->counters.guesses = c.guesses;
    if (c.found == 0 || take_tdoku_solution(&c, puzzle, res) != 0)
        return;
    if (req->on_solution) {
        /* the ABI has no way to list every solution */
        if (c.found > 1 || res->solution.ncells == 0) {
            res->outcome = SOLVE_ERROR;
            snprintf(res->error, sizeof(res->error),
                "a tdoku-ABI function cannot list every solution (use --limit 1)");
        } else {
            req->on_solution(req->ctx, &res->solution);
        }
    }
}

static void tdoku_first_solution(
    void *priv, const struct grid *puzzle, struct solve_result *res)
{
    struct so_instance *si = priv;
    struct tdoku_call c;
    const int sig = tdoku_run(si, puzzle, 1, &c);
    if (sig) {
        crashed(res, sig, "when asked again with limit 1 for a solution to verify");
        return;
    }
    if (take_tdoku_solution(&c, puzzle, res) != 0)
        return;
    if (c.found == 0 || res->solution.ncells == 0) {
        res->outcome = SOLVE_ERROR;
        snprintf(res->error, sizeof(res->error),
            "the library counted %llu solutions, then gave none with limit 1",
            (unsigned long long) res->solutions);
    }
}

/* ---- native plug-ins ---- */

struct native_call {
    const struct sudolab_plugin *plugin;
    void *state;
    struct sudolab_plugin_puzzle puzzle;
    struct sudolab_plugin_request request;
    struct sudolab_plugin_result result;
    /* what the trampolines below hand on */
    const struct solve_request *req;
    const struct grid *grid;
    uint8_t solution[GRID_MAX_CELLS];
};

static void counters_from_plugin(struct solver_counters *c, const uint64_t *slots)
{
#define X(name, doc) c->name = slots[SOLVER_COUNTER_##name];
    SOLVER_COUNTERS(X)
#undef X
}

static void trace_trampoline(void *ctx, const struct sudolab_plugin_event *event)
{
    const struct native_call *c = ctx;
    struct solver_event ev
        = { (enum solver_event_kind) event->kind, event->cell, event->value, { 0 } };
    counters_from_plugin(&ev.at, event->counters);
    c->req->trace(c->req->ctx, &ev);
}

static int solution_trampoline(void *ctx, const uint8_t *cells)
{
    const struct native_call *c = ctx;
    struct grid g = *c->grid;
    memcpy(g.cell, cells, g.ncells);
    return c->req->on_solution(c->req->ctx, &g) ? 1 : 0;
}

static void call_native(void *arg)
{
    struct native_call *c = arg;
    c->plugin->solve(c->state, &c->puzzle, &c->request, &c->result);
}

static void native_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    struct so_instance *si = priv;
    if (!so_usable(si, res))
        return;
    struct native_call
        c; /* its solution buffer is written, never read, before the call */
    memset(&c.result, 0, sizeof(c.result));
    c.plugin = si->plugin;
    c.state = si->state;
    c.req = req;
    c.grid = puzzle;
    c.puzzle = (struct sudolab_plugin_puzzle) { puzzle->box_rows, puzzle->box_cols,
        puzzle->variant == GRID_DIAGONAL, puzzle->cell };
    c.request = (struct sudolab_plugin_request) {
        req->limit,
        req->budget_steps,
        req->deadline_ns,
        req->trace ? trace_trampoline : NULL,
        req->on_solution ? solution_trampoline : NULL,
        &c,
    };
    c.result.solution = c.solution;
    const int sig = guarded_call(call_native, &c);
    if (sig) {
        crashed(res, sig, "on this puzzle");
        return;
    }
    res->outcome = c.result.outcome == SUDOLAB_PLUGIN_BUDGET ? SOLVE_BUDGET
        : c.result.outcome == SUDOLAB_PLUGIN_DONE            ? SOLVE_DONE
                                                             : SOLVE_ERROR;
    res->solutions = c.result.solutions;
    counters_from_plugin(&res->counters, c.result.counters);
    if (res->outcome == SOLVE_ERROR)
        snprintf(res->error, sizeof(res->error), "the plug-in failed: %.130s",
            c.result.error[0] ? c.result.error : "no reason given");
    if (c.result.has_solution) {
        res->solution = *puzzle;
        memcpy(res->solution.cell, c.solution, puzzle->ncells);
    } else if (res->solutions > 0 && res->outcome != SOLVE_ERROR) {
        res->outcome = SOLVE_ERROR;
        snprintf(res->error, sizeof(res->error),
            "the plug-in counted %llu solutions but returned none",
            (unsigned long long) res->solutions);
    }
}

/* ---- describing ---- */

static void describe_tdoku(struct outside_backend *ob)
{
    struct solver *s = &ob->solver;
    const char *fn = ob->symbol[0] ? ob->symbol : TDOKU_DEFAULT_SYMBOL;
    snprintf(ob->family, sizeof(ob->family), "tdoku-abi");
    /* the guesses are the library's own count, not the contract of solver.h
     * (tdoku counts one per two-way decision), so the summary says so */
    snprintf(ob->summary, sizeof(ob->summary),
        "%.100s from %.200s (tdoku's C ABI; guesses as the library counts them)", fn,
        ob->target);
    snprintf(ob->note, sizeof(ob->note), "%s = %.100s from %.200s, tdoku's C ABI",
        ob->name, fn, ob->target);
    s->min_n = s->max_n = 9;
    s->caps = SOLVER_CAP_COUNT | SOLVER_CAP_FAST;
    s->counters = SOLVER_HAS(guesses);
    s->solve = tdoku_solve;
    s->first_solution = tdoku_first_solution;
}

static void describe_native(struct outside_backend *ob, const struct sudolab_plugin *p)
{
    struct solver *s = &ob->solver;
    snprintf(ob->family, sizeof(ob->family), "%s", p->family ? p->family : "plugin");
    snprintf(ob->summary, sizeof(ob->summary), "%.40s: %.100s (plug-in from %.160s)",
        p->name ? p->name : "?", p->summary ? p->summary : "", ob->target);
    snprintf(ob->note, sizeof(ob->note), "%s = plug-in %.40s from %.200s, ABI version %u",
        ob->name, p->name ? p->name : "?", ob->target, p->abi_version);
    s->min_n = (uint8_t) p->min_n;
    s->max_n = (uint8_t) p->max_n;
    s->caps = p->caps
        & (SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL | SOLVER_CAP_TRACE
            | SOLVER_CAP_STEP_BUDGET | SOLVER_CAP_FAST);
    s->counters = p->counters & ((1u << SOLVER_COUNTER_COUNT) - 1);
    s->solve = native_solve;
}

void plugin_so_describe(struct outside_backend *ob)
{
    void *handle;
    sudolab_tdoku_fn *tdoku;
    const struct sudolab_plugin *plugin;
    if (load(ob, &handle, &tdoku, &plugin, ob->problem, sizeof(ob->problem)) != 0)
        return;
    struct solver *s = &ob->solver;
    s->priv_size = sizeof(struct so_instance);
    s->init = so_init;
    s->fini = so_fini;
    ob->native = plugin != NULL;
    if (!plugin)
        describe_tdoku(ob);
    else if (plugin_acceptable(plugin, ob->target, ob->problem, sizeof(ob->problem)))
        describe_native(ob, plugin);
    dlclose(handle);
}

#endif /* HAVE_OUTSIDE */
