/* rap2d.c - model "rap2d": two-dimensional Range Adaptive Profiling
 * (Mysore et al., section 5.5 and Figure 13): one tree over pairs of a
 * load, by default (load pc, load address) - which code ranges touch which
 * data ranges.
 *
 * The 2-D tree is rap2d_tree.h (a split halves a rectangle stride times in
 * each dimension: b = 4^stride children; L = ceil(key_bits / stride)), fed
 * and scored like the 1-D model (rap_prof.h, rap_out.h) against the exact
 * count of every pair (stage exact_keys with key2).
 *
 * Tables:
 *   hot_cells  hot rectangles at the end of the window, scored (the heat
 *              map's shaded boxes: darker = larger own_pct)
 *   cells      every node of the final tree as a rectangle with its own
 *              counter (the full map)
 *   series     nodes over time with merge points
 *
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "models/shared/rap_model.h"

static const char *const stream_choices[] = { "loads", "dl1_miss", "l2_miss", "zero_loads", NULL };
static const int stream_map[] = { RS_LOADS, RS_DL1, RS_L2, RS_ZERO };
static const char *const field_choices[] = KEYSEL_FIELD_CHOICES;

static const struct param_spec rap2d_params[] = {
    P_ENUM("stream", 0, stream_choices,
           "loads: every load; dl1_miss / l2_miss: loads missing DL1 / L2 (cache stage); zero_loads: loads of 0"),
    P_ENUM("x_key", 0, field_choices, "first dimension (y axis of Figure 13): pc | address | value"),
    P_ENUM("y_key", 1, field_choices, "second dimension (x axis of Figure 13): pc | address | value"),
    P_INT("key_bits", 48, 1, 64, "bits of each coordinate (x86-64 user addresses fit in 47)"),
    P_INT("b", 4, 4, 65536, "children per split, a power of 4 (4 = halve both dimensions once)"),
    RAP_TREE_PARAMS,
    CACHE_GEOMETRY_PARAMS,
    PARAM_END,
};

static const struct metric_spec rap2d_metrics[] = { RAP_COMMON_METRICS, METRIC_END };

static const struct col_spec hot_cols[] = {
    COL("xlo", COL_HEX, "first x (x_key) of the rectangle"),
    COL("xhi", COL_HEX, "last x"),
    COL("ylo", COL_HEX, "first y (y_key)"),
    COL("yhi", COL_HEX, "last y"),
    COL("width_log2", COL_INT, "log2 of the rectangle's side (equal in x and y)"),
    COL("depth", COL_INT, "node depth (root 0)"),
    COL("estimate", COL_INT, "RAP's estimate of the rectangle's events"),
    COL("estimate_own", COL_INT, "counter + non-hot sub-rectangles"),
    COL("exact", COL_REAL, "events in the rectangle, exact"),
    COL("exact_own", COL_REAL, "exact minus the exact events of its largest hot sub-rectangles"),
    COL("error_pct", COL_REAL, "(exact - estimate) / exact * 100"),
    COL("own_pct", COL_REAL, "estimate_own / events * 100: the shade of the heat map"),
    COL_END,
};
static const struct col_spec cell_cols[] = {
    COL("xlo", COL_HEX, "first x"), COL("xhi", COL_HEX, "last x"), COL("ylo", COL_HEX, "first y"),
    COL("yhi", COL_HEX, "last y"),  COL("depth", COL_INT, "node depth"),
    COL("count", COL_INT, "the node's own counter"),
    COL("count_pct", COL_REAL, "count / events * 100"),
    COL_END,
};
static const struct col_spec series_cols[] = { RAP_SERIES_COLS, COL_END };
static const struct table_spec rap2d_tables[] = {
    { "hot_cells", "hot rectangles at the end of the window, scored against exact pair counts", hot_cols },
    { "cells", "every node of the final tree as a rectangle with its own counter", cell_cols },
    { "series", "tree nodes over time with merge points", series_cols },
    TABLE_END,
};
enum { T_HOT, T_CELLS, T_SERIES };

struct rap2d_model {
    struct rap_model_core core; /* first: rap_model_feed, _finish and _free take the model */
    struct model_out *out;      /* for the cells callback */
};

