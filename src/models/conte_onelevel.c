/* conte_onelevel.c - one-level hardware-based profiling (Conte et al. 3.2).
 *
 * BTB: btb_entries entries, btb_assoc ways (LRU), set index = pc mod sets
 * (x86 instructions are byte aligned, so no low bits are dropped).  Each
 * entry: tag (the branch pc), branch record (stands for the stored target),
 * 2-bit counter, dirty bit.  Only conditional branches allocate entries.  A
 * missing branch is predicted not taken and allocated with its counter at
 * weakly taken (10) if it was taken, weakly not taken (01) if not; a hit
 * predicts taken when the counter is 10 or 11 and then updates it
 * (saturating increment on taken, decrement on not taken).
 *
 * Sampling point: d = number of dirty entries, N = instructions executed since
 * the last sampling point, w = N / (B x d); each dirty entry adds, per Table II,
 * 2w (counter 00) or w (01) to its fall-through arc, w (10) or 2w (11) to its
 * taken arc; dirty bits are cleared.  B (mean instructions per basic block,
 * "from the compiler" in the paper) is a constant for the whole run, so it
 * scales every estimated weight equally and cancels from every reported
 * metric; we accumulate N/d per entry and divide by B = instructions /
 * conditional branches of the window at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/shared/conte_common.h"

struct onelevel {
    struct conte_base base; /* first: the shared driver's state */
    struct conte_tags tags;
    uint32_t *slot;   /* branch record of each entry */
    uint8_t *ctr;     /* 2-bit counter */
    uint8_t *dirty;
    uint64_t insns, conds; /* totals for B */
};

static void ol_access(void *hw, const struct conte_brec *r, size_t n, struct conte_stats *st)
{
    struct onelevel *o = hw;
    uint64_t contentions = 0, correct = 0;
    for (size_t i = 0; i < n; i++) {
        int hit, evicted, taken = (int)r[i].taken;
        size_t e = conte_tags_access(&o->tags, r[i].pc, &hit, &evicted);
        contentions += (uint64_t)evicted;
        int pred = 0;
        if (hit) {
            pred = o->ctr[e] >= 2;
            if (taken && o->ctr[e] < 3)
                o->ctr[e]++;
            else if (!taken && o->ctr[e] > 0)
                o->ctr[e]--;
        } else {
            o->slot[e] = r[i].slot;
            o->ctr[e] = taken ? 2 : 1;
        }
        o->dirty[e] = 1;
        correct += pred == taken; /* a miss predicts not taken */
    }
    st->contentions += contentions;
    st->predicted += n;
    st->correct += correct;
}

static void ol_sample(void *hw, struct conte_est *est, uint64_t n_insns, uint64_t n_conds)
{
    struct onelevel *o = hw;
    size_t d = 0;
    o->insns += n_insns;
    o->conds += n_conds;
    for (size_t e = 0; e < o->tags.entries; e++)
        d += o->dirty[e];
    if (d == 0)
        return;
    double w = (double)n_insns / (double)d;
    for (size_t e = 0; e < o->tags.entries; e++) {
        if (!o->dirty[e])
            continue;
        struct conte_est *br = &est[o->slot[e]];
        switch (o->ctr[e]) {
        case 0: br->est_fall += 2 * w; break;
        case 1: br->est_fall += w; break;
        case 2: br->est_taken += w; break;
        default: br->est_taken += 2 * w; break;
        }
        o->dirty[e] = 0;
    }
}

static void ol_finish(void *hw, struct conte_est *est, size_t n)
{
    struct onelevel *o = hw;
    if (o->conds == 0 || o->insns == 0)
        return;
    double bbar = (double)o->insns / (double)o->conds;
    for (size_t s = 0; s < n; s++) {
        struct conte_est *br = &est[s];
        br->est_taken /= bbar;
        br->est_fall /= bbar;
    }
}

static void ol_free(void *hw)
{
    struct onelevel *o = hw;
    if (!o)
        return;
    conte_base_destroy(&o->base, &o->tags);
    free(o->slot);
    free(o->ctr);
    free(o->dirty);
    free(o);
}

static void *ol_create(const struct model_ctx *ctx)
{
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    struct onelevel *o = calloc(1, sizeof *o);
    if (!o) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (conte_base_init(&o->base, &o->tags, ctx) != 0) {
        free(o);
        return NULL;
    }
    o->slot = calloc(o->tags.entries, sizeof *o->slot);
    o->ctr = calloc(o->tags.entries, sizeof *o->ctr);
    o->dirty = calloc(o->tags.entries, sizeof *o->dirty);
    if (!o->slot || !o->ctr || !o->dirty) {
        ol_free(o);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return o;
}

static void ol_feed(void *m, const void *recs, size_t n) { conte_feed(m, recs, n, ol_access, ol_sample); }
static void ol_finish_model(void *m) { conte_finish(m, ol_sample, ol_finish); }

static const struct param_spec ol_params[] = {
    CONTE_COMMON_PARAMS,
    PARAM_END,
};

static const struct model_desc ol_model = {
    .name = "conte_onelevel",
    .summary = "Conte et al. one-level profiling: BTB 2-bit counters + dirty bits, Table II increments of N/(B*d)",
    .params = ol_params,
    .create = ol_create,
    .feed = ol_feed,
    .finish = ol_finish_model,
    .free = ol_free,
    .cost = 1.5,
    CONTE_MODEL_HOOKS,
};
MODEL_REGISTER(ol_model);
