/* outcols.h - the column names of the output CSVs, and their clashes.
 *
 * Every output CSV of a config (results.c, configs/README.md "Output")
 * starts with the runner's columns (workload, window, weight, run, model,
 * windows), then one column per parameter of every model of the config,
 * then the metrics (each with m_min, m_max, m_lo, m_hi in the main CSV) or
 * the columns of one model table (<stem>.<table>.csv).  Columns are shared
 * by name on purpose: models that declare the same parameter, metric or
 * column of a same-named table write one column.  Two different things of
 * one name (a parameter and a table column, a metric and a parameter of
 * another model, the m_min of metric m and a metric called m_min, a
 * parameter called 'workload') would give the CSV two columns of that name,
 * which `hwprof plot` and `hwprof table` refuse.
 *
 * Which clashes can occur depends on what a config writes (its metrics and
 * tables), so the config loader checks them (outcols_clashes); what is
 * wrong whatever a config asks for (a name given twice in one list, a
 * runner column's name, a table called 'windows') is checked when the
 * models are registered (model_desc_check, registry.c).
 */
#ifndef OUTCOLS_H
#define OUTCOLS_H

#include <stddef.h>

#include "run/model.h"

struct outcol_clash {
    char csv[80];     /* "main", "windows" or the table's name */
    char name[128];   /* the column */
    char first[256];  /* what writes it, e.g. "parameter 'bias' of model 'branch_bias'" */
    char second[256];
    size_t model;     /* index (in models[]) of the model that brings `second` */
    int hint_metric;  /* a metric is involved: "metrics" can leave it out */
    int hint_table;   /* a table column is involved: "tables" can leave it out */
};

/* The clashes of the CSVs written for models[0..n) (one entry per run; a
 * model may appear more than once): the main and windows CSVs with the
 * given metrics (NULL-terminated names; NULL: every metric of the models)
 * and one CSV per name in tables (NULL-terminated; NULL: every table of
 * the models).  Fills at most max clashes into out, returns how many there
 * are (one per column name and CSV), or -1 when out of memory. */
long outcols_clashes(const struct model_desc *const *models, size_t n, const char *const *metrics,
                     const char *const *tables, struct outcol_clash *out, size_t max);

#endif
