/* mh_bound.c - the approximate false-positive bound of section 6.2 of the
 * multihash paper (its Figure 9): with Z counters split evenly over n
 * tables and a candidate threshold of t percent, at most 100/t counters per
 * table can be at or above the threshold, so a tuple is a false positive
 * with probability at most p = (100 n / (t Z))^n.  No trace is read
 * (configs use "workloads": []).  p is reported raw (it exceeds 1 when n
 * tables of Z/n counters cannot hold 100/t candidates) and clamped to 1.
 */
#include "mh_bound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct param_spec bound_params[] = {
    { "tables", PARAM_INT, 4, 1, 64, NULL, "number of hash tables n" },
    { "entries", PARAM_INT, 1000, 1, 1000000000, NULL, "total hash-table entries Z, split over the n tables" },
    { "threshold", PARAM_REAL, 0.01, 1e-5, 1, NULL, "candidate threshold as a fraction (t = 100 * threshold percent)" },
    { "floor_tables", PARAM_BOOL, 0, 0, 1, NULL, "use floor(Z/n) entries per table instead of Z/n" },
    PARAM_END
};

static const char *const bound_metrics[] = { "fp_bound", "fp_bound_clamped", "log10_fp_bound", "entries_per_table", NULL };

struct bound {
    double n, Z, t;
    bool floor_tables;
};

static void *bound_create(const struct param_values *pv, struct series *series, char *err, size_t errlen)
{
    (void)series;
    struct bound *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->n = (double)pv_int(pv, "tables");
    b->Z = (double)pv_int(pv, "entries");
    b->t = 100.0 * pv_real(pv, "threshold");
    b->floor_tables = pv_bool(pv, "floor_tables");
    return b;
}

static void bound_feed(void *m, const struct event *ev, size_t n)
{
    (void)m;
    (void)ev;
    (void)n;
}

static void bound_finish(void *m) { (void)m; }

static void bound_report(const void *m, double *out)
{
    const struct bound *b = m;
    double per = b->floor_tables ? floor(b->Z / b->n) : b->Z / b->n;
    double p = per > 0 ? pow(100.0 / (b->t * per), b->n) : INFINITY;
    out[0] = p;
    out[1] = p > 1.0 ? 1.0 : p;
    out[2] = log10(p);
    out[3] = per;
}

static void bound_free(void *m) { free(m); }

const struct model_ops mh_bound_ops = {
    .name = "mh_bound",
    .summary = "analytic multi-hash false-positive bound (100n/(tZ))^n (multihash paper Figure 9)",
    .params = bound_params,
    .metrics = bound_metrics,
    .series_cols = NULL,
    .event_mask = 0,
    .create = bound_create,
    .feed = bound_feed,
    .finish = bound_finish,
    .report = bound_report,
    .free = bound_free,
};
