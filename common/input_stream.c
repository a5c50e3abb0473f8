#include "common/input_stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#if HAVE_LZMA
#include <lzma.h>
#endif
#if HAVE_ZLIB
#include <zlib.h>
#endif

enum {
    MAGIC_MAX = 6, /* the longest magic number looked for (xz's) */
    RAW_CAP = 1 << 16, /* compressed bytes read from the file at a time */
    TEXT_CAP = 1 << 16, /* decompressed bytes handed out per refill */
    WHY_MAX = 200,
};

/* liblzma's decoder is refused a larger dictionary than this: the shipped
 * corpora need 5 MiB, xz -9 at most 65 MiB; a damaged header asking for
 * gigabytes is an error, not an allocation. */
#define XZ_MEMLIMIT ((uint64_t) 256 << 20)

static const unsigned char xz_magic[MAGIC_MAX] = { 0xFD, '7', 'z', 'X', 'Z', 0x00 };
static const unsigned char gzip_magic[2] = { 0x1F, 0x8B };
static const unsigned char zstd_magic[4] = { 0x28, 0xB5, 0x2F, 0xFD };

struct input_stream {
    FILE *f;
    enum input_format format;
    bool started;
    bool raw_eof; /* the file has no more compressed bytes */
    bool done; /* the compressed text has ended cleanly */
    bool member_done; /* gzip: the last member ended; another may follow */
    const char *error;
    char why[WHY_MAX];
    unsigned char head[MAGIC_MAX]; /* the first bytes, looked at for a magic */
    size_t head_len;
    const unsigned char *text; /* bytes to hand out before reading on */
    size_t text_pos, text_len;
    unsigned char *raw; /* compressed input (RAW_CAP), then text (TEXT_CAP) */
    unsigned char *decoded; /* = raw + RAW_CAP */
#if HAVE_LZMA
    lzma_stream xz;
    bool xz_open;
#endif
#if HAVE_ZLIB
    z_stream gz;
    bool gz_open;
#endif
};

struct input_stream *input_stream_new(FILE *f)
{
    struct input_stream *s = calloc(1, sizeof(*s));
    if (s)
        s->f = f;
    return s;
}

const char *input_stream_error(const struct input_stream *s)
{
    return s->error;
}

enum input_format input_stream_format(const struct input_stream *s)
{
    return s->format;
}

const char *input_format_name(enum input_format format)
{
    switch (format) {
    case INPUT_XZ:
        return "xz";
    case INPUT_GZIP:
        return "gzip";
    case INPUT_ZSTD:
        return "zstd";
    case INPUT_PLAIN:
        break;
    }
    return "plain";
}

void input_stream_free(struct input_stream *s)
{
    if (!s)
        return;
#if HAVE_LZMA
    if (s->xz_open)
        lzma_end(&s->xz);
#endif
#if HAVE_ZLIB
    if (s->gz_open)
        inflateEnd(&s->gz);
#endif
    free(s->raw);
    free(s);
}

static void fail(struct input_stream *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof(s->why), fmt, ap);
    va_end(ap);
    s->error = s->why;
}

static void fail_read(struct input_stream *s)
{
    fail(s, "read error: %s", strerror(errno));
}

#if HAVE_LZMA || HAVE_ZLIB /* (the WebAssembly build has neither) */
/* Reads the next compressed bytes into raw. Returns how many (0 at the end of
 * the file or on an error, which is recorded). */
static size_t fill_raw(struct input_stream *s)
{
    const size_t n = fread(s->raw, 1, RAW_CAP, s->f);
    if (n < RAW_CAP) {
        if (ferror(s->f))
            fail_read(s);
        s->raw_eof = true;
    }
    return n;
}
#endif

/* Whether the first bytes are `magic`, or all of a file shorter than it that
 * begins like it (a damaged archive rather than text). */
