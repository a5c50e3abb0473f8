#include "common/shard.h"

#include <stdio.h>

int shard_parse(const char *text, struct shard *s, const char *who)
{
    unsigned long long k, n;
    int used = 0;
    if (sscanf(text, "%llu/%llu%n", &k, &n, &used) != 2 || text[used] != '\0' || k < 1
        || k > n || n > SHARD_MAX || text[0] < '0' || text[0] > '9') {
        fprintf(stderr, "%s: --shard %s: K/N expected, 1 <= K <= N <= %d\n", who, text,
            SHARD_MAX);
        return -1;
    }
    s->k = (uint32_t) k;
    s->n = (uint32_t) n;
    return 0;
}
