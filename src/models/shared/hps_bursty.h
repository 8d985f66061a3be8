/* hps_bursty.h - the bursty sampling of the HPS models that read bursts
 * (hps, hps_spacesaving): the check of their sampling parameters burst,
 * period and phase, and the plan of the "bursty" stage that feeds them.
 *
 * A model exposes the sampling frequency burst / (burst + sparsity) as
 * period = 1 / frequency; the stage (src/stages/bursty.c) takes the
 * hardware's two counters, so sparsity = burst * (period - 1).
 *
 * Part of the HPS family library: models include it, stages do not (it
 * plans a stage, so it sits above them).
 */
#ifndef HPS_BURSTY_H
#define HPS_BURSTY_H

#include "run/model.h"

/* The phase row every such model declares (burst and period keep their
 * model's own default and wording). */
#define HPS_PARAM_PHASE                                                                                     \
    P_INT("phase", 0, 0, 1e12, "counter position of the window's first sampling event, below burst * period")

/* Checks pv's burst, period and phase (the sampler's sparsity
 * burst * (period - 1) at most 1e12, phase below burst * period) and feeds
 * the instance the events of the `emit` kinds (enum hps_emit, hps_stages.h)
 * inside the bursts of that sampler.  Returns 0, or -1 after plan_fail with
 * a message naming the parameters. */
int hps_plan_bursty(const struct param_values *pv, int emit, struct plan *p);

#endif
