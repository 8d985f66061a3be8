/* v2_fake.c - minimal v2 runner for tests (see v2_fake.h). */
#include "v2_fake.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 8

struct node {
    int kind; /* 0 events, 1 stage */
    unsigned mask;
    const struct stage_desc *stage;
    struct param_values spv;
    int input;
    void *st;
    /* this batch's output records */
    unsigned char *recs;
    size_t nrec, caprec, recsize;
};

struct plan {
    struct node node[MAXN];
    int n, feed, side[MODEL_MAX_SIDES], nsides, failed;
    char err[256];
};

plan_node plan_events(struct plan *p, unsigned kind_mask)
{
    if (p->n == MAXN)
        return PLAN_NONE;
    struct node *x = &p->node[p->n];
    memset(x, 0, sizeof *x);
    x->kind = 0;
    x->mask = kind_mask;
    x->input = -1;
    x->recsize = sizeof(struct event);
    return p->n++;
}

plan_node plan_stage(struct plan *p, plan_node input, const struct stage_desc *s, const struct param_values *spv)
{
    if (input == PLAN_NONE)
        input = plan_events(p, s->event_mask);
    if (p->n == MAXN)
        return PLAN_NONE;
    struct node *x = &p->node[p->n];
    memset(x, 0, sizeof *x);
    x->kind = 1;
    x->stage = s;
    if (spv)
        x->spv = *spv;
    else
        params_defaults(&x->spv, s->params);
    x->input = input;
    x->recsize = s->rec_size;
    return p->n++;
}

void plan_feed(struct plan *p, plan_node n) { p->feed = n; }
void plan_side(struct plan *p, plan_node n) { p->side[p->nsides++] = n; }

void plan_fail(struct plan *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
    p->failed = 1;
}

void out_metric(struct model_out *o, size_t index, double value)
{
    if (index < o->nmetrics) {
        o->metrics[index] = value;
        o->set[index] = 1;
    }
}

void out_row(struct model_out *o, size_t table, const union cell *cells)
{
    struct v2_table *t = &o->tables[table];
    if (t->rows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->cells = realloc(t->cells, t->cap * t->ncols * sizeof *t->cells);
        if (!t->cells)
            abort();
    }
    memcpy(&t->cells[t->rows * t->ncols], cells, t->ncols * sizeof *cells);
    t->rows++;
}

static void append(struct node *x, const void *recs, size_t n)
{
    if (!n || !x->recsize)
        return;
    if (x->nrec + n > x->caprec) {
        x->caprec = 2 * (x->nrec + n);
        x->recs = realloc(x->recs, x->caprec * x->recsize);
        if (!x->recs)
            abort();
    }
    memcpy(x->recs + x->nrec * x->recsize, recs, n * x->recsize);
    x->nrec += n;
}

/* Push node i's input through its stage, delivering chunks to the node's
 * output array and, for the feed node, to the model. */
static void run_stage(struct plan *p, int i, const void *in, size_t n, const struct model_desc *m, void *inst)
{
    struct node *x = &p->node[i];
    const unsigned char *rec = in;
    size_t insize = p->node[x->input].recsize;
    while (n > 0) {
        struct chunk c = { NULL, 0, 0 };
        size_t k = x->stage->feed(x->st, rec, n, &c);
        if (k == 0 && c.n == 0 && !c.mark)
            abort(); /* protocol: consume or produce */
        append(x, c.recs, c.n);
        if (i == p->feed && inst) {
            if (c.n)
                m->feed(inst, c.recs, c.n);
            if (c.mark && m->mark)
                m->mark(inst, c.mark);
        }
        rec += k * insize;
        n -= k;
    }
}

size_t v2_col(const struct model_desc *m, size_t table, const char *name)
{
    const struct col_spec *c = m->tables[table].cols;
    for (size_t i = 0; c[i].name; i++)
        if (strcmp(c[i].name, name) == 0)
            return i;
    fprintf(stderr, "no column %s\n", name);
    abort();
}

double v2_metric(const struct model_out *o, const char *name)
{
    for (size_t i = 0; o->m->metrics[i].name; i++)
        if (strcmp(o->m->metrics[i].name, name) == 0)
            return o->metrics[i];
    fprintf(stderr, "no metric %s\n", name);
    abort();
}

void v2_out_free(struct model_out *o)
{
    for (int t = 0; t < V2_MAX_TABLES; t++)
        free(o->tables[t].cells);
    memset(o, 0, sizeof *o);
}

