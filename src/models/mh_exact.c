/* mh_exact.c - the perfect interval profiler of the multihash paper
 * (section 5.6.1): per interval, the number of distinct tuples (Figure 4),
 * the number of candidates, i.e. tuples with count >= T (Figure 5), and the
 * change of the candidate set from one interval to the next (Figure 6).
 *
 * Change metric (param `change`):
 *   new     = 100 * |C_i \ C_{i-1}| / |C_i|: the share of this interval's
 *             candidates that the previous interval's profile did not name,
 *             i.e. what an optimizer trained on interval i-1 misses in i
 *             (default; 100 if C_i is empty but C_{i-1} is not, 0 if both are).
 *   jaccard = 100 * (1 - |C_i & C_{i-1}| / |C_i | C_{i-1}|).
 * The first interval has no predecessor and no change value.
 *
 * Series (param `series_mode`): "intervals" gives one row per interval;
 * "change_cdf" gives the Figure 6 curve instead: 101 rows whose "interval"
 * column is x = 0..100 (% of intervals) and whose change_pct is y, the change
 * that x% of intervals stay at or below (0.1% resolution).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/shared/mh_member.h"

static const char *const change_choices[] = { "new", "jaccard", NULL };
static const char *const series_mode_choices[] = { "intervals", "change_cdf", NULL };

static const struct param_spec exact_params[] = {
    MH_PARAMS_STREAM,
    P_ENUM("change", 0, change_choices,
           "candidate-set change: new = share of this interval's candidates absent last interval; jaccard = 1 - |C&P|/|C|P|"),
    P_ENUM("series_mode", 0, series_mode_choices,
           "series rows: intervals = one per interval; change_cdf = 101 points (x% of intervals, change_pct) of Figure 6"),
    PARAM_END
};

static const struct metric_spec exact_metrics[] = {
    METRIC("intervals", "intervals evaluated"),
    METRIC("tuples", "tuples in the window"),
    METRIC("distinct_avg", "distinct tuples per interval, mean (Figure 4)"),
    METRIC("distinct_median", "distinct tuples per interval, median"),
    METRIC("distinct_max", "distinct tuples per interval, maximum"),
    METRIC("candidates_avg", "tuples with count >= T per interval, mean (Figure 5)"),
    METRIC("candidates_median", "candidates per interval, median"),
    METRIC("candidates_max", "candidates per interval, maximum"),
    METRIC("coverage_pct", "share of the interval's tuples that belong to candidates, mean, percent"),
    METRIC("change_avg", "candidate-set change from the previous interval (param change), mean, percent (Figure 6)"),
    METRIC("change_p10", "change, 10th percentile of intervals"),
    METRIC("change_p25", "change, 25th percentile"),
    METRIC("change_p50", "change, median"),
    METRIC("change_p75", "change, 75th percentile"),
    METRIC("change_p90", "change, 90th percentile"),
    METRIC("skipped_loads", "loads without a captured value (not tuples)"),
    METRIC("candidate_T", "candidate threshold T in tuples"),
    METRIC_END,
};
static const struct col_spec exact_series[] = {
    COL("index", COL_INT, "interval number (series_mode intervals) or x = percent of intervals (change_cdf)"),
    COL("distinct", COL_REAL, "distinct tuples in the interval"),
    COL("candidates", COL_REAL, "tuples with count >= T"),
    COL("coverage_pct", COL_REAL, "share of the interval's tuples that belong to candidates"),
    COL("change_pct", COL_REAL, "candidate-set change from the previous interval (change_cdf: the change x% of intervals stay at or below)"),
    COL_END,
};
static const struct table_spec exact_tables[] = { TABLE("series", "per-interval profile statistics", exact_series), TABLE_END };

#define CHANGE_BINS 1001 /* 0.0% .. 100.0% in 0.1% steps */

struct tuple {
    uint64_t a, b;
};

struct exact_model {
    struct mh_member mb; /* first: source, interval, exact table (mb.exact) */
    int change_mode, series_mode;
    struct tuple *prev;                 /* previous interval's candidates */
    size_t nprev, cand_cap;
    uint32_t *distinct_hist;            /* [0, interval] */
    uint32_t *cand_hist;                /* [0, cand_cap] */
    uint32_t change_hist[CHANGE_BINS];
    uint64_t nchange;
    double sum_distinct, sum_cand, sum_cover, sum_change;
    uint64_t max_distinct, max_cand;
};

static void exact_free(void *m)
{
    struct exact_model *x = m;
    if (!x)
        return;
    free(x->prev);
    free(x->distinct_hist);
    free(x->cand_hist);
    free(x);
}

static void *exact_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    char *err = ctx->err;
    size_t errlen = ctx->errlen;
    struct exact_model *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mh_member_init(&x->mb, ctx);
    x->change_mode = pv_enum(pv, "change");
    x->series_mode = pv_enum(pv, "series_mode");
    x->cand_cap = (size_t)(x->mb.iv.length / x->mb.iv.T) + 1;
    x->prev = malloc(x->cand_cap * sizeof *x->prev);
    x->distinct_hist = calloc(x->mb.iv.length + 1, sizeof *x->distinct_hist);
    x->cand_hist = calloc(x->cand_cap + 1, sizeof *x->cand_hist);
    if (!x->prev || !x->distinct_hist || !x->cand_hist) {
        snprintf(err, errlen, "out of memory (interval %llu)", (unsigned long long)x->mb.iv.length);
        exact_free(x);
        return NULL;
    }
    return x;
}

