/* keycount.h - exact counts of keys (or key pairs) of a stream, then range
 * queries over them: the perfect profiler every approximate range profile
 * is scored against, and the full offline aggregation of RAP.
 *
 * Two phases:
 *   1. counting: keycount_add(kc, a, b, w) adds w to the count of (a, b)
 *      (one-dimensional streams pass b = 0).  Open addressing over an entry
 *      array kept in first-occurrence order (keycount_entry(kc, i) walks it);
 *      both grow by doubling, so adds are amortised O(1) and allocate only
 *      when the table doubles.
 *   2. queries: keycount_sort(kc) sorts the entries by (a, b) and builds
 *      prefix sums; then keycount_range (count of a in [lo, hi], any b) is
 *      two binary searches and keycount_rect ([alo, ahi] x [blo, bhi]) scans
 *      the entries whose a is in range.  No adds after the sort.
 *
 * Example: adds (5,0) (9,0) (5,0) (7,0); sort; range(5, 7) = 3, range(8, 100) = 1.
 */
#ifndef KEYCOUNT_H
#define KEYCOUNT_H

#include <stddef.h>
#include <stdint.h>

struct keycount_entry {
    uint64_t a, b;
    uint64_t count;
};

struct keycount;

/* expect: distinct keys to size the table for (grows past it); 0 = small. */
struct keycount *keycount_create(size_t expect);
void keycount_free(struct keycount *kc); /* accepts NULL */
/* Empty the table (keeps its memory); allowed after a sort (counting again). */
void keycount_clear(struct keycount *kc);

/* Returns 0, or -1 when the table could not grow (out of memory: the add is
 * lost and keycount_failed() says so from then on). */
int keycount_add(struct keycount *kc, uint64_t a, uint64_t b, uint64_t w);
/* A hint that keycount_add(kc, a, b, ...) is coming: step 1 brings the
 * key's first slot into the cache, step 2 (that slot cached by then) the
 * entry of the first slot with the key's tag - the key's own, nearly always.  Issued for a batch of keys ahead of their adds, they let
 * the cache misses of a large table overlap.  No effect on the table. */
void keycount_prefetch(const struct keycount *kc, uint64_t a, uint64_t b, int step);
int keycount_failed(const struct keycount *kc);

size_t keycount_distinct(const struct keycount *kc);
uint64_t keycount_total(const struct keycount *kc);
/* Entry i: first-occurrence order before keycount_sort, (a, b) order after. */
const struct keycount_entry *keycount_entry(const struct keycount *kc, size_t i);
uint64_t keycount_get(const struct keycount *kc, uint64_t a, uint64_t b);
/* The entries as an array (keycount_entry(kc, i) is element i). */
const struct keycount_entry *keycount_entries(const struct keycount *kc);

/* Take over e[0, n) (malloc'd; the table frees it from now on): entries
 * with distinct keys and counts >= 1 - e.g. merged by the caller - that
 * replace the table's content, which is then sorted: the table that adding
 * each key once with its count, in any order, and keycount_sort would
 * give.  scratch: NULL, or memory for n entries the sort may overwrite (the
 * caller's; it spares the sort an allocation).  Returns 0, or -1 out of
 * memory (e is then still the caller's;
 * the table holds what it held, or a part of e, unsorted). */
int keycount_adopt_sort(struct keycount *kc, struct keycount_entry *e, size_t n, struct keycount_entry *scratch);

/* Sort and build prefix sums (idempotent).  Returns 0, or -1 out of memory. */
int keycount_sort(struct keycount *kc);
int keycount_sorted(const struct keycount *kc);
/* After keycount_sort: total count of the entries with lo <= a <= hi. */
uint64_t keycount_range(const struct keycount *kc, uint64_t lo, uint64_t hi);
/* After keycount_sort: total count of the entries in [alo, ahi] x [blo, bhi]. */
uint64_t keycount_rect(const struct keycount *kc, uint64_t alo, uint64_t ahi, uint64_t blo, uint64_t bhi);

#endif
