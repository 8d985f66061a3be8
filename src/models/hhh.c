/* hhh.c - model "hhh": hierarchical heavy hitters with Space-Saving per
 * level (hhh_ss.h: mst = every level per event, Mitzenmacher et al. 2012;
 * rhhh = one random level per event, Ben Basat et al. 2017) over RAP's key
 * hierarchy and streams, as a modern baseline for RAP at equal memory
 * (`bytes`, 16 per entry = one RAP node).  Its heavy hitters are scored
 * like RAP's hot ranges against the exact counts of the stream.
 *
 * Table hot_ranges: the hierarchical heavy hitters above `hot`.
 *
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "families/hhh_ss.h"
#include "models/shared/rap_out.h"

static const char *const stream_choices[] = { "code", "values", "addresses", "dl1_miss", "l2_miss", "zero_loads", NULL };
static const char *const key_choices[] = { "auto", "pc", "address", "value", NULL };
static const char *const variant_choices[] = { "mst", "rhhh", NULL };

static const struct param_spec hhh_params[] = {
    P_ENUM("stream", 0, stream_choices, "as model rap: code | values | addresses | dl1_miss | l2_miss | zero_loads"),
    P_ENUM("key", 0, key_choices, "as model rap: auto | pc | address | value"),
    P_INT("key_bits", 64, 1, 64, "keys are taken modulo 2^key_bits"),
    P_INT("b", 4, 2, 65536, "hierarchy fan-out (a power of two): prefixes every log2 b bits"),
    P_ENUM("variant", 0, variant_choices, "mst: update every level; rhhh: one random level per event"),
    P_INT("bytes", 65536, 16, 4294967296.0, "memory: bytes / 16 Space-Saving entries, split over the levels"),
    P_REAL("hot", 0.10, 0.0001, 1, "heavy-hitter threshold (conditioned count) as a fraction of the events"),
    P_INT("seed", 1, 0, 4294967295.0, "rhhh level choice"),
    CACHE_GEOMETRY_PARAMS,
    PARAM_END,
};

static const struct metric_spec hhh_metrics[] = {
    METRIC("events", "records profiled"),
    METRIC("memory_bytes", "entries * 16"),
    METRIC("levels", "levels of the hierarchy (L + 1)"),
    METRIC("entries_per_level", "Space-Saving entries per level"),
    METRIC("hot_ranges", "hierarchical heavy hitters above hot"),
    METRIC("err_max_pct", "largest |estimate - exact| / exact * 100 over them (NaN: none)"),
    METRIC("err_avg_pct", "average of the same"),
    METRIC("err_max_eps", "largest |estimate - exact| / events over them"),
    METRIC_END,
};

static const struct col_spec hot_cols[] = {
    COL("lo", COL_HEX, "first key of the range"),
    COL("hi", COL_HEX, "last key of the range"),
    COL("width_log2", COL_INT, "log2 of the range's width"),
    COL("estimate", COL_INT, "Space-Saving count of the prefix (scaled for rhhh)"),
    COL("lower", COL_INT, "estimate minus its error"),
    COL("conditioned", COL_REAL, "estimate minus the lower bounds of its largest heavy sub-ranges"),
    COL("exact", COL_REAL, "events in the range, exact"),
    COL("error_pct", COL_REAL, "|estimate - exact| / exact * 100"),
    COL_END,
};
static const struct table_spec hhh_tables[] = {
    { "hot_ranges", "hierarchical heavy hitters at the end of the window, scored against exact counts", hot_cols },
    TABLE_END,
};

struct hhh_model {
    struct hhh *h;
    struct keysel sel;
    const struct keycount *exact;
    double hot;
    uint64_t bytes;
};

static int field_of(const struct param_values *pv)
{
    int key = pv_enum(pv, "key");
    return key == 0 ? rap_stream_key(pv_enum(pv, "stream")) : key - 1;
}

static void hhh_plan(const struct param_values *pv, struct plan *p)
{
    rap_plan_stream(p, pv, pv_enum(pv, "stream"), field_of(pv), KF_NONE, (unsigned)pv_int(pv, "key_bits"));
}

static unsigned hhh_needs(const struct param_values *pv)
{
    return rap_stream_needs(pv_enum(pv, "stream"), field_of(pv) == KF_VALUE);
}

static void *hhh_model_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    int64_t b = pv_int(pv, "b");
    if (b & (b - 1)) {
        snprintf(ctx->err, ctx->errlen, "b must be a power of two (got %lld)", (long long)b);
        return NULL;
    }
    struct hhh_model *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    unsigned bits = (unsigned)pv_int(pv, "key_bits");
    struct hhh_cfg c = { bits, 0, (uint64_t)pv_int(pv, "bytes") / 16, pv_enum(pv, "variant"), (uint64_t)pv_int(pv, "seed") };
    while ((1ll << c.stride) < b)
        c.stride++;
    m->h = hhh_create(&c, ctx->err, ctx->errlen);
    if (!m->h) {
        free(m);
        return NULL;
    }
    keysel_init(&m->sel, rap_stream_filter(pv_enum(pv, "stream")), field_of(pv), KF_NONE, bits, bits);
    m->exact = ctx->side[0];
    m->hot = pv_real(pv, "hot");
    m->bytes = hhh_entries_per_level(m->h) * hhh_levels(m->h) * 16;
    return m;
}

static void hhh_feed(void *mm, const void *recs, size_t n)
{
    struct hhh_model *m = mm;
    const struct event *ev = recs;
    uint64_t keys[256];
    size_t k = 0;
    if (m->sel.filter == KS_ALL && !m->sel.needs_value) {
        /* every record counts (the code and DL1 miss streams: a stage's
         * output): its key, without keysel_key's tests per record, written
         * straight into the tables' batch (hhh_keys_space) */
        const int field = m->sel.field;
        const uint64_t mask = m->sel.mask; /* the table's 2^key_bits */
        for (size_t i = 0; i < n;) {
            size_t room;
            uint64_t *d = hhh_keys_space(m->h, &room);
            size_t c = n - i < room ? n - i : room;
            for (size_t j = 0; j < c; j++)
                d[j] = keysel_field_of(field, &ev[i + j]) & mask;
            hhh_keys_done(m->h, c);
            i += c;
        }
        return;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t y;
        k += (size_t)keysel_key(&m->sel, &ev[i], &keys[k], &y);
        if (k == 256) {
            hhh_add_keys(m->h, keys, k);
            k = 0;
        }
    }
    hhh_add_keys(m->h, keys, k);
}

