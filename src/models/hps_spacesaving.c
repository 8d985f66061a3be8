/* hps_spacesaving.c - model "hps_spacesaving": a streaming hot call pair
 * profiler after HCCT (D'Elia, Demetrescu and Finocchi, "Mining hot calling
 * contexts in small space", PLDI 2011): Space-Saving (hps_ss.h) with k
 * counters over <call site, callee>, fed every call (period 1, the
 * default) or the calls inside HPS bursts (HCCT also combined Space-Saving
 * with bursty sampling).  Beyond the HPS paper: its accuracy against the
 * exhaustive call pair profile (same metric, hps_accuracy.h) beside bursty
 * sampling's at equal overhead or equal memory.
 *
 * Overhead, in instructions per update, every cost a parameter: each call
 * fed pays cost_replace (the DISE replacement that invokes the update) and
 * either cost_hit (the pair is monitored: look-up, increment, heap fix-up)
 * or cost_evict (a free counter or the minimum's eviction: index delete and
 * insert, heap fix-up of log k levels).  Memory: k x 32 bytes (key pair,
 * count, error), beside the hps model's memory_bytes (24 bytes a member).
 *
 * Fed from bursts (period > 1), one Space-Saving summary per sampler of
 * the "bursty" stage (phases, hps_bursty.h); every metric is computed per
 * sampler and reported as the mean over samplers (hps_phase_mean; memory
 * is that of one summary).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "families/hps_accuracy.h"
#include "families/hps_phases.h"
#include "families/hps_ss.h"
#include "models/shared/hps_bursty.h"
#include "run/model.h"
#include "stages/hps_stages.h"
#include "trace/trace.h"

static const struct param_spec ss_params[] = {
    P_INT("counters", 1024, 1, 1e7, "Space-Saving counters k"),
    P_INT("burst", 1, 1, 1e6, "burst length of the sampler feeding it (sampling events per burst)"),
    P_INT("period", 1, 1, 1e9, "1 / sampling frequency of the feeding sampler; 1 = every call (streaming)"),
    HPS_PARAM_PHASE,
    P_REAL("cover", 0.9, 0.01, 1, "accuracy: members covering this share of each profile are compared"),
    P_REAL("cost_replace", 1, 0, 1e6, "instructions charged per DISE replacement that invokes an update"),
    P_REAL("cost_hit", 20, 0, 1e6, "instructions of an update whose pair is monitored"),
    P_REAL("cost_evict", 60, 0, 1e6, "instructions of an update that takes a free counter or evicts the minimum"),
    PARAM_END,
};

enum {
    M_ACC,
    M_OVH,
    M_UPDATE_INSNS,
    M_COUNTERS,
    M_MONITORED,
    M_UPDATES,
    M_HITS,
    M_EVICTIONS,
    M_MIN_COUNT,
    M_MEMORY,
    M_EXACT_MEMBERS,
    M_EXACT_KEPT,
    M_KEPT,
    M_COMMON,
    M_COUNT
};

static const struct metric_spec ss_metrics[] = {
    [M_ACC] = METRIC("accuracy_pct", "overlap with the exhaustive call pair profile (members covering `cover`, 0-100)"),
    [M_OVH] = METRIC("overhead_pct", "updates x cost_replace + hits x cost_hit + other updates x cost_evict, % of instructions"),
    [M_UPDATE_INSNS] = METRIC("update_insns", "mean cost of one update in instructions: overhead / updates (NaN without updates); "
                                              "the hps model's handler costs cost_replace + cost_handler"),
    [M_COUNTERS] = METRIC("counters", "Space-Saving counters k"),
    [M_MONITORED] = METRIC("monitored", "counters in use at the end"),
    [M_UPDATES] = METRIC("updates", "calls fed"),
    [M_HITS] = METRIC("hits", "updates of a monitored pair"),
    [M_EVICTIONS] = METRIC("evictions", "updates that evicted the minimum"),
    [M_MIN_COUNT] = METRIC("min_count", "smallest count: the bound on every count's overestimate (0 while a counter is free)"),
    [M_MEMORY] = METRIC("memory_bytes", "counters x 32 bytes (key pair, count, error)"),
    [M_EXACT_MEMBERS] = METRIC("exact_members", "distinct call pairs in the window"),
    [M_EXACT_KEPT] = METRIC("exact_kept", "exhaustive members covering `cover`"),
    [M_KEPT] = METRIC("kept", "monitored pairs covering `cover` of the counted total"),
    [M_COMMON] = METRIC("common_kept", "pairs kept in both"),
    [M_COUNT] = METRIC_END,
};

struct ss_model {
    struct hps_ss *ss[HPS_MAX_PHASES]; /* per sampler */
    unsigned np;
    double cover, cost_replace, cost_hit, cost_evict;
    const struct hps_exact_view *xv;
    double pm[HPS_MAX_PHASES * M_COUNT]; /* per sampler: M_COUNT values each */
    double m[M_COUNT];                   /* means over samplers */
};

