/* mh_member.c - plan and bookkeeping of the multihash-family models (see
 * mh_member.h). */
#include "models/shared/mh_member.h"

#include "run/stage.h"

void mh_member_plan(const struct param_values *pv, struct plan *p, bool score)
{
    struct param_values spv;
    params_defaults(&spv, mh_interval_stage.params);
    pv_set_enum(&spv, "stream", pv_enum(pv, "stream"));
    /* the edge set only shapes edge tuples: value streams share one stage */
    pv_set_enum(&spv, "edges", pv_enum(pv, "stream") == MH_STREAM_EDGES ? pv_enum(pv, "edges") : 0);
    pv_set_int(&spv, "interval", pv_int(pv, "interval"));
    pv_set_bool(&spv, "exact", score);
    plan_feed(p, plan_stage(p, PLAN_NONE, &mh_interval_stage, &spv));
}

void mh_member_init(struct mh_member *m, const struct model_ctx *ctx)
{
    mh_read_common(ctx->pv, &m->src, &m->iv);
    m->view = ctx->input;
    m->exact = m->view ? m->view->exact : NULL;
    m->out = ctx->out;
}

void mh_member_finish(struct mh_member *m, void (*close)(struct mh_member *m))
{
    if (m->iv.partial && m->iv.pos > 0)
        close(m);
    if (m->view)
        m->src.skipped_loads = m->view->skipped_loads;
}
