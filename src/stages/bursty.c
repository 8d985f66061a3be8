/* bursty.c - stage "bursty": HPS's bursty sampler (Mousa and Krintz,
 * sections 4.1/4.2; hps_sampler.h has the counter's exact semantics).
 *
 * Parameters are the hardware's two counter values, burst and sparsity
 * (sampling events per burst, and between bursts), plus the counter's
 * starting position (phase) and the event kinds to pass on (emit).  The
 * sampling frequency burst / (burst + sparsity) is what the models expose
 * (their `period` = 1 / frequency gives sparsity = burst * (period - 1)).
 *
 * Feeding: events of other kinds are ignored; a sampling event steps the
 * counter.  When a burst ends (the first sampling event with the flag off
 * after a burst), feed() consumes that event, returns the burst's remaining
 * records and MARK_BURST, so consumers see every burst closed before the
 * next begins; finish() closes a burst still open at the window's end.
 * Chunks hold at most BURSTY_CHUNK copied events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "families/hps_sampler.h"
#include "stages/hps_stages.h"

#define BURSTY_CHUNK 1024

const char *const hps_emit_choices[] = { "all", "control", "calls", "loads", "memory", NULL };

static const struct param_spec bursty_params[] = {
    P_INT("burst", 1, 1, 1e9, "sampling events per burst (burst counter)"),
    P_INT("sparsity", 99, 0, 1e12, "sampling events between bursts (sampling counter); 0 = always on"),
    P_INT("phase", 0, 0, 1e12, "counter position of the window's first sampling event, below burst + sparsity"),
    P_ENUM("emit", 0, hps_emit_choices,
           "events passed on inside bursts: all (calls, branches, loads, stores), control (calls and back edges), "
           "calls, loads, memory (loads and stores)"),
    PARAM_END,
};

struct bursty {
    struct hps_sampler s;
    unsigned emit_mask;   /* EV_BIT()s passed on */
    int all_branches;     /* forward and not-taken branches too (emit all) */
    struct hps_bursty_view view;
    struct event buf[BURSTY_CHUNK];
};

static void *bursty_create(const struct param_values *pv, char *err, size_t errlen)
{
    struct bursty *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    uint64_t burst = (uint64_t)pv_int(pv, "burst"), sparsity = (uint64_t)pv_int(pv, "sparsity");
    uint64_t phase = (uint64_t)pv_int(pv, "phase");
    if (hps_sampler_init(&b->s, burst, sparsity, phase, err, errlen) != 0) {
        free(b);
        return NULL;
    }
    switch (pv_enum(pv, "emit")) {
    case HPS_EMIT_ALL:
        b->emit_mask = EV_BIT(EV_CALL) | EV_BIT(EV_BRANCH) | EV_BIT(EV_LOAD) | EV_BIT(EV_STORE);
        b->all_branches = 1;
        break;
    case HPS_EMIT_CONTROL:
        b->emit_mask = EV_BIT(EV_CALL) | EV_BIT(EV_BRANCH);
        break;
    case HPS_EMIT_CALLS:
        b->emit_mask = EV_BIT(EV_CALL);
        break;
    case HPS_EMIT_LOADS:
        b->emit_mask = EV_BIT(EV_LOAD);
        break;
    default:
        b->emit_mask = EV_BIT(EV_LOAD) | EV_BIT(EV_STORE);
        break;
    }
    b->view.burst = burst;
    b->view.sparsity = sparsity;
    b->view.phase = phase;
    return b;
}

static size_t bursty_feed(void *st, const void *in, size_t n, struct chunk *out)
{
    struct bursty *b = st;
    const struct event *ev = in;
    size_t k = 0, i = 0;
    out->recs = b->buf;
    out->mark = MARK_NONE;
    while (i < n) {
        const struct event *e = &ev[i++];
        if (e->kind >= EV_KINDS)
            continue;
        int sampling = hps_is_sampling_event(e);
        if (sampling && hps_sampler_step(&b->s) == HPS_BURST_ENDS) {
            out->mark = MARK_BURST; /* the event itself lies outside the burst */
            break;
        }
        if (!b->s.on || !(b->emit_mask & EV_BIT(e->kind)))
            continue;
        if (e->kind == EV_BRANCH && !b->all_branches && !sampling)
            continue;
        b->buf[k++] = *e;
        if (k == BURSTY_CHUNK)
            break;
    }
    out->n = k;
    b->view.emitted += k;
    b->view.sampling_events = b->s.sampling_events;
    b->view.sampled_events = b->s.sampled_events;
    b->view.bursts = b->s.bursts;
    return i;
}

static void bursty_finish(void *st, struct chunk *out)
{
    struct bursty *b = st;
    out->recs = b->buf;
    out->n = 0;
    out->mark = b->s.on ? MARK_BURST : MARK_NONE;
    b->s.on = 0; /* closed */
}

static void *bursty_shared(void *st) { return &((struct bursty *)st)->view; }

static void bursty_free(void *st) { free(st); }

const struct stage_desc hps_bursty_stage = {
    .name = "bursty",
    .summary = "HPS bursty sampler: the events inside bursts of calls and back edges, MARK_BURST at each burst's end",
    .params = bursty_params,
    .input_rec = "event",
    .event_mask = EV_BIT(EV_CALL) | EV_BIT(EV_BRANCH) | EV_BIT(EV_LOAD) | EV_BIT(EV_STORE),
    .rec_type = "event",
    .rec_size = sizeof(struct event),
    .create = bursty_create,
    .feed = bursty_feed,
    .finish = bursty_finish,
    .shared = bursty_shared,
    .free = bursty_free,
    .cost = 0.3,
};
STAGE_REGISTER(hps_bursty_stage);
