#include "bench/input_walk.h"

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

/* One argument: a literal puzzle, or a file ("-": standard input). */
static void walk_argument(struct walk *w, const char *path)
{
    struct stat sb;
    if (strcmp(path, "-") != 0 && stat(path, &sb) != 0 && walk_literal(w, path))
        return;
    if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fprintf(w->in->err, "%s: is a directory, not a corpus file\n", path);
        w->problems++;
        return;
    }
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
