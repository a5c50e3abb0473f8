#include "bench/input_walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_MESSAGES = 20 };

struct walk {
    const struct input_options *in;
    input_entry_fn *fn;
    void *ctx;
    unsigned long index;
    unsigned long problems;
    bool stopped;
};

static bool deliver(struct walk *w, const char *source, const struct corpus_item *item,
    bool ok, unsigned long *messages)
{
    struct input_entry e = { source, item->line, ++w->index, ok, item };
    if (!ok) {
        w->problems++;
        if (++*messages <= MAX_MESSAGES)
            fprintf(w->in->err, "%s:%lu: %s\n", source, item->line, item->why);
    }
    if (!w->fn(w->ctx, &e)) {
        w->stopped = true;
        return false;
    }
    return true;
}

static void walk_corpus(struct walk *w, struct corpus *c)
{
    FILE *err = w->in->err;
    struct corpus_item item;
    unsigned long messages = 0, entries = 0;
    bool failed = false;
    while (!w->in->head || entries < w->in->head) {
        const enum corpus_status st = corpus_next(c, &item);
        if (st == CORPUS_END)
            break;
        if (st == CORPUS_FAIL) {
            if (item.line == 0) /* the whole input, not one line of it */
                fprintf(err, "%s: %s\n", corpus_name(c), item.why);
            else
                fprintf(err, "%s:%lu: %s\n", corpus_name(c), item.line, item.why);
            w->problems++;
            failed = true;
            break;
        }
        entries++;
        if (!deliver(w, corpus_name(c), &item, st == CORPUS_PUZZLE, &messages))
            return;
    }
    if (messages > MAX_MESSAGES)
        fprintf(err, "%s: %lu more bad entries not shown\n", corpus_name(c),
            messages - MAX_MESSAGES);
    if (entries == 0 && !failed) { /* a failed input has said why already */
        fprintf(err, "%s:%lu: no puzzles in this input%s\n", corpus_name(c),
            corpus_lines(c), corpus_lines(c) == 0 ? " (empty)" : "");
        w->problems++;
    }
}

/* An argument that is no file but reads as one puzzle. */
static bool walk_literal(struct walk *w, const char *arg)
{
    struct corpus_item item;
    memset(&item, 0, sizeof(item));
    size_t len = 0;
    while (arg[len] && !grid_is_separator((unsigned char) arg[len]))
        len++;
    if (len < 16)
        return false;
    if (grid_parse_token(
            &item.puzzle, arg, len, &w->in->corpus->shape, item.why, sizeof(item.why))
        != 0)
        return false;
    unsigned long messages = 0;
    item.line = 1;
    deliver(w, "<arg>", &item, true, &messages);
    return true;
}

int input_name_order(const char *a, const char *b)
{
    const char *p = a, *q = b;
    while (*p && *q) {
        if (*p >= '0' && *p <= '9' && *q >= '0' && *q <= '9') {
            while (*p == '0' && p[1] >= '0' && p[1] <= '9')
                p++;
            while (*q == '0' && q[1] >= '0' && q[1] <= '9')
                q++;
            size_t np = 0, nq = 0;
            while (p[np] >= '0' && p[np] <= '9')
                np++;
            while (q[nq] >= '0' && q[nq] <= '9')
                nq++;
            if (np != nq)
                return np < nq ? -1 : 1;
            const int c = memcmp(p, q, np);
            if (c != 0)
                return c;
            p += np;
            q += nq;
        } else if (*p != *q) {
            return (unsigned char) *p < (unsigned char) *q ? -1 : 1;
        } else {
            p++;
            q++;
        }
    }
    if (*p || *q)
        return *p ? 1 : -1;
    return strcmp(a, b); /* "a01" and "a1": the bytes decide */
}

static int compare_names(const void *a, const void *b)
{
    return input_name_order(*(char *const *) a, *(char *const *) b);
}

static void walk_file(struct walk *w, const char *path);

/* A directory: its files (not those of its subdirectories, nor hidden ones)
 * in input_name_order. */
static void walk_directory(struct walk *w, const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        fprintf(w->in->err, "%s: %s\n", path, strerror(errno));
        w->problems++;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool short_of_memory = false;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (!grown) {
                short_of_memory = true;
                break;
            }
            names = grown;
        }
        const size_t len = strlen(path) + strlen(de->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            short_of_memory = true;
            break;
        }
        snprintf(names[n++], len, "%s%s%s", path,
            path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
    }
    closedir(d);
    if (short_of_memory) {
        fprintf(w->in->err, "%s: out of memory\n", path);
        w->problems++;
    } else {
        qsort(names, n, sizeof(*names), compare_names);
        size_t files = 0;
        for (size_t i = 0; i < n && !w->stopped; i++) {
            struct stat sb;
            if (stat(names[i], &sb) == 0 && S_ISDIR(sb.st_mode))
                continue;
            files++;
            walk_file(w, names[i]);
        }
        if (files == 0) {
            fprintf(w->in->err, "%s: no files in this directory\n", path);
            w->problems++;
        }
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* One argument: a literal puzzle, a directory, or a file ("-": standard
 * input). */
static void walk_argument(struct walk *w, const char *path)
{
    struct stat sb;
    if (strcmp(path, "-") != 0 && stat(path, &sb) != 0 && walk_literal(w, path))
        return;
    if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        walk_directory(w, path);
        return;
    }
    walk_file(w, path);
}

static void walk_file(struct walk *w, const char *path)
{
    char why[200];
    struct corpus *corpus = corpus_open(path, w->in->corpus, why, sizeof(why));
    if (!corpus) {
        fprintf(w->in->err, "%s: %s\n", path, why);
        w->problems++;
        return;
    }
    walk_corpus(w, corpus);
    corpus_close(corpus);
}

unsigned long input_walk(
    const struct input_options *in, int argc, char **argv, input_entry_fn *fn, void *ctx)
{
    struct walk w = { in, fn, ctx, 0, 0, false };
    for (int i = 0; i < in->nempty && !w.stopped; i++) {
        struct corpus_item item;
        memset(&item, 0, sizeof(item));
        item.puzzle = in->empty[i];
        item.line = 1;
        unsigned long messages = 0;
        deliver(&w, "<empty>", &item, true, &messages);
    }
    const bool use_stdin = argc == 0 && in->nempty == 0;
    for (int i = 0; (i < argc || use_stdin) && !w.stopped; i++) {
        walk_argument(&w, use_stdin ? "-" : argv[i]);
        if (use_stdin)
            break;
    }
    return w.problems;
}
