/* rap2d_tree.c - 2-D RAP through bit interleaving (see rap2d_tree.h). */
#include "families/rap2d_tree.h"

#include <stdio.h>

/* the even bits of 64 -> 32 bits */
static uint64_t gather(uint64_t v)
{
    v &= 0x5555555555555555ull;
    v = (v | (v >> 1)) & 0x3333333333333333ull;
    v = (v | (v >> 2)) & 0x0f0f0f0f0f0f0f0full;
    v = (v | (v >> 4)) & 0x00ff00ff00ff00ffull;
    v = (v | (v >> 8)) & 0x0000ffff0000ffffull;
    v = (v | (v >> 16)) & 0x00000000ffffffffull;
    return v;
}

void rap2d_unkey(unsigned bits, uint64_t hi, uint64_t lo, uint64_t *x, uint64_t *y)
{
    (void)bits;
    *x = gather(lo >> 1) | (gather(hi >> 1) << 32);
    *y = gather(lo) | (gather(hi) << 32);
}

struct rap_tree *rap2d_create(unsigned bits, unsigned stride, const struct rap_tree_cfg *cfg, char *err, size_t errlen)
{
    if (bits < 1 || bits > 64) {
        snprintf(err, errlen, "key_bits must be in [1, 64] per dimension (got %u)", bits);
        return NULL;
    }
    if (stride < 1 || stride > RAP_MAX_STRIDE / 2) {
        snprintf(err, errlen, "2-D branching factor must be 4^1 .. 4^%d (stride %u per dimension)", RAP_MAX_STRIDE / 2,
                 stride);
        return NULL;
    }
    struct rap_tree_cfg c = *cfg;
    c.key_bits = 2 * bits;
    c.stride = 2 * stride;
    struct rap_tree *t = rap_tree_create(&c, err, errlen);
    if (t && rap_tree_set_pairs(t, bits) != 0) {
        rap_tree_free(t);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return t;
}

void rap2d_span_rect(unsigned bits, const struct rap_span *s, struct rap_rect *r)
{
    /* plen is even: a p-bit prefix of each coordinate */
    unsigned p = s->plen / 2, rest = bits - p;
    uint64_t xp, yp;
    rap2d_unkey(bits, s->pfx_hi, s->pfx_lo, &xp, &yp);
    uint64_t span = rest >= 64 ? ~0ull : (1ull << rest) - 1;
    r->xlo = rest >= 64 ? 0 : xp << rest;
    r->ylo = rest >= 64 ? 0 : yp << rest;
    r->xhi = r->xlo | span;
    r->yhi = r->ylo | span;
}
