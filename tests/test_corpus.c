/* The corpus reader: every format, and every class of bad input goes on to
 * the next entry with the right line and reason; xz and gzip input, whole,
 * truncated and corrupt; every encoding people have (BOM, CR, CRLF, UTF-16,
 * binary, a line longer than memory should hold); Lewis's instance format,
 * its writer and its bad cases; the shipped public corpora and Lewis's
 * instances (datasets/lewis) read whole. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lzma.h>

#include "common/corpus.h"
#include "common/input_stream.h"
#include "config.h"
#include "tests/test_util.h"

#if HAVE_ZLIB
#include <zlib.h>
#endif

struct entry {
    enum corpus_status status;
    unsigned long line;
    int n;
    int variant;
    char text[640];
    char extra[CORPUS_EXTRA_MAX];
    char name[CORPUS_NAME_MAX];
    char why[200];
};

/* Reads all entries of `text` into out; returns how many. */
static int read_all(const char *text, size_t len, const struct corpus_options *opts,
    struct entry *out, int max)
{
    FILE *f = fmemopen((void *) text, len, "rb");
    assert_non_null(f);
    struct corpus *c = corpus_open_stream(f, "mem", 1, opts);
    assert_non_null(c);
    static struct corpus_item item;
    int count = 0;
    enum corpus_status st;
    while ((st = corpus_next(c, &item)) != CORPUS_END && st != CORPUS_FAIL) {
        assert_true(count < max);
        out[count].status = st;
        out[count].line = item.line;
        out[count].n = st == CORPUS_PUZZLE ? item.puzzle.n : 0;
        out[count].variant = st == CORPUS_PUZZLE ? item.puzzle.variant : -1;
        if (st == CORPUS_PUZZLE)
            grid_format_line(&item.puzzle, out[count].text);
        snprintf(out[count].extra, sizeof(out[count].extra), "%s", item.extra);
        snprintf(out[count].name, sizeof(out[count].name), "%s", item.name);
        snprintf(out[count].why, sizeof(out[count].why), "%s", item.why);
        count++;
    }
    corpus_close(c);
    return count;
}

#define READ(text, opts, out) read_all(text, strlen(text), opts, out, 16)

static void lines_with_comments_crlf_and_fields(void **state)
{
    (void) state;
    char text[1024];
    snprintf(text, sizeof(text),
        "# a header\r\n"
        "\n"
        "%s\r\n"
        "   \t\n"
        "%s 1 solution\n"
        "%s,extra\n"
        "%s;x\n"
        "%s:2+\n"
        "1...2...3...4...\n",
        test_royle, test_royle, test_royle, test_royle, test_royle);
    struct entry e[16];
    const int n = READ(text, NULL, e);
    assert_int_equal(n, 6);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(e[i].status, CORPUS_PUZZLE);
        assert_string_equal(e[i].text, test_royle);
    }
    assert_int_equal(e[0].line, 3);
    assert_int_equal(e[1].line, 5);
    assert_string_equal(e[1].extra, "1 solution");
    assert_string_equal(e[2].extra, "extra");
    assert_string_equal(e[4].extra, "2+");
    assert_int_equal(e[5].n, 4); /* mixed sizes in one file */
}

/* sudolab generate's header names the variant; only comments before the
 * first entry count, and only when the caller lets the header decide. */
static void header_comment_sets_the_variant(void **state)
{
    (void) state;
    const struct corpus_options from_header = { .variant_from_header = true };
    struct entry e[16];
    assert_int_equal(READ("# sudolab generate size=2x2 variant=diagonal seed=1\n"
                          "1...............\n"
                          "# variant=standard: too late, entries came first\n"
                          "..2.............\n",
                         &from_header, e),
        2);
    assert_int_equal(e[0].variant, GRID_DIAGONAL);
    assert_int_equal(e[1].variant, GRID_DIAGONAL);
    assert_int_equal(READ("#variant=diagonal\n1...............\n", &from_header, e), 1);
    assert_int_equal(e[0].variant, GRID_DIAGONAL);
    /* a word that only ends in variant=, and a value that only starts with diagonal */
    assert_int_equal(READ("# covariant=diagonal variant=diagonals\n1...............\n",
                         &from_header, e),
        1);
    assert_int_equal(e[0].variant, GRID_STANDARD);
    /* the caller's variant wins (sudolab --variant) */
    const struct corpus_options forced = { .shape = { 0, 0, GRID_STANDARD } };
    assert_int_equal(READ("# variant=diagonal\n1...............\n", &forced, e), 1);
    assert_int_equal(e[0].variant, GRID_STANDARD);
    /* while the header decides, it can also say standard */
    const struct corpus_options diagonal_default
        = { .shape = { 0, 0, GRID_DIAGONAL }, .variant_from_header = true };
    assert_int_equal(
        READ("# variant=standard\n1...............\n", &diagonal_default, e), 1);
    assert_int_equal(e[0].variant, GRID_STANDARD);
}

static void zeros_are_blanks(void **state)
{
    (void) state;
    struct entry e[16];
    assert_int_equal(READ("1000020000300004\n", NULL, e), 1);
    assert_string_equal(e[0].text, "1....2....3....4");
}

static void whitespace_grids_like_seed_002(void **state)
{
    (void) state;
    const char *text = "0 0 0 0 0 0 0 0 0\n"
                       "0 0 0 0 0 3 0 8 5\n"
                       "0 0 1 0 2 0 0 0 0\n"
                       "0 0 0 5 0 7 0 0 0\n"
                       "0 0 4 0 0 0 1 0 0\n"
                       "0 9 0 0 0 0 0 0 0\n"
                       "5 0 0 0 0 0 0 7 3\n"
                       "0 0 2 0 1 0 0 0 0\n"
                       "0 0 0 0 4 0 0 0 9\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n";
    struct entry e[16];
    assert_int_equal(READ(text, NULL, e), 2);
    assert_int_equal(e[0].status, CORPUS_PUZZLE);
    assert_string_equal(e[0].text,
        "........."
        ".....3.85"
        "..1.2...."
        "...5.7..."
        "..4...1.."
        ".9......."
        "5......73"
        "..2.1...."
        "....4...9");
    assert_int_equal(e[0].line, 1);
    assert_string_equal(e[1].text, "1....2....3....4");
    assert_int_equal(e[1].line, 11);
    /* 16x16 with two-digit values */
    char big[2048] = "";
    for (int r = 0; r < 16; r++) {
        for (int c = 0; c < 16; c++) {
            char v[8];
            snprintf(v, sizeof(v), "%s%d", c ? " " : "", r == c ? 16 : 0);
            strcat(big, v);
        }
        strcat(big, "\n");
    }
    assert_int_equal(READ(big, NULL, e), 1);
    assert_int_equal(e[0].n, 16);
    assert_int_equal(e[0].text[0], 'G');
}

