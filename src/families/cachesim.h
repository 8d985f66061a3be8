/* cachesim.h - a two-level set-associative LRU cache hierarchy for data
 * accesses (optionally instruction fetches): the model behind the
 * cache-miss streams of the RAP paper (Mysore et al., Figure 11).
 *
 *   DL1 (and IL1 with ifetch) -> unified L2 -> memory.  Defaults: DL1 32 KB
 *   8-way, L2 1 MB 16-way, IL1 32 KB 8-way, 64-byte lines.
 *
 * Policy (each choice is the usual one; none is in the paper):
 *   - true LRU in every set; an invalid way is filled before any eviction;
 *   - write-allocate, write-back: a store that misses DL1 fetches the line
 *     (an L2 read, like a load) and marks it dirty; a dirty DL1 victim is
 *     written to L2 after the missing line was read (an L2 write: allocated
 *     if absent, made most recently used and dirty); a dirty L2 victim goes
 *     to memory (counted);
 *   - non-inclusive: L2 evictions do not touch DL1;
 *   - L2 is read only on an L1 miss, for the L2 line holding the missing L1
 *     line (so an L2 line must be at least as large as an L1 line);
 *   - an access that spans several lines touches each line in address
 *     order (line accesses counted per line); as a load it is one DL1 miss
 *     if any of its lines misses DL1, and one L2 miss if any of those lines
 *     also misses L2.  Size 0 counts as 1 byte.
 *   - instruction fetches (ifetch) go through IL1 into the same L2; without
 *     ifetch L2 sees data traffic only.
 * Everything is allocated at create; an access does no allocation.
 */
#ifndef CACHESIM_H
#define CACHESIM_H

#include <stddef.h>
#include <stdint.h>

struct cache_geom {
    uint64_t size;  /* bytes */
    unsigned ways;
    unsigned line;  /* bytes, power of two */
};

struct cachesim_cfg {
    struct cache_geom l1d, l2, l1i;
    int ifetch;     /* instruction fetches through l1i into l2 */
};

struct cache_stats {
    uint64_t loads, stores, ifetches;     /* accesses */
    uint64_t load_l1_misses, load_l2_misses; /* loads (not lines) */
    uint64_t store_l1_misses;
    uint64_t ifetch_l1_misses, ifetch_l2_misses;
    uint64_t spans;                       /* accesses touching more than one line */
    uint64_t l1d_lines, l1d_line_misses;  /* line accesses */
    uint64_t l2_reads, l2_read_misses, l2_writes, l2_write_misses;
    uint64_t l1d_writebacks, l2_writebacks;
};

enum { CACHE_L1_MISS = 1, CACHE_L2_MISS = 2 };

struct cachesim;

/* NULL with err filled (which level, which field) on a bad geometry. */
struct cachesim *cachesim_create(const struct cachesim_cfg *cfg, char *err, size_t errlen);
void cachesim_free(struct cachesim *c); /* accepts NULL */
/* Returns CACHE_L1_MISS and CACHE_L2_MISS bits. */
unsigned cachesim_load(struct cachesim *c, uint64_t addr, uint32_t size);
unsigned cachesim_store(struct cachesim *c, uint64_t addr, uint32_t size);
unsigned cachesim_ifetch(struct cachesim *c, uint64_t pc, uint32_t size);
const struct cache_stats *cachesim_stats(const struct cachesim *c);

#endif
