/* plan.h - what one model instance reads: a small chain (tree) of input
 * nodes built by the model's plan() hook (model.h: plan_events, plan_stage,
 * plan_feed, plan_side).  The engine merges the plans of every instance of a
 * job into one graph, deduplicating equal nodes (same kind, stage
 * descriptor, parameter values and input), so each stage runs once per job.
 */
#ifndef PLAN_H
#define PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "run/model.h"
#include "run/stage.h"

#define PLAN_MAX_NODES 8

enum plan_kind { PN_EVENTS = 0, PN_STAGE = 1 };

struct plan_nodedef {
    enum plan_kind kind;
    unsigned mask;                 /* PN_EVENTS: kinds */
    const struct stage_desc *stage;/* PN_STAGE */
    struct param_values spv;       /* PN_STAGE: resolved stage parameters */
    int input;                     /* PN_STAGE: index of its input node in this plan */
};

struct plan {
    struct plan_nodedef node[PLAN_MAX_NODES];
    size_t n;
    int feed;                      /* node whose records feed() gets; -1: none (analytic) */
    int side[MODEL_MAX_SIDES];
    size_t nsides;
    int failed;
    char err[512];
};

/* Build the plan of an instance of model m with parameters pv: m->plan(),
 * or, without it, the decoded events of m->event_mask (nothing for an
 * analytic model).  Returns 0, or -1 with p->err set. */
int plan_build(const struct model_desc *m, const struct param_values *pv, struct plan *p);
/* Record type of a node's output ("event" for PN_EVENTS). */
const char *plan_rec_type(const struct plan *p, int node);
/* Are two node definitions equal, given that their inputs are equal? */
bool plan_node_equal(const struct plan_nodedef *a, const struct plan_nodedef *b);

#endif
