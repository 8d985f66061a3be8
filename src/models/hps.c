/* hps.c - model "hps": HPS bursty sampling (Mousa and Krintz, "HPS: Hybrid
 * Profiling Support", UCSB TR 2005-08 / PACT 2005), one profile type per
 * instance: its accuracy against the exhaustive profile (section 5) and
 * its overhead with and without HPS's conditional control (Figure 7), in
 * dynamic instructions.
 *
 * Inputs (plan): the events inside bursts from stage "bursty" (burst,
 * sparsity = burst * (period - 1), phase, phases; only the kinds the
 * profile uses), each with the samplers whose burst holds it and those
 * whose burst ended before it; and, as a side input, stage "hps_exact" for
 * the profile definition, shared by every sampling configuration of a job.
 * One sampled profile per sampler (phase), built by the same code as the
 * exhaustive one (hps_profile.h); hot data streams are cut at the ends of
 * that sampler's bursts.  Every metric is computed per sampler, as a
 * single-phase run would, and reported as the mean over samplers
 * (hps_phase_mean: the accuracy is the mean of the per-phase accuracies,
 * the overhead the mean per-phase overhead, counts such as sampled events,
 * bursts or members their mean, which need not be an integer; metrics the
 * phase does not change are exact).  The `top` table shows the first
 * sampler's sampled profile (the one starting at `phase`).  With accuracy = false the profiles are not built: the overhead
 * and count metrics are the same to the bit, the exact stage is the cheap
 * call pair one (the window's counts are in every exact stage), and hot
 * data streams skip both grammars (Figure 7 needs only the overhead).
 * Definitions, the cost model and what it cannot show: docs/hps.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "families/hps_accuracy.h"
#include "families/hps_overhead.h"
#include "families/hps_phases.h"
#include "families/hps_profile.h"
#include "models/shared/hps_bursty.h"
#include "run/model.h"
#include "stages/hps_stages.h"
#include "trace/trace.h"

static const struct param_spec hps_params[] = {
    P_ENUM("profile", 0, hps_profile_choices, "profile type: callpair, method or streams (hot data streams)"),
    P_INT("burst", 1, 1, 1e6, "burst length: sampling events (calls and back edges) per burst"),
    P_INT("period", 100, 1, 1e9,
          "1 / sampling frequency: burst / (burst + sparsity) = 1 / period, so sparsity = burst * (period - 1); "
          "1 samples everything"),
    HPS_PARAM_PHASE,
    P_ENUM("refs", 0, hps_refs_choices, "streams: data references are loads, or loads and stores (memory)"),
    P_ENUM("ref_key", 0, hps_refkey_choices, "streams: a reference is its (pc, address) or its address alone"),
    P_INT("min_len", 10, 2, 1e6, "streams: shortest hot data stream, in references"),
    P_INT("max_len", 100, 2, 1e9, "streams: longest hot data stream, in references"),
    P_REAL("heat_frac", 0.001, 0, 1, "streams: heat threshold H as a fraction of the references in the string"),
    P_REAL("cover", 0.9, 0.01, 1, "accuracy: members covering this share of each profile are compared"),
    P_ENUM("tie", HPS_TIE_KEY, hps_tie_choices,
           "accuracy: which members of equal weight the cover cut keeps: key (the smaller keys: lower call site, "
           "method entry or stream hash first) or key_desc (the larger)"),
    P_REAL("cost_replace", 1, 0, 1e6, "instructions charged per DISE replacement (its decode stall)"),
    P_REAL("cost_check", 2, 0, 1e6, "instructions of the flag check DISE inserts at an instruction of interest"),
    P_REAL("cost_basic", 4, 0, 1e6, "instructions of the counter update DISE inserts at a call or back edge"),
    P_REAL("cost_handler", 30, 0, 1e6, "instructions of one profile handler invocation (call, body, return)"),
    P_INT("top", 10, 0, 10000, "rows of each profile in the `top` table"),
    P_BOOL("accuracy", 1,
           "build the profiles and compare them (accuracy and member metrics, `top` table); false: overhead and "
           "counts only, NaN for the rest (hot data streams then skip both grammars)"),
    PARAM_END,
};

enum {
    M_ACC,
    M_OVH,
    M_DISE,
    M_DISE_CHECKS,
    M_DISE_BASIC,
    M_DISE_SAMPLING,
    M_FREQ,
    M_SPARSITY,
    M_INSNS,
    M_INTEREST,
    M_SAMPLING_EV,
    M_SAMPLED_SAMPLING_EV,
    M_SAMPLED,
    M_BURSTS,
    M_SAMPLED_MEMBERS,
    M_EXACT_MEMBERS,
    M_SAMPLED_KEPT,
    M_EXACT_KEPT,
    M_COMMON_KEPT,
    M_MEMORY,
    M_UNATTRIBUTED,
    M_EXACT_COVERAGE,
    M_SAMPLED_COVERAGE,
    M_EXACT_RULES,
    M_SAMPLED_RULES,
    M_COUNT
};

static const struct metric_spec hps_metrics[] = {
    [M_ACC] = METRIC("accuracy_pct", "overlap of the sampled and exhaustive profiles' members covering `cover` (0-100)"),
    [M_OVH] = METRIC("overhead_pct", "HPS overhead: sampled interest events x (cost_replace + cost_handler), % of instructions"),
    [M_DISE] = METRIC("dise_overhead_pct", "DISE without conditional control: checks + basic + sampling, % of instructions"),
    [M_DISE_CHECKS] = METRIC("dise_checks_pct", "DISE: interest events x (cost_replace + cost_check), % of instructions"),
    [M_DISE_BASIC] = METRIC("dise_basic_pct", "DISE: sampling events x (cost_replace + cost_basic), % of instructions"),
    [M_DISE_SAMPLING] = METRIC("dise_sampling_pct", "DISE: sampled interest events x cost_handler, % of instructions"),
    [M_FREQ] = METRIC("frequency", "sampling frequency burst / (burst + sparsity) = 1 / period"),
    [M_SPARSITY] = METRIC("sparsity", "sampling events between bursts"),
    [M_INSNS] = METRIC("instructions", "instructions in the window"),
    [M_INTEREST] = METRIC("interest_events", "instructions of interest in the window (calls; calls and back edges; loads or memory references)"),
    [M_SAMPLING_EV] = METRIC("sampling_events", "calls and back edges in the window"),
    [M_SAMPLED_SAMPLING_EV] = METRIC("sampled_sampling_events", "sampling events inside bursts"),
    [M_SAMPLED] = METRIC("sampled_events", "interest events inside bursts (profile handler invocations)"),
    [M_BURSTS] = METRIC("bursts", "bursts in the window"),
    [M_SAMPLED_MEMBERS] = METRIC("sampled_members", "members of the sampled profile (call pairs, methods, hot streams)"),
    [M_EXACT_MEMBERS] = METRIC("exact_members", "members of the exhaustive profile"),
    [M_SAMPLED_KEPT] = METRIC("sampled_kept", "sampled members covering `cover` of the sampled profile"),
    [M_EXACT_KEPT] = METRIC("exact_kept", "exhaustive members covering `cover` of the exhaustive profile"),
    [M_COMMON_KEPT] = METRIC("common_kept", "members kept in both"),
    [M_MEMORY] = METRIC("memory_bytes", "sampled profile table: sampled_members x 24 bytes (key pair and count)"),
    [M_UNATTRIBUTED] = METRIC("unattributed_backedges", "method: back edges below every method entry, left out (NaN for other types)"),
    [M_EXACT_COVERAGE] = METRIC("exact_coverage_pct", "streams: references inside hot streams, % of the window's (NaN otherwise)"),
    [M_SAMPLED_COVERAGE] = METRIC("sampled_coverage_pct", "streams: sampled references inside sampled hot streams, % (NaN otherwise)"),
    [M_EXACT_RULES] = METRIC("exact_rules", "streams: rules of the window's SEQUITUR grammar (NaN otherwise)"),
    [M_SAMPLED_RULES] = METRIC("sampled_rules", "streams: rules of the sampled string's grammar (NaN otherwise)"),
    [M_COUNT] = METRIC_END,
};

enum { T_TOP };
static const struct col_spec top_cols[] = {
    COL("profile", COL_TEXT, "exact or sampled"),
    COL("rank", COL_INT, "1 = heaviest member of that profile"),
    COL("a", COL_HEX, "call site (callpair), method entry (method), first reference's pc (streams)"),
    COL("b", COL_HEX, "callee (callpair), 0 (method), first reference's address (streams)"),
    COL("length", COL_INT, "streams: references in the stream; 1 otherwise"),
    COL("weight", COL_REAL, "calls, calls + back edges, or heat"),
    COL("pct", COL_REAL, "share of the profile's kept members, % (empty if not kept)"),
    COL("other_pct", COL_REAL, "share of the same member among the other profile's kept members, % (0 if absent)"),
    COL_END,
};
static const struct table_spec hps_tables[] = {
    TABLE("top", "heaviest members of the exhaustive and of the sampled profile, each with its share in the other", top_cols),
    TABLE_END,
};

struct hps_model {
    int type, refs, tie;
    bool accuracy;
    double cover;
    struct hps_costs costs;
    int top;
    uint64_t burst, period;
    unsigned np; /* samplers (phases) */
    const struct hps_bursty_view *bv;
    const struct hps_exact_view *xv;
    struct hps_profile *sampled[HPS_MAX_PHASES]; /* per sampler; NULL without accuracy */
    uint64_t sampled_interest[HPS_MAX_PHASES];   /* without accuracy: interest events inside its bursts */
    struct hps_member *xm_tie;                   /* tie != key: the members re-ordered, */
    struct hps_member *sm_tie[HPS_MAX_PHASES];   /* exhaustive and per sampler */
    double pm[HPS_MAX_PHASES * M_COUNT];         /* per sampler: M_COUNT values each */
    double m[M_COUNT];                           /* means over samplers */
};

