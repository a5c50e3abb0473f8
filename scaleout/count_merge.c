#include "scaleout/count_merge.h"

#include <stdlib.h>
#include <string.h>

void count_merge_init(struct count_merge *m)
{
    memset(m, 0, sizeof(*m));
}

void count_merge_free(struct count_merge *m)
{
    free(m->rows);
    memset(m, 0, sizeof(*m));
}

static bool is_invalid(const struct count_row *row)
{
    return row->state == COUNT_UNPARSABLE || row->state == COUNT_INVALID;
}

static int grow(struct count_merge *m, size_t r)
{
    if (r < m->cap)
        return 0;
    size_t cap = m->cap ? 2 * m->cap : 256;
    while (cap <= r)
        cap *= 2;
    struct count_row *grown = realloc(m->rows, cap * sizeof(*grown));
    if (!grown)
        return -1;
    m->rows = grown;
    m->cap = cap;
    return 0;
}

int count_merge_add(struct count_merge *m, size_t r, const struct count_row *row,
    char *why, size_t whylen)
{
    if (grow(m, r) != 0) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    while (m->nrows <= r)
        m->rows[m->nrows++].index = 0; /* 0: no shard gave the row yet */
    struct count_row *sum = &m->rows[r];
    if (sum->index == 0) {
        *sum = *row;
        return 0;
    }
    if (row->index != sum->index || strcmp(row->puzzle, sum->puzzle) != 0
        || row->subproblems != sum->subproblems || is_invalid(row) != is_invalid(sum)) {
        snprintf(why, whylen,
            "row %zu (entry %lu) does not match the other shards': different inputs or "
            "split",
            r + 1, row->index);
        return -1;
    }
    shard_tally_merge(&sum->tally, &row->tally);
    return 0;
}

int count_merge_shard_done(struct count_merge *m, size_t rows, char *why, size_t whylen)
{
    if (m->shards++ == 0)
        m->shard_rows = rows;
    if (rows == m->shard_rows)
        return 0;
    snprintf(why, whylen,
        "the shards have different numbers of rows (%zu and %zu): a shard is incomplete",
        m->shard_rows, rows);
    return -1;
}

int count_merge_check(const struct count_merge *m, char *why, size_t whylen)
{
    for (size_t r = 0; r < m->nrows; r++) {
        const struct count_row *sum = &m->rows[r];
        if (sum->index == 0) {
            snprintf(why, whylen, "row %zu is in no shard", r + 1);
            return -1;
        }
        if (!is_invalid(sum) && sum->tally.solved != sum->subproblems) {
            snprintf(why, whylen,
                "entry %lu: %llu of %llu subproblems solved: a shard is incomplete or "
                "repeated",
                sum->index, (unsigned long long) sum->tally.solved,
                (unsigned long long) sum->subproblems);
            return -1;
        }
    }
    return 0;
}