static void ss_plan(const struct param_values *pv, struct plan *p)
{
    if (hps_plan_bursty(pv, HPS_EMIT_CALLS, p) != 0)
        return;
    struct param_values xpv;
    params_defaults(&xpv, hps_exact_stage.params);
    pv_set_enum(&xpv, "profile", HPS_CALLPAIR);
    plan_side(p, plan_stage(p, PLAN_NONE, &hps_exact_stage, &xpv));
}

static void *ss_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    struct ss_model *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    const struct hps_bursty_view *bv = ctx->input;
    s->np = bv->phases;
    for (unsigned k = 0; k < s->np; k++)
        s->ss[k] = hps_ss_create((size_t)pv_int(pv, "counters"));
    s->cover = pv_real(pv, "cover");
    s->cost_replace = pv_real(pv, "cost_replace");
    s->cost_hit = pv_real(pv, "cost_hit");
    s->cost_evict = pv_real(pv, "cost_evict");
    for (unsigned k = 0; k < s->np; k++)
        s->pm[k * M_COUNT + M_COUNTERS] = (double)pv_int(pv, "counters");
    s->xv = ctx->side[0];
    return s;
}

static void ss_feed(void *m, const void *recs, size_t n)
{
    struct ss_model *s = m;
    const struct hps_burst_rec *r = recs;
    for (size_t i = 0; i < n; i++)
        if (r[i].ev.kind == EV_CALL)
            for (uint32_t bits = r[i].in; bits; bits &= bits - 1)
                hps_ss_update(s->ss[__builtin_ctz(bits)], r[i].ev.pc, r[i].ev.addr);
}

/* Every metric of sampler k. */
static void phase_metrics(struct ss_model *s, unsigned k)
{
    size_t nm, nx;
    struct hps_member *mm = hps_ss_members(s->ss[k], &nm);
    const struct hps_member *mx = hps_profile_members(s->xv->profile, &nx);
    struct hps_overlap ov;
    hps_overlap(mx, nx, mm, nm, s->cover, &ov);
    free(mm);
    struct hps_ss_stats st;
    hps_ss_get_stats(s->ss[k], &st);
    double cost = (double)st.updates * s->cost_replace + (double)st.hits * s->cost_hit +
                  (double)(st.updates - st.hits) * s->cost_evict;
    double *M = &s->pm[k * M_COUNT];
    M[M_ACC] = ov.accuracy_pct;
    M[M_OVH] = s->xv->w.insns ? 100.0 * cost / (double)s->xv->w.insns : NAN;
    M[M_UPDATE_INSNS] = st.updates ? cost / (double)st.updates : NAN;
    M[M_MONITORED] = (double)nm;
    M[M_UPDATES] = (double)st.updates;
    M[M_HITS] = (double)st.hits;
    M[M_EVICTIONS] = (double)st.evictions;
    M[M_MIN_COUNT] = (double)hps_ss_min_count(s->ss[k]);
    M[M_MEMORY] = 32.0 * M[M_COUNTERS];
    M[M_EXACT_MEMBERS] = (double)nx;
    M[M_EXACT_KEPT] = (double)ov.kept_a;
    M[M_KEPT] = (double)ov.kept_b;
    M[M_COMMON] = (double)ov.common;
}

static void ss_finish(void *m)
{
    struct ss_model *s = m;
    for (unsigned k = 0; k < s->np; k++)
        phase_metrics(s, k);
    for (size_t i = 0; i < M_COUNT; i++)
        s->m[i] = hps_phase_mean(&s->pm[i], s->np, M_COUNT);
}

static void ss_report(void *m, struct model_out *o)
{
    struct ss_model *s = m;
    for (size_t k = 0; k < M_COUNT; k++)
        out_metric(o, k, s->m[k]);
}

static void ss_free(void *m)
{
    struct ss_model *s = m;
    if (!s)
        return;
    for (unsigned k = 0; k < HPS_MAX_PHASES; k++)
        hps_ss_free(s->ss[k]);
    free(s);
}

static unsigned ss_trace_needs(const struct param_values *pv)
{
    (void)pv;
    return TRF_HAS_BRANCHES;
}

static const struct model_desc hps_ss_model = {
    .name = "hps_spacesaving",
    .summary = "streaming hot call pairs after HCCT: Space-Saving over <call site, callee>, every call or the bursts",
    .params = ss_params,
    .metrics = ss_metrics,
    .plan = ss_plan,
    .create = ss_create,
    .feed = ss_feed,
    .finish = ss_finish,
    .report = ss_report,
    .free = ss_free,
    .trace_needs = ss_trace_needs,
    .cost = 0.5,
};
MODEL_REGISTER(hps_ss_model);