static bool starts_with(
    const struct input_stream *s, const unsigned char *magic, size_t len)
{
    if (s->head_len < len && (s->head_len < 2 || !s->raw_eof))
        return false;
    const size_t n = s->head_len < len ? s->head_len : len;
    return memcmp(s->head, magic, n) == 0;
}

/* Reads up to MAGIC_MAX bytes, stopping after a newline (no magic number holds
 * one, and a terminal's first line must not wait for more), and names the
 * format. */
static bool read_head(struct input_stream *s)
{
    int ch = 0;
    while (s->head_len < MAGIC_MAX && (ch = getc(s->f)) != EOF) {
        s->head[s->head_len++] = (unsigned char) ch;
        if (ch == '\n')
            break;
    }
    if (ch == EOF) {
        if (ferror(s->f)) {
            fail_read(s);
            return false;
        }
        s->raw_eof = true; /* read by starts_with; reset for compressed input */
    }
    if (starts_with(s, xz_magic, sizeof(xz_magic)))
        s->format = INPUT_XZ;
    else if (starts_with(s, gzip_magic, sizeof(gzip_magic)))
        s->format = INPUT_GZIP;
    else if (starts_with(s, zstd_magic, sizeof(zstd_magic)))
        s->format = INPUT_ZSTD;
    else
        s->format = INPUT_PLAIN;
    return true;
}

#if HAVE_LZMA
static bool open_xz(struct input_stream *s)
{
    s->xz = (lzma_stream) LZMA_STREAM_INIT;
    const lzma_ret r = lzma_stream_decoder(&s->xz, XZ_MEMLIMIT, LZMA_CONCATENATED);
    if (r != LZMA_OK) {
        fail(s, "cannot start the xz decoder (liblzma error %d)", (int) r);
        return false;
    }
    s->xz_open = true;
    s->xz.next_in = s->raw;
    s->xz.avail_in = s->head_len;
    return true;
}

static void fail_xz(struct input_stream *s, lzma_ret r)
{
    switch (r) {
    case LZMA_BUF_ERROR:
        fail(s, "truncated xz archive: the compressed data ends early");
        break;
    case LZMA_DATA_ERROR:
        fail(s, "corrupt xz archive: the compressed data is damaged");
        break;
    case LZMA_FORMAT_ERROR:
        fail(s, "corrupt xz archive: the header is not xz's");
        break;
    case LZMA_OPTIONS_ERROR:
        fail(s, "xz archive with options this liblzma does not support");
        break;
    case LZMA_MEMLIMIT_ERROR:
        fail(s, "xz archive needs more than %llu MiB to decompress",
            (unsigned long long) (XZ_MEMLIMIT >> 20));
        break;
    case LZMA_MEM_ERROR:
        fail(s, "out of memory decompressing xz");
        break;
    default:
        fail(s, "xz decoder error %d", (int) r);
        break;
    }
}

/* Decodes into `decoded` until some text comes out, the text ends or fails. */
static size_t decode_xz(struct input_stream *s)
{
    lzma_stream *z = &s->xz;
    z->next_out = s->decoded;
    z->avail_out = TEXT_CAP;
    while (z->avail_out == TEXT_CAP && !s->error && !s->done) {
        if (z->avail_in == 0 && !s->raw_eof) {
            z->avail_in = fill_raw(s);
            z->next_in = s->raw;
            if (s->error)
                break;
        }
        /* at the end of the file a stream cut short gives LZMA_BUF_ERROR */
        const lzma_ret r = lzma_code(z, s->raw_eof ? LZMA_FINISH : LZMA_RUN);
        if (r == LZMA_STREAM_END)
            s->done = true;
        else if (r != LZMA_OK)
            fail_xz(s, r);
    }
    return TEXT_CAP - z->avail_out;
}
#endif

#if HAVE_ZLIB
static bool open_gzip(struct input_stream *s)
{
    memset(&s->gz, 0, sizeof(s->gz));
    /* 16 + 15: a gzip wrapper (not zlib's) around a window of up to 32 KiB */
    if (inflateInit2(&s->gz, 16 + 15) != Z_OK) {
        fail(s, "cannot start the gzip decoder");
        return false;
    }
    s->gz_open = true;
    s->gz.next_in = s->raw;
    s->gz.avail_in = (uInt) s->head_len;
    return true;
}

