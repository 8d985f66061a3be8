/* engine_lane.c - a lane (engine_int.h): the graph of stages and model
 * instances built from their plans, fed batch by batch (events filtered per
 * kind mask, stages in plan order, instances in order) and finished, with
 * the time of each stage's and each instance's own calls (a stage's time
 * is shared among the instances downstream of it: engine_inst.seconds,
 * stage_seconds); also
 * engine_check_instance and engine_solo, which build one lane of one
 * instance. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/engine_int.h"
#include "run/stage.h"

/* ---- a lane's graph -------------------------------------------------------- */

struct consumer {
    int stage;  /* 1: lane node index `idx` is a stage; 0: lane instance `idx` */
    size_t idx;
};

struct lnode {
    struct plan_nodedef def; /* def.input: lane node index */
    void *st;                /* stage instance */
    size_t in_size;          /* bytes per input record */
    struct consumer *cons;
    size_t ncons;
    struct event *filtered;  /* PN_EVENTS with a partial mask */
    double seconds;          /* PN_STAGE: time in the stage's own calls */
};

struct lane {
    struct engine_job *j;
    const size_t *inst;      /* job instance indices */
    size_t ninst;
    void **m;                /* model instances */
    struct lnode *nodes;
    size_t nnodes;
    int has_feed;            /* any node to decode for */
    double stage_seconds;    /* its stages' own time, set by lane_free */
};

/* Filter for a node reading `mask` of the batches' kinds `keep`?  Copying
 * the events of those kinds costs about as much as a consumer skipping the
 * others, so auto filters only when they are less than half of the batches'
 * events (trace header counts). */
static int use_filter(const struct engine_job *j, unsigned mask, unsigned keep)
{
    if (j->filter == FILTER_ALWAYS)
        return 1;
    if (j->filter == FILTER_NEVER)
        return 0;
    if (!j->th.events)
        return 1;
    uint64_t kept = 0, all = 0;
    for (int k = 0; k < EV_KINDS; k++) {
        if (mask & EV_BIT(k))
            kept += j->th.counts[k];
        if (keep & EV_BIT(k))
            all += j->th.counts[k];
    }
    return 2 * kept < all;
}

static int add_consumer(struct lnode *nd, int stage, size_t idx, size_t max)
{
    if (!nd->cons) {
        nd->cons = calloc(max, sizeof *nd->cons);
        if (!nd->cons)
            return -1;
    }
    nd->cons[nd->ncons++] = (struct consumer){ stage, idx };
    return 0;
}

static void deliver(struct lane *ln, size_t node, const struct chunk *c);

static void push(struct lane *ln, size_t node, const void *recs, size_t n)
{
    const struct lnode *nd = &ln->nodes[node];
    for (size_t k = 0; k < nd->ncons; k++) {
        const struct consumer *c = &nd->cons[k];
        if (c->stage) {
            struct lnode *s = &ln->nodes[c->idx];
            const char *in = recs;
            size_t left = n;
            while (left > 0) {
                struct chunk out = { NULL, 0, MARK_NONE };
                double t0 = eng_now();
                size_t used = s->def.stage->feed(s->st, in, left, &out);
                s->seconds += eng_now() - t0;
                if (used > left || (used == 0 && out.n == 0 && out.mark == MARK_NONE)) {
                    fprintf(stderr, "internal error: stage '%s' made no progress\n", s->def.stage->name);
                    abort();
                }
                deliver(ln, c->idx, &out);
                in += used * s->in_size;
                left -= used;
            }
        } else if (n) {
            struct engine_inst *in = &ln->j->inst[ln->inst[c->idx]];
            double t0 = eng_now();
            in->m->feed(ln->m[c->idx], recs, n);
            in->seconds += eng_now() - t0;
        }
    }
}

static void deliver(struct lane *ln, size_t node, const struct chunk *c)
{
    if (c->n)
        push(ln, node, c->recs, c->n);
    if (c->mark == MARK_NONE)
        return;
    const struct lnode *nd = &ln->nodes[node];
    for (size_t k = 0; k < nd->ncons; k++) {
        const struct consumer *cs = &nd->cons[k];
        if (cs->stage) {
            struct lnode *s = &ln->nodes[cs->idx];
            if (s->def.stage->mark) {
                struct chunk out = { NULL, 0, MARK_NONE };
                double t0 = eng_now();
                s->def.stage->mark(s->st, c->mark, &out);
                s->seconds += eng_now() - t0;
                deliver(ln, cs->idx, &out);
            }
        } else {
            struct engine_inst *in = &ln->j->inst[ln->inst[cs->idx]];
            if (in->m->mark) {
                double t0 = eng_now();
                in->m->mark(ln->m[cs->idx], c->mark);
                in->seconds += eng_now() - t0;
            }
        }
    }
}

