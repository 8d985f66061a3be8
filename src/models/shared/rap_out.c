/* rap_out.c - plans, parameters, metrics and series shared by the RAP models
 * (see rap_out.h). */

#include "models/shared/rap_out.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "families/rap_bound.h"
#include "stages/bbstart.h"
#include "stages/exact_keys.h"
#include "trace/trace.h"

const char *const rap_agg_choices[] = RAP_AGG_CHOICES;
const char *const rap_split_choices[] = { "before", "after", NULL };
_Static_assert(RAP_SPLIT_BEFORE == 0 && RAP_SPLIT_AFTER == 1, "rap_split_choices follows enum rap_split");

int rap_stream_filter(int stream)
{
    switch (stream) {
    case RS_CODE:
    case RS_DL1:
        return KS_ALL;
    case RS_L2:
        return KS_L2MISS;
    case RS_ZERO:
        return KS_ZERO_LOADS;
    default:
        return KS_LOADS;
    }
}

int rap_stream_key(int stream)
{
    return stream == RS_CODE ? KF_PC : stream == RS_VALUES ? KF_VALUE : KF_ADDR;
}

unsigned rap_stream_needs(int stream, int uses_value)
{
    unsigned f = 0;
    if (stream == RS_CODE)
        f |= TRF_HAS_BRANCHES;
    if (stream == RS_VALUES || stream == RS_ZERO || uses_value)
        f |= TRF_HAS_VALUES;
    return f;
}

static const char *const geometry_names[] = { CACHE_GEOMETRY_NAMES };

void rap_plan_stream(struct plan *p, const struct param_values *pv, int stream, int field, int field2, unsigned key_bits)
{
    plan_node in;
    if (stream == RS_CODE) {
        in = plan_stage(p, plan_events(p, BBSTART_EVENT_MASK), &bbstart_stage, NULL);
    } else if (stream == RS_DL1 || stream == RS_L2) {
        struct param_values spv;
        params_defaults(&spv, cache_stage.params);
        for (size_t i = 0; i < sizeof geometry_names / sizeof *geometry_names; i++) {
            size_t k;
            params_find(pv->spec, geometry_names[i], &k);
            spv.v[i] = pv->v[k]; /* same rows, same order (CACHE_GEOMETRY_PARAMS) */
        }
        unsigned kinds = EV_BIT(EV_LOAD) | EV_BIT(EV_STORE) | (pv_bool(pv, "ifetch") ? EV_BIT(EV_INSN) : 0);
        in = plan_stage(p, plan_events(p, kinds), &cache_stage, &spv);
    } else {
        in = plan_events(p, EV_BIT(EV_LOAD));
    }
    plan_feed(p, in);
    struct param_values epv;
    params_defaults(&epv, exact_keys_stage.params);
    pv_set_enum(&epv, "filter", rap_stream_filter(stream));
    pv_set_enum(&epv, "key", field);
    pv_set_enum(&epv, "key2", field2);
    pv_set_int(&epv, "key_bits", key_bits);
    pv_set_int(&epv, "key2_bits", key_bits);
    plan_side(p, plan_stage(p, in, &exact_keys_stage, &epv));
}

void rap_tree_params(const struct param_values *pv, struct rap_prof_cfg *cfg)
{
    cfg->tree.eps = pv_real(pv, "eps");
    cfg->tree.q = pv_real(pv, "q");
    cfg->tree.merge_first = (uint64_t)pv_int(pv, "merge_first");
    cfg->tree.max_nodes = (uint64_t)pv_int(pv, "max_bytes") / RAP_NODE_BYTES;
    if (pv_int(pv, "max_bytes") > 0 && cfg->tree.max_nodes == 0)
        cfg->tree.max_nodes = 1; /* the root alone */
    cfg->tree.sample_every = (uint64_t)pv_int(pv, "series_every");
    cfg->tree.split = pv_enum(pv, "split") == 1 ? RAP_SPLIT_AFTER : RAP_SPLIT_BEFORE;
    cfg->agg = pv_enum(pv, "aggregation");
    cfg->buffer_entries = (size_t)pv_int(pv, "buffer_entries");
}

