/* hps_stats.c - model "hps_stats": the workload statistics of the HPS
 * paper's Figure 6, over one trace window.
 *
 *   methods           distinct call targets (functions called in the window)
 *   call_sites        distinct call instructions
 *   call_pairs        distinct <call site, callee> pairs (more than sites:
 *                     indirect calls)
 *   calls             dynamic calls
 *   branches          dynamic conditional branches (the trace has no direct
 *                     unconditional jumps; indirect jumps are counted apart)
 *   backedges         taken conditional branches to a lower address
 *   memory_refs       loads + stores
 *   instructions      dynamic instructions
 *   unique_addresses  distinct data addresses accessed (the first byte of
 *                     each load or store)
 * The paper gives calls, branches, references and instructions in millions
 * and unique addresses in thousands; we report plain counts.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "families/hps_sampler.h"
#include "families/hps_table.h"
#include "run/model.h"
#include "trace/trace.h"

enum {
    M_METHODS,
    M_SITES,
    M_PAIRS,
    M_CALLS,
    M_BRANCHES,
    M_BACKEDGES,
    M_IJUMPS,
    M_MEMREFS,
    M_LOADS,
    M_STORES,
    M_INSNS,
    M_UNIQUE,
    M_INSNS_PER_CALL,
    M_COUNT
};

static const struct metric_spec stats_metrics[] = {
    [M_METHODS] = METRIC("methods", "distinct call targets"),
    [M_SITES] = METRIC("call_sites", "distinct call instructions"),
    [M_PAIRS] = METRIC("call_pairs", "distinct <call site, callee> pairs"),
    [M_CALLS] = METRIC("calls", "dynamic calls"),
    [M_BRANCHES] = METRIC("branches", "dynamic conditional branches"),
    [M_BACKEDGES] = METRIC("backedges", "taken conditional branches to a lower address"),
    [M_IJUMPS] = METRIC("indirect_jumps", "dynamic indirect jumps"),
    [M_MEMREFS] = METRIC("memory_refs", "loads + stores"),
    [M_LOADS] = METRIC("loads", "loads"),
    [M_STORES] = METRIC("stores", "stores"),
    [M_INSNS] = METRIC("instructions", "dynamic instructions"),
    [M_UNIQUE] = METRIC("unique_addresses", "distinct data addresses of loads and stores"),
    [M_INSNS_PER_CALL] = METRIC("insns_per_call", "instructions per call (NaN without calls)"),
    [M_COUNT] = METRIC_END,
};

static const struct param_spec stats_params[] = { PARAM_END };

struct stats {
    struct hps_table methods, sites, pairs, addrs;
    uint64_t calls, branches, backedges, ijumps, loads, stores, insns;
};

static void *stats_create(const struct model_ctx *ctx)
{
    (void)ctx;
    struct stats *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    hps_table_init(&s->methods, 1024, "hps_stats methods");
    hps_table_init(&s->sites, 1024, "hps_stats call sites");
    hps_table_init(&s->pairs, 1024, "hps_stats call pairs");
    hps_table_init(&s->addrs, 1 << 16, "hps_stats addresses");
    return s;
}

static void stats_feed(void *m, const void *recs, size_t n)
{
    struct stats *s = m;
    const struct event *ev = recs;
    for (size_t i = 0; i < n; i++) {
        const struct event *e = &ev[i];
        switch (e->kind) {
        case EV_INSN:
            s->insns++;
            break;
        case EV_LOAD:
        case EV_STORE:
            if (e->kind == EV_LOAD)
                s->loads++;
            else
                s->stores++;
            *hps_table_slot(&s->addrs, e->addr, 0) = 1;
            break;
        case EV_BRANCH:
            s->branches++;
            s->backedges += (uint64_t)hps_is_backedge(e);
            break;
        case EV_CALL:
            s->calls++;
            *hps_table_slot(&s->methods, e->addr, 0) = 1;
            *hps_table_slot(&s->sites, e->pc, 0) = 1;
            *hps_table_slot(&s->pairs, e->pc, e->addr) = 1;
            break;
        case EV_IJUMP:
            s->ijumps++;
            break;
        default:
            break;
        }
    }
}

static void stats_finish(void *m) { (void)m; }

static void stats_report(void *m, struct model_out *o)
{
    const struct stats *s = m;
    double v[M_COUNT];
    v[M_METHODS] = (double)s->methods.used;
    v[M_SITES] = (double)s->sites.used;
    v[M_PAIRS] = (double)s->pairs.used;
    v[M_CALLS] = (double)s->calls;
    v[M_BRANCHES] = (double)s->branches;
    v[M_BACKEDGES] = (double)s->backedges;
    v[M_IJUMPS] = (double)s->ijumps;
    v[M_MEMREFS] = (double)(s->loads + s->stores);
    v[M_LOADS] = (double)s->loads;
    v[M_STORES] = (double)s->stores;
    v[M_INSNS] = (double)s->insns;
    v[M_UNIQUE] = (double)s->addrs.used;
    v[M_INSNS_PER_CALL] = s->calls ? (double)s->insns / (double)s->calls : NAN;
    for (size_t k = 0; k < M_COUNT; k++)
        out_metric(o, k, v[k]);
}

static void stats_free(void *m)
{
    struct stats *s = m;
    if (!s)
        return;
    hps_table_free(&s->methods);
    hps_table_free(&s->sites);
    hps_table_free(&s->pairs);
    hps_table_free(&s->addrs);
    free(s);
}

static unsigned stats_trace_needs(const struct param_values *pv)
{
    (void)pv;
    return TRF_HAS_BRANCHES;
}

static const struct model_desc hps_stats_model = {
    .name = "hps_stats",
    .summary = "HPS Figure 6 workload statistics (methods, call sites and pairs, calls, branches, references, addresses)",
    .params = stats_params,
    .metrics = stats_metrics,
    .event_mask = EV_ALL,
    .create = stats_create,
    .feed = stats_feed,
    .finish = stats_finish,
    .report = stats_report,
    .free = stats_free,
    .trace_needs = stats_trace_needs,
    .cost = 0.5,
};
MODEL_REGISTER(hps_stats_model);