static void close_interval(struct mh_member *mb)
{
    struct exact_model *x = (struct exact_model *)mb;
    const struct mh_exact_table *t = x->mb.exact;
    uint64_t T = x->mb.iv.T;
    size_t cand = 0;
    uint64_t covered = 0;
    for (size_t k = 0; k < t->nused; k++) {
        const struct mh_exact_slot *s = &t->slots[t->used[k]];
        if (s->count >= T) {
            cand++;
            covered += s->count;
        }
    }
    double change = NAN;
    if (x->mb.iv.index > 0) {
        size_t inter = 0;
        for (size_t k = 0; k < x->nprev; k++) {
            const struct mh_exact_slot *s = mh_exact_find(t, x->prev[k].a, x->prev[k].b);
            if (s && s->count >= T)
                inter++;
        }
        if (x->change_mode == 0)
            change = cand ? 100.0 * (double)(cand - inter) / (double)cand : (x->nprev ? 100.0 : 0.0);
        else {
            size_t uni = cand + x->nprev - inter;
            change = uni ? 100.0 * (1.0 - (double)inter / (double)uni) : 0.0;
        }
        long bin = lround(change * 10.0);
        x->change_hist[bin < 0 ? 0 : bin >= CHANGE_BINS ? CHANGE_BINS - 1 : bin]++;
        x->nchange++;
        x->sum_change += change;
    }
    /* remember this interval's candidates */
    x->nprev = 0;
    for (size_t k = 0; k < t->nused && x->nprev < x->cand_cap; k++) {
        const struct mh_exact_slot *s = &t->slots[t->used[k]];
        if (s->count >= T) {
            x->prev[x->nprev].a = s->a;
            x->prev[x->nprev].b = s->b;
            x->nprev++;
        }
    }
    double cover = x->mb.iv.pos ? 100.0 * (double)covered / (double)x->mb.iv.pos : 0.0;
    x->distinct_hist[t->nused <= x->mb.iv.length ? t->nused : x->mb.iv.length]++;
    x->cand_hist[cand <= x->cand_cap ? cand : x->cand_cap]++;
    x->sum_distinct += (double)t->nused;
    x->sum_cand += (double)cand;
    x->sum_cover += cover;
    if (t->nused > x->max_distinct)
        x->max_distinct = t->nused;
    if (cand > x->max_cand)
        x->max_cand = cand;
    if (x->series_mode == 0) {
        union cell row[5];
        row[0].i = (int64_t)x->mb.iv.index;
        row[1].r = (double)t->nused;
        row[2].r = (double)cand;
        row[3].r = cover;
        row[4].r = change;
        out_row(x->mb.out, 0, row);
    }
    x->mb.iv.index++;
    x->mb.iv.pos = 0;
}

/* Smallest histogram value v (bin * scale) with at least p% of samples <= v. */
static double hist_percentile(const uint32_t *h, size_t nbins, uint64_t total, double p, double scale)
{
    if (total == 0)
        return NAN;
    double need = p / 100.0 * (double)total;
    uint64_t acc = 0;
    for (size_t k = 0; k < nbins; k++) {
        acc += h[k];
        if (acc > 0 && (double)acc >= need - 1e-9)
            return (double)k * scale;
    }
    return (double)(nbins - 1) * scale;
}

static void exact_finish(void *m)
{
    struct exact_model *x = m;
    mh_member_finish(&x->mb, close_interval);
    if (x->series_mode == 1)
        for (unsigned p = 0; p <= 100; p++) {
            union cell row[5];
            row[0].i = p;
            row[1].r = row[2].r = row[3].r = NAN;
            row[4].r = hist_percentile(x->change_hist, CHANGE_BINS, x->nchange, p, 0.1);
            out_row(x->mb.out, 0, row);
        }
}

static void exact_report(void *m, struct model_out *o)
{
    const struct exact_model *x = m;
    double out[17];
    uint64_t n = x->mb.iv.index;
    double dn = n ? (double)n : NAN;
    out[0] = (double)n;
    out[1] = (double)x->mb.src.tuples;
    out[2] = x->sum_distinct / dn;
    out[3] = hist_percentile(x->distinct_hist, x->mb.iv.length + 1, n, 50, 1);
    out[4] = n ? (double)x->max_distinct : NAN;
    out[5] = x->sum_cand / dn;
    out[6] = hist_percentile(x->cand_hist, x->cand_cap + 1, n, 50, 1);
    out[7] = n ? (double)x->max_cand : NAN;
    out[8] = x->sum_cover / dn;
    out[9] = x->nchange ? x->sum_change / (double)x->nchange : NAN;
    static const double pct[5] = { 10, 25, 50, 75, 90 };
    for (int k = 0; k < 5; k++)
        out[10 + k] = hist_percentile(x->change_hist, CHANGE_BINS, x->nchange, pct[k], 0.1);
    out[15] = (double)x->mb.src.skipped_loads;
    out[16] = (double)x->mb.iv.T;
    for (size_t k = 0; k < 17; k++)
        out_metric(o, k, out[k]);
}

static void exact_feed(void *m, const void *recs, size_t n)
{
    struct exact_model *x = m;
    (void)recs;
    mh_member_begin(&x->mb, n);
    mh_member_end(&x->mb, n);
}

static void exact_mark(void *m, uint32_t mark)
{
    (void)mark;
    close_interval(m);
}

static void exact_plan(const struct param_values *pv, struct plan *p) { mh_member_plan(pv, p, true); }

static const struct model_desc exact_model = {
    .name = "exact",
    .summary = "perfect interval profiler: distinct tuples, candidates, candidate-set change (multihash Figs 4-6)",
    .params = exact_params,
    .metrics = exact_metrics,
    .tables = exact_tables,
    .plan = exact_plan,
    .create = exact_create,
    .feed = exact_feed,
    .mark = exact_mark,
    .finish = exact_finish,
    .report = exact_report,
    .free = exact_free,
    .trace_needs = mh_trace_needs,
    .cost = 0.2,
};
MODEL_REGISTER(exact_model);
