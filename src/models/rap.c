/* rap.c - model "rap": Range Adaptive Profiling (Mysore, Agrawal, Neuber,
 * Sherwood, Shrivastava, Suri, "Formulating and Implementing Profiling over
 * Adaptive Ranges", ACM 2007) of one stream of a trace window.
 *
 * The tree (rap_tree.h: splits at eps n / L, batched merges with period
 * ratio q, multibit trie), its feeding (rap_prof.h: none | buffer | full
 * aggregation) and the streams (rap_out.h: code = basic-block starts,
 * values, addresses, dl1_miss, l2_miss, zero_loads) are described there.
 * Every instance also reads the exact count of every key of its stream
 * (stage exact_keys), so the hot ranges it reports carry their exact counts
 * and errors.
 *
 * Tables:
 *   hot_ranges  one row per hot range at the end of the window (pre-order:
 *               ranges ascending, a range before its sub-ranges), with its
 *               label "[lo, hi]" (Figures 7 and 12)
 *   series      nodes over time: at every merge (before and after), every
 *               series_every events, and at the end, with the worst-case
 *               bound at each point (Figures 3 and 9)
 *   coverage    share of the events in hot ranges of width <= 2^w for every
 *               w (Figure 11); the metric coverage_pct is its row
 *               w = coverage_width, so that the main CSV carries Figure 11's
 *               2^16 point with its statistics over windows
 *
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "models/shared/rap_model.h"

static const char *const stream_choices[] = { "code", "values", "addresses", "dl1_miss", "l2_miss", "zero_loads", NULL };
static const char *const key_choices[] = { "auto", "pc", "address", "value", NULL };

static const struct param_spec rap_params[] = {
    P_ENUM("stream", 0, stream_choices,
           "code: basic-block starts; values: loaded values; addresses: load addresses; dl1_miss / l2_miss: loads "
           "missing DL1 / L2 (cache stage); zero_loads: loads of 0"),
    P_ENUM("key", 0, key_choices, "key of a record: auto (code: pc, values: value, else address) | pc | address | value"),
    P_INT("key_bits", 64, 1, 64, "R = 2^key_bits; keys are taken modulo R"),
    P_INT("b", 4, 2, 65536, "branching factor (a power of two): children per split"),
    RAP_TREE_PARAMS,
    CACHE_GEOMETRY_PARAMS,
    P_INT("coverage_width", 16, 0, 64,
          "w of the metric coverage_pct: hot ranges no wider than 2^w (Figure 11 quotes 2^16); above key_bits: key_bits"),
    PARAM_END,
};

static const struct metric_spec rap_metrics[] = {
    RAP_COMMON_METRICS,
    METRIC("coverage_pct", "percent of the events in hot ranges no wider than 2^coverage_width (own weights, "
                           "estimated): the coverage table's row w = coverage_width (Figure 11)"),
    METRIC_END,
};

static const struct col_spec hot_cols[] = {
    COL("lo", COL_HEX, "first key of the range"),
    COL("hi", COL_HEX, "last key of the range"),
    COL("width_log2", COL_INT, "log2 of the range's width"),
    COL("depth", COL_INT, "node depth (root 0)"),
    COL("estimate", COL_INT, "RAP's estimate of the range's events (its subtree's counters)"),
    COL("estimate_own", COL_INT, "counter + non-hot sub-ranges: the range's weight excluding hot sub-ranges"),
    COL("exact", COL_REAL, "events in the range, exact"),
    COL("exact_own", COL_REAL, "exact minus the exact events of its largest hot sub-ranges"),
    COL("error_pct", COL_REAL, "(exact - estimate) / exact * 100"),
    COL("own_pct", COL_REAL, "estimate_own / events * 100 (Figure 7's labels)"),
    COL("pct", COL_REAL, "estimate / events * 100: the whole range, hot sub-ranges included"),
    COL("range", COL_TEXT, "\"[lo, hi]\" in hexadecimal without 0x, as the paper labels ranges"),
    COL_END,
};
static const struct col_spec series_cols[] = { RAP_SERIES_COLS, COL_END };
static const struct col_spec coverage_cols[] = { RAP_COVERAGE_COLS, COL_END };
static const struct table_spec rap_tables[] = {
    { "hot_ranges", "hot ranges at the end of the window, scored against exact counts", hot_cols },
    { "series", "tree nodes over time with merge points and the worst-case bound", series_cols },
    { "coverage", "share of the events in hot ranges no wider than 2^w, w = 0 .. key_bits (Figure 11)", coverage_cols },
    TABLE_END,
};
enum { T_HOT, T_SERIES, T_COVERAGE };

struct rap_model {
    struct rap_model_core core; /* first: rap_model_feed, _finish and _free take the model */
    unsigned coverage_width;
};

