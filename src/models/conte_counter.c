/* conte_counter.c - the idealised "counter" scheme of Conte et al. 4.1.
 *
 * The one-level BTB (same geometry and replacement) with the 2-bit counter
 * replaced by two unbounded counters: executions and taken executions since
 * the last sampling point.  At a sampling point every entry adds taken to
 * its taken arc and executions - taken to its fall-through arc, and the
 * counters are cleared.  A replaced entry loses its counts (contention: the
 * only source of error apart from sampling).  The scheme does not predict,
 * so accuracy_pct is NaN.
 */
#include <stdio.h>
#include <stdlib.h>
#include "models/shared/conte_common.h"

struct counter {
    struct conte_base base; /* first: the shared driver's state */
    struct conte_tags tags;
    uint32_t *slot;
    uint64_t *exec, *taken;
};

static void ct_access(void *hw, const struct conte_brec *r, size_t n, struct conte_stats *st)
{
    struct counter *c = hw;
    uint64_t contentions = 0;
    for (size_t i = 0; i < n; i++) {
        int hit, evicted;
        size_t e = conte_tags_access(&c->tags, r[i].pc, &hit, &evicted);
        contentions += (uint64_t)evicted;
        if (!hit) {
            c->slot[e] = r[i].slot;
            c->exec[e] = 0;
            c->taken[e] = 0;
        }
        c->exec[e]++;
        c->taken[e] += r[i].taken;
    }
    st->contentions += contentions; /* the scheme does not predict */
}

static void ct_sample(void *hw, struct conte_est *est, uint64_t n_insns, uint64_t n_conds)
{
    struct counter *c = hw;
    (void)n_insns;
    (void)n_conds;
    for (size_t e = 0; e < c->tags.entries; e++) {
        if (!c->tags.valid[e] || c->exec[e] == 0)
            continue;
        struct conte_est *br = &est[c->slot[e]];
        br->est_taken += (double)c->taken[e];
        br->est_fall += (double)(c->exec[e] - c->taken[e]);
        c->exec[e] = c->taken[e] = 0;
    }
}

static void ct_free(void *hw)
{
    struct counter *c = hw;
    if (!c)
        return;
    conte_base_destroy(&c->base, &c->tags);
    free(c->slot);
    free(c->exec);
    free(c->taken);
    free(c);
}

static void *ct_create(const struct model_ctx *ctx)
{
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    struct counter *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (conte_base_init(&c->base, &c->tags, ctx) != 0) {
        free(c);
        return NULL;
    }
    c->slot = calloc(c->tags.entries, sizeof *c->slot);
    c->exec = calloc(c->tags.entries, sizeof *c->exec);
    c->taken = calloc(c->tags.entries, sizeof *c->taken);
    if (!c->slot || !c->exec || !c->taken) {
        ct_free(c);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return c;
}

static void ct_feed(void *m, const void *recs, size_t n) { conte_feed(m, recs, n, ct_access, ct_sample); }
static void ct_finish_model(void *m) { conte_finish(m, ct_sample, NULL); }

static const struct param_spec ct_params[] = {
    CONTE_COMMON_PARAMS,
    PARAM_END,
};

static const struct model_desc ct_model = {
    .name = "conte_counter",
    .summary = "Conte et al. ideal counter scheme: two unbounded counters per BTB entry, limited only by contention",
    .params = ct_params,
    .create = ct_create,
    .feed = ct_feed,
    .finish = ct_finish_model,
    .free = ct_free,
    .cost = 1.5,
    CONTE_MODEL_HOOKS,
};
MODEL_REGISTER(ct_model);
