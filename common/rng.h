/* The one seeded PRNG (xoshiro256** seeded through splitmix64). Every random
 * choice in sudolab goes through it, so a printed seed reproduces a run. */
#ifndef SUDOLAB_COMMON_RNG_H
#define SUDOLAB_COMMON_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* Shuffles n ints in place (Fisher-Yates). */
void rng_shuffle(struct rng *r, int *v, int n);

#endif /* SUDOLAB_COMMON_RNG_H */
