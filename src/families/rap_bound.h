/* rap_bound.h - worst-case node counts of the RAP tree (Mysore et al.,
 * Figures 2 and 3), derived for the tree of rap_tree.h.
 *
 * The paper gives the curves, not the formulas; these are ours, proved for
 * our split and merge rules (paper-repro.md sets them beside the paper's
 * numbers).  Notation: L = ceil(key_bits / stride) levels, b = 2^stride,
 * thr(n) = floor(eps n / L) (eps as round(eps 1e9) / 1e9, like the tree),
 * s_d = bits the children of a depth-d node add (stride, less on a short
 * last level), and P_d = 2^(d stride) the possible nodes at depth d.
 *
 *   full      every node of the complete trie: sum_{d=0..L} 2^min(d stride, key_bits).
 *   unmerged  a node has children only after a split and a split is one per
 *             event at most, so live nodes <= 1 + b n.
 *   post-merge(n)  right after a merge at n every internal node P whose
 *             children are all leaves still has a leaf child c with
 *             count(P) + count(c) > thr(n) (the lightest leaf did not fold);
 *             these "families" are disjoint and hold at most n events, so
 *             there are F(n) <= min(n, floor(n / (thr(n) + 1))) of them, and
 *             F(n) < L / eps.  Every internal node lies on the path from the
 *             root to one of them, so at most min(P_d, F) internal nodes at
 *             depth d, each with at most 2^(s_d) children:
 *                 1 + sum_{d=0..L-1} min(P_d, F(n)) 2^(s_d).
 *   continuous  merging after every event keeps the post-merge shape at all
 *             times but for the one split of the current event: post-merge(n) + b.
 *   batched   merges at m_i = ceil(m0 q^i).  After event n, with m_k < n <=
 *             m_(k+1) the last merge before it, each split since m_k was of a
 *             distinct node (a split node has all its children and gets no
 *             more events until a merge) whose counter exceeded thr(t) >=
 *             thr(m_k + 1), and counters hold at most n events:
 *                 S <= min(n - m_k, floor(n / (thr(m_k + 1) + 1)))  splits,
 *                 nodes <= post-merge(m_k) + b S.
 *             Before the first merge, 1 + b n.  The peak of a period is at
 *             its end (just before the merge), so the maximum over [1, N] is
 *             the largest of those ends and of N.
 * Every bound is also capped by `full` and `unmerged`.
 *
 * Those are for split rule `after`.  Under `before` (the default) a node is
 * split when its counter c would pass the threshold, c + 1 > thr(t), i.e.
 * c >= thr(t), and the event goes on down: while thr = 0 (n < L / eps) one
 * event may split a node at every level, and the nodes split at depth d
 * are distinct, so k such events split at most Z(k) = sum_{d<L} min(P_d, k)
 * nodes; once thr >= 1 a new child (count 0) takes the event without
 * splitting, one split at most.  So:
 *   unmerged   1 + b Z(n);   continuous  post-merge(n) + b (L while thr(n) = 0);
 *   batched    S <= min(n - m_k, floor(n / thr(m_k + 1))) when thr(m_k + 1)
 *              >= 1 (split nodes are distinct and held >= thr events each),
 *              else S <= Z(n - m_k); before the first merge 1 + b Z(n).
 * The post-merge shape is the merge rule's and holds under both.  The
 * start-up term makes the `before` bound larger, and not monotone in q
 * (a period that starts while thr = 0 may split L times per event).
 *
 * For b = 4, R = 2^32, eps = 1%: F < 1600, continuous 69,425 nodes (after)
 * and 69,485 (before); batched with q = 2 peaks at 82,217 nodes (after) and
 * 87,381 (before) over 2^32 events (m0 = 1024).
 */
#ifndef RAP_BOUND_H
#define RAP_BOUND_H

#include <stdint.h>
#include "families/rap_tree.h" /* enum rap_split */

struct rap_bound_cfg {
    unsigned key_bits;     /* log2 R, 1..128 */
    unsigned stride;       /* log2 b, 1..16 */
    double eps;            /* (0, 1] */
    double q;              /* merge period ratio > 1 */
    uint64_t merge_first;  /* m0: first merge after this many events */
    enum rap_split split;  /* the tree's split rule (0: before) */
};

unsigned rap_bound_levels(const struct rap_bound_cfg *c);
uint64_t rap_bound_threshold(const struct rap_bound_cfg *c, uint64_t n);
/* F(n) and its supremum over n (the largest integer below L / eps). */
uint64_t rap_bound_families(const struct rap_bound_cfg *c, uint64_t n);
uint64_t rap_bound_families_sup(const struct rap_bound_cfg *c);
/* Merge point i (0-based), as the tree schedules it; UINT64_MAX past 2^64.
 * rap_bound_next_merge: point i given point i - 1 (0 for i = 0), in O(1). */
uint64_t rap_bound_merge_point(const struct rap_bound_cfg *c, unsigned i);
uint64_t rap_bound_next_merge(const struct rap_bound_cfg *c, unsigned i, uint64_t prev);

double rap_bound_full(const struct rap_bound_cfg *c);
/* Nodes right after a merge at n with F families (the shape bound). */
double rap_bound_shape(const struct rap_bound_cfg *c, uint64_t families);
double rap_bound_post_merge(const struct rap_bound_cfg *c, uint64_t n);
/* Live nodes after event n (before a merge at n), merging every event / in batches. */
double rap_bound_continuous(const struct rap_bound_cfg *c, uint64_t n);
double rap_bound_batched(const struct rap_bound_cfg *c, uint64_t n);
/* The same when the last merge point before n is known: mk < n. */
double rap_bound_batched_after(const struct rap_bound_cfg *c, uint64_t mk, uint64_t n);
/* Maximum over n in [1, N]. */
double rap_bound_continuous_max(const struct rap_bound_cfg *c, uint64_t N);
double rap_bound_batched_max(const struct rap_bound_cfg *c, uint64_t N);
/* Merges during N events. */
uint64_t rap_bound_merges(const struct rap_bound_cfg *c, uint64_t N);

#endif