/* Each stage's time, split equally among the instances downstream of it
 * (engine_inst.stage_seconds), and summed into the lane's. */
static void share_stage_time(struct lane *ln)
{
    size_t *stack = malloc((ln->nnodes + 1) * sizeof *stack);
    unsigned char *seen = calloc(ln->nnodes + ln->ninst + 1, 1);
    for (size_t k = 0; stack && seen && k < ln->nnodes; k++) {
        const struct lnode *nd = &ln->nodes[k];
        if (nd->def.kind != PN_STAGE)
            continue;
        ln->stage_seconds += nd->seconds;
        /* the instances reached from node k (nodes: seen[0..nnodes), instances after) */
        memset(seen, 0, ln->nnodes + ln->ninst + 1);
        size_t sp = 0, ndown = 0;
        stack[sp++] = k;
        seen[k] = 1;
        while (sp) {
            const struct lnode *x = &ln->nodes[stack[--sp]];
            for (size_t c = 0; c < x->ncons; c++) {
                size_t at = x->cons[c].stage ? x->cons[c].idx : ln->nnodes + x->cons[c].idx;
                if (seen[at])
                    continue;
                seen[at] = 1;
                if (x->cons[c].stage)
                    stack[sp++] = x->cons[c].idx;
                else
                    ndown++;
            }
        }
        for (size_t li = 0; li < ln->ninst && ndown; li++)
            if (seen[ln->nnodes + li])
                ln->j->inst[ln->inst[li]].stage_seconds += nd->seconds / (double)ndown;
    }
    free(stack);
    free(seen);
}

static void lane_free(struct lane *ln)
{
    for (size_t i = 0; i < ln->ninst && ln->m; i++)
        if (ln->m[i]) {
            struct engine_inst *in = &ln->j->inst[ln->inst[i]];
            double t0 = eng_now();
            in->m->free(ln->m[i]);
            in->seconds += eng_now() - t0;
        }
    for (size_t k = 0; k < ln->nnodes; k++) {
        struct lnode *nd = &ln->nodes[k];
        if (nd->st) {
            double t0 = eng_now();
            nd->def.stage->free(nd->st);
            nd->seconds += eng_now() - t0;
        }
    }
    share_stage_time(ln);
    for (size_t k = 0; k < ln->nnodes; k++) {
        free(ln->nodes[k].cons);
        free(ln->nodes[k].filtered);
    }
    free(ln->nodes);
    free(ln->m);
}

/* Build the lane's graph from its instances' plans and create stages and
 * instances.  Returns 0 or -1 (job failed). */
