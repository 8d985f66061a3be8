/* results.h - the result files of a run: the main CSV, model tables (the
 * per-interval series and any other table a config asks for) and the
 * sidecar JSON.  Formats: configs/README.md ("Output").
 *
 * Rows come in the runner's order (workloads in config order, then runs,
 * then sweep points); nothing in the CSVs depends on timing or threads, so
 * the same config and traces give byte-identical files. */
#ifndef RESULTS_H
#define RESULTS_H

#include <stdio.h>

#include "run/config.h"
#include "run/outbuf.h"

struct result_row {
    size_t workload;              /* index into c->workloads; SIZE_MAX: analytic ("-") */
    int window;                   /* trace window K (<workload>.wK.trace) */
    double weight;                /* its SimPoint weight (not normalised) */
    size_t run;
    size_t point;
    struct param_values pv;
    const struct model_out *out;
};

/* Rows are job-major: job j (one window of one workload, the windows of a
 * workload consecutive) holds rows [j * per_job, (j + 1) * per_job), the
 * same instances in the same order in every job. */
struct result_set {
    const struct config *c;
    const struct result_row *rows;
    size_t nrows;
    size_t per_job;
};

/* The main CSV, one row per workload x run x sweep point, over windows:
 * workload,run,model,<parameters>,windows, and per metric m:
 * m (weighted mean), m_min, m_max, m_lo, m_hi (95% interval, winstats.h). */
int results_write_csv(const struct result_set *rs, FILE *f);
/* Every window's row: workload,window,weight,run,model,<parameters>,<metrics>
 * (weight normalised over the workload's windows). */
int results_write_windows_csv(const struct result_set *rs, FILE *f);
/* Table `name` of the runs' models: workload,window,run,model,<parameters>,
 * <table columns>.  Returns 0, or 1 when no run's model has the table
 * (nothing written), -1 on error. */
int results_write_table(const struct result_set *rs, const char *name, FILE *f);
/* Does any run's model have table `name`? */
int results_has_table(const struct config *c, const char *name);


#endif
