/* engine_plan.c - a job's plan (engine_int.h): every instance's plan
 * (plan.h), instances that share a stage grouped into units, and units
 * spread over lanes by cost. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "run/engine_int.h"
#include "run/stage.h"

static double stage_cost(const struct stage_desc *s) { return s->cost > 0 ? s->cost : 1.0; }
static double model_cost(const struct model_desc *m) { return m->cost > 0 ? m->cost : 1.0; }

/* Instances connected by a shared stage form one unit (union-find). */
static size_t uf_find(size_t *parent, size_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

struct unit {
    size_t *inst;
    size_t n;
    double cost;
    double stages; /* cost of the unit's stages (paid once per lane holding part of it) */
};

static int cmp_unit_cost(const void *a, const void *b)
{
    const struct unit *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost < y->cost ? 1 : -1;
    return x->inst[0] < y->inst[0] ? -1 : x->inst[0] > y->inst[0];
}

int eng_plan_job(struct engine_job *j, int max_lanes)
{
    struct jobpriv *p = calloc(1, sizeof *p);
    if (!p) {
        eng_job_fail(j, SIZE_MAX, "out of memory");
        return -1;
    }
    j->priv = p;
    size_t n = j->ninst;
    p->plans = calloc(n ? n : 1, sizeof *p->plans);
    size_t *parent = calloc(n ? n : 1, sizeof *parent);
    /* job-level node list: instance i's plan node k is job node jn[i][k] */
    size_t cap = n * PLAN_MAX_NODES + 1;
    struct plan_nodedef *jnodes = calloc(cap, sizeof *jnodes);
    size_t *owner = calloc(cap, sizeof *owner); /* first instance using a job node */
    int (*jn)[PLAN_MAX_NODES] = calloc(n ? n : 1, sizeof *jn);
    struct unit *units = calloc(n ? n : 1, sizeof *units);
    size_t *members = calloc(n ? n : 1, sizeof *members);
    if (!p->plans || !parent || !jnodes || !owner || !jn || !units || !members) {
        eng_job_fail(j, SIZE_MAX, "out of memory");
        free(parent), free(jnodes), free(owner), free(jn), free(units), free(members);
        return -1;
    }
    size_t njn = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        parent[i] = i;
        struct engine_inst *in = &j->inst[i];
        in->cost = model_cost(in->m);
        in->seconds = in->stage_seconds = 0;
        if (plan_build(in->m, &in->pv, &p->plans[i]) != 0) {
            eng_job_fail(j, i, "%s", p->plans[i].err);
            rc = -1;
            break;
        }
        const struct plan *pl = &p->plans[i];
        for (size_t k = 0; k < pl->n; k++) {
            struct plan_nodedef d = pl->node[k];
            d.input = d.input >= 0 ? jn[i][d.input] : -1;
            size_t f = 0;
            while (f < njn && !(jnodes[f].input == d.input && plan_node_equal(&jnodes[f], &d)))
                f++;
            if (f == njn) {
                jnodes[njn] = d;
                owner[njn] = i;
                njn++;
            } else if (d.kind == PN_STAGE) {
                size_t a = uf_find(parent, i), b = uf_find(parent, owner[f]);
                if (a != b)
                    parent[a < b ? b : a] = a < b ? a : b;
            }
            jn[i][k] = (int)f;
        }
    }
    if (rc == 0) {
        /* units in order of their first instance */
        size_t nunits = 0, off = 0;
        size_t *unit_of = members; /* reuse: root -> unit index, then members */
        size_t *root_unit = calloc(n ? n : 1, sizeof *root_unit);
        if (!root_unit) {
            eng_job_fail(j, SIZE_MAX, "out of memory");
            rc = -1;
        } else {
            for (size_t i = 0; i < n; i++)
                root_unit[i] = SIZE_MAX;
            for (size_t i = 0; i < n; i++) {
                size_t r = uf_find(parent, i);
                if (root_unit[r] == SIZE_MAX)
                    root_unit[r] = nunits++;
                units[root_unit[r]].n++;
            }
            for (size_t u = 0; u < nunits; u++) {
                units[u].inst = NULL;
                units[u].cost = 0;
            }
            /* member lists laid out unit by unit in one array */
            size_t *start = calloc(nunits + 1, sizeof *start);
            if (!start) {
                eng_job_fail(j, SIZE_MAX, "out of memory");
                rc = -1;
            } else {
                for (size_t u = 0; u < nunits; u++) {
                    start[u] = off;
                    off += units[u].n;
                    units[u].n = 0;
                }
                for (size_t i = 0; i < n; i++) {
                    size_t u = root_unit[uf_find(parent, i)];
                    unit_of[start[u] + units[u].n++] = i;
                    units[u].cost += j->inst[i].cost;
                }
                for (size_t u = 0; u < nunits; u++)
                    units[u].inst = unit_of + start[u];
                /* stage costs: each job stage node once, in its owner's unit */
                for (size_t f = 0; f < njn; f++)
                    if (jnodes[f].kind == PN_STAGE) {
                        size_t u = root_unit[uf_find(parent, owner[f])];
                        units[u].cost += stage_cost(jnodes[f].stage);
                        units[u].stages += stage_cost(jnodes[f].stage);
                    }
                free(start);
            }
            free(root_unit);
        }
        /* lanes */
        int L = max_lanes;
        if ((size_t)L > n)
            L = n ? (int)n : 1;
        if ((!j->trace_path && !j->mem_events) || L < 1)
            L = 1;
        if (rc == 0) {
            /* Split the heaviest multi-instance unit while it alone exceeds
             * a fair share (its stages then run once per part). */
            size_t extra = 0;
            double total = 0;
            for (size_t u = 0; u < nunits; u++)
                total += units[u].cost;
            struct unit *all = calloc(nunits + n + 1, sizeof *all);
            if (!all) {
                eng_job_fail(j, SIZE_MAX, "out of memory");
                rc = -1;
            } else {
                memcpy(all, units, nunits * sizeof *all);
                size_t na = nunits;
                for (;;) {
                    qsort(all, na, sizeof *all, cmp_unit_cost);
                    /* a part of a split unit recomputes the unit's stages: split
                     * only when its instances outweigh its stages */
                    if (L < 2 || na + extra >= (size_t)L * 4 || all[0].n < 2 || all[0].cost <= 1.25 * total / L ||
                        all[0].cost - all[0].stages <= 2 * all[0].stages)
                        break;
                    struct unit *big = &all[0];
                    size_t half = big->n / 2;
                    struct unit b2 = { big->inst + half, big->n - half, 0, big->stages };
                    big->n = half;
                    double c1 = big->stages, c2 = big->stages;
                    for (size_t k = 0; k < big->n; k++)
                        c1 += j->inst[big->inst[k]].cost;
                    for (size_t k = 0; k < b2.n; k++)
                        c2 += j->inst[b2.inst[k]].cost;
                    total += big->stages;
                    big->cost = c1;
                    b2.cost = c2;
                    all[na++] = b2;
                    extra++;
                }
                /* LPT: heaviest unit to the lightest lane */
                p->lanes = calloc((size_t)L, sizeof *p->lanes);
                if (!p->lanes) {
                    eng_job_fail(j, SIZE_MAX, "out of memory");
                    rc = -1;
                } else {
                    for (int l = 0; l < L && rc == 0; l++) {
                        p->lanes[l].inst = calloc(n ? n : 1, sizeof *p->lanes[l].inst);
                        if (!p->lanes[l].inst) {
                            eng_job_fail(j, SIZE_MAX, "out of memory");
                            rc = -1;
                        }
                    }
                    for (size_t u = 0; u < na && rc == 0; u++) {
                        int best = 0;
                        for (int l = 1; l < L; l++)
                            if (p->lanes[l].cost < p->lanes[best].cost)
                                best = l;
                        struct lanedef *ld = &p->lanes[best];
                        for (size_t k = 0; k < all[u].n; k++)
                            ld->inst[ld->n++] = all[u].inst[k];
                        ld->cost += all[u].cost;
                    }
                    /* keep non-empty lanes; instances in job order within a lane */
                    int kept = 0;
                    for (int l = 0; l < L && rc == 0; l++) {
                        if (p->lanes[l].n == 0 && !(l == 0 && n == 0)) {
                            free(p->lanes[l].inst);
                            continue;
                        }
                        struct lanedef ld = p->lanes[l];
                        for (size_t a = 1; a < ld.n; a++) /* insertion sort: lanes are short */
                            for (size_t b = a; b > 0 && ld.inst[b - 1] > ld.inst[b]; b--) {
                                size_t t = ld.inst[b];
                                ld.inst[b] = ld.inst[b - 1];
                                ld.inst[b - 1] = t;
                            }
                        p->lanes[kept++] = ld;
                    }
                    p->nlanes = kept;
                }
                free(all);
            }
        }
    }
    free(parent);
    free(jnodes);
    free(owner);
    free(jn);
    free(units);
    if (rc != 0) {
        free(members);
        return -1;
    }
    /* members (the unit member array) is referenced by the lanes only
     * through copies, so it can go */
    free(members);
    j->lanes = p->nlanes;
    return 0;
}