static int lane_build(struct lane *ln, const struct plan *plans)
{
    struct engine_job *j = ln->j;
    size_t maxn = ln->ninst * PLAN_MAX_NODES + 1;
    size_t maxcons = maxn + ln->ninst;
    ln->nodes = calloc(maxn, sizeof *ln->nodes);
    ln->m = calloc(ln->ninst ? ln->ninst : 1, sizeof *ln->m);
    if (!ln->nodes || !ln->m) {
        eng_job_fail(j, SIZE_MAX, "out of memory");
        return -1;
    }
    for (size_t li = 0; li < ln->ninst; li++) {
        size_t i = ln->inst[li];
        const struct plan *pl = &plans[i];
        int map[PLAN_MAX_NODES];
        for (size_t k = 0; k < pl->n; k++) {
            struct plan_nodedef d = pl->node[k];
            d.input = d.input >= 0 ? map[d.input] : -1;
            size_t f = 0;
            while (f < ln->nnodes &&
                   !(ln->nodes[f].def.input == d.input && plan_node_equal(&ln->nodes[f].def, &d)))
                f++;
            if (f == ln->nnodes) {
                struct lnode *nd = &ln->nodes[ln->nnodes++];
                nd->def = d;
                if (d.kind == PN_STAGE) {
                    char err[512] = "";
                    double t0 = eng_now();
                    nd->st = d.stage->create(&d.spv, err, sizeof err);
                    nd->seconds += eng_now() - t0;
                    if (!nd->st) {
                        eng_job_fail(j, i, "stage '%s': %s", d.stage->name, err[0] ? err : "out of memory");
                        return -1;
                    }
                    const struct lnode *in = &ln->nodes[d.input];
                    nd->in_size = in->def.kind == PN_EVENTS ? sizeof(struct event) : in->def.stage->rec_size;
                    if (add_consumer(&ln->nodes[d.input], 1, f, maxcons) != 0) {
                        eng_job_fail(j, SIZE_MAX, "out of memory");
                        return -1;
                    }
                } else {
                    ln->has_feed = 1;
                    const struct jobpriv *jp = j->priv; /* NULL: engine_check_instance, engine_solo (every kind) */
                    unsigned keep = jp && jp->ring_init ? jp->ring.keep : EV_ALL;
                    if ((d.mask & keep) != keep && use_filter(j, d.mask & keep, keep)) {
                        nd->filtered = malloc((j->batch ? j->batch : BATCH_DEFAULT) * sizeof *nd->filtered);
                        if (!nd->filtered) {
                            eng_job_fail(j, SIZE_MAX, "out of memory");
                            return -1;
                        }
                    }
                }
            }
            map[k] = (int)f;
        }
        struct engine_inst *in = &j->inst[i];
        struct model_ctx ctx;
        char err[1024] = "";
        memset(&ctx, 0, sizeof ctx);
        ctx.pv = &in->pv;
        ctx.out = in->out;
        ctx.err = err;
        ctx.errlen = sizeof err;
        if (pl->feed >= 0) {
            struct lnode *fn = &ln->nodes[map[pl->feed]];
            if (fn->def.kind == PN_STAGE && fn->def.stage->shared)
                ctx.input = fn->def.stage->shared(fn->st);
        }
        for (size_t s = 0; s < pl->nsides; s++) {
            struct lnode *sn = &ln->nodes[map[pl->side[s]]];
            ctx.side[s] = sn->def.stage->shared(sn->st);
        }
        double t0 = eng_now();
        ln->m[li] = in->m->create(&ctx);
        in->seconds += eng_now() - t0;
        if (!ln->m[li]) {
            eng_job_fail(j, i, "%s", err[0] ? err : "out of memory");
            return -1;
        }
        if (pl->feed >= 0 && add_consumer(&ln->nodes[map[pl->feed]], 0, li, maxcons) != 0) {
            eng_job_fail(j, SIZE_MAX, "out of memory");
            return -1;
        }
    }
    return 0;
}

static void lane_batch(struct lane *ln, const struct event *ev, size_t n)
{
    for (size_t k = 0; k < ln->nnodes; k++) {
        struct lnode *nd = &ln->nodes[k];
        if (nd->def.kind != PN_EVENTS)
            continue;
        if (!nd->filtered) {
            push(ln, k, ev, n);
            continue;
        }
        size_t cnt = 0;
        unsigned m = nd->def.mask;
        struct event *dst = nd->filtered;
        for (size_t e = 0; e < n; e++) {
            dst[cnt] = ev[e];
            cnt += (m >> ev[e].kind) & 1u;
        }
        if (cnt)
            push(ln, k, dst, cnt);
    }
}

static void lane_finish(struct lane *ln)
{
    struct engine_job *j = ln->j;
    for (size_t k = 0; k < ln->nnodes; k++) {
        struct lnode *nd = &ln->nodes[k];
        if (nd->def.kind == PN_STAGE && nd->def.stage->finish) {
            struct chunk out = { NULL, 0, MARK_NONE };
            double t0 = eng_now();
            nd->def.stage->finish(nd->st, &out);
            nd->seconds += eng_now() - t0;
            deliver(ln, k, &out);
        }
    }
    for (size_t li = 0; li < ln->ninst; li++) {
        struct engine_inst *in = &j->inst[ln->inst[li]];
        double t0 = eng_now();
        in->m->finish(ln->m[li]);
        in->m->report(ln->m[li], in->out);
        in->seconds += eng_now() - t0;
        char err[512];
        if (model_out_check(in->out, err, sizeof err) != 0) {
            eng_job_fail(j, ln->inst[li], "%s", err);
            return;
        }
        if (model_out_failed(in->out)) {
            eng_job_fail(j, ln->inst[li], "out of memory for the rows of model '%s'", in->m->name);
            return;
        }
    }
}

