/* The walk over a command's inputs: the --empty grids, then every argument (a
 * corpus file, a directory, "-" for standard input, or a literal puzzle), or
 * standard input when there is none, with `file:line: reason` diagnostics for
 * what does not read. A directory stands for its files, not those of its
 * subdirectories nor hidden ones (a leading '.'), in input_name_order. The
 * commands of the CLI and count's split path (scaleout/count_range.h) read their
 * puzzles through it. */
#ifndef SUDOLAB_BENCH_INPUT_WALK_H
#define SUDOLAB_BENCH_INPUT_WALK_H

#include <stdbool.h>
#include <stdio.h>

#include "common/corpus.h"

/* How to read the inputs. */
struct input_options {
    const struct corpus_options *corpus;
    const struct grid *empty; /* --empty grids, walked first */
    int nempty;
    FILE *err; /* where the diagnostics go (stderr in the CLI) */
    unsigned long head; /* 0: every entry; else only the first `head` of each file */
};

/* One input entry as the walk hands it out. */
struct input_entry {
    const char *source; /* file name, "<stdin>", "<arg>" or "<empty>" */
    unsigned long line;
    unsigned long index; /* 1-based over all inputs, bad entries included */
    bool ok; /* false: unparsable; item->why says why */
    const struct corpus_item *item;
};

/* Called for each entry; return false to stop the walk. */
typedef bool input_entry_fn(void *ctx, const struct input_entry *e);

/* The order of a directory's files: natural order, where runs of digits
 * compare by their value (inst9x9_5_17.txt before inst9x9_10_0.txt, 9x9
 * before 16x16), everything else byte by byte; names equal that way (a01,
 * a1) by their bytes. Returns <0, 0 or >0 as strcmp does. */
int input_name_order(const char *a, const char *b);

/* Walks the inputs: argc arguments in argv. Writes `file:line: reason` to
 * in->err for bad entries (at most 20 per input, then a count) and for
 * unreadable files. Returns the number of problems reported. */
unsigned long input_walk(
    const struct input_options *in, int argc, char **argv, input_entry_fn *fn, void *ctx);

#endif /* SUDOLAB_BENCH_INPUT_WALK_H */
