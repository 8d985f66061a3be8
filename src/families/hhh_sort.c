/* hhh_sort.c - sort up to HHH_SORT_MAX 64-bit words in vector registers
 * (see hhh_sort.h).
 *
 * A bitonic sorting network (Batcher 1968) over P = 8, 16, ..., 128 words,
 * the n given and P - n copies of UINT64_MAX, held in P / 8 AVX-512
 * registers of 8 words.  The network is written in its "flip" form, where
 * every compare-exchange puts the lesser word in the lower place: for k =
 * 2, 4, ..., P the words i and i ^ (k - 1) of each block of k (the flip),
 * then for j = k / 4, ..., 1 the words i and i ^ j (the half-cleaners).
 * Between registers (j >= 8, or the flip of k >= 16) a compare-exchange is
 * one min and one max of whole registers (the flip's partner register
 * reversed, and its result reversed back); within a register (j < 8, or the
 * flip of k <= 8) the register is permuted to its partners, and a blend
 * takes the min in the lower place of each pair and the max in the upper.
 * Every step is the same whatever the words are: no branch depends on them.
 *
 * Compiled for AVX-512F through a function attribute and used only when the
 * processor has it (__builtin_cpu_supports); hhh_sort_small() returns 0
 * otherwise, and the caller sorts its own way.  The result is a sort either
 * way: nothing but the time depends on which one ran. */
#include "families/hhh_sort.h"

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