/* As decode_xz. After a member's end, more input is another member. */
static size_t decode_gzip(struct input_stream *s)
{
    z_stream *z = &s->gz;
    z->next_out = s->decoded;
    z->avail_out = TEXT_CAP;
    while (z->avail_out == TEXT_CAP && !s->error && !s->done) {
        if (z->avail_in == 0 && !s->raw_eof) {
            z->avail_in = (uInt) fill_raw(s);
            z->next_in = s->raw;
            if (s->error)
                break;
        }
        if (z->avail_in == 0) {
            if (s->member_done)
                s->done = true;
            else
                fail(s, "truncated gzip archive: the compressed data ends early");
            break;
        }
        if (s->member_done) {
            inflateReset(z);
            s->member_done = false;
        }
        const int r = inflate(z, Z_NO_FLUSH);
        if (r == Z_STREAM_END)
            s->member_done = true;
        else if (r == Z_MEM_ERROR)
            fail(s, "out of memory decompressing gzip");
        else if (r != Z_OK && r != Z_BUF_ERROR)
            fail(s, "corrupt gzip archive: %s", z->msg ? z->msg : "damaged data");
    }
    return TEXT_CAP - z->avail_out;
}
#endif

/* Sets up the decoder for the format read_head found; false (with the
 * reason) when this build cannot read it. */
static bool open_decoder(struct input_stream *s)
{
    if (s->format == INPUT_ZSTD) {
        fail(s,
            "zstd-compressed input: sudolab reads xz, gzip and plain text "
            "(decompress it with zstd -d)");
        return false;
    }
    s->raw = malloc(RAW_CAP + TEXT_CAP);
    if (!s->raw) {
        fail(s, "out of memory");
        return false;
    }
    s->decoded = s->raw + RAW_CAP;
    memcpy(s->raw, s->head, s->head_len);
    s->raw_eof = false; /* the file's end has not been met by fill_raw */
    if (s->format == INPUT_XZ) {
#if HAVE_LZMA
        return open_xz(s);
#else
        fail(s,
            "xz-compressed input, but this sudolab was built without liblzma "
            "(Debian: liblzma-dev)");
        return false;
#endif
    }
#if HAVE_ZLIB
    return open_gzip(s);
#else
    fail(s,
        "gzip-compressed input, but this sudolab was built without zlib "
        "(Debian: zlib1g-dev)");
    return false;
#endif
}

/* The slow path of input_stream_getc: the first read, then each refill of
 * the decoded text. */
static int refill(struct input_stream *s)
{
    if (s->error || s->done)
        return EOF;
    if (!s->started) {
        s->started = true;
        if (!read_head(s))
            return EOF;
        if (s->format == INPUT_PLAIN) {
            s->text = s->head;
            s->text_len = s->head_len;
            return input_stream_getc(s);
        }
        if (!open_decoder(s))
            return EOF;
    }
    size_t got = 0;
#if HAVE_LZMA
    if (s->format == INPUT_XZ)
        got = decode_xz(s);
#endif
#if HAVE_ZLIB
    if (s->format == INPUT_GZIP)
        got = decode_gzip(s);
#endif
    if (got == 0)
        return EOF;
    s->text = s->decoded;
    s->text_len = got;
    s->text_pos = 1;
    return s->decoded[0];
}

int input_stream_getc(struct input_stream *s)
{
    if (s->text_pos < s->text_len)
        return s->text[s->text_pos++];
    if (s->started && s->format == INPUT_PLAIN) {
        if (s->raw_eof) /* met while the first bytes were read: read no further */
            return EOF;
        const int ch = getc(s->f);
        if (ch == EOF && ferror(s->f) && !s->error)
            fail_read(s);
        return ch;
    }
    return refill(s);
}
