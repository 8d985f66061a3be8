/* hps_phases.h - the sampling phases of an HPS run, and the mean of a
 * metric over them.
 *
 * Where a window starts in the sampling period is an accident of the
 * window, not a property of the sampler: position 0 (a full gap of
 * sparsity sampling events before the first burst) gives the fewest bursts
 * and the shortest first burst's reach.  The HPS models therefore run
 * `phases` samplers side by side over the same window, sampler k starting
 * at counter position
 *
 *     (phase + floor(k * L / n)) mod L,   k = 0 .. n - 1,   L = burst + sparsity
 *
 * (evenly spaced over the period, the first at `phase`), and report the
 * mean over the samplers of each per-sampler metric.  n is `phases`
 * clamped to L: with L <= phases every position of the period is used
 * once.  One phase (phases = 1) is the single sampler starting at `phase`.
 */
#ifndef HPS_PHASES_H
#define HPS_PHASES_H

#include <stddef.h>
#include <stdint.h>

/* Samplers per run at most (bit k of a uint32_t mask is sampler k). */
#define HPS_MAX_PHASES 32

/* Samplers actually run: phases clamped to 1 .. min(L, HPS_MAX_PHASES). */
unsigned hps_phase_count(uint64_t period_len, unsigned phases);

/* Counter position of sampler k of n (first < period_len, k < n). */
uint64_t hps_phase_position(uint64_t first, uint64_t period_len, unsigned k, unsigned n);

/* Mean over the n samplers of one metric, v[0], v[stride], ...: the values
 * that are not NaN averaged in sampler order, NaN when all are; when every
 * value is the same (a metric the phase does not change, such as the
 * window's instructions) exactly that value. */
double hps_phase_mean(const double *v, size_t n, size_t stride);

#endif
