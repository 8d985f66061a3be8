/* branch_bias.c - an example model, the one docs/adding-a-model.md walks
 * through: how biased are the program's conditional branches?
 *
 * For every static conditional branch it counts executions and taken
 * outcomes; a branch is "biased" when one direction has at least
 * `min_bias` of its executions.  Metrics: static branches, the share of
 * dynamic branches that are biased, and the mean bias.  Table `branches`:
 * one row per static branch executed at least `min_exec` times, at the
 * end of the window, with its own `bias`.
 *
 * To add it: copy this file to src/models/ and run make.  Nothing else is
 * edited: MODEL_REGISTER at the bottom puts it in `hwprof models`,
 * docs/params.md and the config validator.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "run/model.h"
#include "trace/trace.h" /* TRF_ flags */

/* Parameters: one row each, with default, inclusive bounds and meaning.
 * Every parameter becomes a column of every output CSV, beside the metrics
 * and the table columns: no parameter may share a name with them (the
 * table's column 'bias' is why this one is 'min_bias'). */
static const struct param_spec bias_params[] = {
    P_REAL("min_bias", 0.9, 0.5, 1, "a branch is biased when one direction has at least this share of its executions"),
    P_INT("max_branches", 65536, 1, 16777216, "static branches tracked (a power of two is not required)"),
    P_INT("min_exec", 1, 1, 1000000000, "branches executed fewer times are left out of the table"),
    PARAM_END,
};

/* Metrics: one CSV column each; report() sets every one. */
enum { M_STATIC, M_BIASED_PCT, M_MEAN_BIAS, M_UNTRACKED, M_COUNT };
static const struct metric_spec bias_metrics[] = {
    [M_STATIC] = METRIC("static_branches", "distinct conditional branch pcs tracked"),
    [M_BIASED_PCT] = METRIC("biased_pct", "dynamic conditional branches whose static branch is biased, percent"),
    [M_MEAN_BIAS] = METRIC("mean_bias", "mean over dynamic branches of max(taken, not taken) / executions"),
    [M_UNTRACKED] = METRIC("untracked", "dynamic branches of pcs beyond max_branches (not counted)"),
    [M_COUNT] = METRIC_END,
};

/* A named per-instance table: results/<paper>/<fig>.branches.csv when the
 * config says "tables": ["branches"]. */
static const struct col_spec branch_cols[] = {
    COL("pc", COL_HEX, "branch address"),
    COL("executions", COL_INT, "times executed"),
    COL("taken", COL_INT, "times taken"),
    COL("bias", COL_REAL, "max(taken, not taken) / executions"),
    COL_END,
};
static const struct table_spec bias_tables[] = {
    TABLE("branches", "one row per static branch", branch_cols),
    TABLE_END,
};

struct slot {
    uint64_t pc, exec, taken; /* exec == 0: empty */
};

struct bias_model {
    struct slot *slots; /* open addressing, sized at create: no allocation in feed */
    uint64_t mask, used, max, untracked;
    double min_bias;
    int64_t min_exec;
    struct model_out *out;
};

static void *bias_create(const struct model_ctx *ctx)
{
    struct bias_model *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(ctx->err, ctx->errlen, "out of memory");
        return NULL;
    }
    b->max = (uint64_t)pv_int(ctx->pv, "max_branches");
    b->min_bias = pv_real(ctx->pv, "min_bias");
    b->min_exec = pv_int(ctx->pv, "min_exec");
    b->out = ctx->out;
    uint64_t cap = 2;
    while (cap < 2 * b->max)
        cap *= 2;
    b->mask = cap - 1;
    b->slots = calloc(cap, sizeof *b->slots);
    if (!b->slots) {
        snprintf(ctx->err, ctx->errlen, "out of memory for %lld branches", (long long)b->max);
        free(b);
        return NULL;
    }
    return b;
}

/* The hot path: no allocation, no I/O, no strings; other kinds ignored. */
static void bias_feed(void *m, const void *recs, size_t n)
{
    struct bias_model *b = m;
    const struct event *ev = recs;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind != EV_BRANCH)
            continue;
        uint64_t h = (ev[i].pc * 0x9e3779b97f4a7c15ull) >> 20 & b->mask;
        while (b->slots[h].exec && b->slots[h].pc != ev[i].pc)
            h = (h + 1) & b->mask;
        struct slot *s = &b->slots[h];
        if (!s->exec) {
            if (b->used == b->max) {
                b->untracked++;
                continue;
            }
            b->used++;
            s->pc = ev[i].pc;
        }
        s->exec++;
        s->taken += ev[i].taken;
    }
}

static void bias_finish(void *m) { (void)m; }

static void bias_report(void *m, struct model_out *o)
{
    struct bias_model *b = m;
    double dyn = 0, biased = 0, sum_bias = 0;
    for (uint64_t h = 0; h <= b->mask; h++) {
        const struct slot *s = &b->slots[h];
        if (!s->exec)
            continue;
        uint64_t major = s->taken > s->exec - s->taken ? s->taken : s->exec - s->taken;
        double bias = (double)major / (double)s->exec;
        dyn += (double)s->exec;
        sum_bias += (double)major;
        if (bias >= b->min_bias)
            biased += (double)s->exec;
        if ((int64_t)s->exec >= b->min_exec) {
            union cell row[4];
            row[0].u = s->pc;
            row[1].i = (int64_t)s->exec;
            row[2].i = (int64_t)s->taken;
            row[3].r = bias;
            out_row(o, 0, row);
        }
    }
    out_metric(o, M_STATIC, (double)b->used);
    out_metric(o, M_BIASED_PCT, dyn > 0 ? 100.0 * biased / dyn : NAN);
    out_metric(o, M_MEAN_BIAS, dyn > 0 ? sum_bias / dyn : NAN);
    out_metric(o, M_UNTRACKED, (double)b->untracked);
}

/* A trace without control flow (a Lackey import) would give an empty
 * profile: say so, and the runner refuses such a trace by name. */
static unsigned bias_trace_needs(const struct param_values *pv)
{
    (void)pv;
    return TRF_HAS_BRANCHES;
}

static void bias_free(void *m)
{
    struct bias_model *b = m;
    if (!b)
        return;
    free(b->slots);
    free(b);
}

static const struct model_desc branch_bias_model = {
    .name = "branch_bias",
    .summary = "example model: share of conditional branches that are biased (docs/adding-a-model.md)",
    .params = bias_params,
    .metrics = bias_metrics,
    .tables = bias_tables,
    .event_mask = EV_BIT(EV_BRANCH),
    .create = bias_create,
    .feed = bias_feed,
    .finish = bias_finish,
    .report = bias_report,
    .free = bias_free,
    .trace_needs = bias_trace_needs,
};
MODEL_REGISTER(branch_bias_model);
