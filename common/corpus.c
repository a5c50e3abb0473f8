#include "common/corpus.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/input_stream.h"

/* Bytes of a line kept for parsing; the rest of a longer line is read and
 * dropped. Enough for a 25x25 puzzle, its trailing fields, and a grid row. */
enum { LINE_KEEP = 4096 };
/* The largest box side whose square grid the model holds: 7 (49x49). */
enum { LEWIS_MAX_ORDER = 7 };
static_assert(LEWIS_MAX_ORDER * LEWIS_MAX_ORDER <= GRID_MAX_N
        && (LEWIS_MAX_ORDER + 1) * (LEWIS_MAX_ORDER + 1) > GRID_MAX_N,
    "LEWIS_MAX_ORDER follows GRID_MAX_N");

struct corpus {
    FILE *f;
    int owned;
    struct input_stream *in; /* f's text, decompressed when it is an archive */
    char *name;
    struct corpus_options opts;
    unsigned long lineno;
    unsigned long index;
    char buf[LINE_KEEP + 1];
    size_t len; /* bytes kept in buf */
    size_t total; /* bytes in the whole line, its line end not counted */
    unsigned long long offset; /* bytes of text read so far */
    unsigned long long line_offset; /* where the line in buf starts in the text */
    bool after_cr; /* the last line ended at a CR: a LF right after it is
                    * the same line end (CRLF), not an empty line */
    bool utf16; /* the text's first line reads as UTF-16 */
    bool pushed_back; /* buf holds a line to be looked at again */
    bool at_eof;
    char comment[CORPUS_NAME_MAX]; /* first word of the last '#' comment line */
    unsigned long comment_line; /* its line number; 0 = none yet */
};

struct corpus *corpus_open_stream(
    FILE *f, const char *name, int owned, const struct corpus_options *opts)
{
    struct corpus *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->name = strdup(name);
    c->in = input_stream_new(f);
    if (!c->name || !c->in) {
        free(c->name);
        input_stream_free(c->in);
        free(c);
        return NULL;
    }
    c->f = f;
    c->owned = owned;
    if (opts)
        c->opts = *opts;
    return c;
}

struct corpus *corpus_open(
    const char *path, const struct corpus_options *opts, char *why, size_t whylen)
{
    if (strcmp(path, "-") == 0) {
        struct corpus *c = corpus_open_stream(stdin, "<stdin>", 0, opts);
        if (!c)
            snprintf(why, whylen, "out of memory");
        return c;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, whylen, "%s", strerror(errno));
        return NULL;
    }
    struct corpus *c = corpus_open_stream(f, path, 1, opts);
    if (!c) {
        fclose(f);
        snprintf(why, whylen, "out of memory");
    }
    return c;
}

const char *corpus_name(const struct corpus *c)
{
    return c->name;
}

unsigned long corpus_lines(const struct corpus *c)
{
    return c->lineno;
}

void corpus_close(struct corpus *c)
{
    if (!c)
        return;
    input_stream_free(c->in);
    if (c->owned && c->f)
        fclose(c->f);
    free(c->name);
    free(c);
}

/* Whether the first line of the text is UTF-16: a byte-order mark (FF FE or
 * FE FF), or ASCII in UTF-16 without one, where every other byte is NUL (the
 * odd ones in little-endian order, the even ones in big-endian). */
