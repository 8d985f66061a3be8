/* engine.c - jobs, lanes, the shared batch ring and the feed loop (see
 * engine.h). */
#define _POSIX_C_SOURCE 200809L
#include "run/engine.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/plan.h"
#include "run/stage.h"

#define BATCH_DEFAULT 8192 /* decoded events per batch */
#define RING_SLOTS 4   /* batches in flight per job */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int engine_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 4096 ? 4096 : (int)n;
}

/* ---- the batch ring ---------------------------------------------------------
 * Slot s holds batch seq when slot_seq[s] == seq and it is filled.  A lane
 * asks for its batches in order; the lane that needs the next undecoded
 * batch decodes it when its slot is free (all lanes released the batch that
 * was there before).  Lanes release each batch after feeding it. */
struct ring {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct trace_reader *tr;
    struct event *buf[RING_SLOTS];
    long n[RING_SLOTS];
    uint64_t slot_seq[RING_SLOTS];
    int refs[RING_SLOTS];       /* lanes still to release the batch in the slot */
    int filled[RING_SLOTS];
    uint64_t next_seq;          /* next batch to decode */
    int decoding, eof, abort;
    int nlanes;
    uint64_t events;            /* decoded so far */
    size_t mem_pos;             /* next event of job->mem_events */
};

/* ---- per job planning ----------------------------------------------------- */

struct lanedef {
    size_t *inst;
    size_t n;
    double cost;
};

struct jobpriv {
    struct plan *plans;     /* per instance */
    struct lanedef *lanes;
    int nlanes, taken, finished;
    struct ring ring;
    int ring_init;
    double t0;
};

