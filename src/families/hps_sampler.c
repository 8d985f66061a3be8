/* hps_sampler.c - initial state of the bursty sampling counter; see
 * hps_sampler.h. */
#include "families/hps_sampler.h"

#include <stdio.h>

int hps_sampler_init(struct hps_sampler *s, uint64_t burst, uint64_t sparsity, uint64_t phase, char *err,
                     size_t errlen)
{
    if (burst < 1) {
        snprintf(err, errlen, "burst must be at least 1 (got %llu)", (unsigned long long)burst);
        return -1;
    }
    if (sparsity > UINT64_MAX / 2 || burst > UINT64_MAX / 2) {
        snprintf(err, errlen, "burst + sparsity overflows");
        return -1;
    }
    uint64_t period = sparsity + burst;
    if (phase >= period) {
        snprintf(err, errlen, "phase must be below sparsity + burst = %llu (got %llu)", (unsigned long long)period,
                 (unsigned long long)phase);
        return -1;
    }
    s->sparsity = sparsity;
    s->period = period;
    s->pos = phase;
    s->on = sparsity == 0;
    s->sampling_events = 0;
    s->sampled_events = 0;
    s->bursts = s->on ? 1 : 0;
    return 0;
}