enum {
    M_EVENTS, M_DISTINCT, M_NODES_MAX, M_NODES_STEADY, M_NODES_AVG, M_NODES_FINAL, M_MEM_MAX, M_MEM_AVG, M_HOT, M_ERR_MAX, M_ERR_AVG,
    M_ERR_MAX_EPS, M_ERR_ALL_EPS, M_COVERAGE, M_SPLITS, M_MERGES, M_MERGED, M_REFUSED, M_UPDATES, M_AGG, M_VISITS,
    M_THRESHOLD, M_LEVELS, M_BOUND, M_DL1, M_L2, M_COUNT
};

/* The bound configuration of a tree (a 2-D tree is a 1-D trie over
 * interleaved keys: its own key_bits and stride are the doubled ones). */
static void bound_cfg(const struct rap_tree *t, struct rap_bound_cfg *c)
{
    struct rap_tree_cfg tc;
    rap_tree_config(t, &tc);
    c->key_bits = tc.key_bits;
    c->stride = tc.stride;
    c->eps = tc.eps;
    c->q = tc.q;
    c->merge_first = tc.merge_first;
    c->split = tc.split;
}
_Static_assert(M_COUNT == RAP_COMMON_METRIC_COUNT, "RAP_COMMON_METRICS and its indexes agree");

void rap_out_common(struct model_out *o, const struct rap_prof *p, const struct keycount *exact, double hot,
                    const struct cache_stats *cs)
{
    struct rap_tree_stats st;
    rap_tree_stats(rap_prof_tree(p), &st);
    int have_exact = exact && keycount_sorted(exact);
    out_metric(o, M_EVENTS, (double)st.n);
    out_metric(o, M_DISTINCT, have_exact ? (double)keycount_distinct(exact) : NAN);
    out_metric(o, M_NODES_MAX, (double)st.nodes_max);
    /* the tree only grows between merges: its peaks are just before them */
    size_t nm;
    const struct rap_merge_rec *mr = rap_tree_merges(rap_prof_tree(p), &nm);
    double steady = nm ? (double)st.nodes : NAN;
    for (size_t i = 1; i < nm; i++)
        if ((double)mr[i].before > steady)
            steady = (double)mr[i].before;
    out_metric(o, M_NODES_STEADY, steady);
    out_metric(o, M_NODES_AVG, st.nodes_avg);
    out_metric(o, M_NODES_FINAL, (double)st.nodes);
    out_metric(o, M_MEM_MAX, (double)st.nodes_max * RAP_NODE_BYTES);
    out_metric(o, M_MEM_AVG, st.nodes_avg * RAP_NODE_BYTES);

    struct rap_hot *h;
    size_t nh = rap_prof_hot(p, hot, exact, &h);
    double err_max = NAN, err_sum = 0, eps_max = NAN, own = 0;
    size_t scored = 0;
    if (nh == (size_t)-1)
        nh = 0;
    for (size_t i = 0; i < nh; i++) {
        own += (double)h[i].estimate_own;
        if (!have_exact)
            continue;
        double e = fabs(h[i].error_pct);
        double m = fabs((double)h[i].exact - (double)h[i].estimate) / (st.n ? (double)st.n : 1);
        err_max = scored == 0 || e > err_max ? e : err_max;
        eps_max = scored == 0 || m > eps_max ? m : eps_max;
        err_sum += e;
        scored++;
    }
    free(h);
    out_metric(o, M_HOT, (double)nh);
    out_metric(o, M_ERR_MAX, err_max);
    out_metric(o, M_ERR_AVG, scored ? err_sum / (double)scored : NAN);
    out_metric(o, M_ERR_MAX_EPS, eps_max);
    out_metric(o, M_ERR_ALL_EPS, rap_prof_worst_eps(p, exact));
    out_metric(o, M_COVERAGE, st.n ? 100.0 * own / (double)st.n : NAN);
    out_metric(o, M_SPLITS, (double)st.splits);
    out_metric(o, M_MERGES, (double)st.merges);
    out_metric(o, M_MERGED, (double)st.nodes_merged);
    out_metric(o, M_REFUSED, (double)st.splits_refused);
    out_metric(o, M_UPDATES, (double)st.updates);
    out_metric(o, M_AGG, st.updates ? (double)st.n / (double)st.updates : NAN);
    out_metric(o, M_VISITS, (double)st.visits);
    out_metric(o, M_THRESHOLD, (double)st.threshold);
    out_metric(o, M_LEVELS, (double)st.levels);
    struct rap_bound_cfg bc;
    bound_cfg(rap_prof_tree(p), &bc);
    out_metric(o, M_BOUND, rap_bound_batched_max(&bc, st.n ? st.n : 1));
    out_metric(o, M_DL1, cs && cs->loads ? 100.0 * (double)cs->load_l1_misses / (double)cs->loads : NAN);
    out_metric(o, M_L2, cs && cs->loads ? 100.0 * (double)cs->load_l2_misses / (double)cs->loads : NAN);
}

