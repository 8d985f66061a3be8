/* conte_twolevel.c - two-level hardware-based profiling (Conte et al. 3.3).
 *
 * History register table (HRT): btb_entries entries, btb_assoc ways (LRU),
 * tagged with the branch pc, each a history_bits-bit register plus a full
 * bit.  Pattern table (PT): 2^history_bits 2-bit counters shared by all
 * branches (Yeh and Patt's PAg), initialised to weakly taken (10), indexed
 * by the register contents (marker included: the marker bit "only changes
 * the way history register values map into pattern table entries").
 *
 * Marker bit (Figure 6): after a sampling point, or when an entry is
 * (re)allocated, the register is 00..01 and full = 0.  Each execution shifts
 * the outcome in at the LSB; when the marker leaves the MSB the full bit is
 * set.  At a sampling point the valid bits are all history_bits bits if full,
 * else the bits right of the leading 1; ones go to the taken arc and zeros to
 * the fall-through arc, then every register is reset.
 *
 * weight_mode "count": each valid bit adds 1 (counting the ones; dividing by
 *   the register width is a constant factor and is omitted).
 * weight_mode "what": as one-level, each accessed entry adds w = N/(B x d)
 *   split in the proportion of its valid ones and zeros.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/shared/conte_common.h"

enum { TL_COUNT = 0, TL_WHAT = 1 };

struct twolevel {
    struct conte_base base; /* first: the shared driver's state */
    struct conte_tags tags;
    uint32_t *slot;
    uint32_t *hist;
    uint8_t *full;
    uint8_t *pt;
    unsigned bits;
    uint32_t mask;
    int mode;
    uint64_t insns, conds;
};

static void tl_access(void *hw, const struct conte_brec *r, size_t n, struct conte_stats *st)
{
    struct twolevel *t = hw;
    uint64_t contentions = 0, correct = 0;
    const uint32_t mask = t->mask, top = t->bits - 1;
    for (size_t i = 0; i < n; i++) {
        int hit, evicted, taken = (int)r[i].taken;
        size_t e = conte_tags_access(&t->tags, r[i].pc, &hit, &evicted);
        contentions += (uint64_t)evicted;
        if (!hit) {
            t->slot[e] = r[i].slot;
            t->hist[e] = 1; /* marker only */
            t->full[e] = 0;
        }
        uint32_t h = t->hist[e];
        uint8_t *c = &t->pt[h & mask];
        int pred = *c >= 2;
        if (taken && *c < 3)
            (*c)++;
        else if (!taken && *c > 0)
            (*c)--;
        if (!t->full[e] && ((h >> top) & 1u))
            t->full[e] = 1; /* the marker shifts out */
        t->hist[e] = ((h << 1) | (uint32_t)taken) & mask;
        correct += pred == taken;
    }
    st->contentions += contentions;
    st->predicted += n;
    st->correct += correct;
}

/* Valid history of entry e: number of valid bits and number of ones. */
static void tl_valid(const struct twolevel *t, size_t e, unsigned *nvalid, unsigned *ones)
{
    uint32_t h = t->hist[e];
    if (t->full[e]) {
        *nvalid = t->bits;
        *ones = (unsigned)__builtin_popcount(h);
        return;
    }
    if (h == 0) { /* cannot happen: the marker is present until full */
        *nvalid = *ones = 0;
        return;
    }
    unsigned lead = 31u - (unsigned)__builtin_clz(h);
    *nvalid = lead;
    *ones = (unsigned)__builtin_popcount(h & ((1u << lead) - 1u));
}

static void tl_sample(void *hw, struct conte_est *est, uint64_t n_insns, uint64_t n_conds)
{
    struct twolevel *t = hw;
    t->insns += n_insns;
    t->conds += n_conds;
    double w = 0;
    if (t->mode == TL_WHAT) {
        size_t d = 0;
        for (size_t e = 0; e < t->tags.entries; e++) {
            unsigned nv, ones;
            if (!t->tags.valid[e])
                continue;
            tl_valid(t, e, &nv, &ones);
            d += nv > 0;
        }
        w = d ? (double)n_insns / (double)d : 0;
    }
    for (size_t e = 0; e < t->tags.entries; e++) {
        if (!t->tags.valid[e])
            continue;
        unsigned nv, ones;
        tl_valid(t, e, &nv, &ones);
        if (nv > 0) {
            struct conte_est *br = &est[t->slot[e]];
            if (t->mode == TL_WHAT) {
                br->est_taken += w * ones / nv;
                br->est_fall += w * (nv - ones) / nv;
            } else {
                br->est_taken += ones;
                br->est_fall += nv - ones;
            }
        }
        t->hist[e] = 1;
        t->full[e] = 0;
    }
}

static void tl_finish(void *hw, struct conte_est *est, size_t n)
{
    struct twolevel *t = hw;
    if (t->mode != TL_WHAT || t->conds == 0 || t->insns == 0)
        return;
    double bbar = (double)t->insns / (double)t->conds;
    for (size_t s = 0; s < n; s++) {
        struct conte_est *br = &est[s];
        br->est_taken /= bbar;
        br->est_fall /= bbar;
    }
}

static void tl_free(void *hw)
{
    struct twolevel *t = hw;
    if (!t)
        return;
    conte_base_destroy(&t->base, &t->tags);
    free(t->slot);
    free(t->hist);
    free(t->full);
    free(t->pt);
    free(t);
}

static void *tl_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    struct twolevel *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (conte_base_init(&t->base, &t->tags, ctx) != 0) {
        free(t);
        return NULL;
    }
    t->bits = (unsigned)pv_int(pv, "history_bits");
    t->mask = (uint32_t)((1ull << t->bits) - 1);
    t->mode = pv_enum(pv, "weight_mode");
    t->slot = calloc(t->tags.entries, sizeof *t->slot);
    t->hist = calloc(t->tags.entries, sizeof *t->hist);
    t->full = calloc(t->tags.entries, sizeof *t->full);
    t->pt = malloc((size_t)1 << t->bits);
    if (!t->slot || !t->hist || !t->full || !t->pt) {
        tl_free(t);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    memset(t->pt, 2, (size_t)1 << t->bits);
    return t;
}

static void tl_feed(void *m, const void *recs, size_t n) { conte_feed(m, recs, n, tl_access, tl_sample); }
static void tl_finish_model(void *m) { conte_finish(m, tl_sample, tl_finish); }

static const char *const tl_modes[] = { "count", "what", NULL };

static const struct param_spec tl_params[] = {
    CONTE_COMMON_PARAMS,
    P_INT("history_bits", 10, 1, 24, "bits per history register (pattern table has 2^bits counters)"),
    P_ENUM("weight_mode", 0, tl_modes,
           "count: each valid history bit adds 1 to its arc; what: entries share N/(B*d) in proportion"),
    PARAM_END,
};

static const struct model_desc tl_model = {
    .name = "conte_twolevel",
    .summary = "Conte et al. two-level profiling: history registers with marker/full bit, reset at each sampling point",
    .params = tl_params,
    .create = tl_create,
    .feed = tl_feed,
    .finish = tl_finish_model,
    .free = tl_free,
    .cost = 1.5,
    CONTE_MODEL_HOOKS,
};
MODEL_REGISTER(tl_model);
