/* hps_ss.h - Space-Saving (Metwally, Agrawal and El Abbadi, ICDT 2005)
 * over pair keys, the streaming counter behind HCCT (D'Elia, Demetrescu and
 * Finocchi, PLDI 2011), here over <call site, callee> pairs.
 *
 * k counters.  A monitored key increments its count; a new key takes a
 * free counter with count 1, or else evicts the key with the smallest count
 * m and starts at m + 1 with error m (ties: the heap's root).  A count
 * overestimates the key's true count by at most its error <= the smallest
 * count.  A binary min-heap over stable counter ids plus an hps_table from
 * key to counter id: an update costs O(log k) and never allocates.
 */
#ifndef HPS_SS_H
#define HPS_SS_H

#include <stddef.h>
#include <stdint.h>

#include "families/hps_table.h"

struct hps_ss;

struct hps_ss_stats {
    uint64_t updates, hits, inserts, evictions;
};

struct hps_ss *hps_ss_create(size_t k);
void hps_ss_free(struct hps_ss *s); /* accepts NULL */
void hps_ss_update(struct hps_ss *s, uint64_t a, uint64_t b);
/* Monitored keys with their counts (w) sorted by hps_member_order; x = the
 * counter's error bound.  Returns a malloc'ed array (NULL when empty). */
struct hps_member *hps_ss_members(const struct hps_ss *s, size_t *n);
uint64_t hps_ss_min_count(const struct hps_ss *s); /* 0 while a counter is free */
void hps_ss_get_stats(const struct hps_ss *s, struct hps_ss_stats *st);

#endif