static int field_of(const struct param_values *pv)
{
    int key = pv_enum(pv, "key");
    return key == 0 ? rap_stream_key(pv_enum(pv, "stream")) : key - 1;
}

static void rap_plan(const struct param_values *pv, struct plan *p)
{
    rap_plan_stream(p, pv, pv_enum(pv, "stream"), field_of(pv), KF_NONE, (unsigned)pv_int(pv, "key_bits"));
}

static unsigned rap_needs(const struct param_values *pv)
{
    return rap_stream_needs(pv_enum(pv, "stream"), field_of(pv) == KF_VALUE);
}

static void *rap_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    int64_t b = pv_int(pv, "b");
    if (b & (b - 1)) {
        snprintf(ctx->err, ctx->errlen, "b must be a power of two (got %lld)", (long long)b);
        return NULL;
    }
    int stream = pv_enum(pv, "stream");
    struct rap_prof_cfg cfg = { 0 };
    unsigned bits = (unsigned)pv_int(pv, "key_bits");
    keysel_init(&cfg.sel, rap_stream_filter(stream), field_of(pv), KF_NONE, bits, bits);
    cfg.dims = 1;
    cfg.key_bits = bits;
    for (cfg.stride = 0; (1ll << cfg.stride) < b; cfg.stride++)
        ;
    struct rap_model *m = rap_model_new(sizeof *m, ctx, stream, &cfg);
    if (!m)
        return NULL;
    m->coverage_width = (unsigned)pv_int(pv, "coverage_width");
    if (m->coverage_width > bits)
        m->coverage_width = bits;
    return m;
}

static void rap_report(void *mm, struct model_out *out)
{
    struct rap_model *m = mm;
    const struct rap_model_core *k = &m->core;
    rap_out_common(out, k->prof, k->exact, k->hot, k->cache);
    struct rap_hot *h;
    size_t nh = rap_prof_hot(k->prof, k->hot, k->exact, &h);
    double n = (double)rap_prof_events(k->prof);
    for (size_t i = 0; nh != (size_t)-1 && i < nh; i++) {
        char label[48];
        rap_range_label(label, sizeof label, h[i].lo, h[i].hi);
        union cell c[4 + RAP_HOT_CELLS];
        c[0].u = h[i].lo;
        c[1].u = h[i].hi;
        rap_hot_cells(&c[2], &h[i], n);
        c[2 + RAP_HOT_CELLS].r = n > 0 ? 100.0 * (double)h[i].estimate / n : NAN;
        c[3 + RAP_HOT_CELLS].s = label;
        out_row(out, T_HOT, c);
    }
    rap_out_coverage(out, T_COVERAGE, h, nh == (size_t)-1 ? 0 : nh, n, rap_prof_key_bits(k->prof));
    out_metric(out, RAP_COMMON_METRIC_COUNT, rap_coverage_pct(h, nh == (size_t)-1 ? 0 : nh, n, m->coverage_width));
    free(h);
    rap_out_series(out, T_SERIES, k->prof);
}

const struct model_desc rap_model = {
    .name = "rap",
    .summary = "Range Adaptive Profiling tree (Mysore et al. 2007) of code, values, addresses, cache misses or zero loads",
    .params = rap_params,
    .metrics = rap_metrics,
    .tables = rap_tables,
    .plan = rap_plan,
    .create = rap_create,
    .feed = rap_model_feed,
    .finish = rap_model_finish,
    .report = rap_report,
    .free = rap_model_free,
    .trace_needs = rap_needs,
    .cost = 3,
};
MODEL_REGISTER(rap_model);

