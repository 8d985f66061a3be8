/* plotdata.h - the numbers a figure shows, prepared from a CSV and a plot
 * section, without gnuplot: filter ("where"), group into panels / series /
 * categories, normalise to a baseline, aggregate over workloads (mean or
 * geometric mean with a 95% confidence interval across workloads), carry
 * error bars from the `m_lo`/`m_hi` (or `m_min`/`m_max`) columns, order, and
 * reject two rows that fall on one point.
 *
 * Order: panels, groups and categories appear in the order in which their
 * values first appear in the filtered CSV (the runner's order: workloads in
 * config order, then runs, then sweep points); aggregates come after the
 * values they summarise.  Points of a numeric x axis are sorted by x.
 *
 * Aggregates (plot.aggregate, over the column `over`, "workload" unless
 * given): the mean or geometric mean of the n values v_i of a point (one
 * per workload) with its 95% interval across them (aggregate.h; every v_i
 * must be > 0 for the geometric mean); with "errorbars": "minmax" the bar
 * spans the smallest and largest v_i.
 * Normalisation divides every value (and its bounds) by the value of the
 * baseline row that shares the point's panel, group and x except for the
 * baseline column; it happens before aggregation (so a geometric mean of
 * ratios is the usual speed-up average).
 */
#ifndef PLOTDATA_H
#define PLOTDATA_H

#include <stdbool.h>
#include <stddef.h>

#include "core/csv.h"
#include "core/diag.h"
#include "report/plotspec.h"

struct pd_point {
    size_t panel, group;
    size_t cat;               /* bars, stacked: category index; else SIZE_MAX */
    double x;                 /* numeric x (NaN for bars and stacked) */
    double x_end, y_end, z;   /* heatmap: cell [x, x_end] x [y[0], y_end], value z */
    double xlo, xhi;          /* scatter: bounds of x (NaN: none) */
    const char *label;        /* scatter: text beside the point (NULL: none) */
    bool marker;              /* timeseries: the marker column is set on this row */
    bool aggregate;           /* computed over `over` */
    size_t n;                 /* values summarised (1 for a CSV row) */
    size_t line;              /* CSV line (0 for an aggregate) */
    double *y, *lo, *hi;      /* ny values each; NaN: missing / no bound */
    double total, total_lo, total_hi; /* stacked: bar total and its bounds (NaN: none) */
};

struct plotdata {
    enum plot_kind kind;
    size_t ny;                /* value columns (cdf: 1, the x column) */
    char **ytitle;            /* label of each value column */
    size_t npanels;
    char **panel_title;       /* "" for a single unnamed panel */
    size_t ngroups;
    char **group_label;       /* legend text of each group ("" without group columns) */
    size_t ncats;
    char **cat_label;         /* bars, stacked: text under each category */
    size_t npts;
    struct pd_point *pts;     /* by panel, then group, then category or x */
    bool any_bounds;          /* some point has an error bar */
    bool x_hex, y_hex;        /* the x (y) cells were written as 0x... */
};

/* Build the figure's data; NULL with errors in d (config key paths, whose
 * file is d->file, or CSV file:line).  Columns named by spec must be in csv
 * (checked here too). */
struct plotdata *plotdata_build(const struct plotspec *spec, const struct csv *csv, struct diag *d);
void plotdata_free(struct plotdata *pd); /* accepts NULL */

#endif
