/* Numbers in text, as the commands read and write them. */
#ifndef SUDOLAB_COMMON_TEXT_H
#define SUDOLAB_COMMON_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Parses a non-negative integer (digits, optional '_' or ',' separators).
 * Returns 0, or -1 when text is not one or does not fit. */
int text_parse_u64(const char *text, uint64_t *out);
/* A duration for people: "12.3us", "4.56ms", "1.23s". */
void text_format_ns(char *out, size_t len, uint64_t ns);

#endif /* SUDOLAB_COMMON_TEXT_H */
