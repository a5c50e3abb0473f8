/* Outside back ends by name: parsing so:/cmd:/LABEL= specs, naming them, and
 * the descriptors made for them (see outside.h). The kinds themselves are in
 * plugin_so.c and plugin_cmd.c. */
#include "config.h"

#if HAVE_OUTSIDE

#include "solvers/outside.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solvers/plugin.h"
#include "solvers/registry.h"

enum { OUTSIDE_MAX = 64 };

/* The descriptors made so far. Like the registry they live as long as the
 * program, since solver_find()'s callers keep the pointers; the lock orders
 * their creation (recursive: describing one may open an instance of it). */
static struct outside_backend *descriptors[OUTSIDE_MAX];
static int ndescriptors;
static pthread_mutex_t descriptors_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static bool label_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '_' || c == '-' || c == '.' || c == '+';
}

static bool has_kind_prefix(const char *s)
{
    return strncmp(s, "so:", 3) == 0 || strncmp(s, "cmd:", 4) == 0;
}

/* The length of a LABEL= prefix (label and '='), or 0 when there is none. */
static size_t label_length(const char *spec)
{
    size_t n = 0;
    while (label_char(spec[n]))
        n++;
    return n > 0 && spec[n] == '=' && has_kind_prefix(spec + n + 1) ? n + 1 : 0;
}

bool outside_is_spec(const char *name)
{
    return has_kind_prefix(name) || label_length(name) > 0;
}

const struct outside_backend *outside_backend_at(int index)
{
    pthread_mutex_lock(&descriptors_lock);
    const struct outside_backend *ob
        = index >= 0 && index < ndescriptors ? descriptors[index] : NULL;
    pthread_mutex_unlock(&descriptors_lock);
    return ob;
}

static const struct outside_backend *as_outside(const struct solver *s)
{
    const struct outside_backend *found = NULL;
    pthread_mutex_lock(&descriptors_lock);
    for (int i = 0; i < ndescriptors && !found; i++) {
        if (&descriptors[i]->solver == s)
            found = descriptors[i];
    }
    pthread_mutex_unlock(&descriptors_lock);
    return found;
}

const char *outside_problem(const struct solver *s)
{
    const struct outside_backend *ob = as_outside(s);
    return ob ? ob->problem : NULL;
}

const char *outside_note(const struct solver *s)
{
    const struct outside_backend *ob = as_outside(s);
    return ob && ob->note[0] ? ob->note : NULL;
}

const char *outside_spec(const struct solver *s)
{
    const struct outside_backend *ob = as_outside(s);
    return ob ? ob->spec : NULL;
}

/* so:PATH[:SYMBOL]: the symbol follows the last ':' after the last '/'. A
 * leading ~/ is $HOME; a bare file name found in the working directory is
 * taken from there rather than from the library search path. */
static int parse_so(struct outside_backend *ob, const char *rest)
{
    const char *slash = strrchr(rest, '/');
    const char *colon = strrchr(slash ? slash : rest, ':');
    const size_t path_len = colon ? (size_t) (colon - rest) : strlen(rest);
    if (colon)
        snprintf(ob->symbol, sizeof(ob->symbol), "%s", colon + 1);
    char path[OUTSIDE_TEXT_MAX];
    snprintf(path, sizeof(path), "%.*s", (int) path_len, rest);
    if (path[0] == '\0' || (colon && ob->symbol[0] == '\0'))
        return -1;
    const char *home = getenv("HOME");
    int len;
    if (strncmp(path, "~/", 2) == 0 && home)
        len = snprintf(ob->target, sizeof(ob->target), "%s/%s", home, path + 2);
    else if (!strchr(path, '/') && access(path, F_OK) == 0)
        len = snprintf(ob->target, sizeof(ob->target), "./%s", path);
    else
        len = snprintf(ob->target, sizeof(ob->target), "%s", path);
    return len > 0 && (size_t) len < sizeof(ob->target) ? 0 : -1;
}

