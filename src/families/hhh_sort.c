/* hhh_sort.c - sorting the minima of hhh_ss.c (see hhh_sort.h): the
 * entries filed under the least count, by key, as 64-bit words (key bits
 * above the entry's id) or, when those do not fit, as (key, id) pairs.
 *
 * Words: in vector registers (hhh_sort_small) where the processor can and
 * they are few, else by a scalar network-and-merge sort (hhh_sort_u64).
 *
 * hhh_sort_small is a bitonic sorting network (Batcher 1968) over P = 8,
 * 16, ..., 128 words, the n given and P - n copies of UINT64_MAX, held in
 * P / 8 AVX-512 registers of 8 words.  The network is written in its
 * "flip" form, where every compare-exchange puts the lesser word in the
 * lower place: for k = 2, 4, ..., P the words i and i ^ (k - 1) of each
 * block of k (the flip), then for j = k / 4, ..., 1 the words i and i ^ j
 * (the half-cleaners).  Between registers (j >= 8, or the flip of k >= 16)
 * a compare-exchange is one min and one max of whole registers (the flip's
 * partner register reversed, and its result reversed back); within a
 * register (j < 8, or the flip of k <= 8) the register is permuted to its
 * partners, and a blend takes the min in the lower place of each pair and
 * the max in the upper.  Every step is the same whatever the words are: no
 * branch depends on them.  It is compiled for AVX-512F through a function
 * attribute and used only when the processor has it
 * (__builtin_cpu_supports); it returns 0 otherwise, and the caller sorts
 * with hhh_sort_u64.  The result is a sort either way: nothing but the time
 * depends on which one ran. */
#include "families/hhh_sort.h"

#include <string.h>

/* Merge s[0, w) and s[w, 2w), each ascending, into d[0, 2w): the w least
 * from the two fronts and the w greatest from the two backs, two chains of
 * loads and compares that do not wait for each other.  Neither side reads
 * past its runs: after k < w steps a front has taken k values, so neither
 * run is spent, and alike from the backs.  The fronts give the w least
 * values in order and the backs the w greatest, so d is the 2w values
 * sorted.  Where values repeat (the all-ones padding of hhh_sort_u64's
 * callers) both ends may take the same copy and leave another: the values
 * in d are the same. */
static inline void merge_even(const uint64_t *s, uint64_t *d, uint32_t w)
{
    int64_t l = 0, r = w, lb = (int64_t)w - 1, rb = 2 * (int64_t)w - 1; /* lb, rb end at -1, w - 1 at worst */
    for (uint32_t k = 0; k < w; k++) {
        uint64_t x = s[l], y = s[r];
        int64_t t = y < x;
        d[k] = t ? y : x;
        r += t;
        l += t ^ 1;
        uint64_t xb = s[lb], yb = s[rb];
        int64_t tb = yb > xb;
        d[2 * w - 1 - k] = tb ? yb : xb;
        rb -= tb;
        lb -= tb ^ 1;
    }
}

/* Merge s[lo, mid) and s[mid, hi), each ascending (equal values as in
 * merge_even), into d[lo, hi) from both ends as merge_even does, for runs of unequal
 * lengths (the last of a pass): a front or back may spend a run, and then
 * takes from the other one.  The read of a spent run (s[mid] or s[hi] at
 * the front, s[mid - 1] or s[lo - 1] at the back) is not used; s[lo - 1]
 * and s[hi] must be readable. */
static inline void merge_ends(const uint64_t *s, uint64_t *d, uint32_t lo, uint32_t mid, uint32_t hi)
{
    const int64_t a = lo, m = mid, z = hi;
    int64_t l = a, r = m, lb = m - 1, rb = z - 1;
    uint32_t nb = (hi - lo) / 2, k = 0; /* the back takes nb, the front the rest */
    for (; k < nb; k++) {
        uint64_t x = s[l], y = s[r];
        int64_t t = (l == m) | ((r < z) & (y < x));
        d[lo + k] = t ? y : x;
        r += t;
        l += t ^ 1;
        uint64_t xb = s[lb], yb = s[rb];
        int64_t tb = (lb < a) | ((rb >= m) & (yb > xb));
        d[hi - 1 - k] = tb ? yb : xb;
        rb -= tb;
        lb -= tb ^ 1;
    }
    if (hi - lo > 2 * nb) { /* an odd count: the middle value */
        uint64_t x = s[l], y = s[r];
        d[lo + k] = (l == m) | ((r < z) & (y < x)) ? y : x;
    }
}

