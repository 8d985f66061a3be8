/* bursty.c - stage "bursty": HPS's bursty sampler (Mousa and Krintz,
 * sections 4.1/4.2; hps_sampler.h has the counter's exact semantics), run
 * at one or several phases of the period side by side (hps_phases.h).
 *
 * Parameters are the hardware's two counter values, burst and sparsity
 * (sampling events per burst, and between bursts), the first sampler's
 * starting position (phase), the number of samplers (phases, evenly spaced
 * over the period) and the event kinds to pass on (emit).  The sampling
 * frequency burst / (burst + sparsity) is what the models expose (their
 * `period` = 1 / frequency gives sparsity = burst * (period - 1)).
 *
 * Records (struct hps_burst_rec, hps_stages.h): an event of the `emit`
 * kinds inside the burst of at least one sampler, with `in` = the samplers
 * whose burst holds it; and `cut` = the samplers whose burst ended just
 * before it.  A burst ends at the first sampling event with that sampler's
 * flag off; the stage emits that event with its cut bits (and `in` 0 when
 * no other sampler holds it), so consumers see every burst of a sampler
 * closed before its next begins.  finish() closes the bursts still open at
 * the window's end with one record of `in` 0.  Events of other kinds are
 * ignored; a sampling event steps every sampler.  Chunks hold at most
 * BURSTY_CHUNK records.
 *
 * Per event: one mask test (the samplers' flags are kept as a mask); per
 * sampling event, one counter step per sampler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "families/hps_phases.h"
#include "families/hps_sampler.h"
#include "stages/hps_stages.h"

#define BURSTY_CHUNK 1024

const char *const hps_emit_choices[] = { "all", "control", "calls", "loads", "memory", NULL };

static const struct param_spec bursty_params[] = {
    P_INT("burst", 1, 1, 1e9, "sampling events per burst (burst counter)"),
    P_INT("sparsity", 99, 0, 1e12, "sampling events between bursts (sampling counter); 0 = always on"),
    P_INT("phase", 0, 0, 1e12, "counter position of the first sampler at the window's first sampling event, below burst + sparsity"),
    P_INT("phases", 1, 1, HPS_MAX_PHASES,
          "samplers side by side, sampler k starting at phase + floor(k x (burst + sparsity) / phases) (mod burst + sparsity); "
          "at most burst + sparsity are run"),
    P_ENUM("emit", 0, hps_emit_choices,
           "events passed on inside bursts: all (calls, branches, loads, stores), control (calls and back edges), "
           "calls, loads, memory (loads and stores)"),
    PARAM_END,
};

struct bursty {
    struct hps_sampler s[HPS_MAX_PHASES];
    unsigned n;           /* samplers run */
    uint32_t on;          /* bit k: sampler k's flag */
    unsigned emit_mask;   /* EV_BIT()s passed on */
    int all_branches;     /* forward and not-taken branches too (emit all) */
    struct hps_bursty_view view;
    struct hps_burst_rec buf[BURSTY_CHUNK];
};

static unsigned emit_mask_of(int emit, int *all_branches)
{
    *all_branches = 0;
    switch (emit) {
    case HPS_EMIT_ALL:
        *all_branches = 1;
        return EV_BIT(EV_CALL) | EV_BIT(EV_BRANCH) | EV_BIT(EV_LOAD) | EV_BIT(EV_STORE);
    case HPS_EMIT_CONTROL:
        return EV_BIT(EV_CALL) | EV_BIT(EV_BRANCH);
    case HPS_EMIT_CALLS:
        return EV_BIT(EV_CALL);
    case HPS_EMIT_LOADS:
        return EV_BIT(EV_LOAD);
    default:
        return EV_BIT(EV_LOAD) | EV_BIT(EV_STORE);
    }
}

