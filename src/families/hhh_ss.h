/* hhh_ss.h - hierarchical heavy hitters over the RAP key hierarchy with
 * Space-Saving (Metwally et al. 2005), as a modern baseline for RAP at
 * equal memory:
 *
 *   mst   one Space-Saving table per level of the hierarchy, every event
 *         updating all of them with its prefix at that level (Mitzenmacher,
 *         Steinke, Thaler, "Hierarchical Heavy Hitters with the Space
 *         Saving Algorithm", ALENEX 2012);
 *   rhhh  the same tables, but every event updates one level drawn at
 *         random, and estimates are scaled by the number of levels (Ben
 *         Basat, Einziger, Friedman, Luizelli, Waisbard, "Constant Time
 *         Updates in Hierarchical Heavy Hitters", SIGCOMM 2017).  We use the
 *         scaled counts as they are, without the paper's confidence term.
 *
 * The hierarchy is RAP's: prefixes of 0, s, 2s, ... key_bits bits (s = the
 * stride, b = 2^s), L + 1 levels with L = ceil(key_bits / s).  Memory:
 * `entries` Space-Saving entries in all, split evenly over the levels; an
 * entry is a key, a count and an error (16 bytes with 32-bit counts, the
 * size of a RAP node).
 *
 * Output (the usual conditioned-count rule, bottom-up): a prefix is a
 * hierarchical heavy hitter when its estimated count minus the (lower
 * bound) counts of its largest HHH descendants exceeds hot * n - the same
 * shape as RAP's hot ranges (count plus non-hot sub-ranges).  Each comes
 * with its range and its estimate (the Space-Saving count, an overestimate
 * for mst).  Updates do no allocation.
 */
#ifndef HHH_SS_H
#define HHH_SS_H

#include <stddef.h>
#include <stdint.h>

enum hhh_variant { HHH_MST = 0, HHH_RHHH = 1 };

struct hhh_cfg {
    unsigned key_bits;  /* 1..64 */
    unsigned stride;    /* 1..16 */
    uint64_t entries;   /* in all levels together (>= levels) */
    int variant;
    uint64_t seed;      /* rhhh level choice */
};

struct hhh_range {
    uint64_t lo, hi;
    unsigned plen;
    uint64_t estimate;  /* the prefix's (scaled) Space-Saving count */
    uint64_t lower;     /* estimate minus its error: a lower bound for mst */
    double conditioned; /* estimate minus the lower bounds of its largest HHH descendants */
};

struct hhh;

struct hhh *hhh_create(const struct hhh_cfg *cfg, char *err, size_t errlen);
void hhh_free(struct hhh *h); /* accepts NULL */
void hhh_add(struct hhh *h, uint64_t key);
void hhh_add_keys(struct hhh *h, const uint64_t *keys, size_t n); /* hhh_add of each, in order */
/* The same without a copy: hhh_keys_space gives a place for *room (>= 1)
 * keys, the caller writes n <= *room keys there - each already below
 * 2^key_bits, which hhh_add would see to - and hhh_keys_done(h, n) adds
 * them, in order. */
uint64_t *hhh_keys_space(struct hhh *h, size_t *room);
void hhh_keys_done(struct hhh *h, size_t n);
/* Apply the pending runs of equal prefixes to the tables (hhh_query does;
 * nothing a query sees depends on when). */
void hhh_flush(struct hhh *h);
/* The Space-Saving table of one level (0: the root) after hhh_flush: for
 * every entry id, in the order the entries were first taken, its key (the
 * prefix, right-aligned), count and error; returns how many (arrays of
 * hhh_entries_per_level(h) values).  For tests and diagnostics. */
size_t hhh_table(struct hhh *h, unsigned level, uint64_t *key, uint64_t *count, uint64_t *error);
uint64_t hhh_events(const struct hhh *h);
unsigned hhh_levels(const struct hhh *h); /* L + 1 */
uint64_t hhh_entries_per_level(const struct hhh *h);
/* HHHs above hot * n, ranges ascending, a range before those inside it
 * (*out malloc'd).  Returns how many, or (size_t)-1 out of memory. */
size_t hhh_query(struct hhh *h, double hot, struct hhh_range **out);

#endif
