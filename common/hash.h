/* FNV-1a, 64 bits: the one hash of the project. It ties a puzzle's
 * transformations to the puzzle and its corpus rather than to where it sits in
 * a run, and fingerprints corpora and plans that shards and ranks must agree
 * on. Not for adversarial input. */
#ifndef SUDOLAB_COMMON_HASH_H
#define SUDOLAB_COMMON_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A_START UINT64_C(0xcbf29ce484222325)

/* Continues hash h over len bytes. */
static inline uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

/* Continues hash h over a string, without its terminator. */
static inline uint64_t hash_string(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char) *s) * UINT64_C(0x100000001b3);
    return h;
}

#endif /* SUDOLAB_COMMON_HASH_H */