struct series {
    struct model_out *o;
    size_t table;
    int64_t index;
    uint64_t last;  /* events of the last row */
    struct rap_bound_cfg bc;
};

static void series_row(struct series *w, uint64_t n, uint64_t nodes, int point, int merge)
{
    union cell c[6];
    c[0].i = w->index++;
    c[1].i = (int64_t)n;
    c[2].i = (int64_t)nodes;
    c[3].i = point;
    c[4].i = merge;
    c[5].r = n ? rap_bound_batched(&w->bc, n) : 1;
    out_row(w->o, w->table, c);
    w->last = n;
}

void rap_out_series(struct model_out *o, size_t table, const struct rap_prof *p)
{
    const struct rap_tree *t = rap_prof_tree(p);
    size_t nm, ns, im = 0, is = 0;
    const struct rap_merge_rec *m = rap_tree_merges(t, &nm);
    const struct rap_sample *s = rap_tree_samples(t, &ns);
    struct rap_tree_stats st;
    rap_tree_stats(t, &st);
    struct series w = { o, table, 0, 0, { 0 } };
    bound_cfg(t, &w.bc);
    if (st.n == 0) {
        series_row(&w, 0, st.nodes, 3, 0);
        return;
    }
    int ended = 0;
    while (im < nm || is < ns) {
        if (is < ns && (im == nm || s[is].n < m[im].n)) {
            /* a sample just after a merge, or at the last event, is not repeated */
            if (s[is].n > w.last && s[is].n < st.n)
                series_row(&w, s[is].n, s[is].nodes, 0, 0);
            is++;
            continue;
        }
        series_row(&w, m[im].n, m[im].before, 1, 1);
        if (m[im].n + 1 < st.n) {
            series_row(&w, m[im].n + 1, m[im].after, 2, 0);
        } else if (m[im].n == st.n) {
            /* a merge after the very last event: the tree it leaves is the end */
            series_row(&w, st.n + 1, m[im].after, 3, 0);
            ended = 1;
        } /* else the merge followed event n - 1: the end row at n follows */
        im++;
    }
    if (!ended)
        series_row(&w, st.n, st.nodes, 3, 0);
}

void rap_range_label(char *buf, size_t len, uint64_t lo, uint64_t hi)
{
    snprintf(buf, len, "[%llx, %llx]", (unsigned long long)lo, (unsigned long long)hi);
}

double rap_coverage_pct(const struct rap_hot *h, size_t nh, double events, unsigned width_log2)
{
    double own = 0;
    for (size_t i = 0; i < nh; i++)
        if (h[i].width_log2 <= width_log2)
            own += (double)h[i].estimate_own;
    return events > 0 ? 100.0 * own / events : NAN;
}

void rap_out_coverage(struct model_out *o, size_t table, const struct rap_hot *h, size_t nh, double events,
                      unsigned key_bits)
{
    for (unsigned w = 0; w <= key_bits; w++) {
        double exact_own = 0;
        int64_t ranges = 0;
        int known = 1;
        for (size_t i = 0; i < nh; i++) {
            if (h[i].width_log2 > w)
                continue;
            ranges++;
            if (h[i].exact == UINT64_MAX)
                known = 0;
            else
                exact_own += (double)h[i].exact_own;
        }
        union cell c[4];
        c[0].i = w;
        c[1].i = ranges;
        c[2].r = rap_coverage_pct(h, nh, events, w);
        c[3].r = events > 0 && known ? 100.0 * exact_own / events : NAN;
        out_row(o, table, c);
    }
}