static void *bursty_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct bursty *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    uint64_t burst = (uint64_t)pv_int(pv, "burst"), sparsity = (uint64_t)pv_int(pv, "sparsity");
    uint64_t phase = (uint64_t)pv_int(pv, "phase");
    /* the first sampler's check names the parameters (burst, phase) */
    if (hps_sampler_init(&b->s[0], burst, sparsity, phase, err, errlen) != 0) {
        free(b);
        return NULL;
    }
    b->n = hps_phase_count(burst + sparsity, (unsigned)pv_int(pv, "phases"));
    for (unsigned k = 0; k < b->n; k++) {
        uint64_t pos = hps_phase_position(phase, burst + sparsity, k, b->n);
        if (hps_sampler_init(&b->s[k], burst, sparsity, pos, err, errlen) != 0) {
            free(b);
            return NULL;
        }
        b->on |= (uint32_t)b->s[k].on << k;
        b->view.position[k] = pos;
        b->view.bursts[k] = b->s[k].bursts;
    }
    b->emit_mask = emit_mask_of(pv_enum(pv, "emit"), &b->all_branches);
    b->view.burst = burst;
    b->view.sparsity = sparsity;
    b->view.phase = phase;
    b->view.phases = b->n;
    return b;
}

static size_t bursty_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct bursty *b = st;
    const struct event *ev = in;
    size_t k = 0, i = 0, emitted = 0;
    out->recs = b->buf;
    out->mark = MARK_NONE;
    while (i < n) {
        const struct event *e = &ev[i++];
        if (e->kind >= EV_KINDS)
            continue;
        int sampling = hps_is_sampling_event(e);
        uint32_t cut = 0;
        if (sampling) {
            uint32_t on = 0;
            for (unsigned p = 0; p < b->n; p++) {
                if (hps_sampler_step(&b->s[p]) == HPS_BURST_ENDS)
                    cut |= 1u << p; /* the event itself lies outside that burst */
                on |= (uint32_t)b->s[p].on << p;
            }
            b->on = on;
        }
        uint32_t inside = b->on;
        if (!(b->emit_mask & EV_BIT(e->kind)) || (e->kind == EV_BRANCH && !b->all_branches && !sampling))
            inside = 0;
        if (!(inside | cut))
            continue;
        struct hps_burst_rec *r = &b->buf[k++];
        r->ev = *e;
        r->in = inside;
        r->cut = cut;
        emitted += inside != 0;
        if (k == BURSTY_CHUNK)
            break;
    }
    out->n = k;
    struct hps_bursty_view *v = &b->view;
    v->emitted += emitted;
    v->sampling_events = b->s[0].sampling_events;
    for (unsigned p = 0; p < b->n; p++) {
        v->sampled_events[p] = b->s[p].sampled_events;
        v->bursts[p] = b->s[p].bursts;
    }
    return i;
}

static void bursty_finish(void *st, struct chunk *out)
{
    struct bursty *b = st;
    out->recs = b->buf;
    out->n = 0;
    out->mark = MARK_NONE;
    if (b->on) {
        struct hps_burst_rec *r = &b->buf[0];
        memset(r, 0, sizeof *r);
        r->cut = b->on;
        out->n = 1;
    }
    b->on = 0; /* closed */
    for (unsigned p = 0; p < b->n; p++)
        b->s[p].on = 0;
}

static void *bursty_shared(void *st) { return &((struct bursty *)st)->view; }

static void bursty_free(void *st) { free(st); }

const struct stage_desc hps_bursty_stage = {
    .name = "bursty",
    .summary = "HPS bursty sampler at one or several phases: the events inside bursts, each with its samplers and the bursts that ended before it",
    .params = bursty_params,
    .input_rec = "event",
    .event_mask = EV_BIT(EV_CALL) | EV_BIT(EV_BRANCH) | EV_BIT(EV_LOAD) | EV_BIT(EV_STORE),
    .rec_type = "hps_burst",
    .rec_size = sizeof(struct hps_burst_rec),
    .create = bursty_create,
    .feed = bursty_feed,
    .finish = bursty_finish,
    .shared = bursty_shared,
    .free = bursty_free,
    .cost = 0.3,
};
STAGE_REGISTER(hps_bursty_stage);
