/* runs.csv, the bench driver's tidy output: one row per (corpus, puzzle,
 * solver, repeat), columns
 *   corpus,index,solver,repeat,status,solutions,<counters>,time_ns
 * with the counters in SOLVER_COUNTERS order, so a new counter becomes a new
 * column without touching this file. A counter the back end does not report
 * is an empty cell; an untimed row (an entry that did not parse or whose
 * clues break a rule) has empty counters and time. A run whose puzzles carry
 * Sudoku Explainer ratings (bench/bench_se.h) has three more columns at the
 * end, se_er,se_ep,se_ed ("7.1", empty when not known); other runs' files
 * are as they were before those columns existed. A run with --seeds
 * (incomplete back ends run with several seeds) ends its rows with a seed
 * column: the seed of an incomplete back end's run, empty for the others.
 * A run over a corpus whose entries have names (Lewis's instances, docs/
 * formats.md) ends its rows with a name column: the entry's name, empty for
 * an entry without one. The optional columns come in that order, each only
 * when needed (se_er,se_ep,se_ed, then seed, then name), so a file without
 * one of them has the others at the positions they always had.
 *
 * Rows are formatted into one buffer so the caller can write each with a
 * single write(): a killed run leaves whole rows. The reader finds columns by
 * header name, so it also reads files with extra columns. */
#ifndef SUDOLAB_BENCH_BENCH_CSV_H
#define SUDOLAB_BENCH_BENCH_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/corpus.h"
#include "solvers/solver.h"

enum {
    BENCH_CORPUS_NAME_MAX = 256,
    BENCH_SOLVER_NAME_MAX = 64,
    BENCH_CSV_LINE_MAX = 1024,
};

struct bench_row {
    char corpus[BENCH_CORPUS_NAME_MAX];
    char solver[BENCH_SOLVER_NAME_MAX];
    unsigned long index; /* the entry's 1-based ordinal in its corpus */
    unsigned repeat; /* 1-based */
    int status; /* enum solve_status */
    uint64_t solutions;
    unsigned known; /* SOLVER_HAS() bits of the counters present */
    struct solver_counters counters;
    bool timed;
    uint64_t time_ns;
    bool se_columns; /* the row has the se_er,se_ep,se_ed columns */
    uint8_t se[3]; /* ER, EP, ED in tenths (72 = 7.2); 0: an empty cell */
    bool seed_column; /* the row ends with the seed column (written only) */
    bool seeded; /* the run had a seed (an incomplete back end's): else empty */
    uint64_t seed;
    bool name_column; /* the row ends with the name column */
    char name[CORPUS_NAME_MAX]; /* the entry's name; "" when it has none */
};

/* Writes the header line (with '\n') into buf; returns its length, or 0 when
 * len is too small. */
size_t bench_csv_header(char *buf, size_t len);
/* The same, with the SE rating columns at the end when se_columns is true. */
size_t bench_csv_header_with(char *buf, size_t len, bool se_columns);
/* The same, then the seed column when seed_column is true (bench --seeds),
 * then the name column when name_column is true (entries with names). */
size_t bench_csv_header_seeded(
    char *buf, size_t len, bool se_columns, bool seed_column, bool name_column);

/* Formats row as one CSV line ending in '\n' (the corpus and entry names
 * quoted when they need it). Returns its length, or 0 when it does not fit in len. */
size_t bench_csv_format_row(const struct bench_row *row, char *buf, size_t len);

/* Column positions found by name; -1 = absent. */
struct bench_csv_columns {
    int corpus, index, solver, repeat, status, solutions, time_ns;
    int counter[SOLVER_COUNTER_COUNT];
    int se[3]; /* se_er, se_ep, se_ed */
    int name;
    int ncols;
};

/* Reads a header line. Fails (-1, why) when a required column is missing:
 * corpus, index, solver, status, solutions, time_ns. repeat and the
 * counters may be absent (then 1 and unknown), and so may the SE ratings
 * (then every row read has se_columns false), and so may the name (then
 * name_column is false). */
int bench_csv_parse_header(
    const char *line, struct bench_csv_columns *cols, char *why, size_t whylen);

/* Reads one data line (with or without its '\n'). Returns 0, or -1 and why. */
int bench_csv_parse_row(const char *line, const struct bench_csv_columns *cols,
    struct bench_row *row, char *why, size_t whylen);

/* Splits a CSV line in place into at most max fields (RFC 4180 quoting: a
 * quoted field may hold commas and doubled quotes). Returns the field count,
 * or -1 when the line has more than max fields or an unterminated quote. */
int bench_csv_split(char *line, char **fields, int max);
/* Writes text as one CSV field, quoted (quotes doubled) when it holds a
 * comma, a quote or a line break: corpus and CPU names are free text. */
void bench_csv_put_text(FILE *out, const char *text);

/* Called for each complete data row of a file; return false to stop. */
typedef bool bench_csv_row_fn(void *ctx, const struct bench_row *row);

/* Reads a runs.csv: header, then rows. A last line without '\n' is a torn
 * row from a killed run: it is not delivered, and *valid_bytes (when not
 * NULL) is set to the length of the file without it, so the caller can cut it
 * off before appending. Returns the number of rows delivered, or -1 with why
 * (unreadable file, bad header, bad row). */
long bench_csv_read(FILE *f, bench_csv_row_fn *fn, void *ctx, long *valid_bytes,
    char *why, size_t whylen);

#endif /* SUDOLAB_BENCH_BENCH_CSV_H */
