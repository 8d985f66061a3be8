/* rap_tree.h - the Range Adaptive Profiling tree (Mysore et al., "Formulating
 * and Implementing Profiling over Adaptive Ranges", ACM 2007, sections 2-3),
 * kept as a multibit trie (section 3.2.2).
 *
 * Keys are key_bits wide (R = 2^key_bits); a node covers an aligned range of
 * keys, the root all of them.  Splitting a node gives it b = 2^stride
 * children that cut its range into b equal parts (the last level may have
 * fewer bits than the stride: its children then cover 2^(remaining bits)
 * parts).  With L = ceil(key_bits / stride) levels:
 *
 *   update  an event of key x increments the counter of the deepest node
 *           whose range holds x (longest-prefix match: one array index per
 *           level, a walk of at most L steps, never a search);
 *   split   a node whose count would exceed SplitThreshold = eps * n / L
 *           (n = events so far, this one included, counted exactly in
 *           integers: count * L * 10^9 > round(eps * 10^9) * n) gets its
 *           missing children with count 0; it keeps its own counter.  Two
 *           rules (cfg.split):
 *             before (the default)  when the event would take the counter of
 *                   its node v (depth < L) past the threshold, v is split
 *                   first and the event goes on to v's child that holds x,
 *                   which is tested the same way (with threshold 0, at the
 *                   start, an event goes down to depth L in one go); the
 *                   node finally reached is incremented;
 *             after  the node is incremented first and split right after
 *                   if its count now exceeds the threshold (the rule of
 *                   this code until issue 23);
 *   merge   when n reaches merge_first * q^i (i = 0, 1, ...: periods grow by
 *           the ratio q), the tree is walked bottom-up and at every node P
 *           the children that are leaves are folded into P, lightest first
 *           (count, then position), while P's count plus the folded child's
 *           count stays <= the split threshold at n ("the split and merge
 *           thresholds can be the same", section 3.3.1).  A child that is
 *           folded adds its count to P's and is freed; a P whose children
 *           are all folded becomes a leaf.  Children of P that still have
 *           children are never folded, and a later split of P only
 *           recreates the missing children.  Counters are never decremented.
 *
 * Error bound.  The estimate of a node's range (the sum of its subtree's
 * counters) misses exactly the events of that range that were counted by
 * the node's ancestors, at most L of them (depth <= L), so it is a lower
 * bound within depth * (the largest ancestor counter) of the exact count.
 * Only nodes at depth < L are ancestors of anything (a depth-L node is one
 * key).  Under `before`, no counter of a node at depth < L ever exceeds
 * thr(n) = floor(eps n / L): an increment happens only where it keeps the
 * counter <= thr(n) (n counting this event), thr never decreases, and a
 * merge folds a child into P only while P's count stays <= thr(n).  So the
 * error of every range is <= L floor(eps n / L) <= eps * n, the paper's
 * bound, strictly.  Under `after`, a counter reaches thr(n) + 1 before it
 * splits, and the error is only <= depth (floor(eps n / L) + 1) <= eps * n
 * + L: one event of integer slack per level.  The price of `before` is at
 * the start, while thr = 0: the first events each create a whole path of
 * nodes down to depth L (a range cannot be estimated within eps n < 1 any
 * other way).  With max_nodes, a refused split leaves the event on v.
 *
 * Weighted updates (key, w) - the merging event buffer and offline
 * aggregation deliver them - are exactly w unit updates of that key in a
 * row, under either split rule: the tree splits, merges and samples at the
 * same event numbers (the first unit that would take the counter past the
 * threshold is found in closed form, so a weighted update costs one walk
 * per split, not per unit).
 *
 * Memory: the paper's node is 128 bits (RAP_NODE_BYTES); memory figures are
 * live nodes * 16 bytes.  Our node is 16 bytes too, but a split allocates
 * its parent's children as one block of b node slots (slots of children
 * not created, or folded by a merge, stay allocated until the whole block
 * is free): software trie overhead, not counted.  Blocks come from a pool
 * sized at create for the period before the first merge; at each merge the
 * pool is grown to the worst case of the coming period (each split needs a
 * counter above the threshold; capped at 2 * blocks + 256 splits and 2^22
 * slots), and it doubles between merges only if that was not enough
 * (stats.pool_grows).  With max_nodes set, a split that would exceed it is
 * refused: the node keeps counting unrefined (stats.splits_refused counts
 * refused attempts, one per increment that would split) and the error guarantee no longer
 * holds below it; merges free nodes and splits resume.
 *
 * No allocation per event except that amortised growth; no I/O.
 */
