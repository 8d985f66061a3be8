/* rap2d_tree.h - two-dimensional RAP (Mysore et al., section 5.5): a tree
 * over pairs (x, y), e.g. code address x data address (Figure 13), whose
 * nodes cover rectangles [xlo, xhi] x [ylo, yhi].
 *
 * "The same algorithm ... except that the nodes store N-dimensional
 * ranges": a split halves a node's rectangle `stride` times in each
 * dimension, so a node has b = 4^stride children (stride 1: a quadtree).
 * We get exactly that from the one-dimensional tree (rap_tree.h) by
 * interleaving the bits of x and y (Morton order, x's bit first): a prefix of
 * 2p bits of the interleaved key is a p-bit prefix of x and a p-bit prefix
 * of y, i.e. an aligned rectangle, and a level of 2 * stride interleaved
 * bits refines both dimensions by stride bits.  The tree over 2 * bits-bit
 * keys has L = ceil(bits / stride) levels, the height of the 2-D hierarchy,
 * so the split threshold eps n / L and the error bound carry over
 * (a rectangle's estimate is within eps n of its exact count, up to one
 * event per level).  The trie walk, the merging buffer, merges, hot ranges
 * and memory accounting are the 1-D code's.
 *
 * Example: bits = 4, x = 0b1010, y = 0b0110 -> key 0b10011100 (x3 y3 x2 y2 x1 y1 x0 y0).
 */
#ifndef RAP2D_TREE_H
#define RAP2D_TREE_H

#include <stdint.h>
#include "families/rap_tree.h"

struct rap_rect {
    uint64_t xlo, xhi, ylo, yhi;
};

/* A 2-D tree over bits-wide coordinates (1..64), stride bits per dimension
 * and level (1..8): cfg's key_bits and stride are set from them. */
struct rap_tree *rap2d_create(unsigned bits, unsigned stride, const struct rap_tree_cfg *cfg, char *err, size_t errlen);

/* 32 bits -> the even bits of 64 */
static inline uint64_t rap2d_spread(uint64_t v)
{
    v &= 0xffffffffull;
    v = (v | (v << 16)) & 0x0000ffff0000ffffull;
    v = (v | (v << 8)) & 0x00ff00ff00ff00ffull;
    v = (v | (v << 4)) & 0x0f0f0f0f0f0f0f0full;
    v = (v | (v << 2)) & 0x3333333333333333ull;
    v = (v | (v << 1)) & 0x5555555555555555ull;
    return v;
}

/* The interleaved key of (x, y) (their low bits bits), as hi:lo (inline:
 * the 2-D profile computes one per event). */
static inline void rap2d_key(unsigned bits, uint64_t x, uint64_t y, uint64_t *hi, uint64_t *lo)
{
    if (bits < 64) {
        x &= (1ull << bits) - 1;
        y &= (1ull << bits) - 1;
    }
    *lo = (rap2d_spread(x) << 1) | rap2d_spread(y);
    *hi = (rap2d_spread(x >> 32) << 1) | rap2d_spread(y >> 32);
}
/* Inverse: x and y of an interleaved key. */
void rap2d_unkey(unsigned bits, uint64_t hi, uint64_t lo, uint64_t *x, uint64_t *y);

static inline void rap2d_add(struct rap_tree *t, unsigned bits, uint64_t x, uint64_t y, uint64_t w)
{
    uint64_t hi, lo;
    rap2d_key(bits, x, y, &hi, &lo);
    rap_tree_add_wide(t, hi, lo, w);
}

/* The rectangle of a span of a 2-D tree over bits-wide coordinates. */
void rap2d_span_rect(unsigned bits, const struct rap_span *s, struct rap_rect *r);

#endif