static void stream_params(const struct param_values *pv, struct hps_stream_cfg *sc)
{
    sc->refs = pv_enum(pv, "refs");
    sc->key = pv_enum(pv, "ref_key");
    sc->min_len = (uint32_t)pv_int(pv, "min_len");
    sc->max_len = (uint32_t)pv_int(pv, "max_len");
    sc->heat_frac = pv_real(pv, "heat_frac");
}

/* The exact stage's parameters: the profile definition only (stream rows
 * stay at their defaults for the other types, so those share one stage).
 * Without accuracy only the window's counts are read: the call pair stage,
 * the cheapest, shared with any call pair instance of the job. */
static void exact_stage_params(const struct param_values *pv, struct param_values *spv)
{
    params_defaults(spv, hps_exact_stage.params);
    int type = pv_bool(pv, "accuracy") ? pv_enum(pv, "profile") : HPS_CALLPAIR;
    pv_set_enum(spv, "profile", type);
    if (type == HPS_STREAMS) {
        pv_set_enum(spv, "refs", pv_enum(pv, "refs"));
        pv_set_enum(spv, "ref_key", pv_enum(pv, "ref_key"));
        pv_set_int(spv, "min_len", pv_int(pv, "min_len"));
        pv_set_int(spv, "max_len", pv_int(pv, "max_len"));
        pv_set_real(spv, "heat_frac", pv_real(pv, "heat_frac"));
    }
}

