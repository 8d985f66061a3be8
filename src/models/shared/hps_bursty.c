/* hps_bursty.c - the sampling parameters' check and the bursty stage's plan
 * of the HPS models; see hps_bursty.h. */
#include "models/shared/hps_bursty.h"

#include "stages/hps_stages.h"

int hps_plan_bursty(const struct param_values *pv, int emit, struct plan *p)
{
    uint64_t burst = (uint64_t)pv_int(pv, "burst"), period = (uint64_t)pv_int(pv, "period");
    uint64_t phase = (uint64_t)pv_int(pv, "phase");
    double sparsity = (double)burst * (double)(period - 1);
    if (sparsity > 1e12) {
        plan_fail(p, "burst x (period - 1) = %.0f exceeds the sampler's 1e12", sparsity);
        return -1;
    }
    if (phase >= burst * period) {
        plan_fail(p, "phase must be below burst x period = %llu (got %llu)", (unsigned long long)(burst * period),
                  (unsigned long long)phase);
        return -1;
    }
    struct param_values spv;
    params_defaults(&spv, hps_bursty_stage.params);
    pv_set_int(&spv, "burst", (int64_t)burst);
    pv_set_int(&spv, "sparsity", (int64_t)(burst * (period - 1)));
    pv_set_int(&spv, "phase", (int64_t)phase);
    /* the samplers actually run, so that equal runs share one stage */
    pv_set_int(&spv, "phases", (int64_t)hps_phase_count(burst * period, (unsigned)pv_int(pv, "phases")));
    pv_set_enum(&spv, "emit", emit);
    plan_feed(p, plan_stage(p, PLAN_NONE, &hps_bursty_stage, &spv));
    return 0;
}