static void grid_with_a_missing_row(void **state)
{
    (void) state;
    const char *text = "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n";
    struct entry e[16];
    assert_int_equal(READ(text, NULL, e), 2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_int_equal(e[0].line, 1);
    assert_string_equal(e[0].why, "grid has 3 rows, 4 expected");
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].line, 5);
}

static void grid_rows_of_wrong_width_or_value(void **state)
{
    (void) state;
    const char *text = "1 0 0 0\n"
                       "0 2 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 7 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n"
                       "\n"
                       "1 0 0 0\n"
                       "0 2 0 0\n"
                       "0 0 3 0\n"
                       "0 0 0 4\n";
    struct entry e[16];
    const int n = READ(text, NULL, e);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_non_null(strstr(e[0].why, "line 2 has 3 values, 4 expected"));
    assert_int_equal(e[1].status, CORPUS_BAD);
    assert_non_null(strstr(e[1].why, "value 7"));
    assert_int_equal(e[n - 1].status, CORPUS_PUZZLE);
    assert_int_equal(e[n - 1].line, 11);
}

static void bad_lines_do_not_stop_the_reader(void **state)
{
    (void) state;
    char text[2048];
    snprintf(text, sizeof(text),
        "%.80s\n" /* one symbol short */
        "%sX\n" /* one too many: 82 symbols */
        "%.40sZ%s\n" /* a symbol that is no 9x9 value */
        "12345\n" /* no grid size */
        "%s\n",
        test_royle, test_royle, test_royle, test_royle + 41, test_royle);
    struct entry e[16];
    const int n = READ(text, NULL, e);
    assert_int_equal(n, 5);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_string_equal(e[0].why,
        "80 symbols is no grid size (clues: 16, 36, 64, 81, 144, 256 or 625; "
        "candidates: 216, 512, 729 or 4096)");
    assert_int_equal(e[1].status, CORPUS_BAD);
    assert_int_equal(e[2].status, CORPUS_BAD);
    assert_int_equal(e[2].line, 3);
    assert_non_null(strstr(e[2].why, "'Z' at column 41"));
    assert_int_equal(e[3].status, CORPUS_BAD);
    assert_int_equal(e[4].status, CORPUS_PUZZLE);
    assert_int_equal(e[4].line, 5);
}

/* Found by fuzz_corpus: a ';' between grid values once made the row
 * splitter loop for ever. */
static void odd_separators_in_grid_rows(void **state)
{
    (void) state;
    struct entry e[16];
    const int n
        = READ("1 0 0 0\n0; 0 .. 0\n0 0 3 0\n0 0 0 4\n\n1....2....3....4\n", NULL, e);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_int_equal(e[n - 1].status, CORPUS_PUZZLE);
    assert_int_equal(e[n - 1].line, 6);
}

static void forced_size_and_format(void **state)
{
    (void) state;
    const struct corpus_options six = { .shape = { 3, 2, 0 } };
    struct entry e[16];
    assert_int_equal(READ("123456..................................\n"
                          "12..................................\n",
                         &six, e),
        2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_non_null(strstr(e[0].why, "36 symbols expected"));
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].n, 6);
    /* lines forced: a grid row is not a puzzle */
    const struct corpus_options lines = { .format = CORPUS_LINES };
    assert_int_equal(READ("1 0 0 0\n", &lines, e), 1);
    assert_int_equal(e[0].status, CORPUS_BAD);
}

static void empty_and_comment_only_inputs(void **state)
{
    (void) state;
    struct entry e[16];
    assert_int_equal(read_all("", 0, NULL, e, 16), 0);
    assert_int_equal(READ("# nothing\n\n# here\n", NULL, e), 0);
}

static void binary_data(void **state)
{
    (void) state;
    char text[200];
    memset(text, 0, sizeof(text));
    memcpy(text + 100, "\n\xff\xfe\x01\x02\n", 6);
    memcpy(text + 106, "1...2...3...4...\n", 17);
    struct entry e[16];
    const int n = read_all(text, 123, NULL, e, 16);
    assert_int_equal(n, 3);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_string_equal(e[0].why, "binary data (NUL byte at offset 0)");
    assert_int_equal(e[1].status, CORPUS_BAD);
    assert_string_equal(e[1].why, "binary data (control byte 0x01 at offset 103)");
    assert_int_equal(e[2].status, CORPUS_PUZZLE);
    assert_int_equal(e[2].line, 3);
}

static void a_two_megabyte_line(void **state)
{
    (void) state;
    const size_t big = 2u << 20;
    char *text = malloc(big + 64);
    assert_non_null(text);
    memset(text, '.', big);
    text[big] = '\n';
    memcpy(text + big + 1, "1...2...3...4...\n", 17);
    struct entry e[16];
    const int n = read_all(text, big + 18, NULL, e, 16);
    free(text);
    assert_int_equal(n, 2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_string_equal(e[0].why, "line longer than 4096 bytes (it has 2097152)");
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].line, 2);
}