void eng_run_lane(struct engine_job *j, int lane)
{
    struct jobpriv *p = j->priv;
    double t0 = eng_now();
    struct lane ln;
    memset(&ln, 0, sizeof ln);
    ln.j = j;
    ln.inst = p->lanes[lane].inst;
    ln.ninst = p->lanes[lane].n;
    int ok = !j->failed && lane_build(&ln, p->plans) == 0;
    if (!ok && p->ring_init)
        eng_ring_abort(&p->ring);
    if (ok && p->ring_init) {
        for (uint64_t seq = 0;; seq++) {
            long n;
            const struct event *ev = eng_ring_get(j, &p->ring, seq, &n);
            if (!ev)
                break;
            if (ln.has_feed)
                lane_batch(&ln, ev, (size_t)n);
            eng_ring_release(&p->ring, seq);
        }
        ok = !j->failed;
    }
    if (ok)
        lane_finish(&ln);
    lane_free(&ln);
    p->lanes[lane].seconds = eng_now() - t0;
    p->lanes[lane].stage_seconds = ln.stage_seconds;
}

int engine_check_instance(const struct model_desc *m, const struct param_values *pv, char *err, size_t errlen)
{
    struct engine_inst in;
    memset(&in, 0, sizeof in);
    in.m = m;
    in.pv = *pv;
    in.out = model_out_create(m, NULL);
    if (!in.out) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct engine_job j;
    memset(&j, 0, sizeof j);
    j.inst = &in;
    j.ninst = 1;
    j.err_inst = SIZE_MAX;
    struct plan pl;
    int rc = -1;
    if (plan_build(m, pv, &pl) != 0) {
        snprintf(err, errlen, "%s", pl.err);
    } else {
        size_t idx = 0;
        struct lane ln;
        memset(&ln, 0, sizeof ln);
        ln.j = &j;
        ln.inst = &idx;
        ln.ninst = 1;
        if (lane_build(&ln, &pl) == 0)
            rc = 0;
        else
            snprintf(err, errlen, "%s", j.err);
        lane_free(&ln);
    }
    model_out_free(in.out);
    return rc;
}

/* ---- engine_solo ---------------------------------------------------------------- */

struct engine_solo {
    bool *all_tables; /* every table of the model kept */
    struct engine_job j;
    struct engine_inst in;
    struct lane ln;
    size_t idx;
    int finished;
};

struct engine_solo *engine_solo_create(const struct model_desc *m, const struct param_values *pv, char *err,
                                       size_t errlen)
{
    struct engine_solo *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->in.m = m;
    s->in.pv = *pv;
    size_t nt = model_count_tables(m);
    s->all_tables = malloc((nt ? nt : 1) * sizeof *s->all_tables);
    for (size_t t = 0; s->all_tables && t < nt; t++)
        s->all_tables[t] = true;
    s->in.wanted_tables = s->all_tables;
    s->in.out = s->all_tables ? model_out_create(m, s->all_tables) : NULL;
    s->j.inst = &s->in;
    s->j.ninst = 1;
    s->j.err_inst = SIZE_MAX;
    s->j.batch = BATCH_DEFAULT;
    s->ln.j = &s->j;
    s->ln.inst = &s->idx;
    s->ln.ninst = 1;
    struct plan pl;
    if (!s->in.out) {
        snprintf(err, errlen, "out of memory");
    } else if (plan_build(m, pv, &pl) != 0) {
        snprintf(err, errlen, "%s", pl.err);
    } else if (lane_build(&s->ln, &pl) != 0) {
        snprintf(err, errlen, "%s", s->j.err);
    } else {
        return s;
    }
    engine_solo_free(s);
    return NULL;
}

void *engine_solo_model(struct engine_solo *s) { return s->ln.m[0]; }

void engine_solo_feed(struct engine_solo *s, const struct event *ev, size_t n)
{
    while (n > 0) {
        size_t k = n < BATCH_DEFAULT ? n : BATCH_DEFAULT;
        lane_batch(&s->ln, ev, k);
        ev += k;
        n -= k;
    }
}

void engine_solo_finish(struct engine_solo *s)
{
    if (s->finished)
        return;
    s->finished = 1;
    for (size_t k = 0; k < s->ln.nnodes; k++) {
        struct lnode *nd = &s->ln.nodes[k];
        if (nd->def.kind == PN_STAGE && nd->def.stage->finish) {
            struct chunk out = { NULL, 0, MARK_NONE };
            nd->def.stage->finish(nd->st, &out);
            deliver(&s->ln, k, &out);
        }
    }
    s->in.m->finish(s->ln.m[0]);
}

struct model_out *engine_solo_report(struct engine_solo *s)
{
    s->in.m->report(s->ln.m[0], s->in.out);
    return s->in.out;
}

void engine_solo_free(struct engine_solo *s)
{
    if (!s)
        return;
    lane_free(&s->ln);
    model_out_free(s->in.out);
    free(s->all_tables);
    free(s);
}
