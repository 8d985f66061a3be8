/* mix64.h - splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014): its output function, a
 * hash of a key pair built from it, and the generator.  The software hash
 * tables of the models (their results do not depend on these bits) and
 * every seeded random stream (the section 5.3 byte tables, the sampling
 * jitter, the k-means starts) use these, so their numbers are fixed here. */
#ifndef MIX64_H
#define MIX64_H

#include <stdint.h>

#define MIX64_GOLDEN 0x9e3779b97f4a7c15ull

/* splitmix64's output function: every input bit reaches every output bit. */
static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A pair of keys. */
static inline uint64_t mix64_pair(uint64_t a, uint64_t b) { return mix64(a ^ mix64(b + MIX64_GOLDEN)); }

/* The next number of the stream whose state is *state. */
static inline uint64_t splitmix64(uint64_t *state) { return mix64(*state += MIX64_GOLDEN); }

#endif
