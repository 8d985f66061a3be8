/* engine_testutil.h - run model instances over in-memory events through the
 * production engine (engine.h), for the model and sharing tests. */
#ifndef ENGINE_TESTUTIL_H
#define ENGINE_TESTUTIL_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "run/engine.h"
#include "run/model.h"
#include "param_testutil.h"

#define TU_MAXI 64

struct tu_set {
    struct engine_inst inst[TU_MAXI];
    bool want[TU_MAXI][8];
    size_t n;
};

/* Add an instance (every table kept). */
static inline size_t tu_add(struct tu_set *t, const char *model, const struct param_values *pv)
{
    assert_true(t->n < TU_MAXI);
    struct engine_inst *in = &t->inst[t->n];
    memset(in, 0, sizeof *in);
    in->m = model_find(model);
    assert_non_null(in->m);
    in->pv = *pv;
    for (size_t k = 0; k < 8; k++)
        t->want[t->n][k] = true;
    in->wanted_tables = t->want[t->n];
    in->out = model_out_create(in->m, in->wanted_tables);
    assert_non_null(in->out);
    return t->n++;
}

/* Run every instance of t in one job over ev (batch 0: default), or, with
 * alone, each in its own job.  Fails the test on an engine error. */
static inline void tu_run(struct tu_set *t, const struct event *ev, size_t n, size_t batch, int threads, int lanes,
                          bool alone)
{
    size_t njobs = alone ? t->n : 1;
    struct engine_job *jobs = calloc(njobs, sizeof *jobs);
    assert_non_null(jobs);
    for (size_t j = 0; j < njobs; j++) {
        jobs[j].mem_events = ev;
        jobs[j].mem_n = n;
        jobs[j].batch = batch;
        jobs[j].inst = alone ? &t->inst[j] : t->inst;
        jobs[j].ninst = alone ? 1 : t->n;
    }
    /* alone: filtered copies; shared: whole batches (results must not differ) */
    struct engine_options o = { threads, lanes, alone ? FILTER_ALWAYS : FILTER_NEVER, NULL, NULL };
    size_t failed = engine_run(jobs, njobs, &o);
    for (size_t j = 0; j < njobs; j++)
        if (jobs[j].failed)
            fail_msg("engine: %s", jobs[j].err);
    assert_int_equal(failed, 0);
    free(jobs);
}

/* Run every instance of t, each in its own job, over the trace file at
 * path, with the engine option filter (enum engine_filter); kinds (NULL, or
 * t->n values): each job's kinds_kept. */
static inline void tu_run_trace(struct tu_set *t, const char *path, int filter, unsigned *kinds)
{
    struct engine_job *jobs = calloc(t->n ? t->n : 1, sizeof *jobs);
    assert_non_null(jobs);
    for (size_t j = 0; j < t->n; j++) {
        jobs[j].trace_path = path;
        jobs[j].inst = &t->inst[j];
        jobs[j].ninst = 1;
    }
    struct engine_options o = { 2, 1, filter, NULL, NULL };
    size_t failed = engine_run(jobs, t->n, &o);
    for (size_t j = 0; j < t->n; j++) {
        if (jobs[j].failed)
            fail_msg("engine: %s", jobs[j].err);
        if (kinds)
            kinds[j] = jobs[j].kinds_kept;
    }
    assert_int_equal(failed, 0);
    free(jobs);
}

static inline double tu_metric(const struct tu_set *t, size_t i, const char *name)
{
    const struct model_desc *m = t->inst[i].m;
    for (size_t k = 0; m->metrics[k].name; k++)
        if (!strcmp(m->metrics[k].name, name))
            return model_out_metric(t->inst[i].out, k);
    fail_msg("model %s has no metric %s", m->name, name);
    return NAN;
}

/* Metrics and table rows of instance i of a and b are bitwise equal. */
static inline void tu_assert_same(const struct tu_set *a, const struct tu_set *b, size_t i)
{
    const struct model_desc *m = a->inst[i].m;
    for (size_t k = 0; m->metrics[k].name; k++) {
        double x = model_out_metric(a->inst[i].out, k), y = model_out_metric(b->inst[i].out, k);
        if (memcmp(&x, &y, sizeof x) != 0)
            fail_msg("%s #%zu metric %s: %.17g vs %.17g", m->name, i, m->metrics[k].name, x, y);
    }
    for (size_t t = 0; m->tables && m->tables[t].name; t++) {
        size_t ra = model_out_rows(a->inst[i].out, t), rb = model_out_rows(b->inst[i].out, t);
        if (ra != rb)
            fail_msg("%s #%zu table %s: %zu vs %zu rows", m->name, i, m->tables[t].name, ra, rb);
        size_t nc = table_count_cols(&m->tables[t]);
        for (size_t r = 0; r < ra; r++) {
            const union cell *x = model_out_row(a->inst[i].out, t, r), *y = model_out_row(b->inst[i].out, t, r);
            for (size_t c = 0; c < nc; c++) {
                int same = m->tables[t].cols[c].type == COL_TEXT ? strcmp(x[c].s, y[c].s) == 0
                                                                  : memcmp(&x[c], &y[c], sizeof x[c]) == 0;
                if (!same)
                    fail_msg("%s #%zu table %s row %zu column %s differs", m->name, i, m->tables[t].name, r,
                             m->tables[t].cols[c].name);
            }
        }
    }
}

static inline void tu_free(struct tu_set *t)
{
    for (size_t i = 0; i < t->n; i++)
        model_out_free(t->inst[i].out);
    t->n = 0;
}

#endif