static void files_that_cannot_be_read(void **state)
{
    (void) state;
    char why[200];
    assert_null(corpus_open("/nonexistent/sudolab/corpus.txt", NULL, why, sizeof(why)));
    assert_non_null(strstr(why, "No such file"));
    if (geteuid() != 0) { /* root reads anything */
        char path[] = "/tmp/sudolab-unreadable-XXXXXX";
        const int fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        chmod(path, 0);
        assert_null(corpus_open(path, NULL, why, sizeof(why)));
        assert_non_null(strstr(why, "Permission denied"));
        unlink(path);
    }
}

/* --- compressed input --- */

/* Lines of 81 cells, blanks and digits drawn from a fixed LCG: text that
 * compresses to well under its size but not to nothing, so an archive cut in
 * half still holds half the text. */
static char *random_lines(int count, size_t *len)
{
    char *text = malloc((size_t) count * 82 + 1);
    assert_non_null(text);
    uint64_t x = 0x9E3779B97F4A7C15u;
    size_t at = 0;
    for (int k = 0; k < count; k++) {
        for (int i = 0; i < 81; i++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            const unsigned v = (unsigned) (x >> 33) % 27;
            text[at++] = v < 9 ? (char) ('1' + v) : '.';
        }
        text[at++] = '\n';
    }
    text[at] = '\0';
    *len = at;
    return text;
}

static unsigned char *xz_compress(const char *text, size_t len, size_t *out_len)
{
    const size_t cap = lzma_stream_buffer_bound(len);
    unsigned char *out = malloc(cap);
    assert_non_null(out);
    *out_len = 0;
    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL,
                         (const uint8_t *) text, len, out, out_len, cap),
        LZMA_OK);
    return out;
}