#ifndef RAP_TREE_H
#define RAP_TREE_H

#include <stddef.h>
#include <stdint.h>

#define RAP_NODE_BYTES 16 /* the paper's 128-bit node (section 5.2) */
#define RAP_MAX_KEY_BITS 128
#define RAP_MAX_STRIDE 16 /* b <= 65536 */

/* The split rule (see above).  Zero, the default, is the paper's bound. */
enum rap_split {
    RAP_SPLIT_BEFORE = 0, /* split before the increment that would pass the threshold: error <= eps n */
    RAP_SPLIT_AFTER = 1,  /* increment, then split if past it: error <= eps n + L */
};

struct rap_tree_cfg {
    unsigned key_bits;      /* 1..128 (keys wider than 64 bits: rap_tree_add_wide) */
    unsigned stride;        /* log2(b), 1..16 */
    double eps;             /* (0, 1], used as round(eps * 1e9) / 1e9 */
    double q;               /* merge period ratio, > 1 */
    uint64_t merge_first;   /* events before the first merge; 0: never merge */
    uint64_t max_nodes;     /* pool cap in nodes; 0: unlimited */
    uint64_t sample_every;  /* record (n, nodes) every this many events (0: never), and at
                             * n = 1, 2, 4, ... below merge_first (the start-up) */
    enum rap_split split;   /* RAP_SPLIT_BEFORE (0) | RAP_SPLIT_AFTER */
};

struct rap_tree;

/* A node as reported: its range is the keys whose top plen bits equal the
 * prefix (right-aligned in pfx_hi:pfx_lo). */
struct rap_span {
    uint64_t pfx_hi, pfx_lo;
    unsigned plen;
    unsigned depth;         /* root 0 */
    uint64_t count;         /* its own counter */
    uint64_t total;         /* its subtree's counters: the range's estimate */
    uint64_t hot_weight;    /* count + the hot_weight of its non-hot children */
    int hot;                /* (rap_tree_hot / rap_tree_walk with a fraction) */
};

struct rap_tree_stats {
    uint64_t n;             /* events (unit updates) so far */
    uint64_t updates;       /* calls that reached the tree (weighted: one each) */
    uint64_t visits;        /* nodes the update walks read, root included: depth + 1
                             * per walk (a weighted update walks again after each
                             * split, merge or sample point it crosses): the
                             * tree's share of the work */
    uint64_t nodes;         /* live nodes now */
    uint64_t nodes_max;     /* most live nodes at any time */
    double nodes_avg;       /* live nodes averaged over events (as each event arrived) */
    uint64_t splits;
    uint64_t merges;        /* merge batches */
    uint64_t nodes_merged;  /* nodes freed by merges */
    uint64_t splits_refused;
    uint64_t pool_grows;    /* pool doublings between merges */
    uint64_t threshold;     /* floor(eps n / L) now */
    unsigned levels;        /* L */
};

struct rap_merge_rec {
    uint64_t n;             /* the merge happened after event n */
    uint64_t before, after; /* live nodes */
};

struct rap_sample {
    uint64_t n, nodes;
};

/* NULL with err filled on a bad configuration or out of memory. */
struct rap_tree *rap_tree_create(const struct rap_tree_cfg *cfg, char *err, size_t errlen);
void rap_tree_free(struct rap_tree *t); /* accepts NULL */

/* One event of key x (its low key_bits bits; key_bits <= 64). */
void rap_tree_add1(struct rap_tree *t, uint64_t x);
/* w events of key x in a row (w = 0: nothing). */
void rap_tree_add(struct rap_tree *t, uint64_t x, uint64_t w);
/* Keys up to 128 bits: the key is hi:lo (its low key_bits bits). */
void rap_tree_add_wide(struct rap_tree *t, uint64_t hi, uint64_t lo, uint64_t w);

/* The update walk's shortcuts (the cached root path and leaf cache, see
 * rap_tree.c) on (the default) or off: every walk from the root.  Nothing
 * but the speed depends on it; tests compare the two. */
