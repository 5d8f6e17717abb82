#ifndef MOREAU_RNG_H
#define MOREAU_RNG_H

#include <stdint.h>

#include "moreau/types.h"

/* xoshiro256** (Blackman & Vigna), seeded through splitmix64: fast, and the
 * same stream on every machine, so a run is reproducible from -seed. */
typedef struct {
  uint64_t s[4];
} moreau_rng;

static inline uint64_t moreau_splitmix64(uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Independent streams for (seed, stream), e.g. stream = rank or tile index. */
static inline void moreau_rng_seed(moreau_rng *r, uint64_t seed, uint64_t stream)
{
  uint64_t x = seed ^ (0x632be59bd9b4e019ULL * (stream + 1));
  for (int i = 0; i < 4; i++)
    r->s[i] = moreau_splitmix64(&x);
}

static inline uint64_t moreau_rng_next(moreau_rng *r)
{
  uint64_t *s = r->s;
  uint64_t t = s[1] << 17, x = s[1] * 5;
  uint64_t result = ((x << 7) | (x >> 57)) * 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = (s[3] << 45) | (s[3] >> 19);
  return result;
}

/* Uniform in [0, 1). */
static inline double moreau_rng_uniform(moreau_rng *r) { return (double)(moreau_rng_next(r) >> 11) * 0x1.0p-53; }

/* Uniform integer in [0, n), n > 0 (Lemire's multiply-shift, bias < n / 2^64). */
static inline uint32_t moreau_rng_below(moreau_rng *r, uint32_t n)
{
  return (uint32_t)(((moreau_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* a[0..n) in a uniformly random order: Fisher-Yates, a[i] swapped with
 * a[j], j = moreau_rng_below(r, i + 1), for i from n - 1 down (the NLGS
 * sweep's fresh order). The same draws in the same order at every size. */
#pragma GCC visibility push(default)
void moreau_rng_shuffle(moreau_rng *r, moreau_lid *a, moreau_lid n);
#pragma GCC visibility pop

#endif
