/* hps_sampler.h - the bursty sampling counter of HPS (Mousa and Krintz,
 * sections 4.1/4.2), as a state machine over sampling events.
 *
 * Sampling events are procedure calls and backward branches.  In our
 * traces a backward branch is a taken conditional branch whose target is
 * below its pc (EV_BRANCH, taken, addr < pc).  Direct unconditional jumps
 * are not in the trace (event.h records conditional branches, calls,
 * returns and indirect jumps only), so a loop closed by a backward `jmp`
 * is seen through its exit test only; compilers at -O2 rotate loops so
 * that the back edge is the conditional branch.  Indirect jumps are not
 * sampling events (the paper's pattern is OPCLASS == branch, which on the
 * Alpha excludes the jmp/jsr class; an interpreter's dispatch would
 * otherwise count as a loop).  The paper's Figure 4 prints the test as
 * T.PC < T.Target, which is a forward branch; we read it as the backward
 * branch the text describes.
 *
 * Counter: sampling events are numbered k = 0, 1, ... from the window's
 * start; event k has position (phase + k) mod (sparsity + burst) in the
 * period, and sampling is on for it iff its position >= sparsity.  The flag
 * it leaves holds for every event up to the next sampling event, so a burst
 * is `burst` sampling events and everything executed after each of them
 * until the next one.  frequency = burst / (burst + sparsity) of the
 * sampling events is sampled.  Events before the window's first sampling
 * event are outside any burst unless sparsity = 0 (always on).
 *
 * The paper's productions (Figure 4) sample burst + 1 events per period of
 * sparsity + burst + 1 (the event that overflows the burst counter and the
 * one that resets both are both seen with the flag set); we follow the
 * frequency formula of section 5 instead.
 */
#ifndef HPS_SAMPLER_H
#define HPS_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"

static inline int hps_is_backedge(const struct event *e)
{
    return e->kind == EV_BRANCH && e->taken && e->addr < e->pc;
}

static inline int hps_is_sampling_event(const struct event *e)
{
    return e->kind == EV_CALL || hps_is_backedge(e);
}

struct hps_sampler {
    uint64_t sparsity, period; /* period = sparsity + burst */
    uint64_t pos;              /* position of the next sampling event */
    int on;                    /* the sampling flag */
    uint64_t sampling_events;  /* seen */
    uint64_t sampled_events;   /* of them, with the flag on */
    uint64_t bursts;           /* bursts begun (a burst open at the start counts) */
};

enum hps_transition { HPS_STAY = 0, HPS_BURST_BEGINS = 1, HPS_BURST_ENDS = 2 };

/* burst >= 1; phase < sparsity + burst.  Returns 0, or -1 with err filled
 * (naming the parameter). */
int hps_sampler_init(struct hps_sampler *s, uint64_t burst, uint64_t sparsity, uint64_t phase, char *err,
                     size_t errlen);

/* One sampling event: updates the flag and says whether a burst began or
 * ended with it.  A burst that ends does so before this event (the event is
 * outside it). */
static inline enum hps_transition hps_sampler_step(struct hps_sampler *s)
{
    int now_on = s->pos >= s->sparsity;
    if (++s->pos == s->period)
        s->pos = 0;
    s->sampling_events++;
    s->sampled_events += (uint64_t)now_on;
    if (now_on == s->on)
        return HPS_STAY;
    s->on = now_on;
    if (now_on) {
        s->bursts++;
        return HPS_BURST_BEGINS;
    }
    return HPS_BURST_ENDS;
}

#endif
