/* rap_buffer.h - the merging event buffer of RAP (Mysore et al., section
 * 3.2.1): a small direct-mapped table in front of the tree that combines
 * identical events, so the tree sees (key, count) updates instead of one
 * walk per event.
 *
 * An event hashes to one entry.  The same key there: its count grows.  An
 * empty entry: the key moves in with count 1.  Another key there: that
 * older entry is evicted into the tree as one weighted update (no chaining)
 * and the new key takes its place.  rap_buffer_flush (end of the window)
 * commits the remaining entries in entry order.
 *
 * Since a weighted update is exactly that many unit updates in a row
 * (rap_tree.h), the buffer only reorders the stream the tree sees: a
 * one-entry buffer commits every run of equal keys as soon as it ends and
 * so gives the tree the unbuffered stream exactly.  Keys are up to 128 bits
 * (hi:lo) so that the 2-D tree can use the same buffer.
 */
#ifndef RAP_BUFFER_H
#define RAP_BUFFER_H

#include <stddef.h>
#include <stdint.h>
#include "families/rap_tree.h"

struct rap_buffer_entry {
    uint64_t hi, lo;
    uint64_t count; /* 0: empty */
};

struct rap_buffer {
    struct rap_buffer_entry *e;
    size_t entries;
    uint64_t events, evictions;
};

/* 0, or -1 out of memory.  entries >= 1. */
int rap_buffer_init(struct rap_buffer *bf, size_t entries);
void rap_buffer_destroy(struct rap_buffer *bf);

static inline size_t rap_buffer_index(const struct rap_buffer *bf, uint64_t hi, uint64_t lo)
{
    uint64_t h = (lo ^ (hi * 0xc2b2ae3d27d4eb4full)) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 32;
    /* multiply-high maps h onto [0, entries) for any table size */
    return (size_t)(((h & 0xffffffffull) * (uint64_t)bf->entries) >> 32);
}

static inline void rap_buffer_add(struct rap_buffer *bf, struct rap_tree *t, uint64_t hi, uint64_t lo)
{
    struct rap_buffer_entry *x = &bf->e[rap_buffer_index(bf, hi, lo)];
    bf->events++;
    if (x->count && x->hi == hi && x->lo == lo) {
        x->count++;
        return;
    }
    if (x->count) {
        bf->evictions++;
        rap_tree_add_wide(t, x->hi, x->lo, x->count);
    }
    x->hi = hi;
    x->lo = lo;
    x->count = 1;
}

/* Commit every entry in entry order and empty the buffer. */
void rap_buffer_flush(struct rap_buffer *bf, struct rap_tree *t);

#endif
