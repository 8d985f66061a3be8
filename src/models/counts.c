/* counts.c - the simplest model: event counts per kind and branch outcomes.
 * Useful as a smoke-test of the pipeline, for workload statistics tables and
 * as the floor of `make bench` (it touches every event once). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../model.h"

struct counts {
    uint64_t kind[EV_KINDS];
    uint64_t taken;
    uint64_t load_bytes, store_bytes;
};

static const struct param_spec counts_params[] = { PARAM_END };
static const char *const counts_metrics[] = { "instructions", "loads", "stores", "branches", "taken_branches",
                                              "calls", "returns", "indirect_jumps", "load_bytes", "store_bytes",
                                              NULL };

static void *counts_create(const struct param_values *pv, struct series *s, char *err, size_t errlen)
{
    (void)pv;
    (void)s;
    (void)err;
    (void)errlen;
    return calloc(1, sizeof(struct counts));
}

static void counts_feed(void *m, const struct event *ev, size_t n)
{
    struct counts *c = m;
    for (size_t i = 0; i < n; i++) {
        c->kind[ev[i].kind]++;
        c->taken += ev[i].kind == EV_BRANCH && ev[i].taken;
        if (ev[i].kind == EV_LOAD)
            c->load_bytes += ev[i].size;
        else if (ev[i].kind == EV_STORE)
            c->store_bytes += ev[i].size;
    }
}

static void counts_finish(void *m) { (void)m; }

static void counts_report(const void *m, double *out)
{
    const struct counts *c = m;
    out[0] = (double)c->kind[EV_INSN];
    out[1] = (double)c->kind[EV_LOAD];
    out[2] = (double)c->kind[EV_STORE];
    out[3] = (double)c->kind[EV_BRANCH];
    out[4] = (double)c->taken;
    out[5] = (double)c->kind[EV_CALL];
    out[6] = (double)c->kind[EV_RET];
    out[7] = (double)c->kind[EV_IJUMP];
    out[8] = (double)c->load_bytes;
    out[9] = (double)c->store_bytes;
}

static void counts_free(void *m) { free(m); }

const struct model_ops counts_ops = {
    .name = "counts",
    .summary = "event counts per kind (pipeline smoke test, workload statistics)",
    .params = counts_params,
    .metrics = counts_metrics,
    .series_cols = NULL,
    .event_mask = EV_ALL,
    .create = counts_create,
    .feed = counts_feed,
    .finish = counts_finish,
    .report = counts_report,
    .free = counts_free,
};