static void hhh_finish(void *mm) { (void)mm; }

static void hhh_report(void *mm, struct model_out *out)
{
    struct hhh_model *m = mm;
    double n = (double)hhh_events(m->h);
    struct hhh_range *r;
    size_t nh = hhh_query(m->h, m->hot, &r);
    if (nh == (size_t)-1)
        nh = 0;
    int have_exact = m->exact && keycount_sorted(m->exact);
    double emax = NAN, esum = 0, epsmax = NAN;
    for (size_t i = 0; i < nh; i++) {
        double exact = have_exact ? (double)keycount_range(m->exact, r[i].lo, r[i].hi) : NAN;
        double e = have_exact ? (exact > 0 ? 100.0 * fabs((double)r[i].estimate - exact) / exact : 0) : NAN;
        if (have_exact) {
            emax = i == 0 || e > emax ? e : emax;
            double d = fabs((double)r[i].estimate - exact) / (n > 0 ? n : 1);
            epsmax = i == 0 || d > epsmax ? d : epsmax;
            esum += e;
        }
        unsigned w = 0;
        while (w < 64 && ((r[i].hi - r[i].lo) >> w))
            w++;
        union cell c[8];
        c[0].u = r[i].lo;
        c[1].u = r[i].hi;
        c[2].i = w;
        c[3].i = (int64_t)r[i].estimate;
        c[4].i = (int64_t)r[i].lower;
        c[5].r = r[i].conditioned;
        c[6].r = exact;
        c[7].r = e;
        out_row(out, 0, c);
    }
    free(r);
    out_metric(out, 0, n);
    out_metric(out, 1, (double)m->bytes);
    out_metric(out, 2, hhh_levels(m->h));
    out_metric(out, 3, (double)hhh_entries_per_level(m->h));
    out_metric(out, 4, (double)nh);
    out_metric(out, 5, emax);
    out_metric(out, 6, have_exact && nh ? esum / (double)nh : NAN);
    out_metric(out, 7, epsmax);
}

static void hhh_model_free(void *mm)
{
    struct hhh_model *m = mm;
    if (!m)
        return;
    hhh_free(m->h);
    free(m);
}

const struct model_desc hhh_model = {
    .name = "hhh",
    .summary = "hierarchical heavy hitters with Space-Saving per level (MST 2012 / RHHH 2017): RAP's baseline at equal memory",
    .params = hhh_params,
    .metrics = hhh_metrics,
    .tables = hhh_tables,
    .plan = hhh_plan,
    .create = hhh_model_create,
    .feed = hhh_feed,
    .finish = hhh_finish,
    .report = hhh_report,
    .free = hhh_model_free,
    .trace_needs = hhh_needs,
    .cost = 20,
};
MODEL_REGISTER(hhh_model);

