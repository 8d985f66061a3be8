/* mh_bound.c - the approximate false-positive bound of section 6.2 of the
 * multihash paper (its Figure 9): with Z counters split evenly over n
 * tables and a candidate threshold of t percent, at most 100/t counters per
 * table can be at or above the threshold, so a tuple is a false positive
 * with probability at most p = (100 n / (t Z))^n.  No trace is read
 * (configs use "workloads": []).  p is reported raw (it exceeds 1 when n
 * tables of Z/n counters cannot hold 100/t candidates) and clamped to 1.
 */
#include "run/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct param_spec bound_params[] = {
    P_INT("tables", 4, 1, 64, "number of hash tables n"),
    P_INT("entries", 1000, 1, 1000000000, "total hash-table entries Z, split over the n tables"),
    P_REAL("threshold", 0.01, 1e-5, 1, "candidate threshold as a fraction (t = 100 * threshold percent)"),
    P_BOOL("floor_tables", 0, "use floor(Z/n) entries per table instead of Z/n"),
    PARAM_END
};

static const struct metric_spec bound_metrics[] = {
    METRIC("fp_bound", "false-positive probability bound (100n/(tZ))^n, unclamped"),
    METRIC("fp_bound_clamped", "the bound clamped to 1"),
    METRIC("log10_fp_bound", "log10 of the bound"),
    METRIC("entries_per_table", "Z/n (or floor(Z/n))"),
    METRIC_END,
};

struct bound {
    double n, Z, t;
    bool floor_tables;
};

static void *bound_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    struct bound *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    b->n = (double)pv_int(pv, "tables");
    b->Z = (double)pv_int(pv, "entries");
    b->t = 100.0 * pv_real(pv, "threshold");
    b->floor_tables = pv_bool(pv, "floor_tables");
    return b;
}

static void bound_finish(void *m) { (void)m; }

static void bound_report(void *m, struct model_out *o)
{
    const struct bound *b = m;
    double per = b->floor_tables ? floor(b->Z / b->n) : b->Z / b->n;
    double p = per > 0 ? pow(100.0 / (b->t * per), b->n) : INFINITY;
    out_metric(o, 0, p);
    out_metric(o, 1, p > 1.0 ? 1.0 : p);
    out_metric(o, 2, log10(p));
    out_metric(o, 3, per);
}

static void bound_free(void *m) { free(m); }

static const struct model_desc bound_model = {
    .name = "mh_bound",
    .summary = "analytic multi-hash false-positive bound (100n/(tZ))^n (multihash paper Figure 9)",
    .params = bound_params,
    .metrics = bound_metrics,
    .create = bound_create,
    .finish = bound_finish,
    .report = bound_report,
    .free = bound_free,
};
MODEL_REGISTER(bound_model);