#if HAVE_ZLIB
static unsigned char *gzip_compress(const char *text, size_t len, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    assert_int_equal(
        deflateInit2(&z, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
    const size_t cap = deflateBound(&z, (uLong) len);
    unsigned char *out = malloc(cap);
    assert_non_null(out);
    z.next_in = (Bytef *) text;
    z.avail_in = (uInt) len;
    z.next_out = out;
    z.avail_out = (uInt) cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}
#endif

/* What a whole read of some bytes gave: the puzzles in order (as lines), bad
 * entries, and how it ended. */
struct outcome {
    int puzzles, bad;
    char (*lines)[82];
    enum corpus_status last;
    unsigned long last_line;
    char why[CORPUS_WHY_MAX];
    enum input_format format;
};

static void read_stream(FILE *f, struct outcome *o, int max)
{
    memset(o, 0, sizeof(*o));
    o->lines = calloc((size_t) max, sizeof(*o->lines));
    assert_non_null(o->lines);
    struct corpus *c = corpus_open_stream(f, "mem", 1, NULL);
    assert_non_null(c);
    static struct corpus_item item;
    enum corpus_status st;
    while ((st = corpus_next(c, &item)) == CORPUS_PUZZLE || st == CORPUS_BAD) {
        if (st == CORPUS_BAD) {
            o->bad++;
            continue;
        }
        assert_true(o->puzzles < max);
        assert_int_equal(item.puzzle.n, 9);
        grid_format_line(&item.puzzle, o->lines[o->puzzles++]);
    }
    o->last = st;
    o->last_line = item.line;
    snprintf(o->why, sizeof(o->why), "%s", item.why);
    corpus_close(c);
}

static void read_bytes(const void *data, size_t len, struct outcome *o, int max)
{
    FILE *f = fmemopen((void *) data, len, "rb");
    assert_non_null(f);
    read_stream(f, o, max);
}

/* The first `count` puzzles read are the first lines of `text`. */
static void assert_prefix(const struct outcome *o, const char *text, int count)
{
    assert_true(o->puzzles >= count);
    for (int k = 0; k < count; k++)
        assert_memory_equal(o->lines[k], text + (size_t) k * 82, 81);
}

enum { LINES = 4000 }; /* 328 KB of text: several of the reader's buffers */

static void xz_reads_as_its_text(void **state)
{
    (void) state;
    size_t len, zlen;
    char *text = random_lines(LINES, &len);
    unsigned char *xz = xz_compress(text, len, &zlen);
    assert_true(zlen < len / 2);
    struct outcome o;
    read_bytes(xz, zlen, &o, LINES);
    assert_int_equal(o.last, CORPUS_END);
    assert_int_equal(o.bad, 0);
    assert_int_equal(o.puzzles, LINES);
    assert_prefix(&o, text, LINES);
    free(o.lines);
    /* two streams one after the other (xz's own concatenation) read as one */
    unsigned char *twice = malloc(2 * zlen);
    assert_non_null(twice);
    memcpy(twice, xz, zlen);
    memcpy(twice + zlen, xz, zlen);
    read_bytes(twice, 2 * zlen, &o, 2 * LINES);
    assert_int_equal(o.last, CORPUS_END);
    assert_int_equal(o.puzzles, 2 * LINES);
    assert_memory_equal(o.lines[LINES], text, 81);
    free(o.lines);
    free(twice);
    free(xz);
    free(text);
}

/* Cut short: every entry before the cut comes back, then CORPUS_FAIL at the
 * line being read, saying the archive is truncated. */
static void xz_truncated(void **state)
{
    (void) state;
    size_t len, zlen;
    char *text = random_lines(LINES, &len);
    unsigned char *xz = xz_compress(text, len, &zlen);
    struct outcome o;
    read_bytes(xz, zlen / 2, &o, LINES);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_string_equal(o.why, "truncated xz archive: the compressed data ends early");
    assert_int_equal(o.bad, 0);
    assert_true(o.puzzles > LINES / 4 && o.puzzles < LINES);
    assert_prefix(&o, text, o.puzzles);
    assert_int_equal(o.last_line, (unsigned long) o.puzzles + 1);
    free(o.lines);
    /* cut inside the header: no entry, the same reason */
    read_bytes(xz, 3, &o, LINES);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_int_equal(o.puzzles, 0);
    assert_non_null(strstr(o.why, "truncated xz archive"));
    assert_int_equal(o.last_line, 1);
    free(o.lines);
    free(xz);
    free(text);
}

/* One byte changed in the middle: the entries decoded before it are the
 * text's, and the read ends with CORPUS_FAIL naming a corrupt archive. */
static void xz_corrupt(void **state)
{
    (void) state;
    size_t len, zlen;
    char *text = random_lines(LINES, &len);
    unsigned char *xz = xz_compress(text, len, &zlen);
    xz[zlen / 2] ^= 0x55;
    struct outcome o;
    read_bytes(xz, zlen, &o, 2 * LINES);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_non_null(strstr(o.why, "corrupt xz archive"));
    assert_true(o.puzzles > LINES / 4);
    assert_prefix(&o, text, LINES / 4);
    free(o.lines);
    /* the stream's header damaged: nothing is read as text */
    xz[zlen / 2] ^= 0x55;
    xz[8] ^= 0x01; /* stream flags' CRC32 no longer matches */
    read_bytes(xz, zlen, &o, LINES);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_int_equal(o.puzzles, 0);
    assert_non_null(strstr(o.why, "xz archive"));
    free(o.lines);
    free(xz);
    free(text);
}

/* The content decides, not the name: compressed bytes in x.txt are read as
 * xz, plain text in x.xz as text. */
static void detected_by_content_not_name(void **state)
{
    (void) state;
    size_t len, zlen;
    char *text = random_lines(50, &len);
    unsigned char *xz = xz_compress(text, len, &zlen);
    char dir[] = "/tmp/sudolab-corpus-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char txt[64], fake[64], why[200];
    snprintf(txt, sizeof(txt), "%s/archive.txt", dir);
    snprintf(fake, sizeof(fake), "%s/plain.xz", dir);
    FILE *f = fopen(txt, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(xz, 1, zlen, f), zlen);
    fclose(f);
    f = fopen(fake, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
    const char *paths[] = { txt, fake };
    for (int i = 0; i < 2; i++) {
        struct corpus *c = corpus_open(paths[i], NULL, why, sizeof(why));
        assert_non_null(c);
        static struct corpus_item item;
        int n = 0;
        enum corpus_status st;
        while ((st = corpus_next(c, &item)) == CORPUS_PUZZLE) {
            char line[82];
            grid_format_line(&item.puzzle, line);
            assert_memory_equal(line, text + (size_t) n * 82, 81);
            n++;
        }
        assert_int_equal(st, CORPUS_END);
        assert_int_equal(n, 50);
        corpus_close(c);
        unlink(paths[i]);
    }
    rmdir(dir);
    free(xz);
    free(text);
}

/* Formats the stream names, and zstd refused with a reason. */
static void formats_and_zstd(void **state)
{
    (void) state;
    static const unsigned char zstd[]
        = { 0x28, 0xB5, 0x2F, 0xFD, 0x04, 0x00, 0x01, 0x00 };
    struct outcome o;
    read_bytes(zstd, sizeof(zstd), &o, 4);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_non_null(strstr(o.why, "zstd-compressed input"));
    free(o.lines);
    static const unsigned char xz_start[] = { 0xFD, '7', 'z', 'X', 'Z', 0x00 };
    static const char plain[] = "1....2....3....4\n";
    const struct {
        const void *data;
        size_t len;
        enum input_format format;
        const char *name;
    } cases[] = {
        { plain, sizeof(plain) - 1, INPUT_PLAIN, "plain" },
        { xz_start, sizeof(xz_start), INPUT_XZ, "xz" },
        { zstd, sizeof(zstd), INPUT_ZSTD, "zstd" }, { "\x1f\x8b", 2, INPUT_GZIP, "gzip" },
        { "\xfd", 1, INPUT_PLAIN, "plain" }, /* one byte is no magic */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        FILE *f = fmemopen((void *) cases[i].data, cases[i].len, "rb");
        assert_non_null(f);
        struct input_stream *s = input_stream_new(f);
        assert_non_null(s);
        assert_int_equal(input_stream_format(s), INPUT_PLAIN);
        input_stream_getc(s);
        assert_int_equal(input_stream_format(s), cases[i].format);
        assert_string_equal(input_format_name(input_stream_format(s)), cases[i].name);
        input_stream_free(s);
        fclose(f);
    }
}

#if HAVE_ZLIB
static void gzip_valid_truncated_corrupt(void **state)
{
    (void) state;
    size_t len, zlen;
    char *text = random_lines(LINES, &len);
    unsigned char *gz = gzip_compress(text, len, &zlen);
    struct outcome o;
    read_bytes(gz, zlen, &o, LINES);
    assert_int_equal(o.last, CORPUS_END);
    assert_int_equal(o.puzzles, LINES);
    assert_prefix(&o, text, LINES);
    free(o.lines);
    /* members one after the other (cat a.gz b.gz) read as one text */
    unsigned char *twice = malloc(2 * zlen);
    assert_non_null(twice);
    memcpy(twice, gz, zlen);
    memcpy(twice + zlen, gz, zlen);
    read_bytes(twice, 2 * zlen, &o, 2 * LINES);
    assert_int_equal(o.last, CORPUS_END);
    assert_int_equal(o.puzzles, 2 * LINES);
    free(o.lines);
    free(twice);
    read_bytes(gz, zlen / 2, &o, LINES);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_string_equal(o.why, "truncated gzip archive: the compressed data ends early");
    assert_true(o.puzzles > LINES / 4 && o.puzzles < LINES);
    assert_prefix(&o, text, o.puzzles);
    assert_int_equal(o.last_line, (unsigned long) o.puzzles + 1);
    free(o.lines);
    gz[zlen - 6] ^= 0x01; /* the trailer's CRC-32 */
    read_bytes(gz, zlen, &o, LINES);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_string_equal(o.why, "corrupt gzip archive: incorrect data check");
    assert_int_equal(o.puzzles, LINES); /* all the text came out before the check */
    free(o.lines);
    free(gz);
    free(text);
}
#endif

/* --- the public corpora (datasets/public) --- */

/* Every line ending people have: LF, CRLF, CR alone (old Mac files), and any
 * mix; each one ends one line, so line numbers agree with an editor's. */
static void cr_crlf_and_mixed_line_ends(void **state)
{
    (void) state;
    static const char *const texts[] = {
        "1...2...3...4...\r.1..2...3...4...\r..1.2...3...4...\r",
        "1...2...3...4...\r\n.1..2...3...4...\r\n..1.2...3...4...\r\n",
        "1...2...3...4...\n.1..2...3...4...\r..1.2...3...4...\r\n",
        "1...2...3...4...\r.1..2...3...4...\n..1.2...3...4...", /* no last end */
    };
    for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
        struct entry e[16];
        assert_int_equal(READ(texts[k], NULL, e), 3);
        for (int i = 0; i < 3; i++) {
            assert_int_equal(e[i].status, CORPUS_PUZZLE);
            assert_int_equal(e[i].line, (unsigned long) i + 1);
            assert_int_equal(e[i].text[i], '1');
        }
    }
    /* blank lines and a bad line counted in every style */
    struct entry e[16];
    assert_int_equal(READ("\r\r\n\n# c\r12\r\n1...2...3...4...\r", NULL, e), 2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_int_equal(e[0].line, 5);
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].line, 6);
    /* a whitespace grid with CR-only rows */
    assert_int_equal(
        READ("1 0 0 0\r0 2 0 0\r0 0 3 0\r0 0 0 4\r\r1...2...3...4...", NULL, e), 2);
    assert_int_equal(e[0].status, CORPUS_PUZZLE);
    assert_string_equal(e[0].text, "1....2....3....4");
    assert_int_equal(e[1].line, 6);
}

/* Trailing blanks and tabs are no part of a puzzle or a grid row. */
static void trailing_whitespace_and_tabs(void **state)
{
    (void) state;
    struct entry e[16];
    assert_int_equal(
        READ("1...2...3...4... \t \n1 0 0 0\t\n0 2 0 0  \n0 0 3 0\t \n0 0 0 4 \n\n"
             "1...2...3...4...\t",
            NULL, e),
        3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(e[i].status, CORPUS_PUZZLE);
    assert_string_equal(e[1].text, "1....2....3....4");
    assert_int_equal(e[2].line, 7);
}

/* A UTF-8 byte-order mark starts the text, not the first puzzle: in a plain
 * file, before a header comment, and inside xz and gzip content. */
static void utf8_byte_order_mark_is_skipped(void **state)
{
    (void) state;
    struct entry e[16];
    assert_int_equal(READ("\xEF\xBB\xBF"
                          "1...2...3...4...\n.1..2...3...4...\n",
                         NULL, e),
        2);
    assert_int_equal(e[0].status, CORPUS_PUZZLE);
    assert_int_equal(e[0].line, 1);
    const struct corpus_options from_header = { .variant_from_header = true };
    assert_int_equal(
        READ("\xEF\xBB\xBF# variant=diagonal\r\n1...2...3...4...\r\n", &from_header, e),
        1);
    assert_int_equal(e[0].variant, GRID_DIAGONAL);
    /* only at the start: elsewhere it is a bad symbol */
    assert_int_equal(
        READ("1...2...3...4...\n\xEF\xBB\xBF.1..2...3...4...\n", NULL, e), 2);
    assert_int_equal(e[1].status, CORPUS_BAD);

    size_t len;
    char *lines = random_lines(3, &len);
    char *text = malloc(len + 3);
    assert_non_null(text);
    memcpy(text, "\xEF\xBB\xBF", 3);
    memcpy(text + 3, lines, len);
    size_t zlen;
    struct outcome o;
    unsigned char *xz = xz_compress(text, len + 3, &zlen);
    read_bytes(xz, zlen, &o, 8);
    assert_int_equal(o.last, CORPUS_END);
    assert_int_equal(o.bad, 0);
    assert_prefix(&o, lines, 3);
    free(o.lines);
    free(xz);
#if HAVE_ZLIB
    unsigned char *gz = gzip_compress(text, len + 3, &zlen);
    read_bytes(gz, zlen, &o, 8);
    assert_int_equal(o.last, CORPUS_END);
    assert_int_equal(o.bad, 0);
    assert_prefix(&o, lines, 3);
    free(o.lines);
    free(gz);
#endif
    free(text);
    free(lines);
}

/* UTF-16, with a byte-order mark or recognised by its NUL bytes, is refused
 * as a whole rather than read as lines of garbage. */
static void utf16_is_refused(void **state)
{
    (void) state;
    static const struct {
        const char *bytes;
        size_t len;
    } texts[] = {
        { "\xFF\xFE"
          "1\0.\0.\0.\0\n\0",
            12 },
        { "\xFE\xFF\0"
          "1\0.\0.\0.\0\n",
            12 },
        { "1\0.\0.\0.\0\r\0\n\0", 12 },
        { "\0001\0.\0.\0.\0\r\0\n", 12 },
        { "#\0\n\0", 4 },
    };
    for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
        struct outcome o;
        read_bytes(texts[k].bytes, texts[k].len, &o, 4);
        assert_int_equal(o.last, CORPUS_FAIL);
        assert_int_equal(o.last_line, 0);
        assert_int_equal(o.puzzles + o.bad, 0);
        assert_string_equal(o.why, "UTF-16 is not supported, convert to UTF-8");
        free(o.lines);
    }
#if HAVE_ZLIB
    size_t zlen;
    unsigned char *gz = gzip_compress(texts[0].bytes, texts[0].len, &zlen);
    struct outcome o;
    read_bytes(gz, zlen, &o, 4);
    assert_int_equal(o.last, CORPUS_FAIL);
    assert_string_equal(o.why, "UTF-16 is not supported, convert to UTF-8");
    free(o.lines);
    free(gz);
#endif
}

/* A stream of `left` '1's with no newline, then a second line with a puzzle,
 * made as it is read: the test itself never holds the long line either. */
struct long_line {
    size_t left;
    const char *tail;
    size_t tail_left;
};

static ssize_t long_line_read(void *cookie, char *buf, size_t size)
{
    struct long_line *g = cookie;
    size_t n = 0;
    while (n < size && g->left > 0) {
        const size_t chunk = size - n < g->left ? size - n : g->left;
        memset(buf + n, '1', chunk);
        n += chunk;
        g->left -= chunk;
    }
    const size_t tail = size - n < g->tail_left ? size - n : g->tail_left;
    memcpy(buf + n, g->tail, tail);
    g->tail += tail;
    g->tail_left -= tail;
    return (ssize_t) (n + tail);
}

/* The peak resident memory of this process so far, in KiB (0 when unknown). */
static unsigned long peak_rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    unsigned long kib = 0;
    char line[256];
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmHWM: %lu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

/* The peak is reset where the kernel allows it (Linux 4.0: "5" to
 * clear_refs); otherwise it only grows, which the check allows for. */
static void reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

static void a_line_far_longer_than_memory_allows(void **state)
{
    (void) state;
    enum { LENGTH = 48 << 20 };
    static const char tail[] = "\n1...2...3...4...\n";
    struct long_line g = { LENGTH, tail, sizeof(tail) - 1 };
    cookie_io_functions_t io = { .read = long_line_read };
    FILE *f = fopencookie(&g, "r", io);
    assert_non_null(f);
    reset_peak_rss();
    const unsigned long before = peak_rss_kib();
    struct corpus *c = corpus_open_stream(f, "gen", 1, NULL);
    assert_non_null(c);
    struct corpus_item item;
    assert_int_equal(corpus_next(c, &item), CORPUS_BAD);
    assert_int_equal(item.line, 1);
    char want[CORPUS_WHY_MAX];
    snprintf(want, sizeof(want), "line longer than 4096 bytes (it has %d)", LENGTH);
    assert_string_equal(item.why, want);
    assert_int_equal(corpus_next(c, &item), CORPUS_PUZZLE);
    assert_int_equal(item.line, 2);
    assert_int_equal(corpus_next(c, &item), CORPUS_END);
    corpus_close(c);
    const unsigned long after = peak_rss_kib();
    printf("# peak RSS %lu KiB before, %lu KiB after a %d MiB line\n", before, after,
        LENGTH >> 20);
    if (before > 0) /* a reader that kept the line would add 48 MiB */
        assert_true(after - before < 8 * 1024);
}

/* Each shipped archive reads whole, with the count datasets/public/README.md
 * gives and no bad entry. */
static void public_corpora_read_whole(void **state)
{
    (void) state;
    static const struct {
        const char *file;
        int puzzles;
    } corpora[] = {
        { "norvig_top95.xz", 95 },
        { "puzzles2_17_clue.xz", 49158 },
        { "puzzles3_magictour_top1465.xz", 1465 },
        { "puzzles5_forum_hardest_1905_11+.xz", 48766 },
        { "puzzles6_forum_hardest_1106.xz", 375 },
        { "puzzles7_serg_benchmark.xz", 10000 },
    };
    const char *dir = getenv("SUDOLAB_DATASETS");
    assert_non_null(dir);
    for (size_t i = 0; i < sizeof(corpora) / sizeof(corpora[0]); i++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, corpora[i].file);
        FILE *f = fopen(path, "rb");
        if (!f)
            print_error("%s: %s\n", path, strerror(errno));
        assert_non_null(f);
        struct outcome o;
        read_stream(f, &o, corpora[i].puzzles);
        printf("# %s: %d puzzles\n", corpora[i].file, o.puzzles);
        assert_int_equal(o.last, CORPUS_END);
        assert_int_equal(o.bad, 0);
        assert_int_equal(o.puzzles, corpora[i].puzzles);
        free(o.lines);
    }
}

