/* libFuzzer target: the corpus reader and the grid parser.
 *
 * The first byte picks the reader's options (format, a forced box shape,
 * the variant, whether a header comment may set it; its top bit forces
 * Lewis's format, or with its two low bits set too the candidate format);
 * the rest is a corpus file. Every entry must come back as a puzzle or a bad
 * entry with a reason and a line, a puzzle's line form must parse back to the
 * same grid (a pencil-mark puzzle's candidate form to the same candidates),
 * one with square boxes must read back the same from Lewis's format, and memory and time
 * stay bounded (the sanitizers and libFuzzer's limits watch those). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/corpus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What corpus_write_lewis writes reads back as the same grid and name. */
static void lewis_round_trip(const struct grid *g, const char *name)
{
    static char text[GRID_MAX_CELLS * 4 + CORPUS_NAME_MAX + 64];
    FILE *f = fmemopen(text, sizeof(text), "w");
    if (!f)
        return;
    /* a name is one word: what the comment gives back */
    if (corpus_write_lewis(f, g, strpbrk(name, " \t") ? "" : name) != 0)
        abort();
    const long len = ftell(f);
    fclose(f);
    FILE *in = fmemopen(text, (size_t) len, "rb");
    if (!in)
        return;
    const struct corpus_options opts = { .shape = { 0, 0, g->variant } };
    struct corpus *c = corpus_open_stream(in, "round-trip", 1, &opts);
    if (!c) {
        fclose(in);
        return;
    }
    static struct corpus_item back;
    if (corpus_next(c, &back) != CORPUS_PUZZLE || back.puzzle.ncells != g->ncells
        || memcmp(back.puzzle.cell, g->cell, g->ncells) != 0
        || (name[0] && !strpbrk(name, " \t") && strcmp(back.name, name) != 0))
        abort();
    corpus_close(c);
}

/* A pencil-mark puzzle's candidate form parses back to the same candidates. */
static void candidates_round_trip(const struct grid *g)
{
    static char text[GRID_MAX_CAND_N * GRID_MAX_CAND_N * GRID_MAX_CAND_N + 1];
    char why[200];
    grid_format_candidates(g, text);
    static struct grid back;
    const struct grid_shape shape = { g->box_rows, g->box_cols, g->variant };
    if (grid_parse_candidates(&back, text, strlen(text), &shape, why, sizeof(why)) != 0
        || !back.has_candidates
        || memcmp(back.candidates, g->candidates, g->ncells * sizeof(g->candidates[0]))
            != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const uint8_t boxes[][2] = { { 0, 0 }, { 2, 2 }, { 2, 3 }, { 3, 3 }, { 3, 2 },
        { 4, 4 }, { 1, 5 }, { 5, 5 } };
    struct corpus_options opts = { 0 };
    if ((data[0] & 0x83) == 0x83)
        opts.format = CORPUS_SUKAKU;
    else
        opts.format = data[0] & 0x80 ? CORPUS_LEWIS : (enum corpus_format)(data[0] % 3);
    opts.shape.box_rows = boxes[(data[0] >> 2) % 8][0];
    opts.shape.box_cols = boxes[(data[0] >> 2) % 8][1];
    opts.shape.variant = (data[0] >> 5) & 1;
    opts.variant_from_header = (data[0] >> 6) & 1;
    FILE *f = fmemopen((void *) (data + 1), size - 1 ? size - 1 : 1, "rb");
    if (!f)
        return 0;
    if (size == 1)
        fgetc(f); /* fmemopen wants a non-empty buffer: read it away */
    struct corpus *c = corpus_open_stream(f, "fuzz", 1, &opts);
    if (!c) {
        fclose(f);
        return 0;
    }
    static struct corpus_item item;
    unsigned long last_line = 0;
    enum corpus_status st;
    while ((st = corpus_next(c, &item)) != CORPUS_END && st != CORPUS_FAIL) {
        if (item.line < last_line || item.line == 0)
            abort();
        last_line = item.line;
        if (st == CORPUS_BAD) {
            if (item.why[0] == '\0')
                abort();
            continue;
        }
        char line[GRID_MAX_CELLS + 1], why[200];
        grid_format_line(&item.puzzle, line);
        struct grid again;
        const struct grid_shape shape
            = { item.puzzle.box_rows, item.puzzle.box_cols, item.puzzle.variant };
        if (grid_parse_token(&again, line, strlen(line), &shape, why, sizeof(why)) != 0
            || memcmp(again.cell, item.puzzle.cell, item.puzzle.ncells) != 0)
            abort();
        if (item.puzzle.has_candidates)
            candidates_round_trip(&item.puzzle);
        grid_find_conflict(&item.puzzle, why, sizeof(why));
        if (item.puzzle.box_rows == item.puzzle.box_cols && item.puzzle.box_rows >= 2)
            lewis_round_trip(&item.puzzle, item.name);
    }
    corpus_close(c);
    return 0;
}
