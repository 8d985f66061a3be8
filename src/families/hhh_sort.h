/* hhh_sort.h - the sorts of hhh_ss.c: the entries filed under the least
 * count, in key order (hhh_ss.c, ss_activate).
 *
 * Most often they are a few dozen 64-bit words: a bitonic network in
 * AVX-512 registers sorts them several times faster than a scalar sort
 * (hhh_sort_small), where the processor has it; hhh_sort_u64 is the scalar
 * sort for the other machines and longer arrays, and hhh_sort_act sorts
 * (key, id) pairs whose key bits and id do not fit in one word. */
#ifndef HHH_SORT_H
#define HHH_SORT_H

#include <stdint.h>

#define HHH_SORT_MAX 128u

/* An entry by key: its key and id. */
struct hhh_act {
    uint64_t key;
    uint32_t id;
};

/* Sort a[0, n) ascending and return 1; or return 0, a untouched, when n >
 * HHH_SORT_MAX or the processor cannot (then the caller sorts). */
int hhh_sort_small(uint64_t *a, uint32_t n);
/* Tests: 1 makes hhh_sort_small always return 0 (the callers' own sorts). */
void hhh_sort_force_scalar(int off);
/* Sort a[0, n) ascending, tmp[0, n) as scratch; n a multiple of 8 is
 * fastest (whole networks); a[-1], a[n], tmp[-1] and tmp[n] must be
 * readable.  Equal words only as copies of one value. */
void hhh_sort_u64(uint64_t *a, uint64_t *tmp, uint32_t n);
/* Sort a[0, n) by key (keys distinct), tmp[0, n) as scratch. */
void hhh_sort_act(struct hhh_act *a, struct hhh_act *tmp, uint32_t n);

#endif
