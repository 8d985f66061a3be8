/* aggregate.h - numbers of several result rows as one, and the interval
 * around a number: the one aggregator of the reporting code, which a
 * figure's "aggregate" (plotdata.h) and a document marker's agg= and ci
 * (docquery.h) both use.
 *
 * Over the n values v_i of some rows (NaN, an empty cell, skipped):
 *   sum, mean m = sum / n, min, max and where they are (the first on a tie);
 *   the 95% interval of the mean across the rows, Student's t:
 *     s^2 = sum (v_i - m)^2 / (n - 1),  m -+ t(0.975, n - 1) s / sqrt(n)
 *   (none for one value);
 *   the geometric mean: the same on ln v_i, then exp (the caller makes
 *   sure every v_i is > 0).
 * The interval says how much the rows (say, the workloads) differ, not how
 * precise each of them is.
 *
 * The interval of one row is the runner's, from the window statistics it
 * writes beside every metric m of the main CSV (winstats.h): m_lo and
 * m_hi (95% interval over the windows) or m_min and m_max.
 */
#ifndef AGGREGATE_H
#define AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/csv.h"

struct agg_stats {
    size_t n;              /* values summarised */
    bool logs;             /* sum, mean and ss are of ln v_i */
    double sum, mean;      /* NaN when n == 0 */
    double ss;             /* sum of squared deviations from the mean */
    double min, max;       /* of the values themselves; NaN when n == 0 */
    size_t argmin, argmax; /* their indices in v */
};

/* Summarise v[0..n) (NaN skipped); logs: for the geometric mean. */
void agg_compute(const double *v, size_t n, bool logs, struct agg_stats *s);
/* The mean, or with logs the geometric mean (NaN when n == 0). */
double agg_center(const struct agg_stats *s);
/* The 95% interval of agg_center over the values into *lo, *hi; false
 * (both NaN) with fewer than two values. */
bool agg_interval95(const struct agg_stats *s, double *lo, double *hi);

/* ---- one row's interval ------------------------------------------------------ */

enum agg_bounds { AGG_BOUNDS_CI, AGG_BOUNDS_MINMAX };

/* The names of column col's bounds: col_lo, col_hi (or col_min, col_max). */
void agg_bound_names(const char *col, enum agg_bounds b, char *lo, char *hi, size_t len);
/* Their columns in c; false (both -1) unless c has both. */
bool agg_bound_columns(const struct csv *c, const char *col, enum agg_bounds b, int *lo, int *hi);

#endif
