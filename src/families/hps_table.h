/* hps_table.h - the count table every HPS profile is kept in: an
 * open-addressing map from a key pair (a, b) to a 64-bit count, with linear
 * probing, growth by doubling and backward-shift deletion (no tombstones).
 *
 * Keys: <call site, callee> for hot call pairs, <method, 0> for hot methods,
 * <pc, address> for the reference interner of hot data streams, <pc, 0> for
 * back-edge counts.  A slot with n == 0 is free, so a stored count is never
 * 0 (callers add at least 1; the interner stores id + 1).
 *
 * Growth allocates (amortised: at most one doubling per insertion, tables
 * start at the caller's size hint); out of memory prints one line naming the
 * table and aborts, like the other models' amortised tables.
 */
#ifndef HPS_TABLE_H
#define HPS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "core/mix64.h"

struct hps_slot {
    uint64_t a, b, n;
};

struct hps_table {
    struct hps_slot *slot;
    size_t mask;  /* capacity - 1 (capacity a power of two) */
    size_t used;
    const char *what; /* named in the out-of-memory message */
};

/* A member of a profile: key (a, b), weight w, and two informative fields
 * (streams: the first reference's pc and address) that play no part in
 * comparisons. */
struct hps_member {
    uint64_t a, b;
    double w;
    uint64_t x, y;
};

/* capacity_hint: expected distinct keys (0: a small default). */
void hps_table_init(struct hps_table *t, size_t capacity_hint, const char *what);
void hps_table_free(struct hps_table *t); /* leaves t empty and reusable */
void hps_table_clear(struct hps_table *t);

static inline size_t hps_hash2(uint64_t a, uint64_t b) { return (size_t)mix64_pair(a, b); }

void hps_table_grow_(struct hps_table *t);

/* The count of (a, b), inserted with count 0 if absent: the caller must
 * store a non-zero value before the next table operation. */
static inline uint64_t *hps_table_slot(struct hps_table *t, uint64_t a, uint64_t b)
{
    if ((t->used + 1) * 4 > (t->mask + 1) * 3) /* load factor 3/4 */
        hps_table_grow_(t);
    size_t i = hps_hash2(a, b) & t->mask;
    for (;;) {
        struct hps_slot *s = &t->slot[i];
        if (s->n == 0) {
            s->a = a;
            s->b = b;
            t->used++;
            return &s->n;
        }
        if (s->a == a && s->b == b)
            return &s->n;
        i = (i + 1) & t->mask;
    }
}

static inline void hps_table_add(struct hps_table *t, uint64_t a, uint64_t b, uint64_t delta)
{
    *hps_table_slot(t, a, b) += delta;
}

/* Count of (a, b), 0 if absent. */
uint64_t hps_table_get(const struct hps_table *t, uint64_t a, uint64_t b);
/* Remove (a, b) if present; returns its count (0 if absent). */
uint64_t hps_table_del(struct hps_table *t, uint64_t a, uint64_t b);

/* Every entry as a member (w = count), sorted by hps_member_order; *n gets
 * the count.  Returns a malloc'ed array (NULL when empty). */
struct hps_member *hps_table_members(const struct hps_table *t, size_t *n);

/* qsort order of profiles: weight descending, then key (a, then b)
 * ascending, so that ties are broken the same way on every run.  Ties
 * matter: the accuracy's cover cut (hps_accuracy.h) keeps a prefix of this
 * order, and when members of equal weight straddle the cut it keeps those
 * with the smaller keys (the default tie rule, `tie` = key). */
int hps_member_order(const void *x, const void *y);
/* The same with key descending (`tie` = key_desc). */
int hps_member_order_keydesc(const void *x, const void *y);

/* realloc or abort with a message naming `what`. */
void *hps_xrealloc(void *p, size_t bytes, const char *what);
/* A capacity limit was exceeded: print "hwprof: <what>" and abort. */
void hps_die(const char *what) __attribute__((noreturn));

#endif
