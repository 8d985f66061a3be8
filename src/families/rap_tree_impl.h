/* rap_tree_impl.h - the RAP tree's representation, shared by its two
 * files: rap_tree.c (create, split, merge, the update walks) and
 * rap_tree_report.c (statistics, lookups and walks over the final tree).
 * Not for other files: rap_tree.h is the interface. */
#ifndef RAP_TREE_IMPL_H
#define RAP_TREE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "families/rap_tree.h"

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

#define NONE UINT32_MAX
#define EPS_SCALE 1000000000ull /* eps is taken as round(eps * 1e9) / 1e9 */

struct rnode {
    uint64_t count;
    uint32_t first;  /* index of the children's block, NONE for a leaf; next free block in a free block's node */
    uint8_t depth;
    uint8_t present; /* the child in this slot exists (the root: 1) */
    uint8_t pad_[2];
};

struct leafc {
    uint64_t count;
    uint32_t slot;
};

/* Leaf cache (see the top of the file): a key (aligned, as hi:lo) and the
 * node its last walk ended at, valid while epoch is the tree's. */
struct lc_entry {
    uint64_t hi, lo;
    uint32_t v, epoch;
};
#define LC_BITS 14
#define LC_PAIR_BITS 16 /* pair trees: their pairs are many more than the keys of a 1-D profile */

/* Pair trees: the last pair of each x (hashed) that missed the leaf cache
 * and the node its walk ended at (see rap_tree_add_pairs). */
struct xc_entry {
    uint64_t x, y;
    uint32_t v, epoch;
};
#define XC_BITS 14

struct rap_tree {
    unsigned bits, k, b, levels, align; /* align = 128 - bits */
    uint64_t eps_num, thr_den;          /* threshold(n) = floor(n * eps_num / thr_den) */
    double q;
    uint64_t m0, max_nodes, sample_every;

    uint64_t n, thr, thr_next;          /* thr = threshold(n); it changes at n = thr_next */
    uint64_t next_merge, next_sample;   /* next_sample = min(next_periodic, next early sample) */
    uint64_t next_periodic;
    unsigned merge_i;

    struct rnode *node;                 /* 1 + bcap * b */
    uint32_t bcap, bused, free_blk;     /* blocks: capacity, high-water mark, free list */
    struct leafc *scratch;              /* b entries, for merges */

    /* Walk cache (see the top of the file): path[0..pdepth] is the root
     * path of key pkey; lcp_depth[c] = floor(c / k), the deepest level whose
     * prefix two keys sharing their top c bits have in common. */
    u128 pkey;
    uint64_t px, py;                    /* pair trees: pkey as its pair (pkey unused) */
    unsigned pdepth;
    uint32_t *path;                     /* levels + 1 */
    uint8_t lcp_depth[129];
    struct lc_entry *lc;                /* 2^LC_BITS entries (pair trees: 2^LC_PAIR_BITS) */
    uint32_t epoch;                     /* merges + 1 (0 never: an empty entry) */
    int no_cache;                       /* rap_tree_set_cache(t, 0): every walk from the root */
    unsigned pair_bits;                 /* rap_tree_set_pairs: the leaf cache is keyed by (x, y) */
    uint64_t pair_mask;                 /* the low pair_bits bits */
    struct xc_entry *xc;                /* 2^XC_BITS entries (pair trees) */
    int split_before;                   /* cfg.split == RAP_SPLIT_BEFORE */

    uint64_t live, live_max;
    u128 node_time;                     /* sum over events of live nodes */
    uint64_t node_time_n;               /* n up to which node_time is summed */
    uint64_t updates, splits, merges, nodes_merged, refused, pool_grows;
    uint64_t visits;                    /* nodes read by update walks (root included) */

    struct rap_merge_rec *mlog;
    size_t nmlog, capmlog;
    struct rap_sample *slog;
    size_t nslog, capslog;
};

/* Bits of the key that the children of a node at depth d add. */
static inline unsigned level_bits(const struct rap_tree *t, unsigned d)
{
    unsigned used = d * t->k;
    return t->bits - used < t->k ? t->bits - used : t->k;
}

/* The subtree sums of inside[] (per node: the weight of the keys whose
 * deepest node it is, nodes + 1 .. of the tree's blocks) and fn for every
 * node with its span and its subtree's weight (rap_tree_walk_keys,
 * rap_tree_walk_pairs); returns the nodes walked or (size_t)-1. */
size_t rap_tree_walk_inside(const struct rap_tree *t, uint64_t *inside,
                            void (*fn)(void *ctx, const struct rap_span *s, uint64_t inside), void *ctx);

#endif
