/* counts.c - the simplest model: event counts per kind and branch outcomes.
 * Useful as a smoke test of the pipeline, for workload statistics tables and
 * as the floor of `make bench` (it touches every event once).  It is also
 * the example docs/adding-a-model.md walks through. */
#include <stdint.h>
#include <stdlib.h>

#include "run/model.h"

enum {
    M_INSNS,
    M_LOADS,
    M_STORES,
    M_BRANCHES,
    M_TAKEN,
    M_CALLS,
    M_ICALLS,
    M_RETURNS,
    M_IJUMPS,
    M_LOAD_BYTES,
    M_STORE_BYTES,
    M_COUNT
};

static const struct metric_spec counts_metrics[] = {
    [M_INSNS] = METRIC("instructions", "instructions executed"),
    [M_LOADS] = METRIC("loads", "loads"),
    [M_STORES] = METRIC("stores", "stores (a read-modify-write counts once as a load and once as a store)"),
    [M_BRANCHES] = METRIC("branches", "conditional branches"),
    [M_TAKEN] = METRIC("taken_branches", "conditional branches taken"),
    [M_CALLS] = METRIC("calls", "calls"),
    [M_ICALLS] = METRIC("indirect_calls", "calls whose callee is computed (call *%rax; 0 in traces from before 2026-11-26)"),
    [M_RETURNS] = METRIC("returns", "returns"),
    [M_IJUMPS] = METRIC("indirect_jumps", "indirect jumps"),
    [M_LOAD_BYTES] = METRIC("load_bytes", "bytes loaded"),
    [M_STORE_BYTES] = METRIC("store_bytes", "bytes stored"),
    [M_COUNT] = METRIC_END,
};

static const struct param_spec counts_params[] = { PARAM_END };

struct counts {
    uint64_t kind[EV_KINDS];
    uint64_t taken, icalls;
    uint64_t load_bytes, store_bytes;
};

static void *counts_create(const struct model_ctx *ctx)
{
    (void)ctx;
    return calloc(1, sizeof(struct counts));
}

static void counts_feed(void *m, const void *recs, size_t n)
{
    struct counts *c = m;
    const struct event *ev = recs;
    for (size_t i = 0; i < n; i++) {
        c->kind[ev[i].kind]++;
        c->taken += ev[i].kind == EV_BRANCH && ev[i].taken;
        c->icalls += ev[i].kind == EV_CALL && (ev[i].flags & EVF_INDIRECT);
        if (ev[i].kind == EV_LOAD)
            c->load_bytes += ev[i].size;
        else if (ev[i].kind == EV_STORE)
            c->store_bytes += ev[i].size;
    }
}

static void counts_finish(void *m) { (void)m; }

static void counts_report(void *m, struct model_out *o)
{
    const struct counts *c = m;
    out_metric(o, M_INSNS, (double)c->kind[EV_INSN]);
    out_metric(o, M_LOADS, (double)c->kind[EV_LOAD]);
    out_metric(o, M_STORES, (double)c->kind[EV_STORE]);
    out_metric(o, M_BRANCHES, (double)c->kind[EV_BRANCH]);
    out_metric(o, M_TAKEN, (double)c->taken);
    out_metric(o, M_CALLS, (double)c->kind[EV_CALL]);
    out_metric(o, M_ICALLS, (double)c->icalls);
    out_metric(o, M_RETURNS, (double)c->kind[EV_RET]);
    out_metric(o, M_IJUMPS, (double)c->kind[EV_IJUMP]);
    out_metric(o, M_LOAD_BYTES, (double)c->load_bytes);
    out_metric(o, M_STORE_BYTES, (double)c->store_bytes);
}

static void counts_free(void *m) { free(m); }

static const struct model_desc counts_model = {
    .name = "counts",
    .summary = "event counts per kind (pipeline smoke test, workload statistics)",
    .params = counts_params,
    .metrics = counts_metrics,
    .event_mask = EV_ALL,
    .create = counts_create,
    .feed = counts_feed,
    .finish = counts_finish,
    .report = counts_report,
    .free = counts_free,
    .cost = 0.3,
};
MODEL_REGISTER(counts_model);