static int emit_for(int type, int refs)
{
    switch (type) {
    case HPS_CALLPAIR:
        return HPS_EMIT_CALLS;
    case HPS_METHOD:
        return HPS_EMIT_CONTROL;
    default:
        return refs == HPS_REFS_MEMORY ? HPS_EMIT_MEMORY : HPS_EMIT_LOADS;
    }
}

static void hps_plan(const struct param_values *pv, struct plan *p)
{
    if (hps_plan_bursty(pv, emit_for(pv_enum(pv, "profile"), pv_enum(pv, "refs")), p) != 0)
        return;
    if (pv_int(pv, "max_len") < pv_int(pv, "min_len")) {
        plan_fail(p, "max_len (%lld) must be at least min_len (%lld)", (long long)pv_int(pv, "max_len"),
                  (long long)pv_int(pv, "min_len"));
        return;
    }
    struct param_values xpv;
    exact_stage_params(pv, &xpv);
    plan_side(p, plan_stage(p, PLAN_NONE, &hps_exact_stage, &xpv));
}

static void *hps_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    struct hps_model *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    h->type = pv_enum(pv, "profile");
    h->refs = pv_enum(pv, "refs");
    h->accuracy = pv_bool(pv, "accuracy");
    h->cover = pv_real(pv, "cover");
    h->tie = pv_enum(pv, "tie");
    h->costs.replace = pv_real(pv, "cost_replace");
    h->costs.check = pv_real(pv, "cost_check");
    h->costs.basic = pv_real(pv, "cost_basic");
    h->costs.handler = pv_real(pv, "cost_handler");
    h->top = (int)pv_int(pv, "top");
    h->burst = (uint64_t)pv_int(pv, "burst");
    h->period = (uint64_t)pv_int(pv, "period");
    h->bv = ctx->input;
    h->xv = ctx->side[0];
    h->np = h->bv->phases;
    if (h->accuracy) {
        struct hps_stream_cfg sc;
        stream_params(pv, &sc);
        for (unsigned k = 0; k < h->np; k++)
            h->sampled[k] = hps_profile_create(h->type, &sc);
    }
    return h;
}

