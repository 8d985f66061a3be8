/* hhh_runs.h - the run ends of a batch of keys (hhh_ss.c, mst_batch).
 *
 * A key that differs from the one before it ends the current run of every
 * level from the first whose prefixes of the two differ: for kb[i]
 * (1 <= i <= nb) with d = kb[i] ^ kb[i - 1] != 0, the word
 * i << 8 | (adj + clz(d)) / stride + 1, where the keys have key_bits bits
 * and adj = key_bits - 64 (mod 2^32: adj + clz(d) is the number of top
 * bits the two agree in).  On x86-64 with AVX-512 (F, CD, VL) eight keys
 * at a time, in vector registers; else one by one.  Both give the same
 * words. */
#ifndef HHH_RUNS_H
#define HHH_RUNS_H

#include <stdint.h>

/* The words of the run ends of kb[1 .. nb], in order, into rl (room for
 * nb + 8 words); returns how many.  stride: 1 .. 16. */
uint32_t hhh_run_ends(const uint64_t *kb, uint32_t nb, unsigned adj, unsigned stride, uint32_t *rl);
/* Tests: 1 makes hhh_run_ends take the keys one by one everywhere. */
void hhh_runs_force_scalar(int off);

#endif