void rap_tree_set_cache(struct rap_tree *t, int on);

/* Pair trees (rap2d_tree.h): the tree's keys are the interleaved pairs
 * (x, y) of bits-bit coordinates (key_bits = 2 * bits).  Set by
 * rap2d_create; the leaf cache is then keyed by the pair, so that
 * rap_tree_add_pairs can find a pair's node without interleaving it. */
int rap_tree_set_pairs(struct rap_tree *t, unsigned bits);

struct rap_pair {
    uint64_t x, y;
};

/* One event of each pair p[0, n) in order (their low bits bits): exactly
 * rap2d_add(t, bits, x, y, 1) for each (a tree that is not a pair tree:
 * rap_tree_add_wide(t, x, y, 1)).  Each pair's leaf cache entry, then the
 * node it names, is requested some events before its update, so that the
 * cache misses overlap. */
void rap_tree_add_pairs(struct rap_tree *t, const struct rap_pair *p, size_t n);

void rap_tree_stats(const struct rap_tree *t, struct rap_tree_stats *st);
/* The configuration the tree runs with: eps as it is used (round(eps 1e9) /
 * 1e9), max_nodes as capped; for the worst-case bounds of rap_bound.h. */
void rap_tree_config(const struct rap_tree *t, struct rap_tree_cfg *out);
unsigned rap_tree_key_bits(const struct rap_tree *t);
unsigned rap_tree_stride(const struct rap_tree *t);
/* Split threshold after n events: floor(eps n / L) (exact integers). */
uint64_t rap_tree_threshold_at(const struct rap_tree *t, uint64_t n);

/* The deepest node whose range holds key hi:lo (the node an update would
 * increment); span.total and hot fields are not filled. */
void rap_tree_lookup(const struct rap_tree *t, uint64_t hi, uint64_t lo, struct rap_span *out);

/* Every node in pre-order (children by position: ranges ascending, parents
 * before children), with totals; hot fields use hot_frac (<= 0: none hot).
 * Returns the node count, or (size_t)-1 out of memory.  fn may be NULL. */
size_t rap_tree_walk(const struct rap_tree *t, double hot_frac,
                     void (*fn)(void *ctx, const struct rap_span *s), void *ctx);

/* A key (hi:lo, its low key_bits bits) with a weight. */
struct rap_wkey {
    uint64_t hi, lo, w;
};

/* Every node in pre-order as rap_tree_walk gives it (no node hot), with the
 * sum of the weights of the keys inside its range (keys in any order): e.g.
 * the exact count of every node's range from the exact count of every key,
 * in one pass over the keys.  Returns the node count, or (size_t)-1 out of
 * memory. */
size_t rap_tree_walk_keys(const struct rap_tree *t, const struct rap_wkey *keys, size_t nkeys,
                          void (*fn)(void *ctx, const struct rap_span *s, uint64_t inside), void *ctx);

/* rap_tree_walk_keys with the pairs (x, y) of a pair tree (their low bits
 * bits, as rap2d_key would interleave them), without interleaving them:
 * npairs records stride bytes apart, each starting with three uint64_t x,
 * y and the weight (a struct rap_wkey with hi = x, lo = y; or a keycount
 * entry).  (Not a pair tree: x:y is the key, as rap_tree_walk_keys.) */
size_t rap_tree_walk_pairs(const struct rap_tree *t, const void *pairs, size_t npairs, size_t stride,
                           void (*fn)(void *ctx, const struct rap_span *s, uint64_t inside), void *ctx);

/* Hot ranges (section 5.1): a node is hot when its count plus the counts of
 * its non-hot sub-ranges (hot_weight) exceeds hot_frac * n; a node is not
 * hot merely because it has hot children.  *out (malloc'd, caller frees) gets
 * them in pre-order.  Returns how many, or (size_t)-1 out of memory. */
size_t rap_tree_hot(const struct rap_tree *t, double hot_frac, struct rap_span **out);

/* [lo, hi] of a span of a tree with key_bits <= 64. */
void rap_span_range(const struct rap_tree *t, const struct rap_span *s, uint64_t *lo, uint64_t *hi);

const struct rap_merge_rec *rap_tree_merges(const struct rap_tree *t, size_t *n);
const struct rap_sample *rap_tree_samples(const struct rap_tree *t, size_t *n);

#endif
