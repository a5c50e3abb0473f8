#include "common/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
    const uint64_t limit = -bound % bound; /* 2^64 mod bound */
    for (;;) {
        const uint64_t x = rng_next(r);
        if (x >= limit)
            return x % bound;
    }
}

void rng_shuffle(struct rng *r, int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        const int j = (int) rng_below(r, (uint64_t) i + 1);
        const int t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}
