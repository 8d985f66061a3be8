/* hps_stages.h - the two stages of the HPS models and their shared results.
 *
 *   bursty     the bursty sampler at `phases` phases side by side
 *              (src/stages/bursty.c): reads calls, conditional branches,
 *              loads and stores; emits the events of the `emit` kinds that
 *              fall inside a burst of any sampler, each with the samplers
 *              whose burst holds it and those whose burst ended before it
 *              (struct hps_burst_rec); shared result: struct
 *              hps_bursty_view.
 *   hps_exact  the exhaustive profile of one type over the whole window and
 *              the window's counts (src/stages/hps_exact.c): emits nothing;
 *              shared result: struct hps_exact_view, complete after the
 *              stage's finish (models read it in their own finish).  Its
 *              key is the profile definition only, so every sampling
 *              configuration of a sweep reads one computation.
 */
#ifndef HPS_STAGES_H
#define HPS_STAGES_H

#include <stdint.h>

#include "families/hps_phases.h"
#include "families/hps_profile.h"
#include "run/stage.h"

extern const struct stage_desc hps_bursty_stage;
extern const struct stage_desc hps_exact_stage;

/* What `emit` lets through (inside bursts). */
enum hps_emit {
    HPS_EMIT_ALL = 0,     /* calls, conditional branches, loads, stores */
    HPS_EMIT_CONTROL = 1, /* the sampling events: calls and back edges */
    HPS_EMIT_CALLS = 2,
    HPS_EMIT_LOADS = 3,
    HPS_EMIT_MEMORY = 4   /* loads and stores */
};
extern const char *const hps_emit_choices[];

/* One record of stage "bursty": bit k of `in` says the event lies inside a
 * burst of sampler k; bit k of `cut` that a burst of sampler k ended just
 * before it (apply the cuts first).  A record with `in` 0 carries cuts
 * only (the event is inside no burst, or is the window's end). */
struct hps_burst_rec {
    struct event ev;
    uint32_t in, cut;
};

struct hps_bursty_view {
    uint64_t burst, sparsity;
    uint64_t phase;                            /* the first sampler's start */
    unsigned phases;                           /* samplers run (hps_phase_count) */
    uint64_t position[HPS_MAX_PHASES];         /* sampler k's start */
    uint64_t sampling_events;                  /* calls and back edges in the window */
    uint64_t sampled_events[HPS_MAX_PHASES];   /* of them, inside sampler k's bursts */
    uint64_t bursts[HPS_MAX_PHASES];           /* sampler k's bursts begun (each ends with one cut) */
    uint64_t emitted;                          /* records with a sampler in `in` */
};

/* Counts of the whole window. */
struct hps_window {
    uint64_t insns, loads, stores, calls, branches, backedges;
};

struct hps_exact_view {
    struct hps_window w;
    const struct hps_profile *profile; /* finished at the stage's finish */
};

#endif