static bool looks_like_utf16(const unsigned char *b, size_t len)
{
    if (len >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
        return true;
    if (len < 2)
        return false;
    const size_t n = len < 16 ? len : 16;
    const size_t nul_parity = b[0] == 0 ? 0 : 1;
    if (nul_parity == 0 && len < 3)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((b[i] == 0) != (i % 2 == nul_parity))
            return false;
    return true;
}

/* The first line of the text: a UTF-8 byte-order mark (what many Windows
 * editors write) is no part of the first puzzle; UTF-16 is noted. */
static void look_at_text_start(struct corpus *c)
{
    static const char bom[3] = { (char) 0xEF, (char) 0xBB, (char) 0xBF };
    if (c->len >= 3 && memcmp(c->buf, bom, 3) == 0) {
        memmove(c->buf, c->buf + 3, c->len - 3);
        c->len -= 3;
        c->total -= 3;
        c->line_offset += 3;
    }
    c->utf16 = looks_like_utf16((const unsigned char *) c->buf, c->len);
}

/* Reads the next line into buf. A line ends at LF, CR or CRLF, so files from
 * Windows, old Macs and Unix, and mixes of them, number their lines alike.
 * Only the first LINE_KEEP bytes are kept; the rest is read and dropped, so a
 * line of any length takes the same memory. Returns 1, 0 at the end, -1 when
 * the input fails (input_stream_error says why; a line cut short by it is
 * dropped). */
static int read_line(struct corpus *c)
{
    if (c->pushed_back) {
        c->pushed_back = false;
        c->lineno++;
        return 1;
    }
    if (c->at_eof)
        return 0;
    c->len = 0;
    c->total = 0;
    int ch = input_stream_getc(c->in);
    if (ch == '\n' && c->after_cr) { /* the LF of a CRLF: checked only now, so
                                      * a CR typed on a terminal ends its line
                                      * without waiting for the next byte */
        c->offset++;
        ch = input_stream_getc(c->in);
    }
    c->after_cr = false;
    c->line_offset = c->offset;
    bool any = false;
    for (; ch != EOF; ch = input_stream_getc(c->in)) {
        any = true;
        c->offset++;
        if (ch == '\n')
            break;
        if (ch == '\r') {
            c->after_cr = true;
            break;
        }
        if (c->len < LINE_KEEP)
            c->buf[c->len++] = (char) ch;
        c->total++;
    }
    if (ch == EOF) {
        c->at_eof = true;
        if (input_stream_error(c->in))
            return -1;
    }
    if (!any)
        return 0;
    if (c->line_offset == 0)
        look_at_text_start(c);
    c->buf[c->len] = '\0';
    c->lineno++;
    return 1;
}

/* A line longer than the bytes kept of it. */
static bool line_cut(const struct corpus *c)
{
    return c->total > c->len;
}

static enum corpus_status too_long(const struct corpus *c, struct corpus_item *item)
{
    snprintf(item->why, sizeof(item->why), "line longer than %d bytes (it has %zu)",
        LINE_KEEP, c->total);
    return CORPUS_BAD;
}

/* A byte no text file holds: NUL or another control character that is not
 * white space. */
static bool is_binary_byte(unsigned char ch)
{
    return (ch < 0x20 && !grid_is_separator(ch)) || ch == 0x7F;
}

static size_t skip_space(const char *s, size_t i, size_t len)
{
    while (i < len
        && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f'))
        i++;
    return i;
}

/* A line to skip: blank or a '#' comment. */
static bool is_ignorable(const struct corpus *c)
{
    const size_t i = skip_space(c->buf, 0, c->len);
    return i == c->len || c->buf[i] == '#';
}

/* A header comment's "variant=..." word, if any, applies to the file. */
static void read_header_variant(struct corpus *c)
{
    const char *at = c->buf;
    while ((at = strstr(at, "variant=")) != NULL) {
        const bool word_start
            = at == c->buf || at[-1] == ' ' || at[-1] == '\t' || at[-1] == '#';
        at += strlen("variant=");
        if (!word_start)
            continue;
        if (strncmp(at, "diagonal", 8) == 0 && !isalnum((unsigned char) at[8]))
            c->opts.shape.variant = GRID_DIAGONAL;
        else if (strncmp(at, "standard", 8) == 0 && !isalnum((unsigned char) at[8]))
            c->opts.shape.variant = GRID_STANDARD;
    }
}

/* Splits a grid row into integers. Returns the count, or -1 when some token is
 * not a small non-negative integer (or '.'), or a separator other than white
 * space and one ',' stands between tokens. */
static int split_row(const char *s, size_t len, int *values, int max)
{
    int count = 0;
    size_t i = skip_space(s, 0, len);
    while (i < len) {
        size_t j = i;
        while (j < len && !grid_is_separator((unsigned char) s[j]))
            j++;
        if (j == i)
            return -1;
        int v = 0;
        if (j - i == 1 && s[i] == '.') {
            v = 0;
        } else {
            if (j - i > 2)
                return -1;
            for (size_t k = i; k < j; k++) {
                if (s[k] < '0' || s[k] > '9')
                    return -1;
                v = v * 10 + (s[k] - '0');
            }
        }
        if (count < max)
            values[count] = v;
        count++;
        i = skip_space(s, j, len);
        if (i < len && s[i] == ',')
            i = skip_space(s, i + 1, len);
    }
    return count;
}

/* A line that starts a whitespace grid: at least two integer tokens. Puzzle
 * lines are one token of 16 or more symbols, so the two never mix up. */
static bool looks_like_grid_row(const struct corpus *c, int *n)
{
    int values[GRID_MAX_N + 1];
    const int count = split_row(c->buf, c->len, values, GRID_MAX_N + 1);
    if (count < 2)
        return false;
    *n = count;
    return true;
}

/* The input failed (a read error, a truncated or corrupt archive) while the
 * line after the last complete one was being read: the entries before it have
 * been returned, nothing after it can be. */
static enum corpus_status input_failed(const struct corpus *c, struct corpus_item *item)
{
    item->line = c->lineno + 1;
    snprintf(item->why, sizeof(item->why), "%s", input_stream_error(c->in));
    return CORPUS_FAIL;
}

static enum corpus_status bad(struct corpus_item *item, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(item->why, sizeof(item->why), fmt, ap);
    va_end(ap);
    return CORPUS_BAD;
}

static enum corpus_status read_grid(struct corpus *c, struct corpus_item *item, int n)
{
    int br, bc;
    const struct grid_shape *shape = &c->opts.shape;
    if (shape->box_rows) {
        br = shape->box_rows;
        bc = shape->box_cols;
        if (br * bc != n)
            return bad(item, "grid row has %d values, %d expected for the given size", n,
                br * bc);
    } else if (!grid_shape_for_n(n, &br, &bc)) {
        return bad(item, "grid row has %d values, which is no grid size", n);
    }
    grid_init(&item->puzzle, br, bc, (enum grid_variant) shape->variant);
    for (int r = 0; r < n; r++) {
        if (r > 0) {
            const int got = read_line(c);
            if (got < 0)
                return input_failed(c, item);
            if (got == 0 || is_ignorable(c))
                return bad(item, "grid has %d rows, %d expected", r, n);
        }
        int values[GRID_MAX_N + 1];
        /* -2: a row longer than the bytes kept of it */
        const int count
            = line_cut(c) ? -2 : split_row(c->buf, c->len, values, GRID_MAX_N + 1);
        if (count != n) {
            if (count == -1 && r > 0) {
                /* not a grid row at all: let the next call look at it */
                c->pushed_back = true;
                c->lineno--;
                return bad(item, "grid has %d rows, %d expected", r, n);
            }
            const unsigned long bad_line = c->lineno;
            /* resynchronise at the next blank line */
            int got;
            while ((got = read_line(c)) > 0 && !is_ignorable(c))
                ;
            if (count == -2)
                return bad(item, "grid row at line %lu is longer than %d bytes", bad_line,
                    LINE_KEEP);
            if (count < 0)
                return bad(item, "grid row at line %lu has a value that is not a number",
                    bad_line);
            return bad(item, "grid row at line %lu has %d values, %d expected", bad_line,
                count, n);
        }
        for (int k = 0; k < n; k++) {
            if (values[k] > n)
                return bad(item, "value %d at line %lu is out of range for %dx%d",
                    values[k], c->lineno, n, n);
            item->puzzle.cell[r * n + k] = (uint8_t) values[k];
        }
    }
    return CORPUS_PUZZLE;
}

/* Whether buf[start, end) holds a byte no text has; why says which, where. */
static bool binary_in(
    const struct corpus *c, size_t start, size_t end, char *why, size_t whylen)
{
    for (size_t i = start; i < end; i++) {
        const unsigned char ch = (unsigned char) c->buf[i];
        if (!is_binary_byte(ch))
            continue;
        const unsigned long long at = c->line_offset + i;
        if (ch == 0)
            snprintf(why, whylen, "binary data (NUL byte at offset %llu)", at);
        else
            snprintf(
                why, whylen, "binary data (control byte 0x%02x at offset %llu)", ch, at);
        return true;
    }
    return false;
}

static enum corpus_status read_puzzle_line(struct corpus *c, struct corpus_item *item)
{
    size_t start = skip_space(c->buf, 0, c->len);
    size_t end = start;
    while (end < c->len && !grid_is_separator((unsigned char) c->buf[end]))
        end++;
    if (end == c->len && line_cut(c))
        return too_long(c, item);
    if (binary_in(c, start, end, item->why, sizeof(item->why)))
        return CORPUS_BAD;
    const int parsed = c->opts.format == CORPUS_SUKAKU
        ? grid_parse_candidates(&item->puzzle, c->buf + start, end - start,
            &c->opts.shape, item->why, sizeof(item->why))
        : grid_parse_token(&item->puzzle, c->buf + start, end - start, &c->opts.shape,
            item->why, sizeof(item->why));
    if (parsed != 0)
        return CORPUS_BAD;
    if (end < c->len) {
        const size_t rest = c->len - end - 1;
        const size_t keep = rest < CORPUS_EXTRA_MAX - 1 ? rest : CORPUS_EXTRA_MAX - 1;
        memcpy(item->extra, c->buf + end + 1, keep);
        item->extra[keep] = '\0';
    }
    return CORPUS_PUZZLE;
}

/* --- Lewis's format --- */

static bool is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* An integer token: an optional sign and 1 to 9 digits. */
static bool parse_int(const char *s, size_t len, long *v)
{
    size_t i = 0;
    const bool negative = len > 0 && s[0] == '-';
    if (len > 0 && (s[0] == '-' || s[0] == '+'))
        i = 1;
    if (i == len || len - i > 9)
        return false;
    long x = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (s[i] - '0');
    }
    *v = negative ? -x : x;
    return true;
}

/* How many tokens the line in buf has when it has one or two, both integers
 * and the first an unsigned one of at most two digits (an order): the start
 * of an instance in Lewis's format. Else 0. */
static int lewis_header_tokens(const struct corpus *c, long *order)
{
    long v[2] = { 0, 0 };
    int count = 0;
    size_t i = skip_space(c->buf, 0, c->len);
    while (i < c->len) {
        size_t j = i;
        while (j < c->len && !is_blank(c->buf[j]))
            j++;
        if (count == 2 || !parse_int(c->buf + i, j - i, &v[count]))
            return 0;
        if (count == 0 && (j - i > 2 || c->buf[i] == '-' || c->buf[i] == '+'))
            return 0;
        count++;
        i = skip_space(c->buf, j, c->len);
    }
    *order = v[0];
    return count;
}

/* The next whitespace-separated token of an instance, from *at in buf on,
 * reading further lines as needed (blank ones skipped). Returns 1 (the token
 * is buf[*start], *len bytes; *at is past it), 0 when the input ends or a
 * '#' comment line comes first (pushed back: it may name the next instance),
 * -1 when the input fails, -2 for a line longer than the bytes kept. */
static int lewis_token(struct corpus *c, size_t *at, size_t *start, size_t *len)
{
    for (;;) {
        *at = skip_space(c->buf, *at, c->len);
        if (*at < c->len) {
            *start = *at;
            while (*at < c->len && !is_blank(c->buf[*at]))
                (*at)++;
            *len = *at - *start;
            return 1;
        }
        const int got = read_line(c);
        if (got <= 0)
            return got;
        if (line_cut(c))
            return -2;
        *at = 0;
        const size_t first = skip_space(c->buf, 0, c->len);
        if (first < c->len && c->buf[first] == '#') {
            c->pushed_back = true;
            c->lineno--;
            return 0;
        }
    }
}

/* After an instance whose order makes no grid: its values cannot be counted,
 * so the reader goes on after the next blank or comment line. */
static void skip_to_blank_line(struct corpus *c)
{
    int got;
    while ((got = read_line(c)) > 0 && !is_ignorable(c))
        ;
    if (got > 0 && !line_cut(c) && c->buf[skip_space(c->buf, 0, c->len)] == '#') {
        c->pushed_back = true;
        c->lineno--;
    }
}

/* Why lewis_token found no token where the instance needs one. */
static enum corpus_status lewis_missing(struct corpus *c, struct corpus_item *item,
    int got, const char *what, int have, int want)
{
    if (got == -1)
        return input_failed(c, item);
    if (got == -2)
        return bad(item, "line %lu is longer than %d bytes", c->lineno, LINE_KEEP);
    if (want > 0)
        return bad(item, "instance has %d of its %d values (truncated at line %lu)", have,
            want, c->lineno + (c->pushed_back ? 1 : 0));
    return bad(item, "instance ends before its %s (truncated at line %lu)", what,
        c->lineno + (c->pushed_back ? 1 : 0));
}

/* Reads an instance in Lewis's format. Its order is the token at `at` in buf
 * unless order_read (then `order` holds it and the second integer comes
 * next). On a bad value the rest of the instance's values are still read,
 * so that the next instance starts where it should. */
static enum corpus_status read_lewis(
    struct corpus *c, struct corpus_item *item, size_t at, bool order_read, long order)
{
    size_t start, len;
    int got;
    if (!order_read) {
        got = lewis_token(c, &at, &start, &len);
        if (got != 1)
            return lewis_missing(c, item, got, "order", 0, 0);
        if (!parse_int(c->buf + start, len, &order)) {
            const int shown = len > 20 ? 20 : (int) len;
            bad(item, "order '%.*s' of a Lewis instance is not a number", shown,
                c->buf + start);
            skip_to_blank_line(c); /* after the message: it reads over buf */
            return CORPUS_BAD;
        }
    }
    if (order < 2 || order > LEWIS_MAX_ORDER) {
        skip_to_blank_line(c);
        return bad(item, "Lewis order %ld is no grid size (2 to %d: 4x4 to %dx%d)", order,
            LEWIS_MAX_ORDER, GRID_MAX_N, GRID_MAX_N);
    }
    const int box = (int) order, n = box * box, cells = n * n;
    const struct grid_shape *shape = &c->opts.shape;
    char why[CORPUS_WHY_MAX] = "";
    if (shape->box_rows && (shape->box_rows != box || shape->box_cols != box))
        snprintf(why, sizeof(why),
            "Lewis order %d (%dx%d boxes) does not match the given size %dx%d", box, box,
            box, shape->box_rows, shape->box_cols);
    got = lewis_token(c, &at, &start, &len);
    long second;
    if (got != 1)
        return lewis_missing(c, item, got, "second integer", 0, 0);
    if (!why[0] && !parse_int(c->buf + start, len, &second))
        snprintf(why, sizeof(why), "the second integer at line %lu is not a number",
            c->lineno);
    grid_init(&item->puzzle, box, box, (enum grid_variant) shape->variant);
    for (int k = 0; k < cells; k++) {
        got = lewis_token(c, &at, &start, &len);
        if (got != 1)
            return lewis_missing(c, item, got, "values", k, cells);
        long v;
        if (why[0])
            continue;
        if (binary_in(c, start, start + len, why, sizeof(why)))
            continue;
        if (!parse_int(c->buf + start, len, &v))
            snprintf(why, sizeof(why), "value '%.*s' at line %lu is not a number",
                len > 20 ? 20 : (int) len, c->buf + start, c->lineno);
        else if (v != -1 && (v < 1 || v > n))
            snprintf(why, sizeof(why),
                "value %ld at line %lu is out of range for %dx%d (-1 blank, 1 to %d)", v,
                c->lineno, n, n, n);
        else
            item->puzzle.cell[k] = (uint8_t) (v == -1 ? 0 : v);
    }
    if (!why[0] && skip_space(c->buf, at, c->len) < c->len)
        snprintf(why, sizeof(why), "more than %d values (line %lu has more)", cells,
            c->lineno);
    if (why[0])
        return bad(item, "%s", why);
    return CORPUS_PUZZLE;
}

/* The instance's name: the comment line right before it, else its file's. */
static void name_lewis_entry(const struct corpus *c, struct corpus_item *item)
{
    if (c->comment_line != 0 && c->comment_line + 1 == item->line) {
        snprintf(item->name, sizeof(item->name), "%s", c->comment);
        return;
    }
    const char *slash = strrchr(c->name, '/');
    snprintf(
        item->name, sizeof(item->name), "%s", slash && slash[1] ? slash + 1 : c->name);
}

/* A '#' comment line: its first word may name the next Lewis instance. */
static void note_comment(struct corpus *c)
{
    size_t i = skip_space(c->buf, 0, c->len);
    if (i == c->len || c->buf[i] != '#')
        return;
    i = skip_space(c->buf, i + 1, c->len);
    size_t j = i;
    while (j < c->len && !is_blank(c->buf[j]))
        j++;
    const size_t keep = j - i < CORPUS_NAME_MAX - 1 ? j - i : CORPUS_NAME_MAX - 1;
    memcpy(c->comment, c->buf + i, keep);
    c->comment[keep] = '\0';
    c->comment_line = c->lineno;
}

/* A line of one small integer in auto mode: an order when the next line
 * starts with an integer (the second one), else a line of the lines format
 * (whose reason it gets, as before Lewis's format was known). */
static enum corpus_status lone_integer_line(
    struct corpus *c, struct corpus_item *item, long order)
{
    const enum corpus_status as_line = read_puzzle_line(c, item);
    const int got = read_line(c);
    if (got < 0)
        return input_failed(c, item);
    if (got == 0)
        return as_line;
    c->pushed_back = true;
    c->lineno--;
    size_t start = skip_space(c->buf, 0, c->len), end = start;
    while (end < c->len && !is_blank(c->buf[end]))
        end++;
    long second;
    if (!parse_int(c->buf + start, end - start, &second))
        return as_line;
    item->why[0] = '\0';
    item->extra[0] = '\0';
    name_lewis_entry(c, item);
    /* the pushed-back line is read again as the second integer's */
    return read_lewis(c, item, c->len, true, order);
}

int corpus_write_lewis(FILE *out, const struct grid *g, const char *name)
{
    if (g->box_rows != g->box_cols)
        return -1;
    if (name && name[0])
        fprintf(out, "# %s\n", name);
    fprintf(out, "%d\n1\n", g->box_rows);
    for (int r = 0; r < g->n; r++) {
        for (int k = 0; k < g->n; k++) {
            const int v = g->cell[r * g->n + k];
            fprintf(out, "%d%c", v ? v : -1, k + 1 < g->n ? '\t' : '\n');
        }
    }
    return 0;
}

enum corpus_status corpus_next(struct corpus *c, struct corpus_item *item)
{
    item->extra[0] = '\0';
    item->why[0] = '\0';
    item->name[0] = '\0';
    for (;;) {
        const int got = read_line(c);
        if (got < 0)
            return input_failed(c, item);
        if (got == 0)
            return CORPUS_END;
        if (c->utf16) {
            c->at_eof = true;
            item->line = 0;
            snprintf(item->why, sizeof(item->why),
                "UTF-16 is not supported, convert to UTF-8");
            return CORPUS_FAIL;
        }
        if (is_ignorable(c)) {
            if (c->index == 0 && c->opts.variant_from_header)
                read_header_variant(c);
            if (!line_cut(c))
                note_comment(c);
            continue;
        }
        item->line = c->lineno;
        item->index = ++c->index;
        long order;
        const int header = c->opts.format == CORPUS_AUTO && !line_cut(c)
            ? lewis_header_tokens(c, &order)
            : 0;
        if (c->opts.format == CORPUS_LEWIS
            || (header == 2 && order >= 2 && order <= LEWIS_MAX_ORDER)) {
            if (line_cut(c))
                return too_long(c, item);
            name_lewis_entry(c, item);
            return read_lewis(c, item, 0, false, 0);
        }
        if (header == 1)
            return lone_integer_line(c, item, order);
        int n = 0;
        if (c->opts.format == CORPUS_GRIDS
            || (c->opts.format == CORPUS_AUTO && looks_like_grid_row(c, &n))) {
            if (line_cut(c))
                return too_long(c, item);
            if (n == 0 && !looks_like_grid_row(c, &n)) {
                snprintf(item->why, sizeof(item->why), "not a row of a whitespace grid");
                return CORPUS_BAD;
            }
            return read_grid(c, item, n);
        }
        return read_puzzle_line(c, item);
    }
}
