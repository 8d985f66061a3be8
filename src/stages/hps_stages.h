/* hps_stages.h - the two stages of the HPS models and their shared results.
 *
 *   bursty     the bursty sampler (src/stages/bursty.c): reads calls,
 *              conditional branches, loads and stores; emits the events of
 *              the `emit` kinds that fall inside bursts (struct event) and
 *              MARK_BURST after each burst's last event; shared result:
 *              struct hps_bursty_view.
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

struct hps_bursty_view {
    uint64_t burst, sparsity, phase;
    uint64_t sampling_events;  /* calls and back edges in the window */
    uint64_t sampled_events;   /* of them, inside bursts */
    uint64_t bursts;           /* bursts begun (each ends with one MARK_BURST) */
    uint64_t emitted;          /* events emitted */
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