static void hps_feed(void *m, const void *recs, size_t n)
{
    struct hps_model *h = m;
    const struct hps_burst_rec *r = recs;
    for (size_t i = 0; i < n; i++) {
        uint32_t bits = r[i].cut;
        if (h->accuracy)
            for (; bits; bits &= bits - 1)
                hps_profile_cut(h->sampled[__builtin_ctz(bits)]);
        bits = r[i].in;
        if (h->accuracy) {
            for (; bits; bits &= bits - 1)
                hps_profile_feed(h->sampled[__builtin_ctz(bits)], &r[i].ev, 1);
        } else if (bits && hps_is_interest(h->type, h->refs, &r[i].ev)) {
            for (; bits; bits &= bits - 1)
                h->sampled_interest[__builtin_ctz(bits)]++;
        }
    }
}

/* Interest events of the whole window from its counts (what the exhaustive
 * profile of the type counts while feeding). */
static uint64_t window_interest(const struct hps_window *w, int type, int refs)
{
    switch (type) {
    case HPS_CALLPAIR:
        return w->calls;
    case HPS_METHOD:
        return w->calls + w->backedges;
    default:
        return w->loads + (refs == HPS_REFS_MEMORY ? w->stores : 0);
    }
}

/* The metrics every instance reports, with or without accuracy, of
 * sampler k. */
static void overhead_metrics(struct hps_model *h, unsigned k, uint64_t interest, uint64_t sampled)
{
    struct hps_counts c = { h->xv->w.insns, interest, h->bv->sampling_events, sampled };
    struct hps_overhead o;
    hps_overhead_compute(&h->costs, &c, &o);
    double *M = &h->pm[k * M_COUNT];
    M[M_OVH] = o.hps_pct;
    M[M_DISE] = o.dise_pct;
    M[M_DISE_CHECKS] = o.dise_checks_pct;
    M[M_DISE_BASIC] = o.dise_basic_pct;
    M[M_DISE_SAMPLING] = o.dise_sampling_pct;
    M[M_FREQ] = 1.0 / (double)h->period;
    M[M_SPARSITY] = (double)h->bv->sparsity;
    M[M_INSNS] = (double)c.insns;
    M[M_INTEREST] = (double)c.interest;
    M[M_SAMPLING_EV] = (double)h->bv->sampling_events;
    M[M_SAMPLED_SAMPLING_EV] = (double)h->bv->sampled_events[k];
    M[M_SAMPLED] = (double)c.sampled;
    M[M_BURSTS] = (double)h->bv->bursts[k];
}

/* The members of sampler k's profile (k < 0: of the exhaustive one, which
 * is finished), in the order of the tie rule. */
static const struct hps_member *members(struct hps_model *h, int k, size_t *n)
{
    const struct hps_profile *p = k < 0 ? h->xv->profile : h->sampled[k];
    const struct hps_member *m = hps_profile_members(p, n);
    if (h->tie == HPS_TIE_KEY)
        return m;
    struct hps_member **tied = k < 0 ? &h->xm_tie : &h->sm_tie[k];
    if (!*tied)
        *tied = hps_members_tied(m, *n, h->tie);
    return *tied;
}

/* Every metric of sampler k. */
static void phase_metrics(struct hps_model *h, unsigned k)
{
    if (!h->accuracy) {
        overhead_metrics(h, k, window_interest(&h->xv->w, h->type, h->refs), h->sampled_interest[k]);
        for (size_t i = 0; i < M_COUNT; i++)
            if (i == M_ACC || i >= M_SAMPLED_MEMBERS)
                h->pm[k * M_COUNT + i] = NAN;
        return;
    }
    struct hps_profile *sp = h->sampled[k];
    const struct hps_profile *ex = h->xv->profile;
    hps_profile_finish(sp, ex);
    size_t ns, nx;
    const struct hps_member *ms = members(h, k, &ns), *mx = members(h, -1, &nx);
    struct hps_overlap ov;
    hps_overlap(mx, nx, ms, ns, h->cover, &ov);

    overhead_metrics(h, k, hps_profile_interest(ex), hps_profile_interest(sp));
    double *M = &h->pm[k * M_COUNT];
    M[M_ACC] = ov.accuracy_pct;
    M[M_SAMPLED_MEMBERS] = (double)ns;
    M[M_EXACT_MEMBERS] = (double)nx;
    M[M_SAMPLED_KEPT] = (double)ov.kept_b;
    M[M_EXACT_KEPT] = (double)ov.kept_a;
    M[M_COMMON_KEPT] = (double)ov.common;
    M[M_MEMORY] = 24.0 * (double)ns;
    M[M_UNATTRIBUTED] = h->type == HPS_METHOD ? (double)hps_profile_unattributed(sp) : NAN;
    M[M_EXACT_COVERAGE] = M[M_SAMPLED_COVERAGE] = M[M_EXACT_RULES] = M[M_SAMPLED_RULES] = NAN;
    if (h->type == HPS_STREAMS) {
        struct hps_streams_stats a, b;
        hps_streams_get_stats(hps_profile_streams(ex), &a);
        hps_streams_get_stats(hps_profile_streams(sp), &b);
        M[M_EXACT_COVERAGE] = 100.0 * a.coverage;
        M[M_SAMPLED_COVERAGE] = 100.0 * b.coverage;
        M[M_EXACT_RULES] = (double)a.rules;
        M[M_SAMPLED_RULES] = (double)b.rules;
    }
}

