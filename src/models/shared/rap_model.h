/* rap_model.h - what the two RAP models (rap.c, rap2d.c) keep and do
 * alike: the profile, the exact counts it is scored against, the cache
 * statistics of a miss stream and the hot threshold; their creation from
 * the parameters, feed, finish and free; and the cells of a hot-range row
 * that both tables have.
 *
 * A model's struct begins with a struct rap_model_core, so the feed,
 * finish and free below take the model itself. */
#ifndef RAP_MODEL_H
#define RAP_MODEL_H

#include "models/shared/rap_out.h"

struct rap_model_core {
    struct rap_prof *prof;
    const struct keycount *exact;
    const struct cache_stats *cache; /* the miss streams' cache statistics, else NULL */
    double hot;
};

/* A model of `size` bytes (zeroed, a rap_model_core first) for the records
 * of stream: its profile built from cfg (the caller sets sel, dims,
 * key_bits and stride; the tree parameters are read from ctx->pv here), its
 * exact counts and cache statistics taken from ctx, its hot threshold from
 * the parameter "hot".  NULL with ctx->err set on failure. */
void *rap_model_new(size_t size, const struct model_ctx *ctx, int stream, struct rap_prof_cfg *cfg);

void rap_model_feed(void *m, const void *recs, size_t n);
void rap_model_finish(void *m);
void rap_model_free(void *m); /* accepts NULL */

/* The 8 cells of a hot-range row that follow its coordinates in both
 * models' tables, from c on: width_log2, depth, estimate, estimate_own,
 * exact, exact_own (NaN when unknown), error_pct, own_pct (of n events). */
#define RAP_HOT_CELLS 8
void rap_hot_cells(union cell *c, const struct rap_hot *h, double n);

#endif