struct v2_job {
    const struct model_desc *m;
    struct model_out *out;
    struct plan p;
    void *inst;
    char *err;
    size_t errlen;
};

static void job_free(struct v2_job *j)
{
    for (int i = 0; i < j->p.n; i++) {
        if (j->p.node[i].kind == 1 && j->p.node[i].st)
            j->p.node[i].stage->free(j->p.node[i].st);
        free(j->p.node[i].recs);
    }
    free(j);
}

struct v2_job *v2_begin(const struct model_desc *m, const struct param_values *pv, struct model_out *out, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->m = m;
    for (out->nmetrics = 0; m->metrics[out->nmetrics].name; out->nmetrics++)
        ;
    for (size_t t = 0; m->tables && m->tables[t].name; t++)
        for (out->tables[t].ncols = 0; m->tables[t].cols[out->tables[t].ncols].name; out->tables[t].ncols++)
            ;
    struct v2_job *j = calloc(1, sizeof *j);
    if (!j)
        abort();
    j->m = m;
    j->out = out;
    j->err = err;
    j->errlen = errlen;
    struct plan *p = &j->p;
    p->feed = -1;
    if (m->plan)
        m->plan(pv, p);
    else if (m->event_mask)
        plan_feed(p, plan_events(p, m->event_mask));
    if (p->failed) {
        snprintf(err, errlen, "%s", p->err);
        job_free(j);
        return NULL;
    }
    for (int i = 0; i < p->n; i++)
        if (p->node[i].kind == 1 && !(p->node[i].st = p->node[i].stage->create(&p->node[i].spv, err, errlen))) {
            job_free(j);
            return NULL;
        }
    struct model_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.pv = pv;
    ctx.out = out;
    ctx.err = err;
    ctx.errlen = errlen;
    if (p->feed >= 0 && p->node[p->feed].kind == 1 && p->node[p->feed].stage->shared)
        ctx.input = p->node[p->feed].stage->shared(p->node[p->feed].st);
    for (int k = 0; k < p->nsides; k++)
        ctx.side[k] = p->node[p->side[k]].stage->shared(p->node[p->side[k]].st);
    j->inst = m->create(&ctx);
    if (!j->inst) {
        job_free(j);
        return NULL;
    }
    return j;
}

void v2_push(struct v2_job *j, const struct event *ev, size_t cnt)
{
    struct plan *p = &j->p;
    if (p->feed < 0)
        return;
    for (int i = 0; i < p->n; i++) {
        struct node *x = &p->node[i];
        x->nrec = 0;
        if (x->kind == 0) {
            for (size_t k = 0; k < cnt; k++)
                if (x->mask & EV_BIT(ev[k].kind))
                    append(x, &ev[k], 1);
            if (i == p->feed && x->nrec)
                j->m->feed(j->inst, x->recs, x->nrec);
        } else {
            run_stage(p, i, p->node[x->input].recs, p->node[x->input].nrec, j->m, j->inst);
        }
    }
}

int v2_end(struct v2_job *j)
{
    struct plan *p = &j->p;
    const struct model_desc *m = j->m;
    /* stage finish in plan order; a last chunk flows to later stages */
    for (int i = 0; i < p->n; i++)
        p->node[i].nrec = 0;
    for (int i = 0; i < p->n; i++) {
        struct node *x = &p->node[i];
        if (x->kind != 1)
            continue;
        if (p->node[x->input].nrec)
            run_stage(p, i, p->node[x->input].recs, p->node[x->input].nrec, m, j->inst);
        if (x->stage->finish) {
            struct chunk c = { NULL, 0, 0 };
            x->stage->finish(x->st, &c);
            append(x, c.recs, c.n);
            if (i == p->feed && c.n)
                m->feed(j->inst, c.recs, c.n);
        }
    }
    m->finish(j->inst);
    m->report(j->inst, j->out);
    m->free(j->inst);
    int rc = 0;
    for (size_t i = 0; i < j->out->nmetrics; i++)
        if (!j->out->set[i]) {
            snprintf(j->err, j->errlen, "metric %s not set", m->metrics[i].name);
            rc = -1;
        }
    job_free(j);
    return rc;
}

int v2_run(const struct model_desc *m, const struct param_values *pv, const struct event *ev, size_t n, size_t batch,
           struct model_out *out, char *err, size_t errlen)
{
    struct v2_job *j = v2_begin(m, pv, out, err, errlen);
    if (!j)
        return -1;
    for (size_t off = 0; off < n; off += batch)
        v2_push(j, ev + off, n - off < batch ? n - off : batch);
    return v2_end(j);
}
