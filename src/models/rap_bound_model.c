/* rap_bound_model.c - analytic model "rap_bound": the worst-case node counts
 * of the RAP tree (Mysore et al., Figure 2: vs b and vs q; Figure 3: over
 * events, merging continuously vs in batches), from rap_bound.h, which
 * derives them for our tree.  Reads no trace.
 *
 * Table "series" (Figure 3): the bounds after event n (column n) for n from
 * 1 to `events`: powers of two before the first merge, then in every merge
 * period its first event, `points` geometric points inside and its last
 * event (the peak, just before the merge).
 *
 */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "families/rap_bound.h"
#include "families/rap_tree.h"
#include "models/shared/rap_out.h" /* RAP_SPLIT_PARAM */
#include "run/model.h"

static const struct param_spec bound_params[] = {
    P_INT("key_bits", 32, 1, 128, "R = 2^key_bits"),
    P_INT("b", 4, 2, 65536, "branching factor (a power of two)"),
    P_REAL("eps", 0.01, 1e-6, 1, "error bound: split threshold eps * n / L"),
    P_REAL("q", 2, 1.001, 1e6, "merge period ratio"),
    P_INT("merge_first", 1024, 1, 1099511627776.0, "events before the first merge"),
    P_INT("events", 4294967296.0, 1, 4611686018427387904.0, "stream length N over which maxima are taken"),
    P_INT("points", 4, 0, 64, "series points inside each merge period (Figure 3)"),
    RAP_SPLIT_PARAM,
    PARAM_END,
};

static const struct metric_spec bound_metrics[] = {
    METRIC("levels", "L = ceil(key_bits / log2 b)"),
    METRIC("families_sup", "largest number of post-merge families, < L / eps"),
    METRIC("continuous_max", "worst-case nodes over [1, events], merging after every event"),
    METRIC("batched_max", "worst-case nodes over [1, events], merging at merge_first * q^i"),
    METRIC("continuous_max_bytes", "continuous_max * 16 (128-bit nodes)"),
    METRIC("batched_max_bytes", "batched_max * 16"),
    METRIC("merges", "merge batches in [1, events]"),
    METRIC("full_nodes", "nodes of the complete trie (the trivial bound)"),
    METRIC_END,
};

static const struct col_spec series_cols[] = {
    COL("index", COL_INT, "row number, 0-based"),
    COL("n", COL_INT, "events processed (the parameter `events` is the last n)"),
    COL("continuous", COL_REAL, "worst-case nodes after event n, merging after every event"),
    COL("batched", COL_REAL, "worst-case nodes after event n (before a merge at n), batched merges"),
    COL("merge", COL_INT, "1 when a batched merge follows event n"),
    COL_END,
};
static const struct table_spec bound_tables[] = {
    { "series", "worst-case nodes over events (Figure 3)", series_cols },
    TABLE_END,
};

struct bound_model {
    struct rap_bound_cfg c;
    uint64_t events;
    int points;
};

static void *bound_create(const struct model_ctx *ctx)
{
    const struct param_values *pv = ctx->pv;
    int64_t b = pv_int(pv, "b");
    if (b & (b - 1)) {
        snprintf(ctx->err, ctx->errlen, "b must be a power of two (got %lld)", (long long)b);
        return NULL;
    }
    struct bound_model *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    m->c.key_bits = (unsigned)pv_int(pv, "key_bits");
    for (m->c.stride = 0; (1ll << m->c.stride) < b; m->c.stride++)
        ;
    m->c.eps = pv_real(pv, "eps");
    m->c.q = pv_real(pv, "q");
    m->c.merge_first = (uint64_t)pv_int(pv, "merge_first");
    m->c.split = pv_enum(pv, "split") == 1 ? RAP_SPLIT_AFTER : RAP_SPLIT_BEFORE;
    m->events = (uint64_t)pv_int(pv, "events");
    m->points = (int)pv_int(pv, "points");
    return m;
}

static void bound_finish(void *mm) { (void)mm; }

/* mk: the last merge point before n (0: none yet); *index counts rows */
static void row(struct model_out *o, const struct rap_bound_cfg *c, uint64_t mk, uint64_t n, int merge, int64_t *index)
{
    union cell v[5];
    v[0].i = (*index)++;
    v[1].i = (int64_t)n;
    v[2].r = rap_bound_continuous(c, n);
    v[3].r = mk ? rap_bound_batched_after(c, mk, n) : rap_bound_batched(c, n);
    v[4].i = merge;
    out_row(o, 0, v);
}

static void bound_report(void *mm, struct model_out *out)
{
    struct bound_model *m = mm;
    const struct rap_bound_cfg *c = &m->c;
    double cont = rap_bound_continuous_max(c, m->events), batch = rap_bound_batched_max(c, m->events);
    out_metric(out, 0, rap_bound_levels(c));
    out_metric(out, 1, (double)rap_bound_families_sup(c));
    out_metric(out, 2, cont);
    out_metric(out, 3, batch);
    out_metric(out, 4, cont * RAP_NODE_BYTES);
    out_metric(out, 5, batch * RAP_NODE_BYTES);
    out_metric(out, 6, (double)rap_bound_merges(c, m->events));
    out_metric(out, 7, rap_bound_full(c));

    uint64_t N = m->events, prev = 0;
    int64_t index = 0;
    for (uint64_t n = 1; n < c->merge_first && n < N; n *= 2)
        row(out, c, 0, n, 0, &index);
    for (unsigned i = 0;; i++) {
        uint64_t mk = rap_bound_next_merge(c, i, prev);
        if (mk > N || mk == UINT64_MAX)
            break;
        if (prev) { /* the period (prev, mk] */
            row(out, c, prev, prev + 1, 0, &index);
            for (int j = 1; j <= m->points; j++) {
                uint64_t n = (uint64_t)((double)prev * pow((double)mk / (double)prev, (double)j / (m->points + 1)));
                if (n > prev + 1 && n < mk)
                    row(out, c, prev, n, 0, &index);
            }
        }
        row(out, c, prev, mk, 1, &index);
        prev = mk;
    }
    if (prev < N) {
        if (prev)
            row(out, c, prev, prev + 1, 0, &index);
        if (prev + 1 < N)
            row(out, c, prev, N, 0, &index);
    }
}

static void bound_free(void *mm) { free(mm); }

const struct model_desc rap_bound_model = {
    .name = "rap_bound",
    .summary = "analytic worst-case RAP tree nodes vs b, q and events, continuous vs batched merges (Figures 2, 3)",
    .params = bound_params,
    .metrics = bound_metrics,
    .tables = bound_tables,
    .create = bound_create,
    .finish = bound_finish,
    .report = bound_report,
    .free = bound_free,
};
MODEL_REGISTER(rap_bound_model);