/* Sort a[0, n) ascending, tmp[0, n) as scratch: runs of 8 by a sorting
 * network (19 comparators, all independent of each other's outcome within
 * a layer), then bottom-up merges - one merge pass fewer than runs of 4,
 * and a merge step costs a load-compare chain where the network's compare-
 * exchanges overlap.  Two runs of the same length merge from both ends at
 * once (merge_even: on cc1's code stream, hhh's time above decoding went
 * from 0.60 to 0.58 s), and so does the shorter last run of a pass with
 * the one before (merge_ends: a single chain from the front was the
 * longest of the sort).  Which of two keys is less is anyone's guess, so
 * every choice is arithmetic (conditional moves), not a branch.  a[-1],
 * a[n], tmp[-1] and tmp[n] must be readable (merge_ends). */
void hhh_sort_u64(uint64_t *a, uint64_t *tmp, uint32_t n)
{
#define CSWAP(x, y)                       \
    do {                                  \
        uint64_t lo_ = x < y ? x : y;     \
        uint64_t hi_ = x < y ? y : x;     \
        x = lo_;                          \
        y = hi_;                          \
    } while (0)
    uint32_t r = 0;
    for (; r + 8 <= n; r += 8) {
        uint64_t x0 = a[r], x1 = a[r + 1], x2 = a[r + 2], x3 = a[r + 3];
        uint64_t x4 = a[r + 4], x5 = a[r + 5], x6 = a[r + 6], x7 = a[r + 7];
        CSWAP(x0, x2);
        CSWAP(x1, x3);
        CSWAP(x4, x6);
        CSWAP(x5, x7);
        CSWAP(x0, x4);
        CSWAP(x1, x5);
        CSWAP(x2, x6);
        CSWAP(x3, x7);
        CSWAP(x0, x1);
        CSWAP(x2, x3);
        CSWAP(x4, x5);
        CSWAP(x6, x7);
        CSWAP(x2, x4);
        CSWAP(x3, x5);
        CSWAP(x1, x4);
        CSWAP(x3, x6);
        CSWAP(x1, x2);
        CSWAP(x3, x4);
        CSWAP(x5, x6);
        a[r] = x0;
        a[r + 1] = x1;
        a[r + 2] = x2;
        a[r + 3] = x3;
        a[r + 4] = x4;
        a[r + 5] = x5;
        a[r + 6] = x6;
        a[r + 7] = x7;
    }
    for (uint32_t i = r + 1; i < n; i++) /* a tail of at most 7 */
        for (uint32_t j = i; j > r && a[j] < a[j - 1]; j--)
            CSWAP(a[j - 1], a[j]);
#undef CSWAP
    uint64_t *src = a, *dst = tmp;
    for (uint32_t w = 8; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            if (hi - lo == 2 * w)
                merge_even(src + lo, dst + lo, w);
            else if (mid < hi)
                merge_ends(src, dst, lo, mid, hi);
            else /* a lone run */
                memcpy(dst + lo, src + lo, (hi - lo) * sizeof *src);
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

/* Sort a[0, n) by key (keys distinct), tmp[0, n) as scratch: insertion
 * sorted runs of 4, then bottom-up merges choosing by arithmetic. */
void hhh_sort_act(struct hhh_act *a, struct hhh_act *tmp, uint32_t n)
{
    for (uint32_t r = 0; r < n; r += 4) {
        uint32_t e = r + 4 < n ? r + 4 : n;
        for (uint32_t i = r + 1; i < e; i++) {
            struct hhh_act x = a[i];
            uint32_t j = i;
            for (; j > r && a[j - 1].key > x.key; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    struct hhh_act *src = a, *dst = tmp;
    for (uint32_t w = 4; w < n; w *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * w) {
            uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                uint64_t ka = src[i].key, kb = src[j].key;
                uint32_t ia = src[i].id, ib = src[j].id;
                uint32_t tb = kb < ka;
                uint64_t mk = 0 - (uint64_t)tb; /* all ones: take j's */
                dst[k].key = (ka & ~mk) | (kb & mk);
                dst[k].id = (ia & ~(uint32_t)mk) | (ib & (uint32_t)mk);
                k++;
                j += tb;
                i += tb ^ 1;
            }
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        struct hhh_act *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, n * sizeof *a);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(HHH_SORT_PORTABLE)
#include <immintrin.h>

#define T __attribute__((target("avx512f"), always_inline)) static inline

/* Compare-exchange the lanes of x with the lanes idx names; the lanes set
 * in upper take the max. */
T __m512i cx_in(__m512i x, __m512i idx, __mmask8 upper)
{
    __m512i p = _mm512_permutexvar_epi64(idx, x);
    return _mm512_mask_blend_epi64(upper, _mm512_min_epu64(x, p), _mm512_max_epu64(x, p));
}

/* The half-cleaners within every register: j = 4, 2, 1. */
T void clean_in(__m512i *v, unsigned nv)
{
    const __m512i i4 = _mm512_set_epi64(3, 2, 1, 0, 7, 6, 5, 4);
    const __m512i i2 = _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2);
    const __m512i i1 = _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1);
#pragma GCC unroll 16
    for (unsigned r = 0; r < nv; r++) {
        v[r] = cx_in(v[r], i4, 0xF0);
        v[r] = cx_in(v[r], i2, 0xCC);
        v[r] = cx_in(v[r], i1, 0xAA);
    }
}

/* Sort the nv registers of v (nv = P / 8, a power of two up to 16). */
T void bitonic(__m512i *v, const unsigned nv)
{
    const __m512i rev = _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i i1 = _mm512_set_epi64(6, 7, 4, 5, 2, 3, 0, 1);
    /* k = 2, 4, 8: within each register */
#pragma GCC unroll 16
    for (unsigned r = 0; r < nv; r++) {
        __m512i x = v[r];
        x = cx_in(x, i1, 0xAA);  /* k = 2: flip i ^ 1 */
        x = cx_in(x, _mm512_set_epi64(4, 5, 6, 7, 0, 1, 2, 3), 0xCC); /* k = 4: flip i ^ 3 */
        x = cx_in(x, i1, 0xAA);
        x = cx_in(x, rev, 0xF0); /* k = 8: flip i ^ 7 */
        x = cx_in(x, _mm512_set_epi64(5, 4, 7, 6, 1, 0, 3, 2), 0xCC);
        x = cx_in(x, i1, 0xAA);
        v[r] = x;
    }
    /* k = 16 .. 8 nv: kv registers per block */
#pragma GCC unroll 4
    for (unsigned kv = 2; kv <= nv; kv *= 2) {
#pragma GCC unroll 8
        for (unsigned b = 0; b < nv; b += kv)
#pragma GCC unroll 8
            for (unsigned i = 0; i < kv / 2; i++) {
                __m512i a = v[b + i], c = _mm512_permutexvar_epi64(rev, v[b + kv - 1 - i]);
                v[b + i] = _mm512_min_epu64(a, c);
                v[b + kv - 1 - i] = _mm512_permutexvar_epi64(rev, _mm512_max_epu64(a, c));
            }
#pragma GCC unroll 4
        for (unsigned jv = kv / 4; jv >= 1; jv /= 2)
#pragma GCC unroll 16
            for (unsigned r = 0; r < nv; r++)
                if (!(r & jv)) {
                    __m512i a = v[r], c = v[r + jv];
                    v[r] = _mm512_min_epu64(a, c);
                    v[r + jv] = _mm512_max_epu64(a, c);
                }
        clean_in(v, nv);
    }
}

/* Load n words (the rest UINT64_MAX) into nv registers, sort, store n. */
T void sort_regs(uint64_t *a, uint32_t n, const unsigned nv)
{
    __m512i v[16];
    const __m512i top = _mm512_set1_epi64(-1);
#pragma GCC unroll 16
    for (unsigned r = 0; r < nv; r++) {
        uint32_t have = n > 8 * r ? n - 8 * r : 0;
        __mmask8 m = have >= 8 ? 0xFF : (__mmask8)((1u << have) - 1);
        v[r] = _mm512_mask_loadu_epi64(top, m, a + 8 * r);
    }
    bitonic(v, nv);
#pragma GCC unroll 16
    for (unsigned r = 0; r < nv; r++) {
        uint32_t have = n > 8 * r ? n - 8 * r : 0;
        __mmask8 m = have >= 8 ? 0xFF : (__mmask8)((1u << have) - 1);
        _mm512_mask_storeu_epi64(a + 8 * r, m, v[r]);
    }
}

__attribute__((target("avx512f"))) static void sort_avx512(uint64_t *a, uint32_t n)
{
    if (n <= 8)
        sort_regs(a, n, 1);
    else if (n <= 16)
        sort_regs(a, n, 2);
    else if (n <= 32)
        sort_regs(a, n, 4);
    else if (n <= 64)
        sort_regs(a, n, 8);
    else
        sort_regs(a, n, 16);
}

static int forced_off; /* hhh_sort_force_scalar */

int hhh_sort_small(uint64_t *a, uint32_t n)
{
    if (forced_off || n > HHH_SORT_MAX || !__builtin_cpu_supports("avx512f"))
        return 0;
    if (n > 1)
        sort_avx512(a, n);
    return 1;
}

void hhh_sort_force_scalar(int off) { forced_off = off; }

#else

int hhh_sort_small(uint64_t *a, uint32_t n)
{
    (void)a;
    (void)n;
    return 0;
}

void hhh_sort_force_scalar(int off) { (void)off; }

#endif
