/* config_int.h - what the two parts of the config loader share (config.h
 * is their interface): config.c reads the file, its names, workloads,
 * metrics, tables and sections; config_runs.c its runs.  Include it only
 * there. */
#ifndef CONFIG_INT_H
#define CONFIG_INT_H

#include <stdbool.h>
#include <string.h>

#include "run/config.h"

/* Key paths: the document, base.key, base[i]. */
static inline struct diag_path path0(void)
{
    struct diag_path p;
    memset(&p, 0, sizeof p);
    return p;
}

static inline struct diag_path path_key(const struct diag_path *base, const char *key)
{
    struct diag_path p = *base;
    diag_path_key(&p, key);
    return p;
}

static inline struct diag_path path_idx(const struct diag_path *base, size_t i)
{
    struct diag_path p = *base;
    diag_path_index(&p, i);
    return p;
}

/* "unknown parameter 'k' for model 'm'" at p, with a suggestion. */
void cfg_unknown_param(struct diag *d, const struct diag_path *p, const char *k, const struct model_desc *m);
/* Fill r from a run object (or the top level, at path `at`).  top_params
 * are the top-level "params", applied when the run's model declares them.
 * Returns 0, or -1 when the run cannot be used (errors in d). */
int cfg_load_run(struct diag *d, struct run_spec *r, json_t *obj, json_t *top_params, const struct diag_path *at,
                 int is_top);
/* Every sweep point of the runs whose parameters all loaded (run_ok)
 * built and checked; each failing point an error (the first
 * CONFIG_MAX_POINT_ERRORS listed). */
void cfg_check_points(struct diag *d, const struct config *c, int has_runs, const bool *run_ok);

#endif