/* so:tdoku_shared for .../libtdoku_shared.so, with :SYMBOL when one was named. */
static void name_so(struct outside_backend *ob)
{
    const char *slash = strrchr(ob->target, '/');
    const char *base = slash ? slash + 1 : ob->target;
    if (strncmp(base, "lib", 3) == 0 && base[3])
        base += 3;
    const char *dot_so = strstr(base, ".so");
    const int len = dot_so && dot_so > base ? (int) (dot_so - base) : (int) strlen(base);
    snprintf(ob->name, sizeof(ob->name), "so:%.*s%s%.40s", len > 40 ? 40 : len, base,
        ob->symbol[0] ? ":" : "", ob->symbol);
}

/* cmd:python3_solver.py_--fast for `python3 tests/solver.py --fast`: the
 * words without their directories, and nothing that needs quoting in CSV or
 * env.txt. */
static void name_cmd(struct outside_backend *ob)
{
    size_t n = (size_t) snprintf(ob->name, sizeof(ob->name), "cmd:");
    const char *p = ob->target;
    while (*p && n + 1 < sizeof(ob->name) - 8) {
        while (*p == ' ' || *p == '\t')
            p++;
        const size_t word = strcspn(p, " \t");
        const char *w = p, *end = p + word;
        for (const char *q = p; q < end; q++) {
            if (*q == '/' && q + 1 < end)
                w = q + 1;
        }
        if (word > 0 && n > 4)
            ob->name[n++] = '_';
        for (; w < end && n + 1 < sizeof(ob->name) - 8; w++)
            ob->name[n++] = label_char(*w) || *w == '=' ? *w : '_';
        p = end;
    }
    while (n > 4 && ob->name[n - 1] == '_')
        n--;
    ob->name[n] = '\0';
}

static bool name_taken(const char *name)
{
    for (size_t i = 0; solver_registry[i]; i++) {
        if (strcmp(solver_registry[i]->name, name) == 0)
            return true;
    }
    for (int i = 0; i < ndescriptors; i++) {
        if (strcmp(descriptors[i]->name, name) == 0)
            return true;
    }
    return false;
}

/* Fills spec, kind, target, symbol and a unique name. Returns 0, or -1 after
 * saying why. */
static int parse_spec(struct outside_backend *ob, const char *spec)
{
    snprintf(ob->spec, sizeof(ob->spec), "%s", spec);
    const size_t label = label_length(spec);
    const char *rest = spec + label;
    if (strncmp(rest, "so:", 3) == 0) {
        ob->kind = OUTSIDE_SO;
        if (parse_so(ob, rest + 3) != 0) {
            fprintf(stderr, "sudolab: %s: so:PATH or so:PATH:SYMBOL expected\n", spec);
            return -1;
        }
        name_so(ob);
    } else {
        ob->kind = OUTSIDE_CMD;
        snprintf(ob->target, sizeof(ob->target), "%s", rest + 4);
        if (strspn(ob->target, " \t") == strlen(ob->target)) {
            fprintf(stderr, "sudolab: %s: cmd:COMMAND expected\n", spec);
            return -1;
        }
        name_cmd(ob);
    }
    if (label) {
        if (label >= sizeof(ob->name)) {
            fprintf(stderr, "sudolab: %s: a label of at most %d characters expected\n",
                spec, OUTSIDE_NAME_MAX - 1);
            return -1;
        }
        snprintf(ob->name, sizeof(ob->name), "%.*s", (int) label - 1, spec);
        if (name_taken(ob->name)) {
            fprintf(
                stderr, "sudolab: %s: the name %s is taken already\n", spec, ob->name);
            return -1;
        }
        return 0;
    }
    char base[OUTSIDE_NAME_MAX];
    snprintf(base, sizeof(base), "%.55s", ob->name);
    /* k % 1000 is k itself: it tells the compiler that "~k" takes at most 4 bytes */
    for (unsigned k = 2; name_taken(ob->name) && k < 1000; k++)
        snprintf(ob->name, sizeof(ob->name), "%.55s~%u", base, k % 1000);
    return 0;
}