static void rap2d_plan(const struct param_values *pv, struct plan *p)
{
    rap_plan_stream(p, pv, stream_map[pv_enum(pv, "stream")], pv_enum(pv, "x_key"), pv_enum(pv, "y_key"),
                    (unsigned)pv_int(pv, "key_bits"));
}

static unsigned rap2d_needs(const struct param_values *pv)
{
    return rap_stream_needs(stream_map[pv_enum(pv, "stream")],
                            pv_enum(pv, "x_key") == KF_VALUE || pv_enum(pv, "y_key") == KF_VALUE);
}

static void *r2m_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    int64_t b = pv_int(pv, "b");
    unsigned stride = 0;
    while ((1ll << (2 * stride)) < b)
        stride++;
    if ((1ll << (2 * stride)) != b) {
        snprintf(ctx->err, ctx->errlen, "b must be a power of 4 (got %lld)", (long long)b);
        return NULL;
    }
    int stream = stream_map[pv_enum(pv, "stream")];
    unsigned bits = (unsigned)pv_int(pv, "key_bits");
    struct rap_prof_cfg cfg = { 0 };
    keysel_init(&cfg.sel, rap_stream_filter(stream), pv_enum(pv, "x_key"), pv_enum(pv, "y_key"), bits, bits);
    cfg.dims = 2;
    cfg.key_bits = bits;
    cfg.stride = stride;
    return rap_model_new(sizeof(struct rap2d_model), ctx, stream, &cfg);
}

static void cell_row(void *ctx, const struct rap_rect *r, const struct rap_span *s)
{
    struct rap2d_model *m = ctx;
    double n = (double)rap_prof_events(m->core.prof);
    union cell c[7];
    c[0].u = r->xlo;
    c[1].u = r->xhi;
    c[2].u = r->ylo;
    c[3].u = r->yhi;
    c[4].i = s->depth;
    c[5].i = (int64_t)s->count;
    c[6].r = n > 0 ? 100.0 * (double)s->count / n : NAN;
    out_row(m->out, T_CELLS, c);
}

static void rap2d_report(void *mm, struct model_out *out)
{
    struct rap2d_model *m = mm;
    const struct rap_model_core *k = &m->core;
    rap_out_common(out, k->prof, k->exact, k->hot, k->cache);
    struct rap_hot *h;
    size_t nh = rap_prof_hot(k->prof, k->hot, k->exact, &h);
    double n = (double)rap_prof_events(k->prof);
    for (size_t i = 0; nh != (size_t)-1 && i < nh; i++) {
        union cell c[4 + RAP_HOT_CELLS];
        c[0].u = h[i].lo;
        c[1].u = h[i].hi;
        c[2].u = h[i].ylo;
        c[3].u = h[i].yhi;
        rap_hot_cells(&c[4], &h[i], n);
        out_row(out, T_HOT, c);
    }
    free(h);
    m->out = out;
    rap_prof_cells(k->prof, cell_row, m);
    rap_out_series(out, T_SERIES, k->prof);
}

const struct model_desc rap2d_model = {
    .name = "rap2d",
    .summary = "two-dimensional RAP (section 5.5): hot rectangles of (load pc, load address) or other load pairs",
    .params = rap2d_params,
    .metrics = rap2d_metrics,
    .tables = rap2d_tables,
    .plan = rap2d_plan,
    .create = r2m_create,
    .feed = rap_model_feed,
    .finish = rap_model_finish,
    .report = rap2d_report,
    .free = rap_model_free,
    .trace_needs = rap2d_needs,
    .cost = 4,
};
MODEL_REGISTER(rap2d_model);

