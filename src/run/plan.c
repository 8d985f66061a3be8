/* plan.c - building an instance's input plan (see plan.h). */
#include "run/plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void plan_fail(struct plan *p, const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
}

static int add(struct plan *p, const struct plan_nodedef *d)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->node[i].kind == d->kind && p->node[i].input == d->input && plan_node_equal(&p->node[i], d))
            return (int)i;
    if (p->n == PLAN_MAX_NODES) {
        plan_fail(p, "internal error: more than %d input nodes in one plan", PLAN_MAX_NODES);
        return PLAN_NONE;
    }
    p->node[p->n] = *d;
    return (int)p->n++;
}

plan_node plan_events(struct plan *p, unsigned kind_mask)
{
    struct plan_nodedef d;
    memset(&d, 0, sizeof d);
    d.kind = PN_EVENTS;
    d.mask = kind_mask & EV_ALL;
    d.input = -1;
    if (!d.mask) {
        plan_fail(p, "internal error: an input of no event kinds");
        return PLAN_NONE;
    }
    return add(p, &d);
}

const char *plan_rec_type(const struct plan *p, int node)
{
    if (node < 0 || (size_t)node >= p->n)
        return "";
    return p->node[node].kind == PN_EVENTS ? "event" : p->node[node].stage->rec_type;
}

plan_node plan_stage(struct plan *p, plan_node input, const struct stage_desc *s, const struct param_values *spv)
{
    if (p->failed)
        return PLAN_NONE;
    if (input == PLAN_NONE) {
        if (!s->event_mask) {
            plan_fail(p, "internal error: stage '%s' does not read decoded events", s->name);
            return PLAN_NONE;
        }
        input = plan_events(p, s->event_mask);
        if (input == PLAN_NONE)
            return PLAN_NONE;
    } else if (input < 0 || (size_t)input >= p->n) {
        plan_fail(p, "internal error: stage '%s' reads an unknown node", s->name);
        return PLAN_NONE;
    }
    const char *have = plan_rec_type(p, input);
    if (!s->input_rec || strcmp(s->input_rec, have) != 0) {
        plan_fail(p, "internal error: stage '%s' reads '%s' records, not '%s'", s->name,
                  s->input_rec ? s->input_rec : "(none)", have);
        return PLAN_NONE;
    }
    struct plan_nodedef d;
    memset(&d, 0, sizeof d);
    d.kind = PN_STAGE;
    d.stage = s;
    d.input = input;
    if (spv)
        d.spv = *spv;
    else
        params_defaults(&d.spv, s->params);
    if (d.spv.spec != s->params) {
        plan_fail(p, "internal error: parameters of stage '%s' built from another table", s->name);
        return PLAN_NONE;
    }
    return add(p, &d);
}

void plan_feed(struct plan *p, plan_node n)
{
    if (n == PLAN_NONE || p->failed)
        return;
    if (p->feed >= 0 && p->feed != n)
        plan_fail(p, "internal error: two feed inputs in one plan");
    p->feed = n;
}

void plan_side(struct plan *p, plan_node n)
{
    if (n == PLAN_NONE || p->failed)
        return;
    if (p->nsides == MODEL_MAX_SIDES) {
        plan_fail(p, "internal error: more than %d side inputs", MODEL_MAX_SIDES);
        return;
    }
    if (p->node[n].kind != PN_STAGE || !p->node[n].stage->shared) {
        plan_fail(p, "internal error: a side input must be a stage with a shared result");
        return;
    }
    p->side[p->nsides++] = n;
}

int plan_build(const struct model_desc *m, const struct param_values *pv, struct plan *p)
{
    memset(p, 0, sizeof *p);
    p->feed = -1;
    if (m->plan)
        m->plan(pv, p);
    else if (m->event_mask)
        plan_feed(p, plan_events(p, m->event_mask));
    if (!p->failed && model_reads_trace(m) && p->feed < 0 && p->nsides == 0)
        plan_fail(p, "internal error: model '%s' reads a trace but its plan has no input", m->name);
    return p->failed ? -1 : 0;
}

bool plan_node_equal(const struct plan_nodedef *a, const struct plan_nodedef *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == PN_EVENTS)
        return a->mask == b->mask;
    return a->stage == b->stage && pv_equal(&a->spv, &b->spv);
}
