/* Reading puzzles from corpus files.
 *
 * Two formats, detected per puzzle unless one is forced:
 *  - lines: one puzzle per line, N*N symbols row-major ('.' or '0' blank, 1-9
 *    then A..), anything after the first whitespace, ',', ';' or ':' is kept
 *    as `extra` and otherwise ignored; '#' lines and blank lines are skipped.
 *    tdoku's data files read unchanged. A line of n*n*n symbols (729 for
 *    9x9; 216, 512, 4096) is a pencil-mark puzzle, each cell's candidates
 *    (grid_parse_candidates in common/grid.h); the format sukaku forces that
 *    reading (and so takes 4x4's 64 too).
 *  - grids (seed 002's date.txt): N rows of N whitespace-separated integers,
 *    0 (or '.') blank; grids are separated by blank lines.
 *  - lewis (the instances of Rhydian Lewis's generator, as in the repository
 *    huwlloyd-mmu/sudoku_acs): the order n (box side, 2..7), a second
 *    integer, then the n^4 cells row-major, -1 blank and 1..n^2 a value, all
 *    whitespace-separated over any number of lines. The second integer is
 *    read and ignored: sudoku_acs's own reader drops it, and it is 1 in every
 *    one of their files. Told from the others by a line of one integer (the
 *    order) followed by a line that starts with one, or a line of exactly two
 *    integers. A '#' comment line right before an instance names it
 *    (item->name, its first word); an instance without one is named after
 *    its file. Several instances may follow one another in a file.
 * A file may be compressed with xz or gzip, told from its first bytes, not its
 * name (common/input_stream.h); it is decompressed as it is read. The text is
 * UTF-8 (a byte-order mark at its start is skipped); a line ends at LF, CRLF
 * or a lone CR, in any mix. UTF-16 text is refused as a whole (CORPUS_FAIL at
 * line 0), a line holding NUL or other control bytes as binary data, with the
 * byte's offset in the text.
 * A bad entry does not stop the reader: it comes back as CORPUS_BAD with its
 * line and the reason, and the next call goes on after it. Memory stays
 * bounded whatever the input (a 1 GB line is skipped, not stored: the entry is
 * "line longer than 4096 bytes"). */
#ifndef SUDOLAB_COMMON_CORPUS_H
#define SUDOLAB_COMMON_CORPUS_H

#include <stdio.h>

#include "common/grid.h"

enum corpus_format {
    CORPUS_AUTO = 0,
    CORPUS_LINES,
    CORPUS_GRIDS,
    CORPUS_LEWIS,
    CORPUS_SUKAKU, /* lines of candidates only (grid_parse_candidates) */
};

struct corpus_options {
    struct grid_shape shape; /* box_rows 0 = size from each puzzle */
    enum corpus_format format;
    /* A '#' comment before the first entry that says "variant=diagonal" (or
     * "variant=standard") sets the variant of the file's puzzles, as sudolab
     * generate writes it: a diagonal corpus cannot be told from a standard
     * one by its lines. Callers clear this when the user named a variant. */
    bool variant_from_header;
};

enum corpus_status {
    CORPUS_PUZZLE, /* item->puzzle is set */
    CORPUS_BAD, /* item->why says what is wrong at item->line */
    CORPUS_END, /* no more entries */
    CORPUS_FAIL, /* the input failed at item->line: a read error, or a
                  * truncated or corrupt archive (item->why says which);
                  * the entries before it were returned, none follow;
                  * item->line 0: the whole input is refused (UTF-16) */
};

enum { CORPUS_EXTRA_MAX = 256, CORPUS_WHY_MAX = 200, CORPUS_NAME_MAX = 128 };

struct corpus_item {
    struct grid puzzle;
    unsigned long line; /* first line of the entry, 1-based */
    unsigned long index; /* 1-based ordinal of the entry, bad ones included */
    char extra[CORPUS_EXTRA_MAX]; /* trailing fields of a line (truncated) */
    /* The instance's own name, for formats whose entries have one (lewis:
     * its comment, or its file's base name); "" for the others. */
    char name[CORPUS_NAME_MAX];
    char why[CORPUS_WHY_MAX];
};

struct corpus;

/* Opens a file ("-" = standard input). Returns NULL and a reason on failure. */
struct corpus *corpus_open(
    const char *path, const struct corpus_options *opts, char *why, size_t whylen);
/* Reads from an open stream; `name` is used in messages. The stream is not
 * closed by corpus_close when owned is false. */
struct corpus *corpus_open_stream(
    FILE *f, const char *name, int owned, const struct corpus_options *opts);
enum corpus_status corpus_next(struct corpus *c, struct corpus_item *item);
const char *corpus_name(const struct corpus *c);
/* Lines read so far. */
unsigned long corpus_lines(const struct corpus *c);
void corpus_close(struct corpus *c);

/* Writes g in Lewis's format (order, the second integer 1, then n rows of
 * tab-separated values, -1 blank), after a "# name" comment line when name
 * is not empty, so that corpus_next reads it back with that name. Returns
 * 0, or -1 when g's boxes are not square (the format has only an order). */
int corpus_write_lewis(FILE *out, const struct grid *g, const char *name);

#endif /* SUDOLAB_COMMON_CORPUS_H */