static void set_common_fields(struct outside_backend *ob, int index)
{
    ob->solver.name = ob->name;
    ob->solver.family = ob->family;
    ob->solver.summary = ob->summary;
    ob->solver.variant = index;
}

const struct solver *outside_find(const char *spec)
{
    pthread_mutex_lock(&descriptors_lock);
    for (int i = 0; i < ndescriptors; i++) {
        if (strcmp(descriptors[i]->spec, spec) == 0) {
            pthread_mutex_unlock(&descriptors_lock);
            return &descriptors[i]->solver;
        }
    }
    struct outside_backend *ob = NULL;
    if (ndescriptors == OUTSIDE_MAX) {
        fprintf(
            stderr, "sudolab: %s: more than %d outside back ends\n", spec, OUTSIDE_MAX);
    } else if (strlen(spec) >= OUTSIDE_TEXT_MAX) {
        fprintf(stderr, "sudolab: %.60s...: longer than %d characters\n", spec,
            OUTSIDE_TEXT_MAX - 1);
    } else if (!(ob = calloc(1, sizeof(*ob)))) {
        fprintf(stderr, "sudolab: %s: out of memory\n", spec);
    } else if (parse_spec(ob, spec) != 0) {
        free(ob);
        ob = NULL;
    }
    if (!ob) {
        pthread_mutex_unlock(&descriptors_lock);
        return NULL;
    }
    /* numbered before it is described: an init() finds it by number */
    descriptors[ndescriptors] = ob;
    set_common_fields(ob, ndescriptors++);
    if (ob->kind == OUTSIDE_SO)
        plugin_so_describe(ob);
    else
        plugin_cmd_describe(ob);
    if (ob->problem[0]) {
        outside_describe_unusable(ob);
        fprintf(stderr, "sudolab: %s: %s (its puzzles will be errors)\n", ob->name,
            ob->problem);
    }
    set_common_fields(ob, ob->solver.variant);
    pthread_mutex_unlock(&descriptors_lock);
    return &ob->solver;
}

/* ---- a back end that cannot run ---- */

static int unusable_init(void *priv, int variant)
{
    *(int *) priv = variant;
    return 0;
}

static void unusable_solve(void *priv, const struct grid *puzzle,
    const struct solve_request *req, struct solve_result *res)
{
    (void) puzzle;
    (void) req;
    const struct outside_backend *ob = outside_backend_at(*(int *) priv);
    snprintf(res->error, sizeof(res->error), "%.150s", ob ? ob->problem : "unusable");
    res->outcome = SOLVE_ERROR;
}

void outside_describe_unusable(struct outside_backend *ob)
{
    struct solver *s = &ob->solver;
    snprintf(ob->family, sizeof(ob->family), "%s", ob->kind == OUTSIDE_SO ? "so" : "cmd");
    snprintf(ob->summary, sizeof(ob->summary), "unusable: %.300s", ob->problem);
    /* every shape and count, so that each puzzle gets its `error` row */
    s->min_n = 1;
    s->max_n = GRID_MAX_N;
    s->caps = SOLVER_CAP_COUNT | SOLVER_CAP_DIAGONAL;
    s->counters = 0;
    s->priv_size = sizeof(int);
    s->init = unusable_init;
    s->solve = unusable_solve;
    s->fini = NULL;
    s->first_solution = NULL;
}

#else /* no dlopen() or processes here: such names are refused */

#include "solvers/outside.h"

#include <stdio.h>
#include <string.h>

bool outside_is_spec(const char *name)
{
    return strncmp(name, "so:", 3) == 0 || strncmp(name, "cmd:", 4) == 0;
}

const struct solver *outside_find(const char *spec)
{
    fprintf(stderr, "sudolab: %s: this build has no outside back ends\n", spec);
    return NULL;
}

const char *outside_problem(const struct solver *s)
{
    (void) s;
    return NULL;
}

const char *outside_note(const struct solver *s)
{
    (void) s;
    return NULL;
}

const char *outside_spec(const struct solver *s)
{
    (void) s;
    return NULL;
}

#endif /* HAVE_OUTSIDE */
