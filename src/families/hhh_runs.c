/* hhh_runs.c - the run ends of a batch of keys (see hhh_runs.h).
 *
 * (adj + clz) / stride, for adj + clz in [0, 64) and stride in [1, 16], is
 * (x * M) >> 16 with M = ceil(2^16 / stride): x * M / 2^16 exceeds x /
 * stride by less than 64 / 2^16 < 1 / stride, too little to reach the next
 * integer.  The vector path needs no table of it, and the scalar path
 * computes it the same way. */
#include "families/hhh_runs.h"

static inline uint32_t first_diff(unsigned x, uint32_t mul) { return ((x * mul) >> 16) + 1; }

static uint32_t run_ends_scalar(const uint64_t *kb, uint32_t from, uint32_t nb, unsigned adj, uint32_t mul,
                                uint32_t *rl, uint32_t nr)
{
    for (uint32_t i = from; i <= nb; i++) {
        uint64_t d = kb[i] ^ kb[i - 1];
        rl[nr] = i << 8 | (d ? first_diff(adj + (unsigned)__builtin_clzll(d | 1), mul) : 0);
        nr += d != 0;
    }
    return nr;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(HHH_SORT_PORTABLE)
#include <immintrin.h>

#define HAVE_VECTOR 1

/* Keys 1 .. 8k (k = nb / 8) in groups of eight: the differing ones'
 * words, compressed together in a register and stored whole (rl has room
 * for eight words past the last). */
__attribute__((target("avx512f,avx512cd,avx512vl"))) static uint32_t run_ends_avx512(const uint64_t *kb, uint32_t nb,
                                                                                   unsigned adj, uint32_t mul,
                                                                                   uint32_t *rl, uint32_t *upto)
{
    uint32_t nr = 0, i = 1;
    const __m512i vadj = _mm512_set1_epi64((int64_t)(int32_t)adj), vmul = _mm512_set1_epi64(mul);
    const __m512i one = _mm512_set1_epi64(1), step = _mm512_set1_epi64(8 << 8);
    __m512i pos = _mm512_slli_epi64(_mm512_set_epi64(8, 7, 6, 5, 4, 3, 2, 1), 8);
    for (; i + 7 <= nb; i += 8) {
        const __m512i a = _mm512_loadu_si512((const void *)(kb + i));
        const __m512i b = _mm512_loadu_si512((const void *)(kb + i - 1));
        const __m512i d = _mm512_xor_si512(a, b);
        const __mmask8 m = _mm512_test_epi64_mask(d, d);
        const __m512i x = _mm512_add_epi64(_mm512_lzcnt_epi64(_mm512_or_si512(d, one)), vadj);
        const __m512i fd = _mm512_add_epi64(_mm512_srli_epi64(_mm512_mul_epu32(x, vmul), 16), one);
        const __m256i w = _mm512_cvtepi64_epi32(_mm512_or_si512(pos, fd));
        _mm256_storeu_si256((__m256i *)(void *)(rl + nr), _mm256_maskz_compress_epi32(m, w));
        nr += (uint32_t)__builtin_popcount(m);
        pos = _mm512_add_epi64(pos, step);
    }
    *upto = i;
    return nr;
}
#endif

static int forced_off; /* hhh_runs_force_scalar */

void hhh_runs_force_scalar(int off) { forced_off = off; }

uint32_t hhh_run_ends(const uint64_t *kb, uint32_t nb, unsigned adj, unsigned stride, uint32_t *rl)
{
    const uint32_t mul = (65536u + stride - 1) / stride;
    uint32_t nr = 0, from = 1;
#ifdef HAVE_VECTOR
    if (!forced_off && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
        __builtin_cpu_supports("avx512vl"))
        nr = run_ends_avx512(kb, nb, adj, mul, rl, &from);
#endif
    return run_ends_scalar(kb, from, nb, adj, mul, rl, nr);
}
