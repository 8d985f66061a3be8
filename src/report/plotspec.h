/* plotspec.h - the "plot" section of a config: schema, validation, parsed form.
 *
 * Schema and meaning of every key: docs/plots.md.  Example:
 *
 *   "plot": {"type": "stacked", "x": "run", "y": ["fp_pct", "fn_pct"],
 *            "group": ["tables"], "panels": "workload",
 *            "labels": {"fp_pct": "false positives", "fn_pct": "false negatives"},
 *            "ylabel": "error (%)", "shared_y": true}
 *
 * Every error goes to a struct diag at the JSON key path it is about
 * ("plot.y[1]", "plot.colour" for an unknown key, with a "did you mean"
 * suggestion), so the config validator can report all of them with
 * line:column.  Column names are checked through struct config_columns
 * (config.h), which the config validator backs with the models'
 * parameters and metrics; `hwprof plot` checks them against the CSV header
 * (plotdata.h).  The section registers its checker with the config loader
 * (CONFIG_SECTION_REGISTER), which knows nothing of what a plot holds.
 */
#ifndef PLOTSPEC_H
#define PLOTSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

#include "core/diag.h"
#include "report/rowfilter.h"

struct config_columns; /* config.h: the columns of a config's output CSVs */

/* Adds every error of plot (the config's "plot" value, path
 * "plot") to d; returns the number added.  (mdtable_check, for the "table"
 * value, is in mdtable.h.) */
size_t plotspec_check(json_t *plot, const struct config_columns *cols, struct diag *d);

/* ---- the parsed section ------------------------------------------------ */

enum plot_kind { PLOT_LINES, PLOT_BARS, PLOT_STACKED, PLOT_SCATTER, PLOT_HEATMAP, PLOT_TIMESERIES, PLOT_CDF };
enum plot_errorbars { EB_AUTO, EB_CI, EB_MINMAX, EB_NONE };
enum plot_agg { AGG_NONE, AGG_MEAN, AGG_GEOMEAN };

#define PLOT_MAX_COLS 32 /* y and group columns, each */

/* Strings and JSON values are borrowed from the section, which must outlive
 * the spec (the filters are the spec's own: plotspec_free).  NULL: not
 * given. */
struct plotspec {
    enum plot_kind kind;
    const char *source;                /* "main" unless given */
    const char *x;
    const char *y[PLOT_MAX_COLS];
    size_t ny;
    const char *group[PLOT_MAX_COLS];
    size_t ngroup;
    const char *panels;
    const char *z, *x_end, *y_end;     /* heatmap */
    const char *label;                 /* scatter: text beside each point */
    const char *marker;                /* timeseries: a mark where this column is set */
    const char *total;                 /* stacked: column whose bounds are the total's error bar */
    bool has_where;                    /* "where" given */
    struct rowfilter where;            /* its conditions */
    json_t *labels;                    /* object of strings */
    bool logx, logy, logz, shared_y;
    const char *xlabel, *ylabel, *title;
    bool has_xmin, has_xmax, has_ymin, has_ymax;
    double xmin, xmax, ymin, ymax;
    enum plot_errorbars errorbars;
    enum plot_agg agg;
    const char *agg_over;              /* "workload" unless given */
    bool agg_only;                     /* drop the individual rows, keep the aggregate */
    const char *norm_col;              /* normalize: {norm_col: norm_value} */
    json_t *norm_value;
    struct filter_cond norm;           /* the rows norm_value picks (norm_col set) */
};

/* Structural checks (keys, types, values; no columns) and the parsed form.
 * Returns the number of errors added to d; spec is usable only when 0. */
size_t plotspec_parse(json_t *plot, struct plotspec *spec, struct diag *d);
/* What the parsed spec owns (also after a failed parse). */
void plotspec_free(struct plotspec *spec);
/* Column checks of a parsed spec: every named column is in the source CSV
 * (and the error-bar columns an explicit "errorbars" needs), and no varying
 * column is left out.  Returns the number of errors added. */
size_t plotspec_check_columns(json_t *plot, const struct plotspec *spec, const struct config_columns *cols,
                              struct diag *d);

const char *plot_kind_name(enum plot_kind k);
/* The label map's text for name (a column name or a cell value), else name. */
const char *plotspec_label(const struct plotspec *spec, const char *name);

#endif
