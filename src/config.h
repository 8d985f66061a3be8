/* config.h - a sweep config (configs/<paper>/<stem>.json), validated and
 * expanded into model instances.  Schema: configs/README.md.  Every error is
 * reported as "path:line:column: message". */
#ifndef CONFIG_H
#define CONFIG_H

#include <jansson.h>
#include <stddef.h>
#include "model.h"

#define CONFIG_MAX_WORKLOADS 64
#define CONFIG_MAX_RUNS 32
#define CONFIG_MAX_POINTS 10000 /* sweep points of one run */

struct sweep_axis {
    size_t param;                 /* index in the model's param table */
    size_t nvals;
    struct param_value *vals;
};

struct run_spec {
    char label[64];
    const struct model_ops *ops;
    struct param_values base;     /* defaults + fixed params */
    size_t naxes;
    struct sweep_axis axes[PARAMS_MAX];
    size_t npoints;               /* product of axis sizes (1 without sweep) */
};

struct config {
    char path[1024];
    char stem[256];
    char paper[64];
    char figure[64];
    char caption[512];
    char name[256];
    size_t nworkloads;            /* 0: analytic config, run once without a trace */
    char workloads[CONFIG_MAX_WORKLOADS][64];
    size_t nruns;
    struct run_spec runs[CONFIG_MAX_RUNS];
    size_t nmetrics;              /* 0: all metrics */
    char metrics[64][64];
    int series;                   /* write the per-interval series CSV */
    json_t *root;
};

/* Load and validate.  workloads_dir lists the known workloads (<name>.wl
 * files); NULL skips the workload-name check.  Returns NULL with err filled. */
struct config *config_load(const char *path, const char *workloads_dir, char *err, size_t errlen);
void config_free(struct config *c); /* accepts NULL */

/* Resolved parameters of sweep point `point` of run r (odometer order, the
 * last sweep key varying fastest). */
void config_point(const struct run_spec *r, size_t point, struct param_values *out);

#endif
