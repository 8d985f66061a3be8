/* hhh_sort.h - sort a few 64-bit words with the processor's vector
 * instructions, when it has the ones needed (AVX-512F).
 *
 * For the hot path of a model that sorts many short arrays (hhh_ss.c sorts
 * the entries of each count it reaches): a bitonic network in registers,
 * several times faster there than a scalar sort.  The caller keeps a sort
 * of its own for the machines without it and for longer arrays. */
#ifndef HHH_SORT_H
#define HHH_SORT_H

#include <stdint.h>

#define HHH_SORT_MAX 128u

/* Sort a[0, n) ascending and return 1; or return 0, a untouched, when n >
 * HHH_SORT_MAX or the processor cannot (then the caller sorts). */
int hhh_sort_small(uint64_t *a, uint32_t n);
/* Tests: 1 makes hhh_sort_small always return 0 (the callers' own sorts). */
void hhh_sort_force_scalar(int off);

#endif
