/* hps_phases.c - sampler positions and means over phases; see
 * hps_phases.h. */
#include "families/hps_phases.h"

#include <math.h>

unsigned hps_phase_count(uint64_t period_len, unsigned phases)
{
    uint64_t n = phases ? phases : 1;
    if (n > HPS_MAX_PHASES)
        n = HPS_MAX_PHASES;
    if (period_len && n > period_len)
        n = period_len;
    return (unsigned)n;
}

uint64_t hps_phase_position(uint64_t first, uint64_t period_len, unsigned k, unsigned n)
{
    /* period_len <= 2^63 (the sampler's check), k < n <= 32: no overflow
     * below 2^63 / 32; above it, split the product */
    uint64_t step = period_len / n, rem = period_len % n;
    uint64_t off = step * k + (rem * k) / n;
    return (first % period_len + off % period_len) % period_len;
}

double hps_phase_mean(const double *v, size_t n, size_t stride)
{
    int same = 1;
    for (size_t k = 1; k < n; k++)
        if (!(v[k * stride] == v[0]))
            same = 0;
    if (same)
        return v[0];
    double sum = 0;
    size_t used = 0;
    for (size_t k = 0; k < n; k++)
        if (!isnan(v[k * stride])) {
            sum += v[k * stride];
            used++;
        }
    return used ? sum / (double)used : NAN;
}