static void job_fail(struct engine_job *j, size_t inst, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static pthread_mutex_t fail_mu = PTHREAD_MUTEX_INITIALIZER;

static void job_fail(struct engine_job *j, size_t inst, const char *fmt, ...)
{
    pthread_mutex_lock(&fail_mu);
    if (!j->failed) {
        j->failed = 1;
        j->err_inst = inst;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(j->err, sizeof j->err, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&fail_mu);
}

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

/* Plan every instance, group them into units and units into lanes. */
static int plan_job(struct engine_job *j, int max_lanes)
{
    struct jobpriv *p = calloc(1, sizeof *p);
    if (!p) {
        job_fail(j, SIZE_MAX, "out of memory");
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
        job_fail(j, SIZE_MAX, "out of memory");
        free(parent), free(jnodes), free(owner), free(jn), free(units), free(members);
        return -1;
    }
    size_t njn = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        parent[i] = i;
        struct engine_inst *in = &j->inst[i];
        in->cost = model_cost(in->m);
        if (plan_build(in->m, &in->pv, &p->plans[i]) != 0) {
            job_fail(j, i, "%s", p->plans[i].err);
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
            job_fail(j, SIZE_MAX, "out of memory");
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
                job_fail(j, SIZE_MAX, "out of memory");
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
                job_fail(j, SIZE_MAX, "out of memory");
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
                    job_fail(j, SIZE_MAX, "out of memory");
                    rc = -1;
                } else {
                    for (int l = 0; l < L && rc == 0; l++) {
                        p->lanes[l].inst = calloc(n ? n : 1, sizeof *p->lanes[l].inst);
                        if (!p->lanes[l].inst) {
                            job_fail(j, SIZE_MAX, "out of memory");
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

static void ring_free(struct ring *r)
{
    for (int s = 0; s < RING_SLOTS; s++)
        free(r->buf[s]);
    trace_reader_close(r->tr);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
}

static void job_free_priv(struct engine_job *j)
{
    struct jobpriv *p = j->priv;
    if (!p)
        return;
    for (int l = 0; l < p->nlanes; l++)
        free(p->lanes[l].inst);
    free(p->lanes);
    free(p->plans);
    if (p->ring_init)
        ring_free(&p->ring);
    free(p);
    j->priv = NULL;
}

/* Open the trace and check it against the job (workload, what the models
 * read).  Called under the scheduler lock. */
static int open_job(struct engine_job *j)
{
    struct jobpriv *p = j->priv;
    if (!j->trace_path && !j->mem_events)
        return 0;
    struct ring *r = &p->ring;
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    p->ring_init = 1;
    r->nlanes = p->nlanes;
    if (!j->batch)
        j->batch = BATCH_DEFAULT;
    for (int s = 0; s < RING_SLOTS; s++) {
        r->buf[s] = malloc(j->batch * sizeof *r->buf[s]);
        if (!r->buf[s]) {
            job_fail(j, SIZE_MAX, "out of memory");
            return -1;
        }
        r->slot_seq[s] = UINT64_MAX;
    }
    if (j->mem_events) {
        memset(&j->th, 0, sizeof j->th);
        j->th.meta.flags = TRF_HAS_VALUES | TRF_HAS_BRANCHES | TRF_COMPLETE;
        j->th.events = j->mem_n;
        snprintf(j->th.meta.workload, sizeof j->th.meta.workload, "%s", j->expect_workload ? j->expect_workload : "memory");
        return 0;
    }
    char err[1024];
    r->tr = trace_reader_open(j->trace_path, err, sizeof err);
    if (!r->tr) {
        job_fail(j, SIZE_MAX, "%s", err);
        return -1;
    }
    j->th = *trace_reader_header(r->tr);
    atomic_store(&j->bytes_total, trace_reader_size(r->tr));
    if (j->expect_workload && strcmp(j->th.meta.workload, j->expect_workload) != 0) {
        job_fail(j, SIZE_MAX, "%s: the trace is of workload '%s' (its header), not '%s'", j->trace_path,
                 j->th.meta.workload, j->expect_workload);
        return -1;
    }
    for (size_t i = 0; i < j->ninst; i++) {
        const struct engine_inst *in = &j->inst[i];
        unsigned missing = in->m->trace_needs ? in->m->trace_needs(&in->pv) & ~j->th.meta.flags : 0;
        if (missing) {
            job_fail(j, i, "%s: model '%s' needs %s, which this trace of '%s' (producer '%s') does not hold",
                     j->trace_path, in->m->name, missing & TRF_HAS_VALUES ? "loaded values" : "control-flow events",
                     j->th.meta.workload, j->th.meta.producer);
            return -1;
        }
    }
    return 0;
}

/* The batch seq, or NULL at the end (or when the job failed). */
static const struct event *ring_get(struct engine_job *j, struct ring *r, uint64_t seq, long *n)
{
    int s = (int)(seq % RING_SLOTS);
    pthread_mutex_lock(&r->mu);
    for (;;) {
        if (r->abort) {
            pthread_mutex_unlock(&r->mu);
            return NULL;
        }
        if (r->slot_seq[s] == seq && r->filled[s]) {
            *n = r->n[s];
            pthread_mutex_unlock(&r->mu);
            return r->buf[s];
        }
        if (r->eof && seq >= r->next_seq) {
            pthread_mutex_unlock(&r->mu);
            return NULL;
        }
        if (!r->decoding && r->next_seq == seq && r->refs[s] == 0) {
            /* decode batch seq into slot s, outside the lock */
            r->decoding = 1;
            r->slot_seq[s] = seq;
            r->filled[s] = 0;
            pthread_mutex_unlock(&r->mu);
            size_t want = j->batch;
            uint64_t done = r->events;
            if (j->max_events && j->max_events - done < want)
                want = (size_t)(j->max_events - done);
            long got;
            if (j->mem_events) {
                size_t left = j->mem_n - r->mem_pos;
                got = (long)(left < want ? left : want);
                memcpy(r->buf[s], j->mem_events + r->mem_pos, (size_t)got * sizeof *r->buf[s]);
                r->mem_pos += (size_t)got;
            } else {
                got = want ? trace_reader_read(r->tr, r->buf[s], want) : 0;
            }
            if (got < 0)
                job_fail(j, SIZE_MAX, "%s", trace_reader_error(r->tr));
            pthread_mutex_lock(&r->mu);
            r->decoding = 0;
            if (got < 0) {
                r->abort = 1;
            } else if (got == 0) {
                r->eof = 1;
                r->slot_seq[s] = UINT64_MAX;
            } else {
                r->n[s] = got;
                r->filled[s] = 1;
                r->refs[s] = r->nlanes;
                r->next_seq++;
                r->events += (uint64_t)got;
                atomic_store(&j->events_done, r->events);
                if (r->tr)
                    atomic_store(&j->bytes_done, trace_reader_offset(r->tr));
            }
            pthread_cond_broadcast(&r->cv);
            continue;
        }
        pthread_cond_wait(&r->cv, &r->mu);
    }
}

static void ring_release(struct ring *r, uint64_t seq)
{
    int s = (int)(seq % RING_SLOTS);
    pthread_mutex_lock(&r->mu);
    if (--r->refs[s] == 0)
        pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

static void ring_abort(struct ring *r)
{
    pthread_mutex_lock(&r->mu);
    r->abort = 1;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

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
};

struct lane {
    struct engine_job *j;
    const size_t *inst;      /* job instance indices */
    size_t ninst;
    void **m;                /* model instances */
    struct lnode *nodes;
    size_t nnodes;
    int has_feed;            /* any node to decode for */
};

/* Filter for a node reading `mask`?  Copying the events of those kinds costs
 * about as much as a consumer skipping the others, so auto filters only
 * when they are less than half of the window (trace header counts). */
static int use_filter(const struct engine_job *j, unsigned mask)
{
    if (j->filter == FILTER_ALWAYS)
        return 1;
    if (j->filter == FILTER_NEVER)
        return 0;
    if (!j->th.events)
        return 1;
    uint64_t kept = 0;
    for (int k = 0; k < EV_KINDS; k++)
        if (mask & EV_BIT(k))
            kept += j->th.counts[k];
    return 2 * kept < j->th.events;
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
                size_t used = s->def.stage->feed(s->st, in, left, &out);
                if (used > left || (used == 0 && out.n == 0 && out.mark == MARK_NONE)) {
                    fprintf(stderr, "internal error: stage '%s' made no progress\n", s->def.stage->name);
                    abort();
                }
                deliver(ln, c->idx, &out);
                in += used * s->in_size;
                left -= used;
            }
        } else if (n) {
            const struct engine_inst *in = &ln->j->inst[ln->inst[c->idx]];
            in->m->feed(ln->m[c->idx], recs, n);
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
                s->def.stage->mark(s->st, c->mark, &out);
                deliver(ln, cs->idx, &out);
            }
        } else {
            const struct engine_inst *in = &ln->j->inst[ln->inst[cs->idx]];
            if (in->m->mark)
                in->m->mark(ln->m[cs->idx], c->mark);
        }
    }
}

static void lane_free(struct lane *ln)
{
    for (size_t i = 0; i < ln->ninst && ln->m; i++)
        if (ln->m[i])
            ln->j->inst[ln->inst[i]].m->free(ln->m[i]);
    for (size_t k = 0; k < ln->nnodes; k++) {
        struct lnode *nd = &ln->nodes[k];
        if (nd->st)
            nd->def.stage->free(nd->st);
        free(nd->cons);
        free(nd->filtered);
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
        job_fail(j, SIZE_MAX, "out of memory");
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
                    nd->st = d.stage->create(&d.spv, err, sizeof err);
                    if (!nd->st) {
                        job_fail(j, i, "stage '%s': %s", d.stage->name, err[0] ? err : "out of memory");
                        return -1;
                    }
                    const struct lnode *in = &ln->nodes[d.input];
                    nd->in_size = in->def.kind == PN_EVENTS ? sizeof(struct event) : in->def.stage->rec_size;
                    if (add_consumer(&ln->nodes[d.input], 1, f, maxcons) != 0) {
                        job_fail(j, SIZE_MAX, "out of memory");
                        return -1;
                    }
                } else {
                    ln->has_feed = 1;
                    if ((d.mask & EV_ALL) != EV_ALL && use_filter(j, d.mask)) {
                        nd->filtered = malloc((j->batch ? j->batch : BATCH_DEFAULT) * sizeof *nd->filtered);
                        if (!nd->filtered) {
                            job_fail(j, SIZE_MAX, "out of memory");
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
        ln->m[li] = in->m->create(&ctx);
        if (!ln->m[li]) {
            job_fail(j, i, "%s", err[0] ? err : "out of memory");
            return -1;
        }
        if (pl->feed >= 0 && add_consumer(&ln->nodes[map[pl->feed]], 0, li, maxcons) != 0) {
            job_fail(j, SIZE_MAX, "out of memory");
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
            nd->def.stage->finish(nd->st, &out);
            deliver(ln, k, &out);
        }
    }
    for (size_t li = 0; li < ln->ninst; li++) {
        const struct engine_inst *in = &j->inst[ln->inst[li]];
        in->m->finish(ln->m[li]);
        in->m->report(ln->m[li], in->out);
        char err[512];
        if (model_out_check(in->out, err, sizeof err) != 0) {
            job_fail(j, ln->inst[li], "%s", err);
            return;
        }
        if (model_out_failed(in->out)) {
            job_fail(j, ln->inst[li], "out of memory for the rows of model '%s'", in->m->name);
            return;
        }
    }
}

static void run_lane(struct engine_job *j, int lane)
{
    struct jobpriv *p = j->priv;
    struct lane ln;
    memset(&ln, 0, sizeof ln);
    ln.j = j;
    ln.inst = p->lanes[lane].inst;
    ln.ninst = p->lanes[lane].n;
    int ok = !j->failed && lane_build(&ln, p->plans) == 0;
    if (!ok && p->ring_init)
        ring_abort(&p->ring);
    if (ok && p->ring_init) {
        for (uint64_t seq = 0;; seq++) {
            long n;
            const struct event *ev = ring_get(j, &p->ring, seq, &n);
            if (!ev)
                break;
            if (ln.has_feed)
                lane_batch(&ln, ev, (size_t)n);
            ring_release(&p->ring, seq);
        }
        ok = !j->failed;
    }
    if (ok)
        lane_finish(&ln);
    lane_free(&ln);
}

/* ---- scheduling ---------------------------------------------------------------- */

struct sched {
    pthread_mutex_t mu;
    const struct engine_options *o;
    struct engine_job *jobs;
    size_t *order;      /* job indices, largest estimated work first */
    size_t njobs, next; /* next: position in order */
    int max_lanes;
};

static void *worker(void *arg)
{
    struct sched *s = arg;
    pthread_mutex_lock(&s->mu);
    while (s->next < s->njobs) {
        struct engine_job *j = &s->jobs[s->order[s->next]];
        struct jobpriv *p = j->priv;
        if (!p) {
            atomic_store(&j->state, JOB_RUNNING);
            int bad = plan_job(j, s->max_lanes) != 0;
            p = j->priv;
            if (p)
                p->t0 = now_s();
            bad = bad || open_job(j) != 0;
            if (bad || p->nlanes == 0) {
                if (p)
                    job_free_priv(j);
                j->seconds = 0;
                atomic_store(&j->state, JOB_DONE);
                s->next++;
                continue;
            }
        }
        int lane = p->taken++;
        if (p->taken == p->nlanes)
            s->next++;
        pthread_mutex_unlock(&s->mu);
        run_lane(j, lane);
        pthread_mutex_lock(&s->mu);
        if (++p->finished == p->nlanes) {
            j->seconds = now_s() - p->t0;
            job_free_priv(j);
            if (!j->failed && s->o->job_done) {
                pthread_mutex_unlock(&s->mu);
                s->o->job_done(j, s->o->ctx);
                pthread_mutex_lock(&s->mu);
            }
            atomic_store(&j->state, JOB_DONE);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static const struct engine_job *sort_jobs;
static int cmp_work(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double wx = sort_jobs[x].work, wy = sort_jobs[y].work;
    if (wx != wy)
        return wx < wy ? 1 : -1;
    return (x > y) - (x < y);
}

size_t engine_run(struct engine_job *jobs, size_t njobs, const struct engine_options *o)
{
    int nt = o->threads > 0 ? o->threads : 1;
    struct sched s = { .o = o, .jobs = jobs, .njobs = njobs, .next = 0 };
    size_t torun = 0;
    for (size_t i = 0; i < njobs; i++)
        torun += !jobs[i].skip;
    /* lanes split jobs only when jobs alone cannot keep the threads busy */
    s.max_lanes = o->max_lanes > 0 ? o->max_lanes : (torun >= 2 * (size_t)nt ? 1 : nt);
    if (s.max_lanes > nt)
        s.max_lanes = nt;
    s.order = malloc((njobs ? njobs : 1) * sizeof *s.order);
    if (!s.order) {
        for (size_t i = 0; i < njobs; i++)
            job_fail(&jobs[i], SIZE_MAX, "out of memory");
        return njobs;
    }
    size_t nrun = 0;
    for (size_t i = 0; i < njobs; i++)
        if (!jobs[i].skip)
            s.order[nrun++] = i;
    s.njobs = nrun;
    static pthread_mutex_t sort_mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&sort_mu);
    sort_jobs = jobs;
    qsort(s.order, nrun, sizeof *s.order, cmp_work);
    pthread_mutex_unlock(&sort_mu);
    pthread_mutex_init(&s.mu, NULL);
    for (size_t i = 0; i < njobs; i++) {
        jobs[i].failed = 0;
        jobs[i].err[0] = '\0';
        jobs[i].err_inst = SIZE_MAX;
        jobs[i].priv = NULL;
        jobs[i].filter = o->filter;
        atomic_store(&jobs[i].state, jobs[i].skip ? JOB_DONE : JOB_WAITING);
    }
    pthread_t *th = calloc((size_t)nt, sizeof *th);
    int started = 0;
    if (th)
        for (; started < nt - 1; started++)
            if (pthread_create(&th[started], NULL, worker, &s) != 0)
                break; /* fewer threads: still correct */
    worker(&s); /* the calling thread works too */
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    free(th);
    free(s.order);
    pthread_mutex_destroy(&s.mu);
    size_t failed = 0;
    for (size_t i = 0; i < njobs; i++)
        failed += jobs[i].failed != 0;
    return failed;
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