/* --- Lewis's format --- */

/* 4x4 in Lewis's layout: order 2, the second integer, 4 rows of 4. */
#define LEWIS_A "2\n1\n1\t-1\t-1\t-1\n-1\t2\t-1\t-1\n-1\t-1\t3\t-1\n-1\t-1\t-1\t4\n"
#define LEWIS_B "2\r\n1\r\n-1 3 -1 -1 \r\n-1 -1 -1 -1\r\n4 -1 -1 -1\r\n-1 -1 -1 2\r\n"

/* Instances as sudoku_acs ships them (CRLF, trailing tabs) and as bundles
 * hold them (several, each named by the comment line before it), with the
 * values over any number of lines; detected without --format. */
static void lewis_instances_read_and_are_named(void **state)
{
    (void) state;
    struct entry e[16];
    assert_int_equal(
        READ("# inst4x4_25_0.txt extra words\n" LEWIS_A "# header\n\n" LEWIS_B
             "2 7\n1 2 3 4 3 4 1 2\n\n2 1 4 3\n4 3 2 1\n"
             "# first.txt\n"
             "# second.txt\n" LEWIS_A,
            NULL, e),
        4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(e[i].status, CORPUS_PUZZLE);
    assert_string_equal(e[0].text, "1....2....3....4");
    assert_string_equal(e[0].name, "inst4x4_25_0.txt");
    assert_int_equal(e[0].line, 2);
    assert_string_equal(e[1].text, ".3......4......2");
    assert_string_equal(e[1].name, "mem"); /* no comment right before: the file's */
    assert_int_equal(e[1].line, 10);
    assert_string_equal(e[2].text, "1234341221434321"); /* header on one line */
    assert_int_equal(e[2].line, 16);
    assert_string_equal(e[3].name, "second.txt");
    /* forced, and a whole instance on one line */
    const struct corpus_options lewis = { .format = CORPUS_LEWIS };
    assert_int_equal(
        READ("2 1 1 -1 -1 -1 -1 2 -1 -1 -1 -1 3 -1 -1 -1 -1 4\n", &lewis, e), 1);
    assert_string_equal(e[0].text, "1....2....3....4");
    /* the lines format beside it, unnamed */
    assert_int_equal(READ(LEWIS_A "1....2....3....4\n", NULL, e), 2);
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_string_equal(e[1].name, "");
    assert_int_equal(e[1].line, 7);
}

/* Each bad instance gives its line and reason, and the next one reads. */
static void lewis_bad_instances(void **state)
{
    (void) state;
    static const struct {
        const char *text;
        const char *why; /* of the first entry; the last entry is LEWIS_A */
        unsigned long line;
    } cases[] = {
        { "2\n1\n1 -1 -1 -1\n-1 2 -1 -1\n-1 -1 3 -1\n-1 -1 -1\n# next\n" LEWIS_A,
            "instance has 15 of its 16 values (truncated at line 7)", 1 },
        { "2\n1\n1 -1 -1 -1\n-1 5 -1 -1\n-1 -1 3 -1\n-1 -1 -1 4\n" LEWIS_A,
            "value 5 at line 4 is out of range for 4x4 (-1 blank, 1 to 4)", 1 },
        { "2\n1\n1 -1 -1 -1\n-1 0 -1 -1\n-1 -1 3 -1\n-1 -1 -1 4\n" LEWIS_A,
            "value 0 at line 4 is out of range for 4x4 (-1 blank, 1 to 4)", 1 },
        { "2\n1\n1 -1 -1 -1\n-1 x -1 -1\n-1 -1 3 -1\n-1 -1 -1 4\n" LEWIS_A,
            "value 'x' at line 4 is not a number", 1 },
        { "2\n1\n1 -1 -1 -1\n-1 2 -1 -1\n-1 -1 3 -1\n-1 -1 -1 4 4\n\n" LEWIS_A,
            "more than 16 values (line 6 has more)", 1 },
        { "\n8\n1\n-1 -1 -1\n\n" LEWIS_A,
            "Lewis order 8 is no grid size (2 to 7: 4x4 to 49x49)", 2 },
        { "1\n1\n-1\n\n" LEWIS_A, "Lewis order 1 is no grid size (2 to 7: 4x4 to 49x49)",
            1 },

    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct entry e[16];
        const int n = READ(cases[k].text, NULL, e);
        assert_true(n >= 2);
        assert_int_equal(e[0].status, CORPUS_BAD);
        assert_string_equal(e[0].why, cases[k].why);
        assert_int_equal(e[0].line, cases[k].line);
        assert_int_equal(e[n - 1].status, CORPUS_PUZZLE);
        assert_string_equal(e[n - 1].text, "1....2....3....4");
    }
    /* 36x36 and 49x49: a value past the order's size, then a good instance */
    for (int order = 6; order <= 7; order++) {
        const int side = order * order;
        static char big[49 * 49 * 4 + 64];
        int len = snprintf(big, sizeof(big), "%d\n1\n", order);
        for (int i = 0; i < side * side; i++)
            len += snprintf(big + len, sizeof(big) - (size_t) len, "%d%c",
                i == side + 2 ? side + 1 : -1, (i + 1) % side ? '\t' : '\n');
        snprintf(big + len, sizeof(big) - (size_t) len, "\n%s", LEWIS_A);
        struct entry e[16];
        assert_int_equal(READ(big, NULL, e), 2);
        char want[96];
        snprintf(want, sizeof(want),
            "value %d at line 4 is out of range for %dx%d (-1 blank, 1 to %d)", side + 1,
            side, side, side);
        assert_int_equal(e[0].status, CORPUS_BAD);
        assert_string_equal(e[0].why, want);
        assert_int_equal(e[1].status, CORPUS_PUZZLE);
    }
    struct entry e[16];
    /* cut short by the end of the input */
    assert_int_equal(READ("2\n1\n1 -1 -1 -1\n-1 2", NULL, e), 1);
    assert_string_equal(
        e[0].why, "instance has 6 of its 16 values (truncated at line 4)");
    /* an order alone is no Lewis header: read as a (bad) puzzle line */
    assert_int_equal(READ("# inst.txt\n2\n", NULL, e), 1);
    assert_non_null(strstr(e[0].why, "1 symbols is no grid size"));
    const struct corpus_options lewis = { .format = CORPUS_LEWIS };
    assert_int_equal(READ("2\n", &lewis, e), 1);
    assert_string_equal(
        e[0].why, "instance ends before its second integer (truncated at line 1)");
    assert_int_equal(
        READ("2\nx\n1 -1 -1 -1\n-1 2 -1 -1\n-1 -1 3 -1\n-1 -1 -1 4\n" LEWIS_A, &lewis, e),
        2);
    assert_string_equal(e[0].why, "the second integer at line 2 is not a number");
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(READ("six\n\n" LEWIS_A, &lewis, e), 2);
    assert_string_equal(e[0].why, "order 'six' of a Lewis instance is not a number");
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    /* a forced size that the order contradicts */
    const struct corpus_options nine = { .shape = { 3, 3, GRID_STANDARD } };
    assert_int_equal(READ(LEWIS_A LEWIS_A, &nine, e), 2);
    assert_string_equal(
        e[0].why, "Lewis order 2 (2x2 boxes) does not match the given size 3x3");
    assert_int_equal(e[1].status, CORPUS_BAD);
    /* a short line of the lines format is no Lewis header: its old reason */
    assert_int_equal(READ("12\n1....2....3....4\n", NULL, e), 2);
    assert_int_equal(e[0].status, CORPUS_BAD);
    assert_non_null(strstr(e[0].why, "2 symbols is no grid size"));
    assert_int_equal(e[1].status, CORPUS_PUZZLE);
    assert_int_equal(e[1].line, 2);
}

/* What corpus_write_lewis writes reads back to the same grid and name; a
 * grid without square boxes is refused. */
static void lewis_writer_round_trip(void **state)
{
    (void) state;
    static const char *const puzzles[] = {
        "1....2....3....4",
        ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4.."
        "2.",
    };
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    char why[200];
    for (size_t k = 0; k < 2; k++) {
        struct grid g;
        assert_int_equal(
            grid_parse_token(&g, puzzles[k], strlen(puzzles[k]), NULL, why, sizeof(why)),
            0);
        assert_int_equal(corpus_write_lewis(out, &g, k == 0 ? "small" : ""), 0);
    }
    struct grid six;
    grid_init(&six, 2, 3, GRID_STANDARD);
    assert_int_equal(corpus_write_lewis(out, &six, "six"), -1);
    fclose(out);
    struct entry e[16];
    assert_int_equal(read_all(text, len, NULL, e, 16), 2);
    assert_string_equal(e[0].text, puzzles[0]);
    assert_string_equal(e[0].name, "small");
    assert_string_equal(e[1].text, puzzles[1]);
    assert_string_equal(e[1].name, "mem");
    assert_null(strstr(text, "six"));
    free(text);
}

/* Bundles of instances in an xz archive read like the text. */
static void lewis_compressed(void **state)
{
    (void) state;
    static const char text[] = "# a\n" LEWIS_A "# b\n" LEWIS_B "# c\n" LEWIS_A;
    size_t zlen;
    unsigned char *xz = xz_compress(text, sizeof(text) - 1, &zlen);
    struct entry e[16];
    assert_int_equal(read_all((const char *) xz, zlen, NULL, e, 16), 3);
    for (int i = 0; i < 3; i++)
        assert_int_equal(e[i].status, CORPUS_PUZZLE);
    assert_string_equal(e[1].text, ".3......4......2");
    assert_string_equal(e[2].name, "c");
    free(xz);
}

/* Every bundle of datasets/lewis reads whole: as many instances as the
 * manifest gives it, in its order, each named, shaped and with the givens
 * the manifest says. (The manifest's checksums: tests/test_cli.sh.) */
static void lewis_bundles_read_whole(void **state)
{
    (void) state;
    const char *public_dir = getenv("SUDOLAB_DATASETS");
    assert_non_null(public_dir);
    char dir[4096], path[4400];
    snprintf(dir, sizeof(dir), "%s/../lewis", public_dir);
    snprintf(path, sizeof(path), "%s/MANIFEST.tsv", dir);
    FILE *manifest = fopen(path, "r");
    if (!manifest)
        print_error("%s: %s\n", path, strerror(errno));
    assert_non_null(manifest);
    char row[1024], bundle[256] = "";
    struct corpus *c = NULL;
    static struct corpus_item item;
    int rows = 0, bundles = 0;
    assert_non_null(fgets(row, sizeof(row), manifest)); /* the header */
    while (fgets(row, sizeof(row), manifest)) {
        char file[256], original[512], sha[80], size[16], fill[8], instance[8];
        int entry, order, givens;
        assert_int_equal(
            sscanf(row, "%255s %d %511s %79s %d %15s %7s %7s %d", file, &entry, original,
                sha, &order, size, fill, instance, &givens),
            9);
        if (strcmp(file, bundle) != 0) {
            if (c) {
                assert_int_equal(corpus_next(c, &item), CORPUS_END);
                corpus_close(c);
            }
            snprintf(bundle, sizeof(bundle), "%s", file);
            snprintf(path, sizeof(path), "%s/%s", dir, file);
            c = corpus_open(path, NULL, row, sizeof(row));
            if (!c)
                print_error("%s: %s\n", path, row);
            assert_non_null(c);
            bundles++;
        }
        assert_int_equal(corpus_next(c, &item), CORPUS_PUZZLE);
        assert_int_equal(item.index, (unsigned long) entry);
        assert_string_equal(item.name, strrchr(original, '/') + 1);
        assert_int_equal(item.puzzle.box_rows, order);
        assert_int_equal(grid_count_clues(&item.puzzle), givens);
        rows++;
    }
    assert_non_null(c);
    assert_int_equal(corpus_next(c, &item), CORPUS_END);
    corpus_close(c);
    fclose(manifest);
    printf("# datasets/lewis: %d instances in %d bundles\n", rows, bundles);
    assert_int_equal(rows, 6316);
    assert_int_equal(bundles, 64);
}

int main(int argc, char **argv)
{
    static const struct CMUnitTest tests[]
        = { cmocka_unit_test(lines_with_comments_crlf_and_fields),
              cmocka_unit_test(zeros_are_blanks),
              cmocka_unit_test(header_comment_sets_the_variant),
              cmocka_unit_test(whitespace_grids_like_seed_002),
              cmocka_unit_test(grid_with_a_missing_row),
              cmocka_unit_test(grid_rows_of_wrong_width_or_value),
              cmocka_unit_test(bad_lines_do_not_stop_the_reader),
              cmocka_unit_test(odd_separators_in_grid_rows),
              cmocka_unit_test(forced_size_and_format),
              cmocka_unit_test(empty_and_comment_only_inputs),
              cmocka_unit_test(binary_data),
              cmocka_unit_test(a_two_megabyte_line),
              cmocka_unit_test(files_that_cannot_be_read),
              cmocka_unit_test(xz_reads_as_its_text),
              cmocka_unit_test(xz_truncated),
              cmocka_unit_test(xz_corrupt),
              cmocka_unit_test(detected_by_content_not_name),
              cmocka_unit_test(formats_and_zstd),
#if HAVE_ZLIB
              cmocka_unit_test(gzip_valid_truncated_corrupt),
#endif
              cmocka_unit_test(cr_crlf_and_mixed_line_ends),
              cmocka_unit_test(trailing_whitespace_and_tabs),
              cmocka_unit_test(utf8_byte_order_mark_is_skipped),
              cmocka_unit_test(utf16_is_refused),
              cmocka_unit_test(a_line_far_longer_than_memory_allows),
              cmocka_unit_test(public_corpora_read_whole),
              cmocka_unit_test(lewis_instances_read_and_are_named),
              cmocka_unit_test(lewis_bad_instances),
              cmocka_unit_test(lewis_writer_round_trip),
              cmocka_unit_test(lewis_compressed),
              cmocka_unit_test(lewis_bundles_read_whole),
          };
    /* meson test sets it (tests/meson.build); run by hand without it, the
     * public corpora cannot be found: a skip, not a pass */
    if (!getenv("SUDOLAB_DATASETS")) {
        printf("# SUDOLAB_DATASETS is not set (meson test sets it to datasets/public)\n");
        return 77;
    }
    const struct test_group plain = { "corpus", tests, TEST_COUNT(tests), NULL, NULL };
    return test_main(argc, argv, &plain, NULL);
}
