/* rap_model.c - the RAP models' common core (see rap_model.h). */
#include "models/shared/rap_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void *rap_model_new(size_t size, const struct model_ctx *ctx, int stream, struct rap_prof_cfg *cfg)
{
    struct rap_model_core *m = calloc(1, size);
    if (!m) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    rap_tree_params(ctx->pv, cfg);
    m->prof = rap_prof_create(cfg, ctx->err, ctx->errlen);
    if (!m->prof) {
        free(m);
        return NULL;
    }
    m->exact = ctx->side[0];
    m->cache = stream == RS_DL1 || stream == RS_L2 ? ctx->input : NULL;
    m->hot = pv_real(ctx->pv, "hot");
    return m;
}

void rap_model_feed(void *m, const void *recs, size_t n)
{
    rap_prof_feed(((struct rap_model_core *)m)->prof, recs, n);
}

void rap_model_finish(void *m) { rap_prof_finish(((struct rap_model_core *)m)->prof); }

void rap_model_free(void *m)
{
    if (!m)
        return;
    rap_prof_free(((struct rap_model_core *)m)->prof);
    free(m);
}

void rap_hot_cells(union cell *c, const struct rap_hot *h, double n)
{
    int known = h->exact != UINT64_MAX;
    c[0].i = h->width_log2;
    c[1].i = h->depth;
    c[2].i = (int64_t)h->estimate;
    c[3].i = (int64_t)h->estimate_own;
    c[4].r = known ? (double)h->exact : NAN;
    c[5].r = known ? (double)h->exact_own : NAN;
    c[6].r = h->error_pct;
    c[7].r = n > 0 ? 100.0 * (double)h->estimate_own / n : NAN;
}
