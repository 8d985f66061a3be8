/* hps_bursty.h - the bursty sampling of the HPS models that read bursts
 * (hps, hps_spacesaving): the check of their sampling parameters burst,
 * period, phase and phases, and the plan of the "bursty" stage that feeds
 * them.
 *
 * A model exposes the sampling frequency burst / (burst + sparsity) as
 * period = 1 / frequency; the stage (src/stages/bursty.c) takes the
 * hardware's two counters, so sparsity = burst * (period - 1).  It runs
 * `phases` samplers side by side, evenly spaced over the period from
 * `phase` (hps_phases.h); the model keeps one profile per sampler and
 * reports the mean over samplers of each metric.
 *
 * Part of the HPS family library: models include it, stages do not (it
 * plans a stage, so it sits above them).
 */
#ifndef HPS_BURSTY_H
#define HPS_BURSTY_H

#include "families/hps_phases.h"
#include "run/model.h"

/* The phase rows every such model declares (burst and period keep their
 * model's own default and wording). */
#define HPS_PARAM_PHASE                                                                                     \
    P_INT("phase", 0, 0, 1e12,                                                                              \
          "counter position of the first sampler at the window's first sampling event, below burst * "     \
          "period (0: a full gap of burst * (period - 1) sampling events before its first burst)"),         \
    P_INT("phases", 4, 1, HPS_MAX_PHASES,                                                                   \
          "samplers run side by side on each window, sampler k starting at phase + floor(k x burst x "     \
          "period / phases) (mod burst x period); metrics are means over samplers; 1 = the one sampler "   \
          "at `phase`; at most burst x period are run")

/* Checks pv's burst, period and phase (the sampler's sparsity
 * burst * (period - 1) at most 1e12, phase below burst * period) and feeds
 * the instance the records of the "bursty" stage (struct hps_burst_rec,
 * hps_stages.h) for the events of the `emit` kinds (enum hps_emit) inside
 * the bursts of its samplers.  Returns 0, or -1 after plan_fail with a
 * message naming the parameters. */
int hps_plan_bursty(const struct param_values *pv, int emit, struct plan *p);

#endif
