/* The text of an input file, plain or compressed, read one byte at a time.
 *
 * The format is told from the first bytes (the magic numbers), never from the
 * file's name: xz (FD 37 7A 58 5A 00) is decompressed through liblzma, gzip
 * (1F 8B) through zlib, anything else is plain text. Compressed input is
 * decompressed as it is read, through fixed buffers, so a file of any size
 * takes the same memory; concatenated xz streams and gzip members read as one
 * text. A truncated or corrupt archive ends the text with an error that says
 * which; every byte decoded before the damage has been delivered by then.
 * zstd input is recognised and refused with a message rather than read as
 * garbage lines. Plain input is read from the FILE byte by byte, so a line
 * typed on a terminal is seen as soon as it ends. */
#ifndef SUDOLAB_COMMON_INPUT_STREAM_H
#define SUDOLAB_COMMON_INPUT_STREAM_H

#include <stdio.h>

enum input_format {
    INPUT_PLAIN,
    INPUT_XZ,
    INPUT_GZIP,
    INPUT_ZSTD, /* recognised only to be refused */
};

struct input_stream;

/* A stream over f (which input_stream_free does not close). NULL when out of
 * memory. Nothing is read before the first input_stream_getc. */
struct input_stream *input_stream_new(FILE *f);
/* The next byte of text (0-255), or EOF at the end of the text or when the
 * input cannot be read further: input_stream_error then says why. */
int input_stream_getc(struct input_stream *s);
/* NULL while the text reads cleanly; otherwise why it stopped, as
 * "truncated xz archive: ..." or "read error: ...". */
const char *input_stream_error(const struct input_stream *s);
/* The format found in the first bytes (INPUT_PLAIN before the first read). */
enum input_format input_stream_format(const struct input_stream *s);
/* "plain", "xz", "gzip" or "zstd". */
const char *input_format_name(enum input_format format);
void input_stream_free(struct input_stream *s);

#endif /* SUDOLAB_COMMON_INPUT_STREAM_H */
