/* Splitting one run into independent pieces: `--shard K/N` on bench, count
 * and generate, `sudolab merge`, and the work units of sudolab-mpi.
 *
 * A shard is a pure function of the options and the inputs: shard K of N
 * takes every item whose number is K-1 modulo N, so N processes that share
 * nothing do together exactly the work of one run, and merging their outputs
 * gives the single run's rows (timings aside). */
#ifndef SUDOLAB_COMMON_SHARD_H
#define SUDOLAB_COMMON_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/grid.h"
#include "common/hash.h"

enum { SHARD_MAX = 1000000 };

struct shard {
    uint32_t k, n; /* shard k of n, 1 <= k <= n; 1/1 = the whole run */
};

/* Parses "K/N". Returns 0, or -1 (after printing why to stderr, naming
 * `who`) when it is not two numbers with 1 <= K <= N <= SHARD_MAX. */
int shard_parse(const char *text, struct shard *s, const char *who);

static inline bool shard_owns(const struct shard *s, uint64_t item)
{
    return s->n <= 1 || item % s->n == s->k - 1;
}

/* Corpus entry `entry` (1-based) of corpus number ci of a run: the shard that
 * runs it. Offsetting by ci spreads the entries of many one-puzzle corpora. */
static inline bool shard_owns_entry(const struct shard *s, size_t ci, unsigned long entry)
{
    return shard_owns(s, (uint64_t) ci + entry - 1);
}

/* A fingerprint of a corpus as read (every entry, bad ones included), so merge
 * can tell shards of different corpora apart even when the names agree.
 * FNV-1a over each entry's shape and line form; all zero is a valid start. */
struct shard_fingerprint {
    uint64_t hash;
    unsigned long entries;
};

/* Adds an entry (its candidates too when it is a pencil-mark one); NULL = an
 * entry that did not parse. */
static inline void shard_fingerprint_add(
    struct shard_fingerprint *f, const struct grid *g)
{
    if (f->entries++ == 0)
        f->hash = HASH_FNV1A_START;
    uint8_t bytes[GRID_MAX_CELLS + 4];
    size_t len = 0;
    if (g) {
        bytes[len++] = g->box_rows;
        bytes[len++] = g->box_cols;
        bytes[len++] = g->variant;
        for (int i = 0; i < g->ncells; i++)
            bytes[len++] = g->cell[i];
    }
    bytes[len++] = g ? '\n' : '!';
    f->hash = hash_bytes(f->hash, bytes, len);
    if (g && g->has_candidates) /* pencil marks: every cell is blank */
        f->hash = hash_bytes(
            f->hash, g->candidates, (size_t) g->ncells * sizeof(g->candidates[0]));
}

#endif /* SUDOLAB_COMMON_SHARD_H */
