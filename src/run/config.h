/* config.h - a sweep config (configs/<paper>/<stem>.json), validated and
 * expanded into model instances.  Schema: configs/README.md.
 *
 * config_load reports every error of a config (not only the first) into a
 * struct diag, each located at its JSON key path and resolved to
 * line:column of the file; unknown keys, models, parameters, metrics and
 * workloads get a "did you mean" suggestion.
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "run/model.h"

#define CONFIG_MAX_WORKLOADS 256
#define CONFIG_MAX_RUNS 64
#define CONFIG_MAX_POINTS 10000 /* sweep points of one run */
/* Model instances of a config, counted before any trace is read as
 * sweep points (over every run) x workloads (1 for an analytic config);
 * each trace window multiplies them again at run time.  The largest
 * shipped config has 512 (configs/README.md). */
#define CONFIG_MAX_INSTANCES 20000
#define CONFIG_MAX_POINT_ERRORS 20 /* failing sweep points listed one by one */
#define CONFIG_MAX_TABLES 16    /* names in "tables" */

struct sweep_axis {
    size_t param;                 /* index in the model's param table */
    size_t nvals;
    struct param_value *vals;
};

struct run_spec {
    size_t index;                 /* position in the config's "runs" (0 without) */
    char label[64];
    const struct model_desc *model;
    struct param_values base;     /* defaults + fixed params */
    size_t naxes;
    struct sweep_axis axes[PARAMS_MAX];
    size_t npoints;               /* product of axis sizes (1 without sweep) */
    bool *wanted_tables;          /* per table of the model: written? */
};

struct config {
    char path[1024];
    char stem[256];
    char paper[64];
    char figure[64];
    char caption[512];
    char name[256];
    char traces[1024];            /* "traces": the config's own traces folder, which replaces
                                   * the runner's --traces ("" when not given) */
    size_t nworkloads;            /* 0: analytic config, run once without a trace */
    char workloads[CONFIG_MAX_WORKLOADS][64];
    size_t nruns;
    struct run_spec runs[CONFIG_MAX_RUNS];
    size_t nmetrics;              /* 0: all metrics */
    char metrics[64][64];
    bool series;                  /* write the per-interval series CSV */
    size_t ntables;               /* other model tables to write ("tables") */
    char tables[CONFIG_MAX_TABLES][64];
    json_t *root;
    char *text;                   /* the file's text, to locate errors found later (diag_resolve) */
};

/* Load and validate.  workloads_dir lists the known workloads (<name>.wl
 * files); NULL skips the workload-name check.  A config with "traces"
 * names the workloads of that folder instead (wlnames.h), checked always.  Returns NULL when d holds at
 * least one error (every error found is in d). */
struct config *config_load(const char *path, const char *workloads_dir, struct diag *d);
void config_free(struct config *c); /* accepts NULL */
/* Only the file's JSON and the config's names (paper, figure, caption,
 * name, stem), checked as config_load checks them (and the paper not
 * empty: it names the results folder): what a reader of the config's
 * results needs (`hwprof plot`, `hwprof table`), whatever the models and
 * workloads.  NULL when d holds an error. */
struct config *config_read(const char *path, struct diag *d);

/* Resolved parameters of sweep point `point` of run r (odometer order, the
 * last sweep key varying fastest). */
void config_point(const struct run_spec *r, size_t point, struct param_values *out);

/* Columns of this config's outputs (the plot/table validators' view):
 * source "main" (workload, run, model, parameters, metrics, and the window
 * statistics columns), "windows" (per-window rows), "series", or a model
 * table name. */
int config_has_column(const struct config *c, const char *source, const char *col);

/* ---- sections other layers read ------------------------------------------
 * A top-level key whose value another part of hwprof reads, such as the
 * "plot" and "table" sections of the reporting code, is checked by that
 * part: it registers a struct config_section with CONFIG_SECTION_REGISTER
 * (like a model, from its own file), and config_load calls check() with the
 * key's value when the config has it, after its own checks of the runs,
 * sections in the order of their keys.  The key must be one of the
 * config's top-level keys (configs/README.md); the config loader knows
 * nothing of what such a section holds. */

/* The columns of a config's output CSVs, as a section's checker sees them. */
struct config_columns {
    /* does CSV `source` ("main", "series", "windows", or a model
     * table name such as "hot_ranges") have column col? */
    int (*has)(void *ctx, const char *source, const char *col);
    /* columns that vary across the rows of the main CSV (workload,
     * run, every swept parameter, window); NULL-terminated */
    const char *const *varying;
    void *ctx;
};

struct config_section {
    const char *key;
    /* Add every error of value (at key paths under key) to d; c is the
     * config as loaded so far, cols NULL when the columns are not known (a
     * run names an unknown model: every column would be a false error).
     * Returns the number of errors added. */
    size_t (*check)(json_t *value, const struct config *c, const struct config_columns *cols, struct diag *d);
};

#define CONFIG_SECTION_REGISTER(desc)                                                                  \
    static const struct config_section *const config_section_ptr_##desc                             \
        __attribute__((used, section("hwprof_config_sections"), aligned(sizeof(void *)))) = &desc

#endif
