/* v2_fake.h - a minimal stand-in for the v2 runner (model_v2.h, stage.h)
 * so that the RAP models and the stages can be tested before the real
 * engine is merged: it builds an instance's plan, creates its stages in
 * plan order, pushes an event array through them with the stage.h feeding
 * protocol (in batches), and collects the metrics and table rows.  No
 * deduplication, one instance at a time.  Drop it at the merge and run
 * these tests on the real engine. */
#ifndef V2_FAKE_H
#define V2_FAKE_H

#include <stddef.h>
#include "model_v2.h"
#include "stage.h"

#define V2_MAX_TABLES 8

struct v2_table {
    size_t ncols, rows, cap;
    union cell *cells; /* rows * ncols */
};

struct model_out {
    const struct model_desc *m;
    size_t nmetrics;
    double metrics[128];
    int set[128];
    struct v2_table tables[V2_MAX_TABLES];
};

/* Run model m with parameters pv over ev[0..n) in batches of `batch`
 * events.  Returns 0, or -1 with err filled (plan or create failure). */
int v2_run(const struct model_desc *m, const struct param_values *pv, const struct event *ev, size_t n, size_t batch,
           struct model_out *out, char *err, size_t errlen);
void v2_out_free(struct model_out *o);
/* The same in steps: begin (NULL + err on failure), push batches, end
 * (0, or -1 with err: a metric left unset). */
struct v2_job;
struct v2_job *v2_begin(const struct model_desc *m, const struct param_values *pv, struct model_out *out, char *err,
                        size_t errlen);
void v2_push(struct v2_job *j, const struct event *ev, size_t n);
int v2_end(struct v2_job *j);
double v2_metric(const struct model_out *o, const char *name);
/* Column index of a table's column; aborts if absent. */
size_t v2_col(const struct model_desc *m, size_t table, const char *name);

#endif
