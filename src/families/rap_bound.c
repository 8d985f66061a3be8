/* rap_bound.c - worst-case node counts of the RAP tree (see rap_bound.h for
 * the derivation). */
#include "families/rap_bound.h"

#include <math.h>

__extension__ typedef unsigned __int128 u128;

#define EPS_SCALE 1000000000ull /* as the tree: eps = round(eps 1e9) / 1e9 */

unsigned rap_bound_levels(const struct rap_bound_cfg *c)
{
    return (c->key_bits + c->stride - 1) / c->stride;
}

static uint64_t eps_num(const struct rap_bound_cfg *c)
{
    long long e = llround(c->eps * (double)EPS_SCALE);
    return e < 1 ? 1 : (uint64_t)e;
}

uint64_t rap_bound_threshold(const struct rap_bound_cfg *c, uint64_t n)
{
    return (uint64_t)((u128)n * eps_num(c) / ((u128)rap_bound_levels(c) * EPS_SCALE));
}

uint64_t rap_bound_families(const struct rap_bound_cfg *c, uint64_t n)
{
    uint64_t f = n / (rap_bound_threshold(c, n) + 1);
    return f < n ? f : n;
}

uint64_t rap_bound_families_sup(const struct rap_bound_cfg *c)
{
    /* largest F with F < L / eps, i.e. F * num < L * 1e9 */
    u128 den = (u128)rap_bound_levels(c) * EPS_SCALE;
    return (uint64_t)((den - 1) / eps_num(c));
}

/* Merge point i given point i - 1 (0 before the first): the tree's
 * schedule, including its rule that points strictly increase. */
uint64_t rap_bound_next_merge(const struct rap_bound_cfg *c, unsigned i, uint64_t prev)
{
    if (prev == UINT64_MAX)
        return UINT64_MAX;
    double x = ceil((double)c->merge_first * pow(c->q, (double)i));
    uint64_t p = x >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)x;
    return p <= prev ? prev + 1 : p;
}

uint64_t rap_bound_merge_point(const struct rap_bound_cfg *c, unsigned i)
{
    uint64_t p = 0;
    for (unsigned j = 0; j <= i; j++)
        p = rap_bound_next_merge(c, j, p);
    return p;
}

/* bits the children of a depth-d node add */
static unsigned level_bits(const struct rap_bound_cfg *c, unsigned d)
{
    unsigned used = d * c->stride;
    return c->key_bits - used < c->stride ? c->key_bits - used : c->stride;
}

double rap_bound_full(const struct rap_bound_cfg *c)
{
    double sum = 0;
    unsigned L = rap_bound_levels(c);
    for (unsigned d = 0; d <= L; d++) {
        unsigned bits = d * c->stride < c->key_bits ? d * c->stride : c->key_bits;
        sum += ldexp(1.0, (int)bits);
    }
    return sum;
}

/* Splits that `events` events can cause while the threshold is thr: one
 * each, except under `before` with thr = 0, where an event splits at most
 * one node per level on its way down to depth L, and the nodes split at
 * depth d are distinct, at most P_d = 2^(d stride) of them. */
static double splits_by(const struct rap_bound_cfg *c, uint64_t thr, uint64_t events)
{
    if (c->split != RAP_SPLIT_BEFORE || thr != 0)
        return (double)events;
    double sum = 0;
    unsigned L = rap_bound_levels(c);
    for (unsigned d = 0; d < L; d++) {
        double possible = ldexp(1.0, (int)(d * c->stride));
        sum += possible < (double)events ? possible : (double)events;
    }
    return sum;
}

static double cap(const struct rap_bound_cfg *c, uint64_t n, double v)
{
    double full = rap_bound_full(c);
    double unmerged = 1.0 + ldexp(splits_by(c, 0, n), (int)c->stride);
    if (v > full)
        v = full;
    if (v > unmerged)
        v = unmerged;
    return v;
}

double rap_bound_shape(const struct rap_bound_cfg *c, uint64_t families)
{
    double sum = 1;
    unsigned L = rap_bound_levels(c);
    for (unsigned d = 0; d < L; d++) {
        double possible = ldexp(1.0, (int)(d * c->stride));
        double internal = possible < (double)families ? possible : (double)families;
        sum += internal * ldexp(1.0, (int)level_bits(c, d));
    }
    return sum;
}

double rap_bound_post_merge(const struct rap_bound_cfg *c, uint64_t n)
{
    return cap(c, n, rap_bound_shape(c, rap_bound_families(c, n)));
}

double rap_bound_continuous(const struct rap_bound_cfg *c, uint64_t n)
{
    if (n == 0)
        return 1;
    double per = splits_by(c, rap_bound_threshold(c, n), 1);
    return cap(c, n, rap_bound_shape(c, rap_bound_families(c, n)) + ldexp(per, (int)c->stride));
}

double rap_bound_batched_after(const struct rap_bound_cfg *c, uint64_t mk, uint64_t n)
{
    uint64_t thr = rap_bound_threshold(c, mk + 1);
    double splits, events = splits_by(c, thr, n - mk);
    if (c->split == RAP_SPLIT_BEFORE) /* a split node's counter was >= thr(t) >= thr */
        splits = thr ? (double)(n / thr) : events;
    else
        splits = (double)(n / (thr + 1));
    if (splits > events)
        splits = events;
    return cap(c, n, rap_bound_post_merge(c, mk) + ldexp(splits, (int)c->stride));
}

double rap_bound_batched(const struct rap_bound_cfg *c, uint64_t n)
{
    if (c->merge_first == 0 || n <= c->merge_first)
        return cap(c, n, 1.0 + ldexp(splits_by(c, 0, n), (int)c->stride));
    uint64_t mk = rap_bound_next_merge(c, 0, 0);
    for (unsigned i = 1;; i++) {
        uint64_t next = rap_bound_next_merge(c, i, mk);
        if (next >= n)
            break;
        mk = next;
    }
    return rap_bound_batched_after(c, mk, n);
}

double rap_bound_continuous_max(const struct rap_bound_cfg *c, uint64_t N)
{
    uint64_t f = rap_bound_families_sup(c);
    if (f > N)
        f = N;
    /* Under `before`, an event may split L times while thr(n) = 0, i.e. for
     * n below L / eps: then F(n) <= n <= the same supremum. */
    return cap(c, N, rap_bound_shape(c, f) + ldexp(splits_by(c, 0, 1), (int)c->stride));
}

double rap_bound_batched_max(const struct rap_bound_cfg *c, uint64_t N)
{
    if (c->merge_first == 0 || N <= c->merge_first)
        return rap_bound_batched(c, N);
    uint64_t mk = rap_bound_next_merge(c, 0, 0);
    double best = rap_bound_batched(c, mk);
    for (unsigned i = 1;; i++) {
        uint64_t next = rap_bound_next_merge(c, i, mk);
        uint64_t end = next < N ? next : N;
        double v = rap_bound_batched_after(c, mk, end);
        if (v > best)
            best = v;
        if (next >= N)
            break;
        mk = next;
    }
    return best;
}

uint64_t rap_bound_merges(const struct rap_bound_cfg *c, uint64_t N)
{
    if (c->merge_first == 0)
        return 0;
    uint64_t k = 0, p = 0;
    while ((p = rap_bound_next_merge(c, (unsigned)k, p)) <= N && p != UINT64_MAX)
        k++;
    return k;
}