static void hps_finish(void *m)
{
    struct hps_model *h = m;
    for (unsigned k = 0; k < h->np; k++)
        phase_metrics(h, k);
    for (size_t i = 0; i < M_COUNT; i++)
        h->m[i] = hps_phase_mean(&h->pm[i], h->np, M_COUNT);
}

/* Rows of one profile (p) with the other's shares beside them. */
static void top_rows(struct model_out *o, const char *name, int type, const struct hps_member *p, size_t np,
                     const struct hps_member *q, size_t nq, double cover, int top)
{
    double sp, sq;
    size_t kp = hps_kept_prefix(p, np, cover, &sp), kq = hps_kept_prefix(q, nq, cover, &sq);
    struct hps_table idx;
    hps_table_init(&idx, kq, "hps top table");
    for (size_t i = 0; i < kq; i++)
        *hps_table_slot(&idx, q[i].a, q[i].b) = i + 1;
    for (size_t i = 0; i < np && i < (size_t)top; i++) {
        uint64_t j = hps_table_get(&idx, p[i].a, p[i].b);
        union cell row[8];
        row[0].s = name;
        row[1].i = (int64_t)i + 1;
        row[2].u = type == HPS_STREAMS ? p[i].x : p[i].a;
        row[3].u = type == HPS_STREAMS ? p[i].y : p[i].b;
        row[4].i = type == HPS_STREAMS ? (int64_t)p[i].b : 1;
        row[5].r = p[i].w;
        row[6].r = i < kp ? 100.0 * p[i].w / sp : NAN;
        row[7].r = j ? 100.0 * q[j - 1].w / sq : 0.0;
        out_row(o, T_TOP, row);
    }
    hps_table_free(&idx);
}

static void hps_report(void *m, struct model_out *o)
{
    struct hps_model *h = m;
    for (size_t k = 0; k < M_COUNT; k++)
        out_metric(o, k, h->m[k]);
    if (h->top > 0 && h->accuracy) {
        size_t ns, nx;
        const struct hps_member *ms = members(h, 0, &ns), *mx = members(h, -1, &nx);
        top_rows(o, "exact", h->type, mx, nx, ms, ns, h->cover, h->top);
        top_rows(o, "sampled", h->type, ms, ns, mx, nx, h->cover, h->top);
    }
}

static void hps_free(void *m)
{
    struct hps_model *h = m;
    if (!h)
        return;
    for (unsigned k = 0; k < HPS_MAX_PHASES; k++) {
        hps_profile_free(h->sampled[k]);
        free(h->sm_tie[k]);
    }
    free(h->xm_tie);
    free(h);
}

static unsigned hps_trace_needs(const struct param_values *pv)
{
    (void)pv;
    return TRF_HAS_BRANCHES; /* sampling events are calls and back edges */
}

static const struct model_desc hps_model = {
    .name = "hps",
    .summary = "HPS bursty sampling: accuracy of a sampled hot call pair / method / data stream profile and its overhead",
    .params = hps_params,
    .metrics = hps_metrics,
    .tables = hps_tables,
    .plan = hps_plan,
    .create = hps_create,
    .feed = hps_feed,
    .finish = hps_finish,
    .report = hps_report,
    .free = hps_free,
    .trace_needs = hps_trace_needs,
    .cost = 0.2,
};
MODEL_REGISTER(hps_model);
