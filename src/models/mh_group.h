/* mh_group.h - one feed path for every scored multihash-family model, alone
 * or as a group of instances that share one exact profile.
 *
 * Every scored model (singlehash, multihash, cms_cu, spacesaving,
 * stratified, exact) starts its instance struct with a struct mh_member: the
 * tuple source, the interval bookkeeping and the exact table it scores
 * against.  The exact per-interval profile depends only on the tuple stream
 * (stream, edges) and the interval length, never on the model, its hardware
 * or its threshold, so instances that agree on those (mh_share_key) can score
 * against a single table.  The runner groups such instances (model.h,
 * share_key / feed_group) and calls mh_feed_group once per batch:
 *
 *   for each chunk of at most MH_CHUNK tuples that ends at or before the
 *   next interval boundary:
 *     extract the chunk's tuples once (counting skipped loads once);
 *     add them to the shared exact table once;
 *     run every member's hardware over the chunk (member.ops->tuples);
 *     at a boundary close every member's interval (member.ops->close, which
 *     scores against the shared table without changing its counts), then
 *     clear the table once.
 *
 * All members advance in lockstep (same tuples, same interval length), so
 * positions and interval indices agree and results are exactly those of
 * feeding each instance alone: the hardware of one instance never sees the
 * exact table, and scoring only reads counts (marks are per evaluation, see
 * mh_exact_table.stamp).  mh_feed (a model's plain feed) is a group of one.
 *
 * The shared table is the first member's own table, allocated by its
 * create(); the other members' tables are allocated too (calloc/malloc: pages
 * never touched stay virtual) but unused while grouped.  Nothing here
 * allocates.
 */
#ifndef MH_GROUP_H
#define MH_GROUP_H

#include "mh_common.h"

/* Tuples handled per step: the per-member hardware loops run over a chunk
 * while their tables are hot in cache. */
#define MH_CHUNK 512

struct mh_member;
struct mh_member_ops {
    /* Hardware update for n tuples of the current interval (no boundary
     * inside).  NULL: no hardware (the exact model). */
    void (*tuples)(struct mh_member *m, const struct mh_tuple *t, size_t n);
    /* Interval end: score against *m->exact (reading counts only), reset the
     * hardware, then iv.index++ and iv.pos = 0.  Also used by finish() for the
     * last partial interval. */
    void (*close)(struct mh_member *m);
};

struct mh_member {
    const struct mh_member_ops *ops;
    struct mh_source src;
    struct mh_interval iv;
    struct mh_exact_table *exact; /* &own, or the group's first member's; NULL: not scored */
    struct mh_exact_table own;
};

/* Reads the common parameters and, if score, allocates the exact table.
 * Returns -1 on allocation failure (m->exact stays NULL). */
int mh_member_init(struct mh_member *m, const struct mh_member_ops *ops, const struct param_values *pv, bool score);
void mh_member_free(struct mh_member *m);

/* model_ops hooks shared by every member model.  The key is empty (returns
 * 0) for an unscored instance. */
int mh_share_key(const void *m, char *key, size_t len);
void mh_feed_group(void *const *m, size_t n, const struct event *ev, size_t count);
void mh_feed(void *m, const struct event *ev, size_t count);
/* Close the last, partial interval if the instance counts it (finish()). */
void mh_member_finish(struct mh_member *m);

#endif
